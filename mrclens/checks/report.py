"""The text report of ``mrclens check`` (:func:`format_report`): one line per rule, the notes, the closing count,
and the data route alone (:func:`mrclens.reports.summary.format_data_route`) where the check computed it."""

from __future__ import annotations

from mrclens.checks.rules import EXIT_PASS, STATUSES, CheckReport, RuleResult, fmt_value
from mrclens.metrics.bootstrap import CONFIDENCE, confidence_label


#: The status column's width: the longest status, ``UNSURE``, so every rule id starts in one column (issue 57).
STATUS_WIDTH = max(len(s) for s in STATUSES)
#: A rule's second line (its meaning, or why it is unsure) starts under its id.
INDENT = " " * (STATUS_WIDTH + 2)


def rule_lines(r: RuleResult) -> list[str]:
    """The lines of one rule's result in :func:`format_report`: status, id, label = value with its interval
    (the bootstrap's confidence level, e.g. ``95% CI``), op threshold; under a failure its meaning, under an
    unsure rule why (the CI gate's annotations quote them, :mod:`mrclens.cli.gate_report`)."""
    rule = r.rule
    if r.status == "skip":
        return [f"{'SKIP':{STATUS_WIDTH}}  {rule.id}: {rule.label or rule.metric} ({r.reason})"]
    level = confidence_label(CONFIDENCE)
    ci = f" ({level} [{fmt_value(r.ci_low)}, {fmt_value(r.ci_high)}])" if r.ci_low is not None else ""
    lines = [f"{r.status.upper():{STATUS_WIDTH}}  {rule.id}: {rule.label or rule.metric} = {fmt_value(r.value)}{ci} "
             f"(rule: {rule.op} {fmt_value(rule.threshold)})"]
    if r.status == "fail" and rule.meaning:
        lines.append(f"{INDENT}means: {rule.meaning}")
    if r.status == "unsure":
        lines.append(f"{INDENT}{r.reason}")
    return lines


def format_report(report: CheckReport) -> str:
    """One line per rule (status, id, label = value with its interval, op threshold), the meaning under
    each failure, why under each unsure rule (:func:`rule_lines`), and a closing summary line."""
    lines = [line for r in report.results for line in rule_lines(r)]
    level = confidence_label(CONFIDENCE)
    verdicts = [r for r in report.results if r.status != "skip" and isinstance(r.rule.threshold, str)]
    if verdicts and len(verdicts) < sum(1 for r in report.results if r.status != "skip"):
        lines.append("note: the audit rules gate on the audit's own verdicts against its reference (its summary);")
        lines.append(f"{INDENT}the other rules are thresholds on the data alone")
    if any(r.ci_low is not None for r in report.results):
        lines.append(f"note: a rule with an interval fails only when its whole {level} lies beyond the threshold, "
                     "passes when it lies wholly within, else it is UNSURE (too small to tell; exit 0)")
    c = report.to_json()["counts"]
    if report.exit_code != EXIT_PASS:
        verdict = f"{c['fail']} rule(s) FAIL"
    else:
        verdict = f"no rule fails; {c['unsure']} too small to tell" if c["unsure"] else "all rules pass"
    unsure = f", {c['unsure']} unsure" if c["unsure"] else ""
    lines.append(f"{verdict} ({c['pass']} pass, {c['fail']} fail{unsure}, {c['skip']} skipped)")
    if report.data_route is not None:
        from mrclens.reports.summary import format_data_route

        lines += ["", format_data_route(report.data_route),
                  "(informs; the exit status is the rules'. The audit adds the reader's drops: mrclens audit DATA)"]
    return "\n".join(lines)
