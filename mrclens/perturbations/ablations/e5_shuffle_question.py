"""e5 — Question bias — shuffle the question's words (full set).

Rule (MRCLens issue 3; ablation from Zhong, Wang & Xing, DataPerf@ICML 2022): the question's word
tokens (spaCy tokens whose coarse POS is neither ``PUNCT`` nor ``SPACE``) are permuted among the
word positions; punctuation tokens (so a final ``"?"``) and the whitespace after each token stay
where they were. The sequence of words must differ from the original: the shuffle is redrawn
until it does, which is possible whenever at least two distinct words exist.
Example: "What is the capital of France?" → e.g. "France the What of is capital?".

Unchanged (with reason): ``fewer_than_two_distinct_words``.

Unanswerable questions (SQuAD v2.0, no gold answer): Same rule: the question's words are shuffled;
the gold answer stays "no answer".
"""

from __future__ import annotations

from mrclens.perturbations.base import rewrite_questions
from mrclens.perturbations.registry import Ablation, register

_NOT_WORDS = {"PUNCT", "SPACE"}


def shuffled_question(parse, rng) -> tuple[str, list[int]] | None:
    """The e5 question and the permutation of word-token indices (``None`` if fewer than two distinct words).

    The permutation lists, for each word position in order, the index (among the word tokens)
    of the word placed there.
    """
    text = parse.text
    toks = parse.token_texts()
    slots = [i for i, p in enumerate(parse.pos) if p not in _NOT_WORDS and toks[i].strip()]
    words = [toks[i] for i in slots]
    if len(set(words)) < 2:
        return None
    order = list(range(len(words)))
    while [words[j] for j in order] == words:
        rng.shuffle(order)
    new_toks = list(toks)
    for slot, j in zip(slots, order):
        new_toks[slot] = words[j]
    pieces = [text[: parse.starts[0]]] if parse.starts else []
    for i, tok in enumerate(new_toks):
        gap_end = parse.starts[i + 1] if i + 1 < len(toks) else len(text)
        pieces.append(tok + text[parse.ends[i] : gap_end])
    return "".join(pieces), order


def shuffle_question(example, parsed, rng):
    """Apply e5 to every question of one paragraph, in order, drawing from ``rng``.

    Returns:
        ``(new paragraph, {question id: change record})``; the detail holds ``old``, ``new`` and
        ``permutation``.
    """

    def rewrite(q):
        result = shuffled_question(parsed.questions[q.id], rng)
        if result is None:
            return None, "fewer_than_two_distinct_words"
        new, order = result
        return new, {"permutation": order}

    return rewrite_questions(example, rewrite)


E5 = register(Ablation(
    id="e5",
    name="shuffle question",
    category="Question",
    eval_set="full",
    description="Shuffle the order of the question's words.",
    no_answer_rule='Same rule: the question\'s words are shuffled; the gold answer stays "no answer".',
    bias_signal="small_drop",
    apply=shuffle_question,
    other_direction="The reader needs the question's word order: it reads the question as a sentence, not as a bag of words.",
))
