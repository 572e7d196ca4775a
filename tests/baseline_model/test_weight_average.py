"""The moving average of the reader's weights (``ReaderConfig.ema_decay``, issue 21 part 3).

Trainings are a few steps of a tiny reader on 32 real SQuAD v1.1 questions of the bundled sample.
"""

from __future__ import annotations

import pytest
import torch

from mrclens.baseline_model import ReaderConfig, train
from mrclens.baseline_model.averaging import WeightAverage
from mrclens.errors import MRCLensError

from reader_helpers import tiny_config


def _train(data, **kw):
    config = tiny_config(dropout=0.2, cpu_threads=1, max_steps=kw.pop("max_steps", 4),
                         ema_decay=kw.pop("ema_decay", None), lr=kw.pop("lr", 0.01))
    return train(data, config, seed=3, device="cpu", progress=False, log=lambda line: None, **kw)


def _trained(reader) -> dict[str, torch.Tensor]:
    return {n: p.detach().clone() for n, p in reader.model.named_parameters() if p.requires_grad}


def test_kept_weights_are_the_moving_average_of_the_trajectory(sample32):
    # the trajectory, step by step: training is deterministic, so k steps are the first k steps of 4
    steps = [_trained(_train(sample32, max_steps=k)) for k in (1, 2, 3, 4)]
    init = _trained(_train(sample32, max_steps=1, lr=0.0))  # Adam with lr 0 leaves the initial weights
    expected = dict(init)
    for t, w in enumerate(steps, start=1):
        d = min(0.5, (1 + t) / (10 + t))
        expected = {n: d * expected[n] + (1 - d) * w[n] for n in expected}
    averaged = _trained(_train(sample32, max_steps=4, ema_decay=0.5))  # no dev set: the average is kept
    assert not all(torch.equal(averaged[n], steps[-1][n]) for n in averaged)
    for n in expected:
        torch.testing.assert_close(averaged[n], expected[n], rtol=1e-5, atol=1e-6)


def test_the_better_of_average_and_current_weights_is_selected(sample32):
    reader = _train(sample32, max_steps=6, ema_decay=0.9, dev=sample32, eval_at_steps=[2, 4])
    log = reader.training_log
    assert [r["step"] for r in log] == [2, 4, 6]
    for r in log:
        assert r["dev_f1"] == max(r["dev_f1_current"], r["dev_f1_average"])
    # the kept weights score the best logged F1 on the same dev data
    from mrclens.baseline_model.train import heldout_scores
    from mrclens.baseline_model.reader import encode
    from mrclens.baseline_model.tokenize import tokenize_dataset

    scores, _ = heldout_scores(reader, sample32, encode(tokenize_dataset(sample32), reader.vocab, reader.config))
    assert round(scores["f1"], 2) == max(r["dev_f1"] for r in log)


def test_training_itself_is_unchanged_by_the_average(sample32):
    # the current weights follow the same path with and without the average: same dev F1 at every mark
    plain = _train(sample32, max_steps=6, dev=sample32, eval_at_steps=[2, 4])
    averaged = _train(sample32, max_steps=6, ema_decay=0.9, dev=sample32, eval_at_steps=[2, 4])
    assert [r["dev_f1"] for r in plain.training_log] == [r["dev_f1_current"] for r in averaged.training_log]
    assert "dev_f1_average" not in plain.training_log[0]


def test_bad_decay_is_a_clear_error(sample32):
    with pytest.raises(MRCLensError, match="ema_decay"):
        _train(sample32, max_steps=1, ema_decay=1.5)


def test_old_configs_without_the_field_load():
    d = ReaderConfig().to_dict()
    del d["ema_decay"]
    assert ReaderConfig.from_dict(d).ema_decay is None
    assert WeightAverage(torch.nn.Linear(2, 2), 0.999).decay == 0.999
