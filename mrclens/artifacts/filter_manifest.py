"""The manifest ``mrclens filter`` writes beside its output: what was removed and why (issue 56, item 3).

``OUT.manifest.json`` (:func:`manifest_path`), one JSON object (format version :data:`FORMAT_VERSION`)::

    {"format_version": 1, "input": "train.json", "input_sha256": "…", "input_format": "squad (JSON, detected)",
     "output": "train-hard.json", "output_format": "squad", "evidence": "computed from the data",
     "categories": ["Similarity", "Keyword"], "keep": "unflagged",
     "questions_read": 8774, "questions_kept": 7012, "removed_by_category": {"Similarity": 903, "Keyword": 1120},
     "removed": [{"id": "5733be28…", "title": "University_of_Notre_Dame", "categories": ["Similarity"]}, …]}

``removed`` lists every question of the input that is not in the output, in file order, with the chosen bias
categories whose evidence flags it (:mod:`mrclens.artifacts.shortcut_questions`; empty for a question left out
because it is *not* flagged, with ``keep: "flagged"``). ``questions_read = questions_kept + len(removed)``: every
question read is kept or listed. Written and read here only (:func:`write_filter_manifest`,
:func:`read_filter_manifest`).

Examples:
    >>> import tempfile, os
    >>> m = FilterManifest("in.json", "0" * 64, "squad (JSON, detected)", "out.json", "squad", "computed from the data",
    ...                    ["Position"], "unflagged", 3, 2, {"Position": 1}, [RemovedQuestion("q2", "T", ["Position"])])
    >>> path = write_filter_manifest(os.path.join(tempfile.mkdtemp(), "out.json.manifest.json"), m)
    >>> read_filter_manifest(path) == m
    True
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from mrclens.artifacts import _files
from mrclens.errors import ArtifactError, ArtifactMsg
from mrclens.io_utils import atomic_write_bytes, json_text

#: The format this MRCLens writes and the newest it reads.
FORMAT_VERSION = 1
#: The manifest's name: the output's name with this suffix.
SUFFIX = ".manifest.json"


def manifest_path(out: str | os.PathLike) -> Path:
    """The manifest of output ``out`` (a file or a folder): ``out`` + :data:`SUFFIX`, beside it."""
    p = Path(out)
    return p.with_name(p.name + SUFFIX)


@dataclass(frozen=True)
class RemovedQuestion:
    """A question of the input that is not in the output: its ``id``, its article's ``title`` and the chosen bias
    categories whose evidence flags it (report order)."""

    id: str
    title: str
    categories: list[str]


@dataclass
class FilterManifest:
    """What one ``mrclens filter`` run read, wrote and removed (the module docstring's layout; counts are
    questions)."""

    input: str
    input_sha256: str
    input_format: str
    output: str
    output_format: str
    evidence: str
    categories: list[str]
    keep: str
    questions_read: int
    questions_kept: int
    removed_by_category: dict[str, int]
    removed: list[RemovedQuestion] = field(default_factory=list)
    format_version: int = FORMAT_VERSION

    def to_json(self) -> dict[str, Any]:
        """The JSON object (``format_version`` first)."""
        out = asdict(self)
        return {"format_version": out.pop("format_version"), **out}


def write_filter_manifest(path: str | os.PathLike, manifest: FilterManifest, *,
                          protect: tuple[str | os.PathLike, ...] = ()) -> Path:
    """Write ``manifest`` to ``path`` atomically (UTF-8 JSON).

    Raises:
        MRCLensError, OutputError: as :func:`mrclens.io_utils.atomic_write_bytes` (e.g. ``path`` is a protected input).
    """
    text = json_text(manifest.to_json(), what=path, ensure_ascii=False, indent=1) + "\n"
    return atomic_write_bytes(path, text.encode("utf-8"), protect=protect)


def read_filter_manifest(path: str | os.PathLike) -> FilterManifest:
    """Read a manifest written by :func:`write_filter_manifest`.

    Raises:
        ArtifactError: the file is missing, not JSON, of a newer format, or a field is missing or mistyped (the
            message names the file and the field).
    """
    obj = _files.read_json_object(path, "mrclens filter DATA --out OUT")
    version = _files.check_version(obj, path, FORMAT_VERSION)
    f = _files.field
    removed = []
    for i, item in enumerate(f(obj, "removed", list, path)):
        where = f"removed[{i}]: "
        cats = f(item, "categories", list, path, where)
        if not all(isinstance(c, str) for c in cats):
            raise ArtifactError(ArtifactMsg.BAD_FIELD.format(path=path, where=where, field="categories",
                                                             expected="a list of strings"))
        removed.append(RemovedQuestion(f(item, "id", str, path, where), f(item, "title", str, path, where), cats))
    by_category = f(obj, "removed_by_category", dict, path)
    if not all(isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in by_category.items()):
        raise ArtifactError(ArtifactMsg.BAD_FIELD.format(path=path, where="", field="removed_by_category",
                                                         expected="an object of integers"))
    categories = f(obj, "categories", list, path)
    return FilterManifest(
        input=f(obj, "input", str, path), input_sha256=f(obj, "input_sha256", str, path),
        input_format=f(obj, "input_format", str, path), output=f(obj, "output", str, path),
        output_format=f(obj, "output_format", str, path), evidence=f(obj, "evidence", str, path),
        categories=[str(c) for c in categories], keep=f(obj, "keep", str, path),
        questions_read=f(obj, "questions_read", int, path), questions_kept=f(obj, "questions_kept", int, path),
        removed_by_category=by_category, removed=removed, format_version=version)
