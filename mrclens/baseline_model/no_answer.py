"""The reader's no-answer option (SQuAD v2.0): which questions train it, its loss, its decision rule
and the choice of its threshold.

Model: :class:`~mrclens.baseline_model.model.CoAttentionReader` built with ``no_answer=True`` gives a
no-answer logit ``z`` per question besides the span logits ``s`` (start) and ``e`` (end).

Loss (the joint negative log-likelihood of Levy et al. 2017 and Clark & Gardner 2018, "Simple and
Effective Multi-Paragraph Reading Comprehension"): with ``log Z = logsumexp(z, lse(s) + lse(e))``
(``lse(s) + lse(e)`` is the log of ``Σ_ij e^{s_i + e_j}``), an answerable question with gold span
``(a, b)`` costs ``log Z - s_a - e_b`` and an unanswerable one ``log Z - z``; the batch loss is the
mean. A reader without the option keeps the v1.1 loss, ``CE(s, a) + CE(e, b)``, computed exactly
as before.

Decision: the **no-answer score** of a question is ``z - (s_i + e_j)`` for the best span ``(i, j)``
(:func:`~mrclens.baseline_model.model.best_spans`), the log-odds of "no answer" against that span.
Its logistic ``sigmoid(z - s_i - e_j)`` is the **no-answer probability** written to prediction files
(Hugging Face ``no_answer_probability``); the reader answers ``""`` when it is greater than the
threshold (the official SQuAD v2.0 rule, ``evaluate-v2.0.py``'s ``--na-prob-thresh``), so
``mrclens evaluate --na-threshold T`` on its files reproduces its decisions at ``T``.

Threshold: chosen on the held-out **training** slice that also picks the best epoch (never on the
evaluation data): the threshold with the best F1 there (:func:`mrclens.metrics.no_answer.best_thresholds`,
the official ``find_best_thresh`` search), saved with the weights (``no_answer.json``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from mrclens.metrics.no_answer import apply_threshold, best_thresholds
from mrclens.metrics.official import evaluate_set
from mrclens.squad import Dataset

#: The threshold of a reader with the option that was trained without held-out data: abstain when
#: "no answer" is more likely than the best span (probability above one half).
DEFAULT_THRESHOLD = 0.5


def unanswerable_mask(dataset: Dataset) -> np.ndarray:
    """``bool (n_questions,)`` in file order (that of :func:`~mrclens.baseline_model.tokenize.tokenize_dataset`):
    True for a question without a gold answer in a SQuAD v2.0 dataset (``is_impossible``, or no
    answer). All False for v1.1 data (:attr:`~mrclens.squad.Dataset.is_v2` false)."""
    v2 = dataset.is_v2
    return np.fromiter((v2 and (bool(q.is_impossible) or not q.answers) for _, _, q in dataset.iter_questions()),
                       dtype=bool)


def usable_questions(spans: np.ndarray, unanswerable: np.ndarray, max_ctx: int, no_answer: bool) -> np.ndarray:
    """Indices of the training questions: those whose gold span ``spans[q]`` (inclusive tokens, -1 for
    none) lies inside the first ``max_ctx`` tokens, plus, when the reader has the no-answer option,
    the unanswerable ones (``unanswerable``, shape ``(n,)``)."""
    ok = (spans[:, 0] >= 0) & (spans[:, 1] < max_ctx)
    if no_answer:
        ok |= unanswerable
    return np.flatnonzero(ok)


def span_loss(outputs: tuple[torch.Tensor, ...], spans: torch.Tensor) -> torch.Tensor:
    """The training loss of a batch (module docstring), a scalar.

    Args:
        outputs: ``(start, end)`` ``(B, L)`` logits, or ``(start, end, null)`` with ``null`` ``(B,)``.
        spans: ``(B, 2)`` long gold token spans; ``(-1, -1)`` marks an unanswerable question (only
            with ``null``).
    """
    if len(outputs) == 2:
        start, end = outputs
        return F.cross_entropy(start, spans[:, 0]) + F.cross_entropy(end, spans[:, 1])
    start, end, null = (t.float() for t in outputs)
    has = spans[:, 0] >= 0
    span_lse = torch.logsumexp(start, dim=1) + torch.logsumexp(end, dim=1)
    log_z = torch.logaddexp(null, span_lse)
    idx = spans.clamp(min=0)
    gold = start.gather(1, idx[:, :1]).squeeze(1) + end.gather(1, idx[:, 1:]).squeeze(1)
    return (log_z - torch.where(has, gold, null)).mean()


def no_answer_probs(scores: np.ndarray) -> np.ndarray:
    """``sigmoid(scores)`` in float64: no-answer scores (log-odds) → probabilities in [0, 1]."""
    s = np.asarray(scores, dtype=np.float64)
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-s))


def threshold_score(threshold: float) -> float | None:
    """The no-answer score (log-odds) a probability threshold stands for, ``None`` at 0 or 1."""
    if not 0.0 < threshold < 1.0:
        return None
    return math.log(threshold / (1.0 - threshold))


def choose_threshold(dataset: Dataset, span_texts: dict[str, str], na_probs: dict[str, float]) -> dict[str, Any]:
    """The threshold with the best official F1 on ``dataset`` (the held-out training slice).

    Args:
        span_texts: ``{question id: best span's text}`` (before any abstention).
        na_probs: ``{question id: no-answer probability}``.

    Returns:
        ``{"threshold", "threshold_score", "exact_match", "f1", "n", "abstained"}``: the probability
        threshold, the same as a no-answer score (log-odds; ``None`` at 0 or 1), the EM/F1 (percent)
        at that threshold, the number of questions and how many of them it answers ``""``.
    """
    best = best_thresholds(dataset, span_texts, na_probs)
    t = float(best["best_f1_thresh"])
    answers = apply_threshold(span_texts, na_probs, t)
    scores = evaluate_set(dataset, answers)
    return {"threshold": t, "threshold_score": threshold_score(t), "exact_match": scores["exact_match"],
            "f1": scores["f1"], "n": len(answers), "abstained": sum(1 for a in answers.values() if a == "")}
