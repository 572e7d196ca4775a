"""Property-based tests (Hypothesis) of the SQuAD JSON and MRQA readers: generated files, mutated
(fields dropped, types swapped, values out of range, foreign lines appended) are either refused
naming the item or read with every record accounted for (:mod:`reader_properties`)."""

from __future__ import annotations

import json

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from mrclens.cli import main
from reader_properties import (CLI_SETTINGS, FOREIGN_LINES, SETTINGS, check_span_read, jsonl_file, mutate,
                               parse_line, sentence)

ON_INVALID = st.sampled_from(["refuse", "skip", "repair"])


def _answer(draw, context: str) -> tuple[str, int]:
    """A word of ``context`` and its exact character offset."""
    words = context.split(" ")
    i = draw(st.integers(0, len(words) - 1))
    return words[i], len(" ".join(words[:i])) + (1 if i else 0)


@st.composite
def squad_objects(draw) -> dict:
    """A valid SQuAD v1.1 or v2.0 object: 1-2 articles of 1-2 paragraphs of 0-3 questions."""
    v2 = draw(st.booleans())
    n, articles = 0, []
    for ai in range(draw(st.integers(1, 2))):
        paragraphs = []
        for _ in range(draw(st.integers(1, 2))):
            context = sentence(draw, 3, 10)
            qas = []
            for _ in range(draw(st.integers(0, 3))):
                text, start = _answer(draw, context)
                item = {"id": f"q{n}", "question": sentence(draw) + "?", "answers": [{"text": text, "answer_start": start}]}
                if v2:
                    item["is_impossible"] = draw(st.booleans())
                    if item["is_impossible"]:
                        item["answers"] = []
                qas.append(item)
                n += 1
            paragraphs.append({"context": context, "qas": qas})
        articles.append({"title": f"Article {ai}", "paragraphs": paragraphs})
    return {"version": "v2.0" if v2 else "1.1", "data": articles}


def squad_records(obj) -> int:
    """Records of a SQuAD object that reads without errors: each element of a ``qas`` list; a ``qas``
    that is not a list is one record."""
    return sum(len(p["qas"]) if isinstance(p.get("qas"), list) else 1
               for a in obj["data"] for p in a["paragraphs"])


@SETTINGS
@given(obj=squad_objects().flatmap(lambda o: mutate(o, 3)), on_invalid=ON_INVALID, as_object=st.booleans())
def test_squad_json_every_question_accounted_for(tmp_path_factory, obj, on_invalid, as_object):
    if as_object:
        source, file = obj, "<memory>"
        if not (isinstance(obj, dict) and isinstance(obj.get("data"), list)):
            return  # not a SQuAD object: read() refuses it as an unknown Python object (tested elsewhere)
    else:
        source = tmp_path_factory.mktemp("squad") / "data.json"
        source.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
        file = str(source)
    try:
        expected = squad_records(obj)
    except (KeyError, TypeError, AttributeError):
        expected = None  # damaged above the paragraphs: the file must be refused
    outcome = check_span_read(source, file, expected, on_invalid, format="squad")
    assert expected is not None or outcome == "refused"


@st.composite
def mrqa_lines(draw) -> list[dict]:
    """A valid MRQA file: a header, then 1-3 contexts of 0-3 questions with exact inclusive char spans."""
    lines: list[dict] = [{"header": {"dataset": "Toy", "split": "dev"}}]
    n = 0
    for _ in range(draw(st.integers(1, 3))):
        context = sentence(draw, 3, 10)
        qas = []
        for _ in range(draw(st.integers(0, 3))):
            text, start = _answer(draw, context)
            qas.append({"qid": f"m{n}", "question": sentence(draw) + "?", "answers": [text],
                        "detected_answers": [{"text": text, "char_spans": [[start, start + len(text) - 1]],
                                              "token_spans": [[0, 0]]}]})
            n += 1
        lines.append({"context": context, "context_tokens": [], "qas": qas})
    return lines


def mrqa_records(lines: list[str]) -> int:
    """Records of an MRQA file, counted from its text: a header line holds none; a line with a ``qas``
    list one per element (the MRQA context line among the foreign lines holds one question); any
    other non-blank line is one record."""
    total = 0
    for line in lines:
        obj = parse_line(line)
        if not line.strip():
            continue
        if isinstance(obj, dict) and "header" in obj:
            continue
        if line in FOREIGN_LINES or not isinstance(obj, dict):
            total += 1
        else:
            total += len(obj["qas"]) if isinstance(obj.get("qas"), list) else 1
    return total


@SETTINGS
@given(lines=mrqa_lines().flatmap(lambda ls: jsonl_file(ls, 2)), on_invalid=ON_INVALID,
       on_no_span=st.sampled_from(["error", "drop"]))
def test_mrqa_every_question_accounted_for(tmp_path_factory, lines, on_invalid, on_no_span):
    path = tmp_path_factory.mktemp("mrqa") / "data.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    outcome = check_span_read(path, str(path), mrqa_records(lines), on_invalid, format="mrqa", on_no_span=on_no_span)
    if outcome == "loaded":
        assert not any(line in FOREIGN_LINES[:1] for line in lines) or on_invalid != "refuse"  # a flat line is never silently read


@CLI_SETTINGS
@given(lines=mrqa_lines().flatmap(lambda ls: jsonl_file(ls, 2)), squad=squad_objects().flatmap(lambda o: mutate(o, 2)))
def test_validate_never_exits_3_on_mutated_files(tmp_path_factory, lines, squad):
    folder = tmp_path_factory.mktemp("cli")
    (folder / "a.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "b.json").write_text(json.dumps(squad), encoding="utf-8")
    for name in ("a.jsonl", "b.json"):
        res = CliRunner().invoke(main, ["validate", str(folder / name)])
        assert res.exit_code in (0, 2), res.output
        if res.exit_code == 2:
            assert str(folder / name) in res.output
