"""SQuAD data objects (mrclens.squad): counts, JSON round trip, atomic writing that never overwrites the input."""

from __future__ import annotations

import gzip
import json

import pytest

from mrclens.errors import MRCLensError
from mrclens.formats import load_dataset
from mrclens.squad import Answer, Article, Dataset, Paragraph, Question, write_dataset


def _file(tmp_path, obj, name="data.json"):
    path = tmp_path / name
    path.write_text(json.dumps(obj), encoding="utf-8")
    return path


def _squad(qas, context="The cat sat on the mat in Paris.", title="Cats"):
    return {"version": "1.1", "data": [{"title": title, "paragraphs": [{"context": context, "qas": qas}]}]}


GOOD_QA = {"id": "q1", "question": "Where did the cat sit?", "answers": [{"text": "on the mat", "answer_start": 12}]}


def test_objects_count_and_serialise_in_the_squad_schema():
    q = Question("q1", "Where?", [Answer("on the mat", 12)], extra={"plausible_answers": []})
    v2 = Question("q2", "Why?", [], is_impossible=True)
    ds = Dataset([Article("Cats", [Paragraph("The cat sat on the mat in Paris.", [q, v2])])], "2.0")
    assert q.answers[0].answer_end == 22 and ds.is_v2
    assert ds.counts() == {"articles": 1, "paragraphs": 1, "questions": 2, "answers": 1, "unanswerable": 1}
    assert ds.to_json() == {"version": "2.0", "data": [{"title": "Cats", "paragraphs": [
        {"context": "The cat sat on the mat in Paris.", "qas": [
            {"answers": [{"answer_start": 12, "text": "on the mat"}], "question": "Where?", "id": "q1",
             "plausible_answers": []},
            {"answers": [], "question": "Why?", "id": "q2", "is_impossible": True}]}]}]}
    assert list(ds.questions_by_id()) == ["q1", "q2"]


def test_roundtrip_json_gz_and_input_is_never_overwritten(tmp_path):
    src = _file(tmp_path, _squad([GOOD_QA]))
    before = src.read_bytes()
    ds = load_dataset(src)
    out = write_dataset(ds, tmp_path / "copy.json.gz")
    assert json.loads(gzip.decompress(out.read_bytes())) == json.loads(before)
    assert load_dataset(out).to_json() == ds.to_json()
    with pytest.raises(MRCLensError, match="refusing to overwrite the input"):
        write_dataset(ds, src)
    assert src.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_written_files_get_normal_permissions(tmp_path):
    import os

    from mrclens.io_utils import atomic_write_text

    path = atomic_write_text(tmp_path / "out.txt", "x")
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask


def test_dataset_repr_is_one_line_and_len_counts_questions(tmp_path):
    """A notebook prints a loaded dataset as one short line (not every context), and ``len`` is its
    number of questions (issue 44, item 6)."""
    import mrclens

    from tests.conftest import SAMPLE

    ds = mrclens.load_qa_dataset(SAMPLE)
    counts = ds.counts()
    text = repr(ds)
    assert "\n" not in text and len(text) < 200, text
    assert text.startswith("QADataset(") and type(ds).__name__ == "QADataset"
    for key in ("articles", "paragraphs", "questions"):
        assert f"{counts[key]:,} {key}" in text, text
    assert repr(str(SAMPLE)) in text  # the source
    assert len(ds) == counts["questions"] > 0
    empty = Dataset([])
    assert len(empty) == 0 and repr(empty) == "QADataset(0 articles, 0 paragraphs, 0 questions, source None)"


def test_a_dataset_reads_like_the_hubs_in_a_notebook(sample_path):
    """Issue 57, item 7: indexing, iteration and to_pandas() give the flat records `datasets` gives for SQuAD (the
    same as mrclens.formats.hf_flat.to_records), in file order, with the answers' offsets exact."""
    import mrclens
    from mrclens.formats.hf_flat import HUB_COLUMNS, to_records

    d = mrclens.load_qa_dataset(sample_path)
    records = to_records(d)
    assert d[0] == records[0] and d[-1] == records[-1] and d[10:13] == records[10:13]
    assert list(d) == records and len(records) == len(d) == 8774
    for r in records[:500]:
        for text, start in zip(r["answers"]["text"], r["answers"]["answer_start"]):
            assert r["context"][start:start + len(text)] == text
    frame = d.to_pandas()
    assert list(frame.columns) == list(HUB_COLUMNS) and len(frame) == len(d)
    assert frame.iloc[5].to_dict() == d[5]
    with pytest.raises(IndexError):
        d[len(d)]
    with pytest.raises(TypeError, match="indexed by question number"):
        d["q1"]
