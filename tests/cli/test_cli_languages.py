"""The pre-flight language check of the commands (issue 32), on written fixtures and on XQuAD.

Data that is not English stops ``audit``, ``perturb``, ``stats`` and ``check`` with exit code 2 and
one line naming the language and its share, before any work (no output folder); ``--language-ok``
lets ``stats`` and ``check`` run only what reads no words, and for Spanish, Russian and Arabic the
answer sentence's rank by position (spaCy's sentencizer), and then no rule fails.
"""

from __future__ import annotations

import re

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mrclens.cli import main
from mrclens.errors import EXIT_BAD_INPUT, EXIT_OK

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from language_fixture import write_squad  # noqa: E402

LANGUAGE = {"es": "Spanish", "ru": "Russian", "ar": "Arabic", "th": "Thai"}
FREE_RULES = {"duplicates", "leakage-contexts", "leakage-questions"}
SENTENCIZER_RULES = {"answer-position"}  # es, ru, ar: the rank by position, read with spaCy's sentencizer


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _run(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


def _assert_refused(res, path, language: str, command: str) -> None:
    assert res.exit_code == EXIT_BAD_INPUT, res.output
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert lines == [lines[0]] and lines[0].startswith(f"error: {path}: ")
    assert f"% of the contexts' text is in {language}" in lines[0] and f"`mrclens {command}`" in lines[0]


@pytest.mark.parametrize("command", ["check", "stats", "audit", "perturb"])
def test_stops_before_any_work(command, tmp_path, cache):
    path = write_squad(tmp_path, "es")
    out = tmp_path / "out"
    res = _run(command, path, *(["--out", out] if command in ("audit", "perturb") else []))
    _assert_refused(res, path, "Spanish", command)
    assert not out.exists()
    if command in ("check", "stats"):  # the hint names what --language-ok would run, the sentencizer's rank included
        assert "--language-ok to run only what needs no English (counts" in res.output
        assert "rank by position (sentences from spaCy's rule-based sentencizer for Spanish)" in res.output


def test_audit_checks_the_dev_file_too(tmp_path, sample_path, cache):
    dev = write_squad(tmp_path, "ru")
    res = _run("audit", sample_path, "--dev", dev, "--out", tmp_path / "out")
    _assert_refused(res, dev, "Russian", "audit")
    assert not (tmp_path / "out").exists()


def test_language_ok_on_audit_is_no_option(tmp_path, cache):
    res = _run("audit", write_squad(tmp_path, "es"), "--language-ok")
    assert res.exit_code == EXIT_BAD_INPUT and "No such option" in res.output


def test_check_language_ok_runs_only_what_reads_no_words(tmp_path, cache):
    path, dev = write_squad(tmp_path, "ru"), write_squad(tmp_path, "es")
    res = _run("check", path, "--dev", dev, "--language-ok", "--json")
    assert res.exit_code == EXIT_OK, res.output
    report = json.loads(res.stdout)
    evaluated = {r["id"] for r in report["rules"] if r["status"] != "skip"}
    assert evaluated == FREE_RULES | SENTENCIZER_RULES
    assert not any(r["status"] == "fail" and r["id"] not in FREE_RULES for r in report["rules"])
    assert all("Russian" in r["reason"] for r in report["rules"] if r["id"] == "similarity-shortcut")
    assert "Russian" in res.stderr and "Spanish" in res.stderr and "--language-ok" in res.stderr
    notes = {line.split(": ")[0]: line for line in res.stderr.splitlines() if "--language-ok" in line}
    assert "rank by position (sentences from spaCy's rule-based sentencizer for Russian)" in notes[str(path)]
    assert "rank by position" not in notes[str(dev)]  # the figures are the data's; the dev file is read for leakage
    # the rules that read no words still find what they find: the file as its own dev leaks
    leaked = json.loads(_run("check", path, "--dev", path, "--language-ok", "--json").stdout)
    assert {r["id"] for r in leaked["rules"] if r["status"] == "fail"} == {"leakage-contexts", "leakage-questions"}


def test_stats_language_ok_json(tmp_path, cache):
    path = write_squad(tmp_path, "es")
    res = _run("stats", path, "--language-ok", "--json")
    assert res.exit_code == EXIT_OK, res.output
    figures = json.loads(res.stdout)
    block = figures["language"][0]
    assert block["language"] == "Spanish" and not block["readable"]
    assert (block["path"], block["spacy_language"]) == ("sentencizer", "es") and "sentencizer" in block["path_reads"]
    assert figures["counts"]["questions"] == 6 and "similarity" not in figures and "not_computed" in figures
    assert set(figures["chance_corrected"]) == {"position_rank", "random_sentence_share_pct", "by_sentence_count"}


def test_english_is_unaffected(tmp_path, cache):
    path = write_squad(tmp_path, "en")
    res = _run("stats", path, "--json")
    assert res.exit_code == EXIT_OK, res.output
    figures = json.loads(res.stdout)
    assert "language" not in figures and "not_computed" not in figures
    assert figures["similarity"]["n"] == 6
    # --language-ok changes nothing on English data
    again = _run("stats", path, "--json", "--language-ok")
    assert json.loads(again.stdout).keys() == figures.keys()


def test_compare_prints_the_language_of_each_input(tmp_path, cache):
    en, es = write_squad(tmp_path, "en"), write_squad(tmp_path, "es")
    res = _run("compare", en, es, "--resamples", "20")
    assert res.exit_code == EXIT_OK, res.output
    assert f"{en}: English (100 % of the contexts' text in 3 sampled paragraphs" in res.stderr
    assert f"{es}: Spanish (100 % of the contexts' text in 3 sampled paragraphs" in res.stderr and "not valid" in res.stderr


@pytest.mark.slow
@pytest.mark.parametrize("command", ["check", "stats", "audit"])
def test_xquad_stops(command, xquad_path, tmp_path, cache):
    language = LANGUAGE[xquad_path.name.split(".")[1]]
    res = _run(command, xquad_path, *(["--out", tmp_path / "out"] if command == "audit" else []))
    _assert_refused(res, xquad_path, language, command)
    # XQuAD es: 99 % (a window quoting English titles reads as English: BENCHMARKS, "Languages"); the others 100 %
    assert re.search(r"\b(99|100) % of the contexts' text", res.output) and not (tmp_path / "out").exists()
    assert ("rule-based sentencizer" in res.output) == (command != "audit" and language != "Thai")


@pytest.mark.slow
def test_xquad_check_language_ok_fails_no_rule_it_cannot_read(xquad_path, cache):
    lang = xquad_path.name.split(".")[1]
    res = _run("check", xquad_path, "--language-ok", "--json")
    report = json.loads(res.stdout)
    enabled = {"duplicates"} | (SENTENCIZER_RULES if lang != "th" else set())  # Thai: only what reads no words
    assert {r["id"] for r in report["rules"] if r["status"] != "skip"} == enabled
    assert res.exit_code == (EXIT_OK if report["counts"]["fail"] == 0 else 1)
    assert report["counts"]["fail"] == 0  # XQuAD: at most 0.9 % duplicate questions (Thai), position rank 57
    stats = json.loads(_run("stats", xquad_path, "--language-ok", "--json").stdout)
    assert stats["language"][0]["path"] == ("none" if lang == "th" else "sentencizer")
    assert ("chance_corrected" in stats) == (lang != "th")


def test_language_en_runs_everything_with_a_recorded_note(tmp_path, cache):
    """Issue 42: `--language en` declares the data English: nothing is refused, every figure is computed,
    and the note of what the detection read is on standard error and in the stats JSON."""
    path = write_squad(tmp_path, "es")  # detected as Spanish: the declaration is what makes it run
    res = CliRunner().invoke(main, ["stats", str(path), "--language", "en", "--json"])
    assert res.exit_code == EXIT_OK, res.output
    stats = json.loads(res.stdout)
    # the figures that read English words are computed (under --language-ok they are not)
    assert stats["question_types"] and stats["similarity"]["n"] > 0 and "not_computed" not in stats
    [block] = stats["language"]
    assert block["declared"] == "en" and block["language"] == "Spanish"
    assert "read as English as declared (--language en)" in res.stderr and "Spanish" in res.stderr
    out = tmp_path / "sets"
    res = CliRunner().invoke(main, ["perturb", str(path), "--out", str(out), "--ablations", "e4", "--language", "en"])
    assert res.exit_code == EXIT_OK, res.output
    assert (out / "e4.json").exists() and "read as English as declared" in res.stderr
    res = CliRunner().invoke(main, ["check", str(path), "--language", "en", "--language-ok"])
    assert res.exit_code == EXIT_BAD_INPUT and "exclude each other" in res.output
