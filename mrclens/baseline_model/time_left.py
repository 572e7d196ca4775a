"""The time left in a whole training run, shown beside the epoch's in the reader's training progress (issue 57).

The progress bar of an epoch (:mod:`mrclens.progress`) gives the time left in that epoch; the training run
(:mod:`mrclens.baseline_model.train`) adds, in the same line, the time left until the run ends: every epoch
still to come and its dev evaluation, capped by the step budget and the wall-clock cap.
"""

from __future__ import annotations

import math

from mrclens.progress import format_duration


def run_seconds_left(rate: float | None, done: int, per_epoch: int, epoch: int, epochs: int, *,
                     eval_seconds: float = 0.0, questions_allowed: float | None = None,
                     seconds_allowed: float | None = None) -> float | None:
    """Seconds until the whole training run ends (every epoch left, not only this one), at ``rate``.

    The questions left (the rest of epoch ``epoch``, 0-based, and ``per_epoch`` for each later epoch; fewer when
    the step budget allows fewer) take ``questions / rate`` seconds of training, at most ``seconds_allowed`` (the
    wall-clock cap counts training time only); each dev evaluation still to come at an epoch's end, and the one
    where a budget stops the run mid-epoch, adds ``eval_seconds``. Evaluations at ``eval_at_minutes`` /
    ``eval_at_steps`` marks are not counted.

    Args:
        rate: training questions per second (over the recent training time, evaluations excluded).
        done: questions of the current epoch done.
        per_epoch: questions in one epoch.
        epoch: the current epoch (0-based); ``epochs``: the epochs of the run.
        eval_seconds: seconds one dev evaluation takes (the last one measured; 0 without dev or before the first).
        questions_allowed: questions the step budget still allows (``None``: no step budget).
        seconds_allowed: seconds of training the wall-clock cap still allows (``None``: no cap).

    Returns:
        seconds, or ``None`` without a rate (none measured yet, or nothing moving).

    >>> run_seconds_left(50.0, 1000, 5000, 0, 3)  # 4,000 + 2 × 5,000 questions at 50 q/s
    280.0
    >>> run_seconds_left(50.0, 1000, 5000, 0, 3, eval_seconds=10.0, questions_allowed=6500.0)  # ends mid-epoch 2
    150.0
    """
    if not rate or rate <= 0 or per_epoch <= 0:
        return None
    position = epoch * per_epoch + done
    end = float(epochs * per_epoch)
    if questions_allowed is not None:
        end = min(end, position + max(0.0, questions_allowed))
    seconds = (end - position) / rate
    if seconds_allowed is not None and seconds_allowed < seconds:
        seconds = max(0.0, seconds_allowed)
        end = position + seconds * rate
    epoch_ends = min(epochs, math.floor(end / per_epoch)) - epoch  # the epoch-end evaluations still to come
    budget_stop = end < epochs * per_epoch and end % per_epoch != 0
    return seconds + (max(0, epoch_ends) + budget_stop) * eval_seconds


def format_run_left(seconds: float | None) -> str | None:
    """The time left in the whole run as progress shows it beside the epoch's (:func:`run_seconds_left`):
    ``"2 h 07 min left"`` (:func:`mrclens.progress.format_duration`); ``None`` without an estimate.

    >>> format_run_left(7640.0), format_run_left(None)
    ('2 h 07 min left', None)
    """
    return None if seconds is None else f"{format_duration(seconds)} left"
