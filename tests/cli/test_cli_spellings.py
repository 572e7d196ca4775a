"""One spelling per idea: ``--jobs`` for worker processes, ``--from``/``--to`` in ``convert``,
``--out`` said to be a folder or a file, old spellings kept as hidden aliases, "did you mean"."""

from __future__ import annotations

import json
import sys

import click
import pytest
from click.testing import CliRunner

from mrclens.cli import COMMANDS, main
from mrclens.cli.options import config_keys, read_config
from mrclens.squad import Answer, Article, Dataset, Paragraph, Question, write_dataset


def _command(name: str) -> click.Command:
    return main.get_command(click.Context(main), name)


def _help(name: str) -> str:
    return CliRunner().invoke(main, [name, "--help"], terminal_width=200).output


@pytest.mark.parametrize("typed, suggested", [("stat", "'stats'"), ("comapre", "'compare'"), ("perturbe", "'perturb'")])
def test_a_mistyped_command_gets_a_suggestion(typed, suggested):
    r = CliRunner().invoke(main, [typed])
    assert r.exit_code == 2 and f"No such command '{typed}'. Did you mean {suggested}" in r.output


def test_an_unrelated_word_gets_no_suggestion():
    r = CliRunner().invoke(main, ["zzzz"])
    assert r.exit_code == 2 and "No such command 'zzzz'" in r.output and "Did you mean" not in r.output


def test_every_out_option_says_folder_or_file():
    kinds = {}
    for name in COMMANDS:
        for p in _command(name).params:
            if "--out" in getattr(p, "opts", ()):
                kinds[name] = p.metavar
                assert p.help.startswith(("Output folder", "Output file", "Folder")), (name, p.help)
    assert kinds == {"audit": "FOLDER", "card": "FOLDER|FILE.md", "compare": "FOLDER", "evaluate": "FOLDER",
                     "filter": "FILE|FOLDER", "perturb": "FOLDER", "predict": "FILE", "report": "FILE", "selftest": "FOLDER", "stats": "FILE",
                     "train": "FOLDER"}


@pytest.mark.parametrize("name, old", [("perturb", "--n-process"), ("train", "--nproc"), ("check", None),
                                       ("stats", None), ("compare", None)])
def test_worker_processes_are_jobs_everywhere_old_spellings_hidden(name, old):
    text = _help(name)
    assert "--jobs" in text
    if old:
        assert f"{old} " not in text and f"{old}," not in text


def test_old_spellings_still_work(tmp_path, monkeypatch):
    seen = {}

    def fake_perturb(data, out_dir, **options):
        seen.update(options)
        return []

    from mrclens.cli.perturb import PERTURB_FILE

    monkeypatch.setattr("mrclens.cli.perturb.PERTURB_FILE", PERTURB_FILE.with_entry("span", fake_perturb))
    data = tmp_path / "d.json"
    write_dataset(Dataset([Article("T", [Paragraph("Paris is in France.", [Question("q", "Where?", [Answer("France", 12)])])])]), data)
    for args in (["--n-process", "3", "--format", "jsonl"], ["--jobs", "3", "--out-format", "jsonl"]):
        seen.clear()
        r = CliRunner().invoke(main, ["perturb", str(data), "--out", str(tmp_path / "o"), *args])
        assert r.exit_code == 0, r.output
        assert seen["n_process"] == 3 and seen["jsonl"] is True
    assert "--out-format" in _help("perturb") and "--format" not in _help("perturb")


@pytest.mark.parametrize("spelling", ["--nproc", "--jobs"])
def test_train_processes_either_spelling_start_the_same_torchrun(spelling, tmp_path, monkeypatch):
    seen = {}

    class Done:
        returncode = 0

    monkeypatch.setattr("subprocess.run", lambda cmd, **kw: seen.setdefault("cmd", cmd) and Done())
    for var in ("WORLD_SIZE", "RANK"):
        monkeypatch.delenv(var, raising=False)
    data = tmp_path / "t.json"
    write_dataset(Dataset([Article("T", [Paragraph("Paris is in France.", [Question("q", "Where?", [Answer("France", 12)])])])]), data)
    r = CliRunner().invoke(main, ["train", str(data), "--out", str(tmp_path / "m"), spelling, "2", "--threads", "1"])
    assert r.exit_code == 0, r.output
    assert seen["cmd"][:5] == [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=2"]
    assert "--threads" in seen["cmd"]  # torch threads per process: a different idea, passed on


def test_config_files_use_the_new_name_and_still_read_the_old(tmp_path):
    train = _command("train")
    assert "jobs" in config_keys(train) and "nproc" not in config_keys(train)
    for key in ("jobs", "nproc"):
        f = tmp_path / f"{key}.toml"
        f.write_text(f"{key} = 2\n")
        assert read_config(f, train) == {"jobs": 2}


def test_convert_from_and_its_old_spelling(tmp_path):
    src = tmp_path / "in.json"
    write_dataset(Dataset([Article("T", [Paragraph("Paris is in France.", [Question("q", "Where?", [Answer("France", 12)])])])]), src)
    for flag in ("--from", "--format"):
        out = tmp_path / f"out{flag}.jsonl"
        r = CliRunner().invoke(main, ["convert", str(src), str(out), flag, "squad", "--to", "jsonl"])
        assert r.exit_code == 0, r.output
        assert json.loads(out.read_text().splitlines()[0])["answers"] == {"text": ["France"], "answer_start": [12]}
    r = CliRunner().invoke(main, ["convert", str(src), str(tmp_path / "x.jsonl"), "--from", "mrqa", "--to", "jsonl"])
    assert r.exit_code == 2
    text = _help("convert")
    assert "--from" in text and "--format" not in text


def test_check_passes_jobs_to_the_statistics(tmp_path, monkeypatch):
    seen = {}

    def fake_stats(data, dev, **options):
        seen.update(options)
        raise SystemExit(0)

    from mrclens.checks import FILE_STATS

    monkeypatch.setattr("mrclens.checks.rules.FILE_STATS", FILE_STATS.with_entry("span", fake_stats))
    src = tmp_path / "in.json"
    write_dataset(Dataset([Article("T", [Paragraph("Paris is in France.", [Question("q", "Where?", [Answer("France", 12)])])])]), src)
    CliRunner().invoke(main, ["check", str(src), "--jobs", "2"])
    assert seen["n_process"] == 2
