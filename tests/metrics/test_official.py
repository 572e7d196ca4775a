"""Official SQuAD EM/F1 rules, each checked with a hand-computed value."""

from __future__ import annotations

import json

import pytest

from mrclens.artifacts.predictions import read_predictions as load_predictions
from mrclens.metrics.official import evaluate_set as evaluate
from mrclens.metrics.official import exact_match_score, f1_score, normalize_answer
from mrclens.errors import PredictionsError
from mrclens.squad import Answer, Article, Dataset, Paragraph, Question


@pytest.mark.parametrize(
    "raw, normalised",
    [
        ("The Cat", "cat"),                       # lower-case + article
        ("cat, dog; (bird)!", "cat dog bird"),    # ASCII punctuation removed
        ("an apple a day", "apple day"),          # articles a/an
        ("  many \t spaces\n", "many spaces"),    # whitespace collapsed
        ("theatre anathema", "theatre anathema"), # articles only as whole words
        ("café – «x»", "café – «x»"),             # non-ASCII punctuation kept, as in the official script
        ("U.S.", "us"),
    ],
)
def test_normalisation_rules(raw, normalised):
    assert normalize_answer(raw) == normalised


def test_f1_hand_computed():
    # pred tokens: [eiffel, tower]; gold: [eiffel, tower, in, paris] -> P=1, R=0.5, F1=2/3
    assert f1_score("the Eiffel Tower", "Eiffel Tower in Paris") == pytest.approx(2 / 3)
    # bag of tokens: duplicates count once per match
    assert f1_score("a a b", "a b b") == pytest.approx(2 / 3)
    assert f1_score("", "anything") == 0.0
    assert exact_match_score("The  Beatles!", "beatles")


def _ds(questions, v2=False):
    return Dataset([Article("t", [Paragraph("ctx", questions)])], "2.0" if v2 else "1.1")


def test_evaluate_max_over_golds_and_missing_counts_as_zero():
    ds = _ds([
        Question("a", "?", [Answer("Paris", 0), Answer("the city of Paris", 0)]),
        Question("b", "?", [Answer("blue", 0)]),
    ])
    res = evaluate(ds, {"a": "city of paris"})
    # a: EM 1 (matches 2nd gold after normalisation), F1 1; b: missing -> 0
    assert res["exact_match"] == 50.0 and res["f1"] == 50.0 and res["missing"] == 1 and res["total"] == 2
    assert evaluate(ds, {"a": "x", "b": "blue", "zzz": "y"})["unknown"] == 1


def test_v2_rules_empty_vs_empty_and_subsets():
    ds = _ds([
        Question("has", "?", [Answer("red car", 0)], is_impossible=False),
        Question("no", "?", [], is_impossible=True),
        Question("no2", "?", [], is_impossible=True),
    ], v2=True)
    res = evaluate(ds, {"has": "the red car", "no": "", "no2": "something"})
    assert res["HasAns_exact"] == 100.0 and res["HasAns_total"] == 1
    assert res["NoAns_exact"] == 50.0 and res["NoAns_f1"] == 50.0 and res["NoAns_total"] == 2
    assert res["exact_match"] == pytest.approx(200 / 3)
    # the official v2.0 script's names (evaluate-v2.0.py, HF squad_v2) beside exact_match
    assert res["exact"] == res["exact_match"] and res["total"] == 3
    assert {"exact", "f1", "total", "HasAns_exact", "HasAns_f1", "HasAns_total", "NoAns_exact", "NoAns_f1",
            "NoAns_total"} <= set(res)
    assert "exact" not in evaluate(_ds([Question("x", "?", [Answer("a", 0)])]), {"x": "a"})  # v1.1: its own names
    # in v1.1 an empty prediction never scores
    assert evaluate(_ds([Question("x", "?", [Answer("a", 0)])]), {"x": ""})["f1"] == 0.0


def test_load_predictions_errors(tmp_path):
    bad = tmp_path / "p.json"
    bad.write_text('{"q1": 3}')
    with pytest.raises(PredictionsError, match=r"p\.json: question q1: the predicted answer must be a string"):
        load_predictions(bad)
    bad.write_text("{oops")
    with pytest.raises(PredictionsError, match="not valid JSON"):
        load_predictions(bad)
    bad.write_text(json.dumps({"q1": "ok"}))
    assert load_predictions(bad) == {"q1": "ok"}


def _pairwise_official(ds, predictions):
    """The official scripts' loop, pair by pair, without any memoisation."""
    from mrclens.metrics.official import f1_score_v2

    out = {}
    v2 = ds.is_v2
    for _, _, q in ds.iter_questions():
        if q.id not in predictions:
            out[q.id] = (0.0, 0.0)
            continue
        golds = [a.text for a in q.answers] or [""]
        pred = predictions[q.id]
        if v2:
            golds = [g for g in golds if normalize_answer(g)] or [""]
            out[q.id] = (max(float(normalize_answer(g) == normalize_answer(pred)) for g in golds),
                         max(f1_score_v2(pred, g) for g in golds))
        else:
            out[q.id] = (max(float(exact_match_score(pred, g)) for g in golds), max(f1_score(pred, g) for g in golds))
    return out


@pytest.mark.parametrize("v2", [False, True])
def test_question_scores_equal_pairwise_official_rules_on_sample(v2):
    """The memoised scorer gives, question by question, the official pairwise scores (bundled
    real sample; predictions: gold, first words of the context, shifted spans, empty)."""
    import random

    from mrclens.metrics.official import question_scores
    from mrclens.formats import load_dataset
    from tests.conftest import SAMPLE

    ds = load_dataset(SAMPLE)
    rng = random.Random(0)
    preds = {}
    for _, p, q in ds.iter_questions():
        kind = rng.randrange(5)
        a = q.answers[0]
        if kind == 0:
            preds[q.id] = a.text
        elif kind == 1:
            preds[q.id] = p.context[: rng.randrange(1, 40)]
        elif kind == 2:
            s = max(0, a.answer_start + rng.randrange(-15, 15))
            preds[q.id] = p.context[s : s + len(a.text) + rng.randrange(-5, 10)]
        elif kind == 3:
            preds[q.id] = ""
        # kind 4: missing
    if v2:  # half the questions become unanswerable
        for i, (_, _, q) in enumerate(ds.iter_questions()):
            q.is_impossible = i % 2 == 0
            if q.is_impossible:
                q.answers = []
    assert ds.is_v2 is v2
    got = question_scores(ds, preds)
    want = _pairwise_official(ds, preds)
    assert got == want
    assert 0 < sum(f for _, f in got.values()) < len(got)  # a mix of right and wrong
