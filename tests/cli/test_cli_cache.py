"""``mrclens cache info|clear`` (issue 44, item 6): where the caches are, their sizes and entries, and
removing them (all with --yes, or by name); never anything else in the directory."""

from __future__ import annotations

import json

from click.testing import CliRunner

from mrclens.cli import main
from mrclens.diskcache import DiskCache


def _caches(folder):
    for name, n in (("parses-v2.sqlite", 5), ("stats-v2.sqlite", 2)):
        cache = DiskCache(folder / name)
        cache.put_many([(f"k{i}".encode(), "v" * 100) for i in range(n)])
        cache.close()
    (folder / "keep.txt").write_text("mine")


def test_cache_info_and_clear(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    folder.mkdir()
    _caches(folder)
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(folder))
    monkeypatch.setenv("MRCLENS_PARSE_CACHE_MAX", "1GiB")
    runner = CliRunner()
    res = runner.invoke(main, ["cache", "info"])
    assert res.exit_code == 0, res.output
    assert f"cache directory: {folder}" in res.stdout
    assert "parses-v2.sqlite" in res.stdout and "5 entries" in res.stdout and "2 entries" in res.stdout
    assert "parse cache cap 1.0 GiB ($MRCLENS_PARSE_CACHE_MAX)" in res.stdout
    info = json.loads(runner.invoke(main, ["cache", "info", "--json"]).stdout)
    assert info["directory"] == str(folder) and info["parse_cache_max"] == 2**30
    assert [(c["name"], c["entries"]) for c in info["caches"]] == [("parses", {"entries": 5}), ("stats", {"entries": 2})]
    assert info["bytes"] == sum(c["bytes"] for c in info["caches"]) > 0

    res = runner.invoke(main, ["cache", "clear"])  # everything only with --yes
    assert res.exit_code == 2 and "--yes" in res.stderr and "there: parses, stats" in res.stderr
    assert (folder / "parses-v2.sqlite").exists()
    res = runner.invoke(main, ["cache", "clear", "parses", "--json"])
    assert res.exit_code == 0, res.output
    assert [c["name"] for c in json.loads(res.stdout)["removed"]] == ["parses"]
    assert not (folder / "parses-v2.sqlite").exists() and (folder / "stats-v2.sqlite").exists()
    res = runner.invoke(main, ["cache", "clear", "parses"])
    assert res.exit_code == 2 and "no cache named 'parses'" in res.stderr
    res = runner.invoke(main, ["cache", "clear", "--yes", "--cache-dir", str(folder)])
    assert res.exit_code == 0 and "cleared 1 cache file(s)" in res.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["keep.txt"]
    res = runner.invoke(main, ["cache", "info", "--cache-dir", str(tmp_path / "none")])
    assert res.exit_code == 0 and "absent: nothing cached yet" in res.stdout
    res = runner.invoke(main, ["cache", "info", "--cache-dir", str(folder / "keep.txt")])
    assert res.exit_code == 2  # a file is no cache directory


def test_a_cache_path_that_is_a_file_is_named_not_read_as_absent(tmp_path, monkeypatch):
    """Issue 55, item 14: `MRCLENS_CACHE_DIR` naming a file read as "absent: nothing cached yet" (info) and
    "cleared 0 cache file(s)" (clear), exit 0; it is no cache folder: exit 2 saying so, the file untouched."""
    file = tmp_path / "notes.txt"
    file.write_text("mine")
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(file))
    runner = CliRunner()
    for args in (["cache", "info"], ["cache", "info", "--json"], ["cache", "clear", "--yes"],
                 ["cache", "clear", "parses"]):
        res = runner.invoke(main, args)
        assert res.exit_code == 2, (args, res.output)
        assert f"cache directory {file} is not a directory (it is a file)" in res.stderr, res.stderr
        assert "absent" not in res.stdout and "cleared" not in res.stdout
    assert file.read_text() == "mine"
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(file / "cache"))  # below a file: no folder can be there
    res = runner.invoke(main, ["cache", "info"])
    assert res.exit_code == 2 and "a parent of it is a file" in res.stderr, res.output
