"""The input record: each input file of a command is read from disk once, hashed once and parsed once.

A command's pre-flight and its work read the same input files: ``mrclens audit DATA`` sniffs DATA's
task and format, hashes it for the language cache and parses it for the language check
(:mod:`mrclens.languages`), then sniffs, hashes and parses it again to load it
(:mod:`mrclens.audit.span`). Inside a :func:`session`, the files :func:`declare`\\ d as its inputs
(the CLI pre-flight declares the data files of every command, :mod:`mrclens.cli.preflight`;
:func:`mrclens.audit.span.run_audit` declares its own) have one record each, which every
reader shares:

* the bytes as stored on disk (compressed if ``.gz``), read once, on first use
  (:func:`held_bytes`, :func:`read_bytes`): the sniffers' heads (:mod:`mrclens.formats.base`,
  :mod:`mrclens.formats.detect`) and the format readers read them from memory;
* their sha256 (:func:`sha256`), computed once from those bytes (``results.json`` ``inputs``, the
  language cache key, the audit's step keys);
* what was computed from them (:func:`remember`): the parsed dataset of each way of reading it
  (:func:`mrclens.formats.read`), the sniffed task (:func:`mrclens.formats.detect_task`).

A record is checked against the file before each use (size, modification time, inode and device
from :func:`os.stat`): a file replaced or edited during the session is read again. Outside a session,
or for a file not declared, every function reads the file itself, as if this module were not
there (``read_bytes`` = :meth:`pathlib.Path.read_bytes`; ``sha256`` streams the file): library
calls hold no file in memory unless asked to. Sessions nest (an inner one joins the outer one);
the records are dropped when the outermost one ends. Per process; records are not shared with
forked or spawned workers' later reads (they inherit a copy).

>>> import os, tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     path = os.path.join(tmp, "d.json")
...     with open(path, "w") as fh:
...         _ = fh.write('{"data": []}')
...     with session():
...         declare(path)
...         first = remember(path, "parsed", lambda: object())
...         same = remember(path, "parsed", lambda: object()) is first
...         digest = sha256(path)
...     same, digest[:12], held_bytes(path) is None
(True, '0e67a643c152', True)
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Hashable, Iterator, TypeVar

T = TypeVar("T")

#: Bytes per block when a file outside a session is hashed as a stream.
_BLOCK = 1 << 20


@dataclass
class InputRecord:
    """One declared input file's shared read (see the module docstring).

    Attributes:
        path: the file as first declared.
        signature: ``(size, mtime_ns, inode, device)`` of the file when its bytes were read
            (``None`` before the first read).
        data: the bytes as stored on disk, or ``None`` before the first read.
        digest: their sha256 (hex), or ``None`` before it is asked for.
        memo: what was computed from the bytes, by key (:func:`remember`).
    """

    path: str
    signature: tuple[int, int, int, int] | None = None
    data: bytes | None = None
    digest: str | None = None
    memo: dict[Hashable, Any] = field(default_factory=dict)

    def bytes(self) -> bytes:
        """The file's bytes, read now if they were not, or read again if the file changed.

        Raises:
            OSError: the file cannot be read (FileNotFoundError, PermissionError, ...); nothing is kept.
        """
        stat = os.stat(self.path)
        signature = (stat.st_size, stat.st_mtime_ns, stat.st_ino, stat.st_dev)
        if self.data is None or signature != self.signature:
            data = Path(self.path).read_bytes()
            self.signature, self.data, self.digest, self.memo = signature, data, None, {}
        return self.data

    def sha256(self) -> str:
        """The sha256 (hex) of the file's bytes, computed once per read."""
        data = self.bytes()
        if self.digest is None:
            self.digest = hashlib.sha256(data).hexdigest()
        return self.digest


class _Session:
    def __init__(self) -> None:
        self.records: dict[str, InputRecord] = {}
        self.depth = 0


_session: _Session | None = None
_lock = threading.RLock()


def _key(path: str | os.PathLike) -> str:
    return os.path.realpath(path)


def _record(path: str | os.PathLike) -> InputRecord | None:
    """The record of ``path`` when it is a declared input of the open session, else ``None``."""
    current = _session
    if current is None or not current.records or not isinstance(path, (str, os.PathLike)):
        return None
    return current.records.get(_key(path))


@contextlib.contextmanager
def session() -> Iterator[None]:
    """Keep one record per declared input file until the outermost session ends (module docstring)."""
    global _session
    with _lock:
        if _session is None:
            _session = _Session()
        _session.depth += 1
    try:
        yield
    finally:
        with _lock:
            _session.depth -= 1
            if _session.depth == 0:
                _session = None


def declare(*paths: str | os.PathLike | None) -> None:
    """Make ``paths`` inputs of the open session: from now on they are read through their records.

    ``None``, folders and paths that are not files are passed over (a folder's files are read as
    they are); so is everything outside a session. Reads nothing.
    """
    with _lock:
        if _session is None:
            return
        for path in paths:
            if isinstance(path, (str, os.PathLike)) and os.path.isfile(path):
                _session.records.setdefault(_key(path), InputRecord(os.fspath(path)))


def held_bytes(path: str | os.PathLike) -> bytes | None:
    """The bytes of ``path`` as stored on disk when it is a declared input of the open session (read
    from disk on first use only), else ``None``: the caller then reads the file itself.

    Raises:
        OSError: a declared input that cannot be read.
    """
    record = _record(path)
    if record is None:
        return None
    with _lock:
        return record.bytes()


def read_bytes(path: str | os.PathLike) -> bytes:
    """The bytes of ``path`` as stored on disk: the record's for a declared input, else read now.

    Raises:
        OSError: the file cannot be read (FileNotFoundError when it does not exist).
    """
    data = held_bytes(path)
    return Path(path).read_bytes() if data is None else data


def sha256(path: str | os.PathLike) -> str:
    """The sha256 hex digest of the bytes of ``path`` as stored on disk (compressed if ``.gz``):
    computed once per declared input of the open session, else streamed from the file now.

    Raises:
        OSError: the file cannot be read.
    """
    record = _record(path)
    if record is not None:
        with _lock:
            return record.sha256()
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(_BLOCK), b""):
            h.update(block)
    return h.hexdigest()


def remember(path: str | os.PathLike, key: Hashable, compute: Callable[[], T]) -> T:
    """``compute()``, computed once per ``key`` for a declared input ``path`` of the open session and
    kept in its record while the file is unchanged; for any other path, computed now and not kept.

    ``compute`` must depend only on the file's bytes and on ``key`` (put every argument it reads
    into ``key``, the path as given included when it shows in the result); its result is shared by
    every caller with that key, so it must not be changed by them. An exception is not kept, and a
    declared input that cannot be read any more is left to ``compute`` (which says why).
    """
    record = _record(path)
    if record is None:
        return compute()
    with _lock:
        try:
            record.bytes()  # a file that changed drops what was computed from its old bytes
        except OSError:
            record = None
        else:
            if key in record.memo:
                return record.memo[key]
    if record is None:
        return compute()
    value = compute()
    with _lock:
        record.memo[key] = value
    return value
