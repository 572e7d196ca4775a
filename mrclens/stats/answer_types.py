"""Coarse answer types from spaCy part-of-speech tags and named entities.

The categories follow the answer-type analysis of SQuAD (Rajpurkar et al. 2016, Table 2:
date, other numeric, person, location, other entity, common noun phrase, verb phrase,
clause, ...), coarsened to eight:

``date``, ``number``, ``person``, ``location``, ``other_entity``, ``noun_phrase``,
``verb_phrase_clause``, ``other``.

Each answer text is parsed on its own (``parse_texts(..., pos=True, entities=True)``): the
tagger and NER see the answer span, not its sentence. This is a deliberate speed trade-off
(running NER over every context costs about 6× more on SQuAD) and is what the types mean here.
"""

from __future__ import annotations

from mrclens.parsing import ParsedText

#: The answer-type labels, in report order.
ANSWER_TYPES = ("date", "number", "person", "location", "other_entity", "noun_phrase", "verb_phrase_clause", "other")

#: spaCy (OntoNotes) entity label → coarse type.
ENTITY_TYPES = {
    "DATE": "date",
    "TIME": "date",
    "CARDINAL": "number",
    "QUANTITY": "number",
    "MONEY": "number",
    "PERCENT": "number",
    "ORDINAL": "number",
    "PERSON": "person",
    "GPE": "location",
    "LOC": "location",
    "FAC": "location",
}

_FINITE_VERB_TAGS = {"VB", "VBD", "VBP", "VBZ", "MD"}


def coarse_answer_type(parsed: ParsedText) -> str:
    """The coarse type of one answer text from its spaCy parse (POS tags and entities).

    Rules, first match wins:

    1. An entity covering at least half of the answer's non-space characters gives its type:
       DATE/TIME → ``date``; CARDINAL/QUANTITY/MONEY/PERCENT/ORDINAL → ``number``;
       PERSON → ``person``; GPE/LOC/FAC → ``location``; any other label (ORG, NORP, EVENT,
       WORK_OF_ART, LAW, LANGUAGE, PRODUCT) → ``other_entity``.
    2. Every non-punctuation token is a number (POS ``NUM``) → ``number``.
    3. The first non-punctuation token is a verb (POS ``VERB``/``AUX``, e.g. "building a
       bridge"), or any token is a finite verb or modal (tags VB, VBD, VBP, VBZ, MD: a
       clause such as "because it was cheaper") → ``verb_phrase_clause``.
    4. Any token is a noun, proper noun or pronoun → ``noun_phrase``.
    5. Otherwise (adjectives, adverbs, prepositional phrases, punctuation) → ``other``.

    Args:
        parsed: the parse of the answer text with ``pos=True, entities=True``.

    Returns:
        one of :data:`ANSWER_TYPES`.

    Raises:
        ValueError: the parse lacks POS tags or entities.
    """
    if parsed.pos is None or parsed.tags is None or parsed.ents is None:
        raise ValueError("coarse_answer_type needs a parse with pos=True and entities=True")
    text = parsed.text
    n_chars = sum(1 for ch in text if not ch.isspace())
    if n_chars == 0:
        return "other"
    best_label, best_cover = None, 0
    for start, end, label in parsed.ents:
        cover = sum(1 for ch in text[start:end] if not ch.isspace())
        if cover > best_cover:
            best_label, best_cover = label, cover
    if best_label is not None and 2 * best_cover >= n_chars:
        return ENTITY_TYPES.get(best_label, "other_entity")
    words = [(p, t) for p, t in zip(parsed.pos, parsed.tags) if p not in ("PUNCT", "SPACE", "SYM")]
    if not words:
        return "other"
    if all(p == "NUM" for p, _ in words):
        return "number"
    if words[0][0] in ("VERB", "AUX") or any(t in _FINITE_VERB_TAGS for _, t in words):
        return "verb_phrase_clause"
    if any(p in ("NOUN", "PROPN", "PRON") for p, _ in words):
        return "noun_phrase"
    return "other"
