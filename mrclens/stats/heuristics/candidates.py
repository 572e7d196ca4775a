"""Typed candidate answer spans of a sentence unit, found by patterns over the raw text.

Baselines (b) and (c) choose among these spans. Patterns keep the baselines free of a full
NER pass over every context; the coarse answer types of the *gold* answers use spaCy instead
(:mod:`mrclens.stats.answer_types`). Types (:func:`unit_candidates`):

* ``date``: month names with day/year, years 1000–2099 and year ranges, decades, centuries,
  weekdays;
* ``number``: digits or number words, with an optional unit; a span that is a date is not
  repeated as a number;
* ``name``: runs of capitalised words joined by of/the/de/van/...; a leading capitalised stop
  word ("The", "In") is dropped; a run stops at a period after a lower-case word, so
  "France. The Tower" gives "France" and "Tower";
* ``location``: a name right after in/at/from/near/... (also listed as ``name``);
* ``clause``: the words after because/since/due to/in order to/by, up to the next punctuation;
* ``chunk``: maximal runs of content words (:func:`~mrclens.stats.text.is_content_word`)
  joined only by one space or hyphen (baseline (c) uses them; (b) never asks for them).

All offsets are characters of the context, ``end`` exclusive.
"""

from __future__ import annotations

import re
from typing import NamedTuple, Sequence

from mrclens.stats.text import is_content_word
from mrclens.vocabulary import STOP_WORDS

_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan\.|Feb\.|Mar\.|Apr\.|Jun\.|Jul\.|Aug\.|Sept?\.|Oct\.|Nov\.|Dec\.)"
)
_YEAR = r"(?:1[0-9]{3}|20[0-9]{2})"
_ORD = r"\d{1,2}(?:st|nd|rd|th)?"
# decades ("1990s", "the 1960s"), years and year ranges, years with an era
_DATE_RE = re.compile(
    r"(?<![\w$])(?:"
    rf"{_MONTH}\s+{_ORD}(?:,?\s+\d{{3,4}})?"
    rf"|{_ORD}\s+(?:of\s+)?{_MONTH}(?:,?\s+\d{{3,4}})?"
    rf"|{_MONTH}(?:,?\s+\d{{3,4}})?"
    r"|(?:the\s+)?\d{1,2}(?:st|nd|rd|th)(?:\s+(?:and|or|to)\s+\d{1,2}(?:st|nd|rd|th))?\s+centur(?:y|ies)(?:\s+(?:BC|AD|BCE|CE)\b)?"
    r"|(?:the\s+)?(?:early\s+|late\s+|mid-)?(?:1[0-9]|20)[0-9]0s"
    rf"|{_YEAR}(?:\s*(?:–|-|to)\s*{_YEAR})?(?:\s+(?:BC|AD|BCE|CE)\b)?"
    r"|\d{1,4}\s+(?:BC|AD|BCE|CE)\b"
    r"|(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
    r")(?![\w])"
)
_NUMBER_WORDS = (
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
    r"sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|"
    r"hundred|thousand|million|billion|trillion|dozen|half)"
)
_UNIT = (
    r"(?:\s+(?:years?|months?|weeks?|days?|hours?|minutes?|seconds?|centuries|decades?|miles?|"
    r"kilometers?|kilometres?|km|feet|foot|ft|meters?|metres?|inches|pounds?|kilograms?|kg|tons?|"
    r"tonnes?|acres?|percent|per\s+cent|people|times|members|students|votes|dollars?))?"
)
_NUMBER_RE = re.compile(
    r"(?<![\w])(?:"
    rf"[$£€]?\d[\d,]*(?:\.\d+)?(?:\s?(?:%|percent|per\s+cent|million|billion|trillion|thousand|hundred)\b)?{_UNIT}"
    rf"|(?i:{_NUMBER_WORDS}(?:[\s-]+{_NUMBER_WORDS})*){_UNIT}"
    r")(?![\w])"
)
_NAME_LINK = r"(?:of|the|de|da|del|der|di|du|la|le|van|von|and|for|y|al|bin|&)"
_NAME_RE = re.compile(
    rf"(?<![\w])[A-Z][\w'’.\-]*(?:\s+(?:{_NAME_LINK}\s+)*[A-Z][\w'’.\-]*)*"
)
_SENTENCE_END = re.compile(r"(?<=[a-z]{2})\.\s")  # a period after 2+ lower-case letters, then space
_CLAUSE_RE = re.compile(r"(?i)\b(?:because(?:\s+of)?|since|due\s+to|as\s+a\s+result\s+of|in\s+order\s+to|so\s+that|by)\s+([^,;:.()]+)")
_LOCATIVE = {"in", "at", "from", "near", "to", "into", "across", "throughout", "outside", "inside"}


class Candidate(NamedTuple):
    """A candidate answer span: ``(start, end)`` character offsets (end exclusive) and its type."""

    start: int
    end: int
    type: str


def unit_candidates(
    context: str, unit: tuple[int, int], words: Sequence[str], starts: Sequence[int], ends: Sequence[int]
) -> list[Candidate]:
    """Every typed candidate span of one sentence unit (the types of this module's docstring).

    Args:
        context: the paragraph text.
        unit: the sentence unit, ``(start, end)`` characters of ``context``.
        words, starts, ends: the word tokens of ``context`` that lie inside ``unit`` and their
            character offsets in ``context`` (:func:`~mrclens.stats.text.word_token_spans`).

    Returns:
        the candidates sorted by start, then end (Python's sort is stable, so equal spans keep
        the order date, number, name, location, clause, chunk); a span may appear with several
        types.

    Examples:
        >>> from mrclens.stats.text import word_token_spans
        >>> text = "It opened in Paris on 3 May 1901 with 40 people."
        >>> [(text[s:e], t) for s, e, t in unit_candidates(text, (0, len(text)), *word_token_spans(text))]
        [('opened', 'chunk'), ('Paris', 'name'), ('Paris', 'location'), ('Paris', 'chunk'), ('3 May 1901', 'date'), ('1901', 'chunk'), ('40 people', 'number'), ('40 people', 'chunk')]
    """
    s, e = unit
    found = pattern_candidates(context[s:e], s)
    found.extend(Candidate(a, b, "chunk") for a, b in content_chunks(context, words, starts, ends))
    found.sort(key=lambda c: (c.start, c.end))
    return found


def pattern_candidates(text: str, offset: int) -> list[Candidate]:
    """The ``date``, ``number``, ``name``, ``location`` and ``clause`` candidates of ``text``,
    unsorted (grouped by type in that order).

    Args:
        text: the text to search (a sentence unit).
        offset: added to every offset (the position of ``text`` in the context).
    """
    out: list[Candidate] = []
    date_spans = []
    for m in _DATE_RE.finditer(text):
        out.append(Candidate(m.start() + offset, m.end() + offset, "date"))
        date_spans.append((m.start(), m.end()))
    for m in _NUMBER_RE.finditer(text):
        s, e = m.start(), m.end()
        if any(a <= s and e <= b for a, b in date_spans):
            continue
        out.append(Candidate(s + offset, e + offset, "number"))
    pieces = []
    for m in _NAME_RE.finditer(text):
        s = m.start()
        for stop in _SENTENCE_END.finditer(text, s, m.end()):  # "France. The Tower": two names
            pieces.append((s, stop.start()))
            s = stop.end()
        pieces.append((s, m.end()))
    for s, e in pieces:
        span = text[s:e].rstrip(".")
        e = s + len(span)
        first, _, rest = span.partition(" ")
        while first and first.lower() in STOP_WORDS and rest:
            s += len(first) + 1 + (len(rest) - len(rest.lstrip()))
            span = rest.lstrip()
            first, _, rest = span.partition(" ")
        if not span or span.lower() in STOP_WORDS or not span[0].isupper() or any(a <= s and e <= b for a, b in date_spans):
            continue
        out.append(Candidate(s + offset, e + offset, "name"))
        before = text[max(0, s - 12) : s].split()
        if before and before[-1].lower() in _LOCATIVE:
            out.append(Candidate(s + offset, e + offset, "location"))
    for m in _CLAUSE_RE.finditer(text):
        s, e = m.start(1), m.end(1)
        span = text[s:e].rstrip()
        if span:
            out.append(Candidate(s + offset, s + len(span) + offset, "clause"))
    return out


def content_chunks(text: str, words: Sequence[str], starts: Sequence[int], ends: Sequence[int]) -> list[tuple[int, int]]:
    """Maximal runs of content words (:func:`~mrclens.stats.text.is_content_word`) joined only
    by one space or hyphen, as ``(start, end)``; ``words``/``starts``/``ends`` are word tokens
    of ``text`` and their offsets in ``text`` (:func:`~mrclens.stats.text.word_token_spans`)."""
    out: list[tuple[int, int]] = []
    run_start = run_end = -1
    for w, a, b in zip(words, starts, ends):
        if is_content_word(w):
            if run_start >= 0:
                if text[run_end:a] in (" ", "-"):
                    run_end = b
                    continue
                out.append((run_start, run_end))
            run_start, run_end = a, b
        elif run_start >= 0:
            out.append((run_start, run_end))
            run_start = -1
    if run_start >= 0:
        out.append((run_start, run_end))
    return out
