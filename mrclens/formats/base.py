"""What every format reader returns, and the helpers they share (reading text, JSON Lines).

Each reader turns its input into the SQuAD JSON object (:meth:`mrclens.squad.Dataset.to_json`'s
schema) and validates it with :func:`mrclens.formats.squad_schema.parse_squad`, so that every
format gives the same :class:`~mrclens.squad.Dataset` and the same problem messages (file, article
title, question id, what is wrong). Problems that only a format can have (a bad JSON line, an MRQA span out of range)
name the line as well.
"""

from __future__ import annotations

import gzip
import io
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from mrclens.errors import FormatMsg, Msg, Problem
from mrclens.io_utils import gunzip
from mrclens.formats.squad_schema import parse_squad
from mrclens.squad import Dataset

#: The formats MRCLens reads, as named by ``format=`` / ``--format``, with what each is.
FORMAT_DESCRIPTIONS = {
    "squad": "SQuAD v1.1/v2.0 JSON ({\"data\": [articles]}, .json or .json.gz)",
    "hf-flat": ("the flat Hugging Face squad/squad_v2 schema (id, title, context, question, "
                "answers{text, answer_start}) as JSON Lines, a JSON list, or parquet; in Python also a "
                "datasets.Dataset, pyarrow Table, pandas DataFrame or list of dicts"),
    "mrqa": "MRQA 2019 shared-task JSON Lines (header line, then one context with 'qas' per line)",
    "nq-simplified": "Natural Questions simplified JSON Lines (document_text, long_answer_candidates, annotations)",
}


def known_formats() -> str:
    """One line listing every format MRCLens reads (for error messages)."""
    return "; ".join(f"{name}: {text}" for name, text in FORMAT_DESCRIPTIONS.items())


@dataclass
class Loaded:
    """A dataset read by :func:`mrclens.formats.read`, with how it was read.

    Attributes:
        dataset: the validated dataset (items with errors are left out where possible).
        format: one of :data:`FORMAT_DESCRIPTIONS`' keys.
        container: ``"json"``, ``"jsonl"``, ``"parquet"``, ``"save_to_disk"`` (a folder written by
            ``datasets``) or ``"object"`` (a Python object).
        detected: True when ``format`` was found by auto-detection, False when it was asked for.
        problems: every error and warning found (see :class:`~mrclens.errors.Problem`).
        counts: what the conversion did, by name (e.g. MRQA ``spans_merged``, NQ ``dropped_yes_no``);
            empty for SQuAD JSON, which needs no conversion.
        notes: one human-readable line per count that is not zero, saying why.
    """

    dataset: Dataset
    format: str
    container: str
    detected: bool = True
    problems: list[Problem] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    def describe(self) -> str:
        """E.g. ``"mrqa (JSON Lines, detected)"``."""
        kind = {"json": "JSON", "jsonl": "JSON Lines", "parquet": "parquet", "object": "Python object",
                "save_to_disk": "datasets save_to_disk folder"}[self.container]
        return f"{self.format} ({kind}, {'detected' if self.detected else 'as asked'})"


def open_text(path: str | os.PathLike) -> io.TextIOBase:
    """Open a UTF-8 text file for reading, gunzipping it when its name ends in ``.gz`` or it starts
    with the gzip magic bytes; a UTF-8 byte-order mark is skipped."""
    path = Path(path)
    with open(path, "rb") as fh:
        magic = fh.read(2)
    if path.name.endswith(".gz") or magic == b"\x1f\x8b":
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8-sig")
    return open(path, encoding="utf-8-sig")


def read_text(path: str | os.PathLike) -> tuple[str | None, list[Problem]]:
    """The whole file as text, or ``None`` and the problem (not gzip, not UTF-8)."""
    file = str(path)
    data = Path(path).read_bytes()  # FileNotFoundError propagates
    try:
        if file.endswith(".gz") or data[:2] == b"\x1f\x8b":
            data = gunzip(data)
        return data.decode("utf-8-sig"), []
    except gzip.BadGzipFile as err:
        return None, [Problem(file, Msg.NOT_GZIP.format(err=err))]
    except UnicodeDecodeError as err:
        return None, [Problem(file, Msg.NOT_UTF8.format(err=err))]


def iter_jsonl(text: str, file: str, problems: list[Problem]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line number, object)`` for every non-blank line that is a JSON object; every other
    line becomes a problem naming its 1-based number. Integers of any size stay exact (Python ``int``)."""
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as err:
            problems.append(Problem(file, FormatMsg.JSONL_BAD_LINE.format(line=number, err=err.msg, col=err.colno)))
            continue
        if not isinstance(obj, dict):
            problems.append(Problem(file, FormatMsg.JSONL_NOT_OBJECT.format(line=number, kind=type(obj).__name__)))
            continue
        yield number, obj


def validated(squad_obj: dict[str, Any], file: str, problems: list[Problem],
              on_invalid: str = "refuse") -> tuple[Dataset, list[Problem]]:
    """Validate a SQuAD JSON object built by a reader; the reader's own problems come first.

    With ``on_invalid`` ``"skip"`` or ``"repair"`` (:func:`mrclens.formats.squad_schema.parse_squad`), a reader's
    error about one question (the reader already left that question out) becomes a ``"skipped"``
    note of the dataset instead of an error; errors about the whole file stay errors.
    """
    dataset, squad_problems = parse_squad(squad_obj, file, on_invalid)
    if on_invalid != "refuse":
        kept = []
        for p in problems:
            if p.severity == "error" and p.qid is not None:
                dataset.notes.append(Problem(p.file, f"skipped: {p.message}", p.title, p.qid, severity="skipped"))
            else:
                kept.append(p)
        problems = kept
    return dataset, problems + squad_problems
