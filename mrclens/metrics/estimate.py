"""Estimates: a figure with its standard error, composed as values and read against a band only at the end.

Every verdict of MRCLens reads an interval around a difference; the scoring code builds it from estimates
instead of from intervals:

* :class:`Estimate`: ``value``, ``se`` (the unit of ``value``) and ``df`` (degrees of freedom of Student's t;
  ``None``: the normal distribution). :meth:`~Estimate.interval` at a level, :meth:`~Estimate.minus` (the
  difference of two independent estimates), :meth:`~Estimate.with_extra_sd` (a variance component added, as a
  random effect: the spread between training runs, the structure term), :meth:`~Estimate.scaled` (a change of
  unit), :meth:`~Estimate.inflated` (a design effect), :meth:`~Estimate.from_interval` (the **one** place a
  standard error is rebuilt from a stored interval), and :meth:`~Estimate.read`: the reading against an
  equivalence band and a margin with the minimum detectable effect (:mod:`mrclens.metrics.power`).
* :func:`satterthwaite_df`: the degrees of freedom of a sum of variance components some of which are estimated
  from few values (:meth:`~Estimate.with_extra_sd` with ``df``, :meth:`~Estimate.mean_of`).
* :func:`excess_spread`: the variance of several estimates beyond their own sampling error, by the method of
  moments (the between-run SD of a reference's runs; the structure term of clean counterparts).
* :func:`round_stored`: a figure as files and readings store it (4 decimals, never ``-0.0``).

The quantiles are :func:`mrclens.metrics.power.critical_value` (normal: :func:`mrclens.metrics.intervals.z_value`,
t: :func:`~mrclens.metrics.intervals.t_value`); the cluster-robust standard error of a per-article figure is
:func:`mrclens.metrics.intervals.cluster_robust_se`.

Examples:
    >>> round_stored(1.23456789), round_stored(-0.00001)
    (1.2346, 0.0)
    >>> own, ref = Estimate(46.7, 4.25), Estimate(20.0, 2.04)     # points of relative drop
    >>> d = own.minus(ref).with_extra_sd(3.0)                     # + a structure term of 3 points
    >>> round(d.value, 1), round(d.se, 2), [round(x, 1) for x in d.interval(0.95)]
    (26.7, 5.59, [15.7, 37.7])
    >>> r = d.read(0.95, band=10.0)
    >>> r.reading, round(r.mde, 1)    # the smallest difference read "more" (beyond the band) at 80 % power
    ('more', 25.7)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple, Sequence

from mrclens.metrics.power import POWER, critical_value, minimum_detectable_effect, read_interval

#: Decimals of a figure stored in ``results.json``, the reference file and the readings' figures.
STORED_DECIMALS = 4


def round_stored(x: float) -> float:
    """``x`` rounded to :data:`STORED_DECIMALS` decimals, ``-0.0`` written as ``0.0`` (``+ 0.0``)."""
    return round(float(x), STORED_DECIMALS) + 0.0


def se_from_interval(low: float, high: float, z: float) -> float:
    """The standard error a symmetric interval ``[low, high]`` was drawn with at quantile ``z``:
    ``max(high − low, 0) / (2 z)`` (the unit of the bounds). :meth:`Estimate.from_interval` takes the level."""
    return max(high - low, 0.0) / (2.0 * z)


class BandReading(NamedTuple):
    """An estimate read against a band (:meth:`Estimate.read`): the reading ("more", "in line", "less",
    "inconclusive"; :func:`mrclens.metrics.power.read_interval`), the interval it was read from (signed as
    read) and the minimum detectable effect at 80 % power (:func:`mrclens.metrics.power.minimum_detectable_effect`);
    the unit of the estimate."""

    reading: str
    low: float
    high: float
    mde: float


@dataclass(frozen=True)
class Estimate:
    """A figure with its standard error (module docstring).

    Attributes:
        value: the figure (any unit: percentage points of relative drop, percent, words).
        se: its standard error, the unit of ``value`` (``>= 0``).
        df: degrees of freedom of Student's t for its intervals (a cluster-robust error over ``k`` articles:
            ``k − 1``); ``None``: normal.

    Raises:
        ValueError: ``se`` is negative (NaN is kept: an error that could not be computed), or ``df`` is not positive.
    """

    value: float
    se: float
    df: float | None = None

    def __post_init__(self) -> None:
        if self.se < 0.0:  # NaN passes: a figure whose error could not be computed
            raise ValueError(f"an estimate's standard error must be >= 0, got {self.se!r}")
        if self.df is not None and not self.df > 0:
            raise ValueError(f"degrees of freedom must be positive, got {self.df!r}")

    @classmethod
    def from_interval(cls, low: float, high: float, level: float, df: float | None = None,
                      value: float | None = None) -> "Estimate":
        """The estimate a symmetric interval ``[low, high]`` at ``level`` (a fraction, 0.95) was drawn from: the one
        place a standard error is rebuilt from an interval (``se = (high − low) / (2 q)``, ``q`` the two-sided
        quantile of ``level``: t with ``df``, else normal). ``value``: the figure (default: the interval's centre).

        >>> e = Estimate.from_interval(38.3, 55.0, 0.95)
        >>> round(e.value, 2), round(e.se, 2), [round(x, 1) for x in e.interval(0.95)], round(e.interval(0.99)[1], 1)
        (46.65, 4.26, [38.3, 55.0], 57.6)
        """
        se = se_from_interval(low, high, critical_value(level, df))
        return cls((low + high) / 2.0 if value is None else value, se, df)

    def critical(self, level: float) -> float:
        """The two-sided quantile of ``level`` for this estimate (t with :attr:`df`, else normal)."""
        return critical_value(level, self.df)

    def interval(self, level: float) -> tuple[float, float]:
        """``value ∓ q · se`` at ``level`` (a fraction; ``q``: :meth:`critical`), the unit of ``value``."""
        q = self.critical(level)
        return self.value - q * self.se, self.value + q * self.se

    def minus(self, other: "Estimate") -> "Estimate":
        """``self − other`` for **independent** estimates: ``se = sqrt(se² + se_other²)``; degrees of freedom the
        smaller of the two (``None``, normal, counts as infinite: the conservative choice, not Welch–Satterthwaite).

        >>> d = Estimate(10.0, 3.0, df=7).minus(Estimate(4.0, 4.0))
        >>> d.value, d.se, d.df
        (6.0, 5.0, 7)
        """
        dfs = [d for d in (self.df, other.df) if d is not None]
        return Estimate(self.value - other.value, math.sqrt(self.se ** 2 + other.se ** 2), min(dfs) if dfs else None)

    def with_extra_sd(self, tau: float | None, df: float | None = None) -> "Estimate":
        """This estimate with a variance component of SD ``tau`` added (a random effect: how much the figure moves
        between training runs, between clean datasets of another structure): ``se = sqrt(se² + tau²)``. ``tau``
        ``None`` or 0 leaves it as it is.

        ``df``: the degrees of freedom ``tau²`` is estimated with (the spread of ``k`` training runs: ``k − 1``);
        given, the sum's degrees of freedom are Welch–Satterthwaite's (:func:`satterthwaite_df`; this estimate's
        own :attr:`df`, ``None`` = infinite, for its part). ``None``: ``tau`` counts as known and :attr:`df` is kept
        (the behaviour before degrees of freedom were tracked here).

        >>> Estimate(5.0, 3.0).with_extra_sd(4.0).se
        5.0
        >>> round(Estimate(5.0, 3.0).with_extra_sd(4.0, df=2).df, 2)   # (9 + 16)² / (16² / 2)
        4.88
        """
        if not tau:
            return self
        if df is None:
            return Estimate(self.value, math.sqrt(self.se ** 2 + tau ** 2), self.df)
        return Estimate(self.value, math.sqrt(self.se ** 2 + tau ** 2),
                        satterthwaite_df([(self.se ** 2, self.df), (tau ** 2, df)]))

    @classmethod
    def mean_of(cls, parts: Sequence["Estimate"]) -> "Estimate":
        """The mean of ``k`` **independent** estimates: ``se = sqrt(Σ se_i²) / k``, degrees of freedom
        Welch–Satterthwaite's over the parts (:func:`satterthwaite_df`; ``None`` when every part is normal).

        >>> m = Estimate.mean_of([Estimate(4.0, 3.0, df=7), Estimate(8.0, 4.0)])
        >>> m.value, m.se, round(m.df, 1)    # (25/4)² / ((9/4)² / 7)
        (6.0, 2.5, 54.0)

        Raises:
            ValueError: no parts.
        """
        if not parts:
            raise ValueError("Estimate.mean_of needs at least one estimate")
        k = len(parts)
        variances = [(p.se ** 2 / k ** 2, p.df) for p in parts]
        return cls(sum(p.value for p in parts) / k, math.sqrt(sum(v for v, _ in variances)),
                   satterthwaite_df(variances))

    def scaled(self, factor: float) -> "Estimate":
        """The estimate in another unit, ``value × factor`` with ``se × |factor|`` (e.g. F1 points to percent of the
        baseline F1: ``100 / baseline F1``; ``-1``: signed the other way).

        >>> Estimate(14.0, 2.1).scaled(100.0 / 46.2).value == 14.0 * (100.0 / 46.2)
        True
        """
        return Estimate(self.value * factor, self.se * abs(factor), self.df)

    def inflated(self, factor: float | None) -> "Estimate":
        """The same value with its standard error multiplied by a design effect ``factor`` (e.g. the clustering
        factor that widens a per-question bootstrap error to an article-clustered one); ``None`` or 1: unchanged."""
        if factor is None or factor == 1.0:
            return self
        return Estimate(self.value, factor * self.se, self.df)

    def read(self, level: float, band: float, margin: float = 0.0, sign: float = 1.0,
             power: float = POWER) -> BandReading:
        """The reading of this estimate (a difference from a reference) at ``level``: signed by ``sign`` (``+1`` or
        ``-1``, so that ``+`` is towards the bias), "more" beyond ``+band`` (the smallest effect of interest),
        "less" beyond ``−band``, "in line" inside ``±band`` ("slightly more" / "slightly less" when the interval
        also clears ``±margin``), else "inconclusive" (:func:`mrclens.metrics.power.read_interval`), with the
        minimum detectable effect beyond ``band`` at ``power`` (:func:`mrclens.metrics.power.minimum_detectable_effect`,
        t with :attr:`df`). The unit of ``value``.

        Raises:
            ValueError: ``band`` or ``margin`` negative, or ``margin > band``
                (:func:`~mrclens.metrics.power.read_interval`).

        >>> Estimate(-26.7, 5.59).read(0.95, band=10.0, sign=-1).reading
        'more'
        """
        low, high = self.interval(level)
        if sign < 0:
            low, high = -high, -low
        reading = read_interval(sign * self.value, low, high, band=band, margin=margin)
        return BandReading(reading, low, high, minimum_detectable_effect(self.se, level, power, margin=band, df=self.df))


def satterthwaite_df(components: Sequence[tuple[float, float | None]]) -> float | None:
    """The degrees of freedom of a sum of independent variance components, each ``(variance, df)`` (``df`` ``None``:
    known, or normal: infinite), by Welch–Satterthwaite (Satterthwaite, "An approximate distribution of estimates of
    variance components", Biometrics Bulletin 2(6), 1946): ``(Σ v_j)² / Σ_j (v_j² / df_j)``; ``None`` (normal) when
    no component with finite ``df`` has a variance above 0. At least the smallest ``df_j`` of a component with
    variance; the larger the known share, the closer to normal. Units: any (the variances share one).

    >>> satterthwaite_df([(4.0, None), (4.0, 2)])   # 8² / (4² / 2)
    8.0
    >>> satterthwaite_df([(4.0, None), (0.0, 2)]) is None
    True

    Raises:
        ValueError: a negative variance, or a ``df`` that is not positive.
    """
    if any(v < 0 or (df is not None and not df > 0) for v, df in components):
        raise ValueError(f"satterthwaite_df needs variances >= 0 and positive degrees of freedom, got {components!r}")
    finite = sum(v * v / df for v, df in components if df is not None and v > 0)
    if finite == 0.0:
        return None
    return sum(v for v, _ in components) ** 2 / finite


class Spread(NamedTuple):
    """How much several estimates vary (:func:`excess_spread`): ``observed`` (their variance around the centre),
    ``sampling`` (the mean of their squared standard errors) and ``excess_sd`` = ``sqrt(max(observed − sampling,
    0))`` — the SD beyond sampling error; squared units of the estimates for the variances, their unit for the SD."""

    observed: float
    sampling: float
    excess_sd: float


def excess_spread(values: Sequence[float], ses: Sequence[float], centre: float | None = None) -> Spread:
    """The variance of ``k`` estimates beyond their own sampling error, by the method of moments (DerSimonian &
    Laird, "Meta-analysis in clinical trials", Controlled Clinical Trials 7, 1986): ``τ² = max(s² − mean(se_i²), 0)``.

    ``s²`` is the sample variance around their mean (``k − 1`` in the denominator) when ``centre`` is ``None``
    (the runs of one reference, :func:`mrclens.scoring.reference_builder.combine_reference_audits`: ``run_sd``),
    or the mean square around a known ``centre`` (``k`` in the denominator: clean counterparts whose true
    difference from the reference is 0, :func:`mrclens.scoring.structure_term.structure_spread`).

    Raises:
        ValueError: no values, ``values`` and ``ses`` of different lengths, or one value without a ``centre``.

    >>> s = excess_spread([10.0, 14.0, 18.0], [1.0, 1.0, 1.0])   # s² = 16, mean se² = 1
    >>> s.observed, s.sampling, round(s.excess_sd, 3)
    (16.0, 1.0, 3.873)
    >>> excess_spread([1.0, -1.0], [2.0, 2.0], centre=0.0).excess_sd   # within their errors: no spread
    0.0
    """
    k = len(values)
    if k == 0 or len(ses) != k or (centre is None and k < 2):
        raise ValueError(f"excess_spread needs values and as many standard errors (two values without a centre), "
                         f"got {k} and {len(ses)}")
    if centre is None:
        mean = sum(values) / k
        observed = sum((v - mean) ** 2 for v in values) / (k - 1)
    else:
        observed = sum((v - centre) ** 2 for v in values) / k
    sampling = sum(s * s for s in ses) / k
    return Spread(observed, sampling, math.sqrt(max(observed - sampling, 0.0)))
