"""Hand-made parses for rule tests: whitespace tokens, given sentence starts and POS tags."""

from __future__ import annotations

import re

from mrclens.parsing import ParsedText
from mrclens.perturbations.base import ExampleParse, answer_spans
from mrclens.squad import Answer, Paragraph, Question
from mrclens.units import sentence_units


def hand_parse(text: str, *, sentences: bool = False, pos: list[str] | None = None) -> ParsedText:
    """Tokens = maximal runs of word characters or single other non-space characters.

    Sentences start at the first token and after every token ``.``, ``!`` or ``?``.
    """
    toks = [(m.start(), m.end()) for m in re.finditer(r"\w+|[^\w\s]", text)]
    starts = [s for s, _ in toks]
    ends = [e for _, e in toks]
    sent_starts = None
    if sentences:
        sent_starts = [starts[0]] if starts else []
        for i, (s, e) in enumerate(toks[:-1]):
            if text[s:e] in {".", "!", "?"}:
                sent_starts.append(starts[i + 1])
    if pos is not None:
        assert len(pos) == len(starts), (pos, [text[s:e] for s, e in toks])
    return ParsedText(text, starts, ends, pos, pos, sent_starts, None)


def question(qid: str, text: str, answers: list[tuple[str, int]]) -> Question:
    return Question(qid, text, [Answer(t, s) for t, s in answers])


def example(context: str, questions: list[Question], qpos: dict[str, list[str]]) -> tuple[Paragraph, ExampleParse]:
    """A paragraph and its parse, with units merged over all its answers."""
    par = Paragraph(context, questions)
    cparse = hand_parse(context, sentences=True)
    spans = [s for q in questions for s in answer_spans(q)]
    units = sentence_units(context, cparse, spans)
    qparses = {q.id: hand_parse(q.question, pos=qpos[q.id]) for q in questions}
    return par, ExampleParse(cparse, qparses, units)
