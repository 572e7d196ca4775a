"""The forest plot against the reference (issue 33): per category and per ablation, this dataset's
figure minus the reference's, with its CI, drawn so that right is always *towards the bias*.

Rows (:class:`ForestRow`), grouped by bias category:

* a category's drops: ``reference_difference`` of a ``categories[]`` entry, already signed towards the
  bias (:func:`mrclens.scoring.against_reference.category_comparison`), in points of percent of the
  baseline F1;
* each compared ablation: ``reference_difference`` of an ``ablations[]`` entry (this audit's
  relative (excess) drop minus the reference's). For ``large_drop`` ablations a larger drop is the
  bias, so the difference is drawn as it is; for ``small_drop`` ablations (e3–e5: a *smaller* drop
  is the bias) it is drawn negated, and the row says so (``flipped``);
* each model-free figure (``model_free[]``: ``difference`` with its CI, in the figure's unit);
  negated when ``bias_when`` is ``"lower"``.

Rows in the same unit share one scale (symmetric around 0, the reference); rows of other units
(percentage points of a share, words of an n-gram) get their own, and every row prints its
numbers, so nothing is read off an axis. The picture is hand-written inline SVG — text stays
text, no script, no font or link outside the document — and the same rows give the same bytes.

Used by the report (:func:`results_rows`) and by ``mrclens compare``'s page
(:func:`comparison_rows`: each later input against the first).

Examples:
    >>> rows = [ForestRow("Question", "e4 remove question words", -12.0, -20.0, -4.0, "drop", "more", flipped=True)]
    >>> svg = forest_svg(rows, reference="SQuAD v1.1")
    >>> svg.startswith("<svg") and "towards the bias" in svg and "e4 remove question words" in svg
    True
    >>> rows[0].toward, rows[0].toward_low, rows[0].toward_high
    (12.0, 4.0, 20.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from markupsafe import Markup, escape

from mrclens.artifacts.results import ModelFreeFigure, Results
from mrclens.categories import known_direction
from mrclens.verdicts import IN_LINE, READING_NAMES, figure_reading, reading

#: Unit keys and how they are named in the numbers and the legend.
UNITS = {"drop": "points", "pp": "pp", "words": "words"}
#: Mark colours per reading of a row: the reading's :attr:`mrclens.verdicts.Reading.colour` (red: more of the bias
#: than the reference; green: less); a row without a reading gets :data:`mrclens.verdicts.NOT_COMPARED`'s.
_LABEL_CHARS = 46


@dataclass(frozen=True)
class ForestRow:
    """One row: ``value`` = this dataset's figure minus the reference's, as stored (before any flip).

    Attributes:
        group: the bias category the row belongs to.
        label: what the row is (e.g. ``"e1 insert question"``).
        value, low, high: the difference and its CI, in ``unit``, as the results hold them.
        unit: ``"drop"`` (points of percent of the baseline F1), ``"pp"`` (percentage points) or ``"words"``.
        verdict: ``"more"``, ``"less"``, ``"in line"``, ``"inconclusive"`` or ``None``.
        flipped: the bias is on the negative side (``small_drop`` ablations, ``bias_when == "lower"``),
            so the row is drawn negated.
        kind: ``"category"``, ``"ablation"`` or ``"model-free"``.
    """

    group: str
    label: str
    value: float
    low: float
    high: float
    unit: str
    verdict: str | None
    flipped: bool = False
    kind: str = "ablation"

    @property
    def toward(self) -> float:
        """The difference signed towards the bias (``+``: more of the bias than the reference)."""
        return -self.value if self.flipped else self.value

    @property
    def toward_low(self) -> float:
        """Lower end of the CI towards the bias."""
        return -self.high if self.flipped else self.low

    @property
    def toward_high(self) -> float:
        """Upper end of the CI towards the bias."""
        return -self.low if self.flipped else self.high


def _num(*xs: Any) -> bool:
    return all(isinstance(x, (int, float)) and not isinstance(x, bool) and not math.isnan(x) for x in xs)


def unit_of(label: str) -> str:
    """The unit key of a model-free figure from its label: ``"words"`` for ``(words)``, else ``"pp"``."""
    return "words" if "(words)" in label else "pp"


def _mf_verdict(f: ModelFreeFigure) -> str:
    """A model-free figure's comparison as a reading towards the bias (:func:`mrclens.verdicts.figure_reading`);
    no comparison draws as "in line"."""
    if f.comparison is None:
        return IN_LINE.name
    return figure_reading(f.comparison, f.bias_when).name


def results_rows(results: Results) -> list[ForestRow]:
    """The report's rows from the typed results: per category, its drops' mean, its compared
    ablations (controls have no comparison of their own) and its model-free figures; categories in
    the results' order."""
    ablations = [a for a in results.ablations if not a.control_of]
    model_free = results.model_free
    order = [c.category for c in results.categories]
    order += [x.category for x in [*ablations, *model_free] if x.category not in order]
    cats = {c.category: c for c in results.categories}
    rows: list[ForestRow] = []
    for cat in order:
        c = cats.get(cat)
        if c is not None and _num(c.reference_difference, c.reference_difference_ci_low, c.reference_difference_ci_high):
            rows.append(ForestRow(str(cat), f"{cat}: mean of its drops", c.reference_difference,
                                  c.reference_difference_ci_low, c.reference_difference_ci_high, "drop",
                                  c.reference_bias if c.reference_basis != "model-free" else None,
                                  kind="category"))
        for a in ablations:
            if a.category != cat or not _num(a.reference_difference, a.reference_difference_ci_low,
                                             a.reference_difference_ci_high):
                continue
            signal = known_direction(a.bias_signal)
            flipped = signal is not None and signal.removes_information
            rows.append(ForestRow(str(cat), f"{a.id} {a.name or ''}".strip(), a.reference_difference,
                                  a.reference_difference_ci_low, a.reference_difference_ci_high, "drop",
                                  a.reference_bias, flipped=flipped))
        for f in model_free:
            if f.category != cat or not _num(f.difference, f.difference_ci_low, f.difference_ci_high):
                continue
            label = str(f.label or f.path or "")
            rows.append(ForestRow(str(cat), label, f.difference, f.difference_ci_low, f.difference_ci_high,
                                  unit_of(label), _mf_verdict(f), flipped=f.bias_when == "lower", kind="model-free"))
    return rows


def comparison_rows(comparison: Any, k: int) -> list[ForestRow]:
    """Rows of ``mrclens compare``'s page: input ``k`` (1 …) against the first input.

    Takes each row of the :class:`~mrclens.artifacts.comparison.Comparison` that bears on a bias
    category (``category`` and ``bias_when`` set) and was compared: the model-free figures, and per
    ablation its relative excess drop where compared, else its relative drop (the figure the
    reference comparison of an audit uses, :func:`mrclens.scoring.against_reference.relative_figure`).
    """
    picked: dict[str, Any] = {}
    rows: list[ForestRow] = []
    candidates = [r for r in comparison.rows if r.category and r.bias_when in ("higher", "lower")
                  and len(r.differences) >= k and r.differences[k - 1].compared
                  and _num(r.differences[k - 1].difference, r.differences[k - 1].ci_low, r.differences[k - 1].ci_high)]
    for r in candidates:
        if r.section == "ablations":
            figure = r.key.rsplit(".", 1)[-1]
            if figure == "relative_excess_drop" or (figure == "relative_drop" and r.ablation not in picked):
                picked[r.ablation] = r
    order: list[str] = []
    for r in candidates:
        if r.category not in order:
            order.append(r.category)
    for cat in order:
        for r in candidates:
            if r.category != cat or (r.section == "ablations" and picked.get(r.ablation) is not r):
                continue
            d = r.differences[k - 1]
            verdict = d.direction if d.significant else IN_LINE.name
            if r.section == "ablations":
                label, unit, kind = f"{r.ablation} {r.label.split(': ', 1)[0].split(' ', 1)[-1]}", "drop", "ablation"
            else:
                label, unit, kind = r.label, ("words" if r.unit == "words" else "pp"), "model-free"
            rows.append(ForestRow(str(cat), label, d.difference, d.ci_low, d.ci_high, unit, verdict,
                                  flipped=r.bias_when == "lower", kind=kind))
    return rows


def _nice(x: float) -> float:
    """The smallest of 1, 2, 2.5, 5 × 10^k at least ``x`` (for a scale's half-width)."""
    if x <= 0:
        return 1.0
    base = 10 ** math.floor(math.log10(x))
    return next(m * base for m in (1, 2, 2.5, 5, 10) if m * base >= x - 1e-12)


def scales(rows: Sequence[ForestRow]) -> dict[str, float]:
    """Per unit, the half-width of its scale: the largest distance of any CI end from 0, rounded up."""
    out: dict[str, float] = {}
    for r in rows:
        out[r.unit] = max(out.get(r.unit, 0.0), abs(r.toward_low), abs(r.toward_high), abs(r.toward))
    return {u: _nice(v) for u, v in out.items()}


def _fmt(x: float, unit: str) -> str:
    return f"{x:+.2f}" if unit == "words" else f"{x:+.1f}"


def _short(text: str) -> str:
    return text if len(text) <= _LABEL_CHARS else text[: _LABEL_CHARS - 1] + "…"


def forest_svg(rows: Sequence[ForestRow], *, reference: str = "the reference", colours: Mapping[str, str] | None = None,
               width: int = 900) -> Markup:
    """The forest plot of ``rows`` as an inline ``<svg>`` element (``""`` when there are none).

    Args:
        rows: the rows, in drawing order (a group heading is drawn where ``group`` changes).
        reference: the name of what the rows are compared with (the header's arrow words).
        colours: a colour per group (category) for the headings.
        width: the ``viewBox`` width in SVG units (the element scales to its container).

    Returns:
        the SVG as :class:`markupsafe.Markup` (every label is escaped).
    """
    if not rows:
        return Markup("")
    colours = colours or {}
    half = scales(rows)
    label_w, num_w, row_h, head_h, top = 320, 190, 20, 24, 46
    x0, x1 = label_w + 10, width - num_w - 10
    mid = (x0 + x1) / 2
    span = (x1 - x0) / 2
    height = top + sum(row_h for _ in rows) + head_h * len({r.group for r in rows}) + 10
    ref = escape(reference)
    out = [f'<svg viewBox="0 0 {width} {height}" width="100%" role="img" '
           f'aria-label="Difference to {ref} per category and ablation, towards the bias to the right" '
           'font-family="system-ui, sans-serif" font-size="12">',
           f'<text x="{mid - 6:.1f}" y="14" text-anchor="end" fill="#1a7f37">← less than {ref}</text>',
           f'<text x="{mid + 6:.1f}" y="14" fill="#b42318">more than {ref} →</text>',
           f'<text x="{mid + 6:.1f}" y="28" fill="#b42318" font-size="11">(towards the bias)</text>',
           f'<text x="{x1 + 10}" y="28" fill="#5b6570" font-size="11">difference [CI], towards the bias</text>',
           f'<line x1="{x0}" y1="34" x2="{x1}" y2="34" stroke="#d9dee3"/>']
    y = top
    group = None
    body: list[str] = []
    for r in rows:
        if r.group != group:
            group = r.group
            body.append(f'<text x="0" y="{y + 16}" font-weight="700" fill="{escape(colours.get(group, "#1d232b"))}">'
                        f'{escape(group)}</text>')
            y += head_h
        scale = span / half[r.unit]

        def at(v: float) -> float:
            return mid + max(-span, min(span, v * scale))

        cy = y + row_h / 2
        colour = reading(r.verdict if r.verdict in READING_NAMES else None).colour
        label = r.label + (" (flipped: a smaller value is the bias)" if r.flipped and r.kind != "category" else "")
        weight = ' font-weight="600"' if r.kind == "category" else ""
        body.append(f'<g class="row {escape(r.kind)}"><title>{escape(label)}: {_fmt(r.toward, r.unit)} '
                    f'[{_fmt(r.toward_low, r.unit)}, {_fmt(r.toward_high, r.unit)}] {UNITS[r.unit]} towards the bias'
                    f'{"" if r.verdict is None else "; " + escape(r.verdict)}</title>')
        body.append(f'<text x="12" y="{cy + 4:.1f}"{weight}>{escape(_short(r.label))}{" ⇄" if r.flipped else ""}</text>')
        body.append(f'<line x1="{at(r.toward_low):.1f}" y1="{cy:.1f}" x2="{at(r.toward_high):.1f}" y2="{cy:.1f}" '
                    f'stroke="{colour}" stroke-width="2.5"/>')
        if r.kind == "category":
            s = 5.5
            body.append(f'<path d="M{at(r.toward):.1f} {cy - s:.1f} L{at(r.toward) + s:.1f} {cy:.1f} '
                        f'L{at(r.toward):.1f} {cy + s:.1f} L{at(r.toward) - s:.1f} {cy:.1f} Z" fill="{colour}"/>')
        else:
            shape = "rect" if r.kind == "model-free" else "circle"
            if shape == "circle":
                body.append(f'<circle cx="{at(r.toward):.1f}" cy="{cy:.1f}" r="4" fill="{colour}"/>')
            else:
                body.append(f'<rect x="{at(r.toward) - 4:.1f}" y="{cy - 4:.1f}" width="8" height="8" fill="#fff" '
                            f'stroke="{colour}" stroke-width="2"/>')
        body.append(f'<text x="{x1 + 10}" y="{cy + 4:.1f}" fill="{colour}">{_fmt(r.toward, r.unit)} '
                    f'[{_fmt(r.toward_low, r.unit)}, {_fmt(r.toward_high, r.unit)}] {UNITS[r.unit]}</text></g>')
        y += row_h
    out.append(f'<line x1="{mid:.1f}" y1="34" x2="{mid:.1f}" y2="{height - 6}" stroke="#1d232b" stroke-width="1"/>')
    out += body
    out.append("</svg>")
    return Markup("".join(out))


def scale_note(rows: Sequence[ForestRow]) -> str:
    """The legend's words for the scales, e.g. ``"drops ±50 points; model-free shares ±20 pp"``."""
    names = {"drop": "drops", "pp": "model-free shares", "words": "n-gram lengths"}
    return "; ".join(f"{names[u]} ±{v:g} {UNITS[u]}" for u, v in scales(rows).items())
