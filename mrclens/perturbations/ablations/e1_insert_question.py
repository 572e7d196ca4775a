"""e1 — Similarity bias — insert the whole question before a non-answer sentence (truncated set).

Rule (MRCLens issue 3; ablation from Zhong, Wang & Xing, DataPerf@ICML 2022): insert the full
question text, as written and stripped of surrounding whitespace, followed by one space, at the
start of one non-answer sentence unit drawn uniformly at random. Answer offsets at or after the
insertion move by ``len(question) + 1``.

Unchanged (with reason): ``empty_question`` (no word token: blank or punctuation only), ``no_non_answer_unit`` (every unit
holds a gold answer).

Unanswerable questions (SQuAD v2.0, no gold answer): Every sentence unit of a question without
answers is a non-answer unit, so the question is inserted before a random sentence of the whole
context (a one-sentence context included).
"""

from __future__ import annotations

from mrclens.perturbations.base import insert_before_unit
from mrclens.perturbations.registry import Ablation, register


_NOT_WORDS = {"PUNCT", "SPACE"}


def _text(question, parse):
    text = question.question.strip()
    if not any(p not in _NOT_WORDS for p in parse.pos or []):
        return None, "empty_question"
    return text, None


def insert_question(example, parsed, rng):
    """Apply e1 to one paragraph (one question on the truncated set).

    Args:
        example: a :class:`mrclens.squad.Paragraph`.
        parsed: its :class:`mrclens.perturbations.base.ExampleParse`.
        rng: a ``random.Random`` seeded by the driver.

    Returns:
        ``(new paragraph, {question id: change record})``; the detail holds ``inserted`` (the
        text), ``offset`` (character offset in the original context) and ``unit`` (unit index).

    Raises:
        InvariantError: an answer offset broke (never expected).
    """
    return insert_before_unit(example, parsed, rng, _text)


E1 = register(Ablation(
    id="e1",
    name="insert question",
    category="Similarity",
    eval_set="truncated",
    description="Insert the whole question at the start of a random sentence that holds no answer.",
    no_answer_rule='Every sentence unit of a question without answers is a non-answer unit, so the question is inserted before a random sentence of the whole context (a one-sentence context included).',
    bias_signal="large_drop",
    apply=insert_question,
    other_direction='The reader is not pulled towards a sentence that repeats the question: it does not locate the answer by lexical overlap alone.',
))
