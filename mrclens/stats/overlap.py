"""Lexical overlap between question and passage.

* **Longest shared n-gram** (Bartolo et al. 2020, "Beat the AI", lexical-overlap analysis):
  the length, in word tokens, of the longest contiguous word sequence that occurs in both the
  question and the passage (0 when they share no word). Tokens are lower-cased ``\\w+`` runs
  (:func:`mrclens.stats.text.word_tokens`), so punctuation and case do not count.
* **Content words in the answer sentence** (the lexical-overlap feature behind the "easy"
  questions of Sugawara et al. 2018 and the word-in-question features of Weissenborn et al.
  2017): the percentage of the question's distinct content words
  (:func:`mrclens.stats.text.is_content_word`) that occur among the word tokens of the
  sentence unit holding the answer.
"""

from __future__ import annotations

from typing import Sequence

from mrclens.stats.text import is_content_word


class PassageNgrams:
    """The n-gram sets of one passage's word tokens, built lazily and kept for reuse.

    Args:
        words: the passage's word tokens (lower-cased).
    """

    def __init__(self, words: Sequence[str]):
        self.words = list(words)
        self._sets: dict[int, set] = {1: set(self.words)}

    def has(self, n: int) -> set:
        """The set of the passage's n-grams (tuples of ``n`` words; plain words for ``n == 1``)."""
        if n not in self._sets:
            w = self.words
            self._sets[n] = {tuple(w[i : i + n]) for i in range(len(w) - n + 1)}
        return self._sets[n]


def longest_shared_ngram(question_words: Sequence[str], passage: PassageNgrams) -> int:
    """Length in word tokens of the longest n-gram shared by the question and the passage.

    Every sub-sequence of a shared n-gram is shared too, so lengths are tried upwards from 1
    and the search stops at the first length with no shared n-gram.

    Args:
        question_words: the question's word tokens (lower-cased).
        passage: the passage's n-gram sets.

    Returns:
        the length (0 when not even one word is shared).

    Examples:
        >>> longest_shared_ngram("when did the war end".split(), PassageNgrams("the war did end in 1945".split()))
        2
    """
    q = list(question_words)
    unigrams = passage.has(1)
    if not any(w in unigrams for w in q):
        return 0
    best = 1
    for n in range(2, len(q) + 1):
        grams = passage.has(n)
        if any(tuple(q[i : i + n]) in grams for i in range(len(q) - n + 1)):
            best = n
        else:
            break
    return best


def content_word_share(question_words: Sequence[str], sentence_words: set[str]) -> float | None:
    """Percentage (0–100) of the question's distinct content words found in ``sentence_words``.

    Returns:
        the percentage, or ``None`` when the question has no content word.

    Examples:
        >>> content_word_share("who painted the mona lisa".split(), {"leonardo", "painted", "lisa"})
        66.66666666666667
    """
    content = {w for w in question_words if is_content_word(w)}
    if not content:
        return None
    return 100.0 * len(content & sentence_words) / len(content)
