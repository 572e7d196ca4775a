"""A small on-disk key → value store (one SQLite file), shared by the parse and statistics caches.

Keys are bytes (content hashes); values are pickled with the highest protocol. SQLite in WAL
mode lets several processes read while one writes; a damaged value reads as missing, so the
caller recomputes it. Nothing here knows what is stored: :mod:`mrclens.parsing` keeps spaCy
parses, :mod:`mrclens.stats.cache` per-paragraph statistics.
"""

from __future__ import annotations

import pickle
import sqlite3
from pathlib import Path
from typing import Any, Iterable

_SQL_CHUNK = 900  # below SQLite's default limit of 999 bound parameters


class DiskCache:
    """Key → pickled value tables in one SQLite file.

    Args:
        path: the SQLite file (its directory is created).
        tables: the tables to create if missing; each has ``key BLOB PRIMARY KEY, value BLOB``.
        setup: create the tables and switch the file to WAL mode. Pass ``False`` in worker
            processes that only read a file set up before they started (switching the mode
            needs an exclusive lock, which concurrent openers would fight over).
    """

    def __init__(self, path: str | Path, tables: Iterable[str] = ("entries",), *, setup: bool = True):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.con = sqlite3.connect(self.path, timeout=60)
        if not setup:
            return
        self.con.execute("PRAGMA journal_mode=WAL")
        self.con.execute("PRAGMA synchronous=NORMAL")
        for table in tables:
            self.con.execute(f"CREATE TABLE IF NOT EXISTS {table} (key BLOB PRIMARY KEY, value BLOB NOT NULL)")

    def get_many(self, keys: list[bytes], table: str = "entries") -> dict[bytes, Any]:
        """The values found for ``keys`` (missing and unreadable ones are left out)."""
        found: dict[bytes, Any] = {}
        for i in range(0, len(keys), _SQL_CHUNK):
            chunk = keys[i : i + _SQL_CHUNK]
            marks = ",".join("?" * len(chunk))
            for key, value in self.con.execute(f"SELECT key, value FROM {table} WHERE key IN ({marks})", chunk):
                try:
                    found[bytes(key)] = pickle.loads(value)
                except Exception:  # a damaged entry is computed again
                    pass
        return found

    def put_many(self, items: Iterable[tuple[bytes, Any]], table: str = "entries") -> None:
        """Store ``(key, value)`` pairs in one transaction (replacing equal keys)."""
        with self.con:
            self.con.executemany(
                f"INSERT OR REPLACE INTO {table} (key, value) VALUES (?, ?)",
                [(k, pickle.dumps(v, protocol=pickle.HIGHEST_PROTOCOL)) for k, v in items],
            )

    def close(self) -> None:
        self.con.close()
