"""The reader defects of MRCLens issue 35, one test each: exit code 2 and a message naming the file
and the item (or a correct result with a warning), never exit 3.

1. an MRQA ``qas`` that is not a list, a flat Hugging Face line appended to an MRQA file, NQ
   ``annotations`` given as a string: refused with the line (not read as valid, not an ordinary drop);
6. a file with no questions: ``stats``, ``check``, ``compare`` refuse it ("no questions"), exit 2;
7. simplified-NQ ``candidate_index`` ``"15"`` or null, ``long_answer`` a list, a string ``start_token``:
   refused, or skipped with ``--on-invalid skip``, naming the line;
13. messages point the right way: a truncated multiple-choice ``.gz``; multiple-choice data given to
    ``validate`` (read), ``convert`` / ``train`` (named as multiple-choice data); NQ string token vs
    reversed span vs outside the document; multiple-choice endings that are not strings.
"""

from __future__ import annotations

import gzip
import json

import pytest
from click.testing import CliRunner

from mrclens.cli import main
from mrclens.errors import EXIT_BAD_INPUT, EXIT_OK
from mrclens.formats import read

CONTEXT = "Paris is the capital of France."
MRQA_HEADER = {"header": {"dataset": "Toy", "split": "dev"}}
MRQA_LINE = {"context": CONTEXT, "qas": [{"qid": "q1", "question": "What is Paris?", "answers": ["capital"],
                                          "detected_answers": [{"text": "capital", "char_spans": [[13, 19]]}]}]}
FLAT = {"id": "h1", "title": "T", "context": CONTEXT, "question": "Where?",
        "answers": {"text": ["France"], "answer_start": [24]}}
DOC = "<P> Paris is the capital of France . </P>"
CODAH_ROW = "o\tThe man was tired. He\tslept.\tran a marathon.\tsang.\tate a car.\t0\n"


def _run(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


def _jsonl(path, *objs):
    path.write_text("".join(json.dumps(o) + "\n" for o in objs), encoding="utf-8")
    return path


def _nq(example_id: int, long_answer, short_answers=(), **fields) -> dict:
    ex = {"document_text": DOC, "question_text": "what is paris", "example_id": example_id,
          "document_url": "https://en.wikipedia.org//w/index.php?title=Paris&oldid=1",
          "long_answer_candidates": [{"start_token": 0, "end_token": 9, "top_level": True}],
          "annotations": [{"long_answer": long_answer, "short_answers": list(short_answers), "yes_no_answer": "NONE"}]}
    ex.update(fields)
    return ex


GOOD_NQ = _nq(1, {"candidate_index": 0, "start_token": 0, "end_token": 9}, [{"start_token": 4, "end_token": 5}])


def _error_lines(res) -> list[str]:
    return [line for line in res.output.splitlines() if line.startswith(("error:", "/")) or ": line " in line]


# --- defect 1: no silent loss ------------------------------------------------------------------

@pytest.mark.parametrize("bad, reason", [
    ({"context": CONTEXT, "qas": {"qid": "q2"}}, "field 'qas' is missing or not a list of questions"),
    (FLAT, "a flat Hugging Face record (context, question, answers), not a line of this MRQA file"),
])
def test_mrqa_bad_qas_and_appended_flat_line_are_refused_with_their_line(tmp_path, bad, reason):
    path = _jsonl(tmp_path / "toy.jsonl", MRQA_HEADER, MRQA_LINE, bad)
    res = _run("validate", path)
    assert res.exit_code == EXIT_BAD_INPUT, res.output
    assert f"{path}" in res.output and f"line 3: {reason}" in res.output
    assert "INVALID: 1 error(s) (1 of 2 questions invalid)" in res.output
    skipped = _run("validate", path, "--on-invalid", "skip")
    assert skipped.exit_code == EXIT_OK and f"skipped: line 3: {reason}" in skipped.output
    loaded = read(path, on_invalid="skip")
    assert (loaded.records.read, loaded.records.kept, loaded.records.skipped) == (2, 1, 1)


def test_nq_annotations_as_a_string_is_refused_not_dropped(tmp_path):
    path = _jsonl(tmp_path / "nq.jsonl", GOOD_NQ, dict(_nq(2, None), annotations="yes"))
    res = _run("validate", path)
    assert res.exit_code == EXIT_BAD_INPUT
    assert "line 2: example 2: annotations must be a list of objects, got 'yes'" in res.output
    loaded = read(path, on_invalid="skip")
    assert loaded.counts["dropped_no_long_answer"] == 0 and loaded.records.skipped == 1
    assert loaded.records.read == loaded.records.kept + loaded.records.skipped == 2


# --- defect 6: no questions ----------------------------------------------------------------------

@pytest.mark.parametrize("name, text", [
    ("empty.json", '{"data": []}'),
    ("header-only.jsonl", json.dumps(MRQA_HEADER) + "\n"),
    ("list.json", "[]"),
])
@pytest.mark.parametrize("command", ["stats", "check", "compare"])
def test_no_questions_is_exit_2_naming_the_file(tmp_path, monkeypatch, name, text, command):
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    args = [command, path] + ([path, "--names", "a,b", "--out", tmp_path / "cmp"] if command == "compare" else [])
    res = _run(*args)
    assert res.exit_code == EXIT_BAD_INPUT, res.output
    errors = [line for line in res.output.splitlines() if line.startswith("error:")]
    assert errors == [f"error: {path}: no questions: model-free statistics need at least one question"]
    valid = _run("validate", path)  # validate reads it, with a warning
    assert valid.exit_code == EXIT_OK and f"warning: {path}: no questions in the file" in valid.output


# --- defect 7: simplified-NQ field types ----------------------------------------------------------

@pytest.mark.parametrize("bad, reason", [
    (_nq(2, {"candidate_index": "15", "start_token": 0, "end_token": 9}),
     "annotations[0].long_answer.candidate_index must be an integer (-1: no long answer), got '15'"),
    (_nq(2, {"candidate_index": None, "start_token": 0, "end_token": 9}),
     "annotations[0].long_answer.candidate_index must be an integer (-1: no long answer), got None"),
    (_nq(2, [0, 9]), "annotations[0].long_answer must be an object, got [0, 9]"),
    (_nq(2, {"candidate_index": 0, "start_token": "0", "end_token": 9}),
     "long answer: start_token is not an integer (got '0')"),
])
def test_nq_bad_types_are_refused_or_skipped_with_their_line(tmp_path, bad, reason):
    path = _jsonl(tmp_path / "nq.jsonl", GOOD_NQ, bad)
    res = _run("validate", path)
    assert res.exit_code == EXIT_BAD_INPUT, res.output
    assert f"line 2: example 2: {reason}" in res.output
    skipped = _run("validate", path, "--on-invalid", "skip")
    assert skipped.exit_code == EXIT_OK, skipped.output
    assert f"skipped: line 2: example 2: {reason}" in skipped.output and "1 questions left" in skipped.output


# --- defect 13: messages that point the right way ----------------------------------------------------

@pytest.fixture
def truncated_codah(tmp_path):
    data = gzip.compress((CODAH_ROW * 2000).encode("utf-8"))
    path = tmp_path / "codah.tsv.gz"
    path.write_bytes(data[: len(data) // 2])
    return path


@pytest.mark.parametrize("command", ["validate", "stats", "perturb", "compare"])
def test_truncated_multiple_choice_gz_says_truncated(truncated_codah, tmp_path, command, monkeypatch):
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path / "cache"))
    whole = tmp_path / "whole.tsv"
    whole.write_text(CODAH_ROW, encoding="utf-8")
    extra = {"perturb": ["--out", tmp_path / "p"], "compare": [whole, "--out", tmp_path / "c"]}.get(command, [])
    res = _run(command, truncated_codah, *extra)
    assert res.exit_code == EXIT_BAD_INPUT, res.output
    assert f"{truncated_codah}: file ends in .gz but cannot be decompressed: the gzip data is truncated" in res.output
    assert "cannot tell the format" not in res.output and "span extraction" not in res.output


def test_validate_reads_multiple_choice_data(tmp_path):
    good = tmp_path / "codah.tsv"
    good.write_text(CODAH_ROW + CODAH_ROW.replace("tired", "sleepy"), encoding="utf-8")
    res = _run("validate", good)
    assert res.exit_code == EXIT_OK and f"{good}: multiple choice data: 2 questions, 8 endings" in res.output
    as_json = json.loads(_run("validate", good, "--json").output)
    assert as_json["task"] == "multiple_choice" and as_json["valid"] and as_json["counts"]["questions"] == 2


def test_multiple_choice_endings_that_are_not_strings_say_so(tmp_path):
    path = _jsonl(tmp_path / "mc.jsonl", {"id": "m1", "prompt": "He", "endings": ["a", "b"], "label": 0},
                  {"id": "m2", "prompt": "She", "endings": ["a", 3, None, "d"], "label": 0},
                  {"id": "m3", "prompt": "It", "endings": ["a", " "], "label": 0})
    res = _run("validate", path)
    assert res.exit_code == EXIT_BAD_INPUT
    assert f"{path}: question m2: line 2: ending 1 is not a string (got 3)" in res.output
    assert f"{path}: question m2: line 2: ending 2 is not a string (got None)" in res.output
    assert f"{path}: question m3: line 3: ending 1 is empty" in res.output
    assert "ending 1 is empty" not in res.output.split("question m3")[0]


@pytest.mark.parametrize("command", ["convert", "train"])
def test_span_only_commands_name_multiple_choice_data_as_such(tmp_path, command):
    path = _jsonl(tmp_path / "mc.jsonl", {"id": "m1", "prompt": "He", "endings": ["a", "b"], "label": 0})
    args = [command, path, tmp_path / "out.json", "--to", "squad"] if command == "convert" else \
        [command, path, "--out", tmp_path / "model"]
    res = _run(*args)
    assert res.exit_code == EXIT_BAD_INPUT, res.output
    assert f"error: {path}: this is multiple-choice data (mc-jsonl), not span-extraction data" in res.output
    assert "`mrclens audit`" in res.output and "cannot tell the format" not in res.output


@pytest.mark.parametrize("long_answer, reason", [
    ({"candidate_index": 0, "start_token": "0", "end_token": 9}, "long answer: start_token is not an integer (got '0')"),
    ({"candidate_index": 0, "start_token": 9, "end_token": 0},
     "long answer token span [9, 0) is empty or reversed (start_token must be below end_token)"),
    ({"candidate_index": 0, "start_token": 0, "end_token": 99},
     "long answer token span [0, 99) is outside the document (9 tokens)"),
])
def test_nq_string_token_reversed_and_outside_spans_each_get_their_reason(tmp_path, long_answer, reason):
    path = _jsonl(tmp_path / "nq.jsonl", GOOD_NQ, _nq(2, long_answer))
    res = _run("validate", path)
    assert res.exit_code == EXIT_BAD_INPUT
    assert f"line 2: example 2: {reason}" in res.output


def test_prediction_file_with_a_question_twice_is_refused(tmp_path):
    data = tmp_path / "squad.json"
    data.write_text(json.dumps({"version": "1.1", "data": [{"title": "T", "paragraphs": [{"context": CONTEXT, "qas": [
        {"id": "q1", "question": "Where?", "answers": [{"text": "France", "answer_start": 24}]}]}]}]}), encoding="utf-8")
    pred = tmp_path / "pred.json"
    pred.write_text('{"q1": "France", "q1": "Paris"}', encoding="utf-8")
    res = _run("evaluate", data, pred)
    assert res.exit_code == EXIT_BAD_INPUT
    assert f"error: {pred}: the key 'q1' appears twice in one JSON object" in res.output
