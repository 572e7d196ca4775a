"""Training, prediction, saving and loading of the reader on real SQuAD questions."""

from __future__ import annotations

import json
import time

import pytest
import torch

from mrclens.baseline_model import CheckpointError, Reader, ReaderConfig, train
from mrclens.errors import MRCLensError
from mrclens.metrics.official import evaluate_set as evaluate
from mrclens.squad import Article, Dataset, Paragraph, Question

from reader_helpers import tiny_config


@pytest.fixture(scope="module")
def overfit(sample32):
    """A tiny reader trained 40 epochs on 32 real questions, and its training time (seconds; not asserted:
    speed is a benchmark's business, never a unit test's)."""
    torch.set_num_threads(1)
    t0 = time.perf_counter()
    reader = train(sample32, tiny_config(), epochs=40, seed=0, device="cpu", progress=False)
    return reader, time.perf_counter() - t0


@pytest.mark.slow
def test_tiny_reader_overfits_32_real_questions(overfit, sample32):
    reader, seconds = overfit
    preds = reader.predict(sample32, progress=False)
    scores = evaluate(sample32, preds)
    assert scores["total"] == 32 and scores["missing"] == 0
    assert scores["f1"] >= 90.0, scores
    # every answer is an exact substring of its context
    ctx = {q.id: p.context for _, p, q in sample32.iter_questions()}
    assert all(text and text in ctx[qid] for qid, text in preds.items())
    log = reader.training_log
    assert [r["epoch"] for r in log] == list(range(1, 41)) and log[-1]["loss"] < log[0]["loss"] / 5
    assert set(log[0]) >= {"epoch", "seconds", "examples_per_s", "loss", "dev_em", "dev_f1"}


def test_save_load_gives_identical_predictions(overfit, sample32, tmp_path):
    reader, _ = overfit
    reader.save(tmp_path / "m")
    assert sorted(p.name for p in (tmp_path / "m").iterdir()) == [
        "config.json", "training.json", "training_log.json", "vocab.json", "weights.pt"]
    loaded = Reader.load(tmp_path / "m", device="cpu")
    assert loaded.config.to_dict() == reader.config.to_dict()
    assert loaded.training_log == reader.training_log and loaded.training == reader.training
    assert loaded.predict(sample32, progress=False, batch_size=5) == reader.predict(sample32, progress=False)


def test_mismatched_vocabulary_is_refused(overfit, tmp_path):
    reader, _ = overfit
    d = reader.save(tmp_path / "m")
    vocab = json.loads((d / "vocab.json").read_text())
    vocab["words"][0], vocab["words"][1] = vocab["words"][1], vocab["words"][0]  # same size, other ids
    (d / "vocab.json").write_text(json.dumps(vocab))
    with pytest.raises(CheckpointError, match="vocab.json does not match"):
        Reader.load(d, device="cpu")


def test_mismatched_config_is_refused(overfit, tmp_path):
    reader, _ = overfit
    d = reader.save(tmp_path / "m")
    cfg = json.loads((d / "config.json").read_text())
    cfg["exact_match_features"] = True
    (d / "config.json").write_text(json.dumps(cfg))
    with pytest.raises(CheckpointError, match="does not match the weights' architecture"):
        Reader.load(d, device="cpu")
    del cfg["hidden"]  # a config without an architecture field is refused, not filled with a default
    (d / "config.json").write_text(json.dumps(cfg))
    with pytest.raises(CheckpointError, match=r"lacks field\(s\): hidden"):
        Reader.load(d, device="cpu")
    (d / "weights.pt").unlink()
    with pytest.raises(CheckpointError, match="weights.pt is missing"):
        Reader.load(d, device="cpu")


def test_same_seed_same_predictions_other_seed_other_weights(sample32):
    runs = [train(sample32, tiny_config(), epochs=2, seed=s, device="cpu", progress=False) for s in (7, 7, 8)]
    preds = [r.predict(sample32, progress=False) for r in runs]
    assert preds[0] == preds[1]
    w = [r.model.start_out.weight.detach() for r in runs]
    assert torch.equal(w[0], w[1]) and not torch.equal(w[0], w[2])


def test_dev_keeps_best_evaluation_and_exact_match_features_are_recorded(sample32, tmp_path):
    cfg = tiny_config(exact_match_features=True)
    reader = train(sample32, cfg, dev=sample32, epochs=3, seed=0, device="cpu", progress=False)
    log = reader.training_log
    assert [r["event"] for r in log] == ["epoch"] * 3
    best = max(log, key=lambda r: r["dev_f1"])
    assert best["best"] and all(0 <= r["dev_f1"] <= 100 for r in log)
    # the kept weights are the best evaluation's: predicting again reproduces its F1
    assert evaluate(sample32, reader.predict(sample32, progress=False))["f1"] == pytest.approx(best["dev_f1"], abs=0.01)
    assert reader.config.to_dict()["exact_match_features"] is True
    assert Reader.load(reader.save(tmp_path / "em"), device="cpu").config.exact_match_features is True


def test_answer_not_on_token_boundaries_and_unanswerable_questions():
    ctx = "The Normans conquered England in 1066. They spoke Norman French."
    qs = [Question("a", "When did the Normans conquer England?", []), Question("b", "Which language?", [])]
    from mrclens.squad import Answer

    qs[0].answers = [Answer("066", ctx.index("066"))]  # inside the token "1066"
    ds = Dataset([Article("t", [Paragraph(ctx, qs)])])
    reader = train(ds, tiny_config(), epochs=60, seed=0, device="cpu", progress=False)
    # "b" has no answer and is not trained on; "a" learns the covering token "1066"
    assert reader.predict(ds, progress=False)["a"] == "1066"


def test_profiles_and_errors():
    assert ReaderConfig.profile("paper").exact_match_features is False
    assert ReaderConfig.profile("paper-em").exact_match_features is True
    quick = ReaderConfig.profile("quick")
    assert quick.max_steps is not None and quick.max_minutes is None and quick.hidden < ReaderConfig().hidden
    paper = ReaderConfig.profile("paper")
    assert (paper.hidden, paper.char_filters, paper.char_width, paper.dropout, paper.lr, paper.lr_decay,
            paper.lr_decay_steps, paper.max_answer_tokens) == (100, 100, 5, 0.2, 1e-3, 0.999, 100, 17)
    assert ReaderConfig.from_dict(json.loads(json.dumps(paper.to_dict()))) == paper
    with pytest.raises(MRCLensError, match="unknown reader profile"):
        ReaderConfig.profile("huge")
    with pytest.raises(MRCLensError, match="no training question"):
        train(Dataset([Article("t", [Paragraph("Just text.", [Question("x", "What?", [])])])]), tiny_config(),
              epochs=1, device="cpu", progress=False)
    if not torch.cuda.is_available():
        with pytest.raises(MRCLensError, match="no CUDA GPU"):
            train(Dataset([]), tiny_config(), device="cuda", progress=False)


def test_prediction_batches_respect_the_question_and_token_caps(sample_path):
    import numpy as np

    from mrclens.baseline_model.reader import length_batches
    from mrclens.baseline_model.tokenize import tokenize_dataset
    from mrclens.formats import load_dataset

    td = tokenize_dataset(load_dataset(sample_path))  # the bundled sample: 40 real SQuAD v1.1 articles
    lengths = np.array([len(td.ctx_types[p]) for p in td.q_para])
    batches = list(length_batches(lengths, 256, max_tokens=64 * 512))
    flat = np.concatenate(batches)
    assert sorted(flat.tolist()) == list(range(len(lengths)))  # every question once
    assert (np.diff(lengths[flat]) >= 0).all()  # ascending length
    sizes = [len(b) for b in batches]
    assert max(sizes) == 256 and min(sizes) >= 1
    assert all(len(b) == 1 or len(b) * lengths[b].max() <= 64 * 512 for b in batches)
    # short contexts fill a batch of 256; the longest ones get smaller batches than 64
    assert len(batches[-1]) < 64 and lengths[batches[-1]].max() == lengths.max() > 512
    assert [len(b) for b in length_batches(lengths, 64)] == [64] * (len(lengths) // 64) + (
        [len(lengths) % 64] if len(lengths) % 64 else [])
