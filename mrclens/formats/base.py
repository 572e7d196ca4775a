"""What every format reader returns, and the helpers they share (reading text, JSON Lines).

Each reader turns its input into the SQuAD JSON object (:meth:`mrclens.squad.Dataset.to_json`'s
schema) and validates it with :func:`mrclens.formats.squad_schema.parse_squad`, so that every
format gives the same :class:`~mrclens.squad.Dataset` and the same problem messages (file, article
title, question id, what is wrong). Problems that only a format can have (a bad JSON line, an MRQA span out of range)
name the line as well.

**The record contract** (MRCLens issue 35): every record a reader reads is accounted for. A record is
one question (SQuAD JSON and MRQA: an element of a ``qas`` list; Hugging Face flat data: a line, row or
list item; simplified NQ: a line) or a unit that should hold questions but cannot be read as such (a
line that is not JSON or not a JSON object, an MRQA line without a ``qas`` list, a line of another
format, a ``qas`` that is not a list): each counts as one record. A record is

* **kept**: its question is in the dataset;
* **refused**: an error naming the file, the line (or article and question) and what is wrong; the
  file as a whole is then refused (``load_dataset`` raises :class:`~mrclens.errors.DataError`, the
  CLI exits 2) — with ``--on-invalid refuse``, the default;
* **skipped**: a ``"skipped"`` note in :attr:`~mrclens.squad.Dataset.notes` with the same reason —
  with ``--on-invalid skip`` / ``repair``;
* **dropped**: left out by a rule of the format's conversion (an NQ YES/NO answer, an MRQA question
  without a usable span with ``on_no_span="drop"``), counted by reason in :attr:`Loaded.counts`.

:class:`RecordLog` is how a reader reports each record; :func:`validated` checks the books: for a
file without errors, ``read == kept + skipped + dropped`` (:class:`RecordCounts`), else it raises
:class:`~mrclens.errors.InvariantError` — a question lost without a count is a bug, never silent.
"""

from __future__ import annotations

import gzip
import io
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

from mrclens import inputs
from mrclens.errors import DuplicateKeyError, FormatMsg, InvariantError, Msg, Problem
from mrclens.io_utils import gunzip, loads_unique
from mrclens.formats.squad_schema import RecordCounts, parse_squad_counted
from mrclens.squad import Dataset

@dataclass(frozen=True)
class Format:
    """One span input format, registered by its own module (:func:`register_format`), the way each
    ablation registers itself (:mod:`mrclens.perturbations.registry`): the modules of
    :mod:`mrclens.formats` are imported when the package is, so a new format is one new module there.

    Attributes:
        name: how ``format=`` / ``--format`` names it (``"mrqa"``).
        description: one line for messages and ``--help`` (:func:`known_formats`).
        order: its place in lists (messages, ``--format`` choices) and in detection (lowest first).
        claims_line: ``(first JSON object of the file) -> bool``: a JSON Lines file is of this format
            (:func:`classify_record`); ``None`` for a format that is not JSON Lines.
        line_label: how a line of it is named when it turns up in a file of another format
            (``"an MRQA line (header, or context with qas)"``).
        file_label: how a file of it is named in that message (``"MRQA"``).
        options: the reader's options and their allowed values (the first is the default).
        read_file: ``(path, container, options) -> Loaded | None``: reads the file itself (SQuAD JSON,
            parquet), or ``None`` to leave it to ``read_lines`` / the JSON-document reading; ``options``
            holds ``on_invalid`` and the format's options.
        read_lines: ``(text, file, *, on_invalid, **options) -> Loaded``: reads JSON Lines text.
        lines_only: ``read_lines`` reads every file of the format (MRQA, simplified NQ); otherwise only
            a file detected as JSON Lines (flat Hugging Face records may also be one JSON document).
        magic: ``(first 4 bytes) -> container | None``: claims a binary file (parquet).
    """

    name: str
    description: str
    order: int
    claims_line: Callable[[dict], bool] | None = None
    line_label: str = ""
    file_label: str = ""
    options: Mapping[str, tuple] = field(default_factory=dict)
    read_file: Callable[..., "Loaded | None"] | None = None
    read_lines: Callable[..., "Loaded"] | None = None
    lines_only: bool = False
    magic: Callable[[bytes], str | None] | None = None


#: Every registered span format by name, in :attr:`Format.order` (filled as :mod:`mrclens.formats` is imported).
FORMAT_REGISTRY: dict[str, Format] = {}


def register_format(fmt: Format) -> Format:
    """Add ``fmt`` to :data:`FORMAT_REGISTRY` (kept in :attr:`Format.order`) and return it.

    Raises:
        ValueError: a format of that name, or at that order, is registered already.
    """
    if fmt.name in FORMAT_REGISTRY or any(f.order == fmt.order for f in FORMAT_REGISTRY.values()):
        raise ValueError(f"format {fmt.name!r} (order {fmt.order}) is registered already")
    items = sorted([*FORMAT_REGISTRY.values(), fmt], key=lambda f: f.order)
    FORMAT_REGISTRY.clear()
    FORMAT_REGISTRY.update((f.name, f) for f in items)
    return fmt


def known_formats() -> str:
    """One line listing every format MRCLens reads (for error messages)."""
    return "; ".join(f"{f.name}: {f.description}" for f in FORMAT_REGISTRY.values())


@dataclass
class Loaded:
    """A dataset read by :func:`mrclens.formats.read`, with how it was read.

    Attributes:
        dataset: the validated dataset (items with errors are left out where possible).
        format: the name of a registered format (:data:`FORMAT_REGISTRY`), or ``"unknown"`` when nothing could be read.
        container: ``"json"``, ``"jsonl"``, ``"parquet"``, ``"save_to_disk"`` (a folder written by
            ``datasets``) or ``"object"`` (a Python object).
        detected: True when ``format`` was found by auto-detection, False when it was asked for.
        problems: every error and warning found (see :class:`~mrclens.errors.Problem`).
        counts: what the conversion did, by name (e.g. MRQA ``spans_merged``, NQ ``dropped_yes_no``);
            empty for SQuAD JSON, which needs no conversion.
        notes: one human-readable line per count that is not zero, saying why.
        records: how every record of the input was accounted for (:class:`RecordCounts`; ``None``
            where nothing could be read, e.g. a file that is not JSON).
    """

    dataset: Dataset
    format: str
    container: str
    detected: bool = True
    problems: list[Problem] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    records: "RecordCounts | None" = None

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
    with the gzip magic bytes; a UTF-8 byte-order mark is skipped. A declared input of the command is
    read from its record's bytes (:mod:`mrclens.inputs`), not from disk again."""
    path = Path(path)
    held = inputs.held_bytes(path)
    if held is not None:
        stream: Any = io.BytesIO(held)
        if path.name.endswith(".gz") or held[:2] == b"\x1f\x8b":
            stream = gzip.GzipFile(fileobj=stream, mode="rb")
        return io.TextIOWrapper(stream, encoding="utf-8-sig")
    with open(path, "rb") as fh:
        magic = fh.read(2)
    if path.name.endswith(".gz") or magic == b"\x1f\x8b":
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8-sig")
    return open(path, encoding="utf-8-sig")


def read_text(path: str | os.PathLike) -> tuple[str | None, list[Problem]]:
    """The whole file as text, or ``None`` and the problem (not gzip, not UTF-8)."""
    file = str(path)
    data = inputs.read_bytes(path)  # FileNotFoundError propagates; a declared input: its one read
    try:
        if file.endswith(".gz") or data[:2] == b"\x1f\x8b":
            data = gunzip(data)
        return data.decode("utf-8-sig"), []
    except gzip.BadGzipFile as err:
        return None, [Problem(file, Msg.NOT_GZIP.format(err=err))]
    except UnicodeDecodeError as err:
        return None, [Problem(file, Msg.NOT_UTF8.format(err=err))]


class RecordLog:
    """How a reader reports each record it reads (the record contract in the module docstring).

    A reader calls :meth:`read` for every record, then for those it does not hand on as a question
    :meth:`invalid` (an error, or a ``"skipped"`` note, as ``on_invalid`` says) or :meth:`drop`.

    >>> log = RecordLog("f.jsonl", "skip")
    >>> log.read(3); log.invalid("line 2: not valid JSON"); log.drop()
    >>> [str(n) for n in log.notes], log.problems, log.handed
    (['f.jsonl: skipped: line 2: not valid JSON'], [], 1)
    """

    def __init__(self, file: str, on_invalid: str = "refuse"):
        self.file = file
        self.on_invalid = on_invalid
        self.problems: list[Problem] = []
        self.notes: list[Problem] = []
        self.n_read = self.n_skipped = self.n_dropped = self.n_refused = 0

    def read(self, n: int = 1) -> None:
        """``n`` more records read."""
        self.n_read += n

    def invalid(self, message: str, title: str | None = None, qid: str | None = None, records: int = 1) -> None:
        """A record that cannot be used: an error (``on_invalid="refuse"``) or a ``"skipped"`` note.
        ``message`` names the line (``"line 12: ..."``)."""
        if self.on_invalid == "refuse":
            self.problems.append(Problem(self.file, message, title, qid))
            self.n_refused += records
        else:
            self.notes.append(Problem(self.file, f"skipped: {message}", title, qid, severity="skipped"))
            self.n_skipped += records

    def drop(self, records: int = 1, warning: Problem | None = None) -> None:
        """A record left out by a conversion rule (its reason counted by the reader)."""
        self.n_dropped += records
        if warning is not None:
            self.problems.append(warning)

    def warn(self, problem: Problem) -> None:
        """A warning that loses no record (e.g. one MRQA span dropped, the question kept)."""
        self.problems.append(problem)

    @property
    def handed(self) -> int:
        """Records handed on as questions (read, and neither refused, skipped nor dropped)."""
        return self.n_read - self.n_refused - self.n_skipped - self.n_dropped


def classify_record(obj: dict) -> tuple[str | None, str]:
    """The JSON Lines format of one line's object (the first registered format whose
    :attr:`Format.claims_line` takes it), or ``(None, why)`` (:func:`mrclens.formats.detect.sniff` and
    :func:`iter_jsonl`)."""
    for fmt in FORMAT_REGISTRY.values():
        if fmt.claims_line is not None and fmt.claims_line(obj):
            return fmt.name, "jsonl"
    keys = set(obj)
    if "document_tokens" in keys or "document_html" in keys:
        return None, ("this is the original (not simplified) Natural Questions format; convert it with "
                      "Google's simplify_nq_data.py first")
    if "data" in keys:
        return "json-document", "json"
    return None, f"the first line is a JSON object with keys {sorted(keys)[:8]}"


def iter_jsonl(text: str, log: RecordLog, fmt: str | None = None, file_label: str | None = None
               ) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line number, object)`` for every non-blank line that is a JSON object of the format
    ``fmt`` (a name of :data:`FORMAT_REGISTRY`, or another reader's own, e.g. ``"mc-jsonl"``; ``None``:
    any object). Every other line is one record, reported to ``log`` as invalid with its 1-based
    number: not JSON, not an object, or a record of another format (:func:`classify_record`; e.g. a
    flat Hugging Face record appended to an MRQA file), the file named ``file_label`` (default: the
    format's :attr:`Format.file_label`). Integers of any size stay exact (Python ``int``)."""
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = loads_unique(line)
        except DuplicateKeyError as err:
            log.read()
            log.invalid(FormatMsg.JSONL_DUPLICATE_KEY.format(line=number, key=err.key, where=err.where))
            continue
        except (json.JSONDecodeError, RecursionError) as err:
            log.read()
            msg, col = (err.msg, err.colno) if isinstance(err, json.JSONDecodeError) else ("nested too deeply", "?")
            log.invalid(FormatMsg.JSONL_BAD_LINE.format(line=number, err=msg, col=col))
            continue
        if not isinstance(obj, dict):
            log.read()
            log.invalid(FormatMsg.JSONL_NOT_OBJECT.format(line=number, kind=type(obj).__name__))
            continue
        if fmt is not None:
            other, _ = classify_record(obj)
            if other is not None and other != fmt:
                log.read()
                log.invalid(FormatMsg.FOREIGN_LINE.format(line=number, other=_line_label(other),
                                                          fmt=file_label or _file_label(fmt)))
                continue
        yield number, obj


def _line_label(name: str) -> str:
    """How :func:`iter_jsonl` names a line of the format ``name`` in a file of another."""
    if name == "json-document":
        return "a JSON document with a 'data' list"
    fmt = FORMAT_REGISTRY.get(name)
    return fmt.line_label if fmt is not None and fmt.line_label else name


def _file_label(name: str) -> str:
    fmt = FORMAT_REGISTRY.get(name)
    return fmt.file_label if fmt is not None and fmt.file_label else name


def validated(squad_obj: dict[str, Any], file: str, log: RecordLog) -> tuple[Dataset, list[Problem], RecordCounts]:
    """Validate a SQuAD JSON object built by a reader and close its books (the record contract).

    The reader's problems come first, then the schema's; the reader's ``"skipped"`` notes come
    before the schema's in ``dataset.notes``. The questions of ``squad_obj`` are the records the
    reader handed on (:attr:`RecordLog.handed`).

    Raises:
        InvariantError: the file has no error, yet its records do not add up (a record lost without
            a count: a bug in a reader).
    """
    dataset, squad_problems, schema = parse_squad_counted(squad_obj, file, log.on_invalid)
    dataset.notes[:0] = log.notes
    problems = log.problems + squad_problems
    counts = RecordCounts(read=log.n_read, kept=schema.kept, skipped=log.n_skipped + schema.skipped,
                          dropped=log.n_dropped, refused=log.n_refused + schema.refused)
    if schema.read != log.handed or (not any(p.severity == "error" for p in problems) and not counts.balanced):
        raise InvariantError(f"{file}: records do not add up: {counts} (the reader handed on {log.handed}, "
                             f"the schema read {schema.read})")
    return dataset, problems, counts
