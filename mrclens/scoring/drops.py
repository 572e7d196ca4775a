"""Scoring perturbed sets: per-set EM/F1, F1 drop per ablation and per bias category, paired bootstrap CIs.

This is the one implementation of the MRCLens numbers; ``mrclens audit`` (built-in baseline)
and ``mrclens evaluate PERTURBED_DIR --predictions-dir`` (any model) both go through it
(:func:`mrclens.scoring.evaluate.evaluate_perturbed`).

Rules:

* Per-question EM and F1 are the official SQuAD ones (:func:`mrclens.metrics.official.question_scores`):
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

Examples:
    >>> from mrclens.squad import Answer, Article, Dataset, Paragraph, Question
    >>> gold = Dataset([Article("t", [Paragraph("Paris is in France.", [Question("q1", "Where is Paris?", [Answer("France", 12)])])])], "1.1")
    >>> score_set("original", gold, {"q1": "France"}).f1.tolist()
    [1.0]
    >>> [round(float(x), 4) for x in score_set("original", gold, {"q1": "in France"}).f1]
    [0.6667]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

import numpy as np

from mrclens.artifacts.manifest import AblationEntry
from mrclens.artifacts.results import (
    SUBSETS,
    AblationResult,
    CategoryResult,
    ChangedOnly,
    SetResult,
    SubsetDrop,
    SubsetScore,
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
    two_stage_bootstrap,
)
from mrclens.metrics.official import normalize_answer, question_scores
from mrclens.squad import Dataset


@dataclass
class SetScores:
    """Per-question official scores of one set's predictions.

    Attributes:
        name: the set name (``"original"``, ``"original-truncated"``, ``"e1"`` …).
        ids: question ids in file order, shape ``(n,)``.
        em: per-question exact match in {0, 1}, float array of shape ``(n,)``; ``None`` when the
            set was not evaluated.
        f1: per-question token F1 in [0, 1], float array of shape ``(n,)``; ``None`` when not evaluated.
        missing: questions without a prediction (they score 0 and count).
        unknown: predictions for question ids not in the set (ignored).
        evaluated: False when there were no predictions for the set.
        reason: why the set was not evaluated (``None`` when it was).
        has_answer: bool ``(n,)``: the question has a gold answer (official v2.0 rule); ``None``
            for SQuAD v1.1 data, and (:func:`score_all`) when no set of the audit has an
            unanswerable question (then no HasAns/NoAns figures).
        abstained: bool ``(n,)``: the prediction is empty after normalisation (a "no answer");
            ``None`` when not evaluated or when ``has_answer`` is ``None``.
    """

    name: str
    ids: list[str]
    em: np.ndarray | None = None
    f1: np.ndarray | None = None
    missing: int | None = None
    unknown: int | None = None
    evaluated: bool = True
    reason: str | None = None
    has_answer: np.ndarray | None = None
    abstained: np.ndarray | None = None
    _index: dict[str, int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._index = {qid: i for i, qid in enumerate(self.ids)}

    @property
    def n(self) -> int:
        """Number of questions in the set."""
        return len(self.ids)

    def positions(self, ids: Iterable[str]) -> np.ndarray:
        """Row positions of ``ids`` in this set (int array); raises ``KeyError`` for an unknown id."""
        return np.fromiter((self._index[q] for q in ids), dtype=np.int64)

    def exact_match(self) -> float | None:
        """EM in percent (0–100) over all questions of the set, ``None`` when not evaluated."""
        return None if self.em is None else _pct(self.em)

    def f1_score(self) -> float | None:
        """F1 in percent (0–100) over all questions of the set, ``None`` when not evaluated."""
        return None if self.f1 is None else _pct(self.f1)

    def to_result(self, file: str | None) -> SetResult:
        """The ``results.json`` entry of the set (EM/F1 in percent, rounded to 4 decimals)."""
        return SetResult(file=file, n=self.n, exact_match=_round(self.exact_match()), f1=_round(self.f1_score()),
                         missing=self.missing, unknown=self.unknown, evaluated=self.evaluated,
                         reason_not_evaluated=self.reason, subsets=self.subset_results())

    def subset_masks(self) -> dict[str, np.ndarray]:
        """``{"HasAns": mask, "NoAns": mask}`` (bool ``(n,)``), or ``{}`` for data without unanswerable questions."""
        if self.has_answer is None:
            return {}
        return {"HasAns": self.has_answer, "NoAns": ~self.has_answer}

    def subset_results(self) -> dict[str, SubsetScore] | None:
        """The set's HasAns/NoAns entries of ``results.json`` (``None`` without unanswerable questions)."""
        masks = self.subset_masks()
        if not masks:
            return None
        out = {}
        for name in SUBSETS:
            m = masks[name]
            out[name] = SubsetScore(
                n=int(m.sum()),
                exact_match=None if self.em is None or not m.any() else _round(_pct(self.em[m])),
                f1=None if self.f1 is None or not m.any() else _round(_pct(self.f1[m])),
                abstained=None if self.abstained is None else int(self.abstained[m].sum()))
        return out


def _pct(values: np.ndarray) -> float:
    return float(100.0 * values.mean()) if len(values) else 0.0


def score_choice_set(name: str, dataset, predictions: Mapping[str, str] | None, *, reason: str | None = None) -> SetScores:
    """Per-question accuracy of multiple-choice ``predictions`` on an
    :class:`~mrclens.multiple_choice.data.MCDataset` (issue 20).

    ``predictions`` maps question ids to the chosen ending's 0-based index, as an int or its
    decimal string (the ``"choice"`` prediction form). A question scores 1 when the index is its
    gold label, else 0 (also when the prediction is missing or not an index). Accuracy is both the
    exact match and the "F1" of the span task here, so ``em`` and ``f1`` hold the same 0/1 array and
    every drop, CI and reading below is an accuracy figure.

    >>> from mrclens.multiple_choice.data import MCDataset, MCQuestion
    >>> ds = MCDataset([MCQuestion("a", "p", ("x", "y"), 1), MCQuestion("b", "p", ("x", "y"), 0)])
    >>> score_choice_set("original", ds, {"a": "1", "b": 1}).f1.tolist()
    [1.0, 0.0]
    """
    ids = [q.id for q in dataset.questions]
    if predictions is None:
        return SetScores(name, ids, evaluated=False, reason=reason or "no predictions for this set")
    correct = np.fromiter((str(predictions.get(q.id, "")).strip() == str(q.label) for q in dataset.questions),
                          dtype=np.float64, count=len(ids))
    id_set = set(ids)
    return SetScores(name, ids, em=correct, f1=correct.copy(), missing=sum(1 for q in ids if q not in predictions),
                     unknown=sum(1 for q in predictions if q not in id_set))


def choice_accuracy(dataset, predictions: Mapping[str, str]) -> dict[str, float | int]:
    """``{"accuracy": percent, "n", "missing", "unknown"}`` of multiple-choice predictions on an
    :class:`~mrclens.multiple_choice.data.MCDataset` (``mrclens evaluate DATA PREDICTIONS``; issue 20)."""
    s = score_choice_set("data", dataset, predictions)
    return {"accuracy": round(_pct(s.f1), 4), "n": s.n, "missing": s.missing, "unknown": s.unknown}


def score_set(name: str, dataset: Dataset, predictions: Mapping[str, str] | None, *, reason: str | None = None) -> SetScores:
    """Official per-question EM/F1 of ``predictions`` (``{question id: answer text}``) on ``dataset``
    (a multiple-choice dataset is scored by :func:`score_choice_set`).

    Args:
        name: the set name, kept in the result.
        dataset: the gold set.
        predictions: the predictions, or ``None`` when there are none for this set (the result is
            then marked not evaluated with ``reason``).
        reason: why there are no predictions (used only when ``predictions`` is ``None``).

    Returns:
        a :class:`SetScores` with arrays of shape ``(n_questions,)`` (scores in 0–1).
    """
    if getattr(dataset, "task", "span") == "multiple_choice":
        return score_choice_set(name, dataset, predictions, reason=reason)
    ids = [q.id for _, _, q in dataset.iter_questions()]
    has_answer = None
    if dataset.is_v2:
        flags = np.fromiter((any(normalize_answer(a.text) for a in q.answers) for _, _, q in dataset.iter_questions()),
                            dtype=bool, count=len(ids))
        has_answer = flags
    if predictions is None:
        return SetScores(name, ids, evaluated=False, reason=reason or "no predictions for this set",
                         has_answer=has_answer)
    scores = question_scores(dataset, predictions)
    em = np.fromiter((scores[q][0] for q in ids), dtype=np.float64, count=len(ids))
    f1 = np.fromiter((scores[q][1] for q in ids), dtype=np.float64, count=len(ids))
    id_set = set(ids)
    return SetScores(
        name,
        ids,
        em=em,
        f1=f1,
        missing=sum(1 for q in ids if q not in predictions),
        unknown=sum(1 for q in predictions if q not in id_set),
        has_answer=has_answer,
        abstained=None if has_answer is None else np.fromiter(
            (not normalize_answer(predictions.get(q, "")) for q in ids), dtype=bool, count=len(ids)),
    )


@dataclass
class AblationInfo:
    """What scoring needs to know about one ablation (from the perturbation manifest).

    Attributes:
        id, name, category, eval_set, description, bias_signal: as in
            :class:`mrclens.perturbations.registry.Ablation`.
        baseline_set: the set its F1 is compared with (``"original"`` or ``"original-truncated"``).
        file: the ablation set's file name in the perturbed directory.
        changed_ids: ids of the questions the perturbation changed (``None`` if the manifest has
            no per-item records).
        changed_count: the manifest's count of changed questions (used when ``changed_ids`` is ``None``).
        unchanged_by_reason: ``{reason: count}`` of questions left unchanged.
        control_of: for a matched control, the ablation it controls.
    """

    id: str
    name: str
    category: str
    eval_set: str
    baseline_set: str
    bias_signal: str
    description: str = ""
    file: str | None = None
    changed_ids: set[str] | None = None
    changed_count: int | None = None
    unchanged_by_reason: dict[str, int] = field(default_factory=dict)
    control_of: str | None = None

    @classmethod
    def from_manifest(cls, ablation_id: str, entry: AblationEntry) -> "AblationInfo":
        """Build from one manifest entry (:class:`mrclens.artifacts.manifest.AblationEntry`)."""
        return cls(
            id=ablation_id,
            name=entry.name,
            category=entry.category,
            eval_set=entry.eval_set,
            baseline_set=entry.baseline_set,
            bias_signal=entry.bias_signal,
            description=entry.description,
            file=entry.file,
            changed_ids=entry.changed_ids(),
            changed_count=entry.changed,
            unchanged_by_reason=dict(entry.unchanged),
            control_of=entry.control_of,
        )


def _round(x: float | None, digits: int = 4) -> float | None:
    if x is None or (isinstance(x, float) and np.isnan(x)):
        return None
    return round(float(x), digits)


def _paired(info: AblationInfo, base: SetScores, pert: SetScores) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The question ids the two sets share (ablation-file order), with their positions in each."""
    ids = [q for q in pert.ids if q in base._index]
    return ids, base.positions(ids), pert.positions(ids)


def score_ablation(
    info: AblationInfo,
    base: SetScores,
    pert: SetScores,
    *,
    seed: int = 0,
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
) -> AblationResult:
    """The ``results.json`` entry of one ablation (without ``reading``).

    Args:
        info: the ablation's metadata.
        base: scores on its baseline set; pert: scores on the ablation set.
        seed: bootstrap seed; the generator key is the ablation id (``"<id>:changed"`` for the
            changed-only subset).

    Returns:
        an :class:`~mrclens.artifacts.results.AblationResult`: EM/F1 in percent, drops and CI
        bounds in percentage points (rounded to 4 decimals), ``n`` = paired items. When either
        set was not evaluated, ``evaluated`` is False, ``reason_not_evaluated`` says why and the
        numbers are ``None``.
    """
    out = AblationResult(
        id=info.id, name=info.name, category=info.category, eval_set=info.eval_set, baseline_set=info.baseline_set,
        bias_signal=info.bias_signal, description=info.description, evaluated=False, n=pert.n,
        changed=info.changed_count if info.changed_ids is None else len(info.changed_ids & set(pert.ids)),
        unchanged_by_reason=dict(info.unchanged_by_reason), control_of=info.control_of,
    )
    missing = [s for s in (base, pert) if not s.evaluated]
    if missing:
        out.reason_not_evaluated = "; ".join(f"{s.name}: {s.reason}" for s in missing)
        return out
    ids, bpos, ppos = _paired(info, base, pert)
    out.n = len(ids)
    out.unpaired = pert.n - len(ids)
    if not ids:
        out.reason_not_evaluated = f"{pert.name} shares no question id with {base.name}"
        return out
    b_f1, p_f1 = base.f1[bpos], pert.f1[ppos]
    b_em, p_em = base.em[bpos], pert.em[ppos]
    drop, low, high = paired_bootstrap_drop(b_f1, p_f1, seed=seed, key=info.id, n_resamples=n_resamples, confidence=confidence)
    out.evaluated = True
    out.exact_match = _round(_pct(p_em))
    out.f1 = _round(_pct(p_f1))
    out.baseline_exact_match = _round(_pct(b_em))
    out.baseline_f1 = _round(_pct(b_f1))
    out.em_drop = _round(_pct(b_em) - _pct(p_em))
    out.f1_drop = _round(drop)
    out.ci_low = _round(low)
    out.ci_high = _round(high)
    rel, rel_low, rel_high = paired_bootstrap_relative_drop(b_f1, p_f1, seed=seed, key=f"{info.id}:relative",
                                                            n_resamples=n_resamples, confidence=confidence)
    out.relative_drop, out.relative_ci_low, out.relative_ci_high = _round(rel), _round(rel_low), _round(rel_high)
    if info.changed_ids is not None:
        mask = np.fromiter((q in info.changed_ids for q in ids), dtype=bool, count=len(ids))
        c_drop, c_low, c_high = paired_bootstrap_drop(
            b_f1[mask], p_f1[mask], seed=seed, key=f"{info.id}:changed", n_resamples=n_resamples, confidence=confidence
        )
        out.changed_only = ChangedOnly(
            n=int(mask.sum()),
            f1=_round(_pct(p_f1[mask])) if mask.any() else None,
            baseline_f1=_round(_pct(b_f1[mask])) if mask.any() else None,
            f1_drop=_round(c_drop),
            ci_low=_round(c_low),
            ci_high=_round(c_high),
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
        out[name] = SubsetDrop(n=n, exact_match=_round(_pct(p_em[mask])), f1=_round(_pct(p_f1[mask])),
                               baseline_exact_match=_round(_pct(b_em[mask])), baseline_f1=_round(_pct(b_f1[mask])),
                               f1_drop=_round(drop), ci_low=_round(low), ci_high=_round(high))
    return out


def excess_ids(ablation: AblationInfo, base: SetScores, pert: SetScores, control: SetScores,
                control_info: AblationInfo | None) -> list[str]:
    """The questions an excess drop pairs (rule in :func:`excess_drop`)."""
    ids = [q for q in pert.ids if q in base._index and q in control._index]
    if ablation.changed_ids is not None and control_info is not None and control_info.changed_ids is not None:
        ids = [q for q in ids if q in control_info.changed_ids or q not in ablation.changed_ids]
    return ids


def _recovered_ids(ablation: AblationInfo, base: SetScores, pert: SetScores, control: SetScores) -> list[str]:
    """The questions a recovered share is computed on (rule in :func:`recovered_share`)."""
    ids = [q for q in pert.ids if q in base._index and q in control._index]
    if ablation.changed_ids is not None:
        ids = [q for q in ids if q in ablation.changed_ids]
    return ids


def _recovered_arrays(ablation, base, pert, control) -> tuple[list[str], np.ndarray, np.ndarray]:
    """``(ids, b - c, b - a)``: the reference's and the ablation's per-question losses (0–1 scale)."""
    ids = _recovered_ids(ablation, base, pert, control)
    b = base.f1[base.positions(ids)]
    return ids, b - control.f1[control.positions(ids)], b - pert.f1[pert.positions(ids)]


def recovered_share(
    ablation: AblationInfo,
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
    ids, loss_ref, loss_abl = _recovered_arrays(ablation, base, pert, reference)
    if not ids or loss_ref.sum() <= 0:
        nan = float("nan")
        return nan, nan, nan, len(ids)
    share, low, high = paired_bootstrap_relative_drop(loss_ref, loss_abl, seed=seed, key=f"{ablation.id}:recovered",
                                                      n_resamples=n_resamples, confidence=confidence)
    return share, low, high, len(ids)


def excess_drop(
    ablation: AblationInfo,
    base: SetScores,
    pert: SetScores,
    control: SetScores,
    *,
    control_info: AblationInfo | None = None,
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
    members: Sequence[tuple[AblationInfo, SetScores, SetScores]],
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
    replicates: Sequence[Sequence[tuple[AblationInfo, SetScores, SetScores]]],
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
            _, bpos, ppos = _paired(info, base, pert)
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
    members: Mapping[str, tuple[AblationInfo, SetScores, SetScores]],
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
        drop, low, high = category_drop(
            [members[i] for i in done], seed=seed, key=f"category:{name}", n_resamples=n_resamples, confidence=confidence
        )
        entry = CategoryResult(category=name, ablations=ids, evaluated=done, f1_drop=_round(drop),
                               ci_low=_round(low), ci_high=_round(high))
        if done and all(members[i][1].has_answer is not None for i in done):  # SQuAD v2.0: per subset
            entry.subsets = {}
            for sub in SUBSETS:
                d, lo, hi = category_drop([members[i] for i in done], seed=seed, key=f"category:{name}:{sub}",
                                          n_resamples=n_resamples, confidence=confidence, subset=sub)
                entry.subsets[sub] = SubsetDrop(n=sum(int(members[i][1].subset_masks()[sub][_paired(*members[i])[1]].sum())
                                                      for i in done),
                                                f1_drop=_round(d), ci_low=_round(lo), ci_high=_round(hi))
        out.append(entry)
    return out


@dataclass
class Scored:
    """Everything :func:`score_all` computes: per-question scores and the typed results entries.

    Attributes:
        set_scores: ``{set name: SetScores}`` (per-question EM/F1, arrays of shape ``(n_questions,)``).
        ablations: one entry per ablation, in report order (no readings yet).
        categories: one entry per bias category (no readings yet).
        infos: ``{ablation id: AblationInfo}`` it was scored with.
        members: ``{ablation id: (info, baseline scores, ablation scores)}`` of the evaluated ablations.
    """

    set_scores: dict[str, SetScores]
    ablations: list[AblationResult]
    categories: list[CategoryResult]
    infos: dict[str, AblationInfo] = field(default_factory=dict)
    members: dict[str, tuple[AblationInfo, SetScores, SetScores]] = field(default_factory=dict)

    def set_results(self, files: Mapping[str, str]) -> dict[str, SetResult]:
        """``{set name: SetResult}`` with each set's file name from ``files`` (``None`` if absent)."""
        return {name: s.to_result(files.get(name)) for name, s in self.set_scores.items()}


def score_all(
    datasets: Mapping[str, Dataset],
    predictions: Mapping[str, Mapping[str, str] | None],
    ablations: Sequence[AblationInfo],
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
    by_id = {r.id: r for r in results}
    for info in ablations:
        if info.control_of is None or info.control_of not in by_id:
            continue
        target = by_id[info.control_of]
        target.control = info.id
        control = by_id[info.id]
        if target.evaluated and control.evaluated and control.changed != 0:
            target.control_f1_drop = control.f1_drop
            if target.bias_signal == "small_drop":  # a reference (c4): the loss with the information removed entirely
                share, low, high, _ = recovered_share(members[target.id][0], scores[target.baseline_set], scores[target.id],
                                                      scores[info.id], seed=seed, n_resamples=n_resamples, confidence=confidence)
                target.recovered_share, target.recovered_ci_low, target.recovered_ci_high = _round(share), _round(low), _round(high)
                continue
            drop, low, high, n = excess_drop(members[target.id][0], scores[target.baseline_set], scores[target.id],
                                             scores[info.id], control_info=info, seed=seed, n_resamples=n_resamples,
                                             confidence=confidence)
            target.excess_drop, target.excess_ci_low, target.excess_ci_high = _round(drop), _round(low), _round(high)
            target.excess_n = n
    categories = score_categories(results, members, category_order, seed=seed, n_resamples=n_resamples, confidence=confidence)
    return Scored(scores, results, categories, {i.id: i for i in ablations}, members)


#: How ``results.json`` names the method of the CIs over several replicates (``variance_method``).
VARIANCE_METHOD = ("two-stage bootstrap: questions resampled once per resample and shared by every draw/reader, "
                   "then draws/readers resampled with replacement (Davison & Hinkley 1997, sec. 3.8)")


def _spread(values: Sequence[float | None]) -> tuple[float | None, float | None, float | None]:
    """``(min, max, sample SD with ddof=1)`` of the values (``None`` when any is missing or fewer than 2)."""
    if len(values) < 2 or any(v is None for v in values):
        return None, None, None
    arr = np.asarray(values, dtype=np.float64)
    return _round(arr.min()), _round(arr.max()), _round(arr.std(ddof=1))


def _mean_of(values: Sequence[float | None]) -> float | None:
    return None if not values or any(v is None for v in values) else _round(float(np.mean(values)))


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
    """One :class:`Scored` from the same ablations scored in several replicates (draws × readers; issue 16).

    Args:
        scored: one :func:`score_all` result per replicate, readings already set
            (:func:`mrclens.scoring.readings.read_all`) so that each replicate's evidence level is kept;
            the first replicate is draw 0 of reader 0.
        labels: ``(draw, reader)`` of each replicate.
        seed, n_resamples, confidence: bootstrap settings.

    Rules: every drop (``f1_drop``, ``relative_drop``, ``excess_drop``, ``recovered_share``, a
    category's mean drop) becomes the mean over replicates with a CI from the two-stage bootstrap
    (:func:`mrclens.metrics.bootstrap.two_stage_bootstrap`, :func:`category_drop_replicates`;
    the same generator keys as a single run, so one replicate gives the single-run numbers). An
    excess drop pairs the ablation and its control of the *same* replicate (same positions). The
    questions are those of the first replicate's paired items (the same question ids in every draw).
    EM/F1 figures are means over replicates; ``changed``, ``changed_only``, ``unchanged_by_reason``
    and the per-set scores are the first replicate's. Each entry lists its per-replicate figures
    (``replicates``) and their spread (min, max, SD with ddof = 1). An ablation is evaluated only
    when it was evaluated in every replicate.

    Returns:
        a :class:`Scored` without readings (read it again, then
        :func:`mrclens.scoring.readings.note_instability`); with one replicate, ``scored[0]`` unchanged.

    Raises:
        ValueError: ``scored`` is empty or ``labels`` has another length.
    """
    if not scored or len(scored) != len(labels):
        raise ValueError(f"need one (draw, reader) label per replicate, got {len(scored)} results and {len(labels)} labels")
    if len(scored) == 1:
        return scored[0]
    from dataclasses import replace as _replace

    from mrclens.artifacts.results import CategoryReplicate, ReplicateFigures

    first = scored[0]
    by_id = [{a.id: a for a in sc.ablations} for sc in scored]
    out_ablations = []
    boot = dict(seed=seed, n_resamples=n_resamples, confidence=confidence)
    for e0 in first.ablations:
        entries = [b.get(e0.id) for b in by_id]
        out = _replace(e0, reading=None, evidence=None)
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
            out = _replace(out, evaluated=False, reason_not_evaluated=f"draw {d}, reader {r}: {why}", exact_match=None,
                           f1=None, baseline_exact_match=None, baseline_f1=None, em_drop=None, f1_drop=None, ci_low=None,
                           ci_high=None, relative_drop=None, relative_ci_low=None, relative_ci_high=None,
                           control_f1_drop=None, excess_drop=None, excess_ci_low=None, excess_ci_high=None, excess_n=None,
                           recovered_share=None, recovered_ci_low=None, recovered_ci_high=None)
            out_ablations.append(out)
            continue
        members = [sc.members[e0.id] for sc in scored]
        ids0 = _paired(*members[0])[0]
        index = {q: i for i, q in enumerate(ids0)}
        reps = []
        for info, base, pert in members:
            ids, bpos, ppos = _paired(info, base, pert)
            reps.append(_index_arrays(ids, index, base.f1[bpos], pert.f1[ppos]))
        drop, low, high, _ = two_stage_bootstrap(reps, len(ids0), key=e0.id, **boot)
        rel, rlow, rhigh, _ = two_stage_bootstrap(reps, len(ids0), statistic="relative", key=f"{e0.id}:relative", **boot)
        out.f1_drop, out.ci_low, out.ci_high = _round(drop), _round(low), _round(high)
        out.relative_drop, out.relative_ci_low, out.relative_ci_high = _round(rel), _round(rlow), _round(rhigh)
        for name in ("exact_match", "f1", "baseline_exact_match", "baseline_f1", "em_drop", "control_f1_drop"):
            setattr(out, name, _mean_of([getattr(e, name) for e in entries]))
        out.f1_drop_min, out.f1_drop_max, out.f1_drop_sd = _spread([e.f1_drop for e in entries])
        cid = e0.control
        have_control = cid is not None and all(cid in sc.members for sc in scored)
        if have_control and e0.excess_drop is not None and all(e.excess_drop is not None for e in entries):
            ex = []
            for sc in scored:
                info, base, pert = sc.members[e0.id]
                control = sc.members[cid][2]
                ids = excess_ids(info, base, pert, control, sc.infos.get(cid))
                ex.append(_index_arrays(ids, index, control.f1[control.positions(ids)], pert.f1[pert.positions(ids)]))
            drop, low, high, _ = two_stage_bootstrap(ex, len(ids0), key=f"{e0.id}:excess", **boot)
            out.excess_drop, out.excess_ci_low, out.excess_ci_high = _round(drop), _round(low), _round(high)
            out.excess_drop_min, out.excess_drop_max, out.excess_drop_sd = _spread([e.excess_drop for e in entries])
        if have_control and e0.recovered_share is not None and all(e.recovered_share is not None for e in entries):
            rec = []
            for sc in scored:
                info, base, pert = sc.members[e0.id]
                ids, loss_ref, loss_abl = _recovered_arrays(info, base, pert, sc.members[cid][2])
                rec.append(_index_arrays(ids, index, loss_ref, loss_abl))
            share, low, high, _ = two_stage_bootstrap(rec, len(ids0), statistic="relative", key=f"{e0.id}:recovered", **boot)
            out.recovered_share, out.recovered_ci_low, out.recovered_ci_high = _round(share), _round(low), _round(high)
        if e0.subsets is not None and all(e.subsets is not None for e in entries):
            out.subsets = _combined_subsets(e0.id, entries, members, boot)
        out_ablations.append(out)

    cats_by = [{c.category: c for c in sc.categories} for sc in scored]
    out_categories = []
    for c0 in first.categories:
        entries = [cb.get(c0.category) for cb in cats_by]
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
                subsets[sub] = _replace(first_sub, f1_drop=_round(d), ci_low=_round(lo), ci_high=_round(hi))
        out_categories.append(_replace(
            c0, evaluated=done, f1_drop=_round(drop), ci_low=_round(low), ci_high=_round(high), reading=None, evidence=None,
            replicates=[CategoryReplicate(draw=d, reader=r, f1_drop=e.f1_drop, ci_low=e.ci_low, ci_high=e.ci_high,
                                          evidence=e.evidence) for e, (d, r) in zip(entries, labels) if e is not None],
            f1_drop_min=mn, f1_drop_max=mx, f1_drop_sd=sd, subsets=subsets))
    return Scored(first.set_scores, out_ablations, out_categories, first.infos, first.members)


def _combined_subsets(aid: str, entries: Sequence[AblationResult],
                      members: Sequence[tuple[AblationInfo, SetScores, SetScores]], boot: dict) -> dict[str, SubsetDrop]:
    """An ablation's HasAns/NoAns figures over several replicates: EM/F1 means over replicates and the
    two-stage bootstrap drop restricted to each subset's paired questions (generator keys
    ``"<id>:HasAns"`` / ``"<id>:NoAns"``, as :func:`subset_drops`; one replicate gives its numbers)."""
    from dataclasses import replace as _replace

    out = {}
    for name in SUBSETS:
        subs = [e.subsets.get(name) for e in entries]
        first = subs[0]
        if first is None or not first.n or any(s is None for s in subs):
            if first is not None:
                out[name] = first
            continue
        reps, index = [], None
        for info, base, pert in members:
            ids, bpos, ppos = _paired(info, base, pert)
            mask = base.subset_masks()[name][bpos]
            sub_ids = [q for q, keep in zip(ids, mask) if keep]
            if index is None:
                index = {q: i for i, q in enumerate(sub_ids)}
            reps.append(_index_arrays(sub_ids, index, base.f1[bpos][mask], pert.f1[ppos][mask]))
        drop, low, high, _ = two_stage_bootstrap(reps, len(index), key=f"{aid}:{name}", **boot)
        means = {f: _mean_of([getattr(s, f) for s in subs])
                 for f in ("exact_match", "f1", "baseline_exact_match", "baseline_f1")}
        out[name] = _replace(first, f1_drop=_round(drop), ci_low=_round(low), ci_high=_round(high), **means)
    return out
