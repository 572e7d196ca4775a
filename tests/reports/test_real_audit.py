"""A report from a real small audit: the first SQuAD v1.1 article of the bundled sample, perturbed by
``mrclens.perturbations``, answered by a lexical-overlap model, scored by ``mrclens.scoring``."""

from __future__ import annotations

import json
import re

import pytest
from markupsafe import escape

from mrclens import perturbations
from perturbed_fixture import ALL_ABLATION_IDS, score_and_publish
from report_fixtures import overlap_model
from mrclens.io_utils import atomic_write_json
from mrclens.reports import PCT_DECIMALS, render_report
from mrclens.formats import load_dataset
from mrclens.reports.examples import build_examples
from mrclens.reports.glance import reading_figure
from mrclens.squad import Article, Dataset

@pytest.fixture(scope="module")
def real_audit(tmp_path_factory, sample_path):
    root = tmp_path_factory.mktemp("real") / "audit"
    full = load_dataset(sample_path)
    small = Dataset(full.articles[:1], full.version, str(sample_path))  # 291 questions
    manifest = perturbations.perturb_dataset(small, root / "perturbed", seed=0, cache_dir=root / "cache", progress=False)
    for name, file in manifest.set_files().items():
        squad = json.loads((root / "perturbed" / file).read_text(encoding="utf-8"))
        atomic_write_json(root / "predictions" / f"{name}.json", overlap_model(squad))
    score_and_publish(root / "perturbed", root / "predictions", root, model_name="lexical overlap",
                      seed=0, n_resamples=200, progress=False)
    return root


def test_report_of_a_real_small_audit(real_audit):
    results = json.loads((real_audit / "results.json").read_text(encoding="utf-8"))
    manifest = json.loads((real_audit / "perturbed" / "manifest.json").read_text(encoding="utf-8"))
    page = (real_audit / "report.html").read_text(encoding="utf-8")  # written by the evaluation step itself
    assert page == render_report(real_audit)  # and rebuilt identically from the saved files
    assert [a["id"] for a in results["ablations"]] == ALL_ABLATION_IDS
    for a in results["ablations"]:
        assert a["evaluated"], a
        row = page[page.index(f'<tr id="row-{a["id"]}"'):]
        row, details = row[: row.index("</tr>")], row[: row.index("</details>")]  # the row, and with its disclosure
        assert f"<strong>{a['f1_drop']:.{PCT_DECIMALS}f}</strong> [{a['ci_low']:.{PCT_DECIMALS}f}, {a['ci_high']:.{PCT_DECIMALS}f}]" in row
        assert f">{a['changed']:,} / {a['n']:,}<" in row
        for key in ("exact_match", "f1", "baseline_f1"):
            assert f"<td>{a[key]:.{PCT_DECIMALS}f}</td>" in details, (a["id"], key)
        block = page[page.index(f'id="examples-{a["id"]}"'):]
        block = block[: block.index("</section>")]
        if a["id"] in ("e10", "c10"):
            # one article only: e10 takes its decoy answers from *other* articles, so it finds none and
            # changes nothing (said per item), nor does its control
            assert a["changed"] == 0 and a["unchanged_by_reason"].get("no_decoy", 0) > 0
            continue
        if a["control_of"] == "e4":  # the question-removed reference changes every question; e4 reads it as recovered share
            e4 = next(x for x in results["ablations"] if x["id"] == "e4")
            assert a["changed"] == a["n"] and e4["excess_drop"] is None and e4["recovered_share"] is not None
            assert f"recovers {e4['recovered_share']:.{PCT_DECIMALS}f}%" in page
        elif a["control_of"] and a["id"] != "c9":
            # one article only: a control takes its words from *other* articles, so it finds none and
            # changes nothing (said per item), and its ablation has no excess drop
            target = next(x for x in results["ablations"] if x["id"] == a["control_of"])
            assert a["changed"] == 0 and a["unchanged_by_reason"].get("no_control_text") == target["changed"]
            assert next(x for x in results["ablations"] if x["id"] == a["control_of"])["excess_drop"] is None
            continue
        # three examples, all changed items (every ablation changes far more than three here)
        assert a["changed"] >= 3
        assert block.count('<article class="example"') == 3
        assert block.count("changed · ") == 3
    # c9 moves sentences within the passage (nothing from other articles): e9 has an excess drop
    assert next(x for x in results["ablations"] if x["id"] == "e9")["excess_drop"] is not None
    for c in results["categories"]:  # no reference: the figure of the ablation the category's level is read from
        fig = reading_figure(c, results["ablations"])
        assert fig.label.split()[0] in c["evaluated"]
        assert f'<span class="big">{fig.number}</span> <span class="ci">{fig.interval}</span>' in page
    # the overlap model is fooled by the inserted question: a real, visible drop
    e1 = next(a for a in results["ablations"] if a["id"] == "e1")
    assert e1["f1_drop"] > 5 and e1["ci_low"] > 0
    # e1's highlighted insertions are the questions of the shown items (the paper's e1: insert the question)
    block = page[page.index('id="examples-e1"'):]
    block = block[: block.index("</section>")]
    for article in re.findall(r'<article class="example".*?</article>', block, flags=re.S):
        question = re.search(r'<p class="question">(.*?)</p>', article, flags=re.S).group(1)
        inserted = " ".join(re.findall(r'<span class="ins">(.*?)</span>', article, flags=re.S))
        assert question.strip() and question.strip() in inserted, (question, inserted)
    # the real article titles and the manifest's source are shown
    assert str(escape(manifest["source"]["sha256"])) in page


#: The ablations that insert text, and their matched controls (each item records ``inserted`` and ``offset``).
INSERTIONS = ["e1", "c1", "e2", "c2", "e6", "c6", "e7", "c7", "e8", "c8", "e10", "c10"]


@pytest.fixture(scope="module")
def insertions(tmp_path_factory, sample_path):
    """The insertion ablations and controls on three articles of the bundled sample (the controls take
    their text from the *other* articles, so one article is not enough)."""
    root = tmp_path_factory.mktemp("insertions")
    full = load_dataset(sample_path)
    small = Dataset([Article(a.title, a.paragraphs[:12]) for a in full.articles[4:7]], full.version, str(sample_path))
    manifest = perturbations.perturb_dataset(small, root / "perturbed", ablations=INSERTIONS, seed=0,
                                             cache_dir=root / "cache", progress=False)
    return root / "perturbed", manifest


def _runs(segments, flag: str) -> tuple[list[str], set[int]]:
    """The texts of the maximal runs of ``segments`` with ``flag`` set, and the character offsets they cover."""
    runs, covered, pos, open_run = [], set(), 0, False
    for s in segments:
        on = getattr(s, flag)
        if on:
            runs[-1:] = [runs[-1] + s.text] if open_run else [*runs[-1:], s.text] if runs else [s.text]
            covered |= set(range(pos, pos + len(s.text)))
        open_run = on
        pos += len(s.text)
    return runs, covered


def test_highlights_are_exactly_the_inserted_text_and_the_answers(insertions):
    """Issue 33: one control's highlight was off by one character. On every changed item of every insertion
    ablation and control, the highlighted text is exactly the text the perturbation inserted, and the
    highlighted answer characters are exactly the gold answer spans."""
    perturbed, manifest = insertions
    files = manifest.set_files()
    m = manifest.to_json()["ablations"]
    checked = {}
    for aid in INSERTIONS:
        items = m[aid]["items"]
        changed = {q for q, r in items.items() if r["changed"]}
        if not changed:
            continue
        baseline = load_dataset(perturbed / files[m[aid]["baseline_set"]])
        ablated = load_dataset(perturbed / files[aid])
        by_id = ablated.questions_by_id()
        examples = build_examples(baseline, ablated, ablation_id=aid, seed=0, k=len(changed), changed_ids=changed, items=items)
        assert {e.qid for e in examples} == changed
        for e in examples:
            inserted, _ = _runs(e.context_after, "inserted")
            assert inserted == [items[e.qid]["detail"]["inserted"]], (aid, e.qid)
            context = "".join(s.text for s in e.context_after)
            spans = {i for a in by_id[e.qid].answers for i in range(a.answer_start, a.answer_end)}
            assert _runs(e.context_after, "answer")[1] == spans, (aid, e.qid)
            assert all(context[a.answer_start:a.answer_end] == a.text for a in by_id[e.qid].answers)
        checked[aid] = len(examples)
    # every ablation and control changed items here (the controls found text in the other articles)
    assert set(checked) == set(INSERTIONS), checked  # every ablation and control changed items (290 here)
