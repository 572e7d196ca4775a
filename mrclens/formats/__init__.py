"""Read every format extractive-QA data comes in, as one validated :class:`~mrclens.squad.Dataset`.

One entry point, :func:`load_dataset` (raises on invalid data), with :func:`read` (also says how the
data was read: format, conversion counts and notes, every problem) and :func:`read_dataset` (never
raises on bad data; for ``mrclens validate``). Formats (``format=``; ``"auto"`` detects it from the
content, :mod:`mrclens.formats.detect`):

* ``squad``: SQuAD v1.1 / v2.0 JSON (:mod:`~mrclens.formats.squad_json`);
* ``hf-flat``: the flat Hugging Face ``squad`` / ``squad_v2`` schema as JSON Lines, JSON or
  parquet, a folder written by ``datasets``' ``save_to_disk``, or a ``datasets.Dataset`` /
  ``DatasetDict`` (one split: ``split=``) / pyarrow ``Table`` / pandas ``DataFrame`` / list of
  dicts in Python (:mod:`~mrclens.formats.hf_flat`, :mod:`~mrclens.formats.hf_datasets`);
* ``mrqa``: MRQA 2019 JSON Lines (:mod:`~mrclens.formats.mrqa`);
* ``nq-simplified``: Natural Questions simplified JSON Lines (:mod:`~mrclens.formats.nq_simplified`).

Each format registers itself (:func:`mrclens.formats.base.register_format`, a
:class:`~mrclens.formats.base.Format`: name, description, how its files are told and read) in its own
module; every module of this package is imported with it (:func:`_discover`, as the ablations are:
:mod:`mrclens.perturbations.registry`), so a new format is one new module here.
Multiple-choice data (CODAH TSV, multiple-choice JSON Lines, CODAH folders) is read by
:mod:`mrclens.formats.multiple_choice`, the multiple-choice task's reader.

Every reader builds the SQuAD JSON object and validates it with
:func:`mrclens.formats.squad_schema.parse_squad`, so errors read the same in every format: file,
article title, question id, what is wrong. Every reader keeps the record contract
(:mod:`mrclens.formats.base`): each record read is kept, refused, skipped or dropped, with its reason
and line, and :attr:`Loaded.records` says how many of each. Multiple-choice data given to a span
reader is named as such, with the commands that read it (:func:`unknown_format_problem`).
:func:`write` writes any dataset as SQuAD JSON, flat JSON Lines or parquet, or a ``save_to_disk``
folder, the flat ones with exactly the Hub's ``squad`` features (``mrclens convert``);
:func:`mrclens.formats.hf_datasets.to_hf_dataset` makes a ``datasets.Dataset`` of it.

Examples:
    >>> ds = load_dataset([{"id": "q1", "title": "T", "context": "Paris is in France.",
    ...                     "question": "Where is Paris?",
    ...                     "answers": {"text": ["France"], "answer_start": [12]}}])
    >>> ds.counts()["questions"], ds.articles[0].paragraphs[0].questions[0].answers[0].answer_start
    (1, 12)
"""

from __future__ import annotations

import importlib
import json
import logging
import os
import pkgutil
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from mrclens import inputs
from mrclens.errors import DataError, DuplicateKeyError, FormatMsg, InvariantError, MRCLensError, Msg, Problem
from mrclens.formats import hf_datasets, hf_flat, squad_json
from mrclens.formats.base import FORMAT_REGISTRY, Loaded, known_formats, read_text
from mrclens.formats.detect import first_line, lfs_pointer, sniff
from mrclens.formats.other_json import no_dataset_shape, strip_jsonc
from mrclens.formats.multiple_choice import MCDataset, is_mc_input, load_mc_dataset, sniff_mc
from mrclens.io_utils import atomic_write_bytes, loads_unique
from mrclens.formats.squad_schema import ON_INVALID
from mrclens.squad import Dataset, write_dataset
from mrclens.tasks import DEFAULT_TASK, MULTIPLE_CHOICE, SPAN, Task, TaskTable, all_tasks, get_task

__all__ = ["FORMATS", "LOAD_SET", "ON_INVALID", "OUTPUT_FORMATS", "SNIFF", "SNIFF_INPUT", "Loaded", "detect_task",
           "load_dataset", "load_squad_file", "not_a_dataset", "read", "read_dataset", "write", "convert", "known_formats"]

log = logging.getLogger(__name__)



def _discover() -> None:
    """Import every module of this package; each format module registers its format when imported
    (a module whose name starts with ``_`` is a private helper)."""
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")


_discover()
#: Format names accepted by ``format=`` (besides ``"auto"``), in :attr:`~mrclens.formats.base.Format.order`.
FORMATS = tuple(FORMAT_REGISTRY)
#: What :func:`write` writes: SQuAD JSON, flat JSON Lines, flat parquet, a ``datasets`` ``save_to_disk`` folder.
OUTPUT_FORMATS = ("squad", "jsonl", "parquet", "hf")


def read(source: Any, format: str = "auto", on_invalid: str = "refuse", split: str | None = None,
         **options: Any) -> Loaded:
    """Read ``source`` (a path, or a Python object) in ``format`` (``"auto"``: detected).

    Args:
        source: a file path, or a folder written by ``datasets``' ``save_to_disk``; or a
            :class:`~mrclens.squad.Dataset`, a decoded SQuAD JSON object, a ``datasets.Dataset`` or
            ``DatasetDict``, a pyarrow ``Table``, a pandas ``DataFrame`` or a list of flat records.
        format: ``"auto"`` or one of :data:`FORMATS`.
        on_invalid: ``"refuse"`` (every problem stays in ``problems``), ``"skip"`` (invalid questions
            are left out) or ``"repair"`` (misplaced answers moved where possible, the rest skipped);
            what was skipped or repaired is listed in ``dataset.notes``
            (:func:`mrclens.formats.squad_schema.parse_squad`).
        options: format options: MRQA ``id_field``, ``merge_duplicates``, ``on_no_span``
            (:func:`mrclens.formats.mrqa.read_text`); NQ ``yes_no``, ``multi_span``,
            ``tables_lists``, ``no_long_answer``, ``long_only`` (:mod:`mrclens.formats.nq_simplified`).
        split: the split of a ``DatasetDict`` (object or saved folder) to read; may be left out
            when it has one split (:func:`mrclens.formats.hf_datasets.choose_split`).

    Returns:
        a :class:`Loaded`; its ``problems`` say what is wrong (nothing is raised for bad data), its
        ``records`` how every record was accounted for (the record contract, :mod:`mrclens.formats.base`).

    Raises:
        InvariantError: a file without errors whose records do not add up (a bug in a reader).
        MRCLensError: an unknown format name or option, or a Python object of no known kind.
        MRCLensError: an unknown format name or option, a Python object of no known kind, a
            ``DatasetDict`` of several splits without ``split`` (the message lists them), an unknown
            split, ``split`` for data without splits, a folder not written by ``save_to_disk``.
        ValueError: an unknown ``on_invalid``.
        DataError: ``source`` is no path that exists but a Hugging Face Hub id (``"rajpurkar/squad"``,
            :func:`is_hub_id`); the message says how to load it with ``datasets`` and pass the object.
        FileNotFoundError: the file does not exist.
    """
    if on_invalid not in ON_INVALID:
        raise ValueError(f"on_invalid must be one of {ON_INVALID}, got {on_invalid!r}")
    if format != "auto" and format not in FORMAT_REGISTRY:
        raise MRCLensError(FormatMsg.UNKNOWN_FORMAT_NAME.format(name=format, known=known_formats()))
    if not isinstance(source, (str, os.PathLike)):
        return _read_object(source, format, on_invalid, split)
    file = str(source)
    if is_hub_id(file) and not os.path.exists(source):
        raise DataError([Problem(file, FormatMsg.HUB_ID.format(name=file))])
    if os.path.isdir(source):
        loaded = _read_object(hf_datasets.load_saved(source), format, on_invalid, split, file)
        loaded.container = "save_to_disk"
        return loaded
    if split is not None:
        raise MRCLensError(FormatMsg.SPLIT_NOT_DICT.format(source=file, split=split))
    # a declared input of the command (the pre-flight's language check, then the load) is parsed once
    return inputs.remember(source, ("formats.read", file, format, on_invalid, repr(sorted(options.items()))),
                           lambda: _read_file(source, file, format, on_invalid, options))


def _read_file(source: str | os.PathLike, file: str, format: str, on_invalid: str, options: dict[str, Any]) -> Loaded:
    """:func:`read` of the file ``source`` (named ``file`` in messages)."""
    detected = format == "auto"
    if detected:
        fmt, container = sniff(source)
        if fmt is None:
            return Loaded(Dataset([], None, file), "unknown", "json", problems=[unknown_format_problem(source, container)])
    else:
        fmt, container = format, None
    spec = FORMAT_REGISTRY.get(fmt)
    allowed = set(spec.options) if spec is not None else set()
    unknown = set(options) - allowed
    if unknown:
        raise MRCLensError(f"option(s) {', '.join(sorted(unknown))} do not apply to format {fmt!r}"
                           + (f" (it takes {', '.join(sorted(allowed))})" if allowed else ""))
    loaded = _read_path(source, file, fmt, container, dict(options, on_invalid=on_invalid))
    loaded.detected = detected
    log.debug("%s: read as %s", file, loaded.describe())  # shown with -v; `mrclens convert` prints it
    return _closed(loaded, file)


#: A Hugging Face Hub repository id, ``owner/name`` (the Hub's rule for each part: letters, digits,
#: ``-``, ``_``, ``.``, not starting with ``-`` or ``.``, at most 96 characters).
_HUB_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,95}/[A-Za-z0-9_][A-Za-z0-9_.-]{0,95}")
#: Endings of data files: a missing ``data/dev.json`` is a missing file, not a Hub id.
_DATA_SUFFIXES = (".json", ".jsonl", ".gz", ".parquet", ".tsv", ".csv", ".txt", ".arrow", ".zip", ".bz2", ".xz")


def is_hub_id(name: str) -> bool:
    """Whether ``name`` reads as a Hugging Face Hub dataset id (``"rajpurkar/squad"``): ``owner/name``
    without a data file's suffix. :func:`read` refuses such a name when no such path exists, with a
    :class:`~mrclens.errors.DataError` saying how to load it with ``datasets`` (``FormatMsg.HUB_ID``).

    >>> is_hub_id("rajpurkar/squad"), is_hub_id("data/dev-v1.1.json"), is_hub_id("squad"), is_hub_id("/tmp/x")
    (True, False, False, False)
    """
    return _HUB_ID.fullmatch(name) is not None and not name.lower().endswith(_DATA_SUFFIXES)


def _closed(loaded: Loaded, file: str) -> Loaded:
    """Check the record contract (:mod:`mrclens.formats.base`) of a read, and warn of a file without
    questions (``mrclens stats``, ``check`` and ``compare`` refuse one).

    Raises:
        InvariantError: a file without errors whose records do not add up (a bug in a reader).
    """
    records = loaded.records
    if loaded.errors:
        return loaded
    if records is not None and not records.balanced:
        raise InvariantError(f"{file}: records do not add up: {records}")
    if not any(True for _ in loaded.dataset.iter_questions()):
        loaded.problems.append(Problem(file, Msg.NO_QUESTIONS_IN_FILE, severity="warning"))
    return loaded


def unknown_format_problem(path: str | os.PathLike, why: str) -> Problem:
    """The problem of a file whose span format cannot be told (``why``), pointing the right way: a
    file that cannot be decompressed or decoded says so; data of another task (multiple choice: CODAH
    TSV, multiple-choice JSON Lines; :func:`detect_task`) says which task it is and which commands
    read it (:attr:`mrclens.tasks.Task.commands`); anything else lists the span formats MRCLens reads."""
    file = str(path)
    pointer = lfs_pointer(path)
    if pointer is not None:
        return Problem(file, FormatMsg.LFS_POINTER.format(pointer=pointer))
    _, problems = read_text(path)
    if problems:
        return problems[0]
    task = detect_task(path)
    if not task.is_default:
        form = SNIFF.of(task)(path)
        commands = task.commands
        return Problem(file, FormatMsg.OTHER_TASK.format(
            data_label=task.data_label, form=form if isinstance(form, str) else task.title, known=", ".join(FORMATS),
            commands=", ".join(f"`mrclens {c}`" for c in commands)))
    return Problem(file, FormatMsg.UNKNOWN_FORMAT.format(why=why, known=known_formats()))


def _read_path(path, file: str, fmt: str, container: str | None, options) -> Loaded:
    """Read the file as its registered format says (:class:`~mrclens.formats.base.Format`: the file
    itself, or its JSON Lines text), else as one JSON document: SQuAD, or flat records."""
    on_invalid = options["on_invalid"]
    spec = FORMAT_REGISTRY.get(fmt)
    if spec is not None and spec.read_file is not None:
        loaded = spec.read_file(path, container, options)
        if loaded is not None:
            return loaded
    text, problems = read_text(path)
    if text is None:
        return Loaded(Dataset([], None, file), fmt if fmt != "json-document" else "unknown", container or "json",
                      problems=problems)
    if spec is not None and spec.read_lines is not None and (spec.lines_only or container == "jsonl"):
        return spec.read_lines(text, file, **options)
    # one JSON document (or, with format="hf-flat" asked for, JSON or JSON Lines)
    try:
        obj = loads_unique(text)
    except DuplicateKeyError as err:
        return Loaded(Dataset([], None, file), "unknown", "json", problems=[
            Problem(file, Msg.DUPLICATE_KEY.format(key=err.key, where=err.where))])
    except RecursionError:
        return Loaded(Dataset([], None, file), "unknown", "json", problems=[
            Problem(file, Msg.NOT_JSON.format(err="nested too deeply", line="?", col="?"))])
    except json.JSONDecodeError as err:
        if fmt == "hf-flat":
            return hf_flat.read_jsonl_text(text, file, on_invalid)
        return Loaded(Dataset([], None, file), "unknown", "json", problems=[
            Problem(file, Msg.NOT_JSON.format(err=err.msg, line=err.lineno, col=err.colno))])
    if squad_json.is_squad_object(obj):
        if fmt == "hf-flat":
            return Loaded(Dataset([], None, file), fmt, "json", problems=[
                Problem(file, FormatMsg.WRONG_FORMAT.format(name=fmt, why="the file is SQuAD JSON (articles with paragraphs)"))])
        return squad_json.read_decoded(obj, file, on_invalid)
    if isinstance(obj, list) or (isinstance(obj, dict) and isinstance(obj.get("data"), list)):
        return hf_flat.read_json_object(obj, file, on_invalid)
    if isinstance(obj, dict) and fmt == "hf-flat":  # a one-line JSON Lines file
        return hf_flat.read_jsonl_text(text, file, on_invalid)
    return Loaded(Dataset([], None, file), "unknown", "json", problems=[unknown_format_problem(
        path, f"a JSON {type(obj).__name__} without a 'data' list of articles or records")])


def _read_object(obj: Any, format: str, on_invalid: str = "refuse", split: str | None = None,
                 name: str = "<memory>") -> Loaded:
    obj = hf_datasets.choose_split(obj, split, name)
    if name != "<memory>" and split is not None:
        name = f"{name} (split {split})"
    if isinstance(obj, Dataset):
        return Loaded(obj, "squad", "object", detected=format == "auto")
    if squad_json.is_squad_object(obj) and format in ("auto", "squad"):
        return _closed(squad_json.read_object(obj, on_invalid=on_invalid), "<memory>")
    if isinstance(obj, Mapping) and isinstance(obj.get("data"), list):
        obj = obj["data"]
    if format in ("auto", "hf-flat"):
        loaded = hf_flat.read_object(obj, name, on_invalid=on_invalid)
        if loaded is not None:
            loaded.detected = format == "auto"
            return _closed(loaded, "<memory>")
    raise MRCLensError(FormatMsg.UNKNOWN_OBJECT.format(kind=type(obj).__name__, known=known_formats()))


def read_dataset(path: str | os.PathLike, on_invalid: str = "refuse", format: str = "auto",
                 **options: Any) -> tuple[Dataset, list[Problem]]:
    """``(dataset, problems)`` of any format, never raising on bad data (``mrclens validate``);
    ``on_invalid`` as in :func:`read`.

    Raises:
        MRCLensError: an unknown format name or option.
        FileNotFoundError: the file does not exist.
    """
    loaded = read(path, format, on_invalid, **options)
    return loaded.dataset, loaded.problems


def load_dataset(source: Any, format: str = "auto", on_invalid: str = "refuse", **options: Any) -> Dataset:
    """Load and validate a dataset in any format MRCLens reads (``mrclens.load_qa_dataset``; see :func:`read`).

    Warnings are not raised; the detected format is logged at DEBUG level. With ``"skip"``/``"repair"`` only
    problems about the whole file raise, and so does a file with no valid question left.

    A file without questions loads (empty), with a warning in :func:`read`'s problems; ``mrclens stats``,
    ``check`` and ``compare`` refuse it (:func:`mrclens.stats.core.require_questions`).

    Args:
        source: a file path (SQuAD v1.1/v2.0 JSON, flat Hugging Face JSON Lines/JSON/parquet, MRQA JSON Lines,
            simplified Natural Questions JSON Lines; ``.gz`` read as gzip) or a folder written by ``datasets``'
            ``save_to_disk``; or a Python object: a :class:`~mrclens.squad.QADataset` (returned as it is), a
            decoded SQuAD JSON object, a ``datasets.Dataset`` / ``DatasetDict``, a pyarrow ``Table``, a pandas
            ``DataFrame`` or a list of flat records (``{"id", "title", "context", "question", "answers":
            {"text", "answer_start"}}``).
        format: ``"auto"`` (detected from the content, never the file name) or one of :data:`FORMATS`
            (``"squad"``, ``"hf-flat"``, ``"mrqa"``, ``"nq-simplified"``).
        on_invalid: ``"refuse"`` (any invalid question raises), ``"skip"`` (invalid questions are left out) or
            ``"repair"`` (an answer whose text is in the context but not at its ``answer_start`` is moved there,
            the rest skipped); what was skipped or repaired is listed in the dataset's ``notes``.
        **options: format options: ``split=`` (one split of a ``DatasetDict``); MRQA ``id_field``,
            ``merge_duplicates``, ``on_no_span``; NQ ``yes_no``, ``multi_span``, ``tables_lists``,
            ``no_long_answer``, ``long_only`` (:func:`read`).

    Returns:
        the validated :class:`~mrclens.squad.QADataset`: articles of paragraphs of questions in file order,
        every ``answer_start`` a character offset into its context where the answer text is.

    Raises:
        DataError: the data is unreadable, of no known format (the message lists the formats MRCLens
            reads) or breaks the schema; each problem names the file, article title and question id. Also
            for a Hugging Face Hub id (``"rajpurkar/squad"``) that is no local path: the message says to
            load it with ``datasets.load_dataset(...)`` and pass the object.
        MRCLensError: an unknown format name or option, or a Python object of no kind MRCLens reads.
        ValueError: an unknown ``on_invalid``.
        FileNotFoundError: the file does not exist.

    Examples:
        >>> ds = load_dataset([{"id": "q1", "title": "T", "context": "Paris is in France.",
        ...                     "question": "Where is Paris?", "answers": {"text": ["France"], "answer_start": [12]}}])
        >>> ds, ds[0]["answers"]
        (QADataset(1 articles, 1 paragraphs, 1 questions, source '<memory>'), {'text': ['France'], 'answer_start': [12]})
    """
    loaded = read(source, format, on_invalid, **options)
    if loaded.errors:
        raise DataError(loaded.errors)
    dataset = loaded.dataset
    if on_invalid != "refuse" and dataset.notes and not any(True for _ in dataset.iter_questions()):
        raise DataError([Problem(loaded.dataset.source or str(source),
                                 f"no valid question left after --on-invalid {on_invalid} ({len(dataset.notes):,} skipped)")])
    return dataset


def load_squad_file(path: str | os.PathLike, on_invalid: str = "refuse") -> Dataset:
    """A SQuAD JSON file read as such, without format detection: how the perturbed sets that
    ``mrclens perturb`` writes are read back (the span task's entry in :data:`LOAD_SET`),
    so a damaged set file is reported with its SQuAD schema problems.

    Raises:
        DataError: the file is not valid SQuAD JSON (every problem listed, with the file and item).
        FileNotFoundError: the file does not exist.
    """
    return load_dataset(path, format="squad", on_invalid=on_invalid)


def write(dataset: Dataset, path: str | os.PathLike, to: str = "squad", extra_columns: bool = False) -> Path:
    """Write ``dataset`` as ``"squad"`` JSON, flat ``"jsonl"`` (one record per question), flat
    ``"parquet"`` or ``"hf"`` (a folder written by ``datasets``' ``save_to_disk``, read back by
    ``datasets.load_from_disk`` and by MRCLens). The flat forms have exactly the Hub's ``squad`` /
    ``squad_v2`` features (:func:`mrclens.formats.hf_flat.hub_arrow_schema`; JSON Lines has no
    int32, so read it with ``features=hub_features()``); ``extra_columns=True`` adds
    ``is_impossible`` and every other question field (:func:`mrclens.formats.hf_flat.to_records`).
    Atomic; names ending in ``.gz`` are gzip-compressed (not for parquet and ``hf``).

    Raises:
        MRCLensError: an unknown output format, ``path`` is the input, or (``hf``) ``path`` exists and
            is not a ``save_to_disk`` folder, or its name ends in a data file's suffix (``x.json``), or
            ``datasets`` is not installed.
    """
    if to == "squad":
        return write_dataset(dataset, path)
    if to == "jsonl":
        lines = [json.dumps(r, ensure_ascii=False) for r in hf_flat.to_records(dataset, extra_columns)]
        text = "\n".join(lines) + ("\n" if lines else "")
        return atomic_write_bytes(path, text.encode("utf-8"), protect=(dataset.source,) if dataset.source else ())
    if to == "parquet":
        hf_flat.write_parquet(dataset, path, extra_columns)
        return Path(path)
    if to == "hf":
        return hf_datasets.save_to_disk(dataset, path, extra_columns=extra_columns,
                                        protect=(dataset.source,) if dataset.source else ())
    raise MRCLensError(f"cannot write format {to!r}; choose one of {', '.join(OUTPUT_FORMATS)}")


def convert(source: Any, out: str | os.PathLike, to: str = "squad", format: str = "auto", *,
            split: str | None = None, extra_columns: bool = False, **options: Any) -> Loaded:
    """Read ``source`` in any format (``split``: one split of a ``DatasetDict``) and write it as
    ``to`` (see :func:`write`); returns how it was read.

    Raises:
        DataError: the input has errors (nothing is written).
        MRCLensError: see :func:`read` and :func:`write`; ``to="hf"`` with an ``out`` named like a file
            (``x.json``: :func:`mrclens.formats.hf_datasets.check_folder_name`), before anything is read.
    """
    if to == "hf":
        hf_datasets.check_folder_name(out)
    loaded = read(source, format, split=split, **options)
    if loaded.errors:
        raise DataError(loaded.errors)
    write(loaded.dataset, out, to, extra_columns)
    return loaded


# --- Each task's reading (mrclens.tasks: the roles "sniff", "sniff_input" and "load_set"). ---------

class Sniffer(Protocol):
    """Role ``"sniff"`` / ``"sniff_input"``: whether the file (or folder) at ``path`` is this task's data
    (a truthy value: :func:`~mrclens.formats.multiple_choice.sniff_mc` gives the form it found). Reads
    at most the first lines; never raises for a missing file or bad content."""

    def __call__(self, path: str | os.PathLike) -> str | bool | None: ...


class SetLoader(Protocol):
    """Role ``"load_set"``: a set file as ``mrclens perturb`` wrote it, read and validated.

    Raises:
        DataError: the file is not valid data of the task (every problem named).
        FileNotFoundError: the file does not exist.
    """

    def __call__(self, path: str | os.PathLike) -> Dataset | MCDataset: ...


#: Claims a *file* by its content (``mrclens perturb``, ``evaluate``, ``audit``, ``validate``); span data
#: is what no other task claims.
SNIFF: TaskTable[Sniffer] = TaskTable("sniff", Sniffer, {MULTIPLE_CHOICE: sniff_mc}, optional=True)
#: Claims ``mrclens stats`` / ``check`` input: also folders (any folder is multiple-choice folds).
SNIFF_INPUT: TaskTable[Sniffer] = TaskTable("sniff_input", Sniffer, {MULTIPLE_CHOICE: is_mc_input}, optional=True)
#: Reads a perturbed set file back (scoring, the report, ``validate``).
LOAD_SET: TaskTable[SetLoader] = TaskTable("load_set", SetLoader, {SPAN: load_squad_file, MULTIPLE_CHOICE: load_mc_dataset})


def detect_task(path: Any, *, role: str = "sniff") -> Task:
    """The task of the data at ``path``: the first registered task whose sniffer claims it, else the
    default task (span data is what every other task's sniffer leaves over: SQuAD JSON, MRQA,
    Natural Questions, Hugging Face flat files).

    ``role`` ``"sniff"`` (:data:`SNIFF`) claims a *file* by its format (``mrclens perturb``,
    ``evaluate``, ``audit``); ``"sniff_input"`` (:data:`SNIFF_INPUT`) also claims folders (``mrclens
    stats`` / ``check``, where any folder is a multiple-choice folds folder, refused with its own
    message when it has no folds).

    Raises:
        ValueError: ``role`` is neither of the two.
    """
    table = {"sniff": SNIFF, "sniff_input": SNIFF_INPUT}.get(role)
    if table is None:
        raise ValueError(f"role must be 'sniff' or 'sniff_input', got {role!r}")
    # a declared input of the command is sniffed once per role (mrclens.inputs)
    return inputs.remember(path, ("formats.detect_task", role), lambda: _detect_task(path, table))


def _detect_task(path: Any, table: TaskTable) -> Task:
    for task in all_tasks():
        claims = table.get(task)
        if claims is not None and claims(path):
            return task
    return get_task(DEFAULT_TASK)


def not_a_dataset(path: str | os.PathLike) -> str | None:
    """Why the file at ``path`` is surely no QA dataset (content sniffed, not the name), or ``None`` when it may
    be one (then reading it reports any problem it has). For a CI gate that is given every ``.json`` of a
    commit: ``package.json``, ``dataset_infos.json``, a ``croissant.json``, a ``tsconfig.json`` are skipped,
    not failed.

    Skipped (a reason is returned): valid JSON of another shape (an object without a ``data`` list, a list of
    other records, a scalar, a Plotly figure or a JSON:API document:
    :func:`mrclens.formats.other_json.no_dataset_shape`), JSON with comments (JSONC, as ``tsconfig.json`` and
    VS Code's settings: :func:`~mrclens.formats.other_json.strip_jsonc`) of such a shape, JSON Lines of other
    records, parquet without ``context`` and ``question`` columns. Everything else may be a dataset, and is
    read (``None``): data a task's sniffer claims (multiple-choice data), a span format's first line (SQuAD,
    MRQA, simplified NQ, flat Hugging Face JSON Lines), original Natural Questions (reading it says to
    simplify it first), and whatever cannot be read as JSON at all — an empty file, plain text, NUL bytes, a
    Git LFS pointer, a damaged dataset — which must fail, not pass unseen. Reads the whole file when it is one
    JSON document (its size in memory, once).

    >>> import json, tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "package.json").write_text(json.dumps({"name": "app", "version": "1.0.0"}, indent=2))
    >>> not_a_dataset(folder / "package.json")
    "one JSON object with keys ['name', 'version'] and no 'data' list"
    >>> _ = (folder / "squad.json").write_text(json.dumps({"version": "1.1", "data": []}, indent=2))
    >>> not_a_dataset(folder / "squad.json") is None
    True

    Raises:
        FileNotFoundError: the file does not exist.
    """
    path = Path(path)
    if path.is_dir():
        return None  # a folder given on purpose (multiple-choice folds, a save_to_disk folder): let it be read
    for task in all_tasks():
        claims = SNIFF.get(task)
        if claims is not None and claims(path):
            return None  # a task's sniffer claims it (multiple-choice data)
    fmt, container = sniff(path)
    if fmt is None:
        return container if _other_records(path) else None  # else empty, no JSON, an LFS pointer: reading it fails
    if container == "parquet":
        try:
            import pyarrow.parquet as pq

            names = set(pq.read_schema(path).names)
        except Exception:  # noqa: BLE001 - an unreadable parquet file: reading it reports why
            return None
        return None if {"context", "question"} <= names else f"parquet without 'context' and 'question' columns (columns: {sorted(names)[:8]})"
    if fmt != "json-document":
        return None
    text, problems = read_text(path)
    if text is None:
        return None  # not gzip / not UTF-8: reading it reports the problem
    try:
        return no_dataset_shape(json.loads(text))
    except ValueError:
        pass
    jsonc = strip_jsonc(text)
    try:
        obj = json.loads(jsonc) if jsonc is not None else None
    except ValueError:
        return None  # not valid JSON, with or without comments: may be a damaged dataset, reading it reports where
    why = no_dataset_shape(obj) if jsonc is not None else None
    return None if why is None else f"JSON with comments (JSONC, as tsconfig.json or VS Code settings): {why}"


def _other_records(path: Path) -> bool:
    """Whether the first line of the file (which no format claims) is a JSON object of other records: JSON Lines
    of something else, not original Natural Questions (reading that says to simplify it first)."""
    try:
        obj = json.loads(first_line(path))
    except (ValueError, OSError, EOFError):
        return False
    return isinstance(obj, dict) and not {"document_tokens", "document_html"} & set(obj)
