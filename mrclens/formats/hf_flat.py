"""The flat Hugging Face ``squad`` / ``squad_v2`` schema: one record per question.

Each record is ``{"id": str, "title": str, "context": str, "question": str,
"answers": {"text": [str, ...], "answer_start": [int, ...]}}`` with ``answer_start`` in characters
(Python ``str`` indices) into ``context``: the schema of the Hugging Face ``squad`` and ``squad_v2``
dataset scripts (https://huggingface.co/datasets/rajpurkar/squad_v2) and of the ``.jsonl`` files that
``mrclens perturb --format jsonl`` writes (:func:`mrclens.perturbations.driver.to_jsonl`).

Read from JSON Lines, a JSON list of records (or ``{"data": [records]}``, the form
``datasets.load_dataset("json", field="data")`` reads), parquet (``datasets.Dataset.to_parquet``;
read with pyarrow), or in Python from a ``datasets.Dataset``, a pyarrow ``Table``, a pandas
``DataFrame`` or a list of dicts. This module never imports ``datasets``;
:mod:`mrclens.formats.hf_datasets` does (lazily: the ``hf`` extra, ``pip install -e '.[hf]'``) to build
``datasets`` objects and to read folders written by ``save_to_disk``.

Rebuilding the SQuAD nesting: consecutive records with the same title form one article, and
consecutive records of an article with the same context one paragraph, which inverts the
flattening exactly. A record without a title (``None`` or no such column) starts an article of its
own paragraph, titled ``"untitled <n>"``. The flat schema has no ``is_impossible``: when any record
has an empty answer list the set is read as SQuAD v2.0 (version ``"v2.0"``, ``is_impossible`` true
exactly for the questions without answers), otherwise as v1.1 (version ``"1.1"``). An
``is_impossible`` column, when present, is used as given. Any other column is kept in the question's
``extra`` (null values are skipped).

Every record (a line, a row, a list item) is one record of the record contract
(:mod:`mrclens.formats.base`): kept, or refused (skipped with ``on_invalid="skip"``) with its line,
row or item number — also a line that is not JSON, not an object, or a record of another format.

Writing (:func:`to_records`, :func:`records_table`, :func:`write_parquet`) gives exactly the Hub's
``squad`` / ``squad_v2`` features by default (:data:`HUB_COLUMNS`, types in :func:`hub_arrow_schema`:
``id``, ``title``, ``context``, ``question`` strings; ``answers`` a struct of ``text: list<string>``
and ``answer_start: list<int32>``), so that ``datasets.concatenate_datasets`` accepts our files
beside the Hub's. ``extra_columns=True`` also writes ``is_impossible`` and every other question
field (e.g. SQuAD v2.0's ``plausible_answers``) as columns of their own: the set then reads back
with nothing lost, but its features are no longer the Hub's. :func:`left_out` says what the Hub
columns alone leave out.
"""

from __future__ import annotations

import os
from typing import Any, Iterable

from mrclens.errors import FormatMsg, Problem
from mrclens.formats.base import Format, Loaded, RecordLog, iter_jsonl, register_format, validated
from mrclens.formats.squad_schema import RecordCounts
from mrclens.squad import HUB_COLUMNS, Dataset, question_record

_KNOWN = {"id", "title", "context", "question", "answers", "is_impossible"}

def hub_arrow_schema():
    """The Arrow schema of the Hub's ``squad`` / ``squad_v2`` features (their dataset cards:
    ``id``, ``title``, ``context``, ``question``: string; ``answers``: a sequence of ``text``
    (string) and ``answer_start`` (int32), i.e. ``struct<text: list<string>, answer_start: list<int32>>``)."""
    import pyarrow as pa

    return pa.schema([(name, pa.string()) for name in HUB_COLUMNS[:4]] + [
        ("answers", pa.struct([("text", pa.list_(pa.string())), ("answer_start", pa.list_(pa.int32()))]))])


def records_to_dataset(records: Iterable[tuple[str, Any]], file: str,
                       log: RecordLog) -> tuple[Dataset, list[Problem], RecordCounts]:
    """Build and validate a dataset from ``(where, record)`` pairs (``where`` names the record in
    messages, e.g. ``"line 12"`` or ``"row 11"``); each record is reported to ``log``."""
    articles: list[dict[str, Any]] = []
    last_title: object = object()
    last_context: object = object()
    any_empty = False
    any_flag = False
    untitled = 0
    for where, rec in records:
        log.read()
        if not isinstance(rec, dict):
            log.invalid(FormatMsg.RECORD_MISSING.format(where=where, field="(record)", expected="a JSON object"))
            continue
        qid = rec.get("id")
        qname = str(qid) if isinstance(qid, (str, int)) and not isinstance(qid, bool) else None
        context = rec.get("context")
        if not isinstance(context, str):
            log.invalid(FormatMsg.RECORD_MISSING.format(where=where, field="context", expected="a string"), qid=qname)
            continue
        answers = rec.get("answers")
        texts = starts = None
        if isinstance(answers, dict):
            texts, starts = answers.get("text"), answers.get("answer_start")
        if not (isinstance(texts, list) and isinstance(starts, list) and len(texts) == len(starts)):
            log.invalid(FormatMsg.FLAT_ANSWERS.format(where=where, value=answers), qid=qname)
            continue
        title = rec.get("title")
        if title is None:
            untitled += 1
            title = f"untitled {untitled}"
            last_title = object()
        if title != last_title:
            articles.append({"title": title, "paragraphs": []})
            last_title, last_context = title, object()
        paragraphs = articles[-1]["paragraphs"]
        if context != last_context:
            paragraphs.append({"context": context, "qas": []})
            last_context = context
        item: dict[str, Any] = {
            "id": qid,
            "question": rec.get("question"),
            "answers": [{"text": t, "answer_start": s} for t, s in zip(texts, starts)],
        }
        any_empty |= not texts
        if rec.get("is_impossible") is not None:
            item["is_impossible"] = rec["is_impossible"]
            any_flag = True
        item.update({k: v for k, v in rec.items() if k not in _KNOWN and v is not None})
        paragraphs[-1]["qas"].append(item)
    v2 = any_empty or any_flag
    if v2:
        for article in articles:
            for paragraph in article["paragraphs"]:
                for item in paragraph["qas"]:
                    item.setdefault("is_impossible", not item["answers"])
    return validated({"version": "v2.0" if v2 else "1.1", "data": articles}, file, log)


def read_jsonl_text(text: str, file: str, on_invalid: str = "refuse") -> Loaded:
    """Read flat records from JSON Lines text (one record per line)."""
    log = RecordLog(file, on_invalid)
    records = ((f"line {n}", obj) for n, obj in iter_jsonl(text, log, "hf-flat"))
    dataset, problems, counts = records_to_dataset(records, file, log)
    return Loaded(dataset, "hf-flat", "jsonl", problems=problems, records=counts)


def read_json_object(obj: Any, file: str, on_invalid: str = "refuse") -> Loaded:
    """Read flat records from a decoded JSON list, or ``{"data": [records]}``."""
    records = obj.get("data") if isinstance(obj, dict) else obj
    dataset, problems, counts = records_to_dataset(((f"record {i}", rec) for i, rec in enumerate(records)), file,
                                                   RecordLog(file, on_invalid))
    return Loaded(dataset, "hf-flat", "json", problems=problems, records=counts)


def read_parquet(path: str | os.PathLike, on_invalid: str = "refuse") -> Loaded:
    """Read flat records from a parquet file (pyarrow; the ``answers`` struct column as written by
    ``datasets.Dataset.to_parquet`` or :func:`write_parquet`)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    file = str(path)
    try:
        table = pq.read_table(path)
    except (pa.ArrowException, OSError) as err:
        if isinstance(err, FileNotFoundError):
            raise
        return Loaded(Dataset([], None, file), "hf-flat", "parquet",
                      problems=[Problem(file, FormatMsg.PARQUET_UNREADABLE.format(err=err))])
    rows = ((f"row {i}", rec) for i, rec in enumerate(table.to_pylist()))
    dataset, problems, counts = records_to_dataset(rows, file, RecordLog(file, on_invalid))
    return Loaded(dataset, "hf-flat", "parquet", problems=problems, records=counts)


def read_object(obj: Any, name: str = "<memory>", on_invalid: str = "refuse") -> Loaded | None:
    """Read flat records from a Python object, or return ``None`` when it is not one of:
    a ``datasets.Dataset`` (anything with ``to_list()`` and ``column_names``), a pyarrow ``Table``
    (``to_pylist()``), a pandas ``DataFrame`` (``to_dict("records")``), or a list of dicts."""
    if hasattr(obj, "column_names") and hasattr(obj, "to_list"):  # datasets.Dataset (duck-typed)
        records = obj.to_list()
    elif hasattr(obj, "to_pylist") and hasattr(obj, "schema"):  # pyarrow.Table
        records = obj.to_pylist()
    elif hasattr(obj, "to_dict") and hasattr(obj, "columns"):  # pandas.DataFrame
        records = [{k: _plain(v) for k, v in r.items()} for r in obj.to_dict("records")]
    elif isinstance(obj, list) and (not obj or any(isinstance(r, dict) for r in obj)):
        records = obj
    else:
        return None
    dataset, problems, counts = records_to_dataset(((f"row {i}", r) for i, r in enumerate(records)), name,
                                                   RecordLog(name, on_invalid))
    return Loaded(dataset, "hf-flat", "object", problems=problems, records=counts)


def _plain(value: Any) -> Any:
    """numpy arrays/scalars (pandas cells of an ``answers`` struct) as Python lists/numbers."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if hasattr(value, "tolist"):
        return value.tolist()
    return value


def to_records(dataset: Dataset, extra_columns: bool = False) -> list[dict[str, Any]]:
    """The dataset as flat records (the inverse of :func:`records_to_dataset`), one per question.

    Args:
        extra_columns: ``False`` (default): exactly :data:`HUB_COLUMNS`; ``True``: also
            ``is_impossible`` (when the dataset has it) and every other field of a question
            (``extra``, e.g. ``plausible_answers``) as a column of its own, so that the set reads back
            with nothing lost.
    """
    return [question_record(article, paragraph, q, extra_columns) for article, paragraph, q in dataset.iter_questions()]


def left_out(dataset: Dataset) -> dict[str, int]:
    """What the Hub columns alone (``extra_columns=False``) do not keep: ``{field: questions}`` for
    every other question field (e.g. ``plausible_answers``), and ``is_impossible`` where it does not
    follow from the answers (a question flagged unanswerable only by its empty answer list reads back
    the same; a v2.0 set without an unanswerable question reads back as v1.1)."""
    out: dict[str, int] = {}
    v2_without_unanswerable = dataset.is_v2 and all(q.answers for _, _, q in dataset.iter_questions())
    for _, _, q in dataset.iter_questions():
        for key in q.extra:
            out[key] = out.get(key, 0) + 1
        if q.is_impossible is not None and (v2_without_unanswerable or q.is_impossible != (not q.answers)):
            out["is_impossible"] = out.get("is_impossible", 0) + 1
    return out


def records_table(dataset: Dataset, extra_columns: bool = False):
    """The flat records (:func:`to_records`) as a pyarrow ``Table``: :data:`HUB_COLUMNS` typed as
    :func:`hub_arrow_schema`, extra columns' types inferred (a question without some extra field gets
    a null there, which reads back as absent)."""
    import pyarrow as pa

    records = to_records(dataset, extra_columns)
    schema = hub_arrow_schema()
    columns = list(dict.fromkeys([*HUB_COLUMNS, *(k for r in records for k in r)]))
    arrays = [pa.array([r.get(name) for r in records], type=schema.field(name).type if name in HUB_COLUMNS else None)
              for name in columns]
    return pa.Table.from_arrays(arrays, names=columns)


def write_parquet(dataset: Dataset, path: str | os.PathLike, extra_columns: bool = False) -> None:
    """Write :func:`records_table` as parquet with pyarrow: the Hub's ``squad`` features exactly
    (``extra_columns=False``) or with the extra columns. Written to a temporary name and moved into place.

    Raises:
        MRCLensError: ``path`` is the input file.
        OutputError: ``path`` cannot be written (a full disk, a failing device, no permission …; named).
    """
    import pyarrow.parquet as pq
    from pathlib import Path
    import tempfile

    path = Path(path)
    if dataset.source and path.exists() and path.resolve() == Path(dataset.source).resolve():
        from mrclens.errors import MRCLensError
        raise MRCLensError(f"refusing to overwrite the input file {dataset.source}")
    path.parent.mkdir(parents=True, exist_ok=True)
    table = records_table(dataset, extra_columns)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        pq.write_table(table, tmp)
        os.replace(tmp, path)
    except BaseException as err:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(err, OSError):
            from mrclens.errors import Msg, OutputError
            raise OutputError(Msg.CANNOT_WRITE.format(path=path, err=err.strerror or err)) from None
        raise


def is_parquet(path: str | os.PathLike) -> bool:
    """Whether the file at ``path`` starts with parquet's magic bytes (``PAR1``)."""
    with open(path, "rb") as fh:
        return fh.read(4) == b"PAR1"


def _read_file(path: str | os.PathLike, container: str | None, options: dict[str, Any]) -> Loaded | None:
    """A parquet file (detected, or asked for as ``hf-flat`` and starting with ``PAR1``); ``None`` for text."""
    if container == "parquet" or (container is None and is_parquet(path)):
        return read_parquet(path, options["on_invalid"])
    return None


def _claims_line(obj: dict) -> bool:
    """A flat record: ``context`` and ``question``, and no key of an MRQA or Natural Questions line."""
    keys = set(obj)
    return {"context", "question"} <= keys and not keys & {"header", "qas"} \
        and not any(k.startswith("document_") for k in keys)


HF_FLAT = register_format(Format(
    name="hf-flat",
    order=1,
    description=("the flat Hugging Face squad/squad_v2 schema (id, title, context, question, "
                 "answers{text, answer_start}) as JSON Lines, a JSON list, or parquet; in Python also a "
                 "datasets.Dataset, pyarrow Table, pandas DataFrame or list of dicts"),
    claims_line=_claims_line,
    line_label="a flat Hugging Face record (context, question, answers)",
    file_label="flat Hugging Face",
    read_file=_read_file,
    read_lines=read_jsonl_text,
    magic=lambda head: "parquet" if head == b"PAR1" else None,
))
