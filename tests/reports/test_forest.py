"""The forest plot against the reference (issue 33): one row per category, compared ablation and model-free
figure; right is always towards the bias (small-drop ablations flipped); inline SVG, inert text."""

from __future__ import annotations

import json
import re

from mrclens.artifacts.results import read_results
from mrclens.reports import render_report
from mrclens.reports.forest import ForestRow, forest_svg, results_rows, scale_note, scales


def test_rows_hold_every_compared_figure_signed_towards_the_bias(compared_audit):
    results = json.loads((compared_audit / "results.json").read_text(encoding="utf-8"))
    rows = results_rows(read_results(compared_audit))  # the typed results; checked against the file's figures
    compared = [a for a in results["ablations"] if a.get("reference_difference") is not None]
    assert compared and all(not a.get("control_of") for a in compared)
    by_label = {r.label: r for r in rows}
    for a in compared:
        r = by_label[f"{a['id']} {a['name']}"]
        assert r.group == a["category"] and r.unit == "drop" and r.verdict == a["reference_bias"]
        assert r.flipped == (a["bias_signal"] == "small_drop")
        sign = -1 if r.flipped else 1
        assert r.toward == sign * a["reference_difference"]
        assert sorted((r.toward_low, r.toward_high)) == sorted(
            (sign * a["reference_difference_ci_low"], sign * a["reference_difference_ci_high"]))
        assert r.toward_low <= r.toward <= r.toward_high
        # the ablation's verdict is on the drawn side: "more" lies wholly right of 0
        if a["reference_bias"] == "more":
            assert r.toward_low > 0
    for c in results["categories"]:  # the category's mean is already signed towards the bias
        r = by_label[f"{c['category']}: mean of its drops"]
        assert (r.toward, r.toward_low, r.toward_high) == (
            c["reference_difference"], c["reference_difference_ci_low"], c["reference_difference_ci_high"])
    mf = [r for r in rows if r.kind == "model-free"]
    assert sorted(r.label for r in mf) == sorted(f["label"] for f in results["model_free"])
    for r in mf:
        f = next(f for f in results["model_free"] if f["label"] == r.label)
        assert r.group == f["category"] and r.flipped == (f["bias_when"] == "lower") and r.value == f["difference"]
    assert {r.unit for r in mf} == {"pp", "words"}
    # grouped by category, in the results' order
    groups = [r.group for r in rows]
    assert [g for i, g in enumerate(groups) if i == 0 or groups[i - 1] != g] == [c["category"] for c in results["categories"]]


def test_the_picture_is_inline_svg_with_every_row_and_the_direction(compared_audit):
    page = render_report(compared_audit)
    figure = page[page.index('<figure class="chart forest" id="forest">'):]
    figure = figure[: figure.index("</figure>")]
    svg = figure[figure.index("<svg"): figure.index("</svg>") + 6]
    assert "<script" not in svg and "href" not in svg
    rows = results_rows(read_results(compared_audit))
    assert svg.count('<g class="row') == len(rows)
    assert "more than SQuAD v1.1 →" in svg and "(towards the bias)" in svg
    assert "drawn negated" in figure and "(e3, e4, e5)" in figure  # the legend names the flipped ablations
    # a red mark per row read "more", green per "less"
    marks = re.findall(r'<g class="row (\w[\w-]*)">.*?</g>', svg, flags=re.S)
    assert len(marks) == len(rows)
    assert svg.count('fill="#b42318">+') == sum(1 for r in rows if r.verdict == "more")


def test_scales_and_escaping():
    rows = [ForestRow("Similarity", "e1 <b>insert</b> question", 30.0, 20.0, 40.0, "drop", "more"),
            ForestRow("Question", "e4 interrogatives only", -12.0, -20.0, -4.0, "drop", "more", flipped=True),
            ForestRow("Similarity", "longest n-gram shared (words)", 0.3, -0.1, 0.7, "words", "in line", kind="model-free")]
    assert scales(rows) == {"drop": 50.0, "words": 1.0}
    assert scale_note(rows) == "drops ±50 points; n-gram lengths ±1 words"
    svg = str(forest_svg(rows, reference="<i>ref</i>"))
    assert "<b>" not in svg and "&lt;b&gt;insert&lt;/b&gt;" in svg and "&lt;i&gt;ref&lt;/i&gt;" in svg
    assert "+12.0 [+4.0, +20.0] points" in svg  # e4 drawn towards the bias
    assert svg == str(forest_svg(rows, reference="<i>ref</i>"))  # same rows, same bytes
    assert str(forest_svg([])) == ""
