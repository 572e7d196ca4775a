"""Baseline (b): the span of the expected answer type in the most similar sentence unit.

After Weissenborn et al. 2017 ("Making Neural QA as Simple as Possible but not Simpler",
CoNLL): the answer has the type the question word asks for
(:func:`~mrclens.stats.heuristics.answer_type.expected_answer_type`), and its surroundings
match the question. The unit is the TF-IDF-most-similar one (:mod:`mrclens.stats.similarity`);
the candidates are its typed spans (:mod:`mrclens.stats.heuristics.candidates`).
:meth:`mrclens.stats.heuristics.passage.PassageIndex.type_matched` prepares the inputs once
per context and calls :func:`choose_typed`.
"""

from __future__ import annotations

from typing import Sequence

from mrclens.stats.heuristics.answer_type import expected_answer_type
from mrclens.stats.heuristics.candidates import Candidate
from mrclens.stats.heuristics.first_k import first_k_span

#: Expected answer type -> candidate types to try, in order (the first group with a candidate wins).
TYPE_ORDER = {
    "date": (("date",), ("name",), ("number",)),
    "number": (("number",), ("name",), ("date",)),
    "location": (("location",), ("name",), ("date", "number")),
    "person": (("name",), ("date", "number")),
    "entity": (("name",), ("date", "number")),
    "clause": (("clause",), ("name",), ("date", "number")),
}


def choose_typed(
    context: str,
    unit: tuple[int, int],
    question: str,
    q_words: set[str],
    cands: Sequence[Candidate],
    cand_words: Sequence[set[str] | frozenset[str]],
    anchors: Sequence[tuple[int, int]],
    k: int,
) -> str:
    """Baseline (b)'s prediction in ``unit``: the span of the expected answer type closest to the question's words.

    Rule: candidates whose word tokens all occur in the question are dropped (an answer rarely
    repeats the question). Of the rest, those of the first type group of
    :data:`TYPE_ORDER` for :func:`expected_answer_type` that has any (``person``/``entity`` →
    ``name``; ``location`` → ``location``, else ``name``; ...); if no group has one, the first
    ``k`` whitespace tokens of the unit (:func:`first_k_prediction`). Among them, the one
    whose character distance to the nearest anchor (occurrence of a question content word in
    the unit) is smallest wins; ties, and units without anchors, go to the earliest candidate.

    Args:
        context: the paragraph text.
        unit: the chosen sentence unit, ``(start, end)`` characters.
        question: the question text.
        q_words: the question's word-token set (:func:`~mrclens.stats.text.word_tokens`).
        cands: the unit's candidates, sorted by start, then end.
        cand_words: the word-token set of each candidate's text, aligned with ``cands``.
        anchors: ``(start, end)`` characters of the unit's word tokens that are question
            content words (:func:`~mrclens.stats.text.is_content_word`).
        k: tokens for the fallback.

    Returns:
        the predicted answer text (a substring of ``context``: :func:`choose_typed_span`'s).
    """
    start, end = choose_typed_span(context, unit, question, q_words, cands, cand_words, anchors, k)
    return context[start:end]


def choose_typed_span(
    context: str,
    unit: tuple[int, int],
    question: str,
    q_words: set[str],
    cands: Sequence[Candidate],
    cand_words: Sequence[set[str] | frozenset[str]],
    anchors: Sequence[tuple[int, int]],
    k: int,
) -> tuple[int, int]:
    """Where :func:`choose_typed`'s prediction lies: ``(start, end)`` characters of ``context`` (arguments and rule
    as :func:`choose_typed`; the fallback's span is :func:`~mrclens.stats.heuristics.first_k.first_k_span`)."""
    cands = [c for c, words in zip(cands, cand_words) if not words <= q_words]
    chosen: list[Candidate] = []
    for types in TYPE_ORDER[expected_answer_type(question)]:
        chosen = [c for c in cands if c.type in types]
        if chosen:
            break
    if not chosen:
        return first_k_span(context, unit, k)
    if not anchors:
        return chosen[0].start, chosen[0].end

    def distance(c: Candidate) -> int:
        return min(max(a - c.end, c.start - b, 0) for a, b in anchors)

    c = min(chosen, key=distance)  # min() keeps the first of equal distances
    return c.start, c.end
