"""Shared pieces of the property-based reader tests (Hypothesis; MRCLens issue 35, the record contract).

* :func:`mutate`: one generic mutator of decoded JSON — it walks to any dict key or list element of a
  record and deletes it, swaps its type (``"15"``, null, a list, an object, a float, NaN, a huge int …)
  or moves an integer out of range — so every reader meets the same damage, not hand-picked cases.
* :func:`jsonl_file`: lines of a JSON Lines file, mutated, with foreign lines (another format's
  records, a non-object, text that is not JSON, blank lines) inserted.
* :func:`check_span_read`: the contract every span reader must keep: :func:`mrclens.formats.read`
  never raises on bad data; either the file is refused (every error names the file and an item, and
  :func:`~mrclens.formats.load_dataset` raises :class:`~mrclens.errors.DataError`) or every record is
  accounted for — ``read == kept + skipped + dropped`` with ``read`` counted here, independently, from
  the file's text — and what was kept is valid SQuAD data.
"""

from __future__ import annotations

import copy
import json
import math
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from mrclens.errors import DataError, MRCLensError
from mrclens.formats import load_dataset, read
from mrclens.formats.squad_schema import parse_squad

#: Fixed, derandomized example budgets: every Hypothesis suite together stays well under a minute.
SETTINGS = settings(max_examples=100, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
CLI_SETTINGS = settings(SETTINGS, max_examples=20)

WORDS = ["Paris", "is", "the", "capital", "of", "France", "Zürich", "中文", "naïve", "1889", "tower", "river"]
#: Values a mutation puts where a field was (every JSON type, and the values issue 35 names).
ODD_VALUES = [None, True, False, 0, -1, 7, 10**20, -(10**20), 1.5, math.nan, "15", "", " ", "x", "<P>",
              [], [1, 2], ["a", 3, None, "d"], {}, {"a": 1}]
#: Whole lines that do not belong in the file at hand (one record each, if not blank).
FOREIGN_LINES = [
    json.dumps({"id": "f1", "title": "T", "context": "Paris is in France.", "question": "Where?",
                "answers": {"text": ["France"], "answer_start": [12]}}),
    json.dumps({"header": {"dataset": "Other", "split": "dev"}}),
    json.dumps({"context": "Paris.", "qas": [{"qid": "m9", "question": "What?", "answers": ["Paris"],
                                              "detected_answers": [{"text": "Paris", "char_spans": [[0, 4]]}]}]}),
    json.dumps({"document_text": "<P> a b </P>", "question_text": "q", "example_id": 5, "annotations": []}),
    json.dumps({"id": "mc1", "prompt": "He", "endings": ["a", "b"], "label": 0}),
    json.dumps({"data": []}),
    json.dumps([1, 2]),
    json.dumps("a string"),
    "not json {",
    "",
]


def sentence(draw, n_min: int = 2, n_max: int = 8) -> str:
    return " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=n_min, max_size=n_max)))


def _slots(obj: Any, depth: int = 0) -> list[tuple[Any, Any]]:
    """Every (container, key/index) inside ``obj``, depth first."""
    out = []
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else ()
    for key, value in items:
        out.append((obj, key))
        if depth < 6:
            out.extend(_slots(value, depth + 1))
    return out


@st.composite
def mutate(draw, obj: Any, max_mutations: int = 3) -> Any:
    """A deep copy of ``obj`` with 1 to ``max_mutations`` random edits: delete a key or element,
    replace a value with one of :data:`ODD_VALUES`, or move an integer out of range. The place is
    drawn by field name first, so every field of a format is damaged about equally often."""
    obj = copy.deepcopy(obj)
    for _ in range(draw(st.integers(1, max_mutations))):
        slots = _slots(obj)
        if not slots:
            break
        by_name: dict[str, list] = {}  # a field name first (list elements as one name), then one of its places:
        for slot in slots:             # a rare field (candidate_index) is hit as often as a frequent one
            by_name.setdefault(slot[1] if isinstance(slot[1], str) else "[]", []).append(slot)
        name = draw(st.sampled_from(sorted(by_name)))
        container, key = draw(st.sampled_from(by_name[name]))
        op = draw(st.sampled_from(["delete", "replace", "replace", "shift"]))
        value = container[key]
        if op == "delete":
            del container[key]
        elif op == "shift" and isinstance(value, int) and not isinstance(value, bool):
            container[key] = value + draw(st.sampled_from([-10**6, -3, -1, 1, 3, 10**6]))
        else:
            container[key] = copy.deepcopy(draw(st.sampled_from(ODD_VALUES)))
    return obj


@st.composite
def jsonl_file(draw, records: list[Any], max_mutations: int = 2) -> list[str]:
    """The lines of a JSON Lines file holding ``records`` (JSON values), three in four mutated
    (:func:`mutate`), with up to two :data:`FOREIGN_LINES` inserted anywhere."""
    lines = [json.dumps(draw(mutate(r, max_mutations)) if draw(st.integers(0, 3)) else r, ensure_ascii=False)
             for r in records]
    for _ in range(draw(st.integers(0, 2))):
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(FOREIGN_LINES)))
    return lines


def parse_line(line: str) -> Any:
    """The JSON value of one line, or ``None`` for a line that is blank or not JSON."""
    try:
        return json.loads(line) if line.strip() else None
    except json.JSONDecodeError:
        return None


_ITEM = re.compile(r"\b(line|record|row|article|paragraph|question) #?\d+")


#: The problems about a file as a whole (its item is the file).
FILE_LEVEL = ("cannot tell the format", "top level", "no 'data' list", "file is not", "no valid question left")


def names_an_item(problem) -> bool:
    """Whether a problem names the item it is about: a line, record or row number, an article
    or paragraph, or a question id; or it is about the file as a whole (:data:`FILE_LEVEL`)."""
    return bool(problem.qid or problem.title or _ITEM.search(problem.message)
                or problem.message.startswith(FILE_LEVEL))


def check_span_read(source, file: str, expected_records: int | None, on_invalid: str, **options) -> str:
    """Check the record contract of one span read (see the module docstring); ``expected_records``
    is the count of records in the file (``None``: not checked). Returns ``"refused"`` or ``"loaded"``."""
    try:
        loaded = read(source, on_invalid=on_invalid, **options)  # never raises on bad data ...
    except MRCLensError as err:  # ... but a Python object of no known kind is refused at once
        assert file == "<memory>" and "cannot read a Python" in str(err), err
        return "refused"
    if loaded.errors:
        for p in loaded.errors:
            assert p.file == file and names_an_item(p), str(p)
        with pytest.raises(DataError) as info:
            load_dataset(source, on_invalid=on_invalid, **options)
        assert str(info.value).splitlines()[0].startswith(file)
        return "refused"
    r = loaded.records
    kept = sum(1 for _ in loaded.dataset.iter_questions())
    assert r is not None and r.kept == kept
    if expected_records is not None:
        assert r.read == expected_records, (r, expected_records)
    assert r.read == r.kept + r.skipped + r.dropped, r
    skipped = [n for n in loaded.dataset.notes if n.severity == "skipped"]
    assert bool(skipped) or not r.skipped, r  # a skipped record has its note (a skipped header line holds none)
    assert len([n for n in skipped if n.qid is not None]) <= r.skipped
    for note in skipped:
        assert note.file == file and names_an_item(note), str(note)
    if on_invalid == "refuse":
        assert r.skipped == 0
    # what was kept is valid SQuAD data
    _, problems = parse_squad(loaded.dataset.to_json())
    assert not [p for p in problems if p.severity == "error"], problems[:3]
    if kept:
        assert sum(1 for _ in load_dataset(source, on_invalid=on_invalid, **options).iter_questions()) == kept
    return "loaded"
