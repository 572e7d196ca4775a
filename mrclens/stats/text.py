"""Word tokens, question types and hashing normalisation shared by the statistics.

Three tokenisations are used, each where the cited work uses it:

* **Whitespace tokens** (:func:`whitespace_words`): question and answer length in words, as in
  Bartolo et al. 2020 ("Beat the AI", TACL, Table 4: average number of words per question and
  answer), and the heuristic baselines' spans (the official SQuAD F1 is computed on whitespace
  tokens, Rajpurkar et al. 2016).
* **Word tokens** (:func:`word_tokens`): lower-cased runs of Unicode word characters
  (``\\w+``), punctuation dropped. Used for n-gram overlap (Beat the AI), content-word overlap
  and the sliding window of Richardson et al. 2013, which all compare words, not punctuation.
* spaCy sentences (:mod:`mrclens.units`) for sentence units.

The word lists (wh-words, spaCy's stop words) and the word pattern are :mod:`mrclens.vocabulary`'s.
"""

from __future__ import annotations

import hashlib
import re
import string
import unicodedata
from itertools import accumulate

from mrclens.vocabulary import STOP_WORDS, WH_WORDS, WORD_PATTERN

#: Question-type buckets of Beat the AI (Bartolo et al. 2020, question-type analysis): the
#: question's first word when it is a wh-word or "in" (as in "In what year ..."), else "other".
QUESTION_TYPES = WH_WORDS + ("in", "other")

_WORD_SPLIT = re.compile(r"(\w+)")
_NONSPACE_SPLIT = re.compile(r"(\S+)")
_EDGE_PUNCT = string.punctuation + "“”‘’«»¿¡–—…"


def whitespace_words(text: str) -> list[str]:
    """The whitespace-separated tokens of ``text`` (``str.split()``), punctuation kept."""
    return text.split()


def whitespace_spans(text: str, offset: int = 0) -> list[tuple[int, int]]:
    """``(start, end)`` character spans of the whitespace tokens of ``text``, shifted by ``offset``."""
    parts = _NONSPACE_SPLIT.split(text)  # [space, token, space, token, ..., space]
    ends = list(accumulate(map(len, parts), initial=offset))
    return list(zip(ends[1:-1:2], ends[2::2]))


def word_tokens(text: str) -> list[str]:
    """Lower-cased ``\\w+`` tokens of ``text`` (punctuation dropped)."""
    return WORD_PATTERN.findall(text.lower())


def word_token_spans(text: str) -> tuple[list[str], list[int], list[int]]:
    """Lower-cased ``\\w+`` tokens with their character starts and ends (exclusive).

    Each token is lower-cased on its own (``str.lower`` of the token), so the offsets are
    those of the original text even where lower-casing changes a string's length.
    """
    parts = _WORD_SPLIT.split(text)  # [gap, word, gap, word, ..., gap]
    offsets = list(accumulate(map(len, parts), initial=0))
    words = "\x00".join(parts[1::2]).lower().split("\x00") if len(parts) > 1 else []
    return words, offsets[1:-1:2], offsets[2::2]


def is_content_word(word: str, stop_words: frozenset[str] | None = None) -> bool:
    """True for a lower-cased word token that is not a spaCy English stop word, not a
    wh-word and not a bare number of one character.

    ``stop_words``: another language's lower-cased stop words (its interrogatives among them, as in
    spaCy's lists), which then replace the English stop words and wh-words.
    """
    stop = word in STOP_WORDS or word in WH_WORDS if stop_words is None else word in stop_words
    return not stop and not (len(word) == 1 and not word.isalpha())


def question_type(question: str) -> str:
    """The Beat-the-AI question-type bucket of ``question`` (one of :data:`QUESTION_TYPES`).

    Rule (Bartolo et al. 2020, question-type analysis): the first whitespace token, lower-cased
    and stripped of surrounding punctuation, if it is one of the nine wh-words or "in";
    otherwise ``"other"`` (e.g. "The 1901 ... was what?", "Did ...", "Name ...").

    Examples:
        >>> question_type("What year did it open?"), question_type("In which city?"), question_type("Name one.")
        ('what', 'in', 'other')
    """
    for tok in question.split():
        word = tok.strip(_EDGE_PUNCT).lower()
        if word:
            return word if word in QUESTION_TYPES else "other"
    return "other"


def first_wh_word(question: str) -> str | None:
    """The first of the nine wh-words anywhere in ``question`` (word tokens), or ``None``.

    Used to decide which answer type a question asks for (Weissenborn et al. 2017).

    Examples:
        >>> first_wh_word("In which year was it built?"), first_wh_word("Is it?")
        ('which', None)
    """
    for word in word_tokens(question):
        if word in WH_WORDS:
            return word
    return None


def exact_key(text: str) -> str:
    """Hash key for *identical* texts: Unicode NFC, whitespace runs collapsed, ends stripped."""
    norm = " ".join(unicodedata.normalize("NFC", text).split())
    return hashlib.sha1(norm.encode("utf-8", "surrogatepass")).hexdigest()


def near_key(text: str) -> str:
    """Hash key for *near-identical* texts: equal keys after aggressive normalisation.

    Rule: Unicode NFKD with combining marks removed (accents), case-folded, every
    non-alphanumeric character removed, the articles a/an/the removed, whitespace collapsed.
    Two texts with the same key differ at most in case, accents, punctuation, articles and
    spacing ("The U.S. army" ~ "the US Army").
    """
    if text.isascii():  # nothing to decompose (fast path, same result)
        s = text.casefold()
    else:
        s = unicodedata.normalize("NFKD", text)
        s = "".join(ch for ch in s if not unicodedata.combining(ch)).casefold()
    s = re.sub(r"[^\w\s]|_", "", s)
    s = " ".join(w for w in s.split() if w not in ("a", "an", "the"))
    return hashlib.sha1(s.encode("utf-8", "surrogatepass")).hexdigest()
