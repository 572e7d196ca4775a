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
parses, :mod:`mrclens.stats.cache` per-paragraph statistics, :mod:`mrclens.languages` the language
reports.

Where the caches live and what they hold (``mrclens cache info|clear``): :func:`default_cache_dir`
(``$MRCLENS_CACHE_DIR``, else ``$XDG_CACHE_HOME/mrclens`` or ``~/.cache/mrclens``), :func:`cache_files` (each cache file with its size
and entries) and :func:`clear_caches` (removes cache files, all or by name, and nothing else).
:meth:`DiskCache.trim` keeps a table under a size by removing its oldest entries first (the parse
cache's cap, :func:`mrclens.parsing.parse_cache_limit`).
"""

from __future__ import annotations

import datetime as _dt
import json
import logging
import os
import re
import sqlite3
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable, Iterable

from mrclens.errors import CacheError, MRCLensError, Msg

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


#: Environment variable naming the cache directory (:func:`default_cache_dir`).
CACHE_DIR_ENV = "MRCLENS_CACHE_DIR"


def default_cache_dir() -> Path:
    """The cache directory: ``$MRCLENS_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/mrclens`` where that is an
    absolute path (the XDG Base Directory Specification 0.8: a relative one is ignored), else ``~/.cache/mrclens``."""
    env = os.environ.get(CACHE_DIR_ENV)
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return Path(xdg) / "mrclens" if xdg and Path(xdg).is_absolute() else Path.home() / ".cache" / "mrclens"


#: The largest size :func:`parse_size` accepts: ``2**63 − 1`` bytes (8 EiB), SQLite's largest integer.
MAX_SIZE = 2**63 - 1
_UNITS = {"": 1, "b": 1, "k": 1000, "kb": 1000, "m": 1000**2, "mb": 1000**2, "g": 1000**3, "gb": 1000**3,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "t": 1000**4, "tb": 1000**4, "tib": 2**40}


def parse_size(text: str) -> int | None:
    """A size in bytes from ``"2GiB"``, ``"500 MB"``, ``"1.5G"`` or ``"1048576"`` (``K``/``M``/``G``/``T``
    and ``KB``… are powers of 1000, ``KiB``/``MiB``/``GiB``/``TiB`` powers of 1024); ``None`` for
    ``"none"``/``"unlimited"`` (no cap).

    >>> parse_size("2GiB"), parse_size("500 MB"), parse_size("unlimited")
    (2147483648, 500000000, None)

    Raises:
        ValueError: not a size, or over :data:`MAX_SIZE` (the message says what is accepted).
    """
    value = text.strip().lower()
    if value in ("none", "unlimited"):
        return None
    match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([a-z]*)", value)
    if match is None or match.group(2) not in _UNITS:
        raise ValueError(f"{text!r} is not a size: give a number of bytes with an optional unit (500MB, 2GiB), "
                         "or 'unlimited'")
    size = Decimal(match.group(1)) * _UNITS[match.group(2)]  # exact, however many digits (a float: inf at 309)
    if size > MAX_SIZE:
        raise ValueError(f"{text[:40]!r}{'…' if len(text) > 40 else ''} is out of range: give 0 to {MAX_SIZE:,} "
                         "bytes (8 EiB), e.g. 500MB or 2GiB, or 'unlimited'")
    return int(size)


def format_size(n: int) -> str:
    """``n`` bytes for people, in powers of 1024: ``"9.6 MiB"``, ``"512 B"``.

    >>> format_size(10010624), format_size(512)
    ('9.5 MiB', '512 B')
    """
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"  # (not reached)


#: A cache file's name: ``NAME-vN.sqlite`` (the cache's name and its schema version).
_CACHE_FILE = re.compile(r"(?P<name>[a-z][a-z0-9_]*)-v(?P<version>\d+)\.sqlite")


@dataclass
class CacheFile:
    """One cache file of a cache directory (:func:`cache_files`).

    Attributes:
        name: the cache's name, the file name before ``-vN`` (``"parses"``, ``"stats"``, ``"languages"``).
        path: the SQLite file.
        files: it and the files that belong to it (``-wal``, ``-shm`` and damaged copies moved aside).
        size: bytes of all of :attr:`files`.
        entries: rows per table (``{"parses": 12345, "fingerprints": 2}``); ``None`` when the file cannot
            be read (damaged).
    """

    name: str
    path: Path
    files: list[Path] = field(default_factory=list)
    size: int = 0
    entries: dict[str, int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "file": str(self.path), "bytes": self.size, "entries": self.entries,
                "files": [str(f) for f in self.files]}


def cache_files(directory: str | os.PathLike | None = None, *, count: bool = True) -> list[CacheFile]:
    """The cache files in ``directory`` (default :func:`default_cache_dir`), by name: each ``NAME-vN.sqlite``
    with its side files, its size and (``count``) its rows per table, read without writing. Other files in
    the directory are not MRCLens's and are left out. An absent directory has none.

    Raises:
        CacheError: ``directory`` is a file, or a parent of it is (:func:`check_cache_dir`): no cache
            folder, not an empty one.
    """
    folder = check_cache_dir(Path(directory) if directory is not None else default_cache_dir())
    if not folder.is_dir():
        return []
    found: dict[str, CacheFile] = {}
    for path in sorted(folder.iterdir()):
        match = _CACHE_FILE.fullmatch(path.name)
        if match and path.is_file():
            found[path.name] = CacheFile(match.group("name"), path, [path])
            if count:
                found[path.name].entries = _count_rows(path)
    for path in sorted(folder.iterdir()):  # -wal, -shm, .damaged-… (and a damaged copy's own -wal/-shm)
        owner = next((c for base, c in found.items() if path.name.startswith(base) and path.is_file()
                      and path.name[len(base):].startswith(("-wal", "-shm", "-journal", ".damaged-"))), None)
        if owner is not None:
            owner.files.append(path)
    for cache in found.values():
        cache.size = sum(f.stat().st_size for f in cache.files if f.exists())
    return sorted(found.values(), key=lambda c: (c.name, c.path.name))


def _count_rows(path: Path) -> dict[str, int] | None:
    """Rows per table of the SQLite file ``path`` (``None``: unreadable). Only reads; opened as the caches
    open it, so that closing removes the ``-wal``/``-shm`` files as usual (read-only where the folder is)."""
    for uri in (f"file:{path}?mode=rw", f"file:{path}?mode=ro"):
        try:
            con = sqlite3.connect(uri, uri=True, timeout=10)
        except sqlite3.Error:
            continue
        try:
            tables = [row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")]
            return {t: con.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in tables}
        except sqlite3.Error:
            continue
        finally:
            con.close()
    return None


def clear_caches(directory: str | os.PathLike | None = None, names: Iterable[str] | None = None) -> list[CacheFile]:
    """Remove the cache files of ``directory`` (default :func:`default_cache_dir`): every one, or those of
    the caches in ``names`` (every schema version of each). Removes only :func:`cache_files`' files, never
    anything else in the directory, nor the directory. Run it when no ``mrclens`` command is running.

    Returns:
        the caches removed (with their sizes).

    Raises:
        MRCLensError: a name that is no cache in the directory (the message lists those there).
        CacheError: a file cannot be removed.
    """
    caches = cache_files(directory, count=False)
    if names is not None:
        wanted = list(dict.fromkeys(names))
        known = sorted({c.name for c in caches})
        unknown = [n for n in wanted if n not in known]
        if unknown:
            where = Path(directory) if directory is not None else default_cache_dir()
            raise MRCLensError(f"no cache named {', '.join(map(repr, unknown))} in {where}; "
                               f"the caches there: {', '.join(known) or 'none'}")
        caches = [c for c in caches if c.name in wanted]
    for cache in caches:
        for path in cache.files:
            try:
                path.unlink(missing_ok=True)
            except OSError as err:
                raise CacheError(Msg.CACHE_UNUSABLE.format(path=path, err=err.strerror or err)) from None
    return caches


def check_cache_dir(directory: str | os.PathLike) -> Path:
    """``directory`` as a cache folder to read: a folder, or absent (nothing cached yet); never a file.

    Raises:
        CacheError: ``directory`` is a file (:data:`~mrclens.errors.Msg.CACHE_NOT_DIR`), or its nearest
            existing parent is one (:data:`~mrclens.errors.Msg.CACHE_PARENT_NOT_DIR`).
    """
    directory = Path(directory)
    if directory.exists() and not directory.is_dir():
        raise CacheError(Msg.CACHE_NOT_DIR.format(path=directory))
    parent = directory.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not directory.exists() and parent.exists() and not parent.is_dir():
        raise CacheError(Msg.CACHE_PARENT_NOT_DIR.format(path=directory))
    return directory


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

    def used_bytes(self) -> int:
        """Bytes of the file's pages that hold data (its pages less the free ones, which new entries reuse)."""
        page = self.get_value("PRAGMA page_size") or 0
        pages = self.get_value("PRAGMA page_count") or 0
        free = self.get_value("PRAGMA freelist_count") or 0
        return page * max(0, pages - free)

    def trim(self, table: str, max_bytes: int | None, keep: float = 0.9) -> int:
        """Keep the file under ``max_bytes``: when :meth:`used_bytes` exceeds it, remove the oldest entries of
        ``table`` (the first written: SQLite's rowid order; a replaced entry counts as new) until about
        ``keep`` × ``max_bytes`` is used. The file does not shrink: the freed pages hold the next entries,
        so it stays near ``max_bytes``. ``None``: no cap.

        Returns:
            the number of entries removed.

        Raises:
            CacheError: the file cannot be written.
        """
        if max_bytes is None:
            return 0
        removed = 0
        for _ in range(4):  # the payload is an estimate of the pages it takes: check again after each removal
            used = self.used_bytes()
            if used <= max_bytes:
                break
            payload = self.get_value(f"SELECT SUM(length(key) + length(value)) FROM {table}") or 0
            if not payload:
                break
            to_free = (used - keep * max_bytes) * payload / used  # in payload bytes
            freed, last, n = 0, None, 0
            for rowid, size in self.con.execute(f"SELECT rowid, length(key) + length(value) FROM {table} ORDER BY rowid"):
                freed, last, n = freed + size, rowid, n + 1
                if freed >= to_free:
                    break
            if last is None:
                break
            self.execute_write(f"DELETE FROM {table} WHERE rowid <= ?", (last,))
            removed += n
        if removed:
            _LOG.debug("%s: removed the %s oldest entries to stay under %s bytes", self.path, removed, max_bytes)
        return removed

    def close(self) -> None:
        self.con.close()
