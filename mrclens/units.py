"""Sentence units of a context, and answer / non-answer units for one question.

Definitions (MRCLens issue 3, making precise Zhong, Wang & Xing, DataPerf@ICML 2022):

* **Sentence units.** The context is split into sentences with spaCy (``senter``); sentences
  that a gold answer of the paragraph crosses are merged, so that no answer spans two units.
* **Answer unit** (for one question): a unit that overlaps any gold answer span of that
  question; every other unit is a **non-answer unit**.

All spans are ``(start, end)`` character offsets into the context, ``end`` exclusive.
"""

from __future__ import annotations

import bisect
from typing import Iterable

from mrclens.parsing import ParsedText


def sentence_units(context: str, parsed: ParsedText, answer_spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The sentence units of ``context``: spaCy sentences, merged where a gold answer crosses a boundary.

    Rule: sentence ``i`` covers the characters from its start to the next sentence's start (the
    first from offset 0, the last to the end of the context). Every group of consecutive
    sentences that one answer span ``[start, end)`` touches is merged into one unit. Each unit
    is then trimmed of surrounding whitespace, but never so far that it cuts an answer span that
    lies in it; a unit left with only whitespace and no answer is dropped.

    Args:
        context: the paragraph text.
        parsed: its parse with sentences (``parse_texts(..., sentences=True)``).
        answer_spans: ``(answer_start, answer_end)`` character spans of every gold answer of the
            paragraph (all its questions); zero-length spans are ignored for merging.

    Returns:
        the units as ``(start, end)`` character spans, in context order, non-overlapping and
        non-empty. A context with no sentence boundary gives one unit (or none if it is blank).

    Raises:
        ValueError: ``parsed`` was made without sentences, or its text is not ``context``.
    """
    if parsed.sent_starts is None:
        raise ValueError("sentence_units needs a parse with sentences (parse_texts(..., sentences=True))")
    if parsed.text != context:
        raise ValueError("the parse is of a different text than the context")
    n = len(context)
    bounds = sorted({s for s in parsed.sent_starts if 0 < s < n})
    starts = [0] + bounds
    ends = bounds + [n]
    spans = [(a, b) for a, b in answer_spans if b > a and 0 <= a and b <= n]
    merge_to = list(range(len(starts)))  # merge_to[i] = furthest tile index that tile i must join
    for a, b in spans:
        first = bisect.bisect_right(starts, a) - 1
        last = bisect.bisect_right(starts, b - 1) - 1
        if last > first:
            merge_to[first] = max(merge_to[first], last)
    units: list[tuple[int, int]] = []
    i = 0
    while i < len(starts):
        j = merge_to[i]
        k = i
        while k <= j:  # a later tile inside the group may extend it further
            j = max(j, merge_to[k])
            k += 1
        units.append((starts[i], ends[j]))
        i = j + 1
    out: list[tuple[int, int]] = []
    for s, e in units:
        seg = context[s:e]
        ts = s + (len(seg) - len(seg.lstrip()))
        te = s + len(seg.rstrip())
        inside = [(a, b) for a, b in spans if s <= a < e]
        if inside:
            ts = min([ts] + [a for a, _ in inside])
            te = max([te] + [b for _, b in inside])
        if te > ts:
            out.append((ts, te))
    return out


def answer_unit_indices(units: list[tuple[int, int]], spans: Iterable[tuple[int, int]]) -> set[int]:
    """Indices of the units that overlap any of ``spans`` (the gold answers of one question).

    A span ``[a, b)`` overlaps unit ``[s, e)`` when ``a < e`` and ``s < b``; a zero-length span
    at ``a`` counts for the unit with ``s <= a < e``.

    Args:
        units: ``(start, end)`` character spans from :func:`sentence_units`.
        spans: ``(answer_start, answer_end)`` character spans.

    Returns:
        the set of answer-unit indices (empty for an unanswerable question).
    """
    hit: set[int] = set()
    for a, b in spans:
        for i, (s, e) in enumerate(units):
            if (a < e and s < b) or (a == b and s <= a < e):
                hit.add(i)
    return hit
