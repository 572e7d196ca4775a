"""Unanswerable (SQuAD v2.0) questions through every ablation: no crash, a record for each, a stated rule."""

from __future__ import annotations

import json

import pytest

from mrclens.perturbations import perturb_dataset
from mrclens.perturbations.registry import ABLATIONS
from mrclens.formats import load_dataset
from mrclens.squad import Article, Dataset


def test_every_registered_ablation_states_its_rule_for_unanswerable_questions():
    for aid, ablation in ABLATIONS.items():
        assert ablation.no_answer_rule.strip(), f"{aid} does not say what it does to unanswerable questions"


@pytest.fixture(scope="module")
def v2_perturbed(squad_v2_half_path, tmp_path_factory):
    """Real SQuAD v2.0 paragraphs (two articles' first 6 paragraphs each) perturbed with every ablation."""
    data = load_dataset(squad_v2_half_path)
    articles = [Article(a.title, a.paragraphs[:6]) for a in data.articles[:2]]
    small = Dataset(articles, data.version, data.source)
    out = tmp_path_factory.mktemp("v2-perturbed")
    manifest = perturb_dataset(small, out, seed=0, progress=False)
    return small, out, manifest


def test_unanswerable_questions_go_through_every_ablation_with_a_record(v2_perturbed):
    small, out, manifest = v2_perturbed
    unanswerable = {q.id for _, _, q in small.iter_questions() if not q.answers}
    assert len(unanswerable) >= 10
    raw = json.loads((out / "manifest.json").read_text())
    full_ids = {q.id for _, _, q in small.iter_questions()}
    trunc = load_dataset(out / "original-truncated.json")
    trunc_ids = {q.id for _, _, q in trunc.iter_questions()}
    for aid, entry in manifest.ablations.items():
        assert raw["ablations"][aid]["no_answer_rule"] == ABLATIONS[aid].no_answer_rule
        expected = full_ids if entry.eval_set == "full" else trunc_ids
        assert set(entry.items) == expected, aid
        for qid in unanswerable & expected:
            rec = entry.items[qid]
            assert rec["changed"] or rec["reason"], f"{aid}: {qid} unchanged without a reason"
        # the perturbed set keeps the questions unanswerable (no gold answer appears)
        pert = load_dataset(out / entry.file)
        for _, _, q in pert.iter_questions():
            if q.id in unanswerable:
                assert not q.answers and q.is_impossible, (aid, q.id)
    # the ablations that work on every question change unanswerable ones like the others
    for aid in ("e4", "e5"):
        changed = [q for q in unanswerable if manifest.ablations[aid].items[q]["changed"]]
        assert len(changed) >= len(unanswerable) // 2, aid
    # an unanswerable question in the truncated set gets its question inserted by e1
    for qid in unanswerable & trunc_ids:
        assert manifest.ablations["e1"].items[qid]["changed"]
