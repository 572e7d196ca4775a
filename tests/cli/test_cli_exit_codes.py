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


# ---------------------------------------------------------------------------- --json errors (issue 44, item 6)
def _json_commands() -> list[str]:
    from mrclens.cli import COMMANDS

    return sorted(name for name in COMMANDS
                  if any("--json" in getattr(p, "opts", ()) for p in main.get_command(None, name).params))


def _error_object(res) -> dict:
    """The one JSON object a failed ``--json`` run printed on standard output."""
    import json

    obj = json.loads(res.stdout)
    assert set(obj) == {"error", "exit_code"} and obj["exit_code"] == res.exit_code, obj
    return obj


def test_every_json_command_prints_an_error_as_one_json_object(tmp_path):
    """Before: only `validate` printed JSON on an error; the others printed a line on stderr and nothing on
    stdout, so a script reading stdout got no JSON. Now usage errors and bad input alike give
    {"error": message, "exit_code": N} on stdout (the line on stderr stays)."""
    names = _json_commands()
    assert {"validate", "stats", "check", "evaluate", "compare", "diff-results"} <= set(names)
    not_data = tmp_path / "package.json"
    not_data.write_text('{"name": "web-app", "version": "1.0.0"}')
    folder = tmp_path / "folder"
    folder.mkdir()
    bad_input = {
        "validate": [str(folder)], "stats": [str(not_data)], "check": [str(not_data)],
        "evaluate": [str(not_data), str(not_data)], "compare": [str(not_data), str(not_data), "--out", str(tmp_path / "c")],
        "diff-results": [str(not_data), str(not_data)], "cache": ["clear", "nope", "--cache-dir", str(folder)],
    }
    runner = CliRunner()
    for name in names:
        res = runner.invoke(main, [name, "--json", "--no-such-option"])
        assert res.exit_code == errors.EXIT_BAD_INPUT, (name, res.output)
        assert "--no-such-option" in _error_object(res)["error"], name
        assert "No such option" in res.stderr  # the usual message stays on stderr
        res = runner.invoke(main, ["-q", name, *bad_input[name], "--json"])
        assert res.exit_code == errors.EXIT_BAD_INPUT, (name, res.output)
        message = _error_object(res)["error"]
        assert str(folder if name in ("validate", "cache") else not_data) in message, (name, message)
        assert f"error: {message.splitlines()[0]}" in res.stderr, name
        res = runner.invoke(main, [name, *bad_input[name]])  # without --json: nothing on stdout
        assert res.exit_code == errors.EXIT_BAD_INPUT and res.stdout == "", (name, res.stdout)


def test_a_bug_under_json_is_a_json_object_too(tmp_path, monkeypatch):
    import mrclens.cli.validate as validate_module

    def boom(*args, **kwargs):
        raise ZeroDivisionError("injected")

    monkeypatch.setattr(validate_module, "validate_file", boom)
    monkeypatch.setenv("MRCLENS_CRASH_DIR", str(tmp_path / "crash"))
    data = tmp_path / "d.json"
    data.write_text('{"data": []}')
    res = CliRunner().invoke(main, ["validate", str(data), "--json"])
    assert res.exit_code == errors.EXIT_INTERNAL
    message = _error_object(res)["error"]
    [log] = list((tmp_path / "crash").glob("mrclens-crash-*.log"))
    assert "internal error" in message and "ZeroDivisionError: injected" in message and str(log) in message
