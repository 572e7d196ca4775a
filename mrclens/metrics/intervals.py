"""Confidence intervals of a share, a mean and an effect size, by question or clustered by article.

What ``mrclens check`` puts around each figure it gates on (MRCLens issue 44, item 2: a rule fails
only when the whole interval lies beyond its threshold). Every figure is in percent (0–100) unless
said otherwise; ``confidence`` is a fraction (0.95).

* :func:`wilson_interval`: a share of ``n`` items (Wilson 1927, "Probable inference, the law of
  succession, and statistical inference", JASA 22: the score interval; it stays within 0–100 and
  keeps its coverage near 0 and 100, where the normal interval collapses to a point). It is also
  used, conservatively, for the mean of a score bounded by 0 and 100 whose spread is not recorded
  (a heuristic's F1): such a mean ``m`` has variance at most ``m (100 − m)``, a share's.
* :func:`mean_interval`: a mean with its standard deviation, Student's t with ``n − 1`` degrees of
  freedom. For a mean of values in 0–100 (a percentile rank) the Wilson interval of the mean is taken
  too where it is wider (:mod:`mrclens.checks.intervals`): a sample whose values happen to agree (three
  questions, all ranked first) has a standard deviation of 0, and its t interval no width.
* :func:`cluster_robust_interval`: a figure computed per article, whose questions are not
  independent (they share a passage, a topic and annotators): the cluster-robust standard error of a
  ratio mean (:func:`cluster_robust_se`, the one formula ``check`` and ``audit`` share), ``sqrt(k/(k−1) Σ_a (n_a (v_a − V))²) / N`` over ``k`` articles with ``n_a`` items and
  value ``v_a`` (``V = Σ n_a v_a / N``, ``N = Σ n_a``), with Student's t on ``k − 1`` degrees of
  freedom, as Cameron & Miller (2015, "A Practitioner's Guide to Cluster-Robust Inference", J. Human
  Resources 50(2), section VI) advise for few clusters. Two articles give one degree of freedom
  (t = 12.7 at 95 %): a file of two articles cannot tell much, and says so.
* :func:`effect_size_interval`: Cohen's ``d_z`` of ``n`` paired differences, with the large-sample
  standard error ``sqrt(1/n + d²/(2n))`` (Hedges & Olkin 1985; Lakens 2013, Frontiers in Psychology 4:863).
* :func:`max_deviation_interval`: the largest distance of several shares from one expected share,
  from Wilson intervals that hold jointly (Bonferroni over the shares).

Examples:
    >>> [round(x, 2) for x in wilson_interval(1.04, 1057)]
    [0.58, 1.85]
    >>> [round(x, 2) for x in wilson_interval(0.0, 50)]
    [0.0, 7.13]
    >>> low, high, se = cluster_robust_interval([70.0, 90.0], [100, 100], centre=80.0)
    >>> round(se, 1), round(low, 1), round(high, 1)
    (10.0, -47.1, 207.1)
    >>> [round(x, 1) for x in mean_interval(60.0, 30.0, 900)]
    [58.0, 62.0]
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Sequence

from mrclens.metrics.bootstrap import CONFIDENCE


def z_value(confidence: float = CONFIDENCE) -> float:
    """The two-sided standard normal quantile of ``confidence`` (1.96 at 0.95)."""
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def t_value(df: float, confidence: float = CONFIDENCE) -> float:
    """The two-sided Student's t quantile of ``confidence`` on ``df`` degrees of freedom (SciPy, which
    scikit-learn installs).

    >>> round(t_value(1), 2), round(t_value(4), 2)
    (12.71, 2.78)

    Raises:
        ValueError: ``df`` is not positive.
    """
    if not df > 0:
        raise ValueError(f"degrees of freedom must be positive, got {df!r}")
    from scipy.stats import t

    return float(t.ppf(0.5 + confidence / 2.0, df))


def wilson_interval(pct: float, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Wilson score interval of a share ``pct`` (percent) of ``n`` items, in percent.

    Raises:
        ValueError: ``n`` is not positive or ``pct`` is outside 0–100.
    """
    if n <= 0:
        raise ValueError(f"a share needs at least one item, got n={n!r}")
    if not 0.0 <= pct <= 100.0:
        raise ValueError(f"a share is 0-100 percent, got {pct!r}")
    p, z = pct / 100.0, z_value(confidence)
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2.0 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n)) / denom
    # the interval always holds the share (its low end is exactly 0 at 0 %; rounding gave 7e-16)
    return min(100.0 * max(0.0, centre - half), pct), max(100.0 * min(1.0, centre + half), pct)


def mean_interval(mean: float, std: float, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """``mean ± t(n − 1) × std / sqrt(n)`` (the units of ``mean``); one value says nothing of the spread:
    ``(-inf, inf)``.

    >>> mean_interval(3.0, 0.0, 1)
    (-inf, inf)

    Raises:
        ValueError: ``n`` is not positive.
    """
    if n <= 0:
        raise ValueError(f"a mean needs at least one value, got n={n!r}")
    if n == 1:
        return -math.inf, math.inf
    half = t_value(n - 1, confidence) * std / math.sqrt(n)
    return mean - half, mean + half


def cluster_robust_interval(values: Sequence[float], weights: Sequence[float], centre: float,
                            confidence: float = CONFIDENCE) -> tuple[float, float, float] | None:
    """The interval of a figure from its per-article values (module docstring), around ``centre`` (the
    figure of the whole file).

    Args:
        values: the figure of each article.
        weights: the items each article's figure is over (its ``n``: questions, answerable questions).
        centre: the figure of the whole file.

    Returns:
        ``(low, high, standard error)``, or ``None`` with fewer than two articles of positive weight.
    """
    got = cluster_robust_se(values, weights)
    if got is None:
        return None
    se, k = got
    half = t_value(k - 1, confidence) * se
    return centre - half, centre + half, se


def cluster_robust_se(values: Sequence[float], weights: Sequence[float]) -> tuple[float, int] | None:
    """The cluster-robust standard error of a ratio mean from its per-cluster (per-article) values: the one
    formula behind ``check``'s intervals (:func:`cluster_robust_interval`) and the audit's model-free figures
    (:func:`mrclens.scoring.model_free.cluster_standard_errors`).

    ``sqrt(k/(k−1) Σ_a (n_a (v_a − V))²) / N`` over the ``k`` clusters of positive weight ``n_a`` and value
    ``v_a`` (``V = Σ n_a v_a / N``, ``N = Σ n_a``): the CR1 sandwich variance of a mean, with its small-sample
    factor ``k/(k−1)`` (Cameron & Miller 2015, "A Practitioner's Guide to Cluster-Robust Inference", J. Human
    Resources 50(2), sections II.C and VI; read it with Student's t on ``k − 1`` degrees of freedom). The unit
    of ``values``.

    Args:
        values: each cluster's figure.
        weights: the items each cluster's figure is over (clusters of weight 0 or less are left out).

    Returns:
        ``(standard error, k)``, or ``None`` with fewer than two clusters of positive weight.

    >>> se, k = cluster_robust_se([70.0, 90.0], [100, 100])
    >>> round(se, 1), k
    (10.0, 2)
    """
    pairs = [(float(v), float(w)) for v, w in zip(values, weights) if w > 0]
    k = len(pairs)
    if k < 2:
        return None
    total = sum(w for _, w in pairs)
    mean = sum(v * w for v, w in pairs) / total
    return math.sqrt(k / (k - 1) * sum((w * (v - mean)) ** 2 for v, w in pairs)) / total, k


def effect_size_interval(d: float, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The interval of Cohen's ``d_z`` over ``n`` paired differences (module docstring).

    >>> [round(x, 3) for x in effect_size_interval(0.05, 2776)]
    [0.013, 0.087]

    Raises:
        ValueError: ``n`` is not positive.
    """
    if n <= 0:
        raise ValueError(f"an effect size needs at least one pair, got n={n!r}")
    half = z_value(confidence) * math.sqrt(1.0 / n + d * d / (2.0 * n))
    return d - half, d + half


def abs_interval(low: float, high: float) -> tuple[float, float]:
    """The interval of ``|x|`` when ``x`` lies in ``[low, high]``.

    >>> abs_interval(-0.1, 0.3), abs_interval(-0.5, -0.2)
    ((0.0, 0.3), (0.2, 0.5))
    """
    if low <= 0.0 <= high:
        return 0.0, max(-low, high)
    return min(abs(low), abs(high)), max(abs(low), abs(high))


def max_deviation_interval(counts: Sequence[int], expected_pct: float,
                           confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The interval of ``max_i |share_i − expected_pct|`` (percentage points), the shares ``counts_i / Σ counts``:
    each share's Wilson interval at ``1 − (1 − confidence) / K`` for ``K`` shares, so that all hold
    together at ``confidence`` (Bonferroni); the bounds are the smallest and largest distances those
    intervals allow.

    >>> [round(x, 2) for x in max_deviation_interval([689, 684, 697, 706], 25.0)]
    [0.0, 2.55]

    Raises:
        ValueError: no count is positive.
    """
    n = sum(counts)
    if n <= 0 or not counts:
        raise ValueError("the shares need at least one item")
    level = 1.0 - (1.0 - confidence) / len(counts)
    low = high = 0.0
    for c in counts:
        lo, hi = wilson_interval(100.0 * c / n, n, level)
        low = max(low, max(lo - expected_pct, expected_pct - hi, 0.0))
        high = max(high, abs(lo - expected_pct), abs(hi - expected_pct))
    return low, high
