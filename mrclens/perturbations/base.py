"""What every ablation shares: its input parse, change records, seeding, insertion.

Rules (MRCLens issue 3; ablations from Zhong, Wang & Xing, DataPerf@ICML 2022):

* **Insertion.** Inserting text ``T`` at character offset ``k`` gives
  ``context[:k] + T + " " + context[k:]``; every ``answer_start >= k`` moves by ``len(T) + 1``.
* **Invariant.** After every edit, for every gold answer of every question,
  ``context[answer_start : answer_start + len(text)] == text`` (:func:`check_answers`).
* **Randomness.** Each generator is seeded from (global seed, ablation id, key), where the key is
  the paragraph id (the id of the paragraph's first question), through sha256 — never Python's
  ``hash()`` — so results do not depend on processing order and equal seeds give equal output.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import Any

from mrclens.errors import InvariantError
from mrclens.parsing import ParsedText
from mrclens.squad import Answer, Paragraph, Question
from mrclens.units import answer_unit_indices

#: A change record: ``{"changed": bool, "reason": str | None, "detail": dict}``.
Change = dict[str, Any]


@dataclass(frozen=True)
class ExampleParse:
    """The parses an ablation gets with one paragraph.

    Attributes:
        context: the context's parse with tokens and sentences (character offsets).
        questions: question id → the question's parse with tokens and coarse POS tags.
        units: the paragraph's sentence units (:func:`mrclens.units.sentence_units`, merged over
            every gold answer of the paragraph), as ``(start, end)`` character spans.
        pool: unrelated text from the whole set, for the controls
            (:class:`mrclens.perturbations.controls.InsertionPool`); ``None`` for the ablations.
        resources: ablation id → what that ablation's ``prepare`` built once from the whole set
            (e.g. e10's decoy answers, :class:`mrclens.perturbations.ablations.e10_decoy_statement.DecoyPool`);
            a control gets its ablation's entry too. Empty for ablations without ``prepare``.
    """

    context: ParsedText
    questions: dict[str, ParsedText]
    units: list[tuple[int, int]]
    pool: Any = None
    resources: dict[str, Any] = field(default_factory=dict)


def changed(**detail: Any) -> Change:
    """A change record for an item that was changed; ``detail`` says what changed."""
    return {"changed": True, "reason": None, "detail": detail}


def unchanged(reason: str, **detail: Any) -> Change:
    """A change record for an item left as it was, with the ``reason`` (a short snake_case code)."""
    return {"changed": False, "reason": reason, "detail": detail}


def make_rng(seed: int, ablation_id: str, key: str) -> random.Random:
    """A generator seeded from sha256 of ``(seed, ablation_id, key)`` (stable across runs and platforms)."""
    digest = hashlib.sha256(f"{seed}\x1f{ablation_id}\x1f{key}".encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def answer_spans(question: Question) -> list[tuple[int, int]]:
    """``(answer_start, answer_end)`` character spans of the question's gold answers."""
    return [(a.answer_start, a.answer_end) for a in question.answers]


def non_answer_units(units: list[tuple[int, int]], question: Question) -> list[int]:
    """Indices of the units that overlap none of ``question``'s gold answers, in order."""
    hit = answer_unit_indices(units, answer_spans(question))
    return [i for i in range(len(units)) if i not in hit]


def copy_question(q: Question, *, question: str | None = None, answers: list[Answer] | None = None) -> Question:
    """A new question object with a new question text and/or answers; ``q`` is never mutated.

    Unchanged parts (answer objects, ``extra``) are shared with ``q``: no ablation mutates them.
    """
    return Question(q.id, q.question if question is None else question,
                    q.answers if answers is None else answers, q.is_impossible, q.extra)


def rewrite_questions(example: Paragraph, rewrite) -> tuple[Paragraph, dict[str, Change]]:
    """The loop shared by e4, e5 and c4: every question's text rewritten, in order; context and answers unchanged.

    ``rewrite(question)`` returns ``(new text, detail)`` or ``(None, reason)``. A rewritten question
    gets the record ``changed(old=<its text>, new=<new text>, **detail)``; one left as it was keeps
    its question object and gets ``unchanged(reason)``.

    Returns:
        ``(new paragraph, {question id: change record})``.
    """
    questions, records = [], {}
    for q in example.questions:
        new, outcome = rewrite(q)
        if new is None:
            records[q.id] = unchanged(outcome)
            questions.append(q)
        else:
            records[q.id] = changed(old=q.question, new=new, **outcome)
            questions.append(copy_question(q, question=new))
    return Paragraph(example.context, questions), records


def check_answers(paragraph: Paragraph, where: str = "") -> None:
    """Check the offset invariant for every gold answer of every question of ``paragraph``.

    Raises:
        InvariantError: some ``context[answer_start : answer_start + len(text)] != text``
            (names the question id and ``where``, e.g. the ablation id).
    """
    ctx = paragraph.context
    for q in paragraph.questions:
        for a in q.answers:
            if a.answer_start < 0 or ctx[a.answer_start : a.answer_end] != a.text:
                raise InvariantError(
                    f"{where}: question {q.id}: answer {a.text!r} no longer at answer_start {a.answer_start}"
                )


def reorder_units(paragraph: Paragraph, units: list[tuple[int, int]], order: list[int], where: str = "") -> Paragraph:
    """The paragraph with its sentence units joined in ``order``, every answer moved with its unit.

    Rule (shared by e3, e9 and c9): the units' texts are joined in ``order`` (the original unit
    index at each new position) with single spaces; whitespace between units in the original is
    replaced by one space and text outside the units (whitespace only) is dropped. An answer
    inside unit ``u`` keeps its offset relative to the start of ``u``.

    Args:
        paragraph: the paragraph (not changed).
        units: its sentence units, ``(start, end)`` character spans (every answer lies in one).
        order: a permutation of ``range(len(units))``.
        where: names the caller in errors (e.g. ``"e3"``).

    Returns:
        a new paragraph with the same questions and answer texts.

    Raises:
        InvariantError: an answer lies in no unit (never expected: units are merged across answers).
    """
    ctx = paragraph.context
    new_start: dict[int, int] = {}
    pieces = []
    pos = 0
    for u in order:
        s, e = units[u]
        new_start[u] = pos
        pieces.append(ctx[s:e])
        pos += e - s + 1

    def move(a: Answer) -> Answer:
        for u, (s, e) in enumerate(units):
            if s <= a.answer_start and a.answer_end <= e:
                return Answer(a.text, new_start[u] + a.answer_start - s)
        raise InvariantError(f"{where}: answer {a.text!r} at {a.answer_start} lies in no sentence unit")

    return Paragraph(" ".join(pieces), [copy_question(q, answers=[move(a) for a in q.answers]) for q in paragraph.questions])


def insert_text(paragraph: Paragraph, offset: int, text: str) -> Paragraph:
    """Insert ``text`` and one space at character ``offset`` of the context; shift answers.

    Rule: ``context[:k] + T + " " + context[k:]``; every ``answer_start >= k`` moves by
    ``len(T) + 1``; answers before ``k`` keep their offsets, so every answer still matches (the
    driver checks this with :func:`check_answers` after every ablation).

    Returns:
        a new paragraph (the input is not changed).

    Raises:
        ValueError: ``offset`` is outside ``0 … len(context)``.
        InvariantError: an answer would be cut by the insertion (``answer_start < k < end``).
    """
    ctx = paragraph.context
    if not 0 <= offset <= len(ctx):
        raise ValueError(f"insertion offset {offset} is outside the context (length {len(ctx)})")
    shift = len(text) + 1
    questions = []
    for q in paragraph.questions:
        for a in q.answers:
            if a.answer_start < offset < a.answer_end:
                raise InvariantError(f"question {q.id}: inserting at {offset} would cut the answer {a.text!r} at {a.answer_start}")
        answers = [Answer(a.text, a.answer_start + shift if a.answer_start >= offset else a.answer_start) for a in q.answers]
        questions.append(copy_question(q, answers=answers))
    return Paragraph(ctx[:offset] + text + " " + ctx[offset:], questions)


def _insert_per_question(example: Paragraph, parsed: ExampleParse, rng: random.Random, text_for,
                         choose_offset) -> tuple[Paragraph, dict[str, Change]]:
    """The loop shared by e1/e2 and e6–e8: per question build a text, pick a non-answer unit, insert.

    ``text_for(question, parse)`` returns ``(text, None)`` or ``(None, reason)``; the unit is
    drawn uniformly from the question's non-answer units; ``choose_offset(unit_span, rng)`` gives
    the character offset to insert at. Only single-question paragraphs (the truncated set) change.
    """
    records: dict[str, Change] = {}
    current = example
    for q in example.questions:
        text, reason = text_for(q, parsed.questions[q.id])
        if text is None:
            records[q.id] = unchanged(reason)
            continue
        if len(example.questions) > 1:
            records[q.id] = unchanged("paragraph_has_several_questions")
            continue
        candidates = non_answer_units(parsed.units, q)
        if not candidates:
            records[q.id] = unchanged("no_non_answer_unit")
            continue
        unit = rng.choice(candidates)
        offset = choose_offset(parsed.units[unit], rng)
        current = insert_text(current, offset, text)
        records[q.id] = changed(inserted=text, offset=offset, unit=unit)
    return current, records


def insert_before_unit(example: Paragraph, parsed: ExampleParse, rng: random.Random, text_for) -> tuple[Paragraph, dict[str, Change]]:
    """Shared rule of e1/e2: insert a text built from the question at the start of a random non-answer unit.

    For each question (in order; on the truncated set there is exactly one): ``text_for(question,
    parse)`` returns ``(text, None)`` or ``(None, reason)``; the text is inserted at the start
    offset of one unit drawn uniformly from the question's non-answer units.
    """
    return _insert_per_question(example, parsed, rng, text_for, lambda span, _rng: span[0])


def insert_in_unit(example: Paragraph, parsed: ExampleParse, rng: random.Random, text_for) -> tuple[Paragraph, dict[str, Change]]:
    """Shared rule of e6–e8: insert a text at a random token boundary inside a random non-answer unit.

    A token boundary inside unit ``[s, e)`` is the start offset of a context token in that unit
    that is the unit's first token or is preceded by whitespace (so the insertion never splits
    a word from its punctuation or clitic). The unit is drawn uniformly from the question's
    non-answer units, then the boundary uniformly from that unit's boundaries.
    """
    ctx = example.context

    def boundary(span: tuple[int, int], rng: random.Random) -> int:
        s, e = span
        bounds = [t for t in parsed.context.starts if s <= t < e and (t == s or ctx[t - 1].isspace()) and not ctx[t].isspace()]
        return rng.choice(bounds or [s])

    return _insert_per_question(example, parsed, rng, text_for, boundary)


def tokens_with_pos(parse: ParsedText, tags: set[str]) -> str | None:
    """The tokens of ``parse`` whose coarse POS is in ``tags``, in order, joined by single spaces (``None`` if none)."""
    if parse.pos is None:
        raise ValueError("the question parse has no POS tags (parse_texts(..., pos=True))")
    words = [parse.text[s:e] for s, e, p in zip(parse.starts, parse.ends, parse.pos) if p in tags]
    return " ".join(words) if words else None
