"""The learning-rate schedules of the reader (``ReaderConfig.lr_schedule``, issue 21 part 3).

Trainings are a few steps of a tiny reader on 32 real SQuAD v1.1 questions of the bundled sample.
"""

from __future__ import annotations

import pytest
import torch

from mrclens.baseline_model import ReaderConfig, train
from mrclens.baseline_model.train import lr_factor
from mrclens.errors import MRCLensError

from reader_helpers import tiny_config


def _weights(data, **over) -> dict[str, torch.Tensor]:
    config = tiny_config(cpu_threads=1, **over)
    reader = train(data, config, seed=5, device="cpu", progress=False, log=lambda line: None)
    return {n: p.detach().clone() for n, p in reader.model.named_parameters() if p.requires_grad}


def test_step_schedule_is_the_papers_staircase():
    f = lr_factor(ReaderConfig(), max_steps=None, epochs=10, n_questions=1000)
    assert [f(t) for t in (0, 99, 100, 250)] == [1.0, 1.0, 0.999, 0.999 ** 2]


def test_linear_schedule_decays_to_zero_over_the_step_budget():
    f = lr_factor(ReaderConfig(lr_schedule="linear"), max_steps=2600, epochs=10, n_questions=83_535)
    assert f(0) == 1.0 and f(1300) == 0.5
    assert f(2599) == pytest.approx(1 / 2600) and f(2600) == 0.0 and f(5000) == 0.0
    # without a step budget the horizon is the epochs' batches: 3 epochs of ceil(100 / 32) = 4 batches
    g = lr_factor(ReaderConfig(lr_schedule="linear", batch_size=32), max_steps=None, epochs=3, n_questions=100)
    assert g(6) == 0.5 and g(11) == pytest.approx(1 / 12)


def test_the_schedule_reaches_the_optimizer(sample32):
    # over a 2-step budget the linear schedule's factors are 1, 1/2: the same updates as a staircase
    # that halves the rate after every step, and not those of the paper's staircase (1, 1)
    linear = _weights(sample32, lr_schedule="linear", max_steps=2)
    halving = _weights(sample32, lr_decay=0.5, lr_decay_steps=1, max_steps=2)
    paper = _weights(sample32, max_steps=2)
    for name in linear:
        torch.testing.assert_close(linear[name], halving[name], rtol=0, atol=0)
    assert not all(torch.equal(linear[n], paper[n]) for n in linear)


def test_unknown_schedule_is_a_clear_error_before_any_work(sample32):
    with pytest.raises(MRCLensError, match="lr_schedule must be one of step, linear, got 'cosine'"):
        _weights(sample32, lr_schedule="cosine", max_steps=1)


def test_old_configs_without_the_field_load_with_the_papers_schedule():
    d = ReaderConfig().to_dict()
    del d["lr_schedule"]
    assert ReaderConfig.from_dict(d).lr_schedule == "step"
    assert ReaderConfig.profile("paper-budget").lr_schedule == "linear"
