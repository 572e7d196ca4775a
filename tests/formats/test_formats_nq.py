"""Simplified Natural Questions on the two real lines: exact offsets, every option, counts."""

from __future__ import annotations

import gzip
import json

import pytest

from mrclens.errors import MRCLensError
from mrclens.formats import load_dataset, read



def _line(path):
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return json.loads(fh.readline())


def _words(tokens):
    return [t for t in tokens if not (t.startswith("<") and t.endswith(">"))]


def _write(tmp_path, *examples):
    path = tmp_path / "nq.jsonl"
    path.write_text("\n".join(json.dumps(e) for e in examples) + "\n", encoding="utf-8")
    return path


def test_dev_line_long_answer_context_short_answer_span(nq_simplified_dev_path):
    ex = _line(nq_simplified_dev_path)
    loaded = read(nq_simplified_dev_path)
    assert loaded.format == "nq-simplified" and loaded.detected and not loaded.problems
    (article,) = loaded.dataset.articles
    assert article.title == "The Mother (How I Met Your Mother)"
    (paragraph,) = article.paragraphs
    (q,) = paragraph.questions
    assert q.id == "5328212470870865242" and q.question == "how i.met your mother who is the mother"
    tokens = ex["document_text"].split(" ")
    long_answer = ex["annotations"][0]["long_answer"]
    assert paragraph.context == " ".join(_words(tokens[long_answer["start_token"]:long_answer["end_token"]]))
    assert "<P>" not in paragraph.context and paragraph.context.startswith("Tracy McConnell , better known as")
    (a,) = q.answers
    short = ex["annotations"][0]["short_answers"][0]
    assert a.text == " ".join(tokens[short["start_token"]:short["end_token"]]) == "Tracy McConnell"
    assert paragraph.context[a.answer_start:a.answer_start + len(a.text)] == a.text
    assert a.answer_start == 0 and q.is_impossible is None and loaded.dataset.version == "1.1"
    assert loaded.counts["kept_answerable"] == 1


def test_train_line_without_long_answer_dropped_or_unanswerable(nq_simplified_train_path):
    loaded = read(nq_simplified_train_path)
    assert loaded.dataset.counts()["questions"] == 0
    assert loaded.counts["seen_no_long_answer"] == loaded.counts["dropped_no_long_answer"] == 1
    v2 = read(nq_simplified_train_path, no_long_answer="unanswerable")
    (_, paragraph, q), = v2.dataset.iter_questions()
    assert q.id == "-8062182676792486818" and q.is_impossible is True and not q.answers
    assert v2.dataset.version == "v2.0" and v2.counts["kept_unanswerable"] == 1
    # the first top-level <P> candidate, without tags
    ex = _line(nq_simplified_train_path)
    tokens = ex["document_text"].split(" ")
    first_p = next(c for c in ex["long_answer_candidates"] if c["top_level"] and tokens[c["start_token"]] == "<P>")
    assert paragraph.context == " ".join(_words(tokens[first_p["start_token"]:first_p["end_token"]]))


def test_both_lines_together_and_large_ids_exact(nq_simplified_dev_path, nq_simplified_train_path, tmp_path):
    dev, train = _line(nq_simplified_dev_path), _line(nq_simplified_train_path)
    path = _write(tmp_path, dev, train)
    ds = load_dataset(path, no_long_answer="unanswerable")
    assert [q.id for _, _, q in ds.iter_questions()] == [str(dev["example_id"]), str(train["example_id"])]
    assert [q.is_impossible for _, _, q in ds.iter_questions()] == [False, True]
    assert dev["annotations"][0]["annotation_id"] == 12034874153783787365  # > 2**63, read exactly


def test_options_on_the_real_line(nq_simplified_dev_path, tmp_path):
    ex = _line(nq_simplified_dev_path)
    tokens = ex["document_text"].split(" ")
    ann = ex["annotations"][0]

    # multi-span: a second short span ("The Mother" inside the long answer) in the same annotation
    second = next(i for i in range(ann["long_answer"]["start_token"], ann["long_answer"]["end_token"])
                  if tokens[i:i + 2] == ["The", "Mother"])
    multi = json.loads(json.dumps(ex))
    multi["annotations"][0]["short_answers"].append({"start_token": second, "end_token": second + 2})
    path = _write(tmp_path, multi)
    assert read(path).counts["dropped_multi_span"] == 1
    texts = {mode: [a.text for _, _, q in read(path, multi_span=mode).dataset.iter_questions() for a in q.answers]
             for mode in ("first", "all", "cover")}
    assert texts["first"] == ["Tracy McConnell"] and texts["all"] == ["Tracy McConnell", "The Mother"]
    (cover,) = texts["cover"]
    assert cover.startswith("Tracy McConnell") and cover.endswith("The Mother")

    # yes/no: no short span, answer YES
    yes = json.loads(json.dumps(ex))
    yes["annotations"][0].update(short_answers=[], yes_no_answer="YES")
    path = _write(tmp_path, yes)
    assert read(path).counts["dropped_yes_no"] == 1
    assert read(path, yes_no="unanswerable").dataset.counts()["unanswerable"] == 1

    # long answer only
    long_only = json.loads(json.dumps(ex))
    long_only["annotations"][0]["short_answers"] = []
    path = _write(tmp_path, long_only)
    assert read(path).counts["dropped_long_only"] == 1
    assert read(path, long_only="unanswerable").dataset.counts()["unanswerable"] == 1

    # a table as long answer: candidate 0 of this page is the infobox <Table>
    table = json.loads(json.dumps(ex))
    cand = ex["long_answer_candidates"][0]
    assert tokens[cand["start_token"]] == "<Table>"
    t0 = tokens.index("Tracy", cand["start_token"])
    table["annotations"][0].update(long_answer={**cand, "candidate_index": 0},
                                   short_answers=[{"start_token": t0, "end_token": t0 + 2}])
    path = _write(tmp_path, table)
    assert read(path).counts["dropped_tables_lists"] == 1
    kept = read(path, tables_lists="keep")
    (_, paragraph, q), = kept.dataset.iter_questions()
    (a,) = q.answers
    assert a.text == "Tracy McConnell" and paragraph.context[a.answer_start:].startswith("Tracy McConnell")
    assert "<" not in paragraph.context.replace(" < ", "")

    with pytest.raises(MRCLensError, match="multi_span='both' is not one of drop, first, all, cover"):
        read(path, multi_span="both")
