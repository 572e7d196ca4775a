"""The CLI conventions of issue 15: cheap `--help`, logging and progress, `-v`/`-q`, `--json`,
`--config FILE`, an example in every command's help."""

from __future__ import annotations

import fcntl
import json
import logging
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest
from click.testing import CliRunner

from mrclens import progress as progress_mod
from mrclens.cli import COMMANDS, SUMMARIES, main
from mrclens.errors import MRCLensError
from mrclens.formats import load_dataset
from mrclens.squad import Dataset, write_dataset

from perturbed_fixture import make_perturbed_dir, write_predictions  # tests/ is on sys.path under pytest

REPO = Path(__file__).resolve().parents[2]
HEAVY = ("torch", "sklearn", "scipy", "pandas")

_HELP_SCRIPT = r"""
import json, sys
from mrclens.cli import main
try:
    main(sys.argv[1:], prog_name="mrclens")
except SystemExit as exit:
    code = exit.code
print("\nMODULES " + json.dumps(sorted({m.split(".")[0] for m in sys.modules})), file=sys.stderr)
sys.exit(code)
"""


def _env(**extra):
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]), **extra)


@pytest.mark.parametrize("args", [["--help"], []] + [[name, "--help"] for name in sorted(COMMANDS)],
                         ids=lambda a: " ".join(a) or "(no arguments)")
def test_help_imports_no_heavy_module(args):
    res = subprocess.run([sys.executable, "-c", _HELP_SCRIPT, *args], env=_env(), capture_output=True, text=True,
                         timeout=120)
    assert res.returncode in (0, 2), res.stderr  # click exits 2 after printing the help when no command is given
    assert "Usage: mrclens" in res.stdout + res.stderr
    loaded = set(json.loads(res.stderr.rsplit("MODULES ", 1)[1]))
    assert "click" in loaded and "mrclens" in loaded  # the module list is real
    assert not loaded & set(HEAVY), f"`mrclens {' '.join(args)}` imported {sorted(loaded & set(HEAVY))}"


def test_listing_uses_the_registry_summaries():
    assert set(SUMMARIES) == set(COMMANDS)
    out = CliRunner().invoke(main, ["--help"]).output
    for name, summary in SUMMARIES.items():
        assert f"{name}  " in out and summary in out, name
    assert "_MRCLENS_COMPLETE=bash_source mrclens" in out


@pytest.mark.parametrize("words, cword, expected", [
    ("mrclens au", 1, ["plain,audit"]),
    ("mrclens audit --profile ", 3, ["plain,paper", "plain,paper-em", "plain,paper-fast", "plain,paper-budget", "plain,paper-parallel", "plain,quick"]),
])
def test_shell_completion_as_the_readme_says(words, cword, expected):
    env = _env(COMP_WORDS=words, COMP_CWORD=str(cword), _MRCLENS_COMPLETE="bash_complete")
    res = subprocess.run([sys.executable, "-c", "from mrclens.cli import main; main(prog_name='mrclens')"],
                         env=env, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and res.stdout.split() == expected, res
    script = subprocess.run([sys.executable, "-c", "from mrclens.cli import main; main(prog_name='mrclens')"],
                            env=_env(_MRCLENS_COMPLETE="bash_source"), capture_output=True, text=True, timeout=120)
    assert "complete -o nosort -F _mrclens_completion mrclens" in script.stdout


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_help_has_an_example_and_verbosity_options(name):
    res = CliRunner().invoke(main, [name, "--help"])
    assert res.exit_code == 0, res.output
    after = res.output.split("Example", 1)
    assert len(after) == 2, f"`mrclens {name} --help` has no example"
    assert any(line.strip().startswith(f"mrclens {name} ") for line in after[1].splitlines()), res.output
    assert "-v, --verbose" in res.output and "-q, --quiet" in res.output


def test_json_option_means_the_same_everywhere():
    """Every command with --json has the same flag: no value, JSON to standard output."""
    with_json = []
    for name in COMMANDS:
        command = main.get_command(None, name)
        option = next((p for p in command.params if "--json" in getattr(p, "opts", ())), None)
        if option is not None:
            with_json.append(name)
            assert option.is_flag and "standard output" in option.help, name
    assert {"validate", "stats", "check", "evaluate"} <= set(with_json)


# ---------------------------------------------------------------------------- progress and logging
@pytest.fixture
def scored(tmp_path):
    pert = make_perturbed_dir(tmp_path)
    return pert, write_predictions(tmp_path)


def _run_evaluate(pert, preds, *flags, terminal=False):
    """`mrclens evaluate PERT --predictions-dir PREDS` in a real process; stderr to a pipe or a terminal."""
    cmd = [sys.executable, "-c", "from mrclens.cli import main; main(prog_name='mrclens')", *flags,
           "evaluate", str(pert), "--predictions-dir", str(preds)]
    env = _env(MRCLENS_PROGRESS_INTERVAL="0")
    if not terminal:
        res = subprocess.run(cmd, env=env, capture_output=True, timeout=120)
        return res.returncode, res.stdout, res.stderr
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))  # a new pty is 0 columns wide
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=follower)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed: the process exited
            break
        if not chunk:
            break
        chunks.append(chunk)
    out = proc.stdout.read()
    proc.wait(timeout=120)
    os.close(leader)
    return proc.returncode, out, b"".join(chunks)


def test_redirected_stderr_gets_progress_lines_not_bars(scored):
    code, out, err = _run_evaluate(*scored)
    assert code == 0, err
    assert b"\r" not in err
    assert b"loading sets: done, 5 set in " in err and b"loading sets: 1/5 set (20%)" in err
    assert b"Evidence of each bias" in out and b"loading sets" not in out  # results on stdout, progress on stderr


def test_terminal_gets_a_bar(scored):
    code, _, err = _run_evaluate(*scored, terminal=True)
    assert code == 0, err
    assert b"\r" in err and b"loading sets" in err and b"loading sets: done" not in err


@pytest.mark.slow
@pytest.mark.parametrize("terminal", [False, True], ids=["redirected", "terminal"])
def test_quiet_prints_no_progress(scored, terminal):
    for flags in (["-q"], ["--quiet"]):
        code, out, err = _run_evaluate(*scored, *flags, terminal=terminal)
        assert code == 0 and b"Evidence of each bias" in out, err
        assert b"loading sets" not in err and b"\r" not in err, err


def test_quiet_on_the_command_too(scored, monkeypatch):
    monkeypatch.setenv("MRCLENS_PROGRESS_INTERVAL", "0")  # every progress line at INFO
    pert, preds = scored
    res = CliRunner().invoke(main, ["evaluate", str(pert), "--predictions-dir", str(preds), "-q"])
    assert res.exit_code == 0 and "loading sets" not in res.output
    res = CliRunner().invoke(main, ["evaluate", str(pert), "--predictions-dir", str(preds)])
    assert res.exit_code == 0 and "loading sets: done" in res.stderr and "loading sets" not in res.stdout
    res = CliRunner().invoke(main, ["-q", "evaluate", str(pert), "--predictions-dir", str(preds), "-v"])
    assert res.exit_code == 0 and "loading sets: done" in res.stderr  # the command's own flag wins
    res = CliRunner().invoke(main, ["evaluate", str(pert), "--predictions-dir", str(preds), "-q", "-v"])
    assert res.exit_code == 2 and "contradict" in res.output


def test_library_progress_and_messages_are_log_records(scored, caplog, tmp_path, train_file):
    """As a library: nothing printed by MRCLens itself; a handler on `mrclens` captures progress and step messages."""
    from mrclens.audit import AuditOptions, run_audit
    from mrclens.scoring.evaluate import evaluate_perturbed

    with caplog.at_level(logging.DEBUG, logger="mrclens"):
        evaluate_perturbed(*scored, progress=True)
    progress_lines = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "mrclens.progress"]
    # a loop shorter than the 30 s between progress lines: only its "done" line, at DEBUG
    assert [level for level, _ in progress_lines] == ["DEBUG"], progress_lines
    assert progress_lines[0][1].startswith("loading sets: done, 5 set in "), progress_lines

    caplog.clear()
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "something.txt").write_text("not an audit")
    with caplog.at_level(logging.INFO, logger="mrclens"), pytest.raises(MRCLensError, match="not an MRCLens audit"):
        run_audit(AuditOptions(train=str(train_file), out=str(tmp_path / "busy"), dev_fraction=0.5, progress=False))
    audit_lines = [r.getMessage() for r in caplog.records if r.name == "mrclens.audit"]
    assert any(m.startswith("[load] training:") for m in audit_lines), audit_lines


def test_silencing_the_logger_silences_progress(monkeypatch, caplog):
    monkeypatch.setattr(progress_mod, "_stderr_is_terminal", lambda: True)
    bar = progress_mod.progress(range(3), desc="x")
    assert type(bar).__name__ == "tqdm"
    bar.close()
    logger = logging.getLogger("mrclens")
    old = logger.level
    try:
        logger.setLevel(logging.WARNING)
        assert list(progress_mod.progress(range(3), desc="x")) == [0, 1, 2]
        assert type(progress_mod.progress(range(3), desc="x")).__name__ == "_Silent"
    finally:
        logger.setLevel(old)
    monkeypatch.setattr(progress_mod, "_stderr_is_terminal", lambda: False)
    monkeypatch.setenv(progress_mod.INTERVAL_ENV, "0")
    with caplog.at_level(logging.INFO, logger="mrclens"):
        bar = progress_mod.progress(total=4, desc="work", unit="q")
        bar.update(2)
        bar.set_postfix(loss="0.5")
        bar.close()
        bar.close()
    assert [r.getMessage() for r in caplog.records] == ["work: 2/4 q (50%), 0 s", "work: stopped at 2/4 q after 0.0 s, loss 0.5"]


# ---------------------------------------------------------------------------- --json
def test_validate_json(tmp_path, sample_path):
    res = CliRunner().invoke(main, ["validate", str(sample_path), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["valid"] is True and out["counts"]["questions"] == 8774 and out["errors"] == []
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"data": [{"title": "T", "paragraphs": [{"context": "Red fox.", "qas": [
        {"id": "bad-q", "question": "What?", "answers": [{"text": "fox", "answer_start": 2}]}]}]}]}))
    res = CliRunner().invoke(main, ["validate", str(bad), "--json"])
    assert res.exit_code == 2
    out = json.loads(res.stdout)
    assert out["valid"] is False and [(e["title"], e["qid"]) for e in out["errors"]] == [("T", "bad-q")]
    assert "answer_start 2" in out["errors"][0]["message"]


def test_stats_old_json_spelling_is_refused_with_a_hint(tmp_path, sample_path):
    target = tmp_path / "stats.json"
    res = CliRunner().invoke(main, ["stats", str(sample_path), "--json", str(target)])
    assert res.exit_code == 2 and "--out FILE" in res.output and not target.exists()


# ---------------------------------------------------------------------------- evaluate usage
def test_evaluate_file_with_predictions_dir_says_what_to_do(scored):
    pert, preds = scored
    res = CliRunner().invoke(main, ["evaluate", str(pert / "original.json"), "--predictions-dir", str(preds)])
    assert res.exit_code == 2
    assert "missing argument" not in res.output.lower()
    assert "perturbed directory" in res.output and "mrclens evaluate PERTURBED_DIR --predictions-dir" in res.output
    assert f"mrclens evaluate {pert / 'original.json'} PREDICTIONS" in res.output


# ---------------------------------------------------------------------------- --config FILE
@pytest.fixture
def recorded(monkeypatch):
    calls = []

    def fake_audit(options, echo=None):
        calls.append(options)
        raise MRCLensError("stand-in: no audit in this test")

    def fake_train(dataset, config, **kw):
        calls.append({"config": config, **kw})
        raise MRCLensError("stand-in: no training in this test")

    import mrclens.baseline_model
    from mrclens.audit import AUDITS

    monkeypatch.setattr("mrclens.cli.audit.AUDITS", AUDITS.with_entry("span", fake_audit))  # the span task's audit
    monkeypatch.setattr(mrclens.baseline_model, "train", fake_train)
    import torch

    threads = torch.get_num_threads()  # `mrclens train` sets torch's thread count
    yield calls
    torch.set_num_threads(threads)


@pytest.fixture
def train_file(sample_path, tmp_path):
    ds = load_dataset(sample_path)
    return write_dataset(Dataset(ds.articles[:2], ds.version), tmp_path / "data" / "train.json")


def test_audit_config_file_and_command_line_override(recorded, train_file, tmp_path):
    cfg = tmp_path / "data" / "audit.toml"
    cfg.write_text('train = "train.json"\nseed = 13\ndev-fraction = 0.3\nheldout_fraction = 0.1\nresamples = 200\n'
                   'ablations = ["e1", "e3"]\nprofile = "quick"\ncache-dir = "cache"\nforce = true\n')
    res = CliRunner().invoke(main, ["audit", "--config", str(cfg), "--seed", "5", "--out", str(tmp_path / "o"), "-q"])
    assert res.exit_code == 2 and "stand-in" in res.output, res.output
    [opts] = recorded
    assert opts.train == str(train_file)  # relative paths in the file: relative to the file
    assert (opts.seed, opts.dev_fraction, opts.heldout_fraction, opts.n_resamples) == (5, 0.3, 0.1, 200)
    assert (opts.ablations, opts.profile, opts.force, opts.progress) == (["e1", "e3"], "quick", True, False)
    assert opts.cache_dir == str(cfg.parent / "cache")
    src = opts.option_sources
    assert src["seed"] == "command line" and src["out"] == "command line"
    assert src["dev_fraction"] == src["n_resamples"] == src["train"] == f"config file {cfg}"
    assert src["device"] == src["max_minutes"] == src["model"] == "default"


def test_results_record_the_effective_options():
    from mrclens.audit import AuditOptions, effective_options

    opts = AuditOptions(train="t.json", profile="quick", option_sources={"seed": "default"})
    recorded = effective_options(opts, ["e1", "e2"], {"max_minutes": 6.0, "max_steps": 1700}, None)
    assert (recorded["ablations"], recorded["max_minutes"], recorded["profile"]) == (["e1", "e2"], 6.0, "quick")
    assert recorded["max_steps"] == 1700
    assert "progress" not in recorded and "option_sources" not in recorded
    assert effective_options(opts, ["e1"], {"max_minutes": 40.0}, Path("saved-model"))["max_minutes"] is None


def test_audit_options_without_config(recorded, train_file, tmp_path):
    res = CliRunner().invoke(main, ["audit", str(train_file), "--dev-fraction", "0.25", "--heldout-fraction", "0.2",
                                    "--resamples", "50", "--cache-dir", str(tmp_path / "c"), "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and "stand-in" in res.output, res.output
    [opts] = recorded
    assert (opts.dev_fraction, opts.heldout_fraction, opts.n_resamples, opts.cache_dir, opts.progress) == (
        0.25, 0.2, 50, str(tmp_path / "c"), True)
    assert set(opts.option_sources.values()) == {"command line", "default"}


def test_train_config_file(recorded, train_file, tmp_path):
    cfg = tmp_path / "train.toml"
    cfg.write_text(f'out = "{tmp_path / "model"}"\nprofile = "quick"\nepochs = 2\nmax_minutes = 1.5\nseed = 4\n')
    res = CliRunner().invoke(main, ["train", str(train_file), "--config", str(cfg), "--epochs", "3"])
    assert res.exit_code == 2 and "stand-in" in res.output, res.output
    [call] = recorded
    assert (call["config"].profile_name, call["config"].max_minutes, call["epochs"], call["seed"]) == ("quick", 1.5, 3, 4)


@pytest.mark.parametrize("text, expected", [
    ("sed = 3\n", "unknown key 'sed'"),
    ('seed = "x"\n', "key 'seed': expected an integer, got text 'x'"),
    ("seed = 1.5\n", "key 'seed': expected an integer, got number 1.5"),
    ("dev-fraction = 2.0\n", "key 'dev-fraction'"),
    ('profile = "fast"\n', "key 'profile'"),
    ("force = 1\n", "key 'force': expected true or false"),
    ('device = "cpu\n', "not valid TOML"),
    ("[audit]\nseed = 1\n", "unknown key 'audit'"),
    (b"seed = 1 # caf\xe9\n", "not UTF-8"),
    ('dev = "no-such-file.json"\n', "key 'dev'"),
])
def test_bad_config_file_exit_2_names_file_and_key(recorded, tmp_path, text, expected):
    cfg = tmp_path / "bad.toml"
    cfg.write_bytes(text if isinstance(text, bytes) else text.encode())
    res = CliRunner().invoke(main, ["audit", "--config", str(cfg)])
    assert res.exit_code == 2, res.output
    assert str(cfg) in res.output and expected in res.output, res.output
    assert "Traceback" not in res.output and not recorded
