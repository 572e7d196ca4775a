"""Whether the answer sentence alone repeats a long stretch of the question: the Similarity category's verdict figure
of the data (MRCLens issue 54).

A question that **repeats a stretch of its answer sentence word for word** can be answered by finding that stretch,
without understanding either (the lexical-overlap shortcut: Jia & Liang 2017, "Adversarial Examples for Evaluating
Reading Comprehension Systems"; Sugawara et al. 2018, "What Makes Reading Comprehension Questions Easier?";
Bartolo et al. 2020, "Beat the AI", Table 4, measure it as the longest n-gram shared by question and passage:
SQuAD 3.0 words, their adversarial sets 2.0–2.2). The TF-IDF top-1 share
(:func:`mrclens.stats.chance.top_share` of the cosines) barely moves with such questions, because clean SQuAD
answers already lie in the most similar sentence about 60 % of the time beyond chance; the share of questions whose
answer sentence shares a *long* n-gram with them starts low (SQuAD v1.1: about 8 % beyond chance), so every
question that copies its sentence moves it by nearly a full point per percent of the questions.

Per answerable question and per sentence unit of its context, :func:`shared_content_run` is the longest word
n-gram the question and the unit share (consecutive word tokens, :func:`mrclens.stats.text.word_tokens`, equal in
both), **measured in content words** (:func:`mrclens.stats.text.is_content_word`: stop words, wh-words and lone
digits do not count), so that "of the" or "in the" never make a stretch long. The figure
(:func:`shared_ngram_top`) is the chance-corrected top-1 hit of the answer unit by those lengths when some unit
shares at least :data:`MIN_CONTENT_WORDS` content words with the question, else 0 (neither the cue nor a sentence
drawn at random finds the answer by it): ``100 × (h − 1/n) / (1 − 1/n)``, ``h = 1/t`` when the answer unit ties
with ``t`` units at the longest run and 0 otherwise (Cohen's kappa for one pick among ``n`` units, as
:func:`mrclens.stats.chance.top_share`). So 100 = the answer sentence alone repeats a long stretch of the question,
0 = no long stretch, or one that a sentence drawn at random holds as often, below 0 = another sentence repeats it.

:data:`MIN_CONTENT_WORDS` was chosen on one set of SQuAD v1.1 train articles and validated on others
(``benchmarks/cue_parameters.py``; BENCHMARKS.md): the shortest run whose figure moved the most per percent of
questions planted with the shortcut against the spread of clean 40-article subsets.

Examples:
    >>> q = "which army crossed the rhine at remagen in march 1945".split()
    >>> shared_content_run(q, "in march 1945 the us army crossed the rhine at remagen".split())    # army … remagen
    4
    >>> units = ["the rhine was crossed in march".split(), "in march 1945 the us army crossed the rhine at remagen".split()]
    >>> shared_ngram_top(q, units, 1), shared_ngram_top(q, units, 0)
    (100.0, -100.0)
    >>> shared_ngram_top(q, [units[0], "remagen lies on the rhine".split()], 1)    # no long stretch anywhere
    0.0
"""

from __future__ import annotations

from typing import Sequence

from mrclens.stats.chance import top_share
from mrclens.stats.text import is_content_word

#: The fewest content words a shared n-gram needs to count (``benchmarks/cue_parameters.py``; module docstring).
MIN_CONTENT_WORDS = 4


def shared_content_run(question_words: Sequence[str], unit_words: Sequence[str],
                       stop_words: frozenset[str] | None = None) -> int:
    """The longest word n-gram shared by the question and one sentence unit, in content words.

    Every common run of consecutive word tokens is found by dynamic programming over the unit positions of each
    question word (as :func:`mrclens.stats.overlap.longest_shared_ngram`); a run's length is the number of its
    tokens that are content words (:func:`mrclens.stats.text.is_content_word`; ``stop_words``: another language's).

    Args:
        question_words: the question's word tokens (lower-cased).
        unit_words: the unit's word tokens (lower-cased), in order.

    Returns:
        the number of content words of the longest shared run (0 when none is shared).

    >>> shared_content_run("who wrote the book of the dead".split(), "the book of the dead was written".split())
    2
    """
    positions: dict[str, list[int]] = {}
    for i, w in enumerate(unit_words):
        positions.setdefault(w, []).append(i)
    best = 0
    previous: dict[int, tuple[int, int]] = {}  # unit position -> (tokens, content words) of the run ending there
    for w in question_words:
        content = 1 if is_content_word(w, stop_words) else 0
        current: dict[int, tuple[int, int]] = {}
        for i in positions.get(w, ()):
            tokens, words = previous.get(i - 1, (0, 0))
            current[i] = (tokens + 1, words + content)
            best = max(best, words + content)
        previous = current
    return best


def shared_ngram_top(question_words: Sequence[str], units_words: Sequence[Sequence[str]], target: int | None,
                     min_words: int = MIN_CONTENT_WORDS, stop_words: frozenset[str] | None = None) -> float | None:
    """One question's Similarity figure (module docstring): the chance-corrected top-1 hit (percent) of unit
    ``target`` by the longest n-gram each unit shares with the question (:func:`shared_content_run`), 0 when no unit
    shares ``min_words`` content words or more.

    Args:
        question_words: the question's word tokens (lower-cased).
        units_words: the word tokens of each sentence unit of the context, in order.
        target: the index of the unit holding the (first gold) answer.
        min_words: the fewest content words of a run that counts (:data:`MIN_CONTENT_WORDS`).

    Returns:
        −100–100, or ``None`` when the context has fewer than two units or ``target`` is ``None`` or out of range.
    """
    if target is None or len(units_words) < 2 or not 0 <= target < len(units_words):
        return None
    return top_of_runs([shared_content_run(question_words, words, stop_words) for words in units_words], target,
                       min_words)


def top_of_runs(runs: Sequence[int], target: int, min_words: int = MIN_CONTENT_WORDS) -> float | None:
    """:func:`shared_ngram_top` from each unit's :func:`shared_content_run` (``runs``, one per unit): the
    chance-corrected top-1 hit of unit ``target`` (:func:`mrclens.stats.chance.top_share`) when the longest run
    holds ``min_words`` content words or more, else 0; ``None`` for fewer than two units or ``target`` out of range.

    >>> top_of_runs([1, 5, 2], 1), top_of_runs([1, 3, 2], 1), top_of_runs([4, 4], 0)
    (100.0, 0.0, 0.0)
    """
    if len(runs) < 2 or not 0 <= target < len(runs):
        return None
    return top_share(runs, target) if max(runs) >= min_words else 0.0
