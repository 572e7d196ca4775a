"""Scoring perturbed sets: per-set EM/F1, F1 drop per ablation and per bias category, paired bootstrap CIs.

This is the one implementation of the MRCLens numbers; ``mrclens audit`` (built-in baseline)
and ``mrclens evaluate PERTURBED_DIR --predictions-dir`` (any model) both go through it.

Rules:

* Per-question EM and F1 are the official SQuAD ones (:func:`mrclens.metrics.question_scores`):
  a question without a prediction scores 0 and counts; predictions for ids that are not in the
  set are ignored and counted (``unknown``).
* The **F1 drop** of an ablation is ``F1(baseline set) - F1(ablation set)`` in percentage points,
  over the questions the two sets share (the *paired* items): the full original set for e3–e5,
  the truncated original for e1, e2, e6–e8 (``baseline_set`` in the perturbation manifest).
  It is also given over the items the ablation actually changed (``changed_only``, from the
  manifest's per-item records). A positive drop means the perturbation hurt the model.
* **Confidence intervals** are paired bootstrap percentile intervals (Efron & Tibshirani 1993,
  ch. 13; the paired form used for NLP system comparison by Koehn 2004 and Berg-Kirkpatrick et
  al. 2012): question ids are resampled with replacement, the same resampled ids for the
  baseline and the ablation set, ``n_resamples`` times (default 1,000), and the interval is the
  ``(1-confidence)/2`` and ``(1+confidence)/2`` percentiles of the resampled drops. The random
  generator is :class:`numpy.random.Generator` (PCG64) seeded from ``(seed, crc32(key))`` where
  the key names the ablation (and subset), so each number is reproducible on its own and does
  not change when other ablations are added or left out.
* A **bias category's** drop is the mean of its evaluated ablations' drops. Its CI resamples
  questions jointly: in each resample one multiset of question ids is drawn per baseline set and
  every ablation of the category that compares with that set uses it (weights = how often each
  of its paired items was drawn), so the correlation between ablations that share questions is
  kept.

Examples:
    >>> import numpy as np
    >>> drop, low, high = paired_bootstrap_drop(np.array([1.0, 1.0, 0.0]), np.array([0.0, 1.0, 0.0]), seed=0, key="doc")
    >>> round(drop, 4)
    33.3333
    >>> low <= drop <= high
    True
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from mrclens.metrics import question_scores
from mrclens.squad import Dataset

#: Default number of bootstrap resamples (issue 5: 1,000).
N_RESAMPLES = 1000
#: Default confidence level of the bootstrap percentile intervals.
CONFIDENCE = 0.95
#: Resamples drawn at once (bounds memory to ``_CHUNK * n_items`` integers).
_CHUNK = 100


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
    """

    name: str
    ids: list[str]
    em: np.ndarray | None = None
    f1: np.ndarray | None = None
    missing: int | None = None
    unknown: int | None = None
    evaluated: bool = True
    reason: str | None = None
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

    def summary(self) -> dict[str, Any]:
        """The ``results.json`` entry of the set (``file`` is added by the caller)."""
        return {
            "n": self.n,
            "exact_match": self.exact_match(),
            "f1": self.f1_score(),
            "missing": self.missing,
            "unknown": self.unknown,
            "evaluated": self.evaluated,
            "reason_not_evaluated": self.reason,
        }


def _pct(values: np.ndarray) -> float:
    return float(100.0 * values.mean()) if len(values) else 0.0


def score_set(name: str, dataset: Dataset, predictions: Mapping[str, str] | None, *, reason: str | None = None) -> SetScores:
    """Official per-question EM/F1 of ``predictions`` (``{question id: answer text}``) on ``dataset``.

    Args:
        name: the set name, kept in the result.
        dataset: the gold set.
        predictions: the predictions, or ``None`` when there are none for this set (the result is
            then marked not evaluated with ``reason``).
        reason: why there are no predictions (used only when ``predictions`` is ``None``).

    Returns:
        a :class:`SetScores` with arrays of shape ``(n_questions,)`` (scores in 0–1).
    """
    ids = [q.id for _, _, q in dataset.iter_questions()]
    if predictions is None:
        return SetScores(name, ids, evaluated=False, reason=reason or "no predictions for this set")
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
    )


def stable_rng(seed: int, key: str) -> np.random.Generator:
    """A PCG64 generator seeded from ``(seed, crc32(key))``: the same seed and key give the same stream.

    ``crc32`` (not Python's ``hash``, which is salted per process) keeps the stream stable across runs.
    """
    return np.random.default_rng(np.random.SeedSequence([int(seed), zlib.crc32(key.encode("utf-8"))]))


def _resample_counts(rng: np.random.Generator, n: int, n_resamples: int) -> Iterable[np.ndarray]:
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


def _interval(samples: np.ndarray, confidence: float) -> tuple[float, float]:
    samples = samples[~np.isnan(samples)]
    if samples.size == 0:
        return (float("nan"), float("nan"))
    alpha = (1.0 - confidence) / 2.0
    low, high = np.percentile(samples, [100.0 * alpha, 100.0 * (1.0 - alpha)])
    return float(low), float(high)


def paired_bootstrap_drop(
    baseline: np.ndarray,
    perturbed: np.ndarray,
    *,
    seed: int = 0,
    key: str = "",
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
) -> tuple[float, float, float]:
    """Mean drop ``baseline - perturbed`` in percentage points, with a paired bootstrap percentile CI.

    Args:
        baseline: per-question scores in [0, 1] on the unperturbed set, shape ``(n,)``.
        perturbed: per-question scores in [0, 1] on the perturbed set for the same questions in
            the same order, shape ``(n,)``.
        seed, key: seed the generator (:func:`stable_rng`).
        n_resamples: bootstrap resamples (questions drawn with replacement, the same draw for
            both arrays).
        confidence: the interval's coverage, e.g. 0.95.

    Returns:
        ``(drop, ci_low, ci_high)`` in percentage points (0–100 scale). With no items, all three
        are ``nan``.

    Raises:
        ValueError: the arrays differ in shape, or ``n_resamples`` < 1.
    """
    baseline = np.asarray(baseline, dtype=np.float64)
    perturbed = np.asarray(perturbed, dtype=np.float64)
    if baseline.shape != perturbed.shape or baseline.ndim != 1:
        raise ValueError(f"paired scores must be 1-d arrays of one shape, got {baseline.shape} and {perturbed.shape}")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be at least 1, got {n_resamples}")
    n = baseline.size
    if n == 0:
        nan = float("nan")
        return nan, nan, nan
    diff = 100.0 * (baseline - perturbed)
    drop = float(diff.mean())
    rng = stable_rng(seed, key)
    boot = np.concatenate([counts @ diff / n for counts in _resample_counts(rng, n, n_resamples)])
    low, high = _interval(boot, confidence)
    return drop, low, high


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

    @classmethod
    def from_manifest(cls, ablation_id: str, entry: Mapping[str, Any]) -> "AblationInfo":
        """Build from one ``manifest["ablations"][id]`` entry (see :mod:`mrclens.evaluation`).

        Raises:
            KeyError: a required field (name, category, eval_set, baseline_set, bias_signal) is missing.
        """
        items = entry.get("items")
        changed = None if items is None else {qid for qid, rec in items.items() if rec.get("changed")}
        return cls(
            id=ablation_id,
            name=entry["name"],
            category=entry["category"],
            eval_set=entry["eval_set"],
            baseline_set=entry["baseline_set"],
            bias_signal=entry["bias_signal"],
            description=entry.get("description", ""),
            file=entry.get("file"),
            changed_ids=changed,
            changed_count=entry.get("changed"),
            unchanged_by_reason=dict(entry.get("unchanged") or {}),
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
) -> dict[str, Any]:
    """The ``results.json`` entry of one ablation (without ``reading``).

    Args:
        info: the ablation's metadata.
        base: scores on its baseline set; pert: scores on the ablation set.
        seed: bootstrap seed; the generator key is the ablation id (``"<id>:changed"`` for the
            changed-only subset).

    Returns:
        a dict with the keys of the ``ablations`` items of ``results.json``: EM/F1 in percent,
        drops and CI bounds in percentage points (rounded to 4 decimals), ``n`` = paired items.
        When either set was not evaluated, ``evaluated`` is False, ``reason_not_evaluated`` says
        why and the numbers are ``None``.
    """
    out: dict[str, Any] = {
        "id": info.id,
        "name": info.name,
        "category": info.category,
        "eval_set": info.eval_set,
        "baseline_set": info.baseline_set,
        "bias_signal": info.bias_signal,
        "description": info.description,
        "evaluated": False,
        "reason_not_evaluated": None,
        "n": pert.n,
        "changed": info.changed_count if info.changed_ids is None else len(info.changed_ids & set(pert.ids)),
        "unchanged_by_reason": dict(info.unchanged_by_reason),
        "unpaired": None,
        "exact_match": None,
        "f1": None,
        "baseline_exact_match": None,
        "baseline_f1": None,
        "em_drop": None,
        "f1_drop": None,
        "ci_low": None,
        "ci_high": None,
        "changed_only": None,
    }
    missing = [s for s in (base, pert) if not s.evaluated]
    if missing:
        out["reason_not_evaluated"] = "; ".join(f"{s.name}: {s.reason}" for s in missing)
        return out
    ids, bpos, ppos = _paired(info, base, pert)
    out["n"] = len(ids)
    out["unpaired"] = pert.n - len(ids)
    if not ids:
        out["reason_not_evaluated"] = f"{pert.name} shares no question id with {base.name}"
        return out
    b_f1, p_f1 = base.f1[bpos], pert.f1[ppos]
    b_em, p_em = base.em[bpos], pert.em[ppos]
    drop, low, high = paired_bootstrap_drop(b_f1, p_f1, seed=seed, key=info.id, n_resamples=n_resamples, confidence=confidence)
    out.update(
        evaluated=True,
        exact_match=_round(_pct(p_em)),
        f1=_round(_pct(p_f1)),
        baseline_exact_match=_round(_pct(b_em)),
        baseline_f1=_round(_pct(b_f1)),
        em_drop=_round(_pct(b_em) - _pct(p_em)),
        f1_drop=_round(drop),
        ci_low=_round(low),
        ci_high=_round(high),
    )
    if info.changed_ids is not None:
        mask = np.fromiter((q in info.changed_ids for q in ids), dtype=bool, count=len(ids))
        c_drop, c_low, c_high = paired_bootstrap_drop(
            b_f1[mask], p_f1[mask], seed=seed, key=f"{info.id}:changed", n_resamples=n_resamples, confidence=confidence
        )
        out["changed_only"] = {
            "n": int(mask.sum()),
            "f1": _round(_pct(p_f1[mask])) if mask.any() else None,
            "baseline_f1": _round(_pct(b_f1[mask])) if mask.any() else None,
            "f1_drop": _round(c_drop),
            "ci_low": _round(c_low),
            "ci_high": _round(c_high),
        }
    return out


def category_drop(
    members: Sequence[tuple[AblationInfo, SetScores, SetScores]],
    *,
    seed: int = 0,
    key: str = "",
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
) -> tuple[float, float, float]:
    """Mean F1 drop of a category's ablations with a joint paired bootstrap CI (percentage points).

    Args:
        members: ``(info, baseline scores, ablation scores)`` for each evaluated ablation.
        seed, key: seed the generator (:func:`stable_rng`; the key is the category name).

    In each resample, the questions of each baseline set are drawn once with replacement; each
    ablation's drop is the draw-weighted mean of its paired per-question differences, and the
    category's drop is the mean over ablations. Resamples in which an ablation drew none of its
    items (possible only for tiny sets) are left out of the percentiles.

    Returns:
        ``(drop, ci_low, ci_high)``; all ``nan`` when ``members`` is empty.
    """
    if not members:
        nan = float("nan")
        return nan, nan, nan
    # Per baseline set: the members that compare with it, with (positions in base, differences).
    by_base: dict[str, tuple[int, list[tuple[np.ndarray, np.ndarray]]]] = {}
    point = []
    for info, base, pert in members:
        _, bpos, ppos = _paired(info, base, pert)
        diff = 100.0 * (base.f1[bpos] - pert.f1[ppos])
        point.append(float(diff.mean()))
        by_base.setdefault(base.name, (base.n, []))[1].append((bpos, diff))
    rng = stable_rng(seed, key)
    generators = {name: _resample_counts(rng, n, n_resamples) for name, (n, _) in sorted(by_base.items())}
    chunks = []
    done = 0
    while done < n_resamples:
        sums = None
        for name, (_, parts) in sorted(by_base.items()):
            counts = next(generators[name])
            for bpos, diff in parts:
                w = counts[:, bpos]
                total = w.sum(axis=1)
                with np.errstate(invalid="ignore", divide="ignore"):
                    d = (w @ diff) / total
                sums = d if sums is None else sums + d
        chunks.append(sums / len(members))
        done += chunks[-1].shape[0]
    low, high = _interval(np.concatenate(chunks), confidence)
    return float(np.mean(point)), low, high


def score_categories(
    ablation_results: Sequence[Mapping[str, Any]],
    members: Mapping[str, tuple[AblationInfo, SetScores, SetScores]],
    category_order: Sequence[str] | None = None,
    *,
    seed: int = 0,
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
) -> list[dict[str, Any]]:
    """The ``categories`` entries of ``results.json`` (without ``reading``).

    Args:
        ablation_results: entries from :func:`score_ablation`, in report order.
        members: ``{ablation id: (info, baseline scores, ablation scores)}``.
        category_order: category names in report order (others follow in first-seen order).

    Returns:
        one dict per category: ``category``, ``ablations`` (all its ids), ``evaluated`` (the ids
        that were evaluated), ``f1_drop``, ``ci_low``, ``ci_high`` (percentage points; ``None``
        when none of its ablations was evaluated).
    """
    names: list[str] = list(category_order or [])
    for r in ablation_results:
        if r["category"] not in names:
            names.append(r["category"])
    out = []
    for name in names:
        ids = [r["id"] for r in ablation_results if r["category"] == name]
        if not ids:
            continue
        done = [r["id"] for r in ablation_results if r["category"] == name and r["evaluated"]]
        drop, low, high = category_drop(
            [members[i] for i in done], seed=seed, key=f"category:{name}", n_resamples=n_resamples, confidence=confidence
        )
        out.append(
            {
                "category": name,
                "ablations": ids,
                "evaluated": done,
                "f1_drop": _round(drop),
                "ci_low": _round(low),
                "ci_high": _round(high),
            }
        )
    return out


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
) -> dict[str, Any]:
    """Score every set, ablation and category (the numbers of ``results.json``, without readings).

    Args:
        datasets: ``{set name: Dataset}`` for the baseline sets and every ablation set.
        predictions: ``{set name: {question id: answer text}}``; a set absent or ``None`` here is
            not evaluated (and neither are the ablations that need it).
        ablations: the ablations to score, in report order.
        category_order: bias categories in report order.
        missing_reasons: ``{set name: why there are no predictions}`` for the ``reason`` texts.

    Returns:
        ``{"sets": {name: summary}, "ablations": [entry], "categories": [entry]}``.

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
    results = []
    members = {}
    for info in ablations:
        entry = score_ablation(info, scores[info.baseline_set], scores[info.id], seed=seed, n_resamples=n_resamples, confidence=confidence)
        results.append(entry)
        if entry["evaluated"]:
            members[info.id] = (info, scores[info.baseline_set], scores[info.id])
    sets = {}
    for name, s in scores.items():
        summary = s.summary()
        for k in ("exact_match", "f1"):
            summary[k] = _round(summary[k])
        sets[name] = summary
    categories = score_categories(results, members, category_order, seed=seed, n_resamples=n_resamples, confidence=confidence)
    return {"sets": sets, "ablations": results, "categories": categories}
