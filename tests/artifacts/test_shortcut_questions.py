"""``shortcut-questions.jsonl`` (issue 56): it round-trips real evidence, refuses malformed lines naming the line and
field, loads as one flat table, and every field of a line is documented (and every documented field exists)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mrclens.artifacts.shortcut_questions import (EVIDENCE_CLASSES, FORMAT_VERSION, ShortcutQuestion, evidence_fields,
                                                  read_shortcut_questions, write_shortcut_questions)
from mrclens.categories import CATEGORY_NAMES
from mrclens.errors import ArtifactError
from mrclens.formats import load_dataset
from mrclens.squad import Dataset
from mrclens.stats.evidence import shortcut_evidence

DOCS = Path(__file__).resolve().parents[2] / "docs" / "stats-and-check.md"


@pytest.fixture(scope="module")
def rows(sample_path):
    ds = load_dataset(sample_path)
    return shortcut_evidence(Dataset([a for a in ds.articles if a.title in ("Dutch_Republic", "Infrared")], ds.version))


def test_real_evidence_round_trips(rows, tmp_path):
    path = write_shortcut_questions(tmp_path / "shortcut-questions.jsonl", rows)
    back = read_shortcut_questions(path)
    assert back == rows and len(back) == 68 + 85
    assert any(r.flagged_categories() for r in back)  # something is flagged on real data
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(rows)
    first = json.loads(lines[0])
    assert list(first) == ["format_version", "id", "title", "answerable", *CATEGORY_NAMES]
    assert first["format_version"] == FORMAT_VERSION
    for cls in EVIDENCE_CLASSES:
        assert list(first[cls.category]) == evidence_fields(cls)
    # one flat table: pandas reads every line with the same columns
    import pandas as pd

    table = pd.read_json(path, lines=True)
    assert len(table) == len(rows) and list(table.columns) == list(first)


def test_an_unanswerable_question_round_trips_with_null_categories(tmp_path):
    row = ShortcutQuestion("q9", "Title", False)
    path = write_shortcut_questions(tmp_path / "s.jsonl", [row])
    assert json.loads(path.read_text())["Position"] is None
    assert read_shortcut_questions(path) == [row]


@pytest.mark.parametrize("edit, message", [
    (lambda o: o["Similarity"].update(margin="high"), r"line 2: Similarity: field 'margin'"),
    (lambda o: o["Keyword"].pop("next_to_answer"), r"line 2: Keyword: field 'next_to_answer'"),
    (lambda o: o["Keyword"].update(next_to_answer=[1, 2]), r"line 2: Keyword: field 'next_to_answer'.*strings"),
    (lambda o: o.update(format_version=FORMAT_VERSION + 1), r"newer MRCLens"),
    (lambda o: o.pop("id"), r"line 2: field 'id'"),
])
def test_a_malformed_line_is_refused_naming_it(rows, tmp_path, edit, message):
    path = write_shortcut_questions(tmp_path / "s.jsonl", rows[:3])
    lines = path.read_text(encoding="utf-8").splitlines()
    obj = json.loads(lines[1])
    edit(obj)
    lines[1] = json.dumps(obj)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ArtifactError, match=message):
        read_shortcut_questions(path)


def test_a_missing_file_or_a_duplicate_key_is_refused(tmp_path):
    with pytest.raises(ArtifactError, match="not found.*--evidence"):
        read_shortcut_questions(tmp_path / "none.jsonl")
    bad = tmp_path / "dup.jsonl"
    bad.write_text('{"id": "a", "id": "b"}\n', encoding="utf-8")
    with pytest.raises(ArtifactError, match="twice on line 1"):
        read_shortcut_questions(bad)


def _documented_fields() -> set[str]:
    """The fields the docs' table defines (``docs/stats-and-check.md``, "Which questions carry a shortcut")."""
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("## Which questions carry a shortcut"):]
    return set(re.findall(r"^\| `([\w.]+)` \| [^|]", section, flags=re.M))


def test_every_field_is_documented_and_every_documented_field_exists(rows):
    line = rows[0].to_json()
    written = {k for k in line if k not in CATEGORY_NAMES}
    written |= {f"{cls.category}.{name}" for cls in EVIDENCE_CLASSES for name in evidence_fields(cls)}
    documented = _documented_fields()
    assert documented == written, (sorted(written - documented), sorted(documented - written))
    assert {cls.category for cls in EVIDENCE_CLASSES} == set(CATEGORY_NAMES)
