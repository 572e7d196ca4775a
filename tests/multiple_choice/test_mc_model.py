"""The multiple-choice baseline (``mrclens.multiple_choice.model`` / ``.train``) on real CODAH rows.

Data: CODAH (Chen et al. 2019), the official ``shared/data/codah/cv_split/fold_0`` files; skipped when
absent. Trainings here are a tiny model (hidden 16, 2 epochs) on the first 200 questions of fold_0
train with the first 100 of fold_0 dev, on 2 CPU threads as the default config (2 threads need the
deterministic algorithms, so this is what the determinism tests must cover). A full-size fold_0 run is
measured outside the tests (too slow for one): see the module docstring of ``mrclens.multiple_choice.train``.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch

from mrclens.baseline_model.config import ReaderConfig
from mrclens.errors import CheckpointError, MRCLensError
from mrclens.formats.multiple_choice import MCDataset, MCQuestion, read_folds
from mrclens.multiple_choice.model import MCReaderConfig
from mrclens.multiple_choice.train import MCReader, encode_datasets, make_batch, pair_tokens, train_mc



def tiny(**overrides) -> MCReaderConfig:
    values = dict(hidden=16, epochs=2, batch_size=16, dropout=0.2, cpu_threads=2)
    values.update(overrides)
    return MCReaderConfig(**values)


@pytest.fixture(scope="module")
def fold0(codah_dir):
    fold = read_folds(codah_dir / "cv_split", only=[0])[0]
    return (MCDataset(fold.train.questions[:200], fold.train.source, fold.train.format),
            MCDataset(fold.dev.questions[:100], fold.dev.source, fold.dev.format),
            MCDataset(fold.test.questions[:100], fold.test.source, fold.test.format))


def _train(data, seed=0, config=None, **kw):
    train, dev, _ = data
    return train_mc(train, config or tiny(), dev=dev, seed=seed, device="cpu", log=lambda line: None, **kw)


@pytest.fixture(scope="module")
def first_run(fold0):
    return _train(fold0)


def _weights(reader) -> dict[str, torch.Tensor]:
    return {k: v.detach().clone() for k, v in reader.model.state_dict().items()}


def _same(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def _untimed(log):
    return [{k: v for k, v in r.items() if k not in ("seconds", "epoch_seconds", "examples_per_s", "eval_seconds",
                                                     "peak_rss_mb")} for r in log]


# ---------------------------------------------------------------------------------------- determinism
def test_same_seed_gives_bitwise_identical_weights_and_predictions(first_run, fold0):
    before = torch.get_num_threads()
    again = _train(fold0)
    assert torch.get_num_threads() == before  # the fixed thread count is restored after training
    assert _same(_weights(first_run), _weights(again))
    test = fold0[2]
    assert first_run.predict(test) == again.predict(test)
    assert first_run.probabilities(test) == again.probabilities(test)
    assert _untimed(first_run.training_log) == _untimed(again.training_log)
    assert first_run.training == again.training


def test_a_different_seed_gives_different_weights(first_run, fold0):
    other = _train(fold0, seed=1)
    assert not _same(_weights(first_run), _weights(other))


# ---------------------------------------------------------------------------------------- predictions
def test_predictions_are_valid_labels_for_every_question(first_run, fold0):
    test = fold0[2]
    pred = first_run.predict(test)
    assert list(pred) == test.ids()
    assert all(isinstance(p, int) and 0 <= p < len(q.endings) for q, p in zip(test.questions, pred.values()))


def test_probabilities_sum_to_one_and_predictions_are_their_argmax(first_run, fold0):
    test = fold0[2]
    probs = first_run.probabilities(test)
    pred = first_run.predict(test)
    assert list(probs) == test.ids()
    for q in test.questions:
        p = probs[q.id]
        assert len(p) == len(q.endings) and all(0.0 <= x <= 1.0 for x in p)
        assert math.isclose(sum(p), 1.0, abs_tol=1e-12)
        assert pred[q.id] == int(np.argmax(p))  # argmax: the first index on ties
    assert len(set(pred.values())) > 1  # not one constant answer


def test_kept_weights_are_the_best_dev_epoch(first_run, fold0):
    log = first_run.training_log
    assert [r["epoch"] for r in log] == [1, 2]
    for r in log:
        assert {"epoch", "seconds", "examples_per_s", "loss", "dev_accuracy", "best"} <= set(r)
        assert r["loss"] > 0 and 0 <= r["dev_accuracy"] <= 100
    accs = [r["dev_accuracy"] for r in log]
    first_best = accs.index(max(accs))
    assert [r["best"] for r in log] == [i == first_best for i in range(len(log))]
    assert round(100 * first_run.accuracy(fold0[1]), 2) == max(accs)
    rec = first_run.training
    assert (rec.stopped_by, rec.epochs, rec.cpu_threads, rec.device, rec.reproducible) == ("epochs", 2, 2, "cpu", True)
    assert rec.steps == 2 * math.ceil(200 / 16)


def test_fewer_endings_than_the_batch_widest_are_masked(first_run, fold0):
    # real CODAH rows with their endings cut to 2 and 3 (the gold kept), next to 4-ending rows
    qs = []
    for i, q in enumerate(fold0[2].questions[:12]):
        k = (2, 3, 4)[i % 3]
        keep = [q.label] + [j for j in range(len(q.endings)) if j != q.label][: k - 1]
        keep.sort()
        qs.append(MCQuestion(q.id, q.prompt, tuple(q.endings[j] for j in keep), keep.index(q.label), q.categories))
    mixed = MCDataset(qs)
    probs = first_run.probabilities(mixed)
    for q in qs:
        assert len(probs[q.id]) == len(q.endings) and math.isclose(sum(probs[q.id]), 1.0, abs_tol=1e-12)
    # a question's probabilities are those of its own endings: alone in its batch it gets the same choice
    alone = first_run.probabilities(MCDataset(qs[:1]))
    assert np.allclose(alone[qs[0].id], probs[qs[0].id], atol=1e-6)
    reader = _train((mixed, mixed, mixed), config=tiny(epochs=1))
    assert math.isfinite(reader.training_log[0]["loss"])


def test_an_empty_prompt_is_scored_on_the_ending_alone(first_run, fold0):
    q = fold0[2].questions[0]
    only = MCDataset([MCQuestion(q.id, "", q.endings, q.label, q.categories)])
    assert math.isclose(sum(first_run.probabilities(only)[q.id]), 1.0, abs_tol=1e-12)


# ---------------------------------------------------------------------------------------- save / load
def test_save_load_round_trip_gives_identical_predictions(first_run, fold0, tmp_path):
    first_run.save(tmp_path / "mc")
    assert sorted(p.name for p in (tmp_path / "mc").iterdir()) == [
        "config.json", "training.json", "training_log.json", "vocab.json", "weights.pt"]
    cfg = json.loads((tmp_path / "mc" / "config.json").read_text("utf-8"))
    assert cfg["task"] == "multiple_choice" and cfg["exact_match_feature"] is False and cfg["hidden"] == 16
    loaded = MCReader.load(tmp_path / "mc", device="cpu")
    test = fold0[2]
    assert loaded.predict(test) == first_run.predict(test)
    assert loaded.probabilities(test) == first_run.probabilities(test)
    assert _same(_weights(loaded), _weights(first_run))
    assert loaded.config == first_run.config and loaded.training_log == first_run.training_log
    assert loaded.training == first_run.training


def test_loading_what_is_not_a_multiple_choice_reader_raises_checkpoint_error(first_run, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CheckpointError, match="config.json is missing"):
        MCReader.load(empty)
    span = tmp_path / "span"
    span.mkdir()
    (span / "config.json").write_text(json.dumps(ReaderConfig.profile("quick").to_dict()), "utf-8")
    (span / "vocab.json").write_text('{"words": [], "chars": []}', "utf-8")
    (span / "weights.pt").write_bytes(b"")
    with pytest.raises(CheckpointError, match="not a multiple-choice reader.*span-extraction"):
        MCReader.load(span)
    (span / "config.json").write_text("{not json", "utf-8")
    with pytest.raises(CheckpointError, match="config.json"):
        MCReader.load(span)


@pytest.mark.parametrize("damage", ["weights.pt", "vocab.json", "missing-vocab", "config-field"])
def test_a_damaged_checkpoint_raises_checkpoint_error_naming_the_file(first_run, tmp_path, damage):
    d = first_run.save(tmp_path / "mc")
    if damage == "weights.pt":
        (d / "weights.pt").write_bytes((d / "weights.pt").read_bytes()[:100])
        expected = "weights.pt"
    elif damage == "vocab.json":
        (d / "vocab.json").write_text('{"words": ["zzz"], "chars": []}', "utf-8")
        expected = "vocab.json does not match"
    elif damage == "missing-vocab":
        (d / "vocab.json").unlink()
        expected = "vocab.json is missing"
    else:
        cfg = json.loads((d / "config.json").read_text("utf-8"))
        cfg["hidden"] = 32
        (d / "config.json").write_text(json.dumps(cfg), "utf-8")
        expected = "architecture"
    with pytest.raises(CheckpointError, match=expected):
        MCReader.load(d, device="cpu")


# ---------------------------------------------------------------------------------------- pieces
def test_empty_training_set_raises():
    with pytest.raises(MRCLensError, match="no question to train on"):
        train_mc(MCDataset([]), tiny(), device="cpu")


def test_config_round_trip_and_validation():
    cfg = MCReaderConfig(hidden=32, exact_match_feature=True)
    assert MCReaderConfig.from_dict(cfg.to_dict()) == cfg
    assert MCReaderConfig().cpu_threads == 2 and MCReaderConfig().exact_match_feature is False
    with pytest.raises(MRCLensError, match="unknown field"):
        MCReaderConfig.from_dict({**cfg.to_dict(), "task": "multiple_choice"})
    with pytest.raises(MRCLensError, match="lacks field"):
        MCReaderConfig.from_dict({k: v for k, v in cfg.to_dict().items() if k != "hidden"})
    with pytest.raises(MRCLensError, match="dropout"):
        MCReaderConfig(dropout=1.5)


def test_pair_truncation_keeps_the_ending_and_the_prompt_end():
    p, e = np.arange(10, 20), np.arange(100, 105)
    pair, start = pair_tokens(p, e, 8)
    assert pair.tolist() == [17, 18, 19, 100, 101, 102, 103, 104] and start == 3
    pair, start = pair_tokens(p, e, 3)
    assert pair.tolist() == [100, 101, 102] and start == 0
    pair, start = pair_tokens(p, e, 64)
    assert pair.tolist() == p.tolist() + e.tolist() and start == 10


def test_exact_match_feature_marks_words_shared_by_prompt_and_ending(fold0):
    # CODAH fold_0 test, first row: the endings repeat prompt words ("The" ... ) in some cases
    q = fold0[2].questions[0]
    config = tiny(exact_match_feature=True)
    from mrclens.baseline_model.vectors import build_vocab
    from mrclens.baseline_model.tokenize import tokenize_texts

    ds = MCDataset([q])
    vocab, _ = build_vocab(["the"], config.vectors)
    data = encode_datasets([ds], vocab, config)[0]
    batch = make_batch(data, np.array([0]), config, torch.device("cpu"))
    p_toks = tokenize_texts([q.prompt])[0][0]
    for k, ending in enumerate(q.endings):
        e_toks = tokenize_texts([ending])[0][0]
        n = len(p_toks) + len(e_toks)
        expected = ([float(t.lower() in {x.lower() for x in e_toks}) for t in p_toks]
                    + [float(t.lower() in {x.lower() for x in p_toks}) for t in e_toks])
        assert batch["exact"][k, :n].tolist() == expected
        assert batch["segment"][k, :n].tolist() == [0.0] * len(p_toks) + [1.0] * len(e_toks)
        assert int(batch["lengths"][k]) == n
    assert "exact" not in make_batch(data, np.array([0]), tiny(), torch.device("cpu"))


def test_options_character_cnn_and_exact_match_train_save_and_load(fold0, tmp_path):
    reader = _train(fold0, config=tiny(epochs=1, char_filters=8, exact_match_feature=True))
    assert {"char_emb.weight", "char_cnn.weight"} <= set(reader.model.state_dict())
    loaded = MCReader.load(reader.save(tmp_path / "mc"), device="cpu")
    assert loaded.config.char_filters == 8 and loaded.config.exact_match_feature is True
    assert loaded.probabilities(fold0[2]) == reader.probabilities(fold0[2])
