"""Issue 15, defects 1, 2, 5–9, 11: every bad input or fault a user can cause stops with exit 2, one
line naming the file and what is wrong, no traceback and no partial output; recoverable cases
warn and give a correct result."""

from __future__ import annotations

import gzip
import json
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mrclens.cli import main
from mrclens.errors import EXIT_BAD_INPUT
from mrclens.io_utils import TMP_PREFIX, atomic_write_bytes, remove_stale_temps
from mrclens.formats import load_dataset
from mrclens.squad import Dataset, write_dataset

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from perturbed_fixture import make_perturbed_dir, write_predictions  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def _error_line(res) -> str:
    """The output must be exactly one line starting with 'error: ' (and no traceback)."""
    assert "Traceback" not in res.output, res.output
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.output
    return lines[0]


@pytest.fixture(scope="module")
def small_data(tmp_path_factory, sample_path) -> Path:
    ds = load_dataset(sample_path)
    return write_dataset(Dataset(ds.articles[:2], ds.version), tmp_path_factory.mktemp("data") / "small.json")


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path / "cache"))


def _snapshot(root: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


# --------------------------------------------------------------------------- defect 1: unwritable output


@pytest.mark.parametrize("command", ["perturb", "stats", "evaluate", "report"])
def test_output_below_a_file_exits_2_naming_it(command, small_data, tmp_path, cache):
    f = tmp_path / "f"
    f.write_text("x\n")
    if command == "perturb":
        args = ["perturb", str(small_data), "--out", str(f / "sub"), "--quiet"]
    elif command == "stats":
        args = ["stats", str(small_data), "--out", str(f / "sub" / "s.json"), "--quiet"]
    else:
        perturbed = make_perturbed_dir(tmp_path / "p")
        preds = write_predictions(tmp_path / "p")
        if command == "evaluate":
            args = ["evaluate", str(perturbed), "--predictions-dir", str(preds), "--out", str(f / "sub")]
        else:
            CliRunner().invoke(main, ["evaluate", str(perturbed), "--predictions-dir", str(preds), "--out", str(tmp_path / "r")])
            args = ["report", str(tmp_path / "r"), "--out", str(f / "sub" / "report.html")]
    before = _snapshot(tmp_path)
    res = CliRunner().invoke(main, args)
    assert res.exit_code == EXIT_BAD_INPUT, res.output
    line = _error_line(res)
    assert str(f / "sub") in line and "a parent of it is a file" in line
    assert f.read_text() == "x\n"
    after = {k: v for k, v in _snapshot(tmp_path).items() if not k.startswith("cache")}
    assert after == {k: v for k, v in before.items() if not k.startswith("cache")}  # nothing written anywhere


def test_a_set_name_taken_by_a_directory_exits_2_and_moves_nothing(small_data, tmp_path, cache):
    out = tmp_path / "out"
    (out / "e4.json").mkdir(parents=True)
    res = CliRunner().invoke(main, ["perturb", str(small_data), "--out", str(out), "--quiet", "--ablations", "e4"])
    assert res.exit_code == EXIT_BAD_INPUT and "is not empty" in _error_line(res)  # defect 8 first
    res = CliRunner().invoke(main, ["perturb", str(small_data), "--out", str(out), "--quiet", "--ablations", "e4", "--force"])
    assert res.exit_code == EXIT_BAD_INPUT, res.output
    line = _error_line(res)
    assert f"cannot write {out / 'e4.json'}: it is a directory" in line
    assert sorted(p.name for p in out.iterdir()) == ["e4.json"]  # no set, no manifest, no temp left


def _unprivileged() -> list[str]:
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root and setpriv is not available: cannot test a read-only directory")
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


@pytest.fixture()
def world_readable_tmp():
    """A directory user nobody can enter (pytest's own tmp root is private to its user)."""
    import tempfile

    path = Path(tempfile.mkdtemp(prefix="mrclens-ro-test-", dir="/tmp"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_read_only_out_exits_2_as_a_normal_user(small_data, world_readable_tmp):
    """As root every directory is writable, so the command runs as user nobody (setpriv)."""
    prefix = _unprivileged()
    tmp_path = world_readable_tmp
    data = tmp_path / "data.json"
    shutil.copy(small_data, data)
    data.chmod(0o644)
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir(mode=0o777)
    cache_dir.chmod(0o777)
    out = tmp_path / "ro"
    out.mkdir()
    out.chmod(0o555)  # read-only for everyone (and owned by root when run as root)
    code = "from mrclens.cli import main; main()"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(REPO), "HOME": str(tmp_path),
           "MRCLENS_CACHE_DIR": str(cache_dir), "MRCLENS_CRASH_DIR": str(cache_dir)}
    if prefix:
        probe = subprocess.run(prefix + [sys.executable, "-c", "import mrclens.cli"], capture_output=True, text=True,
                               env=env, cwd=tmp_path)
        if probe.returncode != 0:
            pytest.skip("user nobody cannot run this Python/checkout (e.g. it lives under /root): "
                        + (probe.stderr.strip().splitlines() or ["?"])[-1])
    res = subprocess.run(prefix + [sys.executable, "-c", code, "perturb", str(data), "--out", str(out), "--quiet"],
                         capture_output=True, text=True, env=env, cwd=tmp_path)
    assert res.returncode == EXIT_BAD_INPUT, res.stderr
    assert "Traceback" not in res.stderr
    [line] = [x for x in res.stderr.splitlines() if x.strip()]
    assert line.startswith(f"error: cannot write {out}") and "Permission denied" in line
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("where", ["staging dir", "single file"])
def test_permission_denied_by_the_os_exits_2(where, small_data, tmp_path, cache, monkeypatch):
    """The same mapping where no unprivileged user is available: the OS refuses (EACCES) the first
    write in --out (perturb's staging directory; stats' single --json file)."""
    import tempfile

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    out = tmp_path / "ro"
    out.mkdir()
    if where == "staging dir":
        monkeypatch.setattr(tempfile, "mkdtemp", denied)
        args = ["perturb", str(small_data), "--out", str(out), "--quiet", "--ablations", "e4"]
        target = out
    else:
        monkeypatch.setattr(tempfile, "mkstemp", denied)
        target = out / "s.json"
        args = ["stats", str(small_data), "--out", str(target), "--quiet"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == EXIT_BAD_INPUT, res.output
    assert "Traceback" not in res.output
    [line] = [x for x in res.output.splitlines() if x.startswith("error: ")]
    assert line == f"error: cannot write {target}: Permission denied"
    assert list(out.iterdir()) == []


# --------------------------------------------------------------------------- defect 2: truncated .gz


@pytest.mark.parametrize("command", ["validate", "perturb", "stats", "check", "audit"])
def test_truncated_gz_names_the_file(command, squad_dev_path, tmp_path, cache):
    t = tmp_path / "t.json.gz"
    t.write_bytes(squad_dev_path.read_bytes()[:3000])
    args = [command, str(t)] + (["--out", str(tmp_path / "out")] if command in ("perturb", "audit") else [])
    res = CliRunner().invoke(main, args)
    assert res.exit_code == EXIT_BAD_INPUT, res.output
    assert "Aborted" not in res.output and "Traceback" not in res.output
    errors = [line for line in res.output.splitlines() if str(t) in line and "gzip" in line]
    assert len(errors) == 1 and "cannot be decompressed: the gzip data is truncated" in errors[0], res.output
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------------------- defect 5: lone surrogate


def _surrogate_file(tmp_path: Path) -> Path:
    f = tmp_path / "s.json"
    f.write_text('{"data": [{"title": "T", "paragraphs": [{"context": "Bad \\ud800 text. More text here.", "qas": ['
                 '{"id": "q1", "question": "Which?", "answers": [{"text": "More", "answer_start": 12}]}]}]}]}')
    return f


@pytest.mark.parametrize("command", ["validate", "perturb", "stats"])
def test_lone_surrogate_is_refused_by_every_command(command, tmp_path, cache):
    f = _surrogate_file(tmp_path)
    args = [command, str(f)] + (["--out", str(tmp_path / "out")] if command == "perturb" else [])
    res = CliRunner().invoke(main, args)
    assert res.exit_code == EXIT_BAD_INPUT, res.output
    assert "Traceback" not in res.output and "UnicodeEncodeError" not in res.output
    [line] = [x for x in res.output.splitlines() if "lone surrogate" in x]
    assert str(f) in line and "article 'T'" in line and "paragraph #0" in line and "\\ud800" in line
    assert not (tmp_path / "out").exists()


def test_lone_surrogate_with_skip_leaves_the_paragraph_out(tmp_path, cache):
    f = _surrogate_file(tmp_path)
    res = CliRunner().invoke(main, ["validate", str(f), "--on-invalid", "skip"])
    assert res.exit_code == EXIT_BAD_INPUT  # nothing left
    assert "question q1: skipped: paragraph #0: the context contains a lone surrogate" in res.output


# --------------------------------------------------------------------------- defect 6: rules file


def test_rules_file_not_utf8_exits_2_before_any_work(small_data, tmp_path, cache):
    rules = tmp_path / "rules.toml"
    rules.write_bytes(b'[[rule]]\nid = "x"\nlabel = "caf\xe9"\n')
    res = CliRunner().invoke(main, ["check", str(small_data), "--rules", str(rules), "--quiet"])
    assert res.exit_code == EXIT_BAD_INPUT, res.output
    line = _error_line(res)
    assert str(rules) in line and "not UTF-8" in line
    assert not (tmp_path / "cache").exists()  # refused before any parsing


# --------------------------------------------------------------------------- defect 7: stale temp files


def test_temp_files_are_recognisable_and_a_rerun_removes_stale_ones(small_data, tmp_path, cache):
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["perturb", str(small_data), "--out", str(out), "--quiet", "--ablations", "e4"])
    assert res.exit_code == 0, res.output
    before = _snapshot(out)
    # what `kill -9` leaves: a temp file and a staging dir of a process that no longer runs
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid = int(dead.stdout)
    import socket

    host = socket.gethostname().replace(".", "_")
    stale_file = out / f"{TMP_PREFIX}{host}.{pid}.e4.json.abc123.tmp"
    stale_file.write_text("half a file")
    stale_dir = out / f"{TMP_PREFIX}{host}.{pid}.stage.xyz"
    (stale_dir).mkdir()
    (stale_dir / "original.json").write_text("{}")
    live = out / f"{TMP_PREFIX}{host}.{os.getppid()}.e4.json.live.tmp"  # a running writer's: kept
    live.write_text("being written")
    foreign = out / ".e4.json.XXXX.tmp"  # not ours: never touched
    foreign.write_text("someone else's")
    res = CliRunner().invoke(main, ["perturb", str(small_data), "--out", str(out), "--quiet", "--ablations", "e4"])
    assert res.exit_code == 0, res.output
    assert not stale_file.exists() and not stale_dir.exists()
    assert live.exists() and foreign.exists()
    live.unlink()
    foreign.unlink()
    assert _snapshot(out) == before  # same bytes as the first run, nothing else


def test_atomic_writer_temp_name_and_cleanup(tmp_path, monkeypatch):
    seen = []
    real_replace = os.replace

    def spy(src, dst):
        seen.append(Path(src).name)
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    atomic_write_bytes(tmp_path / "a.json", b"{}")
    assert seen[0].startswith(TMP_PREFIX) and ".a.json." in seen[0] and seen[0].endswith(".tmp")
    assert remove_stale_temps(tmp_path) == []  # only a.json is there


# --------------------------------------------------------------------------- defect 8: --out holding something else


@pytest.mark.parametrize("command", ["perturb", "evaluate"])
def test_non_empty_out_holding_something_else_is_refused(command, small_data, tmp_path, cache):
    out = tmp_path / "out"
    out.mkdir()
    (out / "original.json").write_text("my own file")
    (out / "results.json").write_text("my own results")
    if command == "perturb":
        args = ["perturb", str(small_data), "--out", str(out), "--quiet", "--ablations", "e4"]
    else:
        perturbed = make_perturbed_dir(tmp_path / "p")
        args = ["evaluate", str(perturbed), "--predictions-dir", str(write_predictions(tmp_path / "p")), "--out", str(out)]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == EXIT_BAD_INPUT, res.output
    line = _error_line(res)
    assert str(out) in line and "is not empty" in line and "--force" in line and "original.json" in line
    assert (out / "original.json").read_text() == "my own file" and (out / "results.json").read_text() == "my own results"
    # a previous output of the same command may be replaced; --force replaces anything
    res = CliRunner().invoke(main, args + ["--force"])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output


def test_evaluate_writes_next_to_its_own_perturbed_and_predictions_dirs(tmp_path):
    """The layout of examples/audit_external_model.sh: OUT/perturbed, OUT/predictions, then --out OUT."""
    out = tmp_path / "audit"
    perturbed = make_perturbed_dir(out)
    preds = write_predictions(out)
    res = CliRunner().invoke(main, ["evaluate", str(perturbed), "--predictions-dir", str(preds), "--out", str(out)])
    assert res.exit_code == 0, res.output
    (out / "notes.txt").write_text("mine")
    (out / "results.json").unlink()
    res = CliRunner().invoke(main, ["evaluate", str(perturbed), "--predictions-dir", str(preds), "--out", str(out)])
    assert res.exit_code == EXIT_BAD_INPUT and "notes.txt" in _error_line(res)


def test_evaluate_refuses_an_audit_directory(tmp_path):
    perturbed = make_perturbed_dir(tmp_path / "p")
    preds = write_predictions(tmp_path / "p")
    out = tmp_path / "audit"
    res = CliRunner().invoke(main, ["evaluate", str(perturbed), "--predictions-dir", str(preds), "--out", str(out)])
    assert res.exit_code == 0
    obj = json.loads((out / "results.json").read_text())
    obj["audit"] = {"options": {}, "split": None, "model_dir": "m", "training_log": None}
    (out / "results.json").write_text(json.dumps(obj))
    res = CliRunner().invoke(main, ["evaluate", str(perturbed), "--predictions-dir", str(preds), "--out", str(out)])
    assert res.exit_code == EXIT_BAD_INPUT and "is not empty" in _error_line(res)


# --------------------------------------------------------------------------- defect 9 and 11: validate counts, empty values


def test_validate_counts_what_the_file_holds_and_no_follow_on_errors(squad_dev_path, tmp_path):
    raw = json.loads(gzip.decompress(squad_dev_path.read_bytes()))
    raw["data"] = raw["data"][:1]
    par = raw["data"][0]["paragraphs"]
    n_q = sum(len(p["qas"]) for p in par)
    n_a = sum(len(q["answers"]) for p in par for q in p["qas"])
    for a in par[0]["qas"][0]["answers"]:  # every answer of one question is bad
        a["answer_start"] = len(par[0]["context"]) + 5
    del par[1]["context"]                   # one missing context
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(raw))
    res = CliRunner().invoke(main, ["validate", str(f)])
    assert res.exit_code == EXIT_BAD_INPUT
    assert f"{n_q:,} questions, {n_a:,} answers, 0 unanswerable" in res.output
    errors = [x for x in res.output.splitlines() if x.startswith(str(f)) and "answers" not in x.split(": ")[-1][:8]]
    q0 = par[0]["qas"][0]["id"]
    assert sum(1 for x in res.output.splitlines() if f"question {q0}:" in x) == len(par[0]["qas"][0]["answers"])
    assert sum(1 for x in res.output.splitlines() if "paragraph #1" in x) == 1  # no follow-on error per answer
    n_bad = 1 + len(par[1]["qas"])
    assert f"({n_bad:,} of {n_q:,} questions invalid)" in res.output, errors


@pytest.mark.parametrize("item, message", [
    ({"id": "", "question": "Who?", "answers": [{"text": "Bob", "answer_start": 0}]}, "'id' is an empty string"),
    ({"id": "q", "question": "Who?", "answers": [{"text": "", "answer_start": 0}]}, "answer #0: 'text' is empty"),
])
def test_validate_rejects_empty_id_and_empty_answer_text(item, message, tmp_path):
    f = tmp_path / "e.json"
    f.write_text(json.dumps({"data": [{"title": "T", "paragraphs": [{"context": "Bob was here.", "qas": [item]}]}]}))
    res = CliRunner().invoke(main, ["validate", str(f)])
    assert res.exit_code == EXIT_BAD_INPUT
    [line] = [x for x in res.output.splitlines() if message in x]
    assert line.startswith(f"{f}: article 'T': question ")


def test_malformed_vectors_line_names_file_and_line(tmp_path):
    from mrclens.baseline_model.vectors import load_vectors
    from mrclens.errors import VectorsError

    v = tmp_path / "v.txt"
    v.write_text("the 0.1 0.2 0.3\nbroken 0.5\ncat 0.4 0.5 0.6\n")
    with pytest.raises(VectorsError, match=r"v\.txt: line 2: 1 number\(s\), expected 3"):
        load_vectors(str(v), {"the", "cat"})
    v.write_text("broken 0.5\nthe 0.1 0.2 0.3\ncat 0.4 0.5 0.6\n")  # the first line would set the width: caught there
    with pytest.raises(VectorsError, match=r"v\.txt: line 1: 1 number\(s\) after the word"):
        load_vectors(str(v), {"the", "cat"})
    v.write_text("broken 0.5 0.6\nthe 0.1 0.2 0.3\n")  # a 2-d first line, then 3-d vectors
    with pytest.raises(VectorsError, match=r"v\.txt: line 2: 3 numbers, but line 1 has 2"):
        load_vectors(str(v), {"the", "cat"})
    v.write_text("the 0.1 0.2 0.3\nnew york 0.4 0.5 0.6\n")  # GloVe 840B: a word with a space is fine
    words, matrix = load_vectors(str(v), {"the", "new york"})
    assert words == ["new york", "the"] and matrix.shape == (2, 3)


def test_evaluate_file_with_predictions_dir_says_what_to_do(tmp_path, sample_path):
    res = CliRunner().invoke(main, ["evaluate", str(sample_path), "--predictions-dir", str(tmp_path)])
    assert res.exit_code == EXIT_BAD_INPUT
    assert "missing argument PREDICTIONS" not in res.output
    assert "--predictions-dir needs DATA to be a perturbed directory" in res.output


def test_non_english_data_warns_that_the_truncated_set_is_empty(tmp_path, caplog, cache):
    """Chinese text without spaces: spaCy's English sentence splitter makes each paragraph one sentence."""
    ctx = "北京是中华人民共和国的首都，位于华北平原的北部。它有三千多年的历史，是世界著名的古都。"
    paragraphs = [{"context": ctx, "qas": [{"id": f"q{i}", "question": "北京是哪个国家的首都？",
                                            "answers": [{"text": "中华人民共和国", "answer_start": 3}]}]} for i in range(4)]
    f = tmp_path / "zh.json"
    f.write_text(json.dumps({"version": "1.1", "data": [{"title": "北京", "paragraphs": paragraphs}]}, ensure_ascii=False))
    with caplog.at_level(logging.WARNING, logger="mrclens"):
        res = CliRunner().invoke(main, ["perturb", str(f), "--out", str(tmp_path / "o"), "--quiet"])
    assert res.exit_code == 0, res.output
    [message] = [r.getMessage() for r in caplog.records if "truncated set is empty" in r.getMessage()]
    assert str(f) in message and "4 of 4 paragraphs" in message and "English" in message
