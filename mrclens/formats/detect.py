"""Tell a file's format from its content (not its name): the first bytes and the first line.

* The first 4 bytes, claimed by a registered format (:attr:`~mrclens.formats.base.Format.magic`):
  ``PAR1`` → parquet (flat Hugging Face records).
* A first line that is a whole JSON object, claimed by a registered format's
  :attr:`~mrclens.formats.base.Format.claims_line` (:func:`~mrclens.formats.base.classify_record`):
  ``header`` or ``context`` + ``qas`` → MRQA; ``document_text`` → simplified Natural Questions;
  ``context`` + ``question`` → flat Hugging Face JSON Lines; else ``data`` → one JSON document
  (SQuAD, or flat records under ``data``).
* Otherwise one JSON document: ``"paragraphs"`` in its first MiB → SQuAD; a JSON list → flat records.

Gzip is recognised by the ``.gz`` name or the magic bytes.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

from mrclens import inputs
from mrclens.formats.base import FORMAT_REGISTRY, classify_record, open_text

#: What :func:`sniff` returns: (format, container), or (None, reason) when nothing fits.
HEAD_LIMIT = 1 << 20


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
    try:
        with open_text(path) as fh:
            head = fh.readline(HEAD_LIMIT)
    except (gzip.BadGzipFile, EOFError, OSError, UnicodeDecodeError):
        return "json-document", "json"  # let the reader report the exact problem
    stripped = head.strip()
    if not stripped:
        return None, "the file is empty or starts with a blank line"
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
