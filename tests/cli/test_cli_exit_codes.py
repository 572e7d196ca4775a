"""Exit codes of every command (mrclens.errors): 0 ok, 1 a check rule failed, 2 bad input, 3 a bug."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from mrclens import errors
from mrclens.cli import main


def test_exit_code_values_are_distinct():
    codes = [errors.EXIT_OK, errors.EXIT_CHECK_FAILED, errors.EXIT_BAD_INPUT, errors.EXIT_INTERNAL]
    assert codes == [0, 1, 2, 3]
    assert not issubclass(errors.InvariantError, errors.MRCLensError)  # a bug is never reported as bad input
    for name in ("RulesError", "CheckpointError", "VectorsError", "ArtifactError", "DataError", "PredictionsError", "PluginError"):
        assert issubclass(getattr(errors, name), errors.MRCLensError), name


@pytest.mark.parametrize("exc", [
    errors.InvariantError("question q1: inserting at 3 would cut the answer"),
    KeyError("an unexpected key"),
])
def test_internal_errors_exit_3_and_say_where_the_traceback_is(exc, sample_path, tmp_path, monkeypatch):
    """A bug inside a command (here injected into perturb) exits 3, says it is a bug and writes the traceback."""
    import mrclens.perturbations.driver as driver

    def broken(*args, **kwargs):
        raise exc

    monkeypatch.setattr(driver, "_perturb", broken)
    monkeypatch.setenv("MRCLENS_CRASH_DIR", str(tmp_path / "crash"))
    res = CliRunner().invoke(main, ["perturb", str(sample_path), "--out", str(tmp_path / "out"), "--quiet"])
    assert res.exit_code == errors.EXIT_INTERNAL, res.output
    assert "internal error (a bug in MRCLens" in res.output and type(exc).__name__ in res.output
    assert "Traceback" not in res.output
    [log] = list((tmp_path / "crash").glob("mrclens-crash-*.log"))
    assert str(log) in res.output
    text = log.read_text()
    assert "Traceback (most recent call last)" in text and type(exc).__name__ in text and "perturb" in text


def test_bad_input_exits_2_and_usage_errors_exit_2(tmp_path):
    res = CliRunner().invoke(main, ["evaluate", str(tmp_path), "--predictions-dir", str(tmp_path)])
    assert res.exit_code == errors.EXIT_BAD_INPUT and "manifest.json: not found" in res.output
    res = CliRunner().invoke(main, ["perturb"])
    assert res.exit_code == errors.EXIT_BAD_INPUT


def test_internal_error_through_the_real_console_script(tmp_path):
    """The same path in a real process: no traceback on stderr, exit 3, crash log written."""
    code = ("import sys, mrclens.cli.validate as v\n"
            "def boom(*a, **k): raise ZeroDivisionError('injected')\n"
            "v.validate_file = boom\n"
            "from mrclens.cli import main\n"
            "sys.argv = ['mrclens', 'validate', sys.argv[1]]\n"
            "main()\n")
    data = tmp_path / "d.json"
    data.write_text('{"data": []}')
    res = subprocess.run([sys.executable, "-c", code, str(data)], capture_output=True, text=True,
                         env={"MRCLENS_CRASH_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert res.returncode == 3, res.stderr
    assert "internal error" in res.stderr and "ZeroDivisionError: injected" in res.stderr
    assert "Traceback" not in res.stderr
    assert len(list(tmp_path.glob("mrclens-crash-*.log"))) == 1
