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
    """One passage's word tokens, indexed by word for n-gram matching (built once per passage,
    reused for all its questions).

    Args:
        words: the passage's word tokens (lower-cased).

    Attributes:
        words: the word tokens, as a list.
        positions: each word's positions in the passage (word-token indices, ascending).
    """

    def __init__(self, words: Sequence[str]):
        self.words = list(words)
        self.positions: dict[str, list[int]] = {}
        for i, w in enumerate(self.words):
            self.positions.setdefault(w, []).append(i)


def longest_shared_ngram(question_words: Sequence[str], passage: PassageNgrams) -> int:
    """Length in word tokens of the longest n-gram shared by the question and the passage.

    Computed as the longest common run of consecutive words: walking the question word by
    word, the run ending at each passage position that holds the current word is one longer
    than the run that ended just before it (dynamic programming over the positions of the
    question's words in the passage).

    Args:
        question_words: the question's word tokens (lower-cased).
        passage: the passage's indexed word tokens.

    Returns:
        the length (0 when not even one word is shared).

    Examples:
        >>> longest_shared_ngram("when did the war end".split(), PassageNgrams("the war did end in 1945".split()))
        2
    """
    positions = passage.positions
    best = 0
    previous: dict[int, int] = {}  # passage position -> length of the shared run ending there
    for w in question_words:
        current: dict[int, int] = {}
        for i in positions.get(w, ()):
            run = previous.get(i - 1, 0) + 1
            current[i] = run
            if run > best:
                best = run
        previous = current
    return best


def content_word_share(question_words: Sequence[str], sentence_words: set[str],
                       stop_words: frozenset[str] | None = None) -> float | None:
    """Percentage (0–100) of the question's distinct content words found in ``sentence_words``.

    ``stop_words``: another language's stop words (:func:`mrclens.stats.text.is_content_word`;
    default: English).

    Returns:
        the percentage, or ``None`` when the question has no content word.

    Examples:
        >>> content_word_share("who painted the mona lisa".split(), {"leonardo", "painted", "lisa"})
        66.66666666666667
    """
    content = {w for w in question_words if is_content_word(w, stop_words)}
    if not content:
        return None
    return 100.0 * len(content & sentence_words) / len(content)
