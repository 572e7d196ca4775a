"""mrclens.diskcache: the size cap (oldest entries removed first), and what ``mrclens cache info|clear``
read and remove (issue 44, item 6: the cache had no size cap and no way to clear it)."""

from __future__ import annotations

import os

from pathlib import Path

import pytest

from mrclens.diskcache import DiskCache, cache_files, clear_caches, default_cache_dir, parse_size
from mrclens.errors import CacheError, MRCLensError


def _fill(cache: DiskCache, n: int, start: int = 0, size: int = 2000) -> list[bytes]:
    keys = [f"key{i:06d}".encode() for i in range(start, start + n)]
    cache.put_many([(k, "x" * size) for k in keys])
    return keys


def test_trim_removes_the_oldest_entries_until_the_file_fits(tmp_path):
    cache = DiskCache(tmp_path / "parses-v2.sqlite")
    try:
        first = _fill(cache, 300)
        later = _fill(cache, 300, start=300)
        assert cache.used_bytes() > 1_000_000
        assert cache.trim("entries", None) == 0 and cache.trim("entries", 10**9) == 0  # no cap, under the cap
        removed = cache.trim("entries", 500_000)
        assert 0 < removed < 600 and cache.used_bytes() <= 500_000
        kept = cache.get_many(first + later)
        assert set(kept) == set((first + later)[removed:])  # exactly the oldest went
        assert set(later[-100:]) <= set(kept)
        refreshed = _fill(cache, 1, start=removed)  # written again: now the newest
        cache.trim("entries", 500_000)
        _fill(cache, 200, start=1000)
        cache.trim("entries", 500_000)
        assert refreshed[0] in cache.get_many(refreshed) and cache.used_bytes() <= 500_000
        assert (tmp_path / "parses-v2.sqlite").stat().st_size < 1_000_000  # freed pages are reused: no growth
    finally:
        cache.close()


def test_cache_files_and_clear_by_name_or_all(tmp_path):
    for name in ("parses-v2.sqlite", "stats-v2.sqlite", "languages-v1.sqlite", "languages-v2.sqlite"):
        cache = DiskCache(tmp_path / name)
        _fill(cache, 3, size=10)
        cache.close()
    (tmp_path / "parses-v2.sqlite.damaged-20261127T000000Z").write_bytes(b"garbage")
    (tmp_path / "notes.txt").write_text("not a cache: never listed, never removed")
    (tmp_path / "mine.sqlite").write_bytes(b"")  # no -vN: not MRCLens's
    caches = cache_files(tmp_path)
    assert [(c.name, c.path.name) for c in caches] == [("languages", "languages-v1.sqlite"),
                                                       ("languages", "languages-v2.sqlite"),
                                                       ("parses", "parses-v2.sqlite"), ("stats", "stats-v2.sqlite")]
    parses = caches[2]
    assert parses.entries == {"entries": 3} and parses.size == sum(f.stat().st_size for f in parses.files)
    assert tmp_path / "parses-v2.sqlite.damaged-20261127T000000Z" in parses.files
    with pytest.raises(MRCLensError, match="no cache named 'nope' in .*; the caches there: languages, parses, stats"):
        clear_caches(tmp_path, ["nope"])
    removed = clear_caches(tmp_path, ["languages"])
    assert [c.path.name for c in removed] == ["languages-v1.sqlite", "languages-v2.sqlite"]
    assert [c.name for c in cache_files(tmp_path)] == ["parses", "stats"]
    clear_caches(tmp_path)
    assert cache_files(tmp_path) == [] and sorted(os.listdir(tmp_path)) == ["mine.sqlite", "notes.txt"]
    assert cache_files(tmp_path / "absent") == []


def test_sizes_and_the_default_directory(monkeypatch, tmp_path):
    assert parse_size("2GiB") == 2 * 2**30 and parse_size("1.5 G") == 1_500_000_000 and parse_size("123") == 123
    assert parse_size("Unlimited") is None
    for bad in ("", "big", "2 parsecs", "-1G"):
        with pytest.raises(ValueError, match="not a size"):
            parse_size(bad)
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path / "c"))
    assert default_cache_dir() == tmp_path / "c"
    import mrclens.parsing as parsing

    assert parsing.default_cache_dir is default_cache_dir  # one place says where the caches are
    monkeypatch.setenv("MRCLENS_PARSE_CACHE_MAX", "lots")
    with pytest.raises(CacheError, match=r"\$MRCLENS_PARSE_CACHE_MAX: 'lots' is not a size"):
        parsing.parse_cache_limit()
    monkeypatch.delenv("MRCLENS_PARSE_CACHE_MAX")
    assert parsing.parse_cache_limit() == 2 * 2**30


def test_xdg_cache_home_is_honoured_when_absolute(monkeypatch, tmp_path):
    """Issue 57, item 5: the XDG Base Directory Specification's cache home; ``$MRCLENS_CACHE_DIR`` still wins, and
    a relative ``$XDG_CACHE_HOME`` is ignored, as the specification says."""
    monkeypatch.delenv("MRCLENS_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "mrclens"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert default_cache_dir() == Path.home() / ".cache" / "mrclens"
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path / "mine"))
    assert default_cache_dir() == tmp_path / "mine"


def test_a_size_too_large_for_a_number_is_refused_naming_the_range(monkeypatch):
    """Issue 55, item 11: a 400-digit $MRCLENS_PARSE_CACHE_MAX raised OverflowError (exit 3). It is refused
    (CacheError, exit 2) naming the variable and the accepted range; the largest accepted size still works."""
    import mrclens.parsing as parsing
    from mrclens.diskcache import MAX_SIZE

    for big in ("9" * 400, "9" * 5000, str(MAX_SIZE + 1), "9000000 TiB"):
        monkeypatch.setenv("MRCLENS_PARSE_CACHE_MAX", big)
        with pytest.raises(CacheError, match=r"\$MRCLENS_PARSE_CACHE_MAX: .* is out of range: give 0 to "
                                             r"9,223,372,036,854,775,807 bytes"):
            parsing.parse_cache_limit()
    monkeypatch.setenv("MRCLENS_PARSE_CACHE_MAX", str(MAX_SIZE))
    assert parsing.parse_cache_limit() == MAX_SIZE
    assert parse_size("1.5 GiB") == 3 * 2**29
