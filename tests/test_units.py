"""mrclens.units: sentence units merged across answers; answer / non-answer units."""

from __future__ import annotations

import pytest

from mrclens.parsing import ParsedText, parse_texts
from mrclens.units import answer_unit_indices, sentence_units


def _parse(text: str, sent_starts: list[int]) -> ParsedText:
    return ParsedText(text, [0], [1], None, None, sent_starts, None)


CTX = "One is here. Two is there. Three is far."
#      0           12 13          26 27         40


def test_plain_sentences_trimmed():
    p = _parse(CTX, [0, 13, 27])
    assert sentence_units(CTX, p, []) == [(0, 12), (13, 26), (27, 40)]


def test_answer_crossing_a_boundary_merges_sentences():
    p = _parse(CTX, [0, 13, 27])
    assert sentence_units(CTX, p, [(8, 16)]) == [(0, 26), (27, 40)]
    # a chain of answers merges transitively; a later answer can extend the group
    assert sentence_units(CTX, p, [(8, 16), (20, 30)]) == [(0, 40)]
    assert sentence_units(CTX, p, [(20, 30)]) == [(0, 12), (13, 40)]


def test_whitespace_and_answers_at_unit_edges():
    text = "  A b.\n\nC d.  "
    p = _parse(text, [2, 8])
    assert sentence_units(text, p, []) == [(2, 6), (8, 12)]
    # an answer holding trailing whitespace keeps it inside its unit
    assert sentence_units(text, p, [(8, 13)]) == [(2, 6), (8, 13)]
    # a whitespace-only tile without answers is dropped
    assert sentence_units(" x. ", _parse(" x. ", [1, 3]), []) == [(1, 3)]


def test_answer_units():
    units = [(0, 12), (13, 26), (27, 40)]
    assert answer_unit_indices(units, [(0, 3)]) == {0}
    assert answer_unit_indices(units, [(0, 3), (30, 33)]) == {0, 2}
    assert answer_unit_indices(units, [(12, 13)]) == set()  # the space between units
    assert answer_unit_indices(units, []) == set()


def test_errors():
    with pytest.raises(ValueError, match="sentences"):
        sentence_units("a", ParsedText("a", [0], [1]), [])
    with pytest.raises(ValueError, match="different text"):
        sentence_units("b", _parse("a", [0]), [])


def test_with_spacy_sentences(tmp_path):
    text = "The Normans were a people. They gave their name to Normandy. It is in France."
    (p,) = parse_texts([text], sentences=True, cache_dir=tmp_path)
    units = sentence_units(text, p, [(text.index("Normandy"), text.index("Normandy") + 8)])
    assert [text[s:e] for s, e in units] == ["The Normans were a people.", "They gave their name to Normandy.", "It is in France."]
    units = sentence_units(text, p, [(text.index("people"), text.index("They") + 4)])
    assert [text[s:e] for s, e in units] == ["The Normans were a people. They gave their name to Normandy.", "It is in France."]
