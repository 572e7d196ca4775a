"""Official-format prediction files ``{"question id": "answer text"}``: reading, writing, and a directory of them.

The format is that of the official SQuAD evaluation script (Rajpurkar et al. 2016). MRCLens
writes one file per perturbed set (``mrclens predict``, the audit's ``predictions/<set>.json``)
and reads any model's files of the same form (``mrclens evaluate``).

Examples:
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = write_predictions(folder / "e1.json", {"q1": "Paris"})
    >>> read_predictions(folder / "e1.json")
    {'q1': 'Paris'}
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

from mrclens.artifacts.layout import prediction_file_name
from mrclens.errors import ArtifactError, ArtifactMsg, PredictionsError
from mrclens.io_utils import atomic_write_json, read_bytes


def read_predictions(path: str | os.PathLike) -> dict[str, str]:
    """Read an official-format prediction file ``{"question id": "answer text"}`` (UTF-8, a BOM allowed).

    Raises:
        PredictionsError: the file is not JSON, not an object, or an answer is not a string
            (the message names the file and the question id).
        FileNotFoundError: the file does not exist.
    """
    path = str(path)
    try:
        obj = json.loads(read_bytes(path).decode("utf-8-sig"))
    except json.JSONDecodeError as err:
        raise PredictionsError(f"{path}: not valid JSON: {err.msg} (line {err.lineno}, column {err.colno})") from None
    except UnicodeDecodeError as err:
        raise PredictionsError(f"{path}: not UTF-8 text: {err}") from None
    if not isinstance(obj, dict):
        raise PredictionsError(f'{path}: expected a JSON object {{"question id": "answer text"}}, got {type(obj).__name__}')
    for qid, answer in obj.items():
        if not isinstance(answer, str):
            raise PredictionsError(f"{path}: question {qid}: the predicted answer must be a string, got {type(answer).__name__}")
    return obj


def write_predictions(path: str | os.PathLike, predictions: Mapping[str, str], *,
                      protect: tuple[str | os.PathLike, ...] = ()) -> Path:
    """Write ``{"question id": "answer text"}`` atomically (compact UTF-8 JSON, keys in the given order).

    Args:
        protect: paths that must never be overwritten (the user's data file).
    """
    return atomic_write_json(path, dict(predictions), protect=protect)


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


def read_predictions_dir(predictions_dir: str | os.PathLike, set_names: Sequence[str]) -> PredictionsDir:
    """Read ``<set name>.json`` from ``predictions_dir`` for every set name.

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
            out.predictions[name] = read_predictions(path)
        else:
            out.predictions[name] = None
            out.missing_reasons[name] = f"no prediction file {path}"
    if all(p is None for p in out.predictions.values()):
        expected = ", ".join(prediction_file_name(n) for n in set_names)
        raise ArtifactError(ArtifactMsg.PREDICTIONS_NONE.format(path=predictions_dir, expected=expected))
    names = {prediction_file_name(n) for n in set_names}
    out.extra_files = sorted(p.name for p in pdir.glob("*.json") if p.name not in names)
    return out
