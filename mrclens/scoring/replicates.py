"""One set of figures from several replicates (draws of the perturbations × readers; issue 16).

:func:`combine_replicates` takes one :func:`mrclens.scoring.drops.score_all` result per replicate
and makes every drop the mean over replicates with a two-stage bootstrap CI
(:func:`mrclens.metrics.bootstrap.two_stage_bootstrap`: the questions are resampled once per
resample and shared by every replicate, then the replicates are resampled; Davison & Hinkley
1997, sec. 3.8). The generator keys are those of a single run, so one replicate gives the
single-run numbers.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Sequence

import numpy as np

from mrclens.artifacts.results import SUBSETS, AblationResult, CategoryReplicate, CategoryResult, ReplicateFigures, SubsetDrop
from mrclens.metrics.bootstrap import CONFIDENCE, N_RESAMPLES, two_stage_bootstrap
from mrclens.scoring.drops import (Member, Scored, category_drop_replicates, excess_ids, one_ablation_category,
                                   recovered_arrays)
from mrclens.scoring.sets import paired, rounded

#: How ``results.json`` names the method of the CIs over several replicates (``variance_method``).
VARIANCE_METHOD = ("two-stage bootstrap: questions resampled once per resample and shared by every draw/reader, "
                   "then draws/readers resampled with replacement (Davison & Hinkley 1997, sec. 3.8)")

#: The figures of an ablation that are ``None`` when it was not evaluated in every replicate.
_NOT_EVALUATED = dict.fromkeys((
    "exact_match", "f1", "baseline_exact_match", "baseline_f1", "em_drop", "f1_drop", "ci_low", "ci_high",
    "relative_drop", "relative_ci_low", "relative_ci_high", "control_f1_drop", "excess_drop", "excess_ci_low",
    "excess_ci_high", "excess_n", "recovered_share", "recovered_ci_low", "recovered_ci_high"))


def _spread(values: Sequence[float | None]) -> tuple[float | None, float | None, float | None]:
    """``(min, max, sample SD with ddof=1)`` of the values (``None`` when any is missing or fewer than 2)."""
    if len(values) < 2 or any(v is None for v in values):
        return None, None, None
    arr = np.asarray(values, dtype=np.float64)
    return rounded(arr.min()), rounded(arr.max()), rounded(arr.std(ddof=1))


def _mean_of(values: Sequence[float | None]) -> float | None:
    return None if not values or any(v is None for v in values) else rounded(float(np.mean(values)))


def _index_arrays(ids: Sequence[str], index: Mapping[str, int], *arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """Positions of ``ids`` in the shared question list ``index`` (ids not in it are dropped) and the arrays filtered alike."""
    keep = np.fromiter((q in index for q in ids), dtype=bool, count=len(ids))
    pos = np.fromiter((index[q] for q, k in zip(ids, keep) if k), dtype=np.int64)
    return (pos,) + tuple(a[keep] for a in arrays)


def combine_replicates(
    scored: Sequence[Scored],
    labels: Sequence[tuple[int, int]],
    *,
    seed: int = 0,
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
) -> Scored:
    """One :class:`~mrclens.scoring.drops.Scored` from the same ablations scored in several replicates
    (draws × readers; issue 16).

    Args:
        scored: one :func:`~mrclens.scoring.drops.score_all` result per replicate, readings already set
            (:func:`mrclens.scoring.readings.read_all`) so that each replicate's evidence level is kept;
            the first replicate is draw 0 of reader 0.
        labels: ``(draw, reader)`` of each replicate.
        seed, n_resamples, confidence: bootstrap settings.

    Rules: every drop (``f1_drop``, ``relative_drop``, ``excess_drop``, ``recovered_share``, a
    category's mean drop) becomes the mean over replicates with a CI from the two-stage bootstrap
    (:func:`mrclens.metrics.bootstrap.two_stage_bootstrap`,
    :func:`~mrclens.scoring.drops.category_drop_replicates`; the same generator keys as a single
    run, so one replicate gives the single-run numbers). An excess drop pairs the ablation and its
    control of the *same* replicate (same positions). The questions are those of the first
    replicate's paired items (the same question ids in every draw). EM/F1 figures are means over
    replicates; ``changed``, ``changed_only``, ``unchanged_by_reason`` and the per-set scores are
    the first replicate's. Each entry lists its per-replicate figures (``replicates``) and their
    spread (min, max, SD with ddof = 1). An ablation is evaluated only when it was evaluated in
    every replicate.

    Returns:
        a :class:`~mrclens.scoring.drops.Scored` without readings (read it again, then
        :func:`mrclens.scoring.readings.note_instability`); with one replicate, ``scored[0]`` unchanged.

    Raises:
        ValueError: ``scored`` is empty or ``labels`` has another length.
    """
    if not scored or len(scored) != len(labels):
        raise ValueError(f"need one (draw, reader) label per replicate, got {len(scored)} results and {len(labels)} labels")
    if len(scored) == 1:
        return scored[0]
    first = scored[0]
    boot = dict(seed=seed, n_resamples=n_resamples, confidence=confidence)
    by_id = [{a.id: a for a in sc.ablations} for sc in scored]
    ablations = [_combined_ablation(e0, [b.get(e0.id) for b in by_id], scored, labels, boot) for e0 in first.ablations]
    cats_by = [{c.category: c for c in sc.categories} for sc in scored]
    categories = [_combined_category(c0, [cb.get(c0.category) for cb in cats_by], scored, labels, boot)
                  for c0 in first.categories]
    combined = {a.id: a for a in ablations}
    categories = [one_ablation_category(c, combined[c.evaluated[0]])  # one ablation: its own figures (issue 44)
                  if len(c.evaluated) == 1 and c.evaluated[0] in combined and combined[c.evaluated[0]].evaluated else c
                  for c in categories]
    return Scored(first.set_scores, ablations, categories, first.infos, first.members)


def _combined_ablation(e0: AblationResult, entries: Sequence[AblationResult | None], scored: Sequence[Scored],
                       labels: Sequence[tuple[int, int]], boot: dict) -> AblationResult:
    """One ablation's entry over the replicates (``e0``: the first replicate's; ``entries``: each
    replicate's, ``None`` where it was not scored); rules in :func:`combine_replicates`."""
    out = replace(e0, reading=None, evidence=None)
    out.replicates = [
        ReplicateFigures(draw=d, reader=r, f1_drop=e.f1_drop, ci_low=e.ci_low, ci_high=e.ci_high,
                         relative_drop=e.relative_drop, excess_drop=e.excess_drop, excess_ci_low=e.excess_ci_low,
                         excess_ci_high=e.excess_ci_high, recovered_share=e.recovered_share, evidence=e.evidence)
        for e, (d, r) in zip(entries, labels) if e is not None
    ]
    failed = [(e, lab) for e, lab in zip(entries, labels) if e is None or not e.evaluated]
    if failed:
        e, (d, r) = failed[0]
        why = "not scored" if e is None else (e.reason_not_evaluated or "not evaluated")
        return replace(out, evaluated=False, reason_not_evaluated=f"draw {d}, reader {r}: {why}", **_NOT_EVALUATED)
    members = [sc.members[e0.id] for sc in scored]
    ids0 = paired(*members[0][1:])[0]
    index = {q: i for i, q in enumerate(ids0)}
    reps = []
    for _, base, pert in members:
        ids, bpos, ppos = paired(base, pert)
        reps.append(_index_arrays(ids, index, base.f1[bpos], pert.f1[ppos]))
    drop, low, high, _ = two_stage_bootstrap(reps, len(ids0), key=e0.id, **boot)
    rel, rlow, rhigh, _ = two_stage_bootstrap(reps, len(ids0), statistic="relative", key=f"{e0.id}:relative", **boot)
    out.f1_drop, out.ci_low, out.ci_high = rounded(drop), rounded(low), rounded(high)
    out.relative_drop, out.relative_ci_low, out.relative_ci_high = rounded(rel), rounded(rlow), rounded(rhigh)
    for name in ("exact_match", "f1", "baseline_exact_match", "baseline_f1", "em_drop", "control_f1_drop"):
        setattr(out, name, _mean_of([getattr(e, name) for e in entries]))
    out.f1_drop_min, out.f1_drop_max, out.f1_drop_sd = _spread([e.f1_drop for e in entries])
    cid = e0.control
    have_control = cid is not None and all(cid in sc.members for sc in scored)
    if have_control and e0.excess_drop is not None and all(e.excess_drop is not None for e in entries):
        _combine_excess(out, entries, scored, index, len(ids0), boot)
    if have_control and e0.recovered_share is not None and all(e.recovered_share is not None for e in entries):
        _combine_recovered(out, scored, index, len(ids0), boot)
    if e0.subsets is not None and all(e.subsets is not None for e in entries):
        out.subsets = _combined_subsets(e0.id, entries, members, boot)
    return out


def _combine_excess(out: AblationResult, entries: Sequence[AblationResult], scored: Sequence[Scored],
                    index: Mapping[str, int], n: int, boot: dict) -> None:
    """Set ``out``'s excess drop over the replicates: each replicate's ablation paired with its own
    control (generator key ``"<id>:excess"``), over the ``n`` questions of ``index``."""
    ex = []
    for sc in scored:
        info, base, pert = sc.members[out.id]
        control = sc.members[out.control][2]
        ids = excess_ids(info, base, pert, control, sc.infos.get(out.control))
        ex.append(_index_arrays(ids, index, control.f1[control.positions(ids)], pert.f1[pert.positions(ids)]))
    drop, low, high, _ = two_stage_bootstrap(ex, n, key=f"{out.id}:excess", **boot)
    out.excess_drop, out.excess_ci_low, out.excess_ci_high = rounded(drop), rounded(low), rounded(high)
    out.excess_drop_min, out.excess_drop_max, out.excess_drop_sd = _spread([e.excess_drop for e in entries])


def _combine_recovered(out: AblationResult, scored: Sequence[Scored], index: Mapping[str, int], n: int,
                       boot: dict) -> None:
    """Set ``out``'s recovered share over the replicates (generator key ``"<id>:recovered"``)."""
    rec = []
    for sc in scored:
        info, base, pert = sc.members[out.id]
        ids, loss_ref, loss_abl = recovered_arrays(info, base, pert, sc.members[out.control][2])
        rec.append(_index_arrays(ids, index, loss_ref, loss_abl))
    share, low, high, _ = two_stage_bootstrap(rec, n, statistic="relative", key=f"{out.id}:recovered", **boot)
    out.recovered_share, out.recovered_ci_low, out.recovered_ci_high = rounded(share), rounded(low), rounded(high)


def _combined_category(c0: CategoryResult, entries: Sequence[CategoryResult | None], scored: Sequence[Scored],
                       labels: Sequence[tuple[int, int]], boot: dict) -> CategoryResult:
    """One bias category's entry over the replicates: the mean drop of the ablations evaluated in every
    replicate, with the two-stage CI (:func:`~mrclens.scoring.drops.category_drop_replicates`)."""
    done = [a for a in c0.evaluated if all(a in sc.members for sc in scored)]
    drop, low, high, each = category_drop_replicates([[sc.members[a] for a in done] for sc in scored],
                                                     key=f"category:{c0.category}", **boot)
    mn, mx, sd = _spread(each) if done else (None, None, None)
    subsets = c0.subsets
    if subsets is not None and done:  # SQuAD v2.0: the combined drop over each subset
        subsets = {}
        for sub, first_sub in c0.subsets.items():
            d, lo, hi, _ = category_drop_replicates([[sc.members[a] for a in done] for sc in scored], subset=sub,
                                                    key=f"category:{c0.category}:{sub}", **boot)
            subsets[sub] = replace(first_sub, f1_drop=rounded(d), ci_low=rounded(lo), ci_high=rounded(hi))
    return replace(
        c0, evaluated=done, f1_drop=rounded(drop), ci_low=rounded(low), ci_high=rounded(high), reading=None, evidence=None,
        replicates=[CategoryReplicate(draw=d, reader=r, f1_drop=e.f1_drop, ci_low=e.ci_low, ci_high=e.ci_high,
                                      evidence=e.evidence) for e, (d, r) in zip(entries, labels) if e is not None],
        f1_drop_min=mn, f1_drop_max=mx, f1_drop_sd=sd, subsets=subsets)


def _combined_subsets(aid: str, entries: Sequence[AblationResult], members: Sequence[Member],
                      boot: dict) -> dict[str, SubsetDrop]:
    """An ablation's HasAns/NoAns figures over several replicates: EM/F1 means over replicates and the
    two-stage bootstrap drop restricted to each subset's paired questions (generator keys
    ``"<id>:HasAns"`` / ``"<id>:NoAns"``, as :func:`~mrclens.scoring.drops.subset_drops`; one
    replicate gives its numbers)."""
    out = {}
    for name in SUBSETS:
        subs = [e.subsets.get(name) for e in entries]
        first = subs[0]
        if first is None or not first.n or any(s is None for s in subs):
            if first is not None:
                out[name] = first
            continue
        reps, index = [], None
        for _, base, pert in members:
            ids, bpos, ppos = paired(base, pert)
            mask = base.subset_masks()[name][bpos]
            sub_ids = [q for q, keep in zip(ids, mask) if keep]
            if index is None:
                index = {q: i for i, q in enumerate(sub_ids)}
            reps.append(_index_arrays(sub_ids, index, base.f1[bpos][mask], pert.f1[ppos][mask]))
        drop, low, high, _ = two_stage_bootstrap(reps, len(index), key=f"{aid}:{name}", **boot)
        means = {f: _mean_of([getattr(s, f) for s in subs])
                 for f in ("exact_match", "f1", "baseline_exact_match", "baseline_f1")}
        out[name] = replace(first, f1_drop=rounded(drop), ci_low=rounded(low), ci_high=rounded(high), **means)
    return out
