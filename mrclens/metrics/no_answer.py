"""No-answer thresholds for SQuAD v2.0 predictions with no-answer probabilities.

The official SQuAD v2.0 script (``evaluate-v2.0.py``, Rajpurkar, Jia & Liang 2018) predicts "no
answer" for a question when its no-answer probability is **greater than** the threshold
(``--na-prob-thresh``, default 1.0), and reports the threshold that would have maximised EM and F1
on the data scored (``find_best_thresh``). :func:`best_thresholds` computes the same, with two
differences from the script, both so that the result is exact: questions without a prediction
score 0 and count (as everywhere in :mod:`mrclens.metrics.official`), and questions whose
probabilities tie are switched together (the script switches them one by one). The best threshold
is chosen on the very data it is scored on, so its score is an upper bound (an oracle), not an
estimate of the model's score on new data.

All scores are percentages (0–100); probabilities and thresholds are in [0, 1].
"""

from __future__ import annotations

from itertools import groupby
from typing import Mapping

from mrclens.artifacts.predictions import PredictionFile
from mrclens.errors import FormatMsg, MRCLensError
from mrclens.metrics.official import evaluate_set, question_scores
from mrclens.squad import Dataset


def apply_threshold(texts: Mapping[str, str], na_probs: Mapping[str, float], threshold: float) -> dict[str, str]:
    """``""`` (no answer) where ``na_probs[id] > threshold``, else the predicted text (official rule)."""
    return {qid: "" if na_probs.get(qid, 0.0) > threshold else text for qid, text in texts.items()}


def best_thresholds(dataset: Dataset, texts: Mapping[str, str], na_probs: Mapping[str, float]) -> dict[str, float]:
    """The thresholds that maximise EM and F1 of ``apply_threshold(texts, na_probs, t)`` on ``dataset``.

    Candidates are 0.0 and every distinct probability (any other threshold gives the same answers as
    the largest candidate below it); ties keep the smaller threshold, as the official script does.

    Returns:
        ``{"best_exact": %, "best_exact_thresh": t, "best_f1": %, "best_f1_thresh": t}``.
    """
    raw = question_scores(dataset, texts)
    null = question_scores(dataset, {qid: "" for qid in texts})
    total = len(raw)
    out: dict[str, float] = {}
    for k, name in ((0, "exact"), (1, "f1")):
        # at threshold t: p > t -> null answer, else the text; questions without a probability keep their text
        def score_at(t: float) -> float:
            return sum((null[q][k] if na_probs.get(q, 0.0) > t and q in texts else raw[q][k]) for q in raw)

        best_t, best = 0.0, score_at(0.0)
        current = best
        ordered = sorted((p, q) for q, p in na_probs.items() if q in raw and p > 0.0)
        for p, group in groupby(ordered, key=lambda pq: pq[0]):
            for _, q in group:  # raising t to p answers these questions with their text
                current += raw[q][k] - null[q][k]
            if current > best + 1e-12:
                best, best_t = current, p
        out[f"best_{name}"] = 100.0 * best / total if total else 0.0
        out[f"best_{name}_thresh"] = best_t
    return out



def parse_threshold(value: str | float | None) -> float | str | None:
    """``None``, ``"best"`` or a float in [0, 1] from a command-line value.

    Raises:
        MRCLensError: anything else.
    """
    if value is None or value == "best":
        return value
    try:
        t = float(value)
    except (TypeError, ValueError):
        t = float("nan")
    if not 0.0 <= t <= 1.0:
        raise MRCLensError(FormatMsg.NA_THRESHOLD.format(value=value))
    return t


def evaluate_prediction_file(dataset: Dataset, predictions: PredictionFile,
                             na_threshold: float | str | None = None) -> dict[str, float | int | str | None]:
    """Official EM/F1 of a prediction file of any format, with its no-answer probabilities if any.

    Args:
        na_threshold: ``None``: answers as the file gives them; a number: ``""`` where the
            no-answer probability is greater (official v2.0 rule); ``"best"``: the threshold
            that maximises F1 on ``dataset`` (an oracle, see the module docstring).

    Returns:
        :func:`~mrclens.metrics.official.evaluate_set`'s figures, plus ``predictions_format``,
        ``na_threshold`` (the threshold used, or ``None``) and ``na_threshold_source`` (``"none"``,
        ``"given"`` or ``"best F1 on this data"``); with no-answer probabilities also
        :func:`best_thresholds`' figures, as the official v2.0 script reports them.

    Raises:
        PredictionsError: ``na_threshold`` given but the file has no no-answer probabilities.
    """
    texts = predictions.texts
    best = best_thresholds(dataset, texts, predictions.na_probs) if predictions.na_probs else {}
    used: float | None = None
    source = "none"
    if na_threshold is not None:
        if predictions.na_probs is None:
            predictions.with_threshold(0.0)  # raises PredictionsError naming the file
        used = best["best_f1_thresh"] if na_threshold == "best" else float(na_threshold)
        source = "best F1 on this data" if na_threshold == "best" else "given"
        texts = apply_threshold(texts, predictions.na_probs, used)
    result: dict[str, float | int | str | None] = dict(evaluate_set(dataset, texts))
    result.update(predictions_format=predictions.format, na_threshold=used, na_threshold_source=source)
    result.update(best)
    return result
