"""Issue 42, items 4 and 8: faults of the machine, not of MRCLens, and inputs in the wrong form.

* A full disk (ENOSPC) or a failing device (EIO) while writing any output — standard output, as
  ``mrclens validate FILE > /dev/full``, or an output file — is not a bug in MRCLens: exit 2, one line
  ``cannot write …: reason`` naming standard output or the file, no crash log.
* A folder written by Hugging Face datasets' ``save_to_disk``, given to a command that reads data files
  (``stats``, ``check``, ``compare``, ``evaluate``, ``audit``), is named as such, with the
  ``mrclens convert`` line that turns it into a file (and that line works).
"""

from __future__ import annotations

import errno
import json
import os
import shlex
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
@pytest.mark.slow
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


@pytest.mark.parametrize("code, filename, line", [
    (errno.EIO, "/mnt/usb/dev.json", "error: cannot read or write /mnt/usb/dev.json: Input/output error"),
    (errno.ENOSPC, None, "error: cannot write a file: No space left on device"),
])
def test_the_guard_names_the_file_the_fault_names_else_says_a_file(code, filename, line, tmp_path, monkeypatch):
    """A fault that no writer named (an EIO may come from reading too): exit 2 with what is known, no crash log."""
    import mrclens.cli.validate as validate

    def fault(*args, **kwargs):
        raise OSError(code, os.strerror(code), filename)

    monkeypatch.setattr(validate, "validate_file", fault)
    monkeypatch.setenv("MRCLENS_CRASH_DIR", str(tmp_path / "crash"))
    res = CliRunner().invoke(main, ["validate", str(squad_file(tmp_path / "dev.json"))])
    assert res.exit_code == errors.EXIT_BAD_INPUT, res.output
    assert res.output.strip().splitlines() == [line] and not (tmp_path / "crash").exists()


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


# ------------------------------------------------------------------ item 8: a save_to_disk folder where a file is read
datasets_needed = pytest.mark.skipif(
    __import__("importlib").util.find_spec("datasets") is None, reason="the optional extra mrclens[hf] (datasets) is not installed")


@pytest.fixture()
def saved(tmp_path):
    """A folder written by save_to_disk (one Dataset) and one of a DatasetDict (train, validation)."""
    from mrclens.formats import load_dataset
    from mrclens.formats.hf_datasets import to_hf_dataset

    data = load_dataset(squad_file(tmp_path / "src.json"))
    to_hf_dataset(data).save_to_disk(str(tmp_path / "one-hf"))
    to_hf_dataset({"train": data, "validation": data}).save_to_disk(str(tmp_path / "dict-hf"))
    return tmp_path / "one-hf", tmp_path / "dict-hf"


def _convert_line(output: str) -> list[str]:
    line = output.strip().splitlines()[-1]
    assert "mrclens convert " in line, line
    return shlex.split(line[line.index("mrclens convert "):])[2:]  # IN OUT --to … after "mrclens convert"


@datasets_needed
@pytest.mark.parametrize("args", [
    ["stats", "FOLDER"], ["check", "FOLDER"], ["compare", "FOLDER", "FILE", "--out", "OUT"],
    ["compare", "FILE", "FOLDER", "--out", "OUT"], ["evaluate", "FOLDER"], ["evaluate", "FOLDER", "--predictions-dir", "PREDS"],
    ["check", "FILE", "--compare-with", "FOLDER"], ["audit", "FOLDER", "--out", "OUT"],
], ids=["stats", "check", "compare-first", "compare-second", "evaluate", "evaluate-dir", "check-compare-with", "audit"])
def test_a_save_to_disk_folder_given_for_a_file_says_so_with_the_convert_line(args, saved, tmp_path):
    one, _ = saved
    (tmp_path / "preds").mkdir()
    given = {"FOLDER": str(one), "FILE": str(tmp_path / "src.json"), "PREDS": str(tmp_path / "preds"),
             "OUT": str(tmp_path / "out")}
    args = [given.get(a, a) for a in args]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == errors.EXIT_BAD_INPUT, res.output
    line = res.output.strip().splitlines()[-1]
    assert line.startswith(f"error: {one} is a folder written by Hugging Face datasets' save_to_disk"), line
    assert f"`mrclens {args[0]}` reads data files" in line
    for misleading in ("multiple-choice folds", "results.json", "--predictions-dir PRED_DIR"):
        assert misleading not in line
    assert not (tmp_path / "out").exists()
    convert = _convert_line(res.output)
    assert "--split" not in convert
    res = CliRunner().invoke(main, ["convert", *convert])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(main, ["validate", convert[1], "--json"])
    assert res.exit_code == 0 and json.loads(res.output)["counts"]["questions"] == 3, res.output


@datasets_needed
def test_a_saved_dataset_dict_gets_the_convert_line_with_a_split(saved, tmp_path):
    _, both = saved
    res = CliRunner().invoke(main, ["stats", str(both)])
    assert res.exit_code == errors.EXIT_BAD_INPUT, res.output
    assert "its splits: train, validation" in res.output
    convert = _convert_line(res.output)
    assert convert[convert.index("--split") + 1] == "train"
    res = CliRunner().invoke(main, ["convert", *convert])
    assert res.exit_code == 0, res.output
    assert Path(convert[1]).is_file()
