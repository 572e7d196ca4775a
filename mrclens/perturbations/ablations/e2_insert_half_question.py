"""e2 — Similarity bias — insert the first half of the question before a non-answer sentence (truncated set).

Rule (MRCLens issue 3; ablation from Zhong, Wang & Xing, DataPerf@ICML 2022): let ``n`` be the
number of word tokens of the question (spaCy tokens whose coarse POS is neither ``PUNCT`` nor
``SPACE``); take its first ``ceil(n / 2)`` word tokens and insert the question's character span
from the first to the last of them (punctuation in between kept as written), placed as in e1: at
the start of one random non-answer sentence unit, followed by one space.

Unchanged (with reason): ``no_word_tokens`` (no word in the question), ``no_non_answer_unit``.

Unanswerable questions (SQuAD v2.0, no gold answer): As e1: the half question is inserted before a
random sentence of the whole context, since no unit holds an answer.
"""

from __future__ import annotations

from mrclens.perturbations.base import insert_before_unit
from mrclens.perturbations.registry import Ablation, register

_NOT_WORDS = {"PUNCT", "SPACE"}


def first_half(parse) -> str | None:
    """The question's character span covering its first ``ceil(n/2)`` word tokens (``None`` if ``n == 0``).

    Example: "What is the capital of France?" has 6 word tokens → "What is the".
    """
    words = [i for i, p in enumerate(parse.pos) if p not in _NOT_WORDS and parse.text[parse.starts[i]:parse.ends[i]].strip()]
    if not words:
        return None
    chosen = words[: (len(words) + 1) // 2]
    return parse.text[parse.starts[chosen[0]] : parse.ends[chosen[-1]]]


def _text(question, parse):
    text = first_half(parse)
    return (text, None) if text else (None, "no_word_tokens")


def insert_half_question(example, parsed, rng):
    """Apply e2 to one paragraph; same arguments, return value and errors as e1's ``insert_question``."""
    return insert_before_unit(example, parsed, rng, _text)


E2 = register(Ablation(
    id="e2",
    name="insert half question",
    category="Similarity",
    eval_set="truncated",
    description="Insert the first half of the question's words at the start of a random sentence that holds no answer.",
    no_answer_rule='As e1: the half question is inserted before a random sentence of the whole context, since no unit holds an answer.',
    bias_signal="large_drop",
    apply=insert_half_question,
    other_direction="Half of the question's words next to a wrong sentence do not pull the reader: it does not locate the answer by partial overlap.",
))
