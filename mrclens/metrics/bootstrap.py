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
from functools import partial
from typing import Iterable, Sequence

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


def family_ci_label(level: float | None, confidence: float) -> str:
    """The label of an interval at ``level`` that holds ``confidence`` family-wise (Bonferroni), e.g. the
    categories' intervals against a reference (:func:`mrclens.scoring.against_reference.family_confidence`);
    the plain :func:`confidence_label` when ``level`` is ``None``, not a fraction or ``confidence`` itself.

    >>> family_ci_label(0.9875, 0.95), family_ci_label(0.95, 0.95), family_ci_label(None, 0.95)
    ('98.75% CI (95% family-wise)', '95% CI', '95% CI')
    """
    if not isinstance(level, float) or not 0.0 < level < 1.0 or abs(level - confidence) < 1e-12:
        return confidence_label(confidence)
    return f"{confidence_label(level)} ({confidence_label(confidence).removesuffix(' CI')} family-wise)"


#: Decimals of a figure or interval bound in readings and terminal summaries (percentage points).
BOUND_DECIMALS = 1
#: The most decimals a bound gets so that it does not show as ``0.0`` when it is not zero.
MAX_BOUND_DECIMALS = 2


def fmt_bound(x: float, signed: bool = False) -> str:
    """A figure or interval bound as the readings show it: :data:`BOUND_DECIMALS` decimals, or up to
    :data:`MAX_BOUND_DECIMALS` when fewer would show a non-zero value as ``0.0`` (``0.03``, not ``0.0``);
    never ``-0.0``. ``signed`` adds ``+`` to positive values.

    Why (issue 33): an interval shown as ``[0.0, 0.5]`` was called "entirely above zero" because its
    lower bound was 0.03; the reader of the text sees only the rounded figures.

    >>> fmt_bound(0.03), fmt_bound(-0.04, signed=True), fmt_bound(-0.001), fmt_bound(12.345, signed=True)
    ('0.03', '-0.04', '0.0', '+12.3')
    """
    text = "0.0"
    for decimals in range(BOUND_DECIMALS, MAX_BOUND_DECIMALS + 1):
        value = round(float(x), decimals) + 0.0  # + 0.0: no "-0.0"
        if value != 0.0:
            text = f"{value:+.{decimals}f}" if signed else f"{value:.{decimals}f}"
            break
    return text if text != "+0.0" else "0.0"


def interval_side(low: float, high: float) -> str | None:
    """``"above"`` when the interval lies wholly above 0, ``"below"`` when wholly below, ``None`` when it
    includes or touches 0 — decided with the bounds as :func:`fmt_bound` shows them, so that a text never
    calls an interval shown as ``[0.0, 0.5]`` or ``[-0.1, 0.0]`` "above" or "below" zero.

    >>> interval_side(0.03, 0.5), interval_side(0.001, 0.5), interval_side(-0.12, -0.004), interval_side(-1.0, -0.2)
    ('above', None, None, 'below')
    """
    if float(fmt_bound(low)) > 0:
        return "above"
    if float(fmt_bound(high)) < 0:
        return "below"
    return None


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


def bootstrap_mean_intervals(columns: np.ndarray, *, seed: int, key: str, n_resamples: int,
                             confidence: float = CONFIDENCE) -> list[tuple[float, float]]:
    """Percentile CIs of the column means of ``columns`` (shape ``(n, m)``, e.g. per-question 0/1
    correctness or values), one resampling of the ``n`` rows (questions) shared by all columns, seeded
    by ``(seed, key)`` (:func:`stable_rng`). Units are those of ``columns``.

    Returns:
        ``m`` pairs ``(low, high)``; ``(nan, nan)`` each when ``n == 0``.

    Raises:
        ValueError: ``n_resamples < 1``.

    >>> bootstrap_mean_intervals(np.ones((5, 1)), seed=0, key="k", n_resamples=10)
    [(1.0, 1.0)]
    """
    n, m = columns.shape
    if n == 0:
        return [(float("nan"), float("nan"))] * m
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be at least 1, got {n_resamples}")
    means = np.concatenate([counts @ columns / n for counts in resample_counts(stable_rng(seed, key), n, n_resamples)])
    return [percentile_interval(means[:, j], confidence) for j in range(m)]


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


def paired_bootstrap(
    baseline: np.ndarray,
    perturbed: np.ndarray,
    *,
    statistic: str = "drop",
    seed: int = 0,
    key: str = "",
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
) -> tuple[float, float, float]:
    """A paired drop of ``perturbed`` from ``baseline`` with a paired bootstrap percentile CI.

    ``statistic`` is ``"drop"``, the mean drop ``baseline - perturbed`` in percentage points
    (:data:`paired_bootstrap_drop`), or ``"relative"``, the drop as a percentage of the baseline score,
    ``100 * (mean(b) - mean(p)) / mean(b)`` (:data:`paired_bootstrap_relative_drop`). Each resample
    draws the same question ids for both arrays; for ``"relative"`` it takes the ratio of the
    resampled means (a ratio estimator; resamples whose baseline mean is 0 are left out of the
    percentiles).

    Args:
        baseline: per-question scores in [0, 1] on the unperturbed set, shape ``(n,)``.
        perturbed: per-question scores in [0, 1] on the perturbed set for the same questions in
            the same order, shape ``(n,)``.
        statistic: ``"drop"`` or ``"relative"``.
        seed, key: seed the generator (:func:`stable_rng`).
        n_resamples: bootstrap resamples (questions drawn with replacement, the same draw for
            both arrays).
        confidence: the interval's coverage, e.g. 0.95.

    Returns:
        ``(drop, ci_low, ci_high)``: in percentage points (0–100 scale) for ``"drop"``, in percent
        of the baseline score for ``"relative"``. With no items, all three are ``nan``; for
        ``"relative"`` also when the baseline mean is 0.

    Raises:
        ValueError: unknown ``statistic``; the arrays differ in shape; ``n_resamples`` < 1.

    >>> rel, low, high = paired_bootstrap_relative_drop(np.array([1.0, 1.0, 0.5, 0.5]), np.array([0.5, 1.0, 0.5, 0.0]), key="doc")
    >>> round(rel, 4)
    33.3333
    >>> low <= rel <= high
    True
    """
    if statistic not in ("drop", "relative"):
        raise ValueError(f"statistic must be 'drop' or 'relative', got {statistic!r}")
    baseline, perturbed = _paired_arrays(baseline, perturbed, n_resamples)
    nan = float("nan")
    n = baseline.size
    if n == 0 or (statistic == "relative" and baseline.sum() == 0):
        return nan, nan, nan
    if statistic == "drop":
        diff = 100.0 * (baseline - perturbed)
        point = float(diff.mean())

        def resampled(counts: np.ndarray) -> np.ndarray:
            return counts @ diff / n
    else:
        point = float(100.0 * (baseline.sum() - perturbed.sum()) / baseline.sum())

        def resampled(counts: np.ndarray) -> np.ndarray:
            b = counts @ baseline
            p = counts @ perturbed
            with np.errstate(invalid="ignore", divide="ignore"):
                return np.where(b > 0, 100.0 * (b - p) / b, np.nan)

    rng = stable_rng(seed, key)
    low, high = percentile_interval(np.concatenate([resampled(counts) for counts in resample_counts(rng, n, n_resamples)]),
                                    confidence)
    return point, low, high


#: :func:`paired_bootstrap` of the mean drop (``statistic="drop"``): ``(drop, ci_low, ci_high)`` in percentage points.
paired_bootstrap_drop = partial(paired_bootstrap, statistic="drop")
#: :func:`paired_bootstrap` of the drop in percent of the baseline score (``statistic="relative"``).
paired_bootstrap_relative_drop = partial(paired_bootstrap, statistic="relative")


def mean_of_picked(samples: np.ndarray, pick_rng: np.random.Generator) -> np.ndarray:
    """Rows of ``samples`` ``(chunk, R)``: the mean of ``R`` columns drawn with replacement (one draw per row).

    With ``R == 1`` every pick is column 0, so the result is the column itself.
    """
    chunk, r = samples.shape
    picks = pick_rng.integers(0, r, size=(chunk, r))
    return np.take_along_axis(samples, picks, axis=1).mean(axis=1)


def two_stage_bootstrap(
    replicates: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]],
    n_items: int,
    *,
    statistic: str = "drop",
    seed: int = 0,
    key: str = "",
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
) -> tuple[float, float, float, list[float]]:
    """A drop over repeated draws (or readers) with a CI that includes the between-replicate variance.

    Method (issue 16): a two-stage bootstrap (Davison & Hinkley 1997, *Bootstrap Methods and their
    Application*, §3.8, resampling both stages of a two-stage design; used for the variance of ML
    benchmarks over data sampling and seeds by Bouthillier et al. 2021, "Accounting for Variance
    in Machine Learning Benchmarks", MLSys). Every replicate (one draw of the ablations' random
    choices, or one trained reader) scores the *same* questions, so the design is crossed: in
    each resample

    1. the questions are drawn once with replacement (counts from :func:`resample_counts` with the
       generator :func:`stable_rng` ``(seed, key)``, the same stream as the single-run bootstrap),
       shared by all replicates so the pairing by question is kept, and each replicate's statistic
       is computed with those counts;
    2. ``R`` replicates are drawn with replacement (generator ``stable_rng(seed, key + ":replicates")``)
       and the resample's value is the mean of their statistics.

    The point estimate is the mean of the replicates' statistics on all questions; the interval
    is the percentile interval of the resampled values. With one replicate it is exactly
    :func:`paired_bootstrap_drop` / :func:`paired_bootstrap_relative_drop` (same numbers); with
    two it spans roughly from the lower draw's lower bound to the higher draw's upper bound.

    Args:
        replicates: per replicate ``(positions, baseline, perturbed)``: ``positions`` (int array,
            shape ``(m,)``) are the replicate's paired questions as indices into ``0 … n_items-1``
            (the shared question list); ``baseline``/``perturbed`` are their scores in [0, 1],
            shape ``(m,)``.
        n_items: the number of shared questions that are resampled.
        statistic: ``"drop"`` — ``100 * mean(baseline - perturbed)`` (percentage points);
            ``"relative"`` — ``100 * (sum(baseline) - sum(perturbed)) / sum(baseline)`` (percent;
            a resample whose baseline sum is 0 gives ``nan`` and is left out).
        seed, key, n_resamples, confidence: as :func:`paired_bootstrap`.

    Returns:
        ``(point, ci_low, ci_high, per-replicate statistics)``; ``nan`` numbers when there are no
        replicates or no items.

    Raises:
        ValueError: unknown ``statistic``; arrays of one replicate differ in shape; ``n_resamples`` < 1.

    >>> one = (np.array([0]), np.array([1.0]), np.array([0.2]))
    >>> two = (np.array([0]), np.array([1.0]), np.array([0.6]))
    >>> point, low, high, each = two_stage_bootstrap([one, two], 1, key="doc")
    >>> [round(x, 4) for x in (point, low, high)], [round(x, 4) for x in each]
    ([60.0, 40.0, 80.0], [80.0, 40.0])
    """
    if statistic not in ("drop", "relative"):
        raise ValueError(f"statistic must be 'drop' or 'relative', got {statistic!r}")
    nan = float("nan")
    reps = []
    for pos, b, p in replicates:
        b, p = _paired_arrays(b, p, n_resamples)
        pos = np.asarray(pos, dtype=np.int64)
        if pos.shape != b.shape:
            raise ValueError(f"positions and scores differ in shape: {pos.shape} and {b.shape}")
        reps.append((pos, b, p))
    if not reps or n_items == 0:
        return nan, nan, nan, [nan] * len(reps)

    def stat(b_sum, p_sum, w_sum):
        with np.errstate(invalid="ignore", divide="ignore"):
            if statistic == "drop":
                return np.where(w_sum > 0, 100.0 * (b_sum - p_sum) / w_sum, np.nan)
            return np.where(b_sum > 0, 100.0 * (b_sum - p_sum) / b_sum, np.nan)

    each = [float(stat(np.float64(b.sum()), np.float64(p.sum()), np.float64(b.size))) for _, b, p in reps]
    rng, pick_rng = stable_rng(seed, key), stable_rng(seed, key + ":replicates")
    chunks = []
    for counts in resample_counts(rng, n_items, n_resamples):
        cols = []
        for pos, b, p in reps:
            w = counts[:, pos]
            if statistic == "drop" and pos.size == n_items and np.array_equal(pos, np.arange(n_items)):
                # the single-run formula exactly (counts @ diff / n), so one replicate reproduces paired_bootstrap_drop
                cols.append(counts @ (100.0 * (b - p)) / n_items)
            else:
                cols.append(stat(w @ b, w @ p, w.sum(axis=1)))
        chunks.append(mean_of_picked(np.stack(cols, axis=1), pick_rng))
    low, high = percentile_interval(np.concatenate(chunks), confidence)
    finite = [x for x in each if not np.isnan(x)]
    point = float(np.mean(finite)) if finite else nan
    return point, low, high, each
