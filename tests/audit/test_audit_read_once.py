"""Read once (issue 43, item 4): on a cold cache ``mrclens audit DATA`` — and ``perturb``, ``stats``,
``check`` — read DATA from disk once, hash it once and parse it once, although the language pre-flight,
the task and format sniffers and the load all look at it (:mod:`mrclens.inputs`).

Every open of DATA (``open``, ``io.open`` behind ``Path.read_bytes``, ``gzip.open``), every sha256 computed
over its bytes and every parse of it (the JSON decode and the SQuAD schema parse) is counted; the command
is stopped right after its load by a stand-in for its next step, so these tests take seconds.
Before the input record, ``mrclens audit`` opened the bundled sample 14 times, hashed it twice and
parsed it twice up to the same point."""

from __future__ import annotations

import builtins
import gzip
import hashlib
import io
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import mrclens.formats as formats
import mrclens.formats.squad_json as squad_json
from mrclens.cli import main
from mrclens.errors import MRCLensError
from mrclens.formats import load_dataset
from mrclens.squad import Dataset, write_dataset

STOP = "stand-in: stopped right after the load"


class Reads:
    """What was done to one file's bytes: ``opens`` (reads from disk), ``hashes`` (sha256 computations over
    them), ``decodes`` (JSON decodes of its whole text by the format readers) and ``parses`` (SQuAD schema
    parses naming the file). (The sniffers decode the first line alone, which is the whole of a small
    one-line file: those are head reads, from the record's bytes.)"""

    def __init__(self, monkeypatch, path: Path):
        self.path = os.path.realpath(path)
        raw = Path(path).read_bytes()
        text = (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode("utf-8-sig")
        self.opens = self.hashes = self.decodes = self.parses = 0
        reads = self
        real_open, real_sha256 = builtins.open, hashlib.sha256
        real_parse = squad_json.parse_squad_counted

        def counting_open(file, *args, **kwargs):
            if isinstance(file, (str, os.PathLike)) and os.path.realpath(file) == reads.path:
                reads.opens += 1
            return real_open(file, *args, **kwargs)

        class CountingSha256:
            """hashlib.sha256, counting the hashes whose input starts with the file's bytes."""

            def __init__(self, data=b"", **kwargs):
                self._h, self._counted = real_sha256(**kwargs), False
                self.update(data)

            def update(self, data):
                if not self._counted and len(data) >= 64 and bytes(data[:64]) == raw[:64]:
                    reads.hashes += 1
                    self._counted = True
                self._h.update(data)

            def __getattr__(self, name):
                return getattr(self._h, name)

        def counting(loads):
            def counting_loads(s):
                reads.decodes += s[:200] == text[:200]
                return loads(s)
            return counting_loads

        def counting_parse(obj, file, *args, **kwargs):
            reads.parses += os.path.realpath(file) == reads.path
            return real_parse(obj, file, *args, **kwargs)

        monkeypatch.setattr(builtins, "open", counting_open)
        monkeypatch.setattr(io, "open", counting_open)  # Path.read_bytes / read_text
        monkeypatch.setattr(hashlib, "sha256", CountingSha256)
        for module in (squad_json, formats):  # a SQuAD file named .json(.gz); one JSON document of any other name
            monkeypatch.setattr(module, "loads_unique", counting(module.loads_unique))
        monkeypatch.setattr(squad_json, "parse_squad_counted", counting_parse)

    def __repr__(self):
        return f"opens {self.opens}, hashes {self.hashes}, JSON decodes {self.decodes}, schema parses {self.parses}"


def _stop(*args, **kwargs):
    raise MRCLensError(STOP)


@pytest.fixture(params=["gzip", "plain"])
def data(request, sample_path, tmp_path):
    """The bundled sample as a user's file (so the language pre-flight runs on it), or 3 of its articles as plain JSON."""
    if request.param == "gzip":
        path = tmp_path / "train.json.gz"
        path.write_bytes(sample_path.read_bytes())
        return path
    ds = load_dataset(sample_path)
    return write_dataset(Dataset(ds.articles[:3], ds.version), tmp_path / "train.json")


def _run(args):
    res = CliRunner().invoke(main, [str(a) for a in args])
    assert res.exit_code == 2 and STOP in res.output, res.output
    return res


def test_audit_reads_hashes_and_parses_its_data_once_on_a_cold_cache(data, tmp_path, monkeypatch):
    monkeypatch.setattr("mrclens.audit.span.perturb_sets", _stop)  # the step after the load
    reads = Reads(monkeypatch, data)
    _run(["audit", data, "--out", tmp_path / "audit", "--cache-dir", tmp_path / "cache", "--profile", "quick"])
    assert (tmp_path / "cache" / "languages-v2.sqlite").exists()  # the language pre-flight ran (and parsed: cold)
    assert (reads.opens, reads.hashes, reads.decodes, reads.parses) == (1, 1, 1, 1), reads


def test_audit_with_dev_reads_each_input_once(data, tmp_path, monkeypatch):
    dev = tmp_path / "dev.json"
    ds = load_dataset(data)
    write_dataset(Dataset(ds.articles[-1:], ds.version), dev)
    monkeypatch.setattr("mrclens.audit.span.perturb_sets", _stop)
    reads, dev_reads = Reads(monkeypatch, data), Reads(monkeypatch, dev)  # (the second wraps the first's counters)
    _run(["audit", data, "--dev", dev, "--out", tmp_path / "audit", "--cache-dir", tmp_path / "cache"])
    assert (reads.opens, reads.hashes, reads.parses) == (1, 1, 1), reads
    assert (dev_reads.opens, dev_reads.hashes, dev_reads.parses) == (1, 1, 1), dev_reads


@pytest.mark.slow
@pytest.mark.parametrize("command, stop", [
    ("perturb", "mrclens.perturbations.driver.perturb_dataset"),
    ("stats", "mrclens.stats.core.compute_stats_with_values"),
    ("check", "mrclens.stats.core.compute_stats_with_values"),
])
def test_perturb_stats_and_check_read_their_data_once(command, stop, data, tmp_path, monkeypatch):
    monkeypatch.setattr(stop, _stop)
    reads = Reads(monkeypatch, data)
    out = ["--out", tmp_path / "perturbed"] if command == "perturb" else []
    _run([command, data, *out, "--cache-dir", tmp_path / "cache"])
    assert (reads.opens, reads.decodes, reads.parses) == (1, 1, 1), reads
    assert reads.hashes == 1, reads  # the language cache's key
