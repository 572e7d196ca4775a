"""Safe caches (issue 15): values are JSON, never pickles; bad entries and damaged files are
recomputed with one warning; a cache path that is not a directory is a clear error (exit 2)."""

from __future__ import annotations

import ast
import json
import logging
import os
import pickle
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import mrclens.parsing as parsing
from mrclens.cli import main
from mrclens.diskcache import DiskCache
from mrclens.errors import EXIT_BAD_INPUT, CacheError
from mrclens.formats import load_dataset
from mrclens.stats import compute_stats
from mrclens.stats.cache import StatsCache

REPO = Path(__file__).resolve().parents[1]
TEXTS = ["The cache must never run code. It stores offsets.", "What does the cache store?"]


class _RunsCode:
    """Unpickling this creates the marker file: proof that a pickle load happened."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _payload(marker: Path) -> bytes:
    return pickle.dumps(_RunsCode(marker))


def test_no_cache_module_imports_pickle():
    for rel in ("mrclens/diskcache.py", "mrclens/parsing.py", "mrclens/stats/cache.py", "mrclens/stats/core.py"):
        tree = ast.parse((REPO / rel).read_text())
        names = {a.name for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
        mods = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert "pickle" not in names | mods and "marshal" not in names | mods, rel


def test_pickle_payload_in_the_parse_cache_is_not_executed(tmp_path, caplog):
    marker = tmp_path / "pwned"
    assert not marker.exists()
    pickle.loads(_payload(tmp_path / "control"))  # the payload does run code when unpickled

    assert (tmp_path / "control").exists()

    cache_dir = tmp_path / "cache"
    good = parsing.parse_texts(TEXTS, sentences=True, cache_dir=cache_dir)
    con = sqlite3.connect(cache_dir / "parses-v2.sqlite")
    n = con.execute("UPDATE parses SET value = ?", (_payload(marker),)).rowcount
    con.commit()
    con.close()
    assert n == 2
    with caplog.at_level(logging.WARNING, logger="mrclens.cache"):
        again = parsing.parse_texts(TEXTS, sentences=True, cache_dir=cache_dir)
    assert not marker.exists()
    assert again == good  # recomputed
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "2 cache entries could not be read" in warnings[0]
    assert "parses-v2.sqlite" in warnings[0]
    # the recomputed parses were stored again: a third run reads them without any warning
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="mrclens.cache"):
        assert parsing.parse_texts(TEXTS, sentences=True, cache_dir=cache_dir) == good
    assert not caplog.records


def test_an_old_pickle_cache_file_is_never_read(tmp_path, monkeypatch):
    """A v1 (pickle) cache file from an older MRCLens, here holding a payload under the very
    key the text would have, is ignored: the new file has another name."""
    marker = tmp_path / "pwned"
    cache_dir = tmp_path / "cache"
    parsing.parse_texts(TEXTS[:1], cache_dir=cache_dir)
    new = sqlite3.connect(cache_dir / "parses-v2.sqlite")
    rows = new.execute("SELECT key FROM parses").fetchall()
    fps = new.execute("SELECT key, value FROM fingerprints").fetchall()
    new.close()
    old = sqlite3.connect(cache_dir / "parses-v1.sqlite")
    old.execute("CREATE TABLE parses (key BLOB PRIMARY KEY, value BLOB NOT NULL)")
    old.execute("CREATE TABLE fingerprints (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    old.executemany("INSERT INTO parses VALUES (?, ?)", [(k, _payload(marker)) for (k,) in rows])
    old.executemany("INSERT INTO fingerprints VALUES (?, ?)", fps)
    old.commit()
    old.close()
    (cache_dir / "parses-v2.sqlite").unlink()
    parsing.parse_texts(TEXTS[:1], cache_dir=cache_dir)
    assert not marker.exists()


def test_pickle_payload_in_the_statistics_cache_is_not_executed(sample_path, tmp_path, caplog):
    marker = tmp_path / "pwned"
    ds = load_dataset(sample_path)
    ds.articles = ds.articles[:2]
    cache_dir = tmp_path / "cache"
    first = compute_stats(ds, cache_dir=cache_dir, progress=False, n_process=1)
    con = sqlite3.connect(cache_dir / "stats-v2.sqlite")
    con.execute("UPDATE paragraphs SET value = ?", (_payload(marker),))
    con.commit()
    con.close()
    with caplog.at_level(logging.WARNING, logger="mrclens.cache"):
        again = compute_stats(ds, cache_dir=cache_dir, progress=False, n_process=2)
    assert not marker.exists()
    n_par = first["statistics_cache"]["paragraphs"]
    assert again["statistics_cache"] == {"paragraphs": n_par, "computed": n_par, "from_cache": 0}
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and f"{n_par} cache entries could not be read" in warnings[0], warnings
    for key in ("heuristics", "lengths", "answer_position", "overlap", "similarity"):
        assert again[key] == first[key]


@pytest.mark.parametrize("value", [
    b"[1, 2",                                  # not JSON
    b"\xff\xfe",                               # not UTF-8
    b'"a string"',                             # JSON, wrong type
    b"[[0], [1], null, null, [0], null]",      # well-formed (a 1-token parse): read as stored, no warning
    b"[[0, 4], [3], null, null, [0], null]",   # starts and ends of different lengths
    b'[[0, "x"], [3, 5], null, null, [0], null]',  # a non-integer offset
    b"[[0, 4], [3, 999], null, null, [0], null]",  # an offset outside the text
    b"[[0], [3], null, null, null, null]",     # sentences requested but absent
    b'[[0], [3], ["X"], ["X"], [0], null]',    # POS present but not requested
    b"[[0], [3], null, null, [0], null, 7]",   # seven items
])
def test_a_wrong_shaped_parse_is_a_miss(tmp_path, value, caplog):
    cache_dir = tmp_path / "cache"
    (good,) = parsing.parse_texts(["Short text."], sentences=True, cache_dir=cache_dir)
    con = sqlite3.connect(cache_dir / "parses-v2.sqlite")
    con.execute("UPDATE parses SET value = ?", (value,))
    con.commit()
    con.close()
    with caplog.at_level(logging.WARNING, logger="mrclens.cache"):
        (again,) = parsing.parse_texts(["Short text."], sentences=True, cache_dir=cache_dir)
    if value == b"[[0], [1], null, null, [0], null]":  # well-formed for this text: it is used as stored
        assert again.starts == [0] and again.ends == [1] and not caplog.records
        return
    assert again == good
    assert len(caplog.records) == 1 and "1 cache entry could not be read" in caplog.records[0].getMessage()


@pytest.mark.parametrize("damage", ["random", "truncated"])
def test_a_damaged_cache_file_is_moved_aside_and_rebuilt(tmp_path, caplog, damage):
    cache_dir = tmp_path / "cache"
    good = parsing.parse_texts(TEXTS, sentences=True, cache_dir=cache_dir)
    path = cache_dir / "parses-v2.sqlite"
    if damage == "random":
        path.write_bytes(os.urandom(20000))
    else:
        path.write_bytes(path.read_bytes()[:50])
    with caplog.at_level(logging.WARNING, logger="mrclens.cache"):
        again = parsing.parse_texts(TEXTS, sentences=True, cache_dir=cache_dir)
    assert again == good
    [aside] = list(cache_dir.glob("parses-v2.sqlite.damaged-*"))
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 1 and str(path) in messages[0] and str(aside) in messages[0]
    con = sqlite3.connect(path)  # the rebuilt file is a database with the parses
    assert con.execute("SELECT COUNT(*) FROM parses").fetchone()[0] == 2
    con.close()


def test_a_locked_database_is_not_moved_aside(tmp_path):
    """Only 'not a database' / 'damaged' moves a file aside, never an error like a lock."""
    from mrclens.diskcache import is_damage

    assert not is_damage(sqlite3.OperationalError("database is locked"))


def test_cache_dir_that_is_a_file_is_a_clear_error(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(CacheError, match="is not a directory"):
        DiskCache(f / "x.sqlite")
    with pytest.raises(CacheError, match="a parent of it is a file"):
        StatsCache(f / "sub")


@pytest.mark.slow
@pytest.mark.parametrize("how", ["env", "option", "option-below-file"])
@pytest.mark.parametrize("command", ["perturb", "stats", "check"])
def test_cli_cache_dir_not_a_directory_exits_2(sample_path, tmp_path, monkeypatch, how, command):
    f = tmp_path / "some-file"
    f.write_text("not a directory")
    out = tmp_path / "out"
    args = [command, str(sample_path), "--quiet"]
    if command == "perturb":
        args += ["--out", str(out)]
    if how == "env":
        monkeypatch.setenv("MRCLENS_CACHE_DIR", str(f))
    else:
        args += ["--cache-dir", str(f if how == "option" else f / "sub")]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == EXIT_BAD_INPUT, res.output
    assert "Traceback" not in res.output
    errors = [line for line in res.output.splitlines() if line.lower().startswith("error")]
    assert len(errors) == 1 and str(f) in errors[0], res.output
    if how != "option":  # (--cache-dir FILE itself is refused by click's option check, as a usage error)
        assert res.output.strip() == errors[0] and errors[0].startswith("error: cache directory "), res.output
    assert not out.exists()  # no empty --out left behind
    assert f.read_text() == "not a directory"


@pytest.mark.slow
def test_cli_damaged_cache_file_warns_and_gives_the_same_output(sample_path, tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path / "cache"))
    runner = CliRunner()
    ds = load_dataset(sample_path)
    ds.articles = ds.articles[:3]
    from mrclens.squad import write_dataset

    data = write_dataset(ds, tmp_path / "small.json")
    res = runner.invoke(main, ["perturb", str(data), "--out", str(tmp_path / "a"), "--quiet"])
    assert res.exit_code == 0, res.output
    for name in ("parses-v2.sqlite",):
        (tmp_path / "cache" / name).write_bytes(b"random bytes, not SQLite" * 100)
    with caplog.at_level(logging.WARNING, logger="mrclens.cache"):
        res = runner.invoke(main, ["perturb", str(data), "--out", str(tmp_path / "b"), "--quiet"])
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    [message] = [r.getMessage() for r in caplog.records]
    assert "parses-v2.sqlite is not a usable SQLite database" in message and "moved it to" in message
    for f in sorted((tmp_path / "a").iterdir()):
        assert (tmp_path / "b" / f.name).read_bytes() == f.read_bytes(), f.name


@pytest.mark.slow
def test_damaged_statistics_cache_warning_reaches_stderr_of_the_real_command(sample_path, tmp_path):
    """Through the console script (no log configuration): the warning is one line on stderr."""
    ds = load_dataset(sample_path)
    ds.articles = ds.articles[:2]
    from mrclens.squad import write_dataset

    data = write_dataset(ds, tmp_path / "small.json")
    env = {**os.environ, "MRCLENS_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, "-c", "from mrclens.cli import main; main()", "stats", str(data), "--quiet", "--out", str(tmp_path / "s1.json")]
    first = subprocess.run(cmd, capture_output=True, text=True, env=env)
    assert first.returncode == 0, first.stderr
    (tmp_path / "cache" / "stats-v2.sqlite").write_bytes(os.urandom(5000))
    cmd[-1] = str(tmp_path / "s2.json")
    second = subprocess.run(cmd, capture_output=True, text=True, env=env)
    assert second.returncode == 0, second.stderr
    assert "Traceback" not in second.stderr
    [line] = [x for x in second.stderr.splitlines() if x.strip()]
    assert line.startswith("warning: cache file ") and "stats-v2.sqlite" in line and "moved it to" in line
    s1, s2 = (json.loads((tmp_path / n).read_text()) for n in ("s1.json", "s2.json"))
    assert s2["statistics_cache"]["computed"] == s2["statistics_cache"]["paragraphs"]
    for key in ("heuristics", "lengths", "answer_position", "overlap", "similarity", "answer_types"):
        assert s1[key] == s2[key]
