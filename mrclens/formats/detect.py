"""Tell a file's format from its content (not its name): the first bytes and the first line.

* The first 4 bytes, claimed by a registered format (:attr:`~mrclens.formats.base.Format.magic`):
  ``PAR1`` → parquet (flat Hugging Face records).
* A first line that is a whole JSON object, claimed by a registered format's
  :attr:`~mrclens.formats.base.Format.claims_line` (:func:`~mrclens.formats.base.classify_record`):
  ``header`` or ``context`` + ``qas`` → MRQA; ``document_text`` → simplified Natural Questions;
  ``context`` + ``question`` → flat Hugging Face JSON Lines; else ``data`` → one JSON document
  (SQuAD, or flat records under ``data``).
* Otherwise one JSON document: ``"paragraphs"`` in its first MiB → SQuAD; a JSON list → flat records.

The first line is the first that is not blank: leading blank lines, whitespace and a UTF-8 byte-order
mark do not matter (as for JSON itself and for :func:`~mrclens.formats.base.iter_jsonl`). A Git LFS pointer
(:func:`lfs_pointer`: the small text file Git LFS commits in place of the data, when the checkout did not
fetch it) is no data: ``(None, why)`` naming it.
Gzip is recognised by the ``.gz`` name or the magic bytes.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

from mrclens import inputs
from mrclens.errors import FormatMsg
from mrclens.formats.base import FORMAT_REGISTRY, classify_record, open_text

#: At most this many characters of (decompressed) text are read to find the first line.
HEAD_LIMIT = 1 << 20
#: The first line of a Git LFS pointer file (https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md; the
#: ``hawser`` one is the pre-release spec that Git LFS still reads).
LFS_SPECS = ("version https://git-lfs.github.com/spec/", "version https://hawser.github.com/spec/")
#: Git LFS pointer files are smaller than this (the spec: "must be less than 1024 bytes").
LFS_POINTER_MAX = 1024
#: The characters that may come before the first line: JSON's whitespace and a byte-order mark.
LEADING = " \t\r\n\ufeff"


def lfs_pointer(path: str | os.PathLike) -> str | None:
    """The object a Git LFS pointer file at ``path`` stands for (``"oid sha256:4d7a…, 12,345 bytes"``), or
    ``None`` when the file is no LFS pointer (the first line of a pointer names the LFS spec; such a file
    is under 1,024 bytes). Never raises for a missing or unreadable file.

    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "train.parquet"
    >>> _ = f.write_text("version https://git-lfs.github.com/spec/v1\\noid sha256:4d7a21\\nsize 12345\\n")
    >>> lfs_pointer(f)
    'oid sha256:4d7a21, 12,345 bytes'
    """
    held = inputs.held_bytes(Path(path))
    try:
        if held is not None:
            head = held[:LFS_POINTER_MAX]
        else:
            with open(path, "rb") as fh:
                head = fh.read(LFS_POINTER_MAX)
    except OSError:
        return None
    text = head.decode("utf-8", "replace").lstrip(LEADING)
    if not text.startswith(LFS_SPECS):
        return None
    fields = dict(line.split(" ", 1) for line in text.splitlines() if " " in line)
    size = fields.get("size", "").strip()
    size_text = f", {int(size):,} bytes" if size.isdigit() else ""
    return f"oid {fields.get('oid', 'unknown').strip()}{size_text}"


def first_line(path: str | os.PathLike) -> str:
    """The first line of the (gunzipped) text file at ``path`` that is not blank, without the leading
    whitespace and byte-order marks (``""`` when the first :data:`HEAD_LIMIT` characters hold none).

    Raises:
        OSError, EOFError, gzip.BadGzipFile, UnicodeDecodeError: the file cannot be read as text.
    """
    read = 0
    with open_text(path) as fh:
        while read < HEAD_LIMIT:
            line = fh.readline(HEAD_LIMIT - read)
            if not line:
                return ""
            read += len(line)
            stripped = line.strip(LEADING)
            if stripped:
                return line.lstrip(LEADING)
    return ""


def sniff(path: str | os.PathLike) -> tuple[str | None, str]:
    """``(format, container)`` of the file at ``path``; ``(None, why)`` when nothing fits.

    ``format`` is ``"squad"``, ``"hf-flat"``, ``"mrqa"``, ``"nq-simplified"`` or
    ``"json-document"`` (one JSON document to be parsed before it can be told apart: a SQuAD
    object or flat records). Reads at most the first MiB of (decompressed) text.

    Raises:
        FileNotFoundError: the file does not exist.
    """
    path = Path(path)
    held = inputs.held_bytes(path)  # a declared input of the command: its one read (mrclens.inputs)
    if held is not None:
        magic = held[:4]
    else:
        with open(path, "rb") as fh:
            magic = fh.read(4)
    for fmt in FORMAT_REGISTRY.values():
        container = fmt.magic(magic) if fmt.magic is not None else None
        if container is not None:
            return fmt.name, container
    pointer = lfs_pointer(path)
    if pointer is not None:
        return None, FormatMsg.LFS_WHY.format(pointer=pointer)
    try:
        head = first_line(path)
    except (gzip.BadGzipFile, EOFError, OSError, UnicodeDecodeError):
        return "json-document", "json"  # let the reader report the exact problem
    stripped = head.strip(LEADING)
    if not stripped:
        return None, "the file is empty (nothing but whitespace)"
    if stripped.startswith("{"):
        try:
            obj = json.loads(stripped)
        except json.JSONDecodeError:
            obj = None
        if isinstance(obj, dict):
            return classify_record(obj)
        if '"paragraphs"' in head:
            return "squad", "json"
        return "json-document", "json"
    if stripped.startswith("["):
        return "json-document", "json"
    return None, f"it starts with {stripped[:30]!r}, not JSON, JSON Lines or parquet"
