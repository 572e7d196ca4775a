"""The structure term of the drop comparison, measured on clean counterparts (issues 32 and 41).

A clean dataset that differs from the reference only in structure (contexts cut shorter or joined longer, one
question per paragraph copy, other articles) still moves the drops, because a reader trained on it is another
reader. :func:`structure_spread` measures that spread on audits of such counterparts — in two strata by context
length — and :mod:`mrclens.scoring.against_reference` adds it to every comparison
(:meth:`mrclens.artifacts.reference.ReferenceAudit.for_shape` picks the stratum). Written into the reference by
``benchmarks/make_reference.py --structure``; checked out of sample by ``benchmarks/structure_spread.py``.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, Sequence

from mrclens.artifacts.reference import ReferenceAudit
from mrclens.artifacts.results import Results
from mrclens.metrics.bootstrap import CONFIDENCE
from mrclens.metrics.estimate import excess_spread, round_stored
from mrclens.scoring.against_reference import ablation_difference, category_se
from mrclens.scoring.model_free import SHAPE_RATIO
from mrclens.scoring.readings import weak_reader

#: The one-sided level of the structure term's upper bound where its estimate is 0
#: (:func:`structure_spread`, :func:`heterogeneity_upper_bound`). Why 80 %: the term enters every
#: comparison's error, so a bound at 95 % from a handful of counterparts (χ²'s 5 % quantile is small for
#: few degrees of freedom) would about double the MDE of a category whose counterparts show no spread at
#: all; at 80 % a spread the counterparts could have hidden four times in five is still counted.
STRUCTURE_UPPER_LEVEL = 0.8


def structure_spread(counterparts: Sequence[Results], audit: ReferenceAudit, confidence: float = CONFIDENCE,
                     upper_level: float | None = None, other_shape: Sequence[bool] | None = None
                     ) -> tuple[ReferenceAudit, dict[str, Any]]:
    """``audit`` with its structure terms measured on audits of clean structural counterparts.

    A counterpart is a dataset that differs from the reference only in structure (contexts cut
    shorter or joined longer, one question per paragraph copy, …; ``mrclens selftest``'s ``short``,
    ``long``, ``grouped`` and the clean sides of its plantings), audited with ``audit``'s reader
    profile. Each counterpart's difference from the reference, ``d_j`` (per ablation; per category the
    mean signed towards the bias), with its standard error ``s_j`` *without* a structure term, gives
    the method-of-moments estimate of the between-structure variance around 0 (DerSimonian & Laird,
    "Meta-analysis in clinical trials", 1986; centred on 0 since every counterpart is clean by
    construction): ``structure_sd² = max(mean_j(d_j²) − mean_j(s_j²), 0)``, in percentage points of relative drop
    (:func:`mrclens.metrics.estimate.excess_spread` around 0).
    Where that estimate is 0 (the counterparts differ no more than their own errors allow), the term is
    its **upper confidence bound** instead (issue 41, part 3: a few counterparts cannot show that a spread
    is absent, only that it is small): the Q-profile bound (Viechtbauer, "Confidence intervals for the
    amount of heterogeneity in meta-analysis", 2007), the ``τ²`` at which ``Q(τ²) = Σ_j d_j² / (s_j² + τ²)``
    falls to the ``1 − upper_level`` quantile of χ² with ``k`` degrees of freedom (``k`` counterparts,
    the mean fixed at 0), at one-sided level ``upper_level``; 0 when even ``Q(0)`` is below it.

    **Two strata by context length** (issue 41: a verdict tells a difference that the shape explains apart
    from one beyond it). With ``other_shape`` (one flag per counterpart: its median context length differs
    from the reference's, :attr:`mrclens.scoring.model_free.ContextShape.differs`), the terms are estimated
    separately — a subgroup analysis with its own between-study variance per subgroup (Borenstein et al.,
    *Introduction to Meta-Analysis*, 2009, ch. 19) — on the counterparts of the reference's length
    (``structure_sd``: other articles, another layout) and on those of another length
    (``structure_sd_other_shape``), so that data shaped like the reference is not given the spread of
    3-sentence windows, nor data of 3-sentence windows the spread of SQuAD's own articles alone. A stratum
    without counterparts takes the estimate from all of them. Without ``other_shape``, one term from all.

    Args:
        counterparts: the counterparts' audit results (any reference they were read against is ignored).
        audit: the reference audit of the same reader profile.
        upper_level: the one-sided level of the upper bound used where the estimate is 0
            (:data:`STRUCTURE_UPPER_LEVEL`).
        other_shape: per counterpart, whether its context length differs from the reference's (``None``:
            one stratum).

    Returns:
        ``(copy of audit with ReferenceDrop.structure_sd and ReferenceAudit.structure_sd set — and their
        ``_other_shape`` twins with ``other_shape`` —, details)``; ``details`` holds, per stratum, ablation
        and category, the counterparts' differences, standard errors and the estimate (for the reference's
        provenance).

    Raises:
        ValueError: no counterparts, or ``other_shape`` of another length than ``counterparts``.

    Examples:
        >>> from mrclens.artifacts.reference import ReferenceDrop
        >>> ref = ReferenceAudit("quick", 40.0, {}, {"e9": ReferenceDrop("relative_excess_drop", 10.0, 8.0, 12.0, 300)})
        >>> structure_spread([], ref)
        Traceback (most recent call last):
        ...
        ValueError: structure_spread needs at least one counterpart audit
    """
    if not counterparts:
        raise ValueError("structure_spread needs at least one counterpart audit")
    if other_shape is not None and len(other_shape) != len(counterparts):
        raise ValueError(f"structure_spread: {len(other_shape)} shape flags for {len(counterparts)} counterparts")
    base = replace(audit, ablations={k: replace(d, structure_sd=None, structure_sd_other_shape=None)
                                     for k, d in audit.ablations.items()},
                   structure_sd={}, structure_sd_other_shape={})
    level = STRUCTURE_UPPER_LEVEL if upper_level is None else upper_level
    if other_shape is None:
        ablations, categories, details = _spread(counterparts, base, confidence, level)
        return replace(base, ablations={k: replace(d, structure_sd=ablations.get(k)) for k, d in base.ablations.items()},
                       structure_sd=categories), details
    strata = {}
    for name, flag in (("like", False), ("other", True)):
        members = [c for c, o in zip(counterparts, other_shape) if bool(o) == flag]
        strata[name] = _spread(members or counterparts, base, confidence, level)
        strata[name][2]["pooled"] = not members
    (like_a, like_c, like_d), (other_a, other_c, other_d) = strata["like"], strata["other"]
    ablations = {k: replace(d, structure_sd=like_a.get(k), structure_sd_other_shape=other_a.get(k))
                 for k, d in base.ablations.items()}
    details = {"method": like_d["method"], "counterparts": len(counterparts),
               "strata": "the reference's context length (structure_sd) and another (structure_sd_other_shape): "
                         f"ContextShape.differs, a median {SHAPE_RATIO:g}x longer or shorter",
               "like_shape": like_d, "other_shape": other_d}
    return replace(base, ablations=ablations, structure_sd=like_c, structure_sd_other_shape=other_c), details


def _spread(counterparts: Sequence[Results], base: ReferenceAudit, confidence: float, level: float
            ) -> tuple[dict[str, float], dict[str, float], dict[str, Any]]:
    """``(term per ablation, term per category, details)`` from one set of counterparts (:func:`structure_spread`)."""
    per_ablation: dict[str, list[tuple[float, float]]] = {}
    per_category: dict[str, list[tuple[float, float]]] = {}
    for results in counterparts:
        compared = {}
        for a in results.ablations:
            got = ablation_difference(a, base, confidence)
            if got is None or weak_reader(a):
                continue
            diff = got.difference  # without a structure term
            compared[a.id] = (a, diff.value, diff.se)
            per_ablation.setdefault(a.id, []).append((diff.value, diff.se))
        for c in results.categories:
            members = [compared[i] for i in c.ablations if i in compared]
            if members:
                signed = [a.direction.toward_bias(d) for a, d, _ in members]
                se = category_se([s for _, _, s in members], 0.0)
                per_category.setdefault(c.category, []).append((sum(signed) / len(signed), se))

    def tau(pairs: list[tuple[float, float]]) -> float:
        estimate = excess_spread([d for d, _ in pairs], [s for _, s in pairs], centre=0.0).excess_sd
        return round_stored(estimate if estimate > 0 else heterogeneity_upper_bound(pairs, level))

    ablations = {k: tau(v) for k, v in per_ablation.items()}
    categories = {c: tau(pairs) for c, pairs in per_category.items()}
    details = {"method": "DerSimonian-Laird method of moments around 0: max(mean(d^2 - se^2), 0); where 0, the "
                         f"Q-profile upper bound at one-sided {100 * level:g} % (Viechtbauer 2007)",
               "counterparts": len(counterparts),
               "ablations": {k: {"structure_sd": ablations[k], "differences": [round_stored(d) for d, _ in v],
                                 "se": [round_stored(s) for _, s in v]} for k, v in per_ablation.items()},
               "categories": {c: {"structure_sd": categories[c], "differences": [round_stored(d) for d, _ in v],
                                  "se": [round_stored(s) for _, s in v]} for c, v in per_category.items()}}
    return ablations, categories, details


def heterogeneity_upper_bound(pairs: Sequence[tuple[float, float]], level: float) -> float:
    """The Q-profile upper confidence bound of the between-dataset SD ``τ`` around a mean fixed at 0.

    ``pairs``: ``(d_j, s_j)``, each counterpart's difference and its standard error (percentage points).
    Under ``d_j ~ N(0, s_j² + τ²)``, ``Q(τ²) = Σ d_j² / (s_j² + τ²)`` follows χ² with ``k = len(pairs)``
    degrees of freedom; the bound is the ``τ`` at which ``Q`` falls to χ²'s ``1 − level`` quantile (one-sided
    ``level``; Viechtbauer 2007), 0 when ``Q(0)`` is already below it. Same units as ``d_j``.

    Raises:
        ValueError: no pairs, or ``level`` outside (0, 1).

    Examples:
        >>> heterogeneity_upper_bound([(0.1, 1.0), (-0.2, 1.0)], 0.8)   # Q(0) = 0.05 < χ²₂(0.2) = 0.45
        0.0
        >>> round(heterogeneity_upper_bound([(1.0, 1.0), (-1.0, 1.0), (1.0, 1.0)], 0.8), 2)  # Q(τ²) = 3 / (1 + τ²) = 1.005
        1.41
    """
    from scipy.optimize import brentq
    from scipy.stats import chi2

    if not pairs or not 0.0 < level < 1.0:
        raise ValueError(f"heterogeneity_upper_bound needs pairs and a level in (0, 1), got {len(pairs)} pairs, {level}")
    target = chi2.ppf(1.0 - level, len(pairs))

    def q(t2: float) -> float:
        return sum(d * d / (s * s + t2) for d, s in pairs) - target

    if q(0.0) <= 0.0:
        return 0.0
    hi = max(d * d for d, _ in pairs) * len(pairs) / target + 1.0
    return math.sqrt(brentq(q, 0.0, hi))
