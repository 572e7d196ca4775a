"""Shared reading helpers of the artifacts package: JSON objects, typed fields, format versions.

Every reader in :mod:`mrclens.artifacts` goes through these, so a malformed file always gives an
:class:`~mrclens.errors.ArtifactError` naming the file, the item and the field.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any, Mapping

from mrclens.errors import ArtifactError, ArtifactMsg, DuplicateKeyError
from mrclens.io_utils import loads_unique, read_bytes

#: The key that carries a file's format version. Files written before versions were recorded
#: have none and are read as version 1.
VERSION_KEY = "format_version"

_TYPE_NAMES = {str: "a string", int: "an integer", float: "a number", bool: "true/false", dict: "an object",
               list: "a list", type(None): "null"}


def read_json_object(path: str | os.PathLike, hint: str) -> dict[str, Any]:
    """Read ``path`` as a JSON object.

    Args:
        hint: what to run to create the file, shown when it is missing.

    Raises:
        ArtifactError: the file is missing, not UTF-8 JSON, not an object, or holds an object with a key
            twice (:func:`mrclens.io_utils.loads_unique`, as data files are read).
    """
    path = Path(path)
    if not path.is_file():
        raise ArtifactError(ArtifactMsg.MISSING.format(path=path, hint=hint))
    try:
        obj = loads_unique(read_bytes(path).decode("utf-8"))
    except DuplicateKeyError as err:
        raise ArtifactError(ArtifactMsg.DUPLICATE_KEY.format(path=path, key=err.key, where=err.where)) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise ArtifactError(ArtifactMsg.NOT_JSON.format(path=path, err=err)) from None
    except OSError as err:
        raise ArtifactError(ArtifactMsg.NOT_JSON.format(path=path, err=err.strerror or err)) from None
    if not isinstance(obj, dict):
        raise ArtifactError(ArtifactMsg.BAD_SHAPE.format(path=path, expected=f"a JSON object, got {type(obj).__name__}"))
    return obj


def check_version(obj: Mapping[str, Any], path: str | os.PathLike, supported: int) -> int:
    """The file's format version (1 when absent).

    Raises:
        ArtifactError: the version is not an integer, is below 1 (no MRCLens writes it), or is newer
            than ``supported``.
    """
    version = obj.get(VERSION_KEY, 1)
    if isinstance(version, bool) or not isinstance(version, int):
        raise ArtifactError(ArtifactMsg.BAD_FIELD.format(path=path, where="", field=VERSION_KEY, expected="an integer"))
    if version < 1:
        raise ArtifactError(ArtifactMsg.UNKNOWN_FORMAT.format(path=path, found=version, supported=supported))
    if version > supported:
        raise ArtifactError(ArtifactMsg.NEWER_FORMAT.format(path=path, found=version, supported=supported))
    return version


def field(obj: Any, key: str, types: type | tuple[type, ...], path: str | os.PathLike, where: str = "",
          default: Any = ..., ) -> Any:
    """``obj[key]``, checked to be one of ``types`` (``int`` also accepts no ``bool``; ``float`` accepts ints
    and only finite numbers: ``NaN`` and ``Infinity``, which Python's JSON reader accepts, are refused).

    Args:
        where: the item the field belongs to, e.g. ``"ablation e1: "`` (ends with ": ").
        default: returned when the key is absent; without it an absent key is an error.

    Raises:
        ArtifactError: ``obj`` is not an object, the key is absent (and no default), or the value
            has another type.
    """
    types = types if isinstance(types, tuple) else (types,)
    if not isinstance(obj, Mapping):
        raise ArtifactError(ArtifactMsg.BAD_SHAPE.format(path=path, expected=f"{where}an object"))
    if key not in obj:
        if default is not ...:
            return default
        value = _MISSING
    else:
        value = obj[key]
    if isinstance(value, float) and not math.isfinite(value):
        raise ArtifactError(ArtifactMsg.NOT_FINITE.format(path=path, where=where, field=key, value=value))
    if value is not _MISSING and _is(value, types):
        return float(value) if float in types and int not in types and isinstance(value, int) else value
    expected = " or ".join(_TYPE_NAMES.get(t, t.__name__) for t in types)
    raise ArtifactError(ArtifactMsg.BAD_FIELD.format(path=path, where=where, field=key, expected=expected))


_MISSING = object()


def _is(value: Any, types: tuple[type, ...]) -> bool:
    if isinstance(value, bool):
        return bool in types
    if isinstance(value, int) and float in types:
        return True
    return isinstance(value, types)
