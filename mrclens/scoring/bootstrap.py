"""The paired bootstrap: percentile confidence intervals of a drop, reproducible per key.

Rule (Efron & Tibshirani 1993, ch. 13; the paired form used for NLP system comparison by Koehn
2004 and Berg-Kirkpatrick et al. 2012): question ids are resampled with replacement, the same
resampled ids for the baseline and the ablation set, ``n_resamples`` times (default 1,000), and
the interval is the ``(1-confidence)/2`` and ``(1+confidence)/2`` percentiles of the resampled
drops. The random generator is :class:`numpy.random.Generator` (PCG64) seeded from
``(seed, crc32(key))`` where the key names the ablation (and subset), so each number is
reproducible on its own and does not change when other ablations are added or left out.

Examples:
    >>> import numpy as np
    >>> drop, low, high = paired_bootstrap_drop(np.array([1.0, 1.0, 0.0]), np.array([0.0, 1.0, 0.0]), seed=0, key="doc")
    >>> round(drop, 4)
    33.3333
    >>> low <= drop <= high
    True
    >>> confidence_label(0.9)
    '90% CI'
"""

from __future__ import annotations

import zlib
from typing import Iterable

import numpy as np

from mrclens.defaults import N_RESAMPLES  # noqa: F401 - the default number of bootstrap resamples (issue 5: 1,000)

#: Default confidence level of the bootstrap percentile intervals.
CONFIDENCE = 0.95
#: Resamples drawn at once (bounds memory to ``_CHUNK * n_items`` integers).
_CHUNK = 100


def confidence_label(confidence: float) -> str:
    """The label of an interval at this confidence level, e.g. ``0.95`` → ``"95% CI"`` (``0.975`` → ``"97.5% CI"``)."""
    pct = 100.0 * confidence
    return f"{pct:.0f}% CI" if abs(pct - round(pct)) < 1e-9 else f"{pct:g}% CI"


def stable_rng(seed: int, key: str) -> np.random.Generator:
    """A PCG64 generator seeded from ``(seed, crc32(key))``: the same seed and key give the same stream.

    ``crc32`` (not Python's ``hash``, which is salted per process) keeps the stream stable across runs.
    """
    return np.random.default_rng(np.random.SeedSequence([int(seed), zlib.crc32(key.encode("utf-8"))]))


def resample_counts(rng: np.random.Generator, n: int, n_resamples: int) -> Iterable[np.ndarray]:
    """Yield count matrices of shape ``(chunk, n)``: how often each of ``n`` items was drawn in each resample.

    Each row is one bootstrap resample (``n`` draws with replacement), so rows sum to ``n``.
    """
    done = 0
    while done < n_resamples:
        chunk = min(_CHUNK, n_resamples - done)
        idx = rng.integers(0, n, size=(chunk, n))
        flat = idx + (np.arange(chunk, dtype=np.int64) * n)[:, None]
        yield np.bincount(flat.ravel(), minlength=chunk * n).reshape(chunk, n).astype(np.float64)
        done += chunk


def percentile_interval(samples: np.ndarray, confidence: float) -> tuple[float, float]:
    samples = samples[~np.isnan(samples)]
    if samples.size == 0:
        return (float("nan"), float("nan"))
    alpha = (1.0 - confidence) / 2.0
    low, high = np.percentile(samples, [100.0 * alpha, 100.0 * (1.0 - alpha)])
    return float(low), float(high)


def _paired_arrays(baseline, perturbed, n_resamples: int) -> tuple[np.ndarray, np.ndarray]:
    """Both score vectors as float arrays, checked to be paired 1-d arrays of one shape.

    Raises:
        ValueError: the arrays differ in shape or are not 1-d, or ``n_resamples`` < 1.
    """
    baseline = np.asarray(baseline, dtype=np.float64)
    perturbed = np.asarray(perturbed, dtype=np.float64)
    if baseline.shape != perturbed.shape or baseline.ndim != 1:
        raise ValueError(f"paired scores must be 1-d arrays of one shape, got {baseline.shape} and {perturbed.shape}")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be at least 1, got {n_resamples}")
    return baseline, perturbed


def paired_bootstrap_drop(
    baseline: np.ndarray,
    perturbed: np.ndarray,
    *,
    seed: int = 0,
    key: str = "",
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
) -> tuple[float, float, float]:
    """Mean drop ``baseline - perturbed`` in percentage points, with a paired bootstrap percentile CI.

    Args:
        baseline: per-question scores in [0, 1] on the unperturbed set, shape ``(n,)``.
        perturbed: per-question scores in [0, 1] on the perturbed set for the same questions in
            the same order, shape ``(n,)``.
        seed, key: seed the generator (:func:`stable_rng`).
        n_resamples: bootstrap resamples (questions drawn with replacement, the same draw for
            both arrays).
        confidence: the interval's coverage, e.g. 0.95.

    Returns:
        ``(drop, ci_low, ci_high)`` in percentage points (0–100 scale). With no items, all three
        are ``nan``.

    Raises:
        ValueError: the arrays differ in shape, or ``n_resamples`` < 1.
    """
    baseline, perturbed = _paired_arrays(baseline, perturbed, n_resamples)
    n = baseline.size
    if n == 0:
        nan = float("nan")
        return nan, nan, nan
    diff = 100.0 * (baseline - perturbed)
    drop = float(diff.mean())
    rng = stable_rng(seed, key)
    boot = np.concatenate([counts @ diff / n for counts in resample_counts(rng, n, n_resamples)])
    low, high = percentile_interval(boot, confidence)
    return drop, low, high


def paired_bootstrap_relative_drop(
    baseline: np.ndarray,
    perturbed: np.ndarray,
    *,
    seed: int = 0,
    key: str = "",
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
) -> tuple[float, float, float]:
    """The drop as a percentage of the baseline score, ``100 * (mean(b) - mean(p)) / mean(b)``, with a paired bootstrap CI.

    Each resample draws the same question ids for both arrays and takes the ratio of the resampled
    means (a ratio estimator; resamples whose baseline mean is 0 are left out of the percentiles).

    Args:
        baseline, perturbed: per-question scores in [0, 1], shape ``(n,)``, paired by position.
        seed, key, n_resamples, confidence: as :func:`paired_bootstrap_drop`.

    Returns:
        ``(relative drop, ci_low, ci_high)`` in percent of the baseline score; all ``nan`` when
        there are no items or the baseline mean is 0.

    Raises:
        ValueError: the arrays differ in shape, or ``n_resamples`` < 1.

    >>> rel, low, high = paired_bootstrap_relative_drop(np.array([1.0, 1.0, 0.5, 0.5]), np.array([0.5, 1.0, 0.5, 0.0]), key="doc")
    >>> round(rel, 4)
    33.3333
    >>> low <= rel <= high
    True
    """
    baseline, perturbed = _paired_arrays(baseline, perturbed, n_resamples)
    nan = float("nan")
    n = baseline.size
    if n == 0 or baseline.sum() == 0:
        return nan, nan, nan
    point = float(100.0 * (baseline.sum() - perturbed.sum()) / baseline.sum())
    rng = stable_rng(seed, key)
    samples = []
    for counts in resample_counts(rng, n, n_resamples):
        b = counts @ baseline
        p = counts @ perturbed
        with np.errstate(invalid="ignore", divide="ignore"):
            samples.append(np.where(b > 0, 100.0 * (b - p) / b, np.nan))
    low, high = percentile_interval(np.concatenate(samples), confidence)
    return point, low, high
