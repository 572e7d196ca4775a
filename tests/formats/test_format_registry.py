"""Formats register themselves (issue 43, item 3): each module of mrclens.formats adds its Format to the
registry when imported, and a format registered so is detected, read and named like the built-in ones."""

from __future__ import annotations

import json

import pytest

from mrclens.errors import DataError, MRCLensError
from mrclens.formats import FORMATS, load_dataset, read
from mrclens.formats.base import (FORMAT_REGISTRY, Format, Loaded, RecordLog, classify_record, iter_jsonl, known_formats,
                                  register_format, validated)


def test_the_built_in_formats_are_registered_by_their_modules_in_order():
    assert FORMATS == ("squad", "hf-flat", "mrqa", "nq-simplified") == tuple(FORMAT_REGISTRY)
    homes = {name: (f.read_file or f.read_lines).__module__ for name, f in FORMAT_REGISTRY.items()}
    assert homes == {"squad": "mrclens.formats.squad_json", "hf-flat": "mrclens.formats.hf_flat",
                     "mrqa": "mrclens.formats.mrqa", "nq-simplified": "mrclens.formats.nq_simplified"}
    assert known_formats().startswith("squad: SQuAD v1.1/v2.0 JSON") and "; mrqa: MRQA 2019" in known_formats()
    with pytest.raises(ValueError, match="registered already"):
        register_format(Format(name="mrqa", description="again", order=99))


def test_each_line_goes_to_the_format_that_claims_it():
    assert classify_record({"header": {"dataset": "SQuAD"}}) == ("mrqa", "jsonl")
    assert classify_record({"context": "c", "qas": [], "question": "q"}) == ("mrqa", "jsonl")
    assert classify_record({"document_text": "d", "question_text": "q"}) == ("nq-simplified", "jsonl")
    assert classify_record({"id": "1", "context": "c", "question": "q", "answers": {}}) == ("hf-flat", "jsonl")
    assert classify_record({"data": []}) == ("json-document", "json")
    assert classify_record({"document_tokens": [], "question_text": "q"})[0] is None


def _read_toy(text: str, file: str, *, on_invalid: str = "refuse") -> Loaded:
    """A toy JSON Lines format: one {"passage", "query", "answer"} per line, the answer found in the passage."""
    log = RecordLog(file, on_invalid)
    articles = []
    for line, obj in iter_jsonl(text, log, "toy-lines"):
        log.read()
        start = obj["passage"].find(obj["answer"])
        articles.append({"title": f"passage {line}", "paragraphs": [{"context": obj["passage"], "qas": [
            {"id": f"toy-{line}", "question": obj["query"], "answers": [{"text": obj["answer"], "answer_start": start}]}]}]})
    dataset, problems, records = validated({"version": "1.1", "data": articles}, file, log)
    return Loaded(dataset, "toy-lines", "jsonl", problems=problems, records=records)


@pytest.fixture
def toy_format():
    """The toy format registered as its module would register it, and taken out again afterwards."""
    before = dict(FORMAT_REGISTRY)
    register_format(Format(name="toy-lines", description="toy JSON Lines (passage, query, answer)", order=4,
                           claims_line=lambda obj: {"passage", "query"} <= set(obj), line_label="a toy line",
                           file_label="toy", read_lines=_read_toy, lines_only=True))
    yield
    FORMAT_REGISTRY.clear()
    FORMAT_REGISTRY.update(before)


def test_a_registered_format_is_detected_read_and_named(toy_format, tmp_path):
    path = tmp_path / "toy.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [
        {"passage": "Paris is in France.", "query": "Where is Paris?", "answer": "France"},
        {"passage": "Ice is cold.", "query": "What is cold?", "answer": "Ice"}]) + "\n", encoding="utf-8")
    loaded = read(path)
    assert (loaded.format, loaded.container, loaded.detected) == ("toy-lines", "jsonl", True)
    assert [q.answers[0].answer_start for _, _, q in loaded.dataset.iter_questions()] == [12, 0]
    assert load_dataset(path, format="toy-lines").counts()["questions"] == 2
    assert "toy-lines: toy JSON Lines" in known_formats()
    with pytest.raises(MRCLensError, match="do not apply to format 'toy-lines'"):
        read(path, id_field="qid")
    mixed = tmp_path / "mixed.jsonl"  # a toy line in an MRQA file is named as such
    mixed.write_text(json.dumps({"header": {"dataset": "X"}}) + "\n"
                     + json.dumps({"passage": "p", "query": "q", "answer": "p"}) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match="line 2: .*a toy line"):
        load_dataset(mixed)
