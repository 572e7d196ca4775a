"""The verdict at a glance: the few lines that end ``mrclens audit``, ``evaluate`` and ``compare`` (issue 33).

The full table (``--wide``, :mod:`mrclens.reports.table`) is ~200 columns wide; these lines give the
answer first. :func:`format_summary` prints lines of at most :data:`WIDTH` characters (at most :data:`MAX_LINES`): a
header, one line per bias category (at most :data:`MAX_CATEGORIES`), where a category reads "more" the file that
lists the questions carrying its shortcut (:func:`flagged_line`, issue 56) and one line pointing to the report. No
number is ever cut (issue 57): a category whose figure and advice do not fit one line continues on a second,
indented (the advice, after ``→``), and a longer text wraps at spaces, never inside an interval. Each category
line holds

* the **verdict** — against the reference audit when the category was compared
  (``CategoryResult.reference_bias``: ``more`` / ``in line`` / ``less`` / ``inconclusive``;
  ``more (data)`` when the model-free figures decided it, ``reference_basis == "model-free"``), else
  the absolute evidence level (``strong`` / ``moderate`` / ``weak`` / ``no sign`` / ``inconclusive``,
  :mod:`mrclens.scoring.readings`);
* the **one figure that decided it**, with its interval (percentage points; the interval at the
  results' confidence level): for a verdict from the drops, the category's mean difference to the
  reference in percent of the baseline F1, signed towards the bias (``rel. drop vs ref +12.3 [+5.1,
  +19.5]``); for one from the data, the model-free figure that differs towards the shortcut
  (``ModelFreeFigure`` with ``comparison == bias_when``: its value, interval and the reference's
  value); for an absolute level, the drop (or excess drop) of the ablation whose level is the
  category's (the majority rule of :func:`mrclens.scoring.readings.category_level`); for an
  inconclusive one, the baseline score below :data:`mrclens.scoring.readings.LOW_BASELINE_F1`. The figure of a
  verdict from the drops and that of an absolute level are the category's one figure
  (:func:`mrclens.reports.glance.reading_figure`), printed with the same label and rounding by the report's
  first screen, the card and the ``--wide`` table (issue 44);
* **what to do** about it (:attr:`mrclens.categories.BiasCategory.advice`).

:func:`format_comparison_summary` does the same for a comparison (``mrclens compare``): per bias
category, each later input against the first (``more`` / ``less`` / ``in line`` of the shortcut,
from the rows' significant differences and their ``direction``).

Examples:
    >>> from mrclens.artifacts.results import BootstrapSettings, CategoryResult, ModelRecord, Results, SetResult
    >>> r = Results("0.1.0", "2026-01-01T00:00:00Z", 0, ModelRecord("external", "first sentence"),
    ...             BootstrapSettings(1000, 0.95, 0), sets={"original": SetResult("original.json", 400, 9.0, 12.0)},
    ...             categories=[CategoryResult("Question", ["e4", "e5"], ["e4"], 3.0, 1.0, 5.0, evidence="inconclusive")])
    >>> print(format_summary(r))
    Evidence of each bias (external model 'first sentence', F1 12.0 on 400 questions; no reference):
    Question   inconclusive F1 12.0, under 30                             → try a stronger model
    Readings and every figure: --wide; report.html with --out DIR
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import asdict, dataclass
from typing import Any, Sequence

from mrclens.artifacts.comparison import Comparison
from mrclens.artifacts.results import CategoryResult, ModelFreeFigure, Results
from mrclens.artifacts.shortcut_questions import EVIDENCE_CLASSES
from mrclens.categories import get_category
from mrclens.metrics.bootstrap import fmt_bound
from mrclens.reports.glance import (MODEL_FREE_SHORT_LABELS, inconclusive_why, mde_text, model_free_reading_figure,
                                    reading_figure)
from mrclens.scoring.readings import LOW_BASELINE_F1
from mrclens.verdicts import (EVIDENCE_NAMES, IN_LINE, INCONCLUSIVE, INCONCLUSIVE_LEVEL, LESS, MORE, NOT_COMPARED,
                              READING_NAMES, WEAK_READER, evidence_level, reading, undecided)

#: The widest line the summary prints (characters).
WIDTH = 100
#: Category lines at most (the four bias categories); more are named in the last line.
MAX_CATEGORIES = 4
#: Lines at most: a header (two lines when a long model name wraps it), :data:`MAX_CATEGORIES` categories of at
#: most two lines each (:func:`category_lines`), the file of flagged questions (:func:`flagged_line`), the pointer
#: to the report.
MAX_LINES = 2 * MAX_CATEGORIES + 4
#: Column widths of a category line: name, verdict, figure (the advice takes the rest).
NAME_WIDTH, VERDICT_WIDTH, FIGURE_WIDTH = 10, 12, 45

#: What to do when a category shows the bias (more than the reference, or moderate/strong evidence):
#: :attr:`mrclens.categories.BiasCategory.advice`. What to do otherwise, by verdict.
NO_ACTION = "no action needed"
ADVICE_OTHER = {"weak": "read the report's examples", "not evaluated": "see the report"}
#: What to do when the audit could not tell (issue 41), by why: an interval wider than its band, or routes
#: pointing opposite ways (:func:`mrclens.reports.glance.inconclusive_why`): the reason's
#: :attr:`mrclens.verdicts.Undecided.short_advice`.
#: What to do when the reader was too weak to tell, by the model's kind.
ADVICE_WEAK_READER = {"baseline": "train longer / on more data", "external": "try a stronger model"}
#: What to do when a "more" / "less" from the drops alone may come from the data's context length (issue 41,
#: ``reference_shape``): the category's own advice would treat the shape as a shortcut.
ADVICE_SHAPE = "may be context length, not a shortcut: see report"
#: The verdict word of an absolute evidence level: its :attr:`mrclens.verdicts.EvidenceLevel.word`.


@dataclass
class CategorySummary:
    """One category's line: ``verdict`` (see the module docstring), ``figure`` (the figure that decided
    it, with its interval; ``""`` when none) and ``advice``; ``against_reference`` says whether the
    verdict is the comparison with the reference (else the absolute evidence level)."""

    category: str
    verdict: str
    figure: str
    advice: str
    against_reference: bool


def fit(text: str, width: int = WIDTH) -> str:
    """``text`` cut to ``width`` characters, ending with ``…`` when cut (a label, never a figure: :func:`wrap`)."""
    return text if len(text) <= width else text[: width - 1] + "…"


#: An interval or a bracketed figure, which :func:`wrap` never splits.
_BRACKETS = re.compile(r"\[[^\]]*\]")


def wrap(text: str, width: int = WIDTH, indent: str = "", first_indent: str = "") -> list[str]:
    """``text`` wrapped at spaces into lines of at most ``width`` characters, the later ones starting with
    ``indent``; a bracketed interval (``[+10.0, +19.5]``) is never split and no word is cut (a single word longer
    than a line stays whole on its own line).

    >>> wrap("shortcut ≈ +38% of q. [+20, +56], band ±10% → paraphrase the questions", 40, "  ")
    ['shortcut ≈ +38% of q. [+20, +56], band', '  ±10% → paraphrase the questions']
    """
    kept = _BRACKETS.sub(lambda m: m.group(0).replace(" ", "\u00a0"), text)  # textwrap splits ASCII spaces only
    lines = textwrap.wrap(kept, width=width, initial_indent=first_indent, subsequent_indent=indent,
                          break_long_words=False, break_on_hyphens=False)
    return [line.replace("\u00a0", " ") for line in lines] or [first_indent.rstrip()]


def fit_left(path: str, width: int) -> str:
    """A path cut from the left to ``width`` characters (``…/out/report.html``), so that its end stays."""
    return path if len(path) <= width else "…" + path[len(path) - width + 1:]


def _interval(value: float, low: float, high: float, signed: bool = False) -> str:
    return f"{fmt_bound(value, signed)} [{fmt_bound(low, signed)}, {fmt_bound(high, signed)}]"


def model_free_figure(fig: ModelFreeFigure) -> str:
    """``similar-sentence % 98.0 [96.1, 99.9] vs 80.6``: a model-free figure, its interval and the
    reference's value, at most :data:`FIGURE_WIDTH` characters (the label is cut to fit); a verdict figure with a
    planted-share scale as its difference in that unit (:func:`mrclens.reports.glance.model_free_reading_figure`)."""
    if fig.per_planted_pct and fig.difference is not None and fig.difference_ci_low is not None \
            and fig.difference_ci_high is not None:
        return str(model_free_reading_figure(fig))
    numbers = f" {_interval(fig.value, fig.ci_low, fig.ci_high)}"
    if fig.reference_value is not None:
        numbers += f" vs {fmt_bound(fig.reference_value)}"
    name = MODEL_FREE_SHORT_LABELS.get(fig.path, fig.label)
    return fit(name, max(FIGURE_WIDTH - len(numbers), 8)) + numbers


def _weak_figure(results: Results) -> str:
    """The baseline score that made a verdict inconclusive: ``F1 12.0, under 30`` (HasAns on SQuAD v2.0)."""
    metric = results.metric
    s = results.sets.get("original")
    if s is None or s.f1 is None:
        return f"baseline {metric} under {LOW_BASELINE_F1:.0f}"
    has_ans = (s.subsets or {}).get("HasAns")
    if s.f1 >= LOW_BASELINE_F1 and has_ans is not None and getattr(has_ans, "f1", None) is not None:
        return f"HasAns {metric} {fmt_bound(has_ans.f1)}, under {LOW_BASELINE_F1:.0f}"
    return f"{metric} {fmt_bound(s.f1)}, under {LOW_BASELINE_F1:.0f}"


def summarize_category(c: CategoryResult, results: Results) -> CategorySummary:
    """The verdict, deciding figure and advice of one category (rules in the module docstring)."""
    kind = results.model.kind if results.model.kind in ADVICE_WEAK_READER else "external"
    why = None
    one = reading_figure(c, results.ablations, results.metric, results.model_free)  # every surface shows it (issue 44)
    read = reading(c.reference_bias) if c.reference_bias in READING_NAMES else None
    shape = bool(getattr(c, "reference_shape", None)) and read is not None and read.differs \
        and c.reference_basis == "drops"  # a "more" / "less" from the drops alone
    if c.reference_bias is not None:
        verdict = c.reference_bias
        shows_bias = read is MORE
        why = inconclusive_why(asdict(c)) if read is INCONCLUSIVE else None
        if why == WEAK_READER.name:
            figure = _weak_figure(results)
        elif c.reference_basis == "model-free" and read is not None and read.differs:
            figure = str(one) if one is not None else ""
            verdict += " (data)"
        elif one is not None:
            figure = str(one)
            mde = mde_text(c)
            if mde is not None:  # what the audit could see (issue 41), in the figure's unit (issue 54)
                figure += f"; MDE {mde}"
        else:
            figs = [f for f in results.model_free if f.category == c.category and f.comparison is not None
                    and getattr(f, "role", "verdict") == "verdict"]
            figure = model_free_figure(figs[0]) if figs else ""
        against = True
    elif c.evidence is not None:
        level = evidence_level(c.evidence) if c.evidence in EVIDENCE_NAMES else None
        verdict = level.word if level is not None else c.evidence
        shows_bias = level is not None and level.shows_bias
        figure = _weak_figure(results) if level is INCONCLUSIVE_LEVEL else str(one or "")
        against = False
    else:
        verdict, shows_bias, figure, against = "not evaluated", False, "", False
    if why == WEAK_READER.name or (not against and c.evidence == INCONCLUSIVE_LEVEL.name):
        advice = ADVICE_WEAK_READER[kind]
    elif why is not None:
        advice = str(undecided(why).short_advice)
    elif shape:
        advice = ADVICE_SHAPE
    elif shows_bias:
        advice = get_category(c.category).advice
    else:
        advice = ADVICE_OTHER.get(verdict, NO_ACTION)
    return CategorySummary(c.category, verdict, figure, advice, against)


def category_lines(s: CategorySummary) -> list[str]:
    """One category's line: name, verdict, figure, ``→ advice``; where they do not fit :data:`WIDTH` characters,
    the figure whole on the first line and the advice on a second, indented under the verdict (:func:`wrap` where
    even that is too long). No number is cut (issue 57)."""
    head = f"{s.category:<{NAME_WIDTH}} {s.verdict:<{VERDICT_WIDTH}} "
    one = f"{head}{s.figure:<{FIGURE_WIDTH}} → {s.advice}"
    if len(one) <= WIDTH:
        return [one]
    indent = " " * (NAME_WIDTH + 1)
    return wrap(f"{head}{s.figure}", WIDTH, indent) + wrap(f"→ {s.advice}", WIDTH, indent + "  ", indent)


def _score_label(results: Results) -> str:
    s = results.sets.get("original")
    if s is None or s.f1 is None:
        return ""
    return f", {results.metric} {fmt_bound(s.f1)} on {s.n:,} questions"


def flagged_line(categories: Sequence[str], evidence: str) -> str:
    """The line after the categories that names the file listing the questions of the categories read "more"
    (issue 56): ``→ flagged questions of Similarity: OUT/shortcut-questions.jsonl (mrclens filter)``, at most
    :data:`WIDTH` characters: the names dropped where they do not fit, then the path cut from the left
    (:func:`fit_left`), never a number of the glance.

    >>> flagged_line(["Similarity", "Keyword"], "audit-sample/shortcut-questions.jsonl")
    '→ flagged questions of Similarity, Keyword: audit-sample/shortcut-questions.jsonl (mrclens filter)'
    """
    tail = " (mrclens filter)"
    head = f"→ flagged questions of {', '.join(categories)}: "
    if len(head) + len(evidence) + len(tail) > WIDTH:
        head = "→ flagged questions: "
    return head + fit_left(evidence, WIDTH - len(head) - len(tail)) + tail


def format_summary(results: Results, report: str | None = None, wide_hint: bool = True,
                   evidence: str | None = None) -> str:
    """The verdict at a glance (module docstring): at most :data:`MAX_LINES` lines of at most :data:`WIDTH`
    characters.

    Args:
        results: an audit's or evaluation's results (:class:`~mrclens.artifacts.results.Results`).
        report: the path of the written ``report.html`` (``None``: nothing was written).
        wide_hint: name ``--wide`` (the full table and readings) in the last line; ``False`` when they
            were printed above.
        evidence: the written ``shortcut-questions.jsonl`` (``None``: none): where a category with per-question
            evidence reads "more" against the reference, one line names it (:func:`flagged_line`).
    """
    summaries = [summarize_category(c, results) for c in results.categories]
    references = {c.reference for c in results.categories if c.reference_bias is not None and c.reference}
    who = results.reader_label + _score_label(results)
    if references:
        lines = wrap(f"Verdict against {' / '.join(sorted(references))} ({who}):", WIDTH, "  ")
    else:
        lines = wrap(f"Evidence of each bias ({who}; no reference):", WIDTH, "  ")
    if not summaries:
        lines.append("No bias category was scored.")
    lines += [line for s in summaries[:MAX_CATEGORIES] for line in category_lines(s)]
    with_evidence = {cls.category for cls in EVIDENCE_CLASSES}
    flagged = [c.category for c in results.categories if c.reference_bias == MORE.name and c.category in with_evidence]
    if evidence is not None and flagged:
        lines.append(flagged_line(flagged, evidence))
    rest = [s.category for s in summaries[MAX_CATEGORIES:]]
    more = f" (also: {', '.join(rest)})" if rest else ""
    wide = "--wide" if wide_hint else "above"
    if report is not None:
        head, tail = "Readings and examples: ", f"; every figure: {wide}{more}"
        lines.append(head + fit_left(report, WIDTH - len(head) - len(tail)) + tail)
    else:
        lines += wrap(f"Readings and every figure: {wide}; report.html with --out DIR{more}", WIDTH, "  ")
    return "\n".join(lines)


# ---------------------------------------------------------------------------- the data route alone

#: What the data route says of a category no figure of the data measures (Question): its drops decide.
DATA_NO_FIGURE = "no figure of the data measures it"
ADVICE_RUN_AUDIT = "the audit's drops read it"


def data_route_summary(v: Any, route: Any) -> CategorySummary:
    """One category's line of the data route alone (:class:`mrclens.scoring.data_route.DataVerdict` ``v`` of
    ``route``): its reading, its verdict figure as a planted share with its interval, band and minimum detectable
    effect (percent of the questions), and what to do, by the audit's rules."""
    from mrclens.scoring.against_reference import data_out_of_reach
    from mrclens.verdicts import CANNOT_TELL, OUT_OF_REACH

    if v.reading is None or v.figure is None:
        return CategorySummary(v.category, v.reading or NOT_COMPARED.name, DATA_NO_FIGURE, ADVICE_RUN_AUDIT, False)
    f = v.figure
    figure = str(model_free_reading_figure(f))
    mde = f.planted(f.mde) if f.per_planted_pct else f.mde
    if mde is not None:
        figure += f"; MDE {mde:.0f}%" if f.per_planted_pct else f"; MDE {mde:.1f}"
    read = reading(v.reading)
    if read is MORE:
        advice = get_category(v.category).advice
    elif read is INCONCLUSIVE:
        advice = str((OUT_OF_REACH if data_out_of_reach(route.figures, v.category) else CANNOT_TELL).short_advice)
    else:
        advice = NO_ACTION
    verdict = v.reading + (" (data)" if read.differs else "")
    return CategorySummary(v.category, verdict, figure, advice, True)


def format_data_route(route: Any, preliminary: bool = False) -> str:
    """The data route alone at a glance (:func:`mrclens.scoring.data_route.data_route`): a header naming the
    reference, the family-wise level and the audit profile it is read as; one line per category
    (:func:`category_lines`; no number cut); the shape note where the data's contexts are of another length.
    ``preliminary``: marked as the audit's preliminary verdict (before its reader is trained)."""
    from mrclens.metrics.bootstrap import CONFIDENCE

    what = "Preliminary verdict from the data alone" if preliminary else "Verdict from the data alone"
    lines = wrap(f"{what}, against {route.reference} (as a {route.profile} audit reads it; {100 * CONFIDENCE:.0f}% "
                 f"family-wise over {route.family} tests):", WIDTH, "  ")
    for v in route.verdicts:
        lines += category_lines(data_route_summary(v, route))
    if route.shape is not None and route.shape.differs:
        lines += wrap(f"Shape: {route.shape.sentence(route.reference)}; the figures are weighted to your sentence "
                      "counts.", WIDTH, "  ")
    return "\n".join(lines)


# ---------------------------------------------------------------------------- comparisons


def _comparison_verdict(rows: Sequence[Any], k: int) -> tuple[str, str]:
    """``(verdict, figure)`` of later input ``k`` (1-based) against the first, over a category's rows."""
    compared = [(r, r.differences[k - 1]) for r in rows if len(r.differences) >= k and r.differences[k - 1].compared]
    if not compared:
        return NOT_COMPARED.name, ""
    for side in (MORE, LESS):
        direction = side.name
        hits = [(r, d) for r, d in compared if d.significant and d.direction == direction]
        if hits:
            r, d = hits[0]
            numbers = f" {_interval(d.difference, d.ci_low, d.ci_high, signed=True)}"
            return direction, fit(MODEL_FREE_SHORT_LABELS.get(r.key, r.label), max(FIGURE_WIDTH - len(numbers), 8)) + numbers
    return IN_LINE.name, ""


def format_comparison_summary(comparison: Comparison, page: str | None = None) -> str:
    """The comparison at a glance: per bias category, each later input against the first — ``more`` /
    ``less`` of the shortcut (the first significant difference in that direction among the category's
    rows, with its interval) or ``in line``; at most :data:`MAX_LINES` lines of at most :data:`WIDTH`
    characters. ``page``: the written ``comparison.html`` (``None``: nothing was written)."""
    names = [i.name for i in comparison.inputs]
    lines = wrap(f"{' / '.join(names[1:])} against {names[0]} (more / less of the shortcut, per bias category):",
                 WIDTH, "  ")
    categories = list(dict.fromkeys(r.category for r in comparison.rows if r.category))
    for cat in categories[:MAX_CATEGORIES]:
        rows = [r for r in comparison.rows if r.category == cat]
        parts = [_comparison_verdict(rows, k) for k in range(1, len(names))]
        if len(parts) == 1:
            verdict, figure = parts[0]
            lines += wrap(f"{cat:<{NAME_WIDTH}} {verdict:<{VERDICT_WIDTH}} {figure}".rstrip(), WIDTH,
                          " " * (NAME_WIDTH + 1))
        else:
            each = "; ".join(f"{n}: {v}" for n, (v, _) in zip(names[1:], parts))
            lines += wrap(f"{cat:<{NAME_WIDTH}} {each}", WIDTH, " " * (NAME_WIDTH + 1))
    if not categories:
        lines.append("No figure tied to a bias category was compared.")
    where = f"{page}" if page is not None else "comparison.html with --out DIR"
    lines += wrap(f"Every figure: --wide; charts: {where}", WIDTH, "  ")
    return "\n".join(lines)
