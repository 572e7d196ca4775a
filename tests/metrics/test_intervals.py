"""The confidence intervals behind `mrclens check`'s rules (issue 44, item 2), against SciPy's and the textbook formulas."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from mrclens.metrics.intervals import (abs_interval, cluster_robust_interval, effect_size_interval,
                                       max_deviation_interval, mean_interval, t_value, wilson_interval)


@pytest.mark.parametrize("k,n", [(0, 50), (11, 1057), (388, 1057), (50, 50), (1, 3)])
def test_wilson_equals_scipys_wilson_interval(k, n):
    want = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    low, high = wilson_interval(100.0 * k / n, n)
    assert low == pytest.approx(100 * want.low, abs=1e-9) and high == pytest.approx(100 * want.high, abs=1e-9)


def test_wilson_refuses_what_is_not_a_share():
    with pytest.raises(ValueError):
        wilson_interval(50.0, 0)
    with pytest.raises(ValueError):
        wilson_interval(101.0, 10)


def test_mean_interval_equals_scipys_t_interval():
    x = np.array([0.0, 100.0, 100.0, 50.0, 66.7, 100.0, 25.0])
    want = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    assert mean_interval(x.mean(), x.std(ddof=1), len(x)) == pytest.approx(want)
    assert mean_interval(5.0, 0.0, 1) == (-math.inf, math.inf)


def test_cluster_robust_interval_is_the_cr1_variance_of_a_ratio_mean_with_t_on_k_minus_1_df():
    values, weights = [40.0, 47.0, 30.0, 35.0, 38.0], [200, 180, 260, 220, 197]
    low, high, se = cluster_robust_interval(values, weights, centre=37.7)
    n, k = sum(weights), len(values)
    mean = sum(v * w for v, w in zip(values, weights)) / n
    # the sandwich form: the per-article score sums n_a (v_a - V), squared, scaled by k/(k-1), over N^2
    want_se = math.sqrt(k / (k - 1) * sum((w * (v - mean)) ** 2 for v, w in zip(values, weights))) / n
    assert se == pytest.approx(want_se)
    assert (low, high) == pytest.approx((37.7 - stats.t.ppf(0.975, k - 1) * se, 37.7 + stats.t.ppf(0.975, k - 1) * se))
    assert cluster_robust_interval([40.0], [200], 40.0) is None  # one article: no between-article spread to estimate
    assert cluster_robust_interval([40.0, 40.0], [10, 30], 40.0)[2] == 0.0
    assert t_value(1) == pytest.approx(12.706, abs=1e-3)  # two articles: one degree of freedom


def test_effect_size_interval_covers_the_true_d_z_about_95_in_100_times():
    rng = np.random.default_rng(0)
    true_d, n, hits = 0.3, 200, 0
    for _ in range(400):
        x = rng.normal(true_d, 1.0, n)
        low, high = effect_size_interval(x.mean() / x.std(ddof=1), n)
        hits += low <= true_d <= high
    assert 0.92 <= hits / 400 <= 0.98
    assert abs_interval(*effect_size_interval(0.0, 100))[0] == 0.0


def test_max_deviation_interval_holds_the_observed_deviation_and_narrows_with_n():
    counts = [30, 20, 25, 25]
    observed = max(abs(100 * c / 100 - 25.0) for c in counts)
    low, high = max_deviation_interval(counts, 25.0)
    assert low <= observed <= high
    low10, high10 = max_deviation_interval([10 * c for c in counts], 25.0)
    assert low10 > low and high10 < high and low10 > 0.0  # 1,000 questions: a 5-point skew is no longer chance
