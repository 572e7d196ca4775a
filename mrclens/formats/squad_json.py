"""SQuAD v1.1 / v2.0 JSON: the existing reader of :mod:`mrclens.squad`, behind the common interface."""

from __future__ import annotations

import os
from typing import Any

from mrclens.formats.base import Loaded
from mrclens.squad import parse_squad, read_dataset


def read_path(path: str | os.PathLike, on_invalid: str = "refuse") -> Loaded:
    """Read a SQuAD ``.json`` / ``.json.gz`` file with :func:`mrclens.squad.read_dataset`."""
    dataset, problems = read_dataset(path, on_invalid)
    return Loaded(dataset, "squad", "json", problems=problems)


def read_object(obj: Any, name: str = "<memory>", on_invalid: str = "refuse") -> Loaded:
    """Read a decoded SQuAD JSON object (``{"data": [articles], "version": ...}``)."""
    dataset, problems = parse_squad(obj, name, on_invalid)
    return Loaded(dataset, "squad", "object", problems=problems)


def is_squad_object(obj: Any) -> bool:
    """True for ``{"data": [...]}`` whose first article has ``paragraphs`` (or whose data is empty)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("data"), list):
        return False
    data = obj["data"]
    return not data or (isinstance(data[0], dict) and "paragraphs" in data[0])
