"""The input record (:mod:`mrclens.inputs`): a declared input of a session is read from disk once and
hashed once; a file changed during the session is read again; outside a session nothing is kept."""

from __future__ import annotations

import builtins
import gzip
import hashlib
import io
import os
from pathlib import Path

import pytest

from mrclens import inputs
from mrclens.formats import load_dataset, read
from mrclens.formats.base import open_text, read_text
from mrclens.formats.detect import sniff
from mrclens.io_utils import read_bytes, sha256_file
from mrclens.formats import detect_task


@pytest.fixture
def opens(monkeypatch):
    """Count the opens of each file (by real path) through ``open``, ``io.open`` (``Path.read_bytes``)
    and ``gzip.open`` (which calls ``open``)."""
    counts: dict[str, int] = {}
    real_open = builtins.open

    def counting_open(file, *args, **kwargs):
        if isinstance(file, (str, os.PathLike)):
            key = os.path.realpath(file)
            counts[key] = counts.get(key, 0) + 1
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counting_open)
    monkeypatch.setattr(io, "open", counting_open)
    return lambda path: counts.get(os.path.realpath(path), 0)


@pytest.fixture
def squad_gz(sample_path, tmp_path):
    path = tmp_path / "train.json.gz"
    path.write_bytes(sample_path.read_bytes())
    return path


def test_a_declared_input_is_read_from_disk_once_by_every_reader(squad_gz, opens):
    expected = hashlib.sha256(squad_gz.read_bytes()).hexdigest()
    before = opens(squad_gz)
    with inputs.session():
        inputs.declare(squad_gz)
        assert opens(squad_gz) == before  # declaring reads nothing
        assert sha256_file(squad_gz) == expected == inputs.sha256(squad_gz)
        assert sniff(squad_gz) == ("squad", "json")
        with open_text(squad_gz) as fh:
            assert fh.readline(20) == '{"data": [{"title": '
        text, problems = read_text(squad_gz)
        assert problems == [] and text.startswith('{"data"')
        assert read_bytes(squad_gz) == gzip.decompress(squad_gz.read_bytes())  # (this test's own read: one open)
        assert detect_task(squad_gz).is_default and detect_task(squad_gz, role="sniff_input").is_default  # span data
        first = load_dataset(squad_gz)
        assert load_dataset(squad_gz) is first  # parsed once: the record keeps the parse
        assert read(squad_gz, on_invalid="skip") is not read(squad_gz)  # another way of reading, another parse
        assert opens(squad_gz) - before == 2  # the record's one read + the test's own read_bytes() above
    after = opens(squad_gz)
    assert load_dataset(squad_gz) is not first  # the session ended: nothing is kept
    assert sha256_file(squad_gz) == expected and opens(squad_gz) > after


def test_outside_a_session_or_undeclared_every_call_reads_the_file(squad_gz, opens, tmp_path):
    other = tmp_path / "other.json"
    other.write_text('{"data": []}', encoding="utf-8")
    assert inputs.held_bytes(squad_gz) is None
    inputs.declare(squad_gz)  # outside a session: nothing happens
    n = opens(squad_gz)
    sha256_file(squad_gz), sha256_file(squad_gz)
    assert opens(squad_gz) == n + 2
    assert inputs.remember(squad_gz, "k", object) is not inputs.remember(squad_gz, "k", object)
    with inputs.session():
        inputs.declare(squad_gz)
        n = opens(other)
        assert inputs.held_bytes(other) is None
        sha256_file(other), read_bytes(other)
        assert opens(other) == n + 2
        assert inputs.remember(other, "k", object) is not inputs.remember(other, "k", object)


def test_a_file_changed_during_the_session_is_read_again(tmp_path, opens):
    path = tmp_path / "d.json"
    path.write_text('{"data": []}', encoding="utf-8")
    with inputs.session():
        inputs.declare(path)
        first = inputs.remember(path, "parsed", lambda: read_text(path)[0])
        assert first == '{"data": []}' and inputs.remember(path, "parsed", object) == first
        path.write_text('{"data": [], "version": "2"}', encoding="utf-8")  # another size (and mtime)
        assert inputs.remember(path, "parsed", lambda: read_text(path)[0]) == '{"data": [], "version": "2"}'
        assert sha256_file(path) == hashlib.sha256(path.read_bytes()).hexdigest()
        replaced = tmp_path / "new.json"
        replaced.write_text('{"data": [], "version": "3"}', encoding="utf-8")
        os.replace(replaced, path)  # same size, another inode: how MRCLens itself writes files
        assert read_bytes(path) == b'{"data": [], "version": "3"}'
        path.unlink()
        with pytest.raises(FileNotFoundError):
            sha256_file(path)
        assert inputs.remember(path, "gone", lambda: "computed") == "computed"  # left to the caller's own read


def test_sessions_nest_and_folders_or_missing_paths_are_not_records(tmp_path):
    path = tmp_path / "d.json"
    path.write_text('{"data": []}', encoding="utf-8")
    with inputs.session():
        inputs.declare(path, tmp_path, tmp_path / "missing.json", None)
        assert inputs.held_bytes(tmp_path) is None and inputs.held_bytes(tmp_path / "missing.json") is None
        with inputs.session():
            assert inputs.held_bytes(path) == b'{"data": []}'
            kept = inputs.remember(path, "k", object)
        assert inputs.remember(path, "k", object) is kept  # the inner session's end kept the record
        assert inputs.held_bytes(Path(str(tmp_path) + "/./d.json")) == b'{"data": []}'  # one record per real path
    assert inputs.held_bytes(path) is None
