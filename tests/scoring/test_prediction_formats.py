"""Hugging Face prediction formats score exactly like the official file; no-answer thresholds (real SQuAD files)."""

from __future__ import annotations

import json
import random
import re

import pytest
from click.testing import CliRunner

from mrclens.artifacts.predictions import read_prediction_file, read_predictions
from mrclens.cli import main
from mrclens.errors import PredictionsError
from mrclens.formats import load_dataset
from mrclens.metrics.no_answer import apply_threshold, best_thresholds
from mrclens.metrics.official import evaluate_set


def _answers(dataset, seed=0):
    """Mixed predictions on a real file: gold, partly right, wrong, empty (and so for v2 an abstention)."""
    rng = random.Random(seed)
    out = {}
    for _, paragraph, q in dataset.iter_questions():
        r = rng.random()
        gold = q.answers[0].text if q.answers else paragraph.context[:12]
        out[q.id] = gold if r < 0.4 else gold.split()[0] if r < 0.6 else "" if r < 0.75 else paragraph.context[5:20]
    return out


def _write_all(tmp_path, answers, probs=None):
    items = [{"id": qid, "prediction_text": text} | ({"no_answer_probability": probs[qid]} if probs else {})
             for qid, text in answers.items()]
    files = {
        "official": tmp_path / "official.json",
        "hf-list": tmp_path / "hf.json",
        "hf-jsonl": tmp_path / "hf.jsonl",
        "n-best": tmp_path / "nbest.json",
    }
    files["official"].write_text(json.dumps(answers))
    files["hf-list"].write_text(json.dumps(items))
    files["hf-jsonl"].write_text("\n".join(json.dumps(i) for i in items) + "\n")
    files["n-best"].write_text(json.dumps({qid: [{"text": t, "probability": 0.9}, {"text": "other", "probability": 0.1}]
                                           for qid, t in answers.items()}))
    return files


@pytest.mark.parametrize("which", ["v1", "v2"])
def test_every_format_scores_exactly_like_the_official_file(which, squad_dev_path, squad_v2_half_path, tmp_path):
    dataset = load_dataset(squad_dev_path if which == "v1" else squad_v2_half_path)
    answers = _answers(dataset)
    files = _write_all(tmp_path, answers)
    official = evaluate_set(dataset, read_predictions(files["official"]))
    assert 0 < official["f1"] < 100
    for fmt, path in files.items():
        pf = read_prediction_file(path)
        assert pf.format == fmt and pf.texts == answers
        assert evaluate_set(dataset, pf.texts) == official
    res = CliRunner().invoke(main, ["evaluate", str(squad_v2_half_path if which == "v2" else squad_dev_path),
                                    str(files["hf-jsonl"]), "--json"])
    assert res.exit_code == 0, res.output
    got = json.loads(res.output)
    assert {k: got[k] for k in official} == official and got["predictions_format"] == "hf-jsonl"


@pytest.mark.slow
def test_no_answer_threshold_official_rule_and_best_search(squad_v2_half_path, tmp_path):
    dataset = load_dataset(squad_v2_half_path)
    answers = {qid: t or "something" for qid, t in _answers(dataset, seed=1).items()}  # always a span
    rng = random.Random(2)
    gold_na = {q.id: not q.answers for _, _, q in dataset.iter_questions()}
    # an informative but noisy no-answer probability, rounded so that ties occur
    probs = {qid: round(min(1.0, max(0.0, (0.65 if gold_na[qid] else 0.35) + rng.gauss(0, 0.2))), 2) for qid in answers}
    files = _write_all(tmp_path, answers, probs)
    pf = read_prediction_file(files["hf-list"])
    assert pf.na_probs == probs
    # the official rule: "" where p > threshold, scored like an official file holding those answers
    for t in (0.0, 0.5, 1.0):
        thresholded = {qid: "" if probs[qid] > t else text for qid, text in answers.items()}
        assert pf.with_threshold(t) == apply_threshold(answers, probs, t) == thresholded
    # best threshold = brute force over every candidate, scored by the official EM/F1
    best = best_thresholds(dataset, answers, probs)
    candidates = sorted({0.0, *probs.values()})
    brute = {t: evaluate_set(dataset, apply_threshold(answers, probs, t)) for t in candidates}
    best_f1_t = max(candidates, key=lambda t: (brute[t]["f1"], -t))
    best_em_t = max(candidates, key=lambda t: (brute[t]["exact_match"], -t))
    assert best["best_f1"] == pytest.approx(brute[best_f1_t]["f1"]) and best["best_f1_thresh"] == best_f1_t
    assert best["best_exact"] == pytest.approx(brute[best_em_t]["exact_match"]) and best["best_exact_thresh"] == best_em_t
    assert 0.0 < best_f1_t < 1.0 and best["best_f1"] > brute[1.0]["f1"]

    res = CliRunner().invoke(main, ["evaluate", str(squad_v2_half_path), str(files["hf-jsonl"]), "--na-threshold", "best", "--json"])
    assert res.exit_code == 0, res.output
    got = json.loads(res.output)
    assert got["na_threshold"] == best_f1_t and got["na_threshold_source"] == "best F1 on this data"
    assert got["f1"] == pytest.approx(best["best_f1"]) and got["NoAns_total"] == 3_168
    assert got["exact"] == got["exact_match"] and got["total"] == 6_078  # the official v2.0 names too
    res = CliRunner().invoke(main, ["evaluate", str(squad_v2_half_path), str(files["hf-list"]), "--na-threshold", "0.5"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output.splitlines()[0])["f1"] == pytest.approx(brute[0.5]["f1"])
    assert "no-answer threshold used: 0.5 (given); best on this data: F1" in res.output
    res = CliRunner().invoke(main, ["evaluate", str(squad_v2_half_path), str(files["official"]), "--na-threshold", "0.5"])
    assert res.exit_code == 2 and "official.json: --na-threshold needs no-answer probabilities" in res.output
    res = CliRunner().invoke(main, ["evaluate", str(squad_v2_half_path), str(files["hf-list"]), "--na-threshold", "2"])
    assert res.exit_code == 2 and "give a number between 0 and 1, or 'best'" in res.output


def test_prediction_file_errors_name_file_item_and_problem(tmp_path):
    path = tmp_path / "p.jsonl"
    cases = [
        ('{"id": "a", "prediction_text": "x"}\n{"id": "a", "prediction_text": "y"}\n', "line 2: question a has a second prediction"),
        ('{"id": "a", "prediction_text": "x"}\n{"id": "b"}\n', "line 2 is not an object with 'id' and 'prediction_text'"),
        ('{"id": "a", "prediction_text": "x", "no_answer_probability": 0.2}\n{"id": "b", "prediction_text": ""}\n',
         "question b: no 'no_answer_probability', which other items have"),
        ('{"id": "a", "prediction_text": 3}\n{"id": "b", "prediction_text": ""}\n', "line 1 (question a): 'prediction_text' must be a string"),
        ('{"id": "a", "prediction_text": "x"}\n{oops\n', "not valid JSON"),
    ]
    for content, message in cases:
        path.write_text(content)
        with pytest.raises(PredictionsError, match=re.escape(message)) as err:
            read_prediction_file(path)
        assert str(path) in str(err.value)
