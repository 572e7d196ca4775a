"""Score one prediction file against one data file (``mrclens evaluate DATA PREDICTIONS``).

:func:`score_span_file` (official SQuAD v1.1/v2.0 EM and F1, Rajpurkar et al. 2016, 2018) and
:func:`score_choice_file` (multiple-choice accuracy) are the tasks' entries in :data:`SCORE_FILE`
(role ``"score_file"`` of :mod:`mrclens.tasks`); both return a :class:`FileScore`, which the CLI prints.

Both check that the predictions are for ``data`` (:func:`check_prediction_ids`): a file none of whose
ids is a question of ``data`` (another dataset or split) is refused; a partial mismatch is scored,
with a warning that counts the questions without a prediction and the unknown ids.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Protocol

from mrclens.io_utils import json_text
from mrclens.tasks import MULTIPLE_CHOICE, SPAN, TaskTable


@dataclass
class FileScore:
    """The score of one prediction file.

    Attributes:
        result: every figure (percentages 0-100), as ``--json`` prints it.
        lines: the plain-text output.
        warnings: problems worth a warning (questions without prediction, unknown ids).
        notes: what ``on_invalid`` skipped or repaired in the data (:class:`~mrclens.errors.Problem`).
    """

    result: dict[str, Any]
    lines: list[str]
    warnings: list[str] = field(default_factory=list)
    notes: list[Any] = field(default_factory=list)


def check_prediction_ids(data: str | os.PathLike, predictions: str | os.PathLike, question_ids: list[str],
                         prediction_ids: list[str], left_out: tuple[str, set[str]] | None = None) -> list[str]:
    """The warnings about ids that do not match; refuse a prediction file that matches no question.

    Args:
        left_out: ``(mode, ids)``: the questions of ``data`` that ``--on-invalid MODE`` left out; their
            predictions are counted apart from the unknown ids.

    Returns:
        ``"N question(s) have no prediction and score 0"``, ``"N prediction(s) are for questions that
        --on-invalid MODE left out of DATA (not scored)"`` and ``"N prediction(s) are for question ids
        not in DATA"`` lines, those that apply.

    Raises:
        PredictionsError: ``data`` has questions, ``predictions`` has some, and no id of
            ``predictions`` is one of them (the message names both files and shows an id of each); an
            empty prediction file scores 0 with the warning.

    >>> check_prediction_ids("d.json", "p.json", ["a", "b"], ["a", "x"])
    ['1 question(s) have no prediction and score 0', '1 prediction(s) are for question ids not in d.json']
    >>> check_prediction_ids("d.json", "p.json", ["a"], ["a", "s", "x"], ("skip", {"s"}))
    ['1 prediction(s) are for questions that --on-invalid skip left out of d.json (not scored)', '1 prediction(s) are for question ids not in d.json']
    """
    questions = set(question_ids)
    matched = sum(1 for qid in set(prediction_ids) if qid in questions)
    if questions and prediction_ids and not matched:
        from mrclens.errors import PredictionsError

        example = f" (e.g. {prediction_ids[0]!r} vs {question_ids[0]!r})" if prediction_ids else ""
        raise PredictionsError(f"{predictions}: none of its {len(set(prediction_ids)):,} prediction ids is a question id "
                               f"of {data} ({len(questions):,} questions){example}: predictions for another dataset "
                               f"or split?")
    warnings = []
    missing = len(questions) - matched
    mode, skipped = left_out or ("", set())
    n_left_out = sum(1 for qid in set(prediction_ids) if qid not in questions and qid in skipped)
    unknown = sum(1 for qid in set(prediction_ids) if qid not in questions) - n_left_out
    if missing:
        warnings.append(f"{missing:,} question(s) have no prediction and score 0")
    if n_left_out:
        warnings.append(f"{n_left_out:,} prediction(s) are for questions that --on-invalid {mode} left out of {data} "
                        f"(not scored)")
    if unknown:
        warnings.append(f"{unknown:,} prediction(s) are for question ids not in {data}")
    return warnings


def score_span_file(data: str | os.PathLike, predictions: str | os.PathLike, *,
                    na_threshold: str | float | None = None, on_invalid: str = "refuse") -> FileScore:
    """Official EM/F1 of a prediction file on span data in any format MRCLens reads
    (:func:`mrclens.metrics.no_answer.evaluate_prediction_file`).

    Args:
        na_threshold: SQuAD v2.0 predictions with ``no_answer_probability``: ``None`` (the
            ``prediction_text`` as given), a probability in [0, 1], or ``"best"`` (the best-F1 threshold on ``data``).
        on_invalid: ``"refuse"``, ``"skip"`` or ``"repair"`` invalid questions of ``data``
            (:func:`mrclens.formats.load_dataset`). With skip or repair the result has ``on_invalid``:
            ``mode``, ``skipped`` questions, ``repaired`` answers, ``questions_left`` (scored) and
            ``predictions_left_out`` (for skipped questions: not scored, and not counted in ``unknown``).

    Raises:
        MRCLensError: a bad ``na_threshold`` (before anything is read); DataError / PredictionsError:
            a bad data or prediction file (named), or predictions none of whose ids is in ``data``.
    """
    from mrclens.artifacts.predictions import read_prediction_file
    from mrclens.formats import load_dataset
    from mrclens.metrics.no_answer import evaluate_prediction_file, parse_threshold

    threshold = parse_threshold(na_threshold)
    dataset = load_dataset(data, on_invalid=on_invalid)
    prediction_file = read_prediction_file(predictions)
    question_ids = [q.id for _, _, q in dataset.iter_questions()]
    skipped = {n.qid for n in dataset.notes if n.severity == "skipped" and n.qid is not None} - set(question_ids)
    warnings = check_prediction_ids(data, predictions, question_ids, list(prediction_file.texts), (on_invalid, skipped))
    result = evaluate_prediction_file(dataset, prediction_file, threshold)
    if on_invalid != "refuse":  # the counts of the notes on standard error and of `mrclens validate --on-invalid`
        left_out = sum(1 for qid in prediction_file.texts if qid in skipped)
        result["unknown"] -= left_out  # ids of no question of DATA, as the warnings count them
        result["on_invalid"] = {"mode": on_invalid, **{kind: sum(1 for n in dataset.notes if n.severity == kind)
                                                       for kind in ("skipped", "repaired")},
                                "questions_left": len(question_ids), "predictions_left_out": left_out}
    lines = [json_text({"exact_match": result["exact_match"], "f1": result["f1"]})]
    if "best_f1" in result:
        used = ("none: prediction_text as given" if result["na_threshold"] is None
                else f"{result['na_threshold']:g} ({result['na_threshold_source']})")
        lines.append(f"no-answer threshold used: {used}; best on this data: F1 {result['best_f1']:.2f} at "
                     f"{result['best_f1_thresh']:g}, EM {result['best_exact']:.2f} at {result['best_exact_thresh']:g}")
    return FileScore(result, lines, warnings, list(dataset.notes))


def score_choice_file(data: str | os.PathLike, predictions: str | os.PathLike, *,
                      na_threshold: str | float | None = None, on_invalid: str = "refuse") -> FileScore:
    """Accuracy of ``{"question id": ending index}`` predictions on a multiple-choice file
    (:func:`mrclens.scoring.drops.choice_accuracy`; issue 20). ``na_threshold`` does not apply;
    ``on_invalid`` is accepted for the same signature as :func:`score_span_file` (the multiple-choice
    reader has no per-question repairs).

    Raises:
        DataError / PredictionsError: a bad data or prediction file (named): an index that is not
            one of the question's endings (the message names the question), or no id of ``data``.
    """
    from mrclens.artifacts.predictions import read_prediction_file
    from mrclens.errors import FormatMsg, PredictionsError
    from mrclens.formats.multiple_choice import load_mc_dataset
    from mrclens.scoring.sets import choice_accuracy

    dataset = load_mc_dataset(data)
    texts = read_prediction_file(predictions, MULTIPLE_CHOICE.name).texts
    warnings = check_prediction_ids(data, predictions, [q.id for q in dataset.questions], list(texts))
    for q in dataset.questions:
        chosen = texts.get(q.id)
        if chosen is None or (chosen.isdigit() and int(chosen) < len(q.endings)):
            continue
        what = (f"ending index {chosen} is not one of its {len(q.endings)} endings (0-{len(q.endings) - 1})"
                if chosen.isdigit() else f"the chosen ending must be a 0-based index, got {chosen!r}")
        raise PredictionsError(FormatMsg.PRED_BAD_ITEM.format(path=predictions, where=f"question {q.id}", what=what))
    result = choice_accuracy(dataset, texts)
    return FileScore(result, [json_text(result)], warnings)


class FileScorer(Protocol):
    """Role ``"score_file"`` (:mod:`mrclens.tasks`): one prediction file scored against one data file
    (``mrclens evaluate DATA PREDICTIONS``); ``na_threshold``: the no-answer threshold where the task
    has unanswerable questions; ``on_invalid``: as the data is read.

    Raises:
        DataError / PredictionsError: a bad data or prediction file (named), or predictions none of
            whose ids is a question of ``data``.
    """

    def __call__(self, data: str | os.PathLike, predictions: str | os.PathLike, *,
                 na_threshold: str | float | None = None, on_invalid: str = "refuse") -> FileScore: ...


SCORE_FILE: TaskTable[FileScorer] = TaskTable("score_file", FileScorer, {
    SPAN: score_span_file, MULTIPLE_CHOICE: score_choice_file})
