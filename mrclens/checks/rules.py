"""The pre-training sanity check (``mrclens check``): rules over the model-free statistics.

A rule compares one figure with a threshold (``value op threshold``) and says what a failure
means. Figures come from :func:`mrclens.stats.compute_stats` (a rule's metric must be one of
the figures it produces, :data:`mrclens.stats.schema.METRIC_PATHS`, checked when the rules are
loaded) and, when an audit directory is given, from its ``results.json`` (paths starting with
``audit.``, checked when the rules are evaluated). Defaults ship in
``mrclens/data/default_rules.toml``; a user TOML file (read with :mod:`tomllib`) overrides them::

    replace_defaults = false     # true: use only the rules of this file

    [[rule]]
    id = "similarity-shortcut"   # an existing id: the given fields replace the default's
    threshold = 80.0

    [[rule]]
    id = "answer-length"         # a new id: metric, op and threshold are required
    metric = "lengths.answer_words.mean"
    op = "<="
    threshold = 5
    meaning = "long answers"

    [[rule]]
    id = "duplicates"
    enabled = false              # switch a default off

Intervals (issue 44, item 2): a rule on a share, an F1 or a mean (``<=``, ``<``, ``>=``, ``>``) reads
the figure's 95 % confidence interval (:mod:`mrclens.checks.intervals`: Wilson for shares with their
``n``, Student's t for means, both widened to the cluster-robust interval by article on span data;
the intervals multiple-choice statistics and audits record beside a figure): it **passes** when the
whole interval is on its side of the threshold, **fails** when the whole interval lies beyond it, and
is **unsure** ("too small to tell") when the interval holds the threshold, so that a shard of a few
articles does not flip a gate on sampling noise. ``interval = "none"`` in a rule asks for the point
comparison; a figure without an ``n`` (a count) is compared as a point.

Exit codes (:func:`exit_code`): 0 no evaluated rule fails (unsure rules included), 1 any fails; bad
input (data, rules file, audit file, an audit of another dataset: :func:`check_audit_dataset`) raises
:class:`~mrclens.errors.MRCLensError`, which the CLI maps to 2.
Rules on ``leakage.`` need a second (dev) file and rules on ``audit.`` need an audit
directory; without them they are *skipped* (reported, never counted as failures).

Gating on a comparison (issue 19): with ``--compare-with REF`` (a dataset, ``mrclens stats`` JSON
or audit directory; :func:`mrclens.compare.compare` with REF first and DATA second), a
rule's metric may be ``compare.<row key>.<field>``: the row keys are those of ``comparison.json``
(``similarity.answer_in_most_similar_sentence_pct``, ``lengths.question_words``,
``question_types.shares_pct.what``; for audits ``ablations.e1.relative_drop`` …) and the fields
:data:`COMPARE_FIELDS`: ``value`` (DATA's), ``reference_value`` (REF's), ``difference`` (DATA −
REF), ``difference_ci_low``, ``difference_ci_high`` and ``significant`` (1 or 0). "Fail unless
DATA has significantly fewer answers in the most similar sentence than REF"::

    [[rule]]
    id = "less-similarity-than-squad"
    metric = "compare.similarity.answer_in_most_similar_sentence_pct.difference_ci_high"
    op = "<"
    threshold = 0

Without ``--compare-with`` these rules are skipped, and so is one whose difference was not
compared (e.g. drops of audits with different reader profiles).

One rule set (issue 33): the default rules on an audit gate on **the audit's own verdicts**, the
comparison of each bias category with the reference audit that the audit's summary and report show
(``audit.categories.<category>.reference_bias``: ``more`` / ``in line`` / ``less`` /
``inconclusive``, :mod:`mrclens.scoring.against_reference`), not on fixed thresholds of their own:
``op = "!="`` with ``threshold = "more"`` fails exactly the categories the audit reads as more biased
than its reference. A text threshold is allowed with ``==`` and ``!=`` on ``audit.`` metrics only;
a verdict that is ``inconclusive`` (the reader too weak to tell) makes the rule *unsure* (the audit could
not tell; exit 0) and one that is absent (the category was not compared with a reference) skips it.
Before, a fixed rule (``audit.ablations.e4.f1_drop >= 40``) failed the demo audit whose verdict read the Question bias in line with SQuAD v1.1 (the quick
reader's e4 drop is 28 points on SQuAD v1.1 itself).

The task decides the rest (:mod:`mrclens.tasks`; :func:`~mrclens.formats.detect_task` with the
``"sniff_input"`` role picks it): its entry in :data:`FILE_STATS` computes the figures, its
``rules_file`` ships the defaults, its entries in :data:`IS_METRIC` and :data:`KNOWN_METRICS` say
which metrics a rule may test. Multiple-choice data (issue 20; a CODAH TSV or JSON Lines file, or a folds folder) thus gets
the figures of :func:`mrclens.multiple_choice.stats.compute_mc_stats`, the defaults of
``mrclens/data/default_rules_mc.toml`` and its own metrics (or a path under ``audit.``); a
``--rules`` file overrides them the same way. ``--compare-with`` is not available for it.
"""

from __future__ import annotations

import difflib
import math
import operator
import re
import tomllib
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Protocol

from mrclens.errors import EXIT_CHECK_FAILED, EXIT_OK, LanguageMsg, MRCLensError, RulesError
from mrclens.formats import detect_task
from mrclens.metrics.bootstrap import CONFIDENCE, confidence_label
from mrclens.multiple_choice.stats import MC_METRIC_PATHS, is_mc_metric, mc_file_stats
from mrclens.checks.intervals import INTERVAL_CHOICES, ORDER_OPERATORS, decide, figure_interval, lookup_in
from mrclens.stats.files import FileStats, span_file_stats
from mrclens.stats.language_free import NOT_COMPUTED
from mrclens.stats.schema import DEV_SECTION, METRIC_PATHS as SPAN_METRIC_PATHS, is_metric as is_span_metric
from mrclens.tasks import DEFAULT_TASK, MULTIPLE_CHOICE, SPAN, Task, TaskTable, get_task
from mrclens.verdicts import INCONCLUSIVE

#: Comparison operators a rule may use.
OPERATORS = {"<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt, "==": operator.eq, "!=": operator.ne}

#: The operators a text threshold may use (a verdict is equal to it or not).
TEXT_OPERATORS = ("==", "!=")
#: A verdict that skips a rule on it: the audit could not tell (the reader was too weak): :data:`mrclens.verdicts.INCONCLUSIVE`.

#: The roles of an audit's ``inputs`` that are the audited data (span: train, dev; multiple choice: data,
#: ``fold_k:train`` …), whose sha256 ``--with-audit`` compares with the checked file's.
DATA_ROLES = re.compile(r"train|dev|data|fold_\d+:(train|dev|test)")

#: The first component of a metric path into an audit's ``results.json``.
AUDIT_SECTION = "audit"
#: The first component of a metric path into the comparison with ``--compare-with`` (issue 19).
COMPARE_SECTION = "compare"
#: The last component of a ``compare.`` metric: what of the row is checked.
COMPARE_FIELDS = ("value", "reference_value", "difference", "difference_ci_low", "difference_ci_high", "significant")

_RULE_KEYS = {"id", "metric", "op", "threshold", "label", "meaning", "enabled", "interval"}

EXIT_PASS = EXIT_OK
EXIT_FAIL = EXIT_CHECK_FAILED

#: The outcomes of a rule: ``"unsure"`` (too small to tell: the figure's interval holds the threshold,
#: or the audit's verdict is inconclusive) neither passes nor fails, and exits 0 like a pass.
STATUSES = ("pass", "fail", "unsure", "skip")


class FileStatsReader(Protocol):
    """Role ``"file_stats"`` (:mod:`mrclens.tasks`): the model-free figures of a data file (and its dev
    file), as ``mrclens stats`` prints them and ``mrclens check`` tests them. A task reads the options
    that apply to it (a multiple-choice reader takes the span ones and leaves them).

    Raises:
        DataError: a file is invalid; FileNotFoundError: a file does not exist.
    """

    def __call__(self, data: str | Path, dev: str | Path | None = None, *, cache_dir: str | Path | None = None,
                 progress: bool = True, on_invalid: str = "refuse", first_k: int = 3, n_process: int | None = None,
                 on_loaded: Callable[[Any], None] | None = None, language: str | None = None,
                 sentencizer: str | None = None) -> FileStats: ...


class MetricCheck(Protocol):
    """Role ``"is_metric"``: whether a dotted path names a figure of the task's ``mrclens stats``."""

    def __call__(self, path: str) -> bool: ...


#: Each task's ``mrclens stats`` figures (also ``mrclens check``'s, and the CLI's ``mrclens stats``).
FILE_STATS: TaskTable[FileStatsReader] = TaskTable("file_stats", FileStatsReader, {
    SPAN: span_file_stats, MULTIPLE_CHOICE: mc_file_stats})
#: Which metrics a rule may test on each task's data.
IS_METRIC: TaskTable[MetricCheck] = TaskTable("is_metric", MetricCheck, {SPAN: is_span_metric, MULTIPLE_CHOICE: is_mc_metric})
#: Every such metric, for "did you mean" and the list of sections.
KNOWN_METRICS: TaskTable[tuple] = TaskTable("metric_paths", tuple, {SPAN: SPAN_METRIC_PATHS, MULTIPLE_CHOICE: MC_METRIC_PATHS})


@dataclass
class Rule:
    """One check: passes when ``value(metric) op threshold``.

    Attributes:
        id: unique name.
        metric: dotted path into the statistics dict, or ``audit.…`` into the audit's
            ``results.json`` (list items are matched by their ``id`` or ``category`` field).
        op: one of :data:`OPERATORS`.
        threshold: the number compared with (percentages 0–100), or a text (a verdict such as
            ``"more"``) for ``==`` / ``!=`` on an ``audit.`` metric.
        label: what the value is, for the report.
        meaning: what a failure means, in plain words.
        enabled: ``False`` switches the rule off.
        interval: ``"auto"``: with ``<=``, ``<``, ``>=`` or ``>``, the rule reads the figure's confidence
            interval where the figures give one (:mod:`mrclens.checks.intervals`); ``"none"``: a point threshold.
    """

    id: str
    metric: str
    op: str
    threshold: float | str
    label: str = ""
    meaning: str = ""
    enabled: bool = True
    interval: str = "auto"


@dataclass
class RuleResult:
    """The outcome of one rule: ``status`` is one of :data:`STATUSES` (``"skip"`` and ``"unsure"`` with
    ``reason``); ``ci_low``/``ci_high`` the figure's interval the rule read (``None`` for a point
    threshold) and ``method`` how it was made."""

    rule: Rule
    status: str
    value: float | str | None = None
    reason: str = ""
    ci_low: float | None = None
    ci_high: float | None = None
    method: str = ""

    def to_json(self) -> dict:
        """The result as JSON: an unbounded interval end (one value, values that all agree, one article:
        :mod:`mrclens.checks.intervals`) is written ``null`` — JSON has no Infinity — and named in
        ``ci_unbounded`` (``"low"``, ``"high"``); ``ci_low``/``ci_high`` both ``null`` without ``ci_unbounded``:
        a point threshold."""
        d = asdict(self.rule)
        ends = {"low": self.ci_low, "high": self.ci_high}
        unbounded = [k for k, x in ends.items() if isinstance(x, float) and not math.isfinite(x)]
        d.update(status=self.status, value=self.value, reason=self.reason,
                 **{f"ci_{k}": None if k in unbounded else x for k, x in ends.items()},
                 interval_method=self.method or None, **({"ci_unbounded": unbounded} if unbounded else {}))
        return d


@dataclass
class CheckReport:
    """Every rule's result plus what was checked; :attr:`exit_code` is 0 or 1."""

    results: list[RuleResult]
    data: str | None = None
    dev: str | None = None
    rules_file: str | None = None
    audit_dir: str | None = None
    stats: dict | None = field(default=None, repr=False)
    compare_with: str | None = None
    comparison: Any = field(default=None, repr=False)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: the data route alone (:func:`mrclens.scoring.data_route.data_route`): each category read from the data's
    #: own figures as an audit reads them (``None``: multiple-choice data, data not read as English, no articles).
    #: It informs; it never changes :attr:`exit_code` (a rule on it does: ``audit.`` rules read an audit).
    data_route: Any = field(default=None, repr=False)

    @property
    def exit_code(self) -> int:
        """``mrclens check``'s exit status: 0 when no rule fails (unsure and skipped rules included), else 1."""
        return exit_code(self.results)

    def to_json(self) -> dict:
        """The object ``mrclens check --json`` prints: the counts, every rule's result, the data's verdicts."""
        return {
            "passed": self.exit_code == EXIT_PASS,
            "exit_code": self.exit_code,
            "data": self.data,
            "dev": self.dev,
            "rules_file": self.rules_file,
            "audit_dir": self.audit_dir,
            **({"compare_with": self.compare_with} if self.compare_with else {}),
            "confidence": CONFIDENCE,
            "counts": {s: sum(1 for r in self.results if r.status == s) for s in STATUSES},
            "rules": [r.to_json() for r in self.results],
            **({"invalid_input": self.notes} if self.notes else {}),
            **({"warnings": self.warnings} if self.warnings else {}),
            **({"data_verdicts": self.data_route.to_json()} if self.data_route is not None else {}),
        }


def _rule_from_table(table: Any, where: str, base: Rule | None = None, task: str | Task = DEFAULT_TASK) -> Rule:
    if not isinstance(table, dict):
        raise RulesError(f"{where}: each [[rule]] must be a table")
    unknown = set(table) - _RULE_KEYS
    if unknown:
        raise RulesError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}; allowed: {', '.join(sorted(_RULE_KEYS))}")
    rid = table.get("id")
    if not isinstance(rid, str) or not rid:
        raise RulesError(f"{where}: 'id' is missing or not a string")
    values = asdict(base) if base is not None else {}
    values.update(table)
    for key in ("metric", "op", "threshold"):
        if key not in values:
            raise RulesError(f"{where}: rule {rid!r} has no {key!r} (a new rule needs metric, op and threshold)")
    metric, op, threshold = values["metric"], values["op"], values["threshold"]
    _check_metric(metric, f"{where}: rule {rid!r}", task)
    if op not in OPERATORS:
        raise RulesError(f"{where}: rule {rid!r}: op {op!r} is not one of {' '.join(OPERATORS)}")
    if isinstance(threshold, str):
        if op not in TEXT_OPERATORS or not metric.startswith(AUDIT_SECTION + "."):
            raise RulesError(f"{where}: rule {rid!r}: threshold must be a finite number, got {threshold!r} (a text "
                             f"threshold needs op == or != and a metric under {AUDIT_SECTION}., e.g. "
                             f"audit.categories.Question.reference_bias != \"more\")")
    elif isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not math.isfinite(threshold):
        raise RulesError(f"{where}: rule {rid!r}: threshold must be a finite number, got {threshold!r}")
    for key in ("label", "meaning"):
        if not isinstance(values.get(key, ""), str):
            raise RulesError(f"{where}: rule {rid!r}: {key!r} must be a string")
    if not isinstance(values.get("enabled", True), bool):
        raise RulesError(f"{where}: rule {rid!r}: 'enabled' must be true or false")
    if values.get("interval", "auto") not in INTERVAL_CHOICES:
        raise RulesError(f"{where}: rule {rid!r}: 'interval' must be one of {', '.join(map(repr, INTERVAL_CHOICES))}, "
                         f"got {values.get('interval')!r}")
    return Rule(
        id=rid, metric=metric, op=op, threshold=threshold if isinstance(threshold, str) else float(threshold),
        label=values.get("label", ""),
        meaning=values.get("meaning", ""), enabled=values.get("enabled", True), interval=values.get("interval", "auto"),
    )


def _check_metric(metric: Any, where: str, task: str | Task = DEFAULT_TASK) -> None:
    """Raise :class:`RulesError` (prefixed ``where``) unless ``metric`` is a figure of
    ``mrclens stats`` for ``task`` (its entry in :data:`IS_METRIC`: span
    :func:`~mrclens.stats.schema.is_metric`, multiple choice
    :func:`~mrclens.multiple_choice.stats.is_mc_metric`) or a dotted path under ``audit.``."""
    if not isinstance(metric, str):
        raise RulesError(f"{where}: metric must be a string, got {metric!r}")
    section, _, rest = metric.partition(".")
    if section == AUDIT_SECTION:
        if not rest or "" in rest.split("."):
            raise RulesError(f"{where}: metric {metric!r} must be a dotted path into the audit's results, e.g. audit.ablations.e4.f1_drop")
        return
    if section == COMPARE_SECTION:
        _check_compare_metric(metric, rest, where)
        return
    task = get_task(task)
    if not IS_METRIC.of(task)(metric):
        paths = KNOWN_METRICS.of(task)
        data = "" if task.is_default else f" on {task.data_label} data"
        close = difflib.get_close_matches(metric, paths, n=3)
        hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
        sections = ", ".join(dict.fromkeys(p.split(".")[0] for p in paths))
        raise RulesError(
            f"{where}: metric {metric!r} is not a figure of `mrclens stats`{data}{hint}; a metric is the dotted "
            f"path of a number in the `mrclens stats --json` output (sections: {sections}) or, for an "
            f"audit's results, starts with {AUDIT_SECTION}."
        )


def _check_compare_metric(metric: str, rest: str, where: str) -> None:
    """Raise :class:`RulesError` unless ``compare.<row key>.<field>`` names a row :func:`mrclens.compare.compare`
    can produce and one of :data:`COMPARE_FIELDS`."""
    from mrclens.compare import is_row_key

    key, _, fld = rest.rpartition(".")
    if fld not in COMPARE_FIELDS or not is_row_key(key):
        raise RulesError(
            f"{where}: metric {metric!r} must be compare.<row key>.<field>, the row key one of comparison.json's "
            f"(e.g. similarity.answer_in_most_similar_sentence_pct, ablations.e1.relative_drop) and the field one of "
            f"{', '.join(COMPARE_FIELDS)}")


def compare_value(comparison: Any, metric: str) -> tuple[float | None, str]:
    """The value of a ``compare.<row key>.<field>`` metric in a two-input comparison (REF first, DATA
    second), or ``(None, why)`` when there is none (the row is absent, or the difference was not compared)."""
    key, _, fld = metric.partition(".")[2].rpartition(".")
    row = comparison.row(key)
    if row is None:
        return None, f"the comparison has no row {key} (e.g. drops need two audits)"
    if fld in ("value", "reference_value"):
        v = row.values[1 if fld == "value" else 0].value
        return v, "" if v is not None else f"no value for {key}"
    d = row.differences[0]
    if not d.compared:
        return None, f"{key} was not compared: {d.reason}"
    if fld == "significant":
        return float(bool(d.significant)), ""
    return {"difference": d.difference, "difference_ci_low": d.ci_low, "difference_ci_high": d.ci_high}[fld], ""


def _parse_rules_toml(text: str, where: str, base: dict[str, Rule] | None = None,
                      task: str | Task = DEFAULT_TASK) -> tuple[dict[str, Rule], bool]:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise RulesError(f"{where}: not valid TOML: {err}") from None
    unknown = set(doc) - {"rule", "replace_defaults"}
    if unknown:
        raise RulesError(f"{where}: unknown top-level key(s) {', '.join(sorted(unknown))}; expected [[rule]] tables and replace_defaults")
    replace = doc.get("replace_defaults", False)
    if not isinstance(replace, bool):
        raise RulesError(f"{where}: 'replace_defaults' must be true or false")
    tables = doc.get("rule", [])
    if not isinstance(tables, list):
        raise RulesError(f"{where}: 'rule' must be an array of tables ([[rule]])")
    rules: dict[str, Rule] = {} if replace or base is None else dict(base)
    seen: set[str] = set()
    for i, table in enumerate(tables):
        rid = table.get("id") if isinstance(table, dict) else None
        if rid in seen:
            raise RulesError(f"{where}: rule #{i + 1}: duplicate id {rid!r}")
        rule = _rule_from_table(table, f"{where}: rule #{i + 1}", rules.get(rid) if isinstance(rid, str) else None, task)
        seen.add(rule.id)
        rules[rule.id] = rule
    return rules, replace


def default_rules_text(task: str | Task = DEFAULT_TASK) -> str:
    """The text of the shipped default rules file of ``task`` (``mrclens/data/default_rules.toml``;
    multiple-choice: ``default_rules_mc.toml``)."""
    return resources.files("mrclens").joinpath(f"data/{get_task(task).rules_file}").read_text(encoding="utf-8")


def load_rules(path: str | Path | None = None, task: str | Task = DEFAULT_TASK) -> list[Rule]:
    """The rules to check: the shipped defaults of ``task`` (a :class:`~mrclens.tasks.Task` or its name,
    ``"span"`` or ``"multiple_choice"``: its ``rules_file``),
    overridden by the TOML file ``path`` if given.

    Override rules: a rule in ``path`` with an existing id replaces only the fields it gives;
    a new id adds a rule (``metric``, ``op`` and ``threshold`` required); ``enabled = false``
    switches a rule off; ``replace_defaults = true`` at the top drops every default.

    Returns:
        the enabled rules, defaults first (in file order), then new ones.

    Raises:
        RulesError: the file is not valid TOML, has unknown keys, or a rule is incomplete or
            malformed (bad operator, non-numeric threshold, a metric that is not a figure of
            ``mrclens stats`` nor a path under ``audit.``); the message names the file and the rule.
        FileNotFoundError: ``path`` does not exist.
    """
    rules, _ = _parse_rules_toml(default_rules_text(task), get_task(task).rules_file, task=task)
    if path is not None:
        try:
            text = Path(path).read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise RulesError(f"{path}: not UTF-8 text ({err.reason} at byte {err.start}); save the rules file as UTF-8") from None
        except IsADirectoryError:
            raise RulesError(f"{path}: is a directory, not a TOML rules file") from None
        except OSError as err:
            if isinstance(err, FileNotFoundError):
                raise
            raise RulesError(f"{path}: cannot be read: {err.strerror or err}") from None
        rules, _ = _parse_rules_toml(text, str(path), rules, task)
    return [r for r in rules.values() if r.enabled]


def load_audit(directory: str | Path) -> dict:
    """The audit's ``results.json`` (read by :func:`mrclens.artifacts.results.read_results`) as a plain object.

    Raises:
        ArtifactError: the directory has no ``results.json``, or it is not valid results JSON.
    """
    from mrclens.artifacts.results import read_results

    return read_results(directory).to_json()


def resolve_metric(path: str, data: dict) -> Any:
    """The value at dotted ``path`` in ``data``; a list item is found by its ``id``, else its
    ``category``, else its ``name`` field (so ``ablations.e4`` is the ablation with id e4).

    Raises:
        KeyError: some component of the path is absent (the message names it).

    Examples:
        >>> resolve_metric("ablations.e4.f1_drop", {"ablations": [{"id": "e4", "f1_drop": 42.0}]})
        42.0
    """
    node: Any = data
    done = []
    for part in path.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list):
            items = [x for x in node if isinstance(x, dict)]
            match = next((x for field in ("id", "category", "name") for x in items if x.get(field) == part), None)
            if match is None:
                raise KeyError(f"no item {part!r} in {'.'.join(done) or 'the top level'}")
            node = match
        else:
            raise KeyError(f"no {part!r} in {'.'.join(done) or 'the top level'}")
        done.append(part)
    return node


def _lookup(source: Any) -> Callable[[str], Any]:
    """A lookup of dotted paths in ``source`` as :func:`resolve_metric` reads them (``None`` where absent)."""

    def lookup(path: str) -> Any:
        try:
            return resolve_metric(path, source)
        except KeyError:
            return None

    return lookup


def _numeric_result(rule: Rule, value: float, path: str, source: Any, per_article: list[dict] | None,
                    confidence: float) -> RuleResult:
    """A rule on a number: read against its figure's interval (:func:`mrclens.checks.intervals.decide`) when
    the rule is ordered, not ``interval = "none"`` and the figure has one; else the point comparison."""
    interval = None
    if rule.interval != "none" and rule.op in ORDER_OPERATORS:
        interval = figure_interval(path, _lookup(source), [lookup_in(a) for a in per_article or []] or None, confidence)
    if interval is None:
        ok = OPERATORS[rule.op](value, rule.threshold)
        return RuleResult(rule, "pass" if ok else "fail", float(value))
    status = decide(rule.op, float(rule.threshold), interval.low, interval.high)
    reason = (f"too small to tell: the {confidence_label(confidence)} [{fmt_value(interval.low)}, {fmt_value(interval.high)}] "
              f"holds the threshold {fmt_value(rule.threshold)}" if status == "unsure" else "")
    return RuleResult(rule, status, float(value), reason, interval.low, interval.high, interval.method)


def evaluate_rules(rules: list[Rule], stats: dict, audit: dict | None = None, comparison: Any = None,
                   per_article: list[dict] | None = None, confidence: float = CONFIDENCE) -> list[RuleResult]:
    """Evaluate ``rules`` on a statistics dict (and an audit's results, if given).

    A rule on a share, an F1 or a mean (``<=``, ``<``, ``>=``, ``>``) reads the figure's interval at
    ``confidence`` (:mod:`mrclens.checks.intervals`; clustered by article with ``per_article``, the
    statistics of each article, :func:`mrclens.checks.intervals.per_article_figures`): it passes when the
    whole interval is on its side of the threshold, fails when the whole interval is beyond it, and is
    ``"unsure"`` (too small to tell; exit 0) when the interval holds the threshold. A rule on an audit's
    verdict that reads ``inconclusive`` is ``"unsure"`` too (the audit could not tell).

    A rule is skipped (never failed) when its section is absent for a reason the user controls:
    ``leakage`` without a dev file, ``audit`` without an audit directory, an ablation that the
    audit did not evaluate (``"evaluated": false``), a value that is ``null`` (e.g. no
    answerable question), or a figure the statistics did not compute (``not_computed``: data that is
    not English under ``--language-ok``; the reason given for that figure, else the general one). Rules on ``compare.`` read ``comparison`` (a two-input
    :class:`~mrclens.artifacts.comparison.Comparison`, reference first) and are skipped without
    one, or when the row is absent or its difference was not compared (:func:`compare_value`).

    Raises:
        RulesError: a metric path does not exist in the statistics or the audit results, or
            its value is not a number.
    """
    results = []
    for rule in rules:
        section, _, rest = rule.metric.partition(".")
        if section == COMPARE_SECTION:
            if comparison is None:
                results.append(RuleResult(rule, "skip", reason="needs a comparison: run with --compare-with REF"))
                continue
            value, why = compare_value(comparison, rule.metric)
            if value is None:
                results.append(RuleResult(rule, "skip", reason=why))
                continue
            ok = OPERATORS[rule.op](value, rule.threshold)
            results.append(RuleResult(rule, "pass" if ok else "fail", float(value)))
            continue
        if section == AUDIT_SECTION:
            if audit is None:
                results.append(RuleResult(rule, "skip", reason="needs an audit: run with --with-audit DIR"))
                continue
            source, path, where = audit, rest, "the audit's results.json"
        else:
            if section == DEV_SECTION and stats.get(DEV_SECTION) is None:
                results.append(RuleResult(rule, "skip", reason="needs a second file: run with --dev DEV"))
                continue
            source, path, where = stats, rule.metric, "the statistics"
        if section == AUDIT_SECTION and path.startswith("categories.") and len(path.split(".")) > 1:
            category = path.split(".")[1]
            if not any(isinstance(c, dict) and c.get("category") == category for c in source.get("categories") or []):
                results.append(RuleResult(rule, "skip", reason=f"the audit has no {category} category"))
                continue
        try:
            value = resolve_metric(path, source)
        except KeyError as err:
            if source is stats and stats.get(NOT_COMPUTED):
                nc = stats[NOT_COMPUTED]
                why = next((r for p, r in nc.get("figures", {}).items() if path == p or path.startswith(p + ".")),
                           nc["reason"])
                results.append(RuleResult(rule, "skip", reason=why))
                continue
            raise RulesError(f"rule {rule.id!r}: metric {rule.metric!r} not found in {where}: {err.args[0]}") from None
        if section == AUDIT_SECTION and path.startswith("ablations."):
            item = resolve_metric(".".join(path.split(".")[:2]), source)
            if isinstance(item, dict) and item.get("evaluated") is False:
                results.append(RuleResult(rule, "skip", reason=f"ablation {path.split('.')[1]} was not evaluated in the audit"))
                continue
        if value is None:
            why = ("the audit did not compare this category with a reference" if path.endswith(".reference_bias")
                   else "no value (nothing to measure)")
            results.append(RuleResult(rule, "skip", reason=why))
            continue
        if isinstance(rule.threshold, str):
            if not isinstance(value, str):
                raise RulesError(f"rule {rule.id!r}: metric {rule.metric!r} is a number ({value!r}); "
                                 f"its threshold must be a number, not {rule.threshold!r}")
            if value == INCONCLUSIVE.name:
                results.append(RuleResult(rule, "unsure", value, reason="the audit could not tell: its verdict is "
                                                                        "inconclusive (the reader is too weak to tell)"))
                continue
            ok = OPERATORS[rule.op](value, rule.threshold)
            results.append(RuleResult(rule, "pass" if ok else "fail", value))
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise RulesError(f"rule {rule.id!r}: metric {rule.metric!r} is not a number (got {type(value).__name__})")
        results.append(_numeric_result(rule, value, path, source, per_article if source is stats else None, confidence))
    return results


def _evaluation_source(audit: dict, audit_dir: str | Path) -> tuple[str, str | None, str]:
    """The source an evaluation's perturbed sets were made from, read from their manifest: ``(file, sha256
    or None, why)``; ``("", None, why)`` when the manifest cannot be read or has changed since."""
    from mrclens.artifacts.manifest import manifest_path, read_manifest
    from mrclens.io_utils import sha256_file

    entry = next((i for i in audit.get("inputs") or [] if isinstance(i, dict) and i.get("role") == "manifest"), None)
    if entry is None:
        return "", None, ""
    candidates = [Path(entry.get("file") or ""), Path(audit_dir) / (entry.get("file") or "")]
    perturbed = (audit.get("paths") or {}).get("perturbed_dir")
    if perturbed:
        candidates.insert(0, manifest_path(Path(audit_dir) / perturbed))
    found = next((c for c in candidates if c.name and c.is_file()), None)
    if found is None:
        return "", None, f"the manifest it records ({entry.get('file')}) is not there"
    if entry.get("sha256") and sha256_file(found) != entry["sha256"]:
        return "", None, f"the manifest it records ({found}) has changed since"
    source = read_manifest(found.parent).source
    if not source.sha256:
        return "", None, f"the manifest {found} records no checksum of its source"
    return str(source.file), source.sha256, ""


def check_audit_dataset(audit: dict, audit_dir: str | Path, data: str | Path, dev: str | Path | None = None) -> str | None:
    """Refuse an audit or evaluation (``results.json`` as a plain object) of another dataset than ``data``.

    An audit's ``inputs`` record the sha256 of its training and evaluation files; an evaluation's
    (``mrclens evaluate --predictions-dir``) record its perturbed sets' manifest, which records the sha256
    of the file the sets were made from (:func:`_evaluation_source`). ``data`` (or ``dev``) must be one of
    them. Nothing is checked when ``data`` is a folder or the results record no input at all.

    Returns:
        ``None`` when the checksums agree or there is nothing to compare, else a warning saying why the
        dataset could not be verified (an evaluation whose manifest is gone or changed).

    Raises:
        RulesError: no recorded file has the content of ``data`` or ``dev`` (the message names the audit,
            the recorded files and ``data``, with their checksums).
    """
    from mrclens.io_utils import sha256_file

    recorded = {i.get("sha256"): i.get("file") for i in audit.get("inputs") or []
                if isinstance(i, dict) and i.get("sha256") and DATA_ROLES.fullmatch(str(i.get("role")))}
    given = [Path(p) for p in (data, dev) if p is not None and Path(p).is_file()]
    if not given:
        return None
    why = ""
    if not recorded:
        source, sha, why = _evaluation_source(audit, audit_dir)
        if sha is None:  # no input recorded at all (not written by MRCLens): nothing to compare, as before
            return f"--with-audit {audit_dir}: could not verify that it is an audit of {given[0]}: {why}" if why else None
        recorded = {sha: f"{source} (the source of the evaluated perturbed sets)"}
    if any(sha256_file(p) in recorded for p in given):
        return None
    files = ", ".join(f"{f} (sha256 {h[:12]}…)" for h, f in recorded.items())
    raise RulesError(f"--with-audit {audit_dir}: an audit of another dataset: it records {files}, and "
                     f"{given[0]} has sha256 {sha256_file(given[0])[:12]}…; give the audit of {given[0]}")


def inconclusive_notes(audit: dict | None, results: list[RuleResult]) -> list[str]:
    """One line per category the audit could not tell (``reference_bias`` ``inconclusive``) that no rule read."""
    if audit is None:
        return []
    read = {r.rule.metric.split(".")[2] for r in results
            if r.rule.metric.startswith(f"{AUDIT_SECTION}.categories.") and len(r.rule.metric.split(".")) > 2}
    return [f"audit: could not tell the {c.get('category')} bias against {c.get('reference') or 'the reference'} "
            f"(its verdict is inconclusive: the reader is too weak to tell); no rule reads it"
            for c in audit.get("categories") or []
            if isinstance(c, dict) and c.get("reference_bias") == INCONCLUSIVE.name and c.get("category") not in read]


def _clusters_by_article(rule: Rule) -> bool:
    """Whether ``rule`` may read an interval clustered by article (an ordered rule on a figure of the data itself)."""
    return (rule.interval != "none" and rule.op in ORDER_OPERATORS and not isinstance(rule.threshold, str)
            and rule.metric.partition(".")[0] not in (AUDIT_SECTION, COMPARE_SECTION, DEV_SECTION))


def exit_code(results: list[RuleResult]) -> int:
    """0 when no rule failed (skipped and unsure rules do not count), else 1."""
    return EXIT_FAIL if any(r.status == "fail" for r in results) else EXIT_PASS


def run_check(
    data: str | Path,
    dev: str | Path | None = None,
    rules: str | Path | None = None,
    audit_dir: str | Path | None = None,
    *,
    cache_dir: str | Path | None = None,
    progress: bool = True,
    on_invalid: str = "refuse",
    compare_with: str | Path | None = None,
    n_process: int | None = None,
    language_ok: bool = False,
    on_language: Callable[[str], None] | None = None,
    declared_language: str | None = None,
) -> CheckReport:
    """Load the data, compute the statistics and evaluate the rules (``mrclens check``).

    The rules file and the audit are read first, so a bad one fails before any parsing.

    Args:
        data: the SQuAD file to check (e.g. the training file), or multiple-choice data (a CODAH
            TSV or JSON Lines file, or a folds folder): then the figures are those of
            :func:`mrclens.multiple_choice.stats.compute_mc_stats` and the defaults
            ``default_rules_mc.toml``.
        dev: a second file, for the leakage rules.
        rules: a TOML rules file overriding the defaults (:func:`load_rules`).
        audit_dir: an ``mrclens audit`` output directory (its ``results.json``).
        cache_dir: the spaCy parse cache directory.
        progress: show progress bars.
        on_invalid: ``"refuse"``, ``"skip"`` or ``"repair"`` (:func:`mrclens.formats.load_dataset`);
            what was skipped or repaired is in ``report.notes``.
        compare_with: a reference to compare ``data`` with (a dataset, ``mrclens stats`` JSON or
            audit directory; :func:`mrclens.compare.compare`, the reference first): enables
            the rules on ``compare.``.
        n_process: worker processes for the per-question statistics (``None``: the CPUs
            available, at most 4; :func:`mrclens.stats.files.span_file_stats`).
        language_ok: ``--language-ok``: on data that is not English (the language check,
            :func:`mrclens.languages.require_readable_language`, runs once the rules and the audit are
            read, before the data is parsed) only the figures that read no words are computed and every
            rule on another figure is skipped, never failed. Without it such data raises
            :class:`~mrclens.errors.LanguageError`.
        on_language: called with each line saying what runs on data that is not English (or, with
            ``declared_language``, what the detection read).
        declared_language: ``"en"`` (``--language en``): the data is English as declared; every rule runs
            (:func:`mrclens.languages.require_readable_language`).

    Raises:
        DataError: a data file is invalid (exit 2).
        RulesError: the rules file or the audit results are malformed, or the audit is of another
            dataset (:func:`check_audit_dataset`) (exit 2).
        FileNotFoundError: an input file does not exist (exit 2).
        LanguageError: the data is not English and not ``language_ok`` (exit 2).
        MRCLensError: ``compare_with`` on data that is not English (exit 2).
    """
    from mrclens.languages import require_readable_language

    task = detect_task(data, role="sniff_input")
    rule_list = load_rules(rules, task)
    audit = load_audit(audit_dir) if audit_dir is not None else None
    warnings = []
    if audit is not None:
        warnings += [w for w in [check_audit_dataset(audit, audit_dir, data, dev)] if w]
    language = require_readable_language("check", [data, dev], allow=language_ok, cache_dir=cache_dir,
                                         on_invalid=on_invalid, declared=declared_language)
    if compare_with is not None and language.language_free:
        raise MRCLensError(LanguageMsg.COMPARE_NEEDS_ENGLISH.format(language=language.language))
    for note in language.notes():
        if on_language is not None:
            on_language(note)
    if compare_with is not None and not task.check_compare_with:
        raise MRCLensError(f"{data}: --compare-with is not available for {task.data_label} data")
    reference = None
    if compare_with is not None:  # read before the data is parsed, so a bad reference fails early
        from mrclens.compare import load_input

        reference = load_input(compare_with, "reference", cache_dir=cache_dir, progress=progress, on_invalid=on_invalid)
    stats = FILE_STATS.of(task)(data, dev, cache_dir=cache_dir, progress=progress, on_invalid=on_invalid,
                                     n_process=n_process, **language.stats_options)
    comparison = None
    if reference is not None:
        from mrclens.compare import compare_sources, source_from_stats

        comparison = compare_sources([reference, source_from_stats(stats.figures, "data", str(data), values=stats.values,
                                                                   kind="dataset")])
    # the data route alone (issue 57): each category read from the data's own figures, as an audit reads them
    wants_route = bool(task.data_route and not language.language_free and stats.datasets and stats.datasets[0].articles)
    per_article = None
    if stats.datasets and (wants_route or any(_clusters_by_article(r) for r in rule_list)):
        from mrclens.checks.intervals import per_article_figures

        per_article = per_article_figures(stats.datasets[0], cache_dir=cache_dir, progress=progress,
                                          stats_options=language.stats_options, whole=stats.figures)
    results = evaluate_rules(rule_list, stats.figures, audit, comparison, per_article)
    route = None
    if wants_route:
        from mrclens.artifacts.reference import read_reference
        from mrclens.scoring.data_route import data_route

        route = data_route(stats.figures, per_article or [], read_reference())
    return CheckReport(results, str(data), str(dev) if dev else None, str(rules) if rules else None,
                       str(audit_dir) if audit_dir else None, stats.figures, notes=stats.notes,
                       compare_with=str(compare_with) if compare_with is not None else None, comparison=comparison,
                       warnings=warnings + inconclusive_notes(audit, results), data_route=route)


def fmt_value(x: float | str | None) -> str:
    """A rule's value, interval end or threshold as the report prints it: ``-`` for none, a whole number without
    decimals, else two; a text as it is (quoted when blank or padded)."""
    if x is None:
        return "-"
    if isinstance(x, str):
        return repr(x) if x.strip() != x or not x else x
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.2f}"
