"""The time left in the whole training run, beside the epoch's (issue 57, item 7): the estimate's arithmetic
(:func:`mrclens.baseline_model.time_left.run_seconds_left`) and its place in the progress line. No timing: the
estimate is checked on given rates, and the progress line only for being there."""

from __future__ import annotations

import importlib
import logging
import re

import pytest

from mrclens.baseline_model import train
from mrclens.baseline_model.time_left import format_run_left, run_seconds_left
from mrclens.progress import RateMeter

from reader_helpers import tiny_config


def test_every_epoch_left_counts_with_its_evaluation():
    # epoch 2 of 4 (0-based 1), 300 of 1,000 questions done, 20 q/s, a dev evaluation takes 12 s:
    # 700 + 2 × 1,000 questions = 135 s of training, and the evaluations after epochs 2, 3 and 4
    assert run_seconds_left(20.0, 300, 1000, 1, 4, eval_seconds=12.0) == pytest.approx(2700 / 20 + 3 * 12)
    # the epoch's own share is only 700 / 20 = 35 s: the run's is larger by the epochs to come
    assert run_seconds_left(20.0, 300, 1000, 3, 4) == pytest.approx(700 / 20)
    # the last batch of the last epoch: only its evaluation is left
    assert run_seconds_left(20.0, 1000, 1000, 3, 4, eval_seconds=12.0) == pytest.approx(12.0)


def test_the_budgets_cap_the_run():
    # the step budget allows 1,500 more questions: 75 s, ending in epoch 3 (after epoch 2's evaluation),
    # where the budget's own evaluation follows
    assert run_seconds_left(20.0, 300, 1000, 1, 4, eval_seconds=12.0, questions_allowed=1500) == \
        pytest.approx(1500 / 20 + 2 * 12)
    # a budget that ends exactly at an epoch's end adds no evaluation of its own
    assert run_seconds_left(20.0, 300, 1000, 1, 4, eval_seconds=12.0, questions_allowed=700) == \
        pytest.approx(700 / 20 + 12)
    # the wall-clock cap (training time only) leaves 40 s: 800 questions, mid epoch 3
    assert run_seconds_left(20.0, 300, 1000, 1, 4, eval_seconds=12.0, seconds_allowed=40.0) == \
        pytest.approx(40 + 2 * 12)
    # both: the tighter one wins; a cap already spent leaves only the closing evaluation
    assert run_seconds_left(20.0, 300, 1000, 1, 4, questions_allowed=1500, seconds_allowed=40.0) == pytest.approx(40)
    assert run_seconds_left(20.0, 300, 1000, 1, 4, eval_seconds=12.0, seconds_allowed=-3.0) == pytest.approx(12)


def test_no_rate_no_estimate_and_the_words():
    assert run_seconds_left(None, 0, 1000, 0, 4) is None
    assert run_seconds_left(0.0, 10, 1000, 0, 4) is None
    assert [format_run_left(s) for s in (None, 44.6, 185.0, 7640.0)] == \
        [None, "45 s left", "3 min 05 s left", "2 h 07 min left"]


def test_the_progress_line_gives_the_runs_time_left_beside_the_epochs(sample32, monkeypatch, caplog):
    """A tiny reader trained for 2 epochs with a progress line at every step: the line carries ``all epochs …
    left`` once a rate is measured (the thresholds that hold the estimate back at the start are set to zero, so
    that no timing decides whether it shows)."""
    train_module = importlib.import_module("mrclens.baseline_model.train")  # the package's `train` is the function
    monkeypatch.setenv("MRCLENS_PROGRESS_INTERVAL", "0")
    monkeypatch.setattr(train_module, "ETA_MIN_SECONDS", 0.0)
    monkeypatch.setattr(train_module, "RateMeter", lambda **kw: RateMeter(min_seconds=0.0, **kw))
    with caplog.at_level(logging.INFO, logger="mrclens.progress"):
        train(sample32, tiny_config(cpu_threads=1), epochs=2, seed=1, device="cpu", progress=True, log=lambda s: None)
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("epoch ")]
    assert any(line.startswith("epoch 2/2") for line in lines)
    left = [m for line in lines for m in re.findall(r"all epochs (.+?) left", line)]
    assert left, lines
    assert all(re.fullmatch(r"\d+ s|\d+ min \d\d s|\d+ h \d\d min", m) for m in left), left
