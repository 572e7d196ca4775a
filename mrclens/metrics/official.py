"""Official SQuAD exact match (EM) and F1.

Reproduces, rule for rule, the official evaluation scripts:

* SQuAD v1.1 ``evaluate-v1.1.py`` (Rajpurkar et al. 2016): answers are normalised by
  lower-casing, removing ASCII punctuation (``string.punctuation``), removing the
  articles *a*, *an*, *the*, and collapsing whitespace. F1 is computed over bags of
  whitespace tokens; a question's score is the maximum over its gold answers; a
  question without a prediction scores 0 and still counts.
* SQuAD v2.0 ``evaluate-v2.0.py`` (Rajpurkar, Jia & Liang 2018): gold answers that
  normalise to the empty string are dropped, and a question with none left is a
  "no answer" question whose only gold answer is ``""``; if either the prediction
  or the gold answer has no tokens, F1 is 1 when both have none, else 0. Scores are
  also reported on the ``HasAns`` and ``NoAns`` subsets. One deliberate difference:
  the official v2.0 script skips questions without a prediction, which silently
  inflates the score; here they score 0 and count, as in v1.1.

All returned scores are percentages (0–100), like the official scripts.

Examples:
    >>> round(f1_score("the Eiffel Tower", "Eiffel Tower in Paris"), 4)
    0.6667
    >>> exact_match_score("The  Beatles!", "beatles")
    True
"""

from __future__ import annotations

import functools
import re
import string
from collections import Counter
from typing import Mapping

from mrclens.squad import Dataset

_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)
_PUNCT_TABLE = str.maketrans("", "", string.punctuation)


def normalize_answer(s: str) -> str:
    """Lower-case, remove ASCII punctuation, remove articles, collapse whitespace (official rule order)."""
    s = s.lower()
    s = s.translate(_PUNCT_TABLE)  # same as the official ''.join(ch for ch in s if ch not in exclude)
    s = _ARTICLES.sub(" ", s)
    return " ".join(s.split())


def exact_match_score(prediction: str, ground_truth: str) -> bool:
    """SQuAD v1.1 exact match: normalised strings are equal."""
    return normalize_answer(prediction) == normalize_answer(ground_truth)


def f1_score(prediction: str, ground_truth: str) -> float:
    """SQuAD v1.1 token F1 (0–1) between one prediction and one gold answer.

    An empty normalised prediction or gold answer scores 0 (v1.1 rule).
    """
    pred_tokens = normalize_answer(prediction).split()
    gold_tokens = normalize_answer(ground_truth).split()
    common = Counter(pred_tokens) & Counter(gold_tokens)
    num_same = sum(common.values())
    if num_same == 0:
        return 0.0
    precision = num_same / len(pred_tokens)
    recall = num_same / len(gold_tokens)
    return 2 * precision * recall / (precision + recall)


def f1_score_v2(prediction: str, ground_truth: str) -> float:
    """SQuAD v2.0 token F1 (0–1): like v1.1, but empty vs empty scores 1."""
    pred_tokens = normalize_answer(prediction).split()
    gold_tokens = normalize_answer(ground_truth).split()
    if not pred_tokens or not gold_tokens:
        return float(pred_tokens == gold_tokens)
    return f1_score(prediction, ground_truth)


@functools.lru_cache(maxsize=1 << 15)
def _normalized_bag(text: str) -> tuple[tuple[str, ...], Counter]:
    """The tokens of ``normalize_answer(text)`` and their bag (never mutate the bag)."""
    toks = tuple(normalize_answer(text).split())
    return toks, Counter(toks)


def _bag_f1(pred: tuple[str, ...], gold: tuple[str, ...], pred_bag: Counter, gold_bag: Counter) -> float:
    """``f1_score`` on already-normalised tokens and their bags (same arithmetic)."""
    num_same = sum((pred_bag & gold_bag).values())
    if num_same == 0:
        return 0.0
    precision = num_same / len(pred)
    recall = num_same / len(gold)
    return 2 * precision * recall / (precision + recall)


def question_scores(dataset: Dataset, predictions: Mapping[str, str]) -> dict[str, tuple[float, float]]:
    """Per-question ``(exact_match, f1)`` in 0–1, keyed by question id, in file order.

    The v2.0 rules apply when the dataset has ``is_impossible`` fields
    (:attr:`Dataset.is_v2`). A question missing from ``predictions`` scores ``(0, 0)``.
    Normalised strings are memoised (the same gold answers are scored against many prediction
    sets); the scores are those of :func:`exact_match_score`, :func:`f1_score` and
    :func:`f1_score_v2`, pair by pair.
    """
    v2 = dataset.is_v2
    norm = _normalized_bag
    out: dict[str, tuple[float, float]] = {}
    for _, _, q in dataset.iter_questions():
        if q.id not in predictions:
            out[q.id] = (0.0, 0.0)
            continue
        golds = [norm(a.text) for a in q.answers] or [norm("")]
        if v2:
            golds = [g for g in golds if g[0]] or [norm("")]
        pred, pred_bag = norm(predictions[q.id])
        em = f1 = 0.0
        for gold, gold_bag in golds:
            if pred == gold:  # equal normalised strings <=> equal token tuples
                em = 1.0
                if pred:  # precision = recall = 1
                    f1 = 1.0
                    continue
            if v2 and (not pred or not gold):
                f1 = max(f1, float(pred == gold))
            else:
                f1 = max(f1, _bag_f1(pred, gold, pred_bag, gold_bag))
        out[q.id] = (em, f1)
    return out


def evaluate_set(dataset: Dataset, predictions: Mapping[str, str]) -> dict[str, float | int]:
    """Official EM/F1 of ``predictions`` (``{question id: answer text}``) on ``dataset``.

    Returns:
        ``{"exact_match": %, "f1": %, "total": n, "missing": n_without_prediction,
        "unknown": n_predictions_for_unknown_ids}`` (``exact_match``, ``f1``: the names of the official
        v1.1 script); for a v2.0 dataset also the names of the official v2.0 script
        (``evaluate-v2.0.py``, and Hugging Face ``evaluate``'s ``squad_v2``): ``exact`` (=
        ``exact_match``), ``HasAns_exact``, ``HasAns_f1``, ``HasAns_total``, ``NoAns_exact``,
        ``NoAns_f1``, ``NoAns_total`` (subsets with no questions are omitted).
    """
    scores = question_scores(dataset, predictions)
    total = len(scores)
    result: dict[str, float | int] = {
        "exact_match": 100.0 * sum(em for em, _ in scores.values()) / total if total else 0.0,
        "f1": 100.0 * sum(f1 for _, f1 in scores.values()) / total if total else 0.0,
        "total": total,
        "missing": sum(1 for qid in scores if qid not in predictions),
        "unknown": sum(1 for qid in predictions if qid not in scores),
    }
    if dataset.is_v2:
        result["exact"] = result["exact_match"]
        has_ans = {q.id: any(normalize_answer(a.text) for a in q.answers) for _, _, q in dataset.iter_questions()}
        for name, flag in (("HasAns", True), ("NoAns", False)):
            ids = [qid for qid, h in has_ans.items() if h is flag]
            if ids:
                result[f"{name}_exact"] = 100.0 * sum(scores[i][0] for i in ids) / len(ids)
                result[f"{name}_f1"] = 100.0 * sum(scores[i][1] for i in ids) / len(ids)
                result[f"{name}_total"] = len(ids)
    return result
