"""``mrclens card``: the Markdown bias section and the Croissant RAI fragment drafted from an audit's results."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from mrclens.metrics.bootstrap import family_ci_label, fmt_bound
from click.testing import CliRunner

from mrclens.artifacts.card import (CARD_BODY, CARD_MARKDOWN, CARD_RAI, CARD_RECOMMENDATIONS, CROISSANT_CONTEXT,
                                    FIGURES_PROPERTY, read_rai_fragment)
from mrclens.artifacts.reference import Reference, ReferenceAudit, ReferenceDrop
from mrclens.artifacts.results import AuditRecord, ModelFreeFigure, read_results
from mrclens.cli import main
from mrclens.errors import ArtifactError
from tests.perturbed_fixture import make_perturbed_dir, score_and_publish, write_predictions


def _similarity_figure():
    return ModelFreeFigure("Similarity", "similarity.answer_in_most_similar_sentence_pct",
                           "answers in the sentence most similar to the question (%)", "higher", 98.0, 96.5, 99.5, 1700,
                           "SQuAD v1.1", 80.6, 79.8, 81.4, 10570, 17.4, 15.7, 19.1, "higher", 8)


@pytest.fixture(scope="module")
def audit_dir(tmp_path_factory):
    """An evaluation directory scored from the miniature perturbed fixture, read against a reference audit
    of the same profile (e1 pulls the reader far more than in the reference; e3 and e4 less)."""
    root = tmp_path_factory.mktemp("card")
    perturbed = make_perturbed_dir(root)
    predictions = write_predictions(root)
    reference = Reference("SQuAD v1.1", {}, {}, {"quick": ReferenceAudit("quick", 50.0, {}, {
        "e1": ReferenceDrop("relative_drop", 10.0, 8.0, 12.0, 2000),
        "e3": ReferenceDrop("relative_drop", 5.0, 3.0, 7.0, 2000),
        "e4": ReferenceDrop("relative_drop", 60.0, 55.0, 65.0, 2000)})})
    out = root / "audit"
    score_and_publish(perturbed, predictions, out, reference=reference.audit_for("quick"), n_resamples=200,
                      model_free=[_similarity_figure()],
                      audit=AuditRecord({"profile": "quick", "seed": 0}, None, "model", None))
    return out


def test_card_writes_the_verdicts_their_figures_limits_and_provenance(audit_dir, tmp_path):
    results = read_results(audit_dir)
    similarity = next(c for c in results.categories if c.category == "Similarity")
    assert similarity.reference_bias == "more"  # the fixture is what the card must report
    out = tmp_path / "card"
    r = CliRunner().invoke(main, ["card", str(audit_dir), "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert r.output.split() == [str(out / name) for name in (CARD_MARKDOWN, CARD_RAI, CARD_BODY, CARD_RECOMMENDATIONS)]
    text = (out / CARD_MARKDOWN).read_text()
    assert text.startswith("## Bias, Risks, and Limitations\n")
    assert "not a certificate" in text and "MRCLens " + results.mrclens_version in text
    row = next(line for line in text.splitlines() if line.startswith("| Similarity |"))
    assert "more than SQuAD v1.1 (by the model-free figures)" in row
    # the one figure (issue 44): decided by the data, the deciding figure's difference from the reference, as the
    # terminal and the report show it (not the drops' difference, which decided nothing), and the band it was read
    # against, in its unit: this figure has no band of its own, so its margin, as scoring read it (issue 57)
    deciding = next(f for f in results.model_free if f.category == "Similarity" and f.role == "verdict"
                    and f.comparison == f.bias_when)
    assert f"vs ref {fmt_bound(deciding.difference, True)} [" in row
    assert f"{similarity.reference_difference:+.1f}" not in row
    assert row.endswith(f"| ±{deciding.margin:g} |") and deciding.band is None
    # in words for the card's readers (issue 57): what "more" means for a model trained on the data
    assert "A model trained on this data may learn to pick the passage sentence most similar to the question more " \
           "often than one trained on SQuAD v1.1" in text
    # the figures behind the verdicts stay in results.json and mrclens:biasFigures, not in the Markdown: no
    # per-ablation line, no per-test confidence label; the family-wise level is said once, in words
    fig = results.model_free[0]
    assert fig.difference_confidence is not None and fig.difference_confidence > 0.95
    assert "e1 (insert question)" not in text and "% CI" not in text and "1,700 questions" not in text
    assert text.count("family-wise") == 1 and "95 % intervals, family-wise" in text
    assert "answer-type priors beyond the question's wh-word" in text and "in line\" with the reference may" in text
    assert "- Reader: external model." in text
    manifest = next(i for i in results.inputs if i.role == "set:original")
    assert f"sha256 `{manifest.sha256}`" in text and "200 resamples, 95% confidence, seed 0" in text


def test_rai_fragment_validates_as_part_of_a_croissant_record(audit_dir, tmp_path):
    mlc = pytest.importorskip("mlcroissant")
    from mlcroissant._src.core.rdf import make_context

    assert CROISSANT_CONTEXT == make_context()  # the Croissant 1.0 context, rai: included
    CliRunner().invoke(main, ["card", str(audit_dir), "--out", str(tmp_path / "c.md")], catch_exceptions=False)
    fragment = read_rai_fragment(tmp_path / "c.rai.jsonld")
    record = {**fragment, "@type": "sc:Dataset", "name": "my-qa", "description": "A reading-comprehension dataset.",
              "conformsTo": "http://mlcommons.org/croissant/1.0", "url": "https://example.org/my-qa",
              "license": "https://creativecommons.org/licenses/by/4.0/", "citeAs": "my-qa 2026",
              "datePublished": "2026-01-01", "version": "1.0.0", "distribution": [], "recordSet": []}
    dataset = mlc.Dataset(jsonld=record)  # raises mlcroissant.ValidationError on an error
    assert not dataset.metadata.ctx.issues.errors and not dataset.metadata.ctx.issues.warnings
    biases = dataset.metadata.data_biases
    assert [b.split(" bias:")[0] for b in biases] == [c.category for c in read_results(audit_dir).categories]
    assert [f["category"] for f in fragment[FIGURES_PROPERTY]] == [c.category for c in read_results(audit_dir).categories]
    assert any(b.startswith("Similarity bias: more than SQuAD v1.1 (decided by the") for b in biases)
    # a category's interval against the reference is named at its own (family-wise) level
    compared = [c for c in read_results(audit_dir).categories if c.reference_difference is not None]
    assert len(compared) >= 2
    figures = {f["category"]: f for f in fragment[FIGURES_PROPERTY]}
    for c in compared:  # the statements say "95 % interval"; each interval's own (family-wise) label is in the figures
        statement = next(b for b in biases if b.startswith(f"{c.category} bias:"))
        assert "(95 % interval)" in statement and "% CI" not in statement, statement
        assert figures[c.category]["interval"] == family_ci_label(c.reference_confidence, 0.95)
    assert "family-wise" in dataset.metadata.data_limitations[0]
    assert dataset.metadata.data_limitations[0].startswith("These statements were drafted by MRCLens")
    assert any("weak reader" in x for x in dataset.metadata.data_limitations)


def test_existing_card_is_kept_without_force_and_replaced_with_it(audit_dir, tmp_path):
    target = tmp_path / "notes.md"
    target.write_text("my own notes\n")
    r = CliRunner().invoke(main, ["card", str(audit_dir), "--out", str(target)])
    assert r.exit_code == 2 and "--force" in r.output and target.read_text() == "my own notes\n"
    assert not (tmp_path / "notes.rai.jsonld").exists()
    r = CliRunner().invoke(main, ["card", str(audit_dir), "--out", str(target), "--force"])
    assert r.exit_code == 0 and target.read_text().startswith("## Bias, Risks")
    r = CliRunner().invoke(main, ["card", str(audit_dir), "--out", str(tmp_path / "card.txt")])
    assert r.exit_code == 2 and "ending in .md" in r.output


def test_force_replaces_all_four_files_or_none(audit_dir, tmp_path):
    """Issue 55, item 6: `card --force` whose last path cannot be written (a directory stands there) leaves the
    old card whole, not three new files beside an old one, and no temporary file behind."""
    out = tmp_path / "card"
    out.mkdir()
    old = {name: f"the old {name}\n" for name in (CARD_MARKDOWN, CARD_RAI, CARD_BODY)}
    for name, text in old.items():
        (out / name).write_text(text)
    (out / CARD_RECOMMENDATIONS).mkdir()  # the last of the four cannot be written
    r = CliRunner().invoke(main, ["card", str(audit_dir), "--out", str(out), "--force"])
    assert r.exit_code == 2, r.output
    assert str(out / CARD_RECOMMENDATIONS) in r.output and "directory" in r.output
    assert {name: (out / name).read_text() for name in old} == old
    assert sorted(p.name for p in out.iterdir()) == sorted([*old, CARD_RECOMMENDATIONS])
    (out / CARD_RECOMMENDATIONS).rmdir()  # once it can be written, all four are replaced
    r = CliRunner().invoke(main, ["card", str(audit_dir), "--out", str(out), "--force"])
    assert r.exit_code == 0, r.output
    assert (out / CARD_MARKDOWN).read_text().startswith("## Bias, Risks")
    assert all((out / name).read_text() != text for name, text in old.items())
    assert (out / CARD_RECOMMENDATIONS).is_file()


def test_a_directory_without_results_and_an_edited_fragment_are_refused_by_name(tmp_path):
    r = CliRunner().invoke(main, ["card", str(tmp_path)])
    assert r.exit_code == 2 and "results.json" in r.output
    bad = tmp_path / "x.rai.jsonld"
    bad.write_text(json.dumps({"@context": dict(CROISSANT_CONTEXT), "rai:dataBiases": "one string"}))
    with pytest.raises(ArtifactError, match="rai:dataBiases"):
        read_rai_fragment(bad)


def test_a_new_evaluation_into_the_folder_removes_the_card_of_the_results_it_replaces(tmp_path):
    """Issue 42, item 6: `evaluate --out ev`, `card ev`, `evaluate --out ev --seed 1` must not leave a card that
    says seed 0: a command that replaces results.json removes the card drafted from the old one."""
    perturbed, predictions = make_perturbed_dir(tmp_path), write_predictions(tmp_path)
    ev, runner = tmp_path / "ev", CliRunner()
    evaluate = ["evaluate", str(perturbed), "--predictions-dir", str(predictions), "--out", str(ev), "--resamples", "50"]
    assert runner.invoke(main, evaluate).exit_code == 0
    r = runner.invoke(main, ["card", str(ev)])
    assert r.exit_code == 0, r.output
    assert "seed 0." in (ev / CARD_MARKDOWN).read_text()
    (tmp_path / "mine.md").write_text("my notes\n")  # a file of the user's beside it is not touched
    r = runner.invoke(main, [*evaluate, "--seed", "1"])
    assert r.exit_code == 0, r.output
    assert read_results(ev).bootstrap.seed == 1
    assert not any((ev / name).exists() for name in (CARD_MARKDOWN, CARD_RAI, CARD_BODY, CARD_RECOMMENDATIONS))
    assert f"removed {CARD_MARKDOWN}, {CARD_RAI}" in r.output and f"mrclens card {ev}" in r.output
    assert (tmp_path / "mine.md").read_text() == "my notes\n"
    r = runner.invoke(main, ["card", str(ev)])  # drafted again, from the new results, without --force
    assert r.exit_code == 0 and "seed 1." in (ev / CARD_MARKDOWN).read_text()



def test_markdown_escapes_the_names_it_did_not_write(audit_dir):
    """Issue 42, item 11: a model name or a plug-in's category goes into the Markdown as text: no raw HTML,
    no `|` that splits a table row."""
    from dataclasses import replace

    from mrclens.reports.card import card_markdown

    results = read_results(audit_dir)
    evil = "<img src=x onerror=alert(1)>"
    results = replace(results, model=replace(results.model, name=evil),
                      categories=[replace(c, category=f"{c.category} | odd") if c.category == "Similarity" else c
                                  for c in results.categories],
                      ablations=[replace(a, category=f"{a.category} | odd") if a.category == "Similarity" else a
                                 for a in results.ablations])
    text = card_markdown(results)
    assert evil not in text and "<img" not in text
    assert "&lt;img src=x onerror=alert(1)&gt;" in text
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    assert rows[0].startswith("| Bias category |") and len(rows) == 1 + len(results.categories)
    for row in rows:  # every row has the header's four cells: no unescaped | inside a cell
        assert len(re.split(r"(?<!\\)\|", row)) == 6, row
    assert "| Similarity \\| odd | more than SQuAD v1.1 (by the model-free figures) |" in text
    markdown_it = pytest.importorskip("markdown_it")
    html = markdown_it.MarkdownIt("commonmark").enable("table").render(text)
    assert "<img" not in html and "Similarity | odd" in html


def test_out_with_a_dot_that_is_not_a_file_type_is_a_folder(audit_dir, tmp_path):
    """Issue 42, item 11: `card --out out/card.v2` is a folder (the help: a folder, or a Markdown name ending in .md)."""
    out = tmp_path / "out" / "card.v2"
    r = CliRunner().invoke(main, ["card", str(audit_dir), "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert all((out / name).is_file() for name in (CARD_MARKDOWN, CARD_RAI, CARD_BODY, CARD_RECOMMENDATIONS))
    r = CliRunner().invoke(main, ["card", str(audit_dir), "--out", str(tmp_path / "notes.markdown")])
    assert r.exit_code == 0 and (tmp_path / "notes.markdown").read_text().startswith("## Bias, Risks")
    assert (tmp_path / "notes.rai.jsonld").is_file() and (tmp_path / "notes-body.markdown").is_file()
    for taken in ("notes.txt", "page.html"):  # a file name of another type is still refused, nothing written
        r = CliRunner().invoke(main, ["card", str(audit_dir), "--out", str(tmp_path / taken)])
        assert r.exit_code == 2 and "ending in .md" in r.output and not (tmp_path / taken).exists()


# ---------------------------------------------------------------------------- issue 44, item 4: a card to paste
def _sentences(text):
    """Sentences of a statement: a stop followed by a space and a capital (``v1.1`` and ``+22.5`` are not stops)."""
    return [t for t in re.split(r"(?<=[.!?])\s+(?=[A-Z])", text.strip()) if t]


def test_body_and_recommendations_go_through_the_hugging_face_template_as_they_are(audit_dir, tmp_path):
    """The body and the recommendations are the template's `bias_risks_limitations` and `bias_recommendations`:
    pasted unchanged, the card has one "Bias, Risks, and Limitations" heading, each category's verdict and what it
    means for a model trained on the data, and a Recommendations section with what a user of the data does about
    each verdict."""
    hub = pytest.importorskip("huggingface_hub")
    from mrclens.reports.card import category_meaning, category_recommendation, category_verdict
    from mrclens.categories import get_category

    out = tmp_path / "card"
    assert CliRunner().invoke(main, ["card", str(audit_dir), "--out", str(out)]).exit_code == 0
    body, recs = (out / CARD_BODY).read_text(), (out / CARD_RECOMMENDATIONS).read_text()
    assert not re.search(r"^#{1,2} ", body, re.M) and not re.search(r"^#{1,3} ", recs, re.M)
    card = hub.DatasetCard.from_template(hub.DatasetCardData(), bias_risks_limitations=body,
                                         bias_recommendations=recs)
    text = str(card)
    assert len(re.findall(r"^#+ Bias, Risks, and Limitations\s*$", text, re.M)) == 1
    section = text.split("## Bias, Risks, and Limitations", 1)[1].split("\n## ", 1)[0]
    assert body.strip() in section
    recommendations = section.split("### Recommendations", 1)[1]
    assert recs.strip() in recommendations
    assert "More information needed" not in section and "[More Information Needed]" not in section
    results = read_results(audit_dir)
    assert len(results.categories) >= 2
    for c in results.categories:
        assert category_meaning(c) in section, c.category
        row = next(line for line in section.splitlines() if line.startswith(f"| {c.category} |"))
        assert category_verdict(c) in row
        assert f"- **{c.category}** ({category_verdict(c)}): {category_recommendation(c)}" in recommendations
    similarity = next(c for c in results.categories if c.category == "Similarity")
    assert get_category("Similarity").advice_more in recommendations and similarity.reference_bias == "more"
    # the full section is the template's heading, the body and the recommendations, nothing else
    full = (out / CARD_MARKDOWN).read_text()
    assert full == f"## Bias, Risks, and Limitations\n\n{body}\n### Recommendations\n\n{recs}"


def test_rai_statements_are_short_and_their_figures_are_structured(audit_dir, tmp_path):
    assert CliRunner().invoke(main, ["card", str(audit_dir), "--out", str(tmp_path / "c.md")]).exit_code == 0
    fragment = read_rai_fragment(tmp_path / "c.rai.jsonld")
    results = read_results(audit_dir)
    for statement in fragment["rai:dataBiases"]:
        assert len(statement) <= 400 and 1 <= len(_sentences(statement)) <= 2, statement
        assert " CI" not in statement, statement  # "95 % interval", no per-test label (issue 57)
    figures = {f["category"]: f for f in fragment[FIGURES_PROPERTY]}
    for c in results.categories:
        f = figures[c.category]
        assert (f["verdict"], f["basis"], f["difference"], f["ci_low"], f["ci_high"], f["mde"], f["evidence"]) == (
            c.reference_bias, c.reference_basis, c.reference_difference, c.reference_difference_ci_low,
            c.reference_difference_ci_high, c.reference_mde, c.evidence)
        assert f["confidence"] == c.reference_confidence
        compared = [a for a in results.ablations if a.category == c.category and a.control_of is None
                    and a.reference_bias is not None]
        assert [a["id"] for a in f["ablations"]] == [a.id for a in compared]
    e1 = next(a for a in figures["Similarity"]["ablations"] if a["id"] == "e1")
    assert (e1["value"], e1["reference_value"]) == (results.ablation("e1").compared_value, 10.0)
    e4 = next(a for a in figures["Question"]["ablations"] if a["id"] == "e4")  # a small-drop ablation, towards the bias
    assert e4["difference"] == pytest.approx(-results.ablation("e4").reference_difference)
    fig = figures["Similarity"]["model_free"][0]
    assert (fig["value"], fig["reference_value"], fig["difference"]) == (98.0, 80.6, 17.4)


def test_the_markdown_says_95_percent_interval_and_explains_family_wise_once(audit_dir, tmp_path):
    """Issue 57: no per-test confidence labels ("98.33% CI (95% family-wise)") in the Markdown: the table's column
    says "95 % interval" and one sentence says what family-wise means; the JSON-LD's figures keep each interval's
    own label and level."""
    assert CliRunner().invoke(main, ["card", str(audit_dir), "--out", str(tmp_path / "c.md")]).exit_code == 0
    fragment = read_rai_fragment(tmp_path / "c.rai.jsonld")
    labels = {f["interval"] for f in fragment[FIGURES_PROPERTY] if f["interval"]}
    assert len(labels) == 1 and "family-wise" in labels.pop()
    body = (tmp_path / "c-body.md").read_text()
    header = next(line for line in body.splitlines() if line.startswith("| Bias category |"))
    assert header == '| Bias category | Verdict | Difference (95 % interval) | "In line" band |'
    assert not re.search(r"\d% CI", body) and body.count("family-wise") == 1


def test_an_empty_out_is_a_usage_error_not_the_current_folder(audit_dir, tmp_path, monkeypatch):
    """Issue 55, item 14: `card --out ''` wrote the four files into the current folder."""
    monkeypatch.chdir(tmp_path)
    for out in ("", "  "):
        r = CliRunner().invoke(main, ["card", str(audit_dir), "--out", out])
        assert r.exit_code == 2 and "--out" in r.output and "is empty" in r.output, r.output
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------- issue 57: one band, one difference
def _stored_figure(c: dict, model_free: list[dict]) -> tuple[str, str, str]:
    """A category's difference, its interval and its band of "in line" read from results.json alone: on the drops
    route its ``reference_difference`` (points, one decimal) and ``reference_band`` points, or where the drops have a
    planted-share scale (``reference_per_planted_pct``, issue 54) both as planted shares; on the data route its
    verdict figure's difference and band as planted shares, percent of the questions (``per_planted_pct``,
    issue 54: whole percent, the band to one decimal)."""
    def share(x: float, scale: float) -> str:  # whole percent, signed; a share that rounds to zero is "+0", never "-0"
        text = f"{x / scale:+.0f}"
        return "+0" if text == "-0" else text

    if "drops" in c["reference_basis"] and c["reference_difference"] is not None and c.get("reference_per_planted_pct"):
        scale = c["reference_per_planted_pct"]  # issue 54: the drops as a planted share
        return (f"{share(c['reference_difference'], scale)}% of q.",
                f"[{share(c['reference_difference_ci_low'], scale)}, {share(c['reference_difference_ci_high'], scale)}]",
                f"±{round(c['reference_band'] / scale, 1):g}% of the questions")
    if "drops" in c["reference_basis"] and c["reference_difference"] is not None:
        return (f"{c['reference_difference']:+.1f}",
                f"[{c['reference_difference_ci_low']:+.1f}, {c['reference_difference_ci_high']:+.1f}]",
                f"±{c['reference_band']:g} points")
    f = next(f for f in model_free if f["category"] == c["category"] and f["role"] == "verdict"
             and f["comparison"] is not None)
    scale = f["per_planted_pct"]

    def pct(x: float) -> str:
        return share(x, scale)

    return (f"{pct(f['difference'])}% of q.",
            f"[{pct(f['difference_ci_low'])}, {pct(f['difference_ci_high'])}]",
            f"±{round(f['band'] / scale, 1):g}% of the questions")


def _data_decided(audit: Path, out: Path) -> Path:
    """``audit`` read again as an audit whose reader profile the reference has no drops for: its data's own
    figures (article-clustered, with their planted-share scale) decide each category they measure."""
    import shutil

    from report_fixtures import shortcut_reference

    from mrclens.artifacts.results import write_results
    from mrclens.scoring.against_reference import compare_with_reference

    shutil.copytree(audit, out)
    results = read_results(out)
    plain = [replace(c, reference=None, reference_bias=None, reference_basis=None, reference_difference=None,
                     reference_difference_ci_low=None, reference_difference_ci_high=None, reference_band=None,
                     reference_mde=None, reference_confidence=None, reference_why=None) for c in results.categories]
    reference, _ = shortcut_reference()
    _, categories = compare_with_reference(results.ablations, plain, reference.audit_for("no-such-profile"),
                                           model_free=results.model_free)
    write_results(replace(results, categories=categories), out)
    return out


@pytest.mark.parametrize("route", ["drops", "data"])
def test_the_card_the_report_and_results_json_state_the_same_band_and_difference(compared_audit, tmp_path, route):
    """Issue 57, item 5: the card stated "'in line' within ±0" where the report stated the band (±10 % of the
    questions). For a real small audit read against the bundled reference's quick audit (its drops decide) and the
    same audit read by its data's figures alone (each a planted share), every category's difference, interval and
    band are the same in the card's table, on the report's first screen and in results.json."""
    import html

    from mrclens.reports import render_report

    audit = compared_audit if route == "drops" else _data_decided(compared_audit, tmp_path / "data-decided")
    results = json.loads((audit / "results.json").read_text(encoding="utf-8"))
    assert CliRunner().invoke(main, ["card", str(audit), "--out", str(tmp_path / "card")]).exit_code == 0
    card = (tmp_path / "card" / CARD_BODY).read_text(encoding="utf-8")
    page = render_report(audit)
    checked = []
    for c in results["categories"]:
        measured = any(f["category"] == c["category"] and f["role"] == "verdict" for f in results["model_free"])
        if route == "data" and not measured:  # Question: no verdict figure of the data measures it
            assert "| n/a | n/a |" in next(line for line in card.splitlines() if line.startswith(f"| {c['category']} |"))
            continue
        stored = _stored_figure(c, results["model_free"])
        row = next(line for line in card.splitlines() if line.startswith(f"| {c['category']} |"))
        cells = [x.strip() for x in row.strip("|").split(" | ")]
        figure, band = cells[2], cells[3]
        assert figure.endswith(f"{stored[0]} {stored[1]}") and band == stored[2], (row, stored)
        glance = page[page.index(f'id="category-{c["category"].lower()}"'):]
        glance = html.unescape(glance[: glance.index("</div>")])
        big, ci = re.search(r'<span class="big">(.*?)</span> <span class="ci">(.*?)</span>', glance).groups()
        assert (big, ci) == stored[:2], (glance, stored)
        assert re.search(rf"(band|'in line' within) {re.escape(stored[2])}", glance), glance
        checked.append(c["category"])
    # the drops decide every category here; the data decides each one, each in percent of the questions planted with
    # its shortcut (Question by its set-apart figure since issue 54, item 5)
    assert checked == ["Similarity", "Question", "Keyword", "Position"], checked
    if route == "data":
        assert card.count("±10% of the questions") == 4 and "±0" not in card
