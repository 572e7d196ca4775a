"""One input's value of one row of ``mrclens compare``, with its interval and, when the input can
be resampled, its bootstrap replicates (:class:`Estimate`): a model-free figure
(:func:`model_free_estimate`), the reader's F1 on the original set (:func:`reader_estimate`) and an
ablation's figures (:func:`ablation_estimate`).

Every input's questions are resampled on their own, ``n_resamples`` times, with the generator the
caller passes (:func:`mrclens.metrics.bootstrap.stable_rng` ``(seed, "<row key>#<input
position>")``). A **share** is resampled from its count and n (binomial); a **mean** from its
per-question values, else it gets the normal approximation from its SD; an audit's **F1 and
drops** from ``question-scores.json``, each ablation's questions paired with its baseline set as
:mod:`mrclens.scoring.drops` pairs them (the excess drop's with its control, using the perturbation
manifest), when the point estimate reproduces ``results.json``'s figure (to 1e-3) and the audit has
one draw and one reader; otherwise ``results.json``'s own interval.

Examples:
    >>> import numpy as np
    >>> from mrclens.compare.sources import source_from_stats
    >>> src = source_from_stats({"similarity": {"answer_in_most_similar_sentence_pct": 80.0, "n": 1000}}, "A")
    >>> e = model_free_estimate(src, "similarity.answer_in_most_similar_sentence_pct", "share", "similarity.n",
    ...                         np.random.default_rng(0), 200, 0.95)
    >>> e.value, e.n, e.samples.shape, e.ci_low < 80.0 < e.ci_high
    (80.0, 1000, (200,), True)
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from mrclens.artifacts.results import AblationResult
from mrclens.compare.hooks import source_figure
from mrclens.compare.sources import TOLERANCE, Source
from mrclens.metrics import estimate as normal
from mrclens.metrics.bootstrap import percentile_interval, resample_counts
from mrclens.scoring.against_reference import relative_figure
from mrclens.scoring.drops import excess_ids
from mrclens.scoring.sets import SetScores
from mrclens.scoring.model_free import standard_error

log = logging.getLogger(__name__)


@dataclass
class Estimate:
    """One input's value of one row: the value, its interval and, when it can be resampled,
    the bootstrap replicates of the value (shape ``(n_resamples,)``)."""

    value: float
    ci_low: float | None
    ci_high: float | None
    n: int | None
    samples: np.ndarray | None = None


def _boot(stat: Callable[[np.ndarray], np.ndarray], n: int, rng: np.random.Generator, n_resamples: int) -> np.ndarray:
    """``n_resamples`` values of ``stat(counts)`` over resamples of ``n`` items (counts ``(chunk, n)``)."""
    return np.concatenate([stat(counts) for counts in resample_counts(rng, n, n_resamples)])


def _from_samples(value: float, samples: np.ndarray, n: int, confidence: float) -> Estimate:
    low, high = percentile_interval(samples, confidence)
    return Estimate(value, low, high, n, samples)


def _normal(value: float, se: float, n: int | None, confidence: float) -> Estimate:
    low, high = normal.Estimate(value, se).interval(confidence)
    return Estimate(value, low, high, n, None)


def model_free_estimate(src: Source, path: str, kind: str, n_path: str | None, rng: np.random.Generator,
                        n_resamples: int, confidence: float) -> Estimate | None:
    """One input's estimate of a model-free row (rules in the module docstring); ``None`` when it lacks the figure."""
    fig = source_figure(src, path, kind, n_path)
    if fig is None or fig.value is None or not fig.n:
        return None
    values = src.values.get(path)
    if kind == "share" or (kind == "accuracy" and (values is None or values.size != fig.n)):
        p = min(max(fig.value / 100.0, 0.0), 1.0)
        samples = rng.binomial(fig.n, p, size=n_resamples) * (100.0 / fig.n)
        return _from_samples(fig.value, samples, fig.n, confidence)
    if values is not None and values.size == fig.n:
        samples = _boot(lambda c: c @ values / values.size, values.size, rng, n_resamples)
        return _from_samples(fig.value, samples, fig.n, confidence)
    if fig.std is None:
        return Estimate(fig.value, None, None, fig.n)
    return _normal(fig.value, standard_error(fig), fig.n, confidence)


def _scores(src: Source, set_name: str):
    """The per-question scores of a set as :class:`~mrclens.scoring.sets.SetScores` (``None`` when absent)."""
    s = (src.scores or {}).get(set_name)
    if s is None:
        return None
    return SetScores(set_name, list(s.ids), np.asarray(s.exact_match, dtype=np.float64), np.asarray(s.f1, dtype=np.float64))


def _resamplable(src: Source) -> bool:
    """Whether an audit's figures are bootstrapped from its question scores (one draw, one reader, scores there)."""
    return src.scores is not None and (src.info.draws or 1) == 1 and (src.info.readers or 1) == 1


def reader_estimate(src: Source, rng: np.random.Generator, n_resamples: int, confidence: float) -> Estimate | None:
    """The reader's F1 on the original set (percent), bootstrapped from its question scores."""
    orig = src.results.sets.get("original") if src.results is not None else None
    if orig is None or orig.f1 is None:
        return None
    s = _scores(src, "original")
    if s is None or not s.n or abs(100.0 * float(s.f1.mean()) - orig.f1) > TOLERANCE:
        return Estimate(orig.f1, None, None, orig.n)
    f1 = 100.0 * s.f1
    return _from_samples(orig.f1, _boot(lambda c: c @ f1 / f1.size, f1.size, rng, n_resamples), s.n, confidence)


def _results_interval(a: AblationResult, figure: str) -> tuple[float | None, float | None, float | None, int | None]:
    if figure == "f1_drop":
        return a.f1_drop, a.ci_low, a.ci_high, a.n
    if figure == "relative_drop":
        return a.relative_drop, a.relative_ci_low, a.relative_ci_high, a.n
    if figure == "excess_drop":
        return a.excess_drop, a.excess_ci_low, a.excess_ci_high, a.excess_n
    rel = relative_figure(a)
    if rel is None or rel.figure != "relative_excess_drop":
        return None, None, None, None
    return rel.value, rel.ci_low, rel.ci_high, rel.n


def _paired_arrays(src: Source, a: AblationResult, figure: str) -> tuple[np.ndarray, np.ndarray] | None:
    """The paired per-question F1 arrays (0–1) a figure is computed from: (baseline, ablation) for
    drops, (control, ablation) for excess drops; ``None`` when the scores are not there."""
    base, pert = _scores(src, a.baseline_set), _scores(src, a.id)
    if base is None or pert is None:
        return None
    if figure in ("f1_drop", "relative_drop"):
        in_base = set(base.ids)
        ids = [q for q in pert.ids if q in in_base]
        return base.f1[base.positions(ids)], pert.f1[pert.positions(ids)]
    control = _scores(src, a.control) if a.control else None
    if control is None:
        return None
    ids = excess_ids(src.infos.get(a.id) or a, base, pert, control, src.infos.get(a.control))
    return control.f1[control.positions(ids)], pert.f1[pert.positions(ids)]


def ablation_estimate(src: Source, a: AblationResult, figure: str, rng: np.random.Generator, n_resamples: int,
                      confidence: float) -> Estimate | None:
    """One audit's estimate of one ablation figure (rules in the module docstring); ``None`` when it has none."""
    value, low, high, n = _results_interval(a, figure)
    if value is None:
        return None
    arrays = _paired_arrays(src, a, figure) if _resamplable(src) else None
    if arrays is not None and arrays[0].size:
        b, p = arrays
        m = b.size
        if figure == "relative_drop":
            def stat(c):
                bs, ps = c @ b, c @ p
                with np.errstate(invalid="ignore", divide="ignore"):
                    return np.where(bs > 0, 100.0 * (bs - ps) / bs, np.nan)
            point = 100.0 * (b.sum() - p.sum()) / b.sum() if b.sum() > 0 else math.nan
        else:
            scale = 100.0 if figure in ("f1_drop", "excess_drop") else 100.0 * 100.0 / a.baseline_f1
            diff = scale * (b - p)
            def stat(c):
                return c @ diff / m
            point = float(diff.mean())
        if abs(point - value) <= TOLERANCE:
            return _from_samples(value, _boot(stat, m, rng, n_resamples), m, confidence)
        log.debug(f"{src.info.name}: {a.id} {figure}: question scores give {point:.4f}, results.json {value:.4f}; "
                  f"normal approximation from results.json's interval")
    if low is None or high is None:
        return Estimate(value, None, None, n)
    return Estimate(value, low, high, n, None)

