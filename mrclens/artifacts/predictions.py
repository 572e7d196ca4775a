"""Prediction files: reading every common format, writing the official one, and a directory of them.

The format is that of the official SQuAD evaluation script (Rajpurkar et al. 2016). MRCLens
writes one official-format file ``{"question id": "answer text"}`` per perturbed set (``mrclens predict``,
the audit's ``predictions/<set>.json``) and reads any model's files in the official form or the
Hugging Face forms (:data:`PREDICTION_FORMATS`; ``mrclens evaluate``).

Examples:
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = write_predictions(folder / "e1.json", {"q1": "Paris"})
    >>> read_predictions(folder / "e1.json")
    {'q1': 'Paris'}
"""

from __future__ import annotations

import gzip
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

from mrclens.artifacts.layout import prediction_file_name
from mrclens.errors import ArtifactError, ArtifactMsg, FormatMsg, PredictionsError
from mrclens.io_utils import atomic_write_json, read_bytes
from mrclens.tasks import DEFAULT_TASK, get_task


#: The prediction file formats :func:`read_prediction_file` reads.
PREDICTION_FORMATS = {
    "official": '{"question id": "answer text"} (the official SQuAD scripts)',
    "n-best": '{"question id": [n-best answers, best first]} (strings, or objects with "text"; the first is used)',
    "hf-list": 'a JSON list of {"id", "prediction_text"[, "no_answer_probability"]} (Hugging Face squad/squad_v2 metric)',
    "hf-jsonl": "JSON Lines of the same objects, one per line",
    "choice": '{"question id": ending index} (multiple-choice data, issue 20: the 0-based index of the chosen ending)',
}


@dataclass
class PredictionFile:
    """A prediction file as read, in any of :data:`PREDICTION_FORMATS`.

    Attributes:
        path: the file read.
        format: which of :data:`PREDICTION_FORMATS` it is.
        texts: ``{question id: answer text}`` (``""`` = no answer), as the file gives them.
        na_probs: ``{question id: no-answer probability (0-1)}`` when the file has them (Hugging Face
            ``no_answer_probability``), else ``None``.
    """

    path: str
    format: str
    texts: dict[str, str]
    na_probs: dict[str, float] | None = None

    def with_threshold(self, threshold: float) -> dict[str, str]:
        """The answers with the official SQuAD v2.0 rule applied: ``""`` where ``na_prob > threshold``.

        Raises:
            PredictionsError: the file has no no-answer probabilities.
        """
        if self.na_probs is None:
            raise PredictionsError(FormatMsg.NA_NO_PROBS.format(path=self.path))
        return {qid: "" if self.na_probs.get(qid, 0.0) > threshold else text for qid, text in self.texts.items()}


def read_prediction_file(path: str | os.PathLike, task: str = DEFAULT_TASK) -> PredictionFile:
    """Read a prediction file in any of :data:`PREDICTION_FORMATS` (UTF-8, a BOM allowed; ``.gz`` names gunzipped).

    The task (a :mod:`mrclens.tasks` name) decides what an answer is (:attr:`mrclens.tasks.Task.prediction_form`):
    for multiple choice (issue 20) ``{"question id": ending index}`` (the ``"choice"`` form; indices
    kept as decimal strings); for span data an index is not an answer and is an error.

    Every prediction in the file is used or the file is refused: a question id given twice (also as
    a repeated key of one JSON object, which a JSON parser would silently collapse) is an error.

    Raises:
        MRCLensError: ``task`` is not a registered task.
        PredictionsError: unreadable (not gzip, not UTF-8, not JSON, nested too deeply), of no known
            shape (for multiple choice: anything but ``{"question id": ending index}``), a non-string
            answer, an empty n-best list, a duplicate id, a no-answer probability that is not a number
            in [0, 1] or that only some items have (the message names the file, the item and what is
            wrong).
        FileNotFoundError: the file does not exist.
    """
    path = str(path)
    try:
        text = read_bytes(path).decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise PredictionsError(FormatMsg.PRED_NOT_UTF8.format(path=path, err=err)) from None
    except gzip.BadGzipFile as err:
        raise PredictionsError(FormatMsg.PRED_NOT_GZIP.format(path=path, err=err)) from None
    try:
        obj = _loads(text, path, "")
        fmt = "hf-list" if isinstance(obj, list) else None
    except json.JSONDecodeError as err:
        if err.msg != "Extra data":
            raise PredictionsError(FormatMsg.PRED_NOT_JSON.format(path=path, err=err.msg, line=err.lineno, col=err.colno)) from None
        obj, fmt = [], "hf-jsonl"
        for number, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    obj.append((f"line {number}", _loads(line, path, f"line {number}: ")))
                except json.JSONDecodeError as line_err:
                    raise PredictionsError(FormatMsg.PRED_NOT_JSON.format(path=path, err=line_err.msg, line=number,
                                                                          col=line_err.colno)) from None
    if fmt is not None and get_task(task).prediction_form == "choice":
        raise PredictionsError(FormatMsg.PRED_CHOICE_SHAPE.format(path=path, kind="a JSON list" if fmt == "hf-list"
                                                                  else "JSON Lines"))
    if isinstance(obj, dict):
        return _read_mapping(path, obj, task)
    if fmt == "hf-list":
        obj = [(f"item {i}", item) for i, item in enumerate(obj)]
    if fmt is None:
        raise PredictionsError(FormatMsg.PRED_SHAPE.format(path=path, why=f"the JSON value is a {type(obj).__name__}"))
    return _read_items(path, fmt, obj)


def _loads(text: str, path: str, where: str):
    """``json.loads`` that refuses a key repeated in one object (the item names it) and nesting too
    deep to parse (:class:`PredictionsError`); other syntax errors raise ``json.JSONDecodeError``."""
    def pairs(items: list) -> dict:
        out: dict = {}
        for key, value in items:
            if key in out:
                raise PredictionsError(FormatMsg.PRED_REPEATED_KEY.format(path=path, where=where, key=key))
            out[key] = value
        return out

    try:
        return json.loads(text, object_pairs_hook=pairs)
    except RecursionError:
        raise PredictionsError(FormatMsg.PRED_NOT_JSON.format(path=path, err="nested too deeply", line="?", col="?")) from None


def _read_mapping(path: str, obj: dict, task: str = DEFAULT_TASK) -> PredictionFile:
    texts: dict[str, str] = {}
    n_best = False
    if get_task(task).prediction_form == "choice":  # {id: 0-based ending index}, kept as decimal strings ("2")
        for qid, v in obj.items():
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise PredictionsError(FormatMsg.PRED_BAD_ITEM.format(
                    path=path, where=f"question {qid}", what=f"the chosen ending must be a 0-based index, got {v!r}"))
        return PredictionFile(path, "choice", {qid: str(v) for qid, v in obj.items()})
    for qid, answer in obj.items():
        if isinstance(answer, list):
            n_best = True
            if not answer:
                raise PredictionsError(FormatMsg.PRED_BAD_ITEM.format(path=path, where=f"question {qid}", what="the n-best list is empty"))
            answer = answer[0]
            if isinstance(answer, dict):
                answer = answer.get("text")
        if not isinstance(answer, str):
            raise PredictionsError(f"{path}: question {qid}: the predicted answer must be a string, got {type(answer).__name__}")
        texts[qid] = answer
    return PredictionFile(path, "n-best" if n_best else "official", texts)


def _read_items(path: str, fmt: str, items: list) -> PredictionFile:
    texts: dict[str, str] = {}
    probs: dict[str, float] = {}
    for where, item in items:
        if not isinstance(item, dict) or "prediction_text" not in item or "id" not in item:
            raise PredictionsError(FormatMsg.PRED_SHAPE.format(
                path=path, why=f"{where} is not an object with 'id' and 'prediction_text'"))
        qid, answer = item["id"], item["prediction_text"]
        if isinstance(qid, bool) or not isinstance(qid, (str, int)):
            raise PredictionsError(FormatMsg.PRED_BAD_ITEM.format(path=path, where=where, what=f"'id' must be a string, got {qid!r}"))
        qid = str(qid)
        if not isinstance(answer, str):
            raise PredictionsError(FormatMsg.PRED_BAD_ITEM.format(path=path, where=f"{where} (question {qid})",
                                                                  what="'prediction_text' must be a string"))
        if qid in texts:
            raise PredictionsError(FormatMsg.PRED_DUPLICATE.format(path=path, where=where, qid=qid))
        texts[qid] = answer
        if "no_answer_probability" in item:
            p = item["no_answer_probability"]
            if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0.0 <= p <= 1.0:
                raise PredictionsError(FormatMsg.PRED_BAD_ITEM.format(
                    path=path, where=f"{where} (question {qid})", what=f"'no_answer_probability' must be a number in [0, 1], got {p!r}"))
            probs[qid] = float(p)
    if probs and len(probs) != len(texts):
        first = next(q for q in texts if q not in probs)
        raise PredictionsError(FormatMsg.PRED_BAD_ITEM.format(
            path=path, where=f"question {first}", what="no 'no_answer_probability', which other items have"))
    return PredictionFile(path, fmt, texts, probs or None)


def read_predictions(path: str | os.PathLike, task: str = DEFAULT_TASK) -> dict[str, str]:
    """``{question id: answer text}`` from a prediction file in any of :data:`PREDICTION_FORMATS`.

    Answers are used as the file gives them (a Hugging Face ``prediction_text`` already holds
    the model's no-answer decision); to apply a no-answer threshold, use
    :func:`read_prediction_file` and :meth:`PredictionFile.with_threshold`.

    Raises:
        PredictionsError: see :func:`read_prediction_file`.
        FileNotFoundError: the file does not exist.
    """
    return read_prediction_file(path, task).texts


def write_choice_predictions(path: str | os.PathLike, predictions: Mapping[str, int], *,
                             protect: tuple[str | os.PathLike, ...] = ()) -> Path:
    """Write multiple-choice predictions ``{"question id": ending index}`` atomically (the
    ``"choice"`` form of :data:`PREDICTION_FORMATS`; indices are 0-based ints).

    Raises:
        ValueError: an index is not a non-negative int.
    """
    bad = next((q for q, v in predictions.items() if isinstance(v, bool) or not isinstance(v, int) or v < 0), None)
    if bad is not None:
        raise ValueError(f"{path}: question {bad}: the chosen ending must be a 0-based index, got {predictions[bad]!r}")
    return atomic_write_json(path, {q: int(v) for q, v in predictions.items()}, protect=protect)


def write_predictions(path: str | os.PathLike, predictions: Mapping[str, str], *,
                      protect: tuple[str | os.PathLike, ...] = (),
                      na_probs: Mapping[str, float] | None = None,
                      na_scores: Mapping[str, float] | None = None) -> Path:
    """Write predictions atomically (compact UTF-8 JSON, questions in the given order).

    Without ``na_probs``: the official format ``{"question id": "answer text"}``. With them (a
    reader that abstains, SQuAD v2.0): the Hugging Face list format ``[{"id", "prediction_text",
    "no_answer_probability"[, "no_answer_score"]}]`` (``"hf-list"`` of :data:`PREDICTION_FORMATS`),
    where ``prediction_text`` already holds the no-answer decision (``""``) and the optional
    ``no_answer_score`` is the reader's log-odds of "no answer" (``null`` when infinite).

    Args:
        protect: paths that must never be overwritten (the user's data file).
        na_probs: ``{question id: no-answer probability in [0, 1]}`` for every question.
        na_scores: ``{question id: no-answer score}`` (optional).

    Raises:
        ValueError: ``na_probs`` lacks a question of ``predictions``.
    """
    if na_probs is None:
        return atomic_write_json(path, dict(predictions), protect=protect)
    items = []
    for qid, text in predictions.items():
        if qid not in na_probs:
            raise ValueError(f"{path}: question {qid} has an answer but no no-answer probability")
        item: dict = {"id": qid, "prediction_text": text, "no_answer_probability": float(na_probs[qid])}
        if na_scores is not None:
            score = float(na_scores[qid])
            item["no_answer_score"] = score if abs(score) != float("inf") else None
        items.append(item)
    return atomic_write_json(path, items, protect=protect)


@dataclass
class PredictionsDir:
    """The prediction files found for a list of sets.

    Attributes:
        directory: the folder read.
        predictions: ``{set name: {question id: answer}}``; ``None`` for a set without a file.
        missing_reasons: ``{set name: why there is no file}``.
        extra_files: ``*.json`` files that match no set (ignored).
    """

    directory: Path
    predictions: dict[str, dict[str, str] | None]
    missing_reasons: dict[str, str] = field(default_factory=dict)
    extra_files: list[str] = field(default_factory=list)

    def file(self, set_name: str) -> Path:
        """The path of a set's prediction file (whether or not it exists)."""
        return self.directory / prediction_file_name(set_name)


def read_predictions_dir(predictions_dir: str | os.PathLike, set_names: Sequence[str],
                         task: str = DEFAULT_TASK) -> PredictionsDir:
    """Read ``<set name>.json`` from ``predictions_dir`` for every set name (``task``: see :func:`read_prediction_file`).

    Raises:
        ArtifactError: ``predictions_dir`` is not a directory, or it holds none of the expected files.
        PredictionsError: a file is not valid JSON, not an object, or has a non-string answer
            (the message names the file).
    """
    pdir = Path(predictions_dir)
    if not pdir.is_dir():
        raise ArtifactError(ArtifactMsg.PREDICTIONS_NOT_DIR.format(path=predictions_dir))
    out = PredictionsDir(pdir, {})
    for name in set_names:
        path = out.file(name)
        if path.exists():
            out.predictions[name] = read_predictions(path, task)
        else:
            out.predictions[name] = None
            out.missing_reasons[name] = f"no prediction file {path}"
    if all(p is None for p in out.predictions.values()):
        expected = ", ".join(prediction_file_name(n) for n in set_names)
        raise ArtifactError(ArtifactMsg.PREDICTIONS_NONE.format(path=predictions_dir, expected=expected))
    names = {prediction_file_name(n) for n in set_names}
    out.extra_files = sorted(p.name for p in pdir.glob("*.json") if p.name not in names)
    return out
