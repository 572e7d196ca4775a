"""The reader's no-answer option (SQuAD v2.0): decoding, loss, v1.1 unchanged, training on real v2 data."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from mrclens.artifacts.predictions import read_prediction_file, write_predictions
from mrclens.baseline_model import Reader, train
from mrclens.baseline_model.model import CoAttentionReader, best_spans, decode_spans
from mrclens.baseline_model.no_answer import (
    no_answer_probs,
    span_loss,
    threshold_score,
    unanswerable_mask,
    usable_questions,
)
from mrclens.metrics.no_answer import apply_threshold
from mrclens.formats import load_dataset
from mrclens.squad import Article, Dataset
from reader_helpers import first_questions, tiny_config

NEG = -1e30


def _hand_logits():
    # question 0: best span (1, 2) with s1 + e2 = 3 + 2 = 5; question 1: best span (0, 0) with 1 + 1 = 2
    start = torch.tensor([[0.0, 3.0, -1.0, NEG], [1.0, -2.0, -2.0, -2.0]])
    end = torch.tensor([[0.0, -1.0, 2.0, NEG], [1.0, 0.5, -3.0, -3.0]])
    null = torch.tensor([4.0, 2.5])
    return start, end, null


def test_best_span_and_no_answer_score_on_hand_made_logits():
    start, end, null = _hand_logits()
    spans, raw = best_spans(start, end, max_answer_tokens=3)
    assert spans.tolist() == [[1, 2], [0, 0]]
    assert raw.tolist() == [5.0, 2.0]
    assert torch.equal(decode_spans(start, end, 3), spans)  # the v1.1 decoder is unchanged
    scores = (null - raw).numpy()  # no-answer score: z - (s_i + e_j)
    assert scores.tolist() == [-1.0, 0.5]
    probs = no_answer_probs(scores)
    assert probs[0] == pytest.approx(1 / (1 + math.e)) and probs[1] == pytest.approx(1 / (1 + math.exp(-0.5)))


@pytest.mark.parametrize("threshold, expected", [
    (0.5, ["span a", ""]),          # p0 = 0.269 <= 0.5 answers, p1 = 0.622 > 0.5 abstains
    (0.2, ["", ""]),                # both above: both abstain
    (0.7, ["span a", "span b"]),    # both below: both answer
    (0.6224593312018546, ["span a", "span b"]),  # exactly p1: not greater, so it answers (official rule)
])
def test_abstaining_decode_threshold_on_both_sides(threshold, expected):
    start, end, null = _hand_logits()
    _, raw = best_spans(start, end, 3)
    probs = dict(zip(["a", "b"], no_answer_probs((null - raw).numpy()).tolist()))
    answers = apply_threshold({"a": "span a", "b": "span b"}, probs, threshold)
    assert [answers["a"], answers["b"]] == expected
    # the same decision in score space: abstain where z - (s_i + e_j) > logit(threshold)
    cut = threshold_score(threshold)
    assert [s > cut for s in (null - raw).tolist()] == [a == "" for a in expected]


def test_joint_loss_matches_hand_arithmetic():
    start, end, null = _hand_logits()
    spans = torch.tensor([[1, 2], [-1, -1]])  # question 0 answerable, question 1 not
    lse = torch.logsumexp(start, 1) + torch.logsumexp(end, 1)
    log_z = torch.logaddexp(null, lse)
    expected = ((log_z[0] - (3.0 + 2.0)) + (log_z[1] - 2.5)) / 2
    assert span_loss((start, end, null), spans).item() == pytest.approx(expected.item(), rel=1e-6)
    # without the null option the loss is the v1.1 one, computed exactly as before
    v1 = torch.tensor([[1, 2], [0, 0]])
    old = F.cross_entropy(start, v1[:, 0]) + F.cross_entropy(end, v1[:, 1])
    assert torch.equal(span_loss((start, end), v1), old)


def test_v1_reader_is_unchanged_and_null_head_comes_last():
    cfg = tiny_config()
    vectors = torch.randn(10, 50)
    torch.manual_seed(3)
    v1 = CoAttentionReader(cfg, vectors, 20)
    torch.manual_seed(3)
    v2 = CoAttentionReader(cfg, vectors, 20, no_answer=True)
    k1, k2 = set(v1.state_dict()), set(v2.state_dict())
    assert not any(k.startswith("null_") for k in k1)
    assert k2 - k1 == {"null_hidden.weight", "null_hidden.bias", "null_out.weight", "null_out.bias"}
    for k in k1:  # the shared parameters draw the same initial values: the null head is created last
        assert torch.equal(v1.state_dict()[k], v2.state_dict()[k]), k


def test_usable_questions_rule():
    spans = np.array([[0, 1], [-1, -1], [500, 501], [-1, -1]])
    unans = np.array([False, True, False, False])  # question 3: answer covers no token (answerable)
    assert usable_questions(spans, unans, 400, no_answer=False).tolist() == [0]
    assert usable_questions(spans, unans, 400, no_answer=True).tolist() == [0, 1]


def test_v1_data_has_no_unanswerable_questions(sample32):
    assert not unanswerable_mask(sample32).any()


@pytest.fixture(scope="module")
def v2_slice(squad_v2_half_path) -> Dataset:
    """48 real SQuAD v2.0 questions on short contexts (about half unanswerable), kept as v2.0 data."""
    data = load_dataset(squad_v2_half_path)
    small = first_questions(data, 48)
    return Dataset([Article("sample", small.articles[0].paragraphs)], "v2.0")


def test_training_on_a_real_v2_slice_abstains_and_round_trips(v2_slice, tmp_path):
    mask = unanswerable_mask(v2_slice)
    assert 0 < mask.sum() < len(mask)
    reader = train(v2_slice, tiny_config(), dev=v2_slice, epochs=4, seed=0, device="cpu", progress=False,
                   log=lambda s: None)
    assert reader.abstains
    na = reader.no_answer
    assert na["chosen_on"].startswith("held-out") and 0.0 <= na["threshold"] <= 1.0
    assert any("na_threshold" in r for r in reader.training_log)
    texts, probs, scores = reader.predict_with_no_answer(v2_slice, progress=False)
    n_empty = sum(1 for t in texts.values() if t == "")
    assert n_empty > 0, "a reader trained on unanswerable questions must abstain on some"
    assert set(probs) == set(texts) == set(scores)
    assert all((p > na["threshold"]) == (texts[q] == "") for q, p in probs.items())
    assert reader.predict(v2_slice, progress=False) == texts
    # saved with its threshold; the loaded reader gives the same answers
    reader.save(tmp_path / "model")
    saved = json.loads((tmp_path / "model" / "no_answer.json").read_text())
    assert saved["threshold"] == na["threshold"] and saved["format_version"] == 1
    loaded = Reader.load(tmp_path / "model", device="cpu")
    assert loaded.abstains and loaded.na_threshold == na["threshold"]
    assert loaded.predict(v2_slice, progress=False) == texts
    # prediction files carry the no-answer probability and score (Hugging Face list format)
    write_predictions(tmp_path / "p.json", texts, na_probs=probs, na_scores=scores)
    pf = read_prediction_file(tmp_path / "p.json")
    assert pf.format == "hf-list" and pf.texts == texts and pf.na_probs == probs
    assert pf.with_threshold(na["threshold"]) == texts


def test_v1_training_has_no_no_answer_option(sample32, tmp_path):
    reader = train(sample32, tiny_config(), epochs=1, seed=0, device="cpu", progress=False, log=lambda s: None)
    assert not reader.abstains and reader.no_answer is None and reader.na_threshold is None
    texts, probs, scores = reader.predict_with_no_answer(sample32, progress=False)
    assert probs is None and scores is None and texts == reader.predict(sample32, progress=False)
    reader.save(tmp_path / "m")
    assert not (tmp_path / "m" / "no_answer.json").exists()
    assert not Reader.load(tmp_path / "m", device="cpu").abstains
