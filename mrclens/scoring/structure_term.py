"""The structure term of the drop comparison, measured on clean counterparts (issues 32 and 41).

A clean dataset that differs from the reference only in structure (contexts cut shorter or joined longer, one
question per paragraph copy, other articles) still moves the drops, because a reader trained on it is another
reader. :func:`structure_spread` measures that spread on audits of such counterparts — in two strata by context
length — and :mod:`mrclens.scoring.against_reference` adds it to every comparison
(:meth:`mrclens.artifacts.reference.ReferenceAudit.for_shape` picks the stratum). Written into the reference by
``benchmarks/make_reference.py --structure`` (and estimated again from the differences the file keeps by
``--restructure``, :func:`restructure`); checked out of sample by ``benchmarks/structure_spread.py``.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, Sequence

from mrclens.artifacts.reference import ReferenceAudit
from mrclens.artifacts.results import Results
from mrclens.metrics.bootstrap import CONFIDENCE
from mrclens.metrics.estimate import round_stored
from mrclens.scoring.against_reference import ablation_difference, category_se
from mrclens.scoring.model_free import SHAPE_RATIO
from mrclens.scoring.readings import weak_reader

#: The one-sided level of the structure term, the Q-profile upper bound of the between-structure SD
#: (:func:`structure_spread`, :func:`heterogeneity_upper_bound`). Why 80 %: the term enters every
#: comparison's error, so a bound at 95 % from a handful of counterparts (χ²'s 5 % quantile is small for
#: few degrees of freedom) would about double the MDE of a category whose counterparts show no spread at
#: all; at 80 % a spread the counterparts could have hidden four times in five is still counted.
#: Why a bound everywhere rather than the method-of-moments estimate where that is above 0 (issue 54, item 4):
#: the switch was not monotone — counterparts whose mean ``d²`` exceeded their ``se²`` by a hair got a much
#: smaller term than counterparts just below it (1.95 against 0.10 points); the bound grows with every ``|d_j|``
#: and is continuous.
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
    the between-structure SD around 0 (centred on 0 since every counterpart is clean by construction) as its
    **upper confidence bound** (issue 41, part 3: a few counterparts cannot show that a spread is absent, only
    that it is small): the Q-profile bound (Viechtbauer, "Confidence intervals for the amount of heterogeneity in
    meta-analysis", 2007; :func:`heterogeneity_upper_bound`), the ``τ²`` at which
    ``Q(τ²) = Σ_j d_j² / (s_j² + τ²)`` falls to the ``1 − upper_level`` quantile of χ² with ``k`` degrees of
    freedom (``k`` counterparts, the mean fixed at 0), at one-sided level ``upper_level``; 0 when even ``Q(0)`` is
    below it. In percentage points of relative drop. The bound is used everywhere, not only where the
    method-of-moments estimate (DerSimonian & Laird 1986) is 0 (issue 54, item 4): it never falls when a
    counterpart's ``|d_j|`` grows, and it is continuous (:data:`STRUCTURE_UPPER_LEVEL`). The audit records how
    many counterparts each stratum's terms come from (``structure_counterparts``: a comparison reads the term with
    that many less one degrees of freedom, :attr:`~mrclens.artifacts.reference.ReferenceAudit.structure_df`).

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
        upper_level: the one-sided level of the upper bound (:data:`STRUCTURE_UPPER_LEVEL`).
        other_shape: per counterpart, whether its context length differs from the reference's (``None``:
            one stratum).

    Returns:
        ``(copy of audit with ReferenceDrop.structure_sd, ReferenceAudit.structure_sd and
        ReferenceAudit.structure_counterparts set — and their ``_other_shape`` twins with ``other_shape`` —,
        details)``; ``details`` holds, per stratum, ablation
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
                       structure_sd=categories, structure_counterparts=len(counterparts),
                       structure_counterparts_other_shape=None), details
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
    return replace(base, ablations=ablations, structure_sd=like_c, structure_sd_other_shape=other_c,
                   structure_counterparts=like_d["counterparts"],
                   structure_counterparts_other_shape=other_d["counterparts"]), details


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

    ablations = {k: structure_term(v, level) for k, v in per_ablation.items()}
    categories = {c: structure_term(pairs, level) for c, pairs in per_category.items()}
    details = {"method": method(level), "counterparts": len(counterparts),
               "ablations": {k: {"structure_sd": ablations[k], "differences": [round_stored(d) for d, _ in v],
                                 "se": [round_stored(s) for _, s in v]} for k, v in per_ablation.items()},
               "categories": {c: {"structure_sd": categories[c], "differences": [round_stored(d) for d, _ in v],
                                  "se": [round_stored(s) for _, s in v]} for c, v in per_category.items()}}
    return ablations, categories, details


def method(level: float) -> str:
    """The words naming the rule of :func:`structure_term` at ``level``, as the reference's provenance records it."""
    return (f"Q-profile upper bound of the between-structure SD around 0 at one-sided {100 * level:g} % "
            "(Viechtbauer 2007), everywhere (monotone in every |d|; issue 54)")


def structure_term(pairs: Sequence[tuple[float, float]], level: float = STRUCTURE_UPPER_LEVEL) -> float:
    """One structure term from ``pairs`` of ``(d_j, s_j)`` (percentage points of relative drop): the Q-profile upper
    bound at ``level`` (:func:`heterogeneity_upper_bound`), stored to 4 decimals. Never lower when any ``|d_j|``
    grows (issue 54, item 4).

    >>> structure_term([(1.0, 1.0), (-1.0, 1.0), (1.0, 1.0)])   # 3 / (1 + τ²) = χ²₃(0.2) = 1.0052
    1.4087

    Raises:
        ValueError: no pairs, or ``level`` outside (0, 1).
    """
    return round_stored(heterogeneity_upper_bound(pairs, level))


def restructure(audit: ReferenceAudit, level: float = STRUCTURE_UPPER_LEVEL) -> tuple[ReferenceAudit, list[str]]:
    """``audit`` with its structure terms estimated again by :func:`structure_term` from the counterparts'
    differences and standard errors its provenance keeps (``provenance["structure"]``, as :func:`structure_spread`
    wrote them: per stratum ``like_shape`` / ``other_shape``, or one stratum, its ``ablations`` and ``categories``
    with ``differences`` and ``se``), without the counterparts' audits (``benchmarks/make_reference.py
    --restructure``). Each re-estimated stratum's ``method`` and ``structure_sd`` entries in the provenance are
    updated, and its counterparts counted (``structure_counterparts``: its ``counterparts`` entry, else the most
    differences a category holds). A stratum without kept differences (one
    borrowed from another profile, marked ``measured_with_profile``) keeps its terms and provenance.

    Returns:
        ``(audit, the strata re-estimated)``: ``"like_shape"``, ``"other_shape"`` or ``"all"`` (one stratum).

    Raises:
        ValueError: an item of a stratum has no differences, or not as many standard errors (the message names
            profile, stratum and item).
    """
    held = audit.provenance.get("structure", {})
    strata = ([("all", "structure_sd", "structure_counterparts", held)] if "categories" in held else
              [(name, attr, count, held.get(name, {})) for name, attr, count in
               (("like_shape", "structure_sd", "structure_counterparts"),
                ("other_shape", "structure_sd_other_shape", "structure_counterparts_other_shape"))])
    done, details = [], dict(held)
    for name, attr, count, block in strata:
        if "categories" not in block:
            continue
        block = dict(block)
        for kind in ("ablations", "categories"):
            items = {}
            for key, item in block.get(kind, {}).items():
                if len(item["differences"]) != len(item["se"]) or not item["differences"]:
                    raise ValueError(f"the {audit.profile} audit's structure stratum {name}, {kind[:-1]} {key}: "
                                     f"{len(item['differences'])} differences and {len(item['se'])} standard errors")
                items[key] = {**item, "structure_sd": structure_term(list(zip(item["differences"], item["se"])), level)}
            block[kind] = items
        k = block.get("counterparts") or max(len(v["differences"]) for v in block["categories"].values())
        block["method"] = method(level)
        cats = {c: v["structure_sd"] for c, v in block["categories"].items()}
        drops = {i: replace(d, **{attr: block["ablations"][i]["structure_sd"]}) if i in block["ablations"] else d
                 for i, d in audit.ablations.items()}
        audit = replace(audit, ablations=drops, **{attr: cats, count: k})
        if name == "all":
            details = block
        else:
            details[name] = block
            details["method"] = method(level)
        done.append(name)
    return replace(audit, provenance={**audit.provenance, "structure": details}), done


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
