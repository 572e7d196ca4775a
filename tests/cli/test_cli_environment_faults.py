"""Issue 42, item 4: faults of the machine, not of MRCLens.

* A full disk (ENOSPC) or a failing device (EIO) while writing any output — standard output, as
  ``mrclens validate FILE > /dev/full``, or an output file — is not a bug in MRCLens: exit 2, one line
  ``cannot write …: reason`` naming standard output or the file, no crash log.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mrclens import errors
from mrclens.cli import main

REPO = Path(__file__).resolve().parents[2]
_CODE = "import sys\nfrom mrclens.cli import main\nsys.argv = ['mrclens', *sys.argv[1:]]\nmain()\n"


def squad_file(path: Path, n: int = 3) -> Path:
    """A small valid SQuAD v1.1 file: one paragraph, ``n`` questions (answer 'Paris')."""
    context = "Paris is the capital of France. It lies on the Seine. Many people visit it every year."
    qas = [{"id": f"q{i}", "question": f"Which city is the capital of France ({i})?",
            "answers": [{"text": "Paris", "answer_start": 0}]} for i in range(n)]
    path.write_text(json.dumps({"version": "1.1", "data": [{"title": "Tiny", "paragraphs": [
        {"context": context, "qas": qas}]}]}), encoding="utf-8")
    return path


# ------------------------------------------------------------------ item 4: a full disk is not a bug
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("args", [["validate", "DATA"], ["validate", "DATA", "--json"], ["stats", "DATA", "--json"],
                                  ["--help"]], ids=["validate", "validate-json", "stats-json", "help"])
def test_standard_output_on_a_full_disk_exits_2_without_crash_log(args, tmp_path):
    data = squad_file(tmp_path / "dev.json")
    env = {**os.environ, "PYTHONPATH": str(REPO), "MRCLENS_CRASH_DIR": str(tmp_path / "crash"),
           "MRCLENS_CACHE_DIR": str(tmp_path / "cache")}
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-c", _CODE, *[str(data) if a == "DATA" else a for a in args]],
                              stdout=full, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    assert proc.returncode == errors.EXIT_BAD_INPUT, proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr and "Exception ignored" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == "error: cannot write standard output: No space left on device"
    assert not (tmp_path / "crash").exists() or not list((tmp_path / "crash").iterdir())


@pytest.mark.parametrize("code, reason", [(errno.ENOSPC, "No space left on device"), (errno.EIO, "Input/output error")])
@pytest.mark.parametrize("to", ["parquet", "hf"])
def test_a_full_disk_or_failing_device_under_an_output_file_names_the_file(to, code, reason, tmp_path, monkeypatch):
    """pyarrow's parquet writer or datasets' save_to_disk (not MRCLens' atomic writer) meets the fault
    in the middle of writing: the output is named, and nothing is left behind."""
    if to == "parquet":
        import pyarrow.parquet as module
        name = "write_table"
    else:
        module = pytest.importorskip("datasets").Dataset
        name = "save_to_disk"
    written = getattr(module, name)

    def fault(*args, **kwargs):
        written(*args, **kwargs)
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(module, name, fault)
    monkeypatch.setenv("MRCLENS_CRASH_DIR", str(tmp_path / "crash"))
    out = tmp_path / f"dev.{to}"
    res = CliRunner().invoke(main, ["convert", str(squad_file(tmp_path / "dev.json")), str(out), "--to", to])
    assert res.exit_code == errors.EXIT_BAD_INPUT, res.output
    assert res.output.strip().splitlines()[-1] == f"error: cannot write {out}: {reason}"
    assert "internal error" not in res.output and not (tmp_path / "crash").exists()
    assert sorted(tmp_path.iterdir()) == [tmp_path / "dev.json"]


def test_a_broken_pipe_still_exits_141_and_other_os_errors_are_still_bugs(tmp_path, monkeypatch):
    """The guard is for the environment's faults only: EPIPE keeps its 141, another OSError stays exit 3."""
    import mrclens.cli.validate as validate

    data = squad_file(tmp_path / "dev.json")
    monkeypatch.setenv("MRCLENS_CRASH_DIR", str(tmp_path / "crash"))
    for code, status in ((errno.EPIPE, errors.EXIT_BROKEN_PIPE), (errno.EBADF, errors.EXIT_INTERNAL)):
        def fault(*args, **kwargs):
            raise OSError(code, os.strerror(code))

        monkeypatch.setattr(validate, "validate_file", fault)
        res = CliRunner().invoke(main, ["validate", str(data)])
        assert res.exit_code == status, res.output
        assert "cannot write" not in res.output
