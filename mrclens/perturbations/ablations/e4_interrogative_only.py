"""e4 — Question bias — keep only the question's interrogative words (full set).

Rule (MRCLens issue 3; ablation from Zhong, Wang & Xing, DataPerf@ICML 2022): the new question is
the question's tokens whose lower-cased form is in the closed list :data:`INTERROGATIVES` (what,
which, who, whom, whose, when, where, why, how), in their original order and casing, joined by
single spaces, followed directly by ``"?"`` when the stripped question ended with ``"?"``
(e.g. "Who founded it and when?" → "Who when?"). The list is closed on purpose: taggers also
mark relative "that" as WDT, which is not interrogative.

Unchanged (with reason): ``no_interrogative_word``; ``already_interrogative_only`` (the rule
gives back the same question, e.g. "Why?").

Unanswerable questions (SQuAD v2.0, no gold answer): Same rule: the question is cut to its
interrogative words; the gold answer stays "no answer".
"""

from __future__ import annotations

from mrclens.perturbations.base import rewrite_questions
from mrclens.perturbations.registry import Ablation, register
from mrclens.vocabulary import WH_WORDS

INTERROGATIVES = frozenset(WH_WORDS)


def interrogative_question(parse) -> str | None:
    """The e4 question for one question parse (``None`` when it has no interrogative word)."""
    words = [w for w in parse.token_texts() if w.lower() in INTERROGATIVES]
    if not words:
        return None
    return " ".join(words) + ("?" if parse.text.strip().endswith("?") else "")


def interrogative_only(example, parsed, rng):
    """Apply e4 to every question of one paragraph (the context is unchanged; ``rng`` unused).

    Returns:
        ``(new paragraph, {question id: change record})``; the detail holds ``old`` and ``new``
        (the question texts).
    """

    def rewrite(q):
        new = interrogative_question(parsed.questions[q.id])
        if new is None:
            return None, "no_interrogative_word"
        if new == q.question:
            return None, "already_interrogative_only"
        return new, {}

    return rewrite_questions(example, rewrite)


E4 = register(Ablation(
    id="e4",
    name="interrogatives only",
    category="Question",
    eval_set="full",
    description="Keep only the interrogative words of the question (what, which, who, …).",
    no_answer_rule='Same rule: the question is cut to its interrogative words; the gold answer stays "no answer".',
    bias_signal="small_drop",
    apply=interrogative_only,
    other_direction="The reader needs the question's content words, not only its wh-words: it does not answer from the expected answer type alone.",
))
