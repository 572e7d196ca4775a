"""Property-based tests (Hypothesis) of the simplified-NQ and flat Hugging Face readers (JSON Lines,
JSON list, parquet, Python objects): generated records, mutated, are either refused naming the item or
read with every record accounted for (:mod:`reader_properties`)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from mrclens.formats import read
from reader_properties import SETTINGS, check_span_read, jsonl_file, mutate, sentence

ON_INVALID = st.sampled_from(["refuse", "skip", "repair"])
NQ_OPTIONS = st.fixed_dictionaries({}, optional={
    "yes_no": st.sampled_from(["drop", "unanswerable"]), "multi_span": st.sampled_from(["drop", "first", "all", "cover"]),
    "tables_lists": st.sampled_from(["drop", "keep"]), "no_long_answer": st.sampled_from(["drop", "unanswerable"]),
    "long_only": st.sampled_from(["drop", "unanswerable"])})


@st.composite
def nq_examples(draw) -> list[dict]:
    """1-3 valid simplified-NQ examples: a page of 1-3 ``<P>`` paragraphs (or a ``<Table>``), the
    candidates, and 1-2 annotations (a long answer or none; 0-2 short spans inside it; YES/NO)."""
    examples = []
    for n in range(draw(st.integers(1, 3))):
        tokens, cands = [], []
        for _ in range(draw(st.integers(1, 3))):
            tag = draw(st.sampled_from(["P", "P", "Table"]))
            start = len(tokens)
            tokens += [f"<{tag}>"] + sentence(draw, 2, 6).split(" ") + [f"</{tag}>"]
            cands.append({"start_token": start, "end_token": len(tokens), "top_level": True})
        annotations = []
        for _ in range(draw(st.integers(1, 2))):
            ci = draw(st.integers(-1, len(cands) - 1))
            la = ({"candidate_index": -1, "start_token": -1, "end_token": -1} if ci < 0 else
                  {"candidate_index": ci, **{k: cands[ci][k] for k in ("start_token", "end_token")}})
            shorts = []
            if ci >= 0:
                for _ in range(draw(st.integers(0, 2))):
                    s = draw(st.integers(la["start_token"] + 1, la["end_token"] - 2))
                    shorts.append({"start_token": s, "end_token": draw(st.integers(s + 1, la["end_token"] - 1))})
            annotations.append({"long_answer": la, "short_answers": shorts,
                                "yes_no_answer": draw(st.sampled_from(["NONE", "NONE", "YES", "NO"]))})
        examples.append({"document_text": " ".join(tokens), "question_text": sentence(draw) + "?",
                         "example_id": 10**19 + n, "long_answer_candidates": cands, "annotations": annotations,
                         "document_url": f"https://en.wikipedia.org//w/index.php?title=Page_{n % 2}&amp;oldid=1"})
    return examples


@SETTINGS
@given(lines=nq_examples().flatmap(lambda ex: jsonl_file(ex, 2)), on_invalid=ON_INVALID, options=NQ_OPTIONS)
def test_nq_simplified_every_example_accounted_for(tmp_path_factory, lines, on_invalid, options):
    path = tmp_path_factory.mktemp("nq") / "nq.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    expected = sum(1 for line in lines if line.strip())  # every non-blank line is one example (record)
    outcome = check_span_read(path, str(path), expected, on_invalid, format="nq-simplified", **options)
    if outcome == "loaded":
        loaded = read(path, format="nq-simplified", on_invalid=on_invalid, **options)
        assert loaded.records.dropped == sum(v for k, v in loaded.counts.items() if k.startswith("dropped_"))


@st.composite
def flat_records(draw) -> list[dict]:
    """1-4 valid flat records (the Hugging Face squad / squad_v2 schema), some sharing a title and context."""
    records, context = [], sentence(draw, 3, 10)
    for n in range(draw(st.integers(1, 4))):
        if draw(st.booleans()):
            context = sentence(draw, 3, 10)
        words = context.split(" ")
        i = draw(st.integers(0, len(words) - 1))
        answers = {"text": [words[i]], "answer_start": [len(" ".join(words[:i])) + (1 if i else 0)]}
        if draw(st.integers(0, 4)) == 0:
            answers = {"text": [], "answer_start": []}
        records.append({"id": f"h{n}", "title": draw(st.sampled_from(["A", "B", None])), "context": context,
                        "question": sentence(draw) + "?", "answers": answers})
    return records


@SETTINGS
@given(lines=flat_records().flatmap(lambda r: jsonl_file(r, 2)), on_invalid=ON_INVALID)
def test_flat_jsonl_every_record_accounted_for(tmp_path_factory, lines, on_invalid):
    path = tmp_path_factory.mktemp("flat") / "flat.jsonl"
    text = "\n".join(lines) + "\n"
    path.write_text(text, encoding="utf-8")
    try:
        json.loads(text)
        expected = None  # the whole text is one JSON value (e.g. a single line): read as JSON, not JSON Lines
    except json.JSONDecodeError:
        expected = sum(1 for line in lines if line.strip())
    check_span_read(path, str(path), expected, on_invalid, format="hf-flat")


@SETTINGS
@given(records=flat_records().flatmap(lambda rs: st.tuples(*[mutate(r, 2) for r in rs]).map(list)),
       on_invalid=ON_INVALID, kind=st.sampled_from(["json-list", "json-data", "list", "DataFrame"]))
def test_flat_json_and_objects_every_record_accounted_for(tmp_path_factory, records, on_invalid, kind):
    if kind in ("json-list", "json-data"):
        source = tmp_path_factory.mktemp("flatjson") / "flat.json"
        source.write_text(json.dumps(records if kind == "json-list" else {"data": records}), encoding="utf-8")
        file = str(source)
    elif kind == "list":
        source, file = records, "<memory>"
    else:
        import pandas as pd

        source, file = pd.DataFrame.from_records(records), "<memory>"
    check_span_read(source, file, len(records), on_invalid)


@st.composite
def parquet_tables(draw):
    """Valid flat records with one column-wide change that keeps the column's type (as parquet
    demands): a column dropped, nulls in it, an ``answer_start`` moved, answers emptied, an id repeated."""
    records = draw(flat_records())
    change = draw(st.sampled_from(["none", "drop", "nulls", "shift", "empty", "repeat"]))
    column = draw(st.sampled_from(["id", "title", "context", "question", "answers"]))
    rows = draw(st.sets(st.integers(0, len(records) - 1), min_size=1))
    for i in rows:
        r = records[i]
        if change == "drop":
            r.pop(column, None)
        elif change == "nulls":
            r[column] = None
        elif change == "shift" and r["answers"]["answer_start"]:
            r["answers"]["answer_start"][0] += draw(st.sampled_from([-100, -1, 1, 100]))
        elif change == "empty":
            r["answers"] = {"text": [], "answer_start": []}
        elif change == "repeat":
            r["id"] = "h0"
    if change == "drop":
        for r in records:
            r.pop(column, None)
    return records


@SETTINGS
@given(records=parquet_tables(), on_invalid=ON_INVALID)
def test_flat_parquet_every_row_accounted_for(tmp_path_factory, records, on_invalid):
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path_factory.mktemp("parquet") / "flat.parquet"
    pq.write_table(pa.Table.from_pylist(records), path)
    check_span_read(path, str(path), len(records), on_invalid)
