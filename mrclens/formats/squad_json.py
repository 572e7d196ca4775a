"""SQuAD v1.1 / v2.0 JSON files (``.json`` or ``.json.gz``): reading and decoding, behind the common interface.

The bytes are read (gunzipped when compressed), decoded as UTF-8 (a byte-order mark is skipped) and
parsed as JSON; the decoded object is checked against the SQuAD schema by
:func:`mrclens.formats.squad_schema.parse_squad`. Problems with the file as a whole (not gzip, not
UTF-8, not JSON) name the file; schema problems also name the article title and question id.
Writing SQuAD JSON is :func:`mrclens.squad.write_dataset`.
"""

from __future__ import annotations

import gzip
import json
import os
from typing import Any

from mrclens.errors import DataError, DuplicateKeyError, Msg, Problem
from mrclens.formats.base import Format, Loaded, register_format
from mrclens.formats.squad_schema import parse_squad_counted
from mrclens.io_utils import gc_paused, loads_unique, read_bytes
from mrclens.squad import Dataset


def decode_json(path: str) -> tuple[Any, list[Problem]]:
    """The decoded JSON value of the file at ``path``, or ``None`` and the problem (not gzip, not
    UTF-8, not JSON, nested too deeply, an object holding a key twice).

    Raises:
        DataError: the file exists but cannot be read (the message gives the system's reason).
        FileNotFoundError: the file does not exist.
    """
    try:
        raw = read_bytes(path)
    except (gzip.BadGzipFile, OSError) as err:
        if isinstance(err, FileNotFoundError):
            raise
        if not isinstance(err, gzip.BadGzipFile):
            raise DataError([Problem(path, f"cannot be read: {err.strerror or err}")]) from None
        return None, [Problem(path, Msg.NOT_GZIP.format(err=err))]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        return None, [Problem(path, Msg.NOT_UTF8.format(err=err))]
    try:
        return loads_unique(text), []
    except DuplicateKeyError as err:
        return None, [Problem(path, Msg.DUPLICATE_KEY.format(key=err.key, where=err.where))]
    except json.JSONDecodeError as err:
        return None, [Problem(path, Msg.NOT_JSON.format(err=err.msg, line=err.lineno, col=err.colno))]
    except RecursionError:
        return None, [Problem(path, Msg.NOT_JSON.format(err="nested too deeply", line="?", col="?"))]


def read_path(path: str | os.PathLike, on_invalid: str = "refuse") -> Loaded:
    """Read a SQuAD ``.json`` or ``.json.gz`` file without raising on schema problems.

    Args:
        on_invalid: ``"refuse"``, ``"skip"`` or ``"repair"`` (see
            :func:`~mrclens.formats.squad_schema.parse_squad`).

    Returns:
        a :class:`~mrclens.formats.base.Loaded` (format ``"squad"``, container ``"json"``); its
        ``problems`` include warnings (``severity == "warning"``), which do not make the file invalid.

    Raises:
        FileNotFoundError: the file does not exist.
    """
    file = str(path)
    with gc_paused():
        obj, problems = decode_json(file)
        if problems:
            return Loaded(Dataset([], None, file), "squad", "json", problems=problems)
        return read_decoded(obj, file, on_invalid)


def read_decoded(obj: Any, file: str, on_invalid: str = "refuse") -> Loaded:
    """Check the JSON value decoded from the SQuAD file ``file`` (the file is not read again)."""
    with gc_paused():
        dataset, problems, records = parse_squad_counted(obj, file, on_invalid)
    return Loaded(dataset, "squad", "json", problems=problems, records=records)


def read_object(obj: Any, name: str = "<memory>", on_invalid: str = "refuse") -> Loaded:
    """Read a decoded SQuAD JSON object (``{"data": [articles], "version": ...}``)."""
    dataset, problems, records = parse_squad_counted(obj, name, on_invalid)
    return Loaded(dataset, "squad", "object", problems=problems, records=records)


def is_squad_object(obj: Any) -> bool:
    """True for ``{"data": [...]}`` whose first article has ``paragraphs`` (or whose data is empty)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("data"), list):
        return False
    data = obj["data"]
    return not data or (isinstance(data[0], dict) and "paragraphs" in data[0])


def _read_file(path: str | os.PathLike, container: str | None, options: dict[str, Any]) -> Loaded:
    return read_path(path, options["on_invalid"])


SQUAD = register_format(Format(
    name="squad",
    order=0,
    description="SQuAD v1.1/v2.0 JSON ({\"data\": [articles]}, .json or .json.gz)",
    read_file=_read_file,
))
