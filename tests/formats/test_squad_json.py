"""SQuAD JSON reading (mrclens.formats.squad_json, squad_schema): typed objects, each schema problem, real files."""

from __future__ import annotations

import json

import pytest

from mrclens.errors import DataError
from mrclens.formats import load_dataset, read, read_dataset
from mrclens.formats.squad_json import read_path
from mrclens.formats.squad_schema import parse_squad


def _file(tmp_path, obj, name="data.json", raw: str | None = None):
    path = tmp_path / name
    path.write_text(raw if raw is not None else json.dumps(obj), encoding="utf-8")
    return path


def _squad(qas, context="The cat sat on the mat in Paris.", title="Cats"):
    return {"version": "1.1", "data": [{"title": title, "paragraphs": [{"context": context, "qas": qas}]}]}


GOOD_QA = {"id": "q1", "question": "Where did the cat sit?", "answers": [{"text": "on the mat", "answer_start": 12}]}


def test_load_valid_file_gives_typed_objects(tmp_path):
    ds = load_dataset(_file(tmp_path, _squad([GOOD_QA])))
    (article,) = ds.articles
    assert article.title == "Cats"
    q = article.paragraphs[0].questions[0]
    assert (q.id, q.question, q.answers[0].text, q.answers[0].answer_start, q.answers[0].answer_end) == (
        "q1", "Where did the cat sit?", "on the mat", 12, 22)
    assert q.is_impossible is None and not ds.is_v2
    assert ds.counts() == {"articles": 1, "paragraphs": 1, "questions": 1, "answers": 1, "unanswerable": 0}


@pytest.mark.parametrize(
    "qa, expected",
    [
        ({**GOOD_QA, "answers": [{"text": "on the mat", "answer_start": 11}]}, "is not found at answer_start 11"),
        ({**GOOD_QA, "answers": [{"text": "on the mat", "answer_start": "12"}]}, "not an integer"),
        ({**GOOD_QA, "answers": [{"text": "on the mat", "answer_start": 40}]}, "outside the context"),
        ({**GOOD_QA, "answers": []}, "answerable question has no answers"),
        ({**GOOD_QA, "question": "   "}, "question text is empty"),
        ({k: v for k, v in GOOD_QA.items() if k != "question"}, "'question' is missing"),
    ],
)
def test_each_problem_names_file_title_and_question_id(tmp_path, qa, expected):
    path = _file(tmp_path, _squad([qa]))
    with pytest.raises(DataError) as err:
        load_dataset(path)
    (problem,) = err.value.problems
    assert expected in problem.message
    assert problem.file == str(path) and problem.title == "Cats" and problem.qid == "q1"
    assert str(path) in str(err.value) and "q1" in str(err.value)


def test_duplicate_ids_and_missing_context(tmp_path):
    obj = _squad([GOOD_QA, GOOD_QA])
    obj["data"].append({"title": "Other", "paragraphs": [{"qas": []}]})
    _, problems = read_dataset(_file(tmp_path, obj))
    messages = [p.message for p in problems]
    assert any("duplicate question id" in m for m in messages)
    assert any("'context' is missing" in m for m in messages)


def test_not_json_reports_line_and_column(tmp_path):
    path = _file(tmp_path, None, raw='{"data": [\n  {"title": "x",,}]}')
    with pytest.raises(DataError) as err:
        load_dataset(path)
    assert "not valid JSON" in str(err.value) and "line 2" in str(err.value)


def test_no_data_list(tmp_path):
    # auto-detection finds no format in {"version": "1.1"}; asked to read it as SQuAD, the schema check says why
    with pytest.raises(DataError, match="no 'data' list"):
        load_dataset(_file(tmp_path, {"version": "1.1"}), format="squad")


def test_v2_integer_ids_and_unanswerable(tmp_path):
    obj = {"data": [{"title": "T", "paragraphs": [{"context": "Abc def.", "qas": [
        {"id": 7, "question": "What?", "answers": [], "is_impossible": True},
        {"id": 8, "question": "Which?", "answers": [{"text": "def", "answer_start": 4}], "is_impossible": False,
         "plausible_answers": []},
    ]}]}]}
    ds = load_dataset(_file(tmp_path, obj))
    assert [q.id for _, _, q in ds.iter_questions()] == ["7", "8"]
    assert ds.is_v2 and ds.counts()["unanswerable"] == 1
    assert ds.to_json()["data"][0]["paragraphs"][0]["qas"][1]["plausible_answers"] == []


def test_real_squad_dev_counts(squad_dev_path):
    ds = load_dataset(squad_dev_path)
    assert ds.counts() == {"articles": 48, "paragraphs": 2067, "questions": 10570, "answers": 34726, "unanswerable": 0}


def test_real_nq_v2_file_loads_with_string_ids(nq_v2_path):
    ds, problems = read_dataset(nq_v2_path)
    assert not [p for p in problems if p.severity == "error"]
    assert ds.counts()["questions"] == 54 and ds.counts()["unanswerable"] == 29
    assert all(isinstance(q.id, str) for _, _, q in ds.iter_questions())


def test_small_file_is_decoded_once_and_reads_as_asked(tmp_path):
    """A file under a MiB is detected by parsing it whole; the decoded object is checked without a
    second read, with the same dataset, problems and description as reading it as SQuAD."""
    obj = _squad([GOOD_QA, {**GOOD_QA, "id": "q2", "answers": [{"text": "on the mat", "answer_start": 11}]}])
    path = _file(tmp_path, obj)
    auto, direct = read(path), read_path(path)
    assert (auto.format, auto.container, auto.detected) == ("squad", "json", True)
    assert auto.dataset == direct.dataset and auto.problems == direct.problems
    assert [str(p) for p in auto.problems] == [
        f"{path}: article 'Cats': question q2: answer #0: text 'on the mat' is not found at answer_start 11 "
        "(the context there reads ' on the ma')"]


def test_parse_squad_skip_and_repair_notes():
    qas = [GOOD_QA, {**GOOD_QA, "id": "q2", "answers": [{"text": "on the mat", "answer_start": 11}]},
           {**GOOD_QA, "id": "q3", "question": ""}]
    ds, problems = parse_squad(_squad(qas), "f.json", on_invalid="repair")
    assert problems == [] and [q.id for _, _, q in ds.iter_questions()] == ["q1", "q2"]
    assert [(n.qid, n.severity) for n in ds.notes] == [("q2", "repaired"), ("q3", "skipped")]
    ds, problems = parse_squad(_squad(qas), "f.json", on_invalid="skip")
    assert [(n.qid, n.message) for n in ds.notes] == [
        ("q2", "skipped: answer #0: text 'on the mat' is not found at answer_start 11 (the context there reads ' on the ma')"),
        ("q3", "skipped: question text is empty")]
    with pytest.raises(ValueError, match="on_invalid must be one of"):
        parse_squad(_squad(qas), on_invalid="fix")


def test_a_key_held_twice_is_refused_not_silently_collapsed(tmp_path):
    """Python's json keeps the last of two equal keys: a paragraph with "qas" twice would lose its first
    questions without a word. Every JSON reader refuses it, naming the file, the key and the object."""
    second = {"id": "q2", "question": "What sat on the mat?", "answers": [{"text": "The cat", "answer_start": 0}]}
    raw = json.dumps(_squad([GOOD_QA])).replace('"qas": ', '"qas": ' + json.dumps([second]) + ', "qas": ')
    path = _file(tmp_path, None, raw=raw)
    assert json.loads(raw)["data"][0]["paragraphs"][0]["qas"] == [GOOD_QA]  # what json alone would keep
    with pytest.raises(DataError) as err:
        load_dataset(path)
    assert str(path) in str(err.value) and "key 'qas' twice" in str(err.value)
    assert "context starts 'The cat sat" in str(err.value)
    # a JSON Lines file: the line with the repeated key is one refused record, named by its number
    flat = {"title": "Cats", "context": "The cat sat on the mat in Paris.", "question": "Where?",
            "answers": {"text": ["on the mat"], "answer_start": [12]}}
    lines = [json.dumps({"id": "a", **flat}), json.dumps({"id": "b", **flat}).replace('{"id": "b"', '{"id": "b", "id": "c"')]
    jsonl = tmp_path / "flat.jsonl"
    jsonl.write_text("\n".join(lines) + "\n", encoding="utf-8")
    loaded = read(jsonl)
    assert [p.message for p in loaded.problems if p.severity == "error"] == [
        "line 2: an object holds the key 'id' twice (in the object with id 'c') (only the last value would be kept)"]
    assert loaded.records.read == 2 and loaded.records.refused == 1
