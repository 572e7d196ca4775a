"""``--on-invalid refuse|skip|repair`` (issue 15, defect 12) on a file built from SQuAD dev with 50
misaligned spans out of 2,804 questions (47 off by one character, 3 by 40: tests/invalid_fixture.py)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mrclens.cli import main
from mrclens.errors import EXIT_BAD_INPUT, DataError
from mrclens.formats import load_dataset

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from invalid_fixture import make_shifted_fixture  # noqa: E402


@pytest.fixture(scope="module")
def fixture(squad_dev_path, tmp_path_factory):
    out = tmp_path_factory.mktemp("shifted") / "shifted-dev.json"
    info = make_shifted_fixture(squad_dev_path, out)
    return out, info


def test_fixture_shape(fixture):
    _, info = fixture
    assert 2700 <= info["questions"] <= 2900
    assert len(info["shifted"]) == 47 and len(info["far"]) == 3
    assert all(abs(new - old) == 1 for old, new in info["shifted"].values())


@pytest.mark.parametrize("command", ["perturb", "stats", "check"])
def test_refused_by_default(command, fixture, tmp_path, monkeypatch):
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path / "cache"))
    path, _ = fixture
    args = [command, str(path), "--quiet"] + (["--out", str(tmp_path / "o")] if command == "perturb" else [])
    res = CliRunner().invoke(main, args)
    assert res.exit_code == EXIT_BAD_INPUT, res.output
    assert "Traceback" not in res.output
    assert "... and 30 more problems (run `mrclens validate FILE` to list all)" in res.output
    assert not (tmp_path / "o").exists() and not (tmp_path / "cache").exists()


def test_validate_lists_all_50_with_correct_counts(fixture):
    path, info = fixture
    res = CliRunner().invoke(main, ["validate", str(path)])
    assert res.exit_code == EXIT_BAD_INPUT
    out = res.output
    assert f"{info['articles']} articles" in out
    assert f"{info['questions']:,} questions, {info['answers']:,} answers, 0 unanswerable" in out
    listed = re.findall(r"question (\w+): answer #0: ", out)
    assert sorted(listed) == sorted(list(info["shifted"]) + info["far"])
    assert f"INVALID: 50 error(s) (50 of {info['questions']:,} questions invalid), 0 warning(s)" in out


def test_skip_drops_exactly_the_50_and_lists_each(fixture):
    path, info = fixture
    ds = load_dataset(path, on_invalid="skip")
    bad = set(info["shifted"]) | set(info["far"])
    assert {q.id for _, _, q in ds.iter_questions()}.isdisjoint(bad)
    assert ds.counts()["questions"] == info["questions"] - 50
    assert sorted(n.qid for n in ds.notes) == sorted(bad)
    assert all(n.severity == "skipped" and ("is not found at answer_start" in n.message or "outside" in n.message)
               for n in ds.notes)
    res = CliRunner().invoke(main, ["validate", str(path), "--on-invalid", "skip"])
    assert res.exit_code == 0, res.output
    assert f"with --on-invalid skip: 50 invalid question(s) skipped, 0 answer(s) repaired; {info['questions'] - 50:,} questions left" in res.output
    assert sum(1 for line in res.output.splitlines() if ": skipped: " in line) == 50


def test_repair_moves_the_47_back_and_skips_the_3(fixture):
    path, info = fixture
    ds = load_dataset(path, on_invalid="repair")
    repaired = {n.qid: n for n in ds.notes if n.severity == "repaired"}
    skipped = sorted(n.qid for n in ds.notes if n.severity == "skipped")
    assert sorted(repaired) == sorted(info["shifted"]) and skipped == sorted(info["far"])
    by_id = ds.questions_by_id()
    for qid, (old, new) in info["shifted"].items():
        assert by_id[qid].answers[0].answer_start == old  # back where the original dev file has it
        assert f"moved answer_start {new} -> {old}" in repaired[qid].message
    assert ds.counts()["questions"] == info["questions"] - 3


def test_repair_only_when_the_text_is_near_and_unambiguous(tmp_path):
    ctx = "ab ab xx Paris yy"
    items = [
        {"id": "near", "question": "q?", "answers": [{"text": "Paris", "answer_start": 11}]},   # 2 after 9
        {"id": "far", "question": "q?", "answers": [{"text": "Paris", "answer_start": 0}]},     # 9 away
        {"id": "nearest", "question": "q?", "answers": [{"text": "ab", "answer_start": 1}]},   # at 0 (1 away) and 3 (2 away)
    ]
    tie = [{"id": "tie", "question": "q?", "answers": [{"text": "ab", "answer_start": 2}]}]  # at 0 and 4: 2 away each
    f = tmp_path / "r.json"
    f.write_text(json.dumps({"data": [{"title": "T", "paragraphs": [{"context": ctx, "qas": items},
                                                                   {"context": "ab  ab", "qas": tie}]}]}))
    ds = load_dataset(f, on_invalid="repair")
    by_id = ds.questions_by_id()
    assert by_id["near"].answers[0].answer_start == 9
    assert by_id["nearest"].answers[0].answer_start == 0
    assert set(by_id) == {"near", "nearest"}
    assert {n.qid: n.severity for n in ds.notes} == {"near": "repaired", "far": "skipped", "nearest": "repaired",
                                                     "tie": "skipped"}


def test_nothing_left_is_an_error(tmp_path):
    f = tmp_path / "all-bad.json"
    f.write_text(json.dumps({"data": [{"title": "T", "paragraphs": [{"context": "abc", "qas": [
        {"id": "x", "question": "q?", "answers": [{"text": "zz", "answer_start": 0}]}]}]}]}))
    with pytest.raises(DataError, match="no valid question left after --on-invalid skip"):
        load_dataset(f, on_invalid="skip")


@pytest.mark.slow
def test_perturb_and_stats_skip_list_each_question(fixture, tmp_path, monkeypatch, squad_dev_path):
    """perturb and stats run on the rest, list each skipped question on stderr and count them;
    the figures of stats --json record them."""
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path / "cache"))
    path, info = fixture
    raw = json.loads(path.read_text())
    raw["data"] = raw["data"][:1]  # the first article only, to keep the test short
    small = tmp_path / "small.json"
    small.write_text(json.dumps(raw))
    bad_here = [q["id"] for p in raw["data"][0]["paragraphs"] for q in p["qas"]
                if q["id"] in info["shifted"] or q["id"] in info["far"]]
    assert bad_here
    res = CliRunner().invoke(main, ["perturb", str(small), "--out", str(tmp_path / "o"), "--quiet", "--ablations", "e4",
                                    "--on-invalid", "skip"])
    assert res.exit_code == 0, res.output
    assert sorted(re.findall(r"question (\w+): skipped: ", res.output)) == sorted(bad_here)
    assert f"{len(bad_here)} invalid question(s) skipped, 0 answer(s) repaired" in res.output
    written = json.loads((tmp_path / "o" / "original.json").read_text())
    ids = {q["id"] for a in written["data"] for p in a["paragraphs"] for q in p["qas"]}
    assert ids.isdisjoint(bad_here)
    res = CliRunner().invoke(main, ["stats", str(small), "--quiet", "--out", str(tmp_path / "s.json"), "--on-invalid", "repair"])
    assert res.exit_code == 0, res.output
    s = json.loads((tmp_path / "s.json").read_text())
    assert s["invalid_input"]["on_invalid"] == "repair" and len(s["invalid_input"]["notes"]) == len(bad_here)


def _six_questions(tmp_path, far=("q2",), near=("q4",)) -> Path:
    """Six questions on one context: each of ``far`` 18 characters off (skipped by skip and repair), each of
    ``near`` one character off (moved back by repair)."""
    context = "Paris is in France. Berlin is in Germany."
    qas = [{"id": f"q{i}", "question": f"Where is city {i}?", "answers": [{"text": "France", "answer_start": 12}]}
           for i in range(6)]
    for q in qas:
        q["answers"][0]["answer_start"] += 18 if q["id"] in far else 1 if q["id"] in near else 0
    path = tmp_path / "six.json"
    path.write_text(json.dumps({"version": "1.1", "data": [{"title": "T", "paragraphs": [{"context": context,
                                                                                          "qas": qas}]}]}))
    return path


@pytest.mark.parametrize("mode, kept, skipped, repaired", [("skip", 4, 2, 0), ("repair", 5, 1, 1)])
def test_validate_json_counts_agree_with_each_other_the_text_and_the_exit_code(tmp_path, mode, kept, skipped, repaired):
    """Issue 42, item 10: `validate --json --on-invalid skip` said records kept 6, skipped 0 beside
    questions_left 4, and "valid": false with exit 0."""
    path = _six_questions(tmp_path)
    res = CliRunner().invoke(main, ["validate", str(path), "--json", "--on-invalid", mode])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["valid"] is False and len(out["errors"]) == 2  # the file as it is
    assert out["usable"] is True  # what the exit code says
    assert out["records"] == {"read": 6, "kept": kept, "skipped": skipped, "dropped": 0, "refused": 0}
    block = out["on_invalid"]
    assert (block["mode"], block["questions_left"], block["skipped"], block["repaired"], block["usable"]) == (
        mode, kept, skipped, repaired, True)
    assert len(block["notes"]) == skipped + repaired
    text = CliRunner().invoke(main, ["validate", str(path), "--on-invalid", mode])
    assert text.exit_code == 0
    assert (f"with --on-invalid {mode}: {skipped} invalid question(s) skipped, {repaired} answer(s) repaired; "
            f"{kept} questions left") in text.stdout


def test_validate_json_is_unusable_with_exit_2_when_nothing_is_left_or_nothing_is_skipped(tmp_path):
    path = _six_questions(tmp_path, far=[f"q{i}" for i in range(6)])
    res = CliRunner().invoke(main, ["validate", str(path), "--json", "--on-invalid", "skip"])
    out = json.loads(res.stdout)
    assert res.exit_code == EXIT_BAD_INPUT and out["usable"] is False and out["on_invalid"]["usable"] is False
    assert out["on_invalid"]["questions_left"] == out["records"]["kept"] == 0 and out["records"]["skipped"] == 6
    res = CliRunner().invoke(main, ["validate", str(_six_questions(tmp_path)), "--json"])
    out = json.loads(res.stdout)
    assert res.exit_code == EXIT_BAD_INPUT and out["valid"] is False and out["usable"] is False
    assert "on_invalid" not in out


def test_evaluate_says_which_predictions_are_for_skipped_questions(tmp_path):
    """Issue 42, item 10: `evaluate --on-invalid skip` counted the skipped questions' predictions as "for
    question ids not in FILE"."""
    path = _six_questions(tmp_path)
    predictions = tmp_path / "predictions.json"
    predictions.write_text(json.dumps({**{f"q{i}": "France" for i in range(6)}, "elsewhere": "x"}))
    res = CliRunner().invoke(main, ["evaluate", str(path), str(predictions), "--on-invalid", "skip"])
    assert res.exit_code == 0, res.output
    assert f"2 prediction(s) are for questions that --on-invalid skip left out of {path} (not scored)" in res.stderr
    assert f"1 prediction(s) are for question ids not in {path}" in res.stderr
    assert json.loads(res.stdout) == {"exact_match": 100.0, "f1": 100.0}
    res = CliRunner().invoke(main, ["evaluate", str(path), str(predictions), "--on-invalid", "repair", "--json"])
    out = json.loads(res.stdout)
    assert (out["total"], out["missing"], out["unknown"]) == (5, 0, 1)
    assert out["on_invalid"] == {"mode": "repair", "skipped": 1, "repaired": 1, "questions_left": 5,
                                 "predictions_left_out": 1}
    assert "1 prediction(s) are for questions that --on-invalid repair left out" in res.stderr
