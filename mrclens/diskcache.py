"""A small on-disk key → value store (one SQLite file), shared by the parse and statistics caches.

Keys are bytes (content hashes); values are stored as UTF-8 JSON, never pickled, so that reading
a cache cannot execute code, whoever wrote to it. A caller passes a ``check`` that verifies the
shape of each decoded value (and may convert it); a value that does not decode or fails its
check reads as missing, so the caller recomputes it, and is counted in :attr:`DiskCache.bad_entries`
(the caller reports the count once with :func:`warn_bad_entries`).

A cache file that is not an SQLite database (or is damaged) is moved aside with a warning and an
empty one is started: when it is opened, and also when the damage shows only later, on a read or a
write (an intact header over garbled pages: ``database disk image is malformed``); what could not
be read is recomputed by the caller. A cache directory that cannot be created or written (it is a file, or
read-only) is a :class:`~mrclens.errors.CacheError`. SQLite in WAL mode lets several processes
read while one writes. Nothing here knows what is stored: :mod:`mrclens.parsing` keeps spaCy
parses, :mod:`mrclens.stats.cache` per-paragraph statistics.
"""

from __future__ import annotations

import datetime as _dt
import json
import logging
import os
import sqlite3
from pathlib import Path
from typing import Any, Callable, Iterable

from mrclens.errors import CacheError, Msg

_SQL_CHUNK = 900  # below SQLite's default limit of 999 bound parameters
_LOG = logging.getLogger("mrclens.cache")
#: Damaged files a worker process has warned about (once each).
_WARNED: set[Path] = set()

#: What a failed ``check`` or a bad JSON value raises; each makes the entry a miss.
_DECODE_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError)


def encode_value(value: Any) -> bytes:
    """The stored form of ``value``: compact UTF-8 JSON (lone surrogates kept, as in the keys)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")


def decode_value(blob: bytes) -> Any:
    """Decode a stored value (JSON only: nothing in it can run code).

    Raises:
        ValueError: not UTF-8 JSON (``UnicodeDecodeError`` and ``json.JSONDecodeError`` are
            ``ValueError`` subclasses).
        TypeError: the stored value is not bytes or text.
    """
    if type(blob) is not bytes and not isinstance(blob, str):
        raise TypeError(f"stored value is {type(blob).__name__}, not JSON text")
    return json.loads(blob)  # bytes: decoded as UTF-8 with lone surrogates kept, as encode_value wrote them


def warn_bad_entries(path: Path, n: int) -> None:
    """Log the one warning for ``n`` unreadable entries of the cache file ``path`` (nothing if 0)."""
    if n:
        _LOG.warning(Msg.CACHE_BAD_ENTRIES.format(path=path, n=n, s="y" if n == 1 else "ies"))


def is_damage(err: sqlite3.DatabaseError) -> bool:
    """True when SQLite says the file is not a database or is damaged (not: locked, busy, read-only)."""
    name = getattr(err, "sqlite_errorname", "")
    if name:
        return name in ("SQLITE_NOTADB", "SQLITE_CORRUPT") or name.startswith(("SQLITE_NOTADB_", "SQLITE_CORRUPT_"))
    return type(err) is sqlite3.DatabaseError  # Python < 3.11: OperationalError (locked …) is a subclass


def ensure_cache_dir(directory: str | os.PathLike) -> Path:
    """Create the cache directory if needed; return it.

    Raises:
        CacheError: ``directory`` (or a parent) is a file, or cannot be created.
    """
    directory = Path(directory)
    if directory.exists() and not directory.is_dir():
        raise CacheError(Msg.CACHE_NOT_DIR.format(path=directory))
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise CacheError(Msg.CACHE_NOT_DIR.format(path=directory)) from None
    except NotADirectoryError:
        raise CacheError(Msg.CACHE_PARENT_NOT_DIR.format(path=directory)) from None
    except OSError as err:
        raise CacheError(Msg.CACHE_UNUSABLE.format(path=directory, err=err.strerror or err)) from None
    return directory


class DiskCache:
    """Key → JSON value tables in one SQLite file.

    Args:
        path: the SQLite file (its directory is created).
        tables: the tables to create if missing; each has ``key BLOB PRIMARY KEY, value BLOB``.
        setup: create the tables and switch the file to WAL mode. Pass ``False`` in worker
            processes that only read a file set up before they started (switching the mode
            needs an exclusive lock, which concurrent openers would fight over).
        extra_sql: more ``CREATE TABLE IF NOT EXISTS`` statements run at setup.

    Attributes:
        bad_entries: values read so far that did not decode or failed their check (each was
            treated as missing).

    Raises:
        CacheError: the cache directory is not a directory, or the file cannot be opened or
            written (e.g. a read-only directory).
    """

    def __init__(self, path: str | Path, tables: Iterable[str] = ("entries",), *, setup: bool = True,
                 extra_sql: Iterable[str] = ()):
        self.path = Path(path)
        self.bad_entries = 0
        self._setup = setup
        self._tables = tuple(tables)
        self._extra_sql = tuple(extra_sql)
        ensure_cache_dir(self.path.parent)
        try:
            self._open(setup)
        except sqlite3.DatabaseError as err:
            if not is_damage(err):
                raise CacheError(Msg.CACHE_UNUSABLE.format(path=self.path, err=err)) from None
            self._move_aside(err)
            try:
                self._open(setup=True)
            except sqlite3.DatabaseError as err2:
                raise CacheError(Msg.CACHE_UNUSABLE.format(path=self.path, err=err2)) from None

    def _open(self, setup: bool) -> None:
        self.con = sqlite3.connect(self.path, timeout=60)
        try:
            self.con.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # reads the header: NOTADB here
            if not setup:
                return
            self.con.execute("PRAGMA journal_mode=WAL")
            self.con.execute("PRAGMA synchronous=NORMAL")
            for table in self._tables:
                self.con.execute(f"CREATE TABLE IF NOT EXISTS {table} (key BLOB PRIMARY KEY, value BLOB NOT NULL)")
            for sql in self._extra_sql:
                self.con.execute(sql)
        except BaseException:
            self.con.close()
            raise

    def _move_aside(self, err: sqlite3.DatabaseError) -> None:
        stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
        aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        try:
            os.replace(self.path, aside)
            for suffix in ("-wal", "-shm"):
                side = self.path.with_name(self.path.name + suffix)
                if side.exists():
                    os.replace(side, aside.with_name(aside.name + suffix))
        except OSError as move_err:
            raise CacheError(Msg.CACHE_DAMAGED_STUCK.format(path=self.path, err=err, move_err=move_err)) from None
        _LOG.warning(Msg.CACHE_MOVED_ASIDE.format(path=self.path, err=err, aside=aside))

    def get_many(self, keys: list[bytes], table: str = "entries",
                 check: Callable[[bytes, Any], Any] | None = None) -> dict[bytes, Any]:
        """The values found for ``keys``; missing and unreadable ones are left out.

        Args:
            keys: the keys to look up.
            table: the table.
            check: called as ``check(key, value)`` on each decoded value; returns the value to
                use, or raises ``ValueError``/``TypeError``/``KeyError``/``IndexError`` when its
                shape is wrong (the entry is then a miss, counted in :attr:`bad_entries`).
        """
        found: dict[bytes, Any] = {}
        try:
            for i in range(0, len(keys), _SQL_CHUNK):
                chunk = keys[i : i + _SQL_CHUNK]
                marks = ",".join("?" * len(chunk))
                for key, blob in self.con.execute(f"SELECT key, value FROM {table} WHERE key IN ({marks})", chunk):
                    key = bytes(key)
                    try:
                        value = decode_value(blob)
                        found[key] = check(key, value) if check is not None else value
                    except _DECODE_ERRORS:
                        self.bad_entries += 1
        except sqlite3.DatabaseError as err:  # damaged pages: recompute everything this time
            self._damaged(err)
            return {}
        return found

    def get_value(self, sql: str, params: tuple = ()) -> Any:
        """The first column of the first row of the query ``sql`` (``None``: no row, or a damaged file,
        which is then moved aside as :meth:`get_many` does)."""
        try:
            row = self.con.execute(sql, params).fetchone()
        except sqlite3.DatabaseError as err:
            self._damaged(err)
            return None
        return row[0] if row else None

    def execute_write(self, sql: str, params: tuple = ()) -> None:
        """Run one writing statement in a transaction (a damaged file is moved aside; the value is not stored).

        Raises:
            CacheError: the file cannot be written (read-only, disk full).
        """
        try:
            with self.con:
                self.con.execute(sql, params)
        except sqlite3.DatabaseError as err:
            self._damaged(err)

    def _damaged(self, err: sqlite3.DatabaseError) -> None:
        """After a read or write failed with ``err``: a damaged file is moved aside and an empty cache
        started (in a process that set the file up; a worker that did not only warns), anything else
        is a :class:`~mrclens.errors.CacheError`."""
        if not is_damage(err):
            raise CacheError(Msg.CACHE_UNUSABLE.format(path=self.path, err=err)) from None
        if not self._setup:  # a worker: the process that set the file up moves it aside
            if self.path not in _WARNED:
                _WARNED.add(self.path)
                _LOG.warning(Msg.CACHE_UNREADABLE.format(path=self.path, err=err))
            return
        self.con.close()
        self._move_aside(err)
        try:
            self._open(setup=True)
        except sqlite3.DatabaseError as err2:
            raise CacheError(Msg.CACHE_UNUSABLE.format(path=self.path, err=err2)) from None

    def put_many(self, items: Iterable[tuple[bytes, Any]], table: str = "entries") -> None:
        """Store ``(key, value)`` pairs in one transaction (replacing equal keys).

        Raises:
            CacheError: the file cannot be written (read-only, disk full).
        """
        rows = [(k, encode_value(v)) for k, v in items]
        try:
            with self.con:
                self.con.executemany(f"INSERT OR REPLACE INTO {table} (key, value) VALUES (?, ?)", rows)
        except sqlite3.DatabaseError as err:
            self._damaged(err)

    def close(self) -> None:
        self.con.close()
