"""The verdict at a glance (issue 33): the badge is the verdict against the reference, with the figure that
decided it and its CI, what to do, and the absolute level only as the reader's sensitivity."""

from __future__ import annotations

import json
import re
from dataclasses import replace

from mrclens.artifacts.reference import Reference, ReferenceFigure
from mrclens.artifacts.results import read_results
from mrclens.reports import render_report
from mrclens.reports.glance import MODEL_FREE_SHORT_LABELS, NOT_COMPARED, advice, category_glance, deciding_model_free
from mrclens.scoring.against_reference import compare_with_reference
from mrclens.scoring.model_free import model_free_figures


def _card(page: str, category: str) -> str:
    card = page[page.index(f'id="category-{category.lower()}"'):]
    return card[: card.index("</div>")]


def test_each_card_leads_with_the_verdict_against_the_reference_and_its_figure(compared_audit):
    results = json.loads((compared_audit / "results.json").read_text(encoding="utf-8"))
    page = render_report(compared_audit)
    verdicts = {c["category"]: c["reference_bias"] for c in results["categories"]}
    # Similarity: the overlap-sentence reader is drawn to e1's inserted question far more than SQuAD's reader, but
    # Similarity's drops are described, not read (issue 54: its planting does not move them), and the data — three
    # SQuAD articles — shows no shortcut beyond its band: "in line" is not claimed against those drops;
    # Question: it keeps most of its F1 without the question: "more". Keyword and Position: three evaluation
    # articles cannot tell, their intervals reach beyond the band of "in line"
    assert verdicts == {"Similarity": "inconclusive", "Question": "more", "Keyword": "inconclusive",
                        "Position": "inconclusive"}
    whys = {c["category"]: c.get("reference_why") for c in results["categories"] if c["reference_bias"] == "inconclusive"}
    assert whys["Keyword"] == whys["Position"] == "cannot tell"
    similarity = next(c for c in results["categories"] if c["category"] == "Similarity")
    assert similarity["reference_basis"] == "model-free" and "These drops are described, not read" in similarity["reading"]
    # the intervals are family-wise over every test read together: the four categories' drops and the
    # compared model-free verdict figures, and the page names them so
    from mrclens.metrics.power import family_confidence

    tests = 4 + sum(1 for f in results["model_free"] if f["role"] == "verdict" and f["reference_value"] is not None)
    level = family_confidence(0.95, tests)
    assert {c["reference_confidence"] for c in results["categories"]} == {level}
    label = f"{100 * level:g}% CI (95% family-wise)"
    assert f"{label} for the categories" in page and f"mean, {label}" in page
    for c in results["categories"]:
        card = _card(page, c["category"])
        words = {"more": "more than", "in line": "in line with", "inconclusive": "inconclusive against"}[c["reference_bias"]]
        badge = re.search(r'<span class="badge ([^"]+)">(.*?)</span>', card)
        assert badge.groups() == (f"v-{c['reference_bias'].replace(' ', '-')}", f"{words} SQuAD v1.1"), badge.groups()
        # the deciding figure (the drops here) with its CI, as scoring stored it (to the digits shown: one, or more
        # where one would round a bound onto 0)
        big, ci = re.search(r'<span class="big">(.*?)</span> <span class="ci">(.*?)</span>', card).groups()
        shown = [big, *ci.strip("[]").split(", ")]
        stored = [c["reference_difference"], c["reference_difference_ci_low"], c["reference_difference_ci_high"]]
        scale = c.get("reference_per_planted_pct")
        if c["reference_basis"] == "model-free":  # drops no audit size reads in line: the data decided (issue 54)
            f = next(f for f in results["model_free"] if f["category"] == c["category"] and f["role"] == "verdict")
            stored, scale = [f["difference"], f["difference_ci_low"], f["difference_ci_high"]], f["per_planted_pct"]
        if scale:  # issue 54: the drops as a planted share, whole percent
            shown[0] = shown[0].removesuffix("% of q.")
            stored = [v / scale for v in stored]
        tolerance = 0.5 if scale else 0.05
        assert all(abs(float(x) - v) <= tolerance for x, v in zip(shown, stored)), (shown, stored)
        # the absolute level is there, named for what it is, after the figure, never as the badge
        level = {"strong": "strong evidence", "moderate": "moderate evidence", "weak": "weak evidence",
                 "none": "no sign"}[c["evidence"]]
        assert card.index("how sensitive this reader is: " + level) > card.index('<span class="big">')
        assert "What to do:" in card and f'href="#details-{c["category"].lower()}"' in card
        # and the card reads in ten seconds: far shorter than the reading it replaces
        assert len(re.sub(r"<[^>]+>", " ", card).split()) < 90 < len(c["reading"].split())
    # the case: a category with no sign of absolute bias is still "more" against the reference
    question = next(c for c in results["categories"] if c["category"] == "Question")
    assert question["evidence"] == "none" and question["reference_bias"] == "more"


def test_a_verdict_decided_by_the_data_shows_the_model_free_figures(compared_audit):
    """Without a reference audit for the reader's profile the model-free figures decide; the card shows
    the figure(s) on the verdict's side, each as the difference to the reference with its CI."""
    typed = read_results(compared_audit)
    stats = {"chance_corrected": {"shared_ngram_top": {"n": 400, "mean": 45.0, "std": 40.0},
                                  "position_rank": {"n": 400, "mean": 40.0, "std": 30.0}}}
    reference = Reference("a made-up reference", {}, {
        "chance_corrected.shared_ngram_top": ReferenceFigure(8.0, 10000, 25.0),
        "chance_corrected.position_rank": ReferenceFigure(57.0, 10000, 35.0)})
    figures = model_free_figures(stats, reference)
    assert [(f.category, f.comparison) for f in figures] == [("Similarity", "higher"), ("Position", "lower")]
    plain = [replace(c, reference=None, reference_bias=None, reference_basis=None, reference_difference=None,
                     reference_difference_ci_low=None, reference_difference_ci_high=None) for c in typed.categories]
    _, cats = compare_with_reference(typed.ablations, plain, reference.audit_for("no-such-profile"), model_free=figures)
    got = {c.category: (c.reference_bias, c.reference_basis) for c in cats}
    assert got["Similarity"] == ("more", "model-free") and got["Position"] == ("less", "model-free")
    as_json = [vars(f) for f in figures]
    for c in cats:
        line = category_glance({**vars(c)}, as_json)
        if c.category == "Similarity":
            [fig] = line["figures"]
            f = figures[0]
            # the one figure (issue 44): the deciding figure's difference, as the terminal, the card and the table
            # show it — as a planted share, percent of the questions (issue 54); its full label, both values and the
            # difference in points in the detail
            share = f.planted
            assert fig["label"] == "shortcut ≈" and fig["value"] == f"{share(f.difference):+.0f}% of q."
            assert fig["ci"] == f"[{share(f.difference_ci_low):+.0f}, {share(f.difference_ci_high):+.0f}]"
            assert fig["detail"] == (
                f"45.0 here, 8.0 in a made-up reference; difference {f.difference:+.1f} [{f.difference_ci_low:+.1f}, "
                f"{f.difference_ci_high:+.1f}] points; 'in line' within ±10% of the questions (±{f.band:.2f} points), "
                f"sees {share(f.mde):.0f}%; {MODEL_FREE_SHORT_LABELS.get(f.path, f.label)}")
            assert line["figure"] == f"shortcut ≈ {fig['value']} {fig['ci']}, band ±10%"
            assert line["badge"] == "more than a made-up reference" and "data itself" in line["why"]
        elif c.category == "Position":
            assert line["verdict"] == "less" and [x["label"] for x in line["figures"]] == ["shortcut ≈"]
            assert line["advice"].startswith("Nothing to fix")
        else:  # Question, Keyword: nothing decided them, the page says "not compared" and shows the drop
            assert line["verdict"] == NOT_COMPARED and line["figures"][0]["label"] == "F1 drop (not compared)"
    assert deciding_model_free(as_json, "Similarity", "less") == [] and deciding_model_free(as_json, "Question", "more") == []


def test_inconclusive_and_advice():
    c = {"category": "Keyword", "reference": "SQuAD v1.1", "reference_bias": "inconclusive", "reference_basis": "drops",
         "evidence": "inconclusive", "f1_drop": 0.3, "ci_low": -1.4, "ci_high": 2.1}
    line = category_glance(c, [])
    assert line["badge"] == "inconclusive against SQuAD v1.1" and "too weak" in line["why"]
    assert line["figures"] == [{"label": "F1 drop (not compared)", "value": "0.3", "ci": "[-1.4, 2.1]", "detail": "95% CI"}]
    assert line["advice"].startswith("Train a stronger reader")
    assert advice("Position", "more", "SQuAD v1.1") != advice("Similarity", "more", "SQuAD v1.1")
    assert advice("Made-up", "more", None).startswith("Rewrite or re-sample")
    assert "SQuAD v1.1" in advice("Keyword", "in line", "SQuAD v1.1")


def test_the_glance_holds_injected_names_as_plain_text():
    """The lines are plain text (the report's template escapes them: tests/reports/test_report.py's payload test)."""
    payload = "<script>alert(1)</script>"
    c = {"category": payload, "reference": payload, "reference_bias": "more", "reference_basis": "model-free"}
    f = {"category": payload, "label": payload, "bias_when": "higher", "comparison": "higher", "value": 2.0,
         "reference_value": 1.0, "difference": 1.0, "difference_ci_low": 0.5, "difference_ci_high": 1.5}
    line = category_glance(c, [f])
    assert line["figures"][0]["label"] == payload + " vs ref" and line["badge"] == f"more than {payload}"  # plain text


def test_a_reference_or_ablation_name_with_markup_stays_text_on_the_page(compared_audit):
    """A reference can be any earlier audit (``--reference DIR``: its name holds the path); the badge, the
    deciding figure's label, the forest plot and the details show it as text."""
    from markupsafe import escape

    from report_fixtures import PAYLOAD_SCRIPT

    typed = read_results(compared_audit)
    typed = replace(typed, categories=[replace(c, reference=PAYLOAD_SCRIPT) for c in typed.categories],
                    ablations=[replace(a, name=f"{a.name} {PAYLOAD_SCRIPT}") for a in typed.ablations])
    page = render_report(compared_audit, results=typed)
    assert "<script" not in page.lower()
    verdict = page[page.index('<section id="verdict">'): page.index('<section id="ablations">')]
    forest = verdict[verdict.index('id="forest"'):]
    assert f"more than {escape(PAYLOAD_SCRIPT)}" in _card(verdict, "Question")
    assert str(escape(PAYLOAD_SCRIPT)) in forest[: forest.index("</svg>")]
