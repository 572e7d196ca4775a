"""Score one prediction file against one data file (``mrclens evaluate DATA PREDICTIONS``).

:func:`score_span_file` (official SQuAD v1.1/v2.0 EM and F1, Rajpurkar et al. 2016, 2018) and
:func:`score_choice_file` (multiple-choice accuracy) are the tasks' ``"score_file"`` entry points in
:mod:`mrclens.tasks`; both return a :class:`FileScore`, which the CLI prints.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any


@dataclass
class FileScore:
    """The score of one prediction file.

    Attributes:
        result: every figure (percentages 0-100), as ``--json`` prints it.
        lines: the plain-text output.
        warnings: problems worth a warning (questions without prediction, unknown ids).
    """

    result: dict[str, Any]
    lines: list[str]
    warnings: list[str] = field(default_factory=list)


def score_span_file(data: str | os.PathLike, predictions: str | os.PathLike, *,
                    na_threshold: str | float | None = None) -> FileScore:
    """Official EM/F1 of a prediction file on span data in any format MRCLens reads
    (:func:`mrclens.metrics.no_answer.evaluate_prediction_file`).

    Args:
        na_threshold: SQuAD v2.0 predictions with ``no_answer_probability``: ``None`` (the
            ``prediction_text`` as given), a probability in [0, 1], or ``"best"`` (the best-F1 threshold on ``data``).

    Raises:
        MRCLensError: a bad ``na_threshold`` (before anything is read); DataError / PredictionsError:
            a bad data or prediction file (named).
    """
    from mrclens.artifacts.predictions import read_prediction_file
    from mrclens.formats import load_dataset
    from mrclens.metrics.no_answer import evaluate_prediction_file, parse_threshold

    threshold = parse_threshold(na_threshold)
    result = evaluate_prediction_file(load_dataset(data), read_prediction_file(predictions), threshold)
    lines = [json.dumps({"exact_match": result["exact_match"], "f1": result["f1"]})]
    if "best_f1" in result:
        used = ("none: prediction_text as given" if result["na_threshold"] is None
                else f"{result['na_threshold']:g} ({result['na_threshold_source']})")
        lines.append(f"no-answer threshold used: {used}; best on this data: F1 {result['best_f1']:.2f} at "
                     f"{result['best_f1_thresh']:g}, EM {result['best_exact']:.2f} at {result['best_exact_thresh']:g}")
    warnings = []
    if result["missing"]:
        warnings.append(f"{result['missing']:,} question(s) have no prediction and score 0")
    if result["unknown"]:
        warnings.append(f"{result['unknown']:,} prediction(s) are for question ids not in {data}")
    return FileScore(result, lines, warnings)


def score_choice_file(data: str | os.PathLike, predictions: str | os.PathLike, *,
                      na_threshold: str | float | None = None) -> FileScore:
    """Accuracy of ``{"question id": ending index}`` predictions on a multiple-choice file
    (:func:`mrclens.scoring.drops.choice_accuracy`; issue 20). ``na_threshold`` does not apply.

    Raises:
        DataError / PredictionsError: a bad data or prediction file (named).
    """
    from mrclens.artifacts.predictions import read_prediction_file
    from mrclens.multiple_choice.data import load_mc_dataset
    from mrclens.scoring.sets import choice_accuracy
    from mrclens.tasks import MULTIPLE_CHOICE

    result = choice_accuracy(load_mc_dataset(data), read_prediction_file(predictions, MULTIPLE_CHOICE.name).texts)
    return FileScore(result, [json.dumps(result)])
