"""The self-contained HTML page of ``mrclens compare`` (``comparison.html``).

Rendered from a :class:`~mrclens.artifacts.comparison.Comparison` only (nothing is computed
again), like the bias report (:mod:`mrclens.reports.report`): Jinja2 with autoescaping on (input
names and paths are text), a Content-Security-Policy that forbids scripts and every network
request, inline CSS and charts as inline SVG (:mod:`mrclens.reports.charts`), so the one file can
be opened, mailed and printed anywhere. The page shows first, per later input, a forest plot of
its differences to the first input by bias category (:mod:`mrclens.reports.forest`), then the inputs, what differs between them
beyond the figures, overlaid distributions of question length, answer length and longest shared
n-gram, question-type shares side by side (multiple-choice inputs, issue 20: the heuristic
baselines' accuracies side by side), drops side by side with their interval whiskers, and
the table of every row with each later input's difference to the first (significant ones marked,
rows not compared with the reason).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import jinja2

from mrclens import __version__
from mrclens.artifacts.comparison import Comparison
from mrclens.artifacts.layout import COMPARISON_HTML
from mrclens.categories import colour_of
from mrclens.io_utils import atomic_write_text
from mrclens.reports.charts import INPUT_COLOURS, distribution_chart_svg, grouped_bars_svg
from mrclens.reports.forest import comparison_rows, forest_svg
from mrclens.reports.formatting import fmt_pct
from mrclens.tasks import get_task, task_of
from mrclens.metrics.bootstrap import confidence_label

_SECTION_TITLES = {"reader": "Reader", "lengths": "Lengths", "model-free": "Model-free evidence per bias category",
                   "question types": "Question types (first word)", "answer types": "Answer types",
                   "ablations": "Ablations (drops of the audits' readers)",
                   # multiple-choice inputs (issue 20)
                   "heuristics": "Heuristic baselines (accuracy of rules that read no meaning)",
                   "ending lengths": "Ending length: correct minus wrong endings",
                   "labels": "Position of the correct ending", "categories": "Question categories"}


def _metric(c: Comparison) -> str:
    """The per-question score's name (:attr:`mrclens.tasks.Task.metric`): accuracy for multiple-choice
    comparisons (issue 20), F1 for span ones."""
    return (task_of(c.inputs[0]) if c.inputs else get_task(None)).metric


def _num(x: Any, unit: str) -> str:
    if not isinstance(x, (int, float)) or isinstance(x, bool):
        return "–"
    return f"{x:.2f}" if unit == "words" else fmt_pct(x)


def _signed(x: Any, unit: str) -> str:
    if not isinstance(x, (int, float)) or isinstance(x, bool):
        return "–"
    return f"{x:+.2f}" if unit == "words" else f"{x:+.1f}"


def _bars(c: Comparison, keys: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Per input, the values/intervals of the rows ``keys`` (``(key, label)``), for :func:`grouped_bars_svg`."""
    rows = {r.key: r for r in c.rows}
    series = []
    for k, inp in enumerate(c.inputs):
        vals, lows, highs = [], [], []
        for key, _ in keys:
            v = rows[key].values[k] if key in rows else None
            vals.append(v.value if v is not None else None)
            lows.append(v.ci_low if v is not None else None)
            highs.append(v.ci_high if v is not None else None)
        series.append({"input": inp.name, "values": vals, "lows": lows, "highs": highs})
    return series


def _charts(c: Comparison) -> list[dict[str, Any]]:
    charts = []
    for d in c.distributions:
        svg = distribution_chart_svg([{"input": s.input, "edges": s.edges, "counts": s.counts} for s in d.series],
                                     f"{d.label} ({d.unit})")
        if svg:
            charts.append({"id": "dist-" + d.key.split(".")[-1].replace("_", "-"), "title": d.label.capitalize(),
                           "svg": svg, "wide": False,
                           "caption": "Share of each input's questions per value; the last bin holds every larger value."})
    types = [(r.key, r.key.rsplit(".", 1)[-1]) for r in c.rows if r.section == "question types"]
    svg = grouped_bars_svg([lab for _, lab in types], _bars(c, types), "% of questions") if types else ""
    if svg:
        charts.append({"id": "question-types", "title": "Question types (first word)", "svg": svg, "wide": True,
                       "caption": f"Share of questions per first word, with {confidence_label(c.confidence)} whiskers."})
    heuristics = [(r.key, r.key.split(".")[1].replace("_", " ")) for r in c.rows if r.section == "heuristics"]
    svg = grouped_bars_svg([lab for _, lab in heuristics], _bars(c, heuristics), "accuracy (%)") if heuristics else ""
    if svg:
        charts.append({"id": "heuristics", "title": "Heuristic baselines", "svg": svg, "wide": True,
                       "caption": f"Accuracy of each rule that reads no meaning, with {confidence_label(c.confidence)} "
                                  "whiskers; above chance means the data carries that cue."})
    metric = _metric(c)
    for figure, title, ylabel in (("f1_drop", f"{metric[0].upper()}{metric[1:]} drop per ablation", f"{metric} drop (points)"),
                                  ("relative_drop", "Relative drop per ablation", f"% of baseline {metric}")):
        keys = [(r.key, r.ablation) for r in c.rows if r.section == "ablations" and r.key.endswith("." + figure)]
        svg = grouped_bars_svg([lab for _, lab in keys], _bars(c, keys), ylabel) if keys else ""
        if svg:
            charts.append({"id": "drops-" + figure.replace("_", "-"), "title": title, "svg": svg, "wide": True,
                           "caption": f"Each audit's figure with its {confidence_label(c.confidence)} whiskers."})
    return charts


def _forests(c: Comparison) -> list[dict[str, Any]]:
    """Per later input, the forest plot of its differences to the first input (:func:`mrclens.reports.forest.comparison_rows`)."""
    out = []
    for k in range(1, len(c.inputs)):
        rows = comparison_rows(c, k)
        if rows:
            out.append({"k": k, "name": c.inputs[k].name,
                        "svg": forest_svg(rows, reference=c.inputs[0].name,
                                          colours={r.group: colour_of(r.group) for r in rows})})
    return out


def build_context(c: Comparison) -> dict[str, Any]:
    """The template's variables: inputs, what they share, what differs, charts, table sections, notes."""
    names = [i.name for i in c.inputs]
    sections: list[dict[str, Any]] = []
    for row in c.rows:
        if not sections or sections[-1]["key"] != row.section:
            sections.append({"key": row.section, "title": _SECTION_TITLES.get(row.section, row.section), "rows": []})
        cells = []
        for k, v in enumerate(row.values):
            cell: dict[str, Any] = {"value": _num(v.value, row.unit),
                                    "ci": "" if v.ci_low is None else f"[{_num(v.ci_low, row.unit)}, {_num(v.ci_high, row.unit)}]"}
            if k > 0:
                d = row.differences[k - 1]
                cell["compared"] = d.compared
                cell["diff"] = _signed(d.difference, row.unit) if d.difference is not None else ""
                cell["diff_ci"] = f"[{_signed(d.ci_low, row.unit)}, {_signed(d.ci_high, row.unit)}]" if d.compared else ""
                cell["significant"] = bool(d.significant)
                cell["direction"] = d.direction
                cell["method"] = d.ci_method
                cell["reason"] = d.reason or ""
            cells.append(cell)
        sections[-1]["rows"].append({"key": row.key, "label": row.label, "unit": row.unit, "cells": cells})
    n_sig = sum(1 for r in c.rows for d in r.differences if d.significant)
    n_cmp = sum(1 for r in c.rows for d in r.differences if d.compared)
    return {
        "title": "MRCLens comparison: " + " vs ".join(names),
        "metric": _metric(c),
        "names": names,
        "first": names[0],
        "inputs": [dict(i.__dict__, colour=INPUT_COLOURS[k % len(INPUT_COLOURS)]) for k, i in enumerate(c.inputs)],
        "differs": c.differs,
        "overlaps": [o.sentence() for o in c.overlaps],
        "charts": _charts(c),
        "forests": _forests(c),
        "sections": sections,
        "notes": c.notes,
        "ci_label": confidence_label(c.confidence),
        "summary": f"{n_sig} of {n_cmp} compared differences are significant",
        "settings": f"seed {c.seed}, {c.n_resamples:,} resamples, {confidence_label(c.confidence)}",
        "generator": f"MRCLens {__version__}",
    }


def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader("mrclens.reports", "templates"), autoescape=True,
                              trim_blocks=True, lstrip_blocks=True)


def render_comparison(c: Comparison) -> str:
    """The page as one self-contained HTML document (text)."""
    return _environment().get_template("compare.html").render(**build_context(c))


def write_comparison_page(c: Comparison, out_dir: str | os.PathLike, *, protect=()) -> Path:
    """Render the page and write ``out_dir/comparison.html`` atomically; returns the path.

    Raises:
        OutputError: it cannot be written; MRCLensError: the target is one of the ``protect`` inputs.
    """
    return atomic_write_text(Path(out_dir) / COMPARISON_HTML, render_comparison(c), protect=protect)
