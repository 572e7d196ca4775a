"""The sniffer (:func:`mrclens.formats.sniff`) and the gate's :func:`mrclens.formats.not_a_dataset`, as properties
(issue 55, items 3 and 4): leading whitespace, blank lines and a byte-order mark change neither the format found
nor the questions read; a Git LFS pointer is never data and never skipped; JSON with comments of another shape
is skipped with a note, a dataset never is.

Before issue 55: a valid SQuAD or JSON Lines file whose first line was blank was refused by every reader
("cannot tell the format") and skipped by the gate; an LFS pointer, an empty file, NUL bytes and plain text
were skipped by the gate (exit 0); tsconfig.json, a Plotly figure and a JSON:API document failed it (exit 2);
original Natural Questions was skipped as "not a QA dataset"."""

from __future__ import annotations
import pytest

import gzip
import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from mrclens.formats import load_dataset, not_a_dataset, read, sniff
from tests.conftest import SAMPLE
from tests.formats.reader_properties import SETTINGS

#: Two articles of the bundled sample (real SQuAD v1.1 text), as one JSON document and as flat JSON Lines.
_SQUAD = json.loads(gzip.decompress(SAMPLE.read_bytes()))
_SQUAD["data"] = _SQUAD["data"][:2]
SQUAD_TEXT = json.dumps(_SQUAD, indent=1)
FLAT_LINES = "".join(
    json.dumps({"id": qa["id"], "title": article["title"], "context": p["context"], "question": qa["question"],
                "answers": {"text": [a["text"] for a in qa["answers"]],
                            "answer_start": [a["answer_start"] for a in qa["answers"]]}}) + "\n"
    for article in _SQUAD["data"] for p in article["paragraphs"] for qa in p["qas"])
BOM = "\ufeff"

leading = st.text(alphabet=" \t\r\n", max_size=12)


def _write(folder: str, name: str, text: str) -> Path:
    path = Path(folder) / name
    path.write_bytes(text.encode("utf-8"))
    return path


def _ids(path: Path) -> list[str]:
    loaded = read(path)
    assert not loaded.errors, loaded.errors
    return [(q.id, p.context, q.question) for _, p, q in loaded.dataset.iter_questions()]


@pytest.mark.slow
@settings(SETTINGS, max_examples=100)  # each example reads two files of 2 articles
@given(prefix=leading, bom=st.booleans(), blank_lines=st.integers(0, 3), text=st.sampled_from(["squad", "flat"]))
def test_leading_whitespace_blank_lines_and_a_bom_change_nothing(prefix, bom, blank_lines, text):
    body = SQUAD_TEXT if text == "squad" else FLAT_LINES
    name = "data.json" if text == "squad" else "data.jsonl"
    with tempfile.TemporaryDirectory() as folder:
        plain = _write(folder, name, body)
        odd = _write(folder, "odd-" + name, (BOM if bom else "") + "\n" * blank_lines + prefix + body)
        assert sniff(odd) == sniff(plain)
        assert _ids(odd) == _ids(plain)
        assert not_a_dataset(odd) is None


def test_a_blank_first_line_is_read_and_the_gate_checks_the_file(tmp_path):
    """The issue's replay: SQuAD and JSON Lines with a blank first line (was: "cannot tell the format")."""
    squad = _write(str(tmp_path), "squad.json", "\n" + SQUAD_TEXT)
    flat = _write(str(tmp_path), "flat.jsonl", "\n\n" + FLAT_LINES)
    assert sniff(squad) == ("squad", "json") or sniff(squad) == ("json-document", "json")
    assert sniff(flat) == ("hf-flat", "jsonl")
    assert len(load_dataset(squad)) == len(load_dataset(flat)) > 0
    assert not_a_dataset(squad) is None and not_a_dataset(flat) is None


@SETTINGS
@given(oid=st.text(alphabet="0123456789abcdef", min_size=64, max_size=64), size=st.integers(0, 10**12),
       name=st.sampled_from(["train.json", "train.parquet", "dev.jsonl", "dev.json.gz"]), prefix=leading,
       legacy=st.booleans())
def test_an_lfs_pointer_is_never_data_and_never_skipped(oid, size, name, prefix, legacy):
    spec = "https://hawser.github.com/spec/v1" if legacy else "https://git-lfs.github.com/spec/v1"
    with tempfile.TemporaryDirectory() as folder:
        path = _write(folder, name, f"{prefix}version {spec}\noid sha256:{oid}\nsize {size}\n")
        fmt, why = sniff(path)
        assert fmt is None and "Git LFS pointer" in why and oid in why
        assert not_a_dataset(path) is None  # checked, so that it fails
        [problem] = read(path).errors
        assert "Git LFS pointer" in problem.message and "lfs: true" in problem.message
        assert f"{size:,} bytes" in problem.message


#: A comment's text: no newline, and no end of a block comment.
comment = st.text(alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\n\r*"), max_size=20)
json_keys = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), min_size=1, max_size=10).filter(lambda k: k != "data")
json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=10),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(json_keys, inner, max_size=3),
                           max_leaves=8)


@SETTINGS
@given(obj=st.dictionaries(json_keys, json_values, min_size=1, max_size=5), comments=st.lists(comment, min_size=1, max_size=4),
       block=st.booleans(), trailing_comma=st.booleans())
def test_json_with_comments_of_another_shape_is_skipped_with_a_note(obj, comments, block, trailing_comma):
    lines = json.dumps(obj, indent=2).split("\n")
    for k, text in enumerate(comments):  # a comment on its own line between the object's lines
        at = 1 + k % max(1, len(lines) - 1)
        lines.insert(at, f"/* {text} */" if block else f"// {text}")
    text = "\n".join(lines)
    if trailing_comma:
        text = text[:text.rindex("}")].rstrip() + ",\n}" if len(obj) else text
    with tempfile.TemporaryDirectory() as folder:
        why = not_a_dataset(_write(folder, "tsconfig.json", text))
    assert why is not None and why.startswith("JSON with comments (JSONC"), why


@pytest.mark.slow
@settings(SETTINGS, max_examples=60)
@given(comments=st.lists(comment, min_size=1, max_size=3))
def test_a_dataset_with_comments_is_never_skipped(comments):
    lines = SQUAD_TEXT.split("\n")
    for k, text in enumerate(comments):
        lines.insert(1 + k, f"// {text}")
    with tempfile.TemporaryDirectory() as folder:
        path = _write(folder, "squad.json", "\n".join(lines))
        assert not_a_dataset(path) is None
        assert read(path).errors  # and reading it says it is no valid JSON (exit 2 in the gate)


def test_empty_nul_and_plain_text_are_checked_not_skipped(tmp_path):
    for name, data in [("empty.json", b""), ("blank.json", b" \n\n"), ("nul.json", b"\x00\x00\x00"),
                       ("text.json", b"train split, see README\n"), ("bin.parquet", b"\x89PNG\r\n\x1a\n")]:
        path = tmp_path / name
        path.write_bytes(data)
        assert not_a_dataset(path) is None, name
        assert read(path).errors, name


def test_plotly_and_json_api_documents_are_skipped_with_their_names(tmp_path):
    plotly = tmp_path / "figure.json"
    plotly.write_text(json.dumps({"data": [{"type": "bar", "x": ["a", "b"], "y": [1, 2]},
                                           {"type": "scatter", "x": [0, 1], "y": [2, 3], "mode": "lines"}],
                                  "layout": {"title": {"text": "F1 by set"}}}))
    api = tmp_path / "articles.json"
    api.write_text(json.dumps({"jsonapi": {"version": "1.0"}, "links": {"self": "/articles"},
                               "data": [{"type": "articles", "id": "1", "attributes": {"title": "JSON:API"}}]}))
    assert not_a_dataset(plotly).startswith("a Plotly figure")
    assert not_a_dataset(api).startswith("a JSON:API document")
    broken = tmp_path / "broken.json"  # a data list of which one record is a QA record: read (and refused)
    broken.write_text(json.dumps({"data": [{"type": "x"}, {"title": "T", "paragraphs": [{"context": "c"}]}]}))
    assert not_a_dataset(broken) is None


def test_original_natural_questions_is_checked_not_skipped(tmp_path, nq_simplified_dev_path):
    """Original-format NQ (document_tokens, document_html), made from a real simplified NQ example: the gate
    reads it, and reading it says to simplify it first (was: skipped as "not a QA dataset")."""
    simple = json.loads(gzip.open(nq_simplified_dev_path, "rt", encoding="utf-8").readline())
    tokens = simple["document_text"].split(" ")
    original = {"example_id": simple["example_id"], "question_text": simple["question_text"],
                "document_url": simple["document_url"], "document_title": "t",
                "document_html": " ".join(tokens),
                "document_tokens": [{"token": t, "html_token": t.startswith("<"), "start_byte": 0, "end_byte": 0}
                                    for t in tokens],
                "long_answer_candidates": simple["long_answer_candidates"], "annotations": simple["annotations"]}
    path = tmp_path / "nq-dev-00.jsonl"
    path.write_text(json.dumps(original) + "\n")
    assert not_a_dataset(path) is None
    [problem] = read(path).errors
    assert "original (not simplified) Natural Questions" in problem.message
