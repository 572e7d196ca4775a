"""The terminal table of a comparison (:func:`format_comparison`, what ``mrclens compare`` prints).

Examples:
    >>> from mrclens.compare.run import compare_sources
    >>> from mrclens.compare.sources import source_from_stats
    >>> a = source_from_stats({"similarity": {"answer_in_most_similar_sentence_pct": 80.0, "n": 1000}}, "A")
    >>> b = source_from_stats({"similarity": {"answer_in_most_similar_sentence_pct": 70.0, "n": 1000}}, "B")
    >>> print(format_comparison(compare_sources([a, b], n_resamples=200), width=40).splitlines()[0])
    Inputs:
"""

from __future__ import annotations

from mrclens.artifacts.comparison import Comparison
from mrclens.compare.sources import known_task


def _fmt(x: float | None, unit: str = "") -> str:
    if x is None:
        return "–"
    return f"{x:.2f}" if unit == "words" else f"{x:.1f}"


def format_comparison(c: Comparison, *, width: int = 60) -> str:
    """The terminal table: the inputs and what they share (:mod:`mrclens.compare.overlap`), then one
    line per row, each input's value and each later input's difference with its interval; ``*`` marks a significant difference, ``~`` one from the normal approximation,
    ``n/c`` one not compared (the reasons are listed under the table)."""
    names = [i.name for i in c.inputs]
    level = f"{100 * c.confidence:g}%"
    lines = ["Inputs:"]
    for k, i in enumerate(c.inputs):
        extra = f", reader {i.reader} ({known_task(i.task).metric} {_fmt(i.reader_f1)})" if i.reader else ""
        q = f", {i.questions:,} questions" if i.questions else ""
        lines.append(f"  {k + 1}. {i.name}: {i.kind} {i.path}{q}{extra}")
    if c.overlaps:
        lines += ["Overlap (question ids, exact contexts):"] + [f"  {o.sentence()}" for o in c.overlaps]
    lines.append(f"Each later input minus {names[0]}, [{level} interval]; * significant, ~ normal approximation, n/c not compared.")
    cols = [max(9, len(n)) for n in names]
    diff_w = 30
    header = f"{'figure':<{width}} " + " ".join(f"{n:>{w}}" for n, w in zip(names[:1], cols[:1]))
    for n, w in zip(names[1:], cols[1:]):
        header += f" {n:>{w}} {'difference':<{diff_w}}"
    lines += ["", header]
    section = None
    reasons: dict[str, list[str]] = {}
    for row in c.rows:
        if row.section != section:
            section = row.section
            lines.append(f"-- {section}")
        label = row.label if len(row.label) <= width else row.label[: width - 1] + "…"
        line = f"{label:<{width}} {_fmt(row.values[0].value, row.unit):>{cols[0]}}"
        for k, (v, d) in enumerate(zip(row.values[1:], row.differences), start=1):
            if d.compared:
                mark = ("*" if d.significant else "") + ("~" if d.ci_method in ("normal", "standardised") else "")
                text = f"{d.difference:+.2f} [{d.ci_low:+.2f}, {d.ci_high:+.2f}]{mark}"
            else:
                text = "n/c" if v.value is not None and row.values[0].value is not None else ""
                if d.reason and text:
                    reasons.setdefault(d.reason, []).append(row.key)
            line += f" {_fmt(v.value, row.unit):>{cols[k]}} {text:<{diff_w}}"
        lines.append(line.rstrip())
    if c.differs:
        lines += ["", "What differs:"] + [f"  {d}" for d in c.differs]
    if reasons:
        lines += ["", "Not compared:"]
        for reason, keys in reasons.items():
            lines.append(f"  {len(keys)} row(s): {reason}")
    lines += [""] + c.notes
    return "\n".join(lines)
