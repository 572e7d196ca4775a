"""The estimate type of the statistics core (mrclens.metrics.estimate): intervals, differences, added variance
components, the one rebuild of a standard error from an interval, and the reading against a band with the MDE,
on figures of the size an audit produces (points of relative drop, percentile ranks)."""

from __future__ import annotations

import math

import pytest

from mrclens.metrics.estimate import Estimate, excess_spread, round_stored
from mrclens.metrics.intervals import cluster_robust_interval, cluster_robust_se, t_value, z_value
from mrclens.metrics.power import family_confidence, minimum_detectable_effect, read_interval


def test_the_interval_is_normal_without_degrees_of_freedom_and_student_t_with_them():
    drop = Estimate(26.7, 5.59)                       # e1's excess drop beyond SQuAD's, points of relative drop
    low, high = drop.interval(0.95)
    assert (low, high) == pytest.approx((26.7 - 1.959964 * 5.59, 26.7 + 1.959964 * 5.59), abs=1e-5)
    rank = Estimate(4.4, 1.9, df=7)                   # a rank clustered over 8 articles: t on 7 df
    assert rank.interval(0.95) == pytest.approx((4.4 - 2.364624 * 1.9, 4.4 + 2.364624 * 1.9), abs=1e-5)
    # family-wise over seven tests the interval widens (Bonferroni)
    level = family_confidence(0.95, 7)
    assert drop.interval(level)[1] - drop.interval(level)[0] > high - low
    assert drop.critical(level) == z_value(level) and rank.critical(level) == t_value(7, level)


def test_from_interval_gives_back_the_estimate_an_interval_was_drawn_from():
    for est, level in ((Estimate(46.6667, 4.2517), 0.95), (Estimate(-3.1, 0.84, df=11), 0.9929),
                       (Estimate(0.0, 0.0), 0.95)):
        low, high = est.interval(level)
        back = Estimate.from_interval(low, high, level, df=est.df, value=est.value)
        assert back.value == est.value and back.df == est.df
        assert back.se == pytest.approx(est.se, abs=1e-12)
    # without a value the centre is the interval's middle; a stored interval's rounding moves se by under 1e-4
    back = Estimate.from_interval(38.3333, 55.0, 0.95)
    assert back.value == pytest.approx(46.66665) and back.se == pytest.approx(16.6667 / (2 * 1.959964), abs=1e-5)


def test_minus_is_the_difference_of_independent_estimates():
    own, ref = Estimate(46.6667, 4.2517), Estimate(20.0, 2.0408)
    d = own.minus(ref)
    assert d.value == pytest.approx(26.6667) and d.se == pytest.approx(math.hypot(4.2517, 2.0408))
    assert d.df is None
    # degrees of freedom: the smaller, a normal side counting as infinite
    assert Estimate(62.1, 1.6, df=7).minus(Estimate(57.7, 0.4)).df == 7
    assert Estimate(62.1, 1.6, df=7).minus(Estimate(57.7, 0.9, df=47)).df == 7


def test_an_extra_sd_is_added_in_variance_and_none_leaves_the_estimate_as_it_is():
    d = Estimate(26.6667, 4.7138)
    with_tau = d.with_extra_sd(9.4)                    # Similarity's structure term of another context length
    assert with_tau.se == pytest.approx(math.sqrt(4.7138 ** 2 + 9.4 ** 2)) and with_tau.value == d.value
    assert d.with_extra_sd(None) is d and d.with_extra_sd(0.0) is d


def test_scaled_changes_the_unit_and_inflated_widens_only_the_error():
    f1_points = Estimate(14.0, 1.02)                   # an excess drop of 14 F1 points at a baseline F1 of 46.2
    relative = f1_points.scaled(100.0 / 46.2)
    assert relative.value == pytest.approx(30.303, abs=1e-3) and relative.se == pytest.approx(2.2078, abs=1e-4)
    flipped = relative.scaled(-1.0)
    assert flipped.value == -relative.value and flipped.se == relative.se
    clustered = relative.inflated(1.6)                 # a clustering factor pooled over many audits
    assert clustered.value == relative.value and clustered.se == pytest.approx(1.6 * relative.se)
    assert relative.inflated(None) is relative


@pytest.mark.parametrize("value,se,df,band,margin,sign", [
    (26.7, 5.59, None, 10.0, 0.0, 1.0),     # more
    (2.1, 3.4, None, 10.0, 0.0, 1.0),       # in line
    (-26.7, 5.59, None, 10.0, 0.0, -1.0),   # a removal ablation: signed towards the bias, more
    (-2.2, 8.0, None, 10.0, 0.0, 1.0),      # inconclusive
    (6.4, 0.6, 7, 5.0, 5.0, 1.0),           # a rank beyond its margin, t on 7 df
    (-0.8, 1.1, 47, 5.0, 5.0, 1.0),         # a rank inside its band
])
def test_the_reading_and_mde_are_those_of_metrics_power(value, se, df, band, margin, sign):
    est = Estimate(value, se, df)
    level = family_confidence(0.95, 7)
    got = est.read(level, band, margin=margin, sign=sign)
    low, high = est.interval(level)
    s_low, s_high = min(sign * low, sign * high), max(sign * low, sign * high)
    assert (got.low, got.high) == (s_low, s_high)
    assert got.reading == read_interval(sign * value, s_low, s_high, band=band, margin=margin)
    assert got.mde == minimum_detectable_effect(se, level, margin=band, df=df)  # beyond the smallest effect of interest


def test_the_readings_cover_every_side():
    assert [Estimate(v, 3.0).read(0.95, 10.0).reading for v in (17.0, 0.5, -17.0, 12.0, 5.0)] == \
        ["more", "in line", "less", "inconclusive", "inconclusive"]
    # inside the band but clear of 0 (or of a stated margin): a real difference smaller than the effect that matters
    assert [Estimate(v, 1.0).read(0.95, 10.0).reading for v in (6.0, -6.0)] == ["slightly more", "slightly less"]
    assert Estimate(6.0, 1.0).read(0.95, 10.0, margin=5.0).reading == "in line" 


def test_a_negative_standard_error_is_refused_and_nan_kept():
    with pytest.raises(ValueError, match="standard error"):
        Estimate(1.0, -0.1)
    with pytest.raises(ValueError, match="degrees of freedom"):
        Estimate(1.0, 0.1, df=0)
    assert math.isnan(Estimate(1.0, math.nan).se)


def test_excess_spread_is_the_method_of_moments_around_the_mean_or_a_known_centre():
    # three reference runs of e4 (points of relative drop) with their CI half-widths at 95 %
    values, halves = [61.2, 70.5, 55.9], [3.1, 2.8, 3.4]
    ses = [h / z_value(0.95) for h in halves]
    s = excess_spread(values, ses)
    mean = sum(values) / 3
    assert s.observed == pytest.approx(sum((v - mean) ** 2 for v in values) / 2)
    assert s.sampling == pytest.approx(sum(x * x for x in ses) / 3)
    assert s.excess_sd == pytest.approx(math.sqrt(s.observed - s.sampling)) and 5.0 < s.excess_sd < 9.0
    # clean counterparts around 0: mean square, k in the denominator; within their errors the spread is 0
    diffs, errs = [3.2, -4.1, 6.0, -1.5], [2.0, 2.2, 2.5, 1.9]
    around = excess_spread(diffs, errs, centre=0.0)
    assert around.excess_sd == pytest.approx(math.sqrt(sum(d * d - e * e for d, e in zip(diffs, errs)) / 4))
    assert excess_spread([0.5, -0.4], [2.0, 2.0], centre=0.0).excess_sd == 0.0
    with pytest.raises(ValueError):
        excess_spread([1.0], [1.0])
    with pytest.raises(ValueError):
        excess_spread([1.0, 2.0], [1.0])


def test_check_and_audit_share_one_cluster_robust_standard_error():
    from mrclens.scoring.model_free import cluster_standard_errors

    # the share of answers in the most similar sentence, per article of an 8-article evaluation set
    shares = [81.0, 74.5, 90.2, 68.0, 85.5, 79.1, 88.0, 71.3]
    counts = [120, 96, 140, 88, 101, 75, 130, 110]
    centre = sum(v * n for v, n in zip(shares, counts)) / sum(counts)
    se, k = cluster_robust_se(shares, counts)
    assert k == 8 and cluster_robust_interval(shares, counts, centre)[2] == se
    per_article = [{"similarity": {"answer_in_most_similar_sentence_pct": v, "n": n}} for v, n in zip(shares, counts)]
    assert cluster_standard_errors(per_article)["similarity.answer_in_most_similar_sentence_pct"] == (se, 8)
    # the CR1 formula (Cameron & Miller 2015) written out
    n = sum(counts)
    direct = math.sqrt(8 / 7 * sum((c * (v - centre)) ** 2 for v, c in zip(shares, counts))) / n
    assert se == pytest.approx(direct)


def test_a_compared_ablation_records_the_standard_error_its_interval_is_drawn_with():
    from demo_audit_fixture import demo_results

    results = demo_results({"Similarity": 1.8})
    compared = [a for a in results.ablations if a.reference_difference_se is not None]
    # the reference's run SDs (8 runs) and structure terms (6 counterparts) are estimated: t (issue 54, item 4)
    assert compared and all(a.reference_difference_df is not None and a.reference_difference_df >= 5 for a in compared)
    for a in compared:   # stored to 4 decimals: the interval comes back to within its rounding
        low, high = Estimate(a.reference_difference, a.reference_difference_se, a.reference_difference_df).interval(0.95)
        assert (low, high) == pytest.approx((a.reference_difference_ci_low, a.reference_difference_ci_high), abs=5e-4)
    for c in results.categories:
        if c.reference_difference_se is not None:
            low, high = Estimate(c.reference_difference, c.reference_difference_se,
                                 c.reference_difference_df).interval(c.reference_confidence)
            assert (low, high) == pytest.approx((c.reference_difference_ci_low, c.reference_difference_ci_high), abs=5e-4)
    for f in results.model_free:
        if f.difference_se is not None:
            low, high = Estimate(f.difference, f.difference_se, f.difference_df).interval(f.difference_confidence)
            assert (low, high) == pytest.approx((f.difference_ci_low, f.difference_ci_high), abs=5e-4)
    assert round_stored(-0.00001) == 0.0
