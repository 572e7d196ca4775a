"""``mrclens check``: rules over the model-free statistics (:mod:`mrclens.checks.rules`) and the confidence
interval each rule's figure carries (:mod:`mrclens.checks.intervals`).

Public API (the names other floors and the CLI use)::

    from mrclens.checks import load_rules, run_check, format_report
    report = run_check("data.json")          # a CheckReport; exit_code(report.results) is the CLI's code

:mod:`mrclens.checks.notebook` runs ``mrclens stats`` and ``mrclens check`` as library calls on a file or a
dataset in memory (:func:`file_stats`, :func:`dataset_stats`, :func:`check_dataset`).
"""

from mrclens.checks.intervals import INTERVAL_CHOICES, ORDER_OPERATORS, decide, figure_interval, per_article_figures
from mrclens.checks.rules import (AUDIT_SECTION, COMPARE_SECTION, EXIT_FAIL, EXIT_PASS, FILE_STATS, IS_METRIC,
                                  KNOWN_METRICS, STATUSES, CheckReport, Rule, RuleResult, RulesError,
                                  default_rules_text, evaluate_rules, exit_code, inconclusive_notes, load_rules,
                                  run_check)
from mrclens.checks.report import format_report, rule_lines
from mrclens.checks.notebook import check_dataset, dataset_stats, file_stats

__all__ = [
    "AUDIT_SECTION", "COMPARE_SECTION", "EXIT_FAIL", "EXIT_PASS", "FILE_STATS", "INTERVAL_CHOICES", "IS_METRIC",
    "KNOWN_METRICS", "ORDER_OPERATORS", "STATUSES", "CheckReport", "Rule", "RuleResult", "RulesError",
    "check_dataset", "dataset_stats", "decide", "default_rules_text", "evaluate_rules", "exit_code", "file_stats",
    "figure_interval", "format_report", "inconclusive_notes", "load_rules", "per_article_figures", "rule_lines",
    "run_check",
]
