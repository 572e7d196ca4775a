"""An exponential moving average of a model's trained weights (Polyak averaging).

BiDAF (Seo et al. 2017, "Bidirectional attention flow for machine comprehension", §4) and QANet
(Yu et al. 2018) evaluate with a moving average of the weights instead of the last ones: the
average smooths the noise of the last optimizer steps. The update follows TensorFlow's
``tf.train.ExponentialMovingAverage`` with ``num_updates``: after optimizer step ``t`` (1, 2, …)

    avg <- d_t * avg + (1 - d_t) * w,   d_t = min(decay, (1 + t) / (10 + t)),

so the first steps are not averaged with the random initialisation for long.

>>> import torch
>>> layer = torch.nn.Linear(2, 1, bias=False)
>>> with torch.no_grad():
...     _ = layer.weight.fill_(1.0)
>>> avg = WeightAverage(layer, decay=0.5)
>>> with torch.no_grad():
...     _ = layer.weight.fill_(3.0)
>>> avg.update(step=100)           # d = min(0.5, 101 / 110) = 0.5: 0.5 * 1 + 0.5 * 3
>>> with avg.applied():
...     layer.weight.tolist()
[[2.0, 2.0]]
>>> layer.weight.tolist()          # the trained weights are back after the block
[[3.0, 3.0]]
"""

from __future__ import annotations

import contextlib
from typing import Iterator

import torch

from mrclens.errors import MRCLensError


class WeightAverage:
    """The moving average of every trainable parameter of ``model`` (frozen ones are skipped).

    Args:
        model: the network being trained (its parameters are read after each step).
        decay: the largest per-step decay ``d`` (``0 < d < 1``).

    Raises:
        MRCLensError: ``decay`` outside ``(0, 1)``.
    """

    def __init__(self, model: torch.nn.Module, decay: float):
        if not 0.0 < decay < 1.0:
            raise MRCLensError(f"ema_decay must lie strictly between 0 and 1, got {decay}")
        self.decay = float(decay)
        self._params = [p for p in model.parameters() if p.requires_grad]
        self._average = [p.detach().clone() for p in self._params]

    @torch.no_grad()
    def update(self, step: int) -> None:
        """Fold the current weights in, after optimizer step ``step`` (counted from 1)."""
        d = min(self.decay, (1.0 + step) / (10.0 + step))
        for a, p in zip(self._average, self._params):
            a.lerp_(p.detach(), 1.0 - d)

    @contextlib.contextmanager
    def applied(self) -> Iterator[None]:
        """Inside the block the model holds the averaged weights; the trained ones are restored after."""
        with torch.no_grad():
            saved = [p.detach().clone() for p in self._params]
            for p, a in zip(self._params, self._average):
                p.copy_(a)
        try:
            yield
        finally:
            with torch.no_grad():
                for p, k in zip(self._params, saved):
                    p.copy_(k)
