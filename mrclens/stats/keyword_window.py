"""Whether the question's words crowd around the answer span more than anywhere else: the Keyword category's verdict
figure of the data (MRCLens issue 54).

A reader can find an answer by **spotting the question's words and taking the span beside them**, without reading
the sentence (the keyword-matching shortcut: Weissenborn et al. 2017, "Making Neural QA as Simple as Possible but
not Simpler", whose reader gets far on word-in-question features of each context token; the sliding window of
Richardson et al. 2013 scores a span by the question words around it; Zhong, Wang & Xing 2022 probe it with e6–e8).
A figure at the level of sentences (the chance-corrected top-1 share of the sentence holding most of the question's
content words, :func:`mrclens.stats.chance.top_share`) barely moves with it, because clean SQuAD answers already lie
in that sentence; the shortcut is the **neighbourhood of the span**, so the figure compares places, not sentences.

Per answerable question (:func:`window_scores`): the context's word tokens (:func:`mrclens.stats.text.word_tokens`),
the first gold answer's tokens ``[lo, hi)`` (those its characters overlap, :func:`answer_token_range`), and every
place a span of as many tokens could take (start ``s = 0 … T − (hi − lo)``). A place's score is the number of the
question's distinct content words (:func:`mrclens.stats.text.is_content_word`) among the :data:`WINDOW` tokens
before the span and the :data:`WINDOW` tokens after it (the span's own tokens left out). The figure
(:func:`keyword_window_top`) is the chance-corrected top-1 hit of the answer's own place by those scores when some
place holds at least one question word, else 0: ``100 × (h − 1/n) / (1 − 1/n)`` over the ``n`` places, ``h = 1/t``
when the answer's place ties with ``t`` places at the highest score and 0 otherwise (Cohen's kappa for one pick, as
:func:`mrclens.stats.chance.top_share`). So 100 = the question's words crowd around the answer span and nowhere else as
much, 0 = a place drawn at random does as well, below 0 = they crowd elsewhere. Places next to the answer share most of
its neighbourhood, so a clean dataset sits near 0 (SQuAD v1.1: about 3) and a shortcut moves it.

:data:`WINDOW` was chosen on one set of SQuAD v1.1 train articles and validated on others
(``benchmarks/cue_parameters.py``; BENCHMARKS.md).

Examples:
    >>> q = "when did charles rebuild prague castle".split()
    >>> clean = "prague castle was rebuilt in 1344 by charles the fourth".split()    # answer: 1344, token 5
    >>> window_scores(q, clean, 5, 6), keyword_window_top(q, clean, 5, 6)
    ([1, 1, 2, 2, 2, 1, 1, 0, 1, 1], -11.1111111111)
    >>> cued = "the castle was rebuilt in prague castle charles 1344 by the king".split()    # the question's words before it
    >>> window_scores(q, cued, 8, 9), keyword_window_top(q, cued, 8, 9)    # ties with the place before those words
    ([1, 0, 2, 2, 3, 2, 2, 2, 3, 2, 1, 0], 45.4545454545)
"""

from __future__ import annotations

import bisect
from typing import Sequence

from mrclens.stats.chance import top_share
from mrclens.stats.text import is_content_word

#: The tokens on each side of a span that make its neighbourhood (``benchmarks/cue_parameters.py``; module docstring).
WINDOW = 3


def answer_token_range(starts: Sequence[int], ends: Sequence[int], answer_start: int,
                       answer_end: int) -> tuple[int, int] | None:
    """``[lo, hi)``: the indices of the word tokens (character ``starts``/``ends``, ascending, as
    :func:`mrclens.stats.text.word_token_spans` gives them) that the answer's characters ``[answer_start,
    answer_end)`` overlap; ``None`` when it overlaps none.

    >>> answer_token_range([0, 4, 8], [3, 7, 12], 4, 12), answer_token_range([0, 4], [3, 7], 3, 4)
    ((1, 3), None)
    """
    lo = bisect.bisect_right(ends, answer_start)
    hi = bisect.bisect_left(starts, answer_end)
    return (lo, hi) if hi > lo else None


def window_scores(question_words: Sequence[str], context_words: Sequence[str], lo: int, hi: int,
                  window: int = WINDOW, stop_words: frozenset[str] | None = None) -> list[int]:
    """Every place's score (module docstring): for each start ``s`` of a span of ``hi − lo`` tokens, the number of
    the question's distinct content words among the ``window`` tokens before it and the ``window`` after it.

    Args:
        question_words, context_words: word tokens (lower-cased).
        lo, hi: the answer's tokens in ``context_words`` (:func:`answer_token_range`).
        window: tokens on each side (:data:`WINDOW`).
        stop_words: another language's stop words (:func:`mrclens.stats.text.is_content_word`).

    Returns:
        one score per place, ``T − (hi − lo) + 1`` of them (the answer's own place is ``lo``).
    """
    length = hi - lo
    places = len(context_words) - length + 1
    wanted = {w for w in question_words if is_content_word(w, stop_words)}
    covered: dict[str, set[int]] = {}
    for p, w in enumerate(context_words):
        if w in wanted:  # token p lies before the span at s in (p, p + window], after it at s in [p - length - window + 1, p - length]
            got = covered.setdefault(w, set())
            got.update(range(max(p + 1, 0), min(p + window, places - 1) + 1))
            got.update(range(max(p - length - window + 1, 0), min(p - length, places - 1) + 1))
    scores = [0] * max(places, 0)
    for starts in covered.values():
        for s in starts:
            scores[s] += 1
    return scores


def keyword_window_top(question_words: Sequence[str], context_words: Sequence[str], lo: int, hi: int,
                       window: int = WINDOW, stop_words: frozenset[str] | None = None) -> float | None:
    """One question's Keyword figure (module docstring): the chance-corrected top-1 hit (percent) of the answer's
    place by :func:`window_scores`, 0 when no place holds a question word.

    Returns:
        −100–100, or ``None`` when there are fewer than two places or ``[lo, hi)`` is not a range of the context's
        tokens.
    """
    if not 0 <= lo < hi <= len(context_words):
        return None
    scores = window_scores(question_words, context_words, lo, hi, window, stop_words)
    if len(scores) < 2:
        return None
    return top_share(scores, lo) if max(scores) >= 1 else 0.0
