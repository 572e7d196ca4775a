"""F1 drop per ablation and per bias category, with paired bootstrap CIs (one run of predictions).

This is the one implementation of the MRCLens numbers; ``mrclens audit`` (built-in baseline)
and ``mrclens evaluate PERTURBED_DIR --predictions-dir`` (any model) both go through it
(:func:`mrclens.scoring.evaluate.evaluate_perturbed`). Per-question scores come from
:mod:`mrclens.scoring.sets`; several draws / readers are combined by :mod:`mrclens.scoring.replicates`.
The ablations scored are the perturbation manifest's entries
(:class:`~mrclens.artifacts.manifest.AblationEntry`: the ablation's metadata and what it changed).

Rules:

* Per-question EM and F1 are the official SQuAD ones (:func:`mrclens.scoring.sets.score_set`):
  a question without a prediction scores 0 and counts; predictions for ids that are not in the
  set are ignored and counted (``unknown``).
* The **F1 drop** of an ablation is ``F1(baseline set) - F1(ablation set)`` in percentage points,
  over the questions the two sets share (the *paired* items): the full original set for e3–e5,
  the truncated original for e1, e2, e6–e8 (``baseline_set`` in the perturbation manifest).
  It is also given over the items the ablation actually changed (``changed_only``, from the
  manifest's per-item records). A positive drop means the perturbation hurt the model.
* **Confidence intervals** are paired bootstrap percentile intervals (:mod:`mrclens.metrics.bootstrap`);
  the generator key is the ablation id (``"<id>:changed"`` for the changed-only subset).
* **SQuAD v2.0 subsets**: when a set has unanswerable questions, its EM/F1 are also given over
  ``HasAns`` (questions with a gold answer) and ``NoAns`` (questions without; official
  ``evaluate-v2.0.py`` rule, :mod:`mrclens.metrics.official`), and every ablation's drop is also
  given per subset with the paired bootstrap restricted to that subset's paired questions
  (generator keys ``"<id>:HasAns"`` / ``"<id>:NoAns"``). A question's subset is that of the
  ablation's baseline set (perturbations keep the gold answers). Data without unanswerable
  questions gets none of these figures.
* A **bias category's** drop is the mean of its evaluated ablations' drops. Its CI resamples
  questions jointly: in each resample one multiset of question ids is drawn per baseline set and
  every ablation of the category that compares with that set uses it (weights = how often each
  of its paired items was drawn), so the correlation between ablations that share questions is
  kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping, Sequence

import numpy as np

from mrclens.artifacts.ablation import AblationMeta
from mrclens.artifacts.manifest import AblationEntry
from mrclens.artifacts.results import (
    SUBSETS,
    AblationResult,
    CategoryResult,
    ChangedOnly,
    SetResult,
    SubsetDrop,
)
from mrclens.metrics.bootstrap import (
    CONFIDENCE,
    N_RESAMPLES,
    mean_of_picked,
    paired_bootstrap_drop,
    paired_bootstrap_relative_drop,
    percentile_interval,
    resample_counts,
    stable_rng,
)
from mrclens.scoring.sets import SetScores, paired, percent, rounded, score_set
from mrclens.squad import Dataset

#: ``(ablation's manifest entry, baseline set scores, ablation set scores)``: one scored ablation.
Member = tuple[AblationEntry, SetScores, SetScores]


def changed_ids_of(ablation: AblationMeta | None) -> set[str] | None:
    """Ids of the questions ``ablation`` changed: from its manifest records when it is an
    :class:`~mrclens.artifacts.manifest.AblationEntry` that has them, else ``None``."""
    return ablation.changed_ids() if isinstance(ablation, AblationEntry) else None


def score_ablation(
    info: AblationEntry,
    base: SetScores,
    pert: SetScores,
    *,
    seed: int = 0,
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
) -> AblationResult:
    """The ``results.json`` entry of one ablation (without ``reading``).

    Args:
        info: the ablation's manifest entry (its metadata and what it changed).
        base: scores on its baseline set; pert: scores on the ablation set.
        seed: bootstrap seed; the generator key is the ablation id (``"<id>:changed"`` for the
            changed-only subset).

    Returns:
        an :class:`~mrclens.artifacts.results.AblationResult`: EM/F1 in percent, drops and CI
        bounds in percentage points (rounded to 4 decimals), ``n`` = paired items. When either
        set was not evaluated, ``evaluated`` is False, ``reason_not_evaluated`` says why and the
        numbers are ``None``.
    """
    changed_ids = info.changed_ids()
    out = AblationResult(
        id=info.id, name=info.name, category=info.category, eval_set=info.eval_set, baseline_set=info.baseline_set,
        bias_signal=info.bias_signal, description=info.description, evaluated=False, n=pert.n,
        changed=info.changed if changed_ids is None else len(changed_ids & set(pert.ids)),
        unchanged_by_reason=dict(info.unchanged), control_of=info.control_of,
    )
    missing = [s for s in (base, pert) if not s.evaluated]
    if missing:
        out.reason_not_evaluated = "; ".join(f"{s.name}: {s.reason}" for s in missing)
        return out
    ids, bpos, ppos = paired(base, pert)
    out.n = len(ids)
    out.unpaired = pert.n - len(ids)
    if not ids:
        out.reason_not_evaluated = f"{pert.name} shares no question id with {base.name}"
        return out
    b_f1, p_f1 = base.f1[bpos], pert.f1[ppos]
    b_em, p_em = base.em[bpos], pert.em[ppos]
    drop, low, high = paired_bootstrap_drop(b_f1, p_f1, seed=seed, key=info.id, n_resamples=n_resamples, confidence=confidence)
    out.evaluated = True
    out.exact_match = rounded(percent(p_em))
    out.f1 = rounded(percent(p_f1))
    out.baseline_exact_match = rounded(percent(b_em))
    out.baseline_f1 = rounded(percent(b_f1))
    out.em_drop = rounded(percent(b_em) - percent(p_em))
    out.f1_drop = rounded(drop)
    out.ci_low = rounded(low)
    out.ci_high = rounded(high)
    rel, rel_low, rel_high = paired_bootstrap_relative_drop(b_f1, p_f1, seed=seed, key=f"{info.id}:relative",
                                                            n_resamples=n_resamples, confidence=confidence)
    out.relative_drop, out.relative_ci_low, out.relative_ci_high = rounded(rel), rounded(rel_low), rounded(rel_high)
    if changed_ids is not None:
        mask = np.fromiter((q in changed_ids for q in ids), dtype=bool, count=len(ids))
        c_drop, c_low, c_high = paired_bootstrap_drop(
            b_f1[mask], p_f1[mask], seed=seed, key=f"{info.id}:changed", n_resamples=n_resamples, confidence=confidence
        )
        out.changed_only = ChangedOnly(
            n=int(mask.sum()),
            f1=rounded(percent(p_f1[mask])) if mask.any() else None,
            baseline_f1=rounded(percent(b_f1[mask])) if mask.any() else None,
            f1_drop=rounded(c_drop),
            ci_low=rounded(c_low),
            ci_high=rounded(c_high),
        )
    out.subsets = subset_drops(info.id, base, bpos, b_em, b_f1, p_em, p_f1, seed=seed, n_resamples=n_resamples,
                               confidence=confidence)
    return out


def subset_drops(key: str, base: SetScores, bpos: np.ndarray, b_em: np.ndarray, b_f1: np.ndarray,
                 p_em: np.ndarray, p_f1: np.ndarray, *, seed: int = 0, n_resamples: int = N_RESAMPLES,
                 confidence: float = CONFIDENCE) -> dict[str, SubsetDrop] | None:
    """An ablation's HasAns/NoAns figures: its paired drop and CI over each subset's questions.

    Args:
        key: the ablation id (bootstrap generator keys ``"<key>:HasAns"``, ``"<key>:NoAns"``).
        base: the baseline set's scores (its :attr:`SetScores.has_answer` decides the subsets).
        bpos: ``(n_paired,)`` positions of the paired questions in ``base``.
        b_em, b_f1, p_em, p_f1: ``(n_paired,)`` per-question EM/F1 (0–1) on the baseline and the
            ablation set, paired.

    Returns:
        ``{"HasAns": SubsetDrop, "NoAns": SubsetDrop}`` (percent / percentage points; ``None``
        numbers for a subset without paired questions), or ``None`` when ``base`` has no
        unanswerable question.
    """
    if base.has_answer is None:
        return None
    has = base.has_answer[bpos]
    out = {}
    for name, mask in (("HasAns", has), ("NoAns", ~has)):
        n = int(mask.sum())
        if n == 0:
            out[name] = SubsetDrop(n=0)
            continue
        drop, low, high = paired_bootstrap_drop(b_f1[mask], p_f1[mask], seed=seed, key=f"{key}:{name}",
                                                n_resamples=n_resamples, confidence=confidence)
        out[name] = SubsetDrop(n=n, exact_match=rounded(percent(p_em[mask])), f1=rounded(percent(p_f1[mask])),
                               baseline_exact_match=rounded(percent(b_em[mask])), baseline_f1=rounded(percent(b_f1[mask])),
                               f1_drop=rounded(drop), ci_low=rounded(low), ci_high=rounded(high))
    return out


def excess_ids(ablation: AblationMeta, base: SetScores, pert: SetScores, control: SetScores,
               control_info: AblationMeta | None) -> list[str]:
    """The questions an excess drop pairs (rule in :func:`excess_drop`). The ablation and its control
    are manifest entries, or metadata only (then nothing is known of what they changed)."""
    ids = [q for q in pert.ids if q in base and q in control]
    changed, control_changed = changed_ids_of(ablation), changed_ids_of(control_info)
    if changed is not None and control_changed is not None:
        ids = [q for q in ids if q in control_changed or q not in changed]
    return ids


def _recovered_ids(ablation: AblationEntry, base: SetScores, pert: SetScores, control: SetScores) -> list[str]:
    """The questions a recovered share is computed on (rule in :func:`recovered_share`)."""
    ids = [q for q in pert.ids if q in base and q in control]
    changed = ablation.changed_ids()
    if changed is not None:
        ids = [q for q in ids if q in changed]
    return ids


def recovered_arrays(ablation: AblationEntry, base: SetScores, pert: SetScores,
                     control: SetScores) -> tuple[list[str], np.ndarray, np.ndarray]:
    """``(ids, b - c, b - a)``: the reference's and the ablation's per-question losses (0–1 scale)."""
    ids = _recovered_ids(ablation, base, pert, control)
    b = base.f1[base.positions(ids)]
    return ids, b - control.f1[control.positions(ids)], b - pert.f1[pert.positions(ids)]


def recovered_share(
    ablation: AblationEntry,
    base: SetScores,
    pert: SetScores,
    reference: SetScores,
    *,
    seed: int = 0,
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
) -> tuple[float, float, float, int]:
    """How much of the F1 lost without the information an ablation reduces its kept part recovers (issue 16).

    For e4 (interrogative words only) and its reference c4 (no question at all):
    ``100 * (F1(e4) - F1(c4)) / (F1(original) - F1(c4))``, i.e. ``100 * (1 - drop(e4) / drop(c4))``
    over the same questions: 100 % means the wh-words alone answer as well as the whole question,
    0 % that they are worth nothing beyond no question. Computed over the questions the ablation
    changed (a question e4 leaves whole would "recover" everything trivially; all paired
    questions when the manifest has no per-item records). The CI is the paired bootstrap of
    this ratio of sums (:func:`mrclens.metrics.bootstrap.paired_bootstrap_relative_drop` on
    ``b - c`` and ``b - a``, key ``"<id>:recovered"``; resamples whose reference loss is not
    positive are left out).

    Returns:
        ``(share, ci_low, ci_high, n questions)`` in percent; ``nan`` numbers when the reference
        loses nothing or no question is shared.
    """
    ids, loss_ref, loss_abl = recovered_arrays(ablation, base, pert, reference)
    if not ids or loss_ref.sum() <= 0:
        nan = float("nan")
        return nan, nan, nan, len(ids)
    share, low, high = paired_bootstrap_relative_drop(loss_ref, loss_abl, seed=seed, key=f"{ablation.id}:recovered",
                                                      n_resamples=n_resamples, confidence=confidence)
    return share, low, high, len(ids)


def excess_drop(
    ablation: AblationEntry,
    base: SetScores,
    pert: SetScores,
    control: SetScores,
    *,
    control_info: AblationEntry | None = None,
    seed: int = 0,
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
) -> tuple[float, float, float, int]:
    """The ablation's drop minus its control's, paired by question, with a paired bootstrap CI.

    Over the questions in the baseline, ablation and control sets alike, the per-question excess
    is ``(b - a) - (b - c) = c - a`` (F1 on the control minus F1 on the ablation, in points);
    the generator key is ``"<ablation id>:excess"``. A question the ablation changed but its
    control could not (no unrelated text found) is left out, since there the pair would differ in
    more than what is inserted (needs the manifest's per-item records of both).

    Returns:
        ``(excess drop, ci_low, ci_high, n paired questions)`` in percentage points; ``nan``
        numbers when no question is shared.
    """
    ids = excess_ids(ablation, base, pert, control, control_info)
    a = pert.f1[pert.positions(ids)]
    c = control.f1[control.positions(ids)]
    drop, low, high = paired_bootstrap_drop(c, a, seed=seed, key=f"{ablation.id}:excess", n_resamples=n_resamples,
                                            confidence=confidence)
    return drop, low, high, len(ids)


def category_drop(
    members: Sequence[Member],
    *,
    seed: int = 0,
    key: str = "",
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
    subset: str | None = None,
) -> tuple[float, float, float]:
    """Mean F1 drop of a category's ablations with a joint paired bootstrap CI (percentage points).

    Args:
        members: ``(info, baseline scores, ablation scores)`` for each evaluated ablation.
        seed, key: seed the generator (:func:`stable_rng`; the key is the category name).
        subset: ``"HasAns"`` or ``"NoAns"``: each ablation's drop over that SQuAD v2.0 subset of its
            paired questions only (the baseline set's :attr:`SetScores.has_answer`); the resampling
            is the same joint draw, each ablation's drop being the draw-weighted mean over its
            subset's items. ``None``: all questions.

    In each resample, the questions of each baseline set are drawn once with replacement; each
    ablation's drop is the draw-weighted mean of its paired per-question differences, and the
    category's drop is the mean over ablations. Resamples in which an ablation drew none of its
    items (possible only for tiny sets) are left out of the percentiles.

    Returns:
        ``(drop, ci_low, ci_high)``; all ``nan`` when ``members`` is empty.
    """
    point, low, high, _ = category_drop_replicates([members] if members else [], seed=seed, key=key,
                                                   n_resamples=n_resamples, confidence=confidence, subset=subset)
    return point, low, high


def category_drop_replicates(
    replicates: Sequence[Sequence[Member]],
    *,
    seed: int = 0,
    key: str = "",
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
    subset: str | None = None,
) -> tuple[float, float, float, list[float]]:
    """:func:`category_drop` over repeated draws / readers, with the two-stage bootstrap.

    Args:
        replicates: per replicate (draw or reader), the category's ``(info, baseline scores,
            ablation scores)`` members, the same ablations in each; every replicate's baseline
            sets hold the same questions in the same order (they are one set, predicted by
            one or several readers).
        subset: ``"HasAns"`` / ``"NoAns"`` (SQuAD v2.0): only that subset's paired questions, as in
            :func:`category_drop`; ``None``: all questions.

    The questions of each baseline set are drawn once per resample and shared by all replicates
    (the joint resampling of :func:`category_drop`); then the replicates are drawn with
    replacement and the resample's value is the mean of their category drops
    (:func:`mrclens.metrics.bootstrap.two_stage_bootstrap`, same generator keys). With one
    replicate the numbers are exactly :func:`category_drop`'s.

    Returns:
        ``(mean drop over replicates, ci_low, ci_high, per-replicate category drops)``; ``nan``
        numbers when there is no member.
    """
    if not replicates or not replicates[0]:
        nan = float("nan")
        return nan, nan, nan, []
    # Per baseline set: its size and, per replicate, (positions in base, differences) of each member.
    by_base: dict[str, tuple[int, list[list[tuple[np.ndarray, np.ndarray]]]]] = {}
    each = []
    for r, members in enumerate(replicates):
        point = []
        for info, base, pert in members:
            _, bpos, ppos = paired(base, pert)
            if subset is not None:
                keep = base.subset_masks()[subset][bpos]
                bpos, ppos = bpos[keep], ppos[keep]
                if not len(bpos):
                    nan = float("nan")
                    return nan, nan, nan, []
            diff = 100.0 * (base.f1[bpos] - pert.f1[ppos])
            point.append(float(diff.mean()))
            entry = by_base.setdefault(base.name, (base.n, [[] for _ in replicates]))
            entry[1][r].append((bpos, diff))
        each.append(float(np.mean(point)))
    rng, pick_rng = stable_rng(seed, key), stable_rng(seed, key + ":replicates")
    generators = {name: resample_counts(rng, n, n_resamples) for name, (n, _) in sorted(by_base.items())}
    chunks = []
    done = 0
    while done < n_resamples:
        sums = [None] * len(replicates)
        for name, (_, per_rep) in sorted(by_base.items()):
            counts = next(generators[name])
            for r, parts in enumerate(per_rep):
                for bpos, diff in parts:
                    w = counts[:, bpos]
                    total = w.sum(axis=1)
                    with np.errstate(invalid="ignore", divide="ignore"):
                        d = (w @ diff) / total
                    sums[r] = d if sums[r] is None else sums[r] + d
        per_rep_values = np.stack([s / len(m) for s, m in zip(sums, replicates)], axis=1)
        chunks.append(mean_of_picked(per_rep_values, pick_rng))
        done += chunks[-1].shape[0]
    low, high = percentile_interval(np.concatenate(chunks), confidence)
    return float(np.mean(each)), low, high, each


def score_categories(
    ablation_results: Sequence[AblationResult],
    members: Mapping[str, Member],
    category_order: Sequence[str] | None = None,
    *,
    seed: int = 0,
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
) -> list[CategoryResult]:
    """The ``categories`` entries of ``results.json`` (without ``reading``).

    Args:
        ablation_results: entries from :func:`score_ablation`, in report order.
        members: ``{ablation id: (info, baseline scores, ablation scores)}``.
        category_order: category names in report order (others follow in first-seen order).

    Matched controls (``control_of`` set) belong to no category aggregate.

    Returns:
        one :class:`~mrclens.artifacts.results.CategoryResult` per category: ``ablations`` (all its
        ids), ``evaluated`` (the ids that were evaluated), ``f1_drop``, ``ci_low``, ``ci_high``
        (percentage points; ``None`` when none of its ablations was evaluated).
    """
    names: list[str] = list(category_order or [])
    ablation_results = [r for r in ablation_results if r.control_of is None]  # controls are read with their ablation
    for r in ablation_results:
        if r.category not in names:
            names.append(r.category)
    out = []
    for name in names:
        ids = [r.id for r in ablation_results if r.category == name]
        if not ids:
            continue
        done = [r.id for r in ablation_results if r.category == name and r.evaluated]
        if len(done) == 1:  # one ablation: its own figures, drawn once (issue 44)
            entry = one_ablation_category(CategoryResult(name, ids, done, None, None, None),
                                          next(r for r in ablation_results if r.id == done[0]))
            out.append(entry)
            continue
        drop, low, high = category_drop(
            [members[i] for i in done], seed=seed, key=f"category:{name}", n_resamples=n_resamples, confidence=confidence
        )
        entry = CategoryResult(category=name, ablations=ids, evaluated=done, f1_drop=rounded(drop),
                               ci_low=rounded(low), ci_high=rounded(high))
        if done and all(members[i][1].has_answer is not None for i in done):  # SQuAD v2.0: per subset
            entry.subsets = {}
            for sub in SUBSETS:
                d, lo, hi = category_drop([members[i] for i in done], seed=seed, key=f"category:{name}:{sub}",
                                          n_resamples=n_resamples, confidence=confidence, subset=sub)
                entry.subsets[sub] = SubsetDrop(n=sum(int(members[i][1].subset_masks()[sub][paired(*members[i][1:])[1]].sum())
                                                      for i in done),
                                                f1_drop=rounded(d), ci_low=rounded(lo), ci_high=rounded(hi))
        out.append(entry)
    return out


def one_ablation_category(category: CategoryResult, ablation: AblationResult) -> CategoryResult:
    """A category of one evaluated ablation with that ablation's drop and interval (and its HasAns/NoAns ones):
    the mean over one ablation is its drop, and drawing its interval again from another random stream (the
    category's generator key) gave the same figure two intervals (issue 44: ``14.5 [1.4, 27.5]`` for Position,
    ``14.5 [1.4, 30.4]`` for e9 on a 2-article run). Returns a copy."""
    subsets = None
    if ablation.subsets is not None:
        subsets = {name: SubsetDrop(n=sub.n, f1_drop=sub.f1_drop, ci_low=sub.ci_low, ci_high=sub.ci_high)
                   for name, sub in ablation.subsets.items()}
    return replace(category, f1_drop=ablation.f1_drop, ci_low=ablation.ci_low, ci_high=ablation.ci_high,
                   subsets=subsets)


@dataclass
class Scored:
    """Everything :func:`score_all` computes: per-question scores and the typed results entries.

    Attributes:
        set_scores: ``{set name: SetScores}`` (per-question EM/F1, arrays of shape ``(n_questions,)``).
        ablations: one entry per ablation, in report order (no readings yet).
        categories: one entry per bias category (no readings yet).
        infos: ``{ablation id: AblationEntry}`` it was scored with.
        members: ``{ablation id: (info, baseline scores, ablation scores)}`` of the evaluated ablations.
    """

    set_scores: dict[str, SetScores]
    ablations: list[AblationResult]
    categories: list[CategoryResult]
    infos: dict[str, AblationEntry] = field(default_factory=dict)
    members: dict[str, Member] = field(default_factory=dict)

    def set_results(self, files: Mapping[str, str]) -> dict[str, SetResult]:
        """``{set name: SetResult}`` with each set's file name from ``files`` (``None`` if absent)."""
        return {name: s.to_result(files.get(name)) for name, s in self.set_scores.items()}


def score_all(
    datasets: Mapping[str, Dataset],
    predictions: Mapping[str, Mapping[str, str] | None],
    ablations: Sequence[AblationEntry],
    *,
    category_order: Sequence[str] | None = None,
    seed: int = 0,
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
    missing_reasons: Mapping[str, str] | None = None,
) -> Scored:
    """Score every set, ablation and category (the numbers of ``results.json``, without readings).

    Args:
        datasets: ``{set name: Dataset}`` for the baseline sets and every ablation set.
        predictions: ``{set name: {question id: answer text}}``; a set absent or ``None`` here is
            not evaluated (and neither are the ablations that need it).
        ablations: the ablations to score, in report order.
        category_order: bias categories in report order.
        missing_reasons: ``{set name: why there are no predictions}`` for the ``reason`` texts.

    Raises:
        KeyError: an ablation or its baseline set has no dataset.
    """
    missing_reasons = dict(missing_reasons or {})
    needed = list(datasets)
    for info in ablations:
        for name in (info.baseline_set, info.id):
            if name not in needed:
                needed.append(name)
    scores = {
        name: score_set(name, datasets[name], predictions.get(name), reason=missing_reasons.get(name))
        for name in needed
    }
    if not any(s.has_answer is not None and not s.has_answer.all() for s in scores.values()):
        for s in scores.values():  # no unanswerable question anywhere: no HasAns/NoAns figures
            s.has_answer = s.abstained = None
    results = []
    members = {}
    for info in ablations:
        entry = score_ablation(info, scores[info.baseline_set], scores[info.id], seed=seed, n_resamples=n_resamples, confidence=confidence)
        results.append(entry)
        if entry.evaluated:
            members[info.id] = (info, scores[info.baseline_set], scores[info.id])
    _link_controls(ablations, results, scores, members, seed=seed, n_resamples=n_resamples, confidence=confidence)
    categories = score_categories(results, members, category_order, seed=seed, n_resamples=n_resamples, confidence=confidence)
    return Scored(scores, results, categories, {i.id: i for i in ablations}, members)


def _link_controls(ablations: Sequence[AblationEntry], results: Sequence[AblationResult], scores: Mapping[str, SetScores],
                   members: Mapping[str, Member], *, seed: int, n_resamples: int, confidence: float) -> None:
    """Give each ablation with a scored matched control its ``control``, ``control_f1_drop`` and
    excess drop (:func:`excess_drop`), or, for a reference (``small_drop``: c4 of e4), its
    recovered share (:func:`recovered_share`). Changes ``results`` in place."""
    by_id = {r.id: r for r in results}
    boot = dict(seed=seed, n_resamples=n_resamples, confidence=confidence)
    for info in ablations:
        if info.control_of is None or info.control_of not in by_id:
            continue
        target = by_id[info.control_of]
        target.control = info.id
        control = by_id[info.id]
        if not (target.evaluated and control.evaluated and control.changed != 0):
            continue
        target.control_f1_drop = control.f1_drop
        base, pert, ref = scores[target.baseline_set], scores[target.id], scores[info.id]
        if target.direction.removes_information:  # a reference (c4): the loss with the information removed entirely
            share, low, high, _ = recovered_share(members[target.id][0], base, pert, ref, **boot)
            target.recovered_share, target.recovered_ci_low, target.recovered_ci_high = rounded(share), rounded(low), rounded(high)
            continue
        drop, low, high, n = excess_drop(members[target.id][0], base, pert, ref, control_info=info, **boot)
        target.excess_drop, target.excess_ci_low, target.excess_ci_high = rounded(drop), rounded(low), rounded(high)
        target.excess_n = n
