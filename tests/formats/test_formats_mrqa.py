"""MRQA 2019 JSON Lines on the real shards: SQuAD equals SQuAD dev by id; DROP and DuoRC offsets exact."""

from __future__ import annotations

import gzip
import json

import pytest

from mrclens.errors import DataError
from mrclens.formats import load_dataset, read
from mrclens.metrics.official import normalize_answer


def _raw_questions(path):
    """{qid: (context, qa)} straight from the file, without MRCLens."""
    out = {}
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            obj = json.loads(line)
            for qa in obj.get("qas", []):
                out[qa["qid"]] = (obj["context"], qa)
    return out


def test_squad_shard_equals_squad_dev_by_id(mrqa_squad_path, squad_dev_path):
    loaded = read(mrqa_squad_path, id_field="id")
    assert loaded.format == "mrqa" and loaded.detected and not loaded.errors
    mrqa = loaded.dataset
    dev = {q.id: (p.context, q) for _, p, q in load_dataset(squad_dev_path).iter_questions()}
    questions = list(mrqa.iter_questions())
    assert len(questions) == 10_507 and len(mrqa.articles) == 2_067
    same_answers = 0
    for _, paragraph, q in questions:
        context, gold = dev[q.id]  # every id is a SQuAD v1.1 dev id
        assert paragraph.context == context and q.question == gold.question
        ours = {(a.text, a.answer_start) for a in q.answers}
        same_answers += ours == {(a.text, a.answer_start) for a in gold.answers}
    # MRQA's spans are its own (e.g. "Broncos" where SQuAD's annotator chose "The Broncos"):
    # the set of distinct gold answers is SQuAD's own for 10,201 of the 10,507 questions
    assert same_answers == 10_201
    # default ids are MRQA's qid; the SQuAD id is kept
    first = next(read(mrqa_squad_path).dataset.iter_questions())[2]
    assert first.id == "b0626b3af0764c80b1e6f22c114982c1" and first.extra["original_id"] == "56be4db0acb8001400a502ec"


@pytest.mark.parametrize("shard, counts", [
    # spans / normalised / differs-after-normalisation as listed in shared/data/SOURCES.md §5
    ("drop", {"contexts": 281, "questions": 1_503, "spans": 2_919, "spans_normalised": 190, "spans_text_differs": 1,
              "spans_dropped": 0, "questions_dropped": 0}),
    ("duorc", {"contexts": 202, "questions": 1_501, "spans": 7_963, "spans_normalised": 1_537, "spans_text_differs": 30,
               "spans_dropped": 0, "questions_dropped": 0}),
])
def test_drop_and_duorc_every_offset_exact(shard, counts, mrqa_drop_path, mrqa_duorc_path):
    path = {"drop": mrqa_drop_path, "duorc": mrqa_duorc_path}[shard]
    loaded = read(path)
    assert not loaded.errors and not loaded.problems
    for key, value in counts.items():
        assert loaded.counts[key] == value, key
    c = loaded.counts
    assert c["spans"] == c["spans_dropped"] + c["spans_merged"] + c["answers"]
    raw = _raw_questions(path)
    n_answers = 0
    for _, paragraph, q in loaded.dataset.iter_questions():
        context, qa = raw[q.id]
        assert paragraph.context == context
        spans = {tuple(s) for d in qa["detected_answers"] for s in d["char_spans"]}
        assert q.answers
        for a in q.answers:
            n_answers += 1
            assert context[a.answer_start:a.answer_start + len(a.text)] == a.text
            assert (a.answer_start, a.answer_start + len(a.text) - 1) in spans  # inclusive end in MRQA
        assert q.extra["mrqa_answers"] == qa["answers"]
        # every distinct span of the file is a gold answer (nothing lost but exact duplicates)
        assert {(a.answer_start, a.answer_start + len(a.text) - 1) for a in q.answers} == spans
    assert n_answers == c["answers"]


def test_duorc_text_differences_are_hyphens_and_spacing(mrqa_duorc_path):
    raw = _raw_questions(mrqa_duorc_path)
    differs = [(d["text"], ctx[s:e + 1]) for ctx, qa in raw.values() for d in qa["detected_answers"]
               for s, e in d["char_spans"] if normalize_answer(d["text"]) != normalize_answer(ctx[s:e + 1])]
    assert len(differs) == 30
    # all tokenizer artefacts: 29 hyphens ("Nano Cells" / "nano-cells"), 1 space ("Lt.Tony Carlson." / "Lt. Tony Carlson")
    assert sum("-" in a + b for a, b in differs) == 29

    def squash(text):
        return normalize_answer(text.replace("-", " ")).replace(" ", "")
    assert all(squash(a) == squash(b) for a, b in differs)


def test_bad_span_is_a_warning_naming_line_and_question_and_lone_question_an_error(tmp_path):
    lines = [{"header": {"dataset": "Toy", "split": "dev"}},
             {"context": "Paris is in France.", "qas": [
                 {"qid": "q1", "question": "Where?", "answers": ["France"],
                  "detected_answers": [{"text": "France", "char_spans": [[12, 17], [40, 45]]}]},
                 {"qid": "q2", "question": "What?", "answers": ["x"],
                  "detected_answers": [{"text": "x", "char_spans": [[99, 100]]}]}]}]
    path = tmp_path / "toy.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    loaded = read(path)
    assert loaded.counts["spans_dropped"] == 2 and loaded.counts["questions_dropped"] == 1
    messages = [str(p) for p in loaded.problems]
    assert any("toy.jsonl" in m and "line 2: question q1" in m and "[40, 45]" in m and m.startswith("warning") for m in messages)
    with pytest.raises(DataError, match=r"toy\.jsonl: article 'Toy context 1': question q2: line 2: question q2: no detected answer"):
        load_dataset(path)
    ds = load_dataset(path, on_no_span="drop")
    assert [q.id for _, _, q in ds.iter_questions()] == ["q1"]
    assert ds.articles[0].paragraphs[0].questions[0].answers[0].text == "France"
