"""Per-question scores of one set's predictions (:class:`SetScores`), chosen by the set's task.

The first step of scoring (:mod:`mrclens.scoring.drops` computes the drops from these scores):

* **Span extraction** (:func:`score_span_set`): the official SQuAD per-question EM and F1
  (:func:`mrclens.metrics.official.question_scores`); a question without a prediction scores 0 and
  counts; predictions for ids that are not in the set are ignored and counted (``unknown``). On
  data with unanswerable questions (SQuAD v2.0) each question's subset is recorded (``HasAns``:
  it has a gold answer, ``NoAns``: it has none; official ``evaluate-v2.0.py`` rule), with whether
  the model abstained.
* **Multiple choice** (:func:`score_choice_set`, issue 20): per-question accuracy, held as both
  the EM and the "F1", so every drop, CI and reading downstream is an accuracy figure.

:func:`score_set` looks the dataset's task (:func:`mrclens.tasks.task_of`) up in :data:`SCORE_SET`
(role ``"score_set"`` of :mod:`mrclens.tasks`) to know which of the two applies.

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
from typing import Any, Iterable, Mapping, Protocol

import numpy as np

from mrclens.artifacts.results import SUBSETS, SetResult, SubsetScore
from mrclens.metrics.official import normalize_answer, question_scores
from mrclens.squad import Dataset
from mrclens.tasks import MULTIPLE_CHOICE, SPAN, TaskTable, task_of


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

    def __contains__(self, question_id: str) -> bool:
        """Whether the set has a question with this id."""
        return question_id in self._index

    def positions(self, ids: Iterable[str]) -> np.ndarray:
        """Row positions of ``ids`` in this set (int array); raises ``KeyError`` for an unknown id."""
        return np.fromiter((self._index[q] for q in ids), dtype=np.int64)

    def exact_match(self) -> float | None:
        """EM in percent (0–100) over all questions of the set, ``None`` when not evaluated."""
        return None if self.em is None else percent(self.em)

    def f1_score(self) -> float | None:
        """F1 in percent (0–100) over all questions of the set, ``None`` when not evaluated."""
        return None if self.f1 is None else percent(self.f1)

    def to_result(self, file: str | None) -> SetResult:
        """The ``results.json`` entry of the set (EM/F1 in percent, rounded to 4 decimals)."""
        return SetResult(file=file, n=self.n, exact_match=rounded(self.exact_match()), f1=rounded(self.f1_score()),
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
                exact_match=None if self.em is None or not m.any() else rounded(percent(self.em[m])),
                f1=None if self.f1 is None or not m.any() else rounded(percent(self.f1[m])),
                abstained=None if self.abstained is None else int(self.abstained[m].sum()))
        return out


def percent(values: np.ndarray) -> float:
    """The mean of 0–1 per-question scores in percent (0.0 for no question)."""
    return float(100.0 * values.mean()) if len(values) else 0.0


def rounded(x: float | None, digits: int = 4) -> float | None:
    """``x`` rounded as ``results.json`` holds figures (4 decimals); ``None`` for ``None`` and NaN."""
    if x is None or (isinstance(x, float) and np.isnan(x)):
        return None
    return round(float(x), digits)


def paired(base: SetScores, pert: SetScores) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The question ids two sets share (``pert``'s order), with their positions in ``base`` and in ``pert``."""
    ids = [q for q in pert.ids if q in base._index]
    return ids, base.positions(ids), pert.positions(ids)


def score_set(name: str, dataset, predictions: Mapping[str, str] | None, *, reason: str | None = None) -> SetScores:
    """Per-question scores of ``predictions`` on ``dataset``, as its task scores them (:data:`SCORE_SET`:
    :func:`score_span_set` for span data, :func:`score_choice_set` for multiple choice).

    Args:
        name: the set name, kept in the result.
        dataset: the gold set.
        predictions: the predictions, or ``None`` when there are none for this set (the result is
            then marked not evaluated with ``reason``).
        reason: why there are no predictions (used only when ``predictions`` is ``None``).

    Returns:
        a :class:`SetScores` with arrays of shape ``(n_questions,)`` (scores in 0–1).

    Raises:
        MRCLensError: the dataset names a task that is not registered.
    """
    return SCORE_SET.of(task_of(dataset))(name, dataset, predictions, reason=reason)


def score_span_set(name: str, dataset: Dataset, predictions: Mapping[str, str] | None, *,
                   reason: str | None = None) -> SetScores:
    """Official per-question EM/F1 of ``predictions`` (``{question id: answer text}``) on a span
    ``dataset`` (arguments and result as :func:`score_set`)."""
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


def score_choice_set(name: str, dataset, predictions: Mapping[str, str] | None, *, reason: str | None = None) -> SetScores:
    """Per-question accuracy of multiple-choice ``predictions`` on an
    :class:`~mrclens.formats.multiple_choice.MCDataset` (issue 20).

    ``predictions`` maps question ids to the chosen ending's 0-based index, as an int or its
    decimal string (the ``"choice"`` prediction form). A question scores 1 when the index is its
    gold label, else 0 (also when the prediction is missing or not an index). Accuracy is both the
    exact match and the "F1" of the span task here, so ``em`` and ``f1`` hold the same 0/1 array and
    every drop, CI and reading below is an accuracy figure.

    >>> from mrclens.formats.multiple_choice import MCDataset, MCQuestion
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


class SetScorer(Protocol):
    """Role ``"score_set"`` (:mod:`mrclens.tasks`): per-question scores of one set's predictions
    (arguments and result as :func:`score_set`)."""

    def __call__(self, name: str, dataset: Any, predictions: Mapping[str, str] | None, *,
                 reason: str | None = None) -> SetScores: ...


SCORE_SET: TaskTable[SetScorer] = TaskTable("score_set", SetScorer, {SPAN: score_span_set, MULTIPLE_CHOICE: score_choice_set})


def choice_accuracy(dataset, predictions: Mapping[str, str]) -> dict[str, float | int]:
    """``{"accuracy": percent, "n", "missing", "unknown"}`` of multiple-choice predictions on an
    :class:`~mrclens.formats.multiple_choice.MCDataset` (``mrclens evaluate DATA PREDICTIONS``; issue 20)."""
    s = score_choice_set("data", dataset, predictions)
    return {"accuracy": round(percent(s.f1), 4), "n": s.n, "missing": s.missing, "unknown": s.unknown}
