"""What a comparison with a reference can see: family-wise levels, equivalence bands and power (issue 41).

A verdict against a reference is one of six readings of a difference's interval (:func:`read_interval`; their
records and words: :mod:`mrclens.verdicts`), with the band ``±band`` the category's **smallest effect of
interest** (issue 54):

* **more** / **less**: the whole interval lies beyond the band on that side — a minimum-effect test (Murphy &
  Myors 1999, "Testing the hypothesis that treatments have negligible effects", *J. Applied Psychology* 84(2);
  Lakens 2017): a difference only "more" when it is larger than the effect that matters;
* **in line**: the whole interval lies inside the equivalence band ``[-band, +band]`` — the two
  one-sided tests of equivalence (Schuirmann 1987; Lakens 2017, "Equivalence Tests", *Social
  Psychological and Personality Science* 8(4)) read at the interval's level, which is conservative:
  "in line" is a claim that the data is as clean as the reference within the band, so it needs the
  precision to make it;
* **slightly more** / **slightly less**: inside the band too, but the interval also lies beyond ``margin``
  (0 unless a figure states one) on that side: a real difference, smaller than the effect that matters — no
  fix-it advice;
* **inconclusive**: none of these; the audit could not tell, and :func:`minimum_detectable_effect` says how
  large a difference it would have seen.

The levels are family-wise (:func:`family_confidence`, Bonferroni) over every test an audit reads
together, so a clean dataset reads "more" or "less" somewhere at most ``1 - confidence`` of the time.

Examples:
    >>> read_interval(-2.2, -18.0, 13.6, band=10.0)
    'inconclusive'
    >>> read_interval(1.0, -4.0, 6.0, band=10.0), read_interval(16.0, 11.0, 21.0, band=10.0)
    ('in line', 'more')
    >>> read_interval(5.0, 1.0, 9.0, band=10.0), read_interval(12.0, 3.0, 21.0, band=10.0)
    ('slightly more', 'inconclusive')
    >>> round(minimum_detectable_effect(5.0, 0.9875), 1)   # se 5 points, four categories at 95 % family-wise
    16.7
"""

from __future__ import annotations

from mrclens.metrics.intervals import t_value, z_value
from mrclens.verdicts import INCONCLUSIVE, IN_LINE, LESS, MORE, SLIGHTLY_LESS, SLIGHTLY_MORE

#: The power at which the minimum detectable effect is stated (the conventional 80 %; Cohen 1988).
POWER = 0.80


def family_confidence(confidence: float, family: int) -> float:
    """The per-test confidence that keeps ``confidence`` family-wise over ``family`` tests.

    Bonferroni's inequality (Dunn, "Multiple comparisons among means", JASA 1961): with each of
    ``m`` intervals at ``1 - (1 - confidence) / m``, the chance that any of them misses its true value
    is at most ``1 - confidence``. Why here: an audit reads every bias category (and each category's
    model-free figure) at once, so at 95 % per test a clean dataset would read "more" or "less"
    somewhere about one audit in five; at the family level, one in twenty at most.

    >>> family_confidence(0.95, 4), family_confidence(0.95, 1)
    (0.9875, 0.95)

    Raises:
        ValueError: ``family < 1`` or ``confidence`` not in (0, 1).
    """
    if family < 1 or not 0.0 < confidence < 1.0:
        raise ValueError(f"family_confidence needs family >= 1 and 0 < confidence < 1, got {family}, {confidence}")
    return round(1.0 - (1.0 - confidence) / family, 10)


def critical_value(confidence: float, df: int | None = None) -> float:
    """The two-sided quantile of ``confidence``: Student's t with ``df`` degrees of freedom (a cluster-robust
    standard error over ``k`` articles has ``k - 1``; Cameron & Miller 2015, "A Practitioner's Guide to
    Cluster-Robust Inference", J. Human Resources 50(2); :func:`mrclens.metrics.intervals.t_value`), or the
    normal one (:func:`mrclens.metrics.intervals.z_value`) when ``df`` is ``None``.

    >>> round(critical_value(0.95), 3), round(critical_value(0.95, 7), 3)
    (1.96, 2.365)
    """
    return z_value(confidence) if df is None else t_value(df, confidence)


def minimum_detectable_effect(se: float, confidence: float, power: float = POWER, margin: float = 0.0,
                              df: int | None = None) -> float:
    """The smallest true difference (the unit of ``se``) that a two-sided test at ``confidence`` reads
    beyond ``margin`` with probability ``power``: ``margin + (q_(1+confidence)/2 + q_power) · se`` with
    normal quantiles, or Student's t with ``df`` degrees of freedom (e.g. Cohen 1988, ch. 1; with a
    margin, a minimum-effect test).

    >>> round(minimum_detectable_effect(1.0, 0.95), 2)
    2.8

    Raises:
        ValueError: ``se`` is negative or ``power`` not in (0, 1).
    """
    if se < 0 or not 0.0 < power < 1.0:
        raise ValueError(f"minimum_detectable_effect needs se >= 0 and 0 < power < 1, got {se}, {power}")
    # the one-sided quantile of ``power`` is the two-sided one of 2·power − 1
    return margin + (critical_value(confidence, df) + critical_value(2.0 * power - 1.0, df)) * se


def read_interval(value: float, low: float, high: float, *, band: float, margin: float = 0.0) -> str:
    """The reading of a difference (signed so that ``+`` is towards the bias) from its interval (module docstring):
    "more" when ``low > band``, "less" when ``high < -band``; inside ``[-band, +band]``: "slightly more" when
    ``low > margin``, "slightly less" when ``high < -margin``, else "in line"; otherwise "inconclusive". ``value``
    is not used for the reading (the interval decides); it is taken so that calls read as the figure they judge.

    Raises:
        ValueError: ``band`` or ``margin`` is negative, ``margin > band``, or ``low > high``.
    """
    if band < 0 or margin < 0 or margin > band or low > high:
        raise ValueError(f"read_interval needs 0 <= margin <= band and low <= high, got band {band}, margin {margin}, "
                         f"interval [{low}, {high}]")
    if low > band:
        return MORE.name
    if high < -band:
        return LESS.name
    if -band <= low and high <= band:
        return SLIGHTLY_MORE.name if low > margin else SLIGHTLY_LESS.name if high < -margin else IN_LINE.name
    return INCONCLUSIVE.name
