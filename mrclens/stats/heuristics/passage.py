"""What the three baselines need about one context, computed once for all its questions."""

from __future__ import annotations

import bisect
from typing import Sequence

from mrclens.stats.heuristics.candidates import Candidate, unit_candidates
from mrclens.stats.heuristics.sliding_window import SlidingWindow
from mrclens.stats.heuristics.type_matched import choose_typed_span
from mrclens.stats.heuristics.upper_bound import NormalizedToken, normalized_tokens
from mrclens.stats.text import is_content_word, word_token_spans, word_tokens


class PassageIndex:
    """One context's word tokens, candidate spans and normalised unit tokens, shared by its questions.

    ``mrclens stats`` builds one per paragraph (:mod:`mrclens.stats.core`) and asks it for
    baseline (b) (:meth:`type_matched`), baseline (c) (:meth:`sliding_window`), the tokens of
    the upper bound (:meth:`unit_tokens`) and the word set of the answer unit
    (:meth:`unit_word_set`).

    Args:
        context: the paragraph text.
        units: its sentence units, ``(start, end)`` characters (:func:`mrclens.units.sentence_units`).

    Attributes:
        words, starts, ends: the context's word tokens (:func:`~mrclens.stats.text.word_token_spans`).
        word_ranges: per unit, the ``[lo, hi)`` indices of the word tokens wholly inside it.
        candidates: every unit's candidates (:func:`~mrclens.stats.heuristics.candidates.unit_candidates`)
            in context order.
        unit_slices: per unit, the ``[lo, hi)`` indices of its candidates in :attr:`candidates`.
    """

    def __init__(self, context: str, units: Sequence[tuple[int, int]]):
        self.context = context
        self.units = list(units)
        self.words, self.starts, self.ends = word_token_spans(context)
        self.word_ranges = [
            (bisect.bisect_left(self.starts, s), bisect.bisect_right(self.ends, e)) for s, e in self.units
        ]
        candidates: list[Candidate] = []
        self.unit_slices: list[tuple[int, int]] = []
        for unit, (lo, hi) in zip(self.units, self.word_ranges):
            found = unit_candidates(context, unit, self.words[lo:hi], self.starts[lo:hi], self.ends[lo:hi])
            self.unit_slices.append((len(candidates), len(candidates) + len(found)))
            candidates.extend(found)
        self.candidates = candidates
        self._cand_words: list[frozenset[str]] | None = None
        self._unit_tokens: dict[int, list[NormalizedToken]] = {}
        self._unit_word_sets: dict[int, set[str]] = {}

    def unit_word_set(self, u: int) -> set[str]:
        """The set of word tokens of unit ``u``."""
        if u not in self._unit_word_sets:
            lo, hi = self.word_ranges[u]
            self._unit_word_sets[u] = set(self.words[lo:hi])
        return self._unit_word_sets[u]

    def unit_tokens(self, u: int) -> list[NormalizedToken]:
        """:func:`~mrclens.stats.heuristics.upper_bound.normalized_tokens` of unit ``u`` (computed on first use)."""
        if u not in self._unit_tokens:
            self._unit_tokens[u] = normalized_tokens(self.context, *self.units[u])
        return self._unit_tokens[u]

    def sliding_window(self) -> SlidingWindow:
        """Baseline (c) over this context's candidates (all units)."""
        return SlidingWindow(self.candidates, (self.words, self.starts, self.ends))

    def type_matched(self, u: int, question: str, q_words: set[str], k: int = 3) -> str:
        """Baseline (b) in unit ``u`` for ``question`` (:func:`~mrclens.stats.heuristics.type_matched.choose_typed`).

        Args:
            u: the unit's index (the question's TF-IDF-most-similar unit).
            question: the question text.
            q_words: its word-token set (:func:`~mrclens.stats.text.word_tokens`).
            k: tokens for the fallback (first ``k`` tokens of the unit).

        Returns:
            the predicted answer text (a substring of the context: :meth:`type_matched_span`'s).
        """
        start, end = self.type_matched_span(u, question, q_words, k)
        return self.context[start:end]

    def type_matched_span(self, u: int, question: str, q_words: set[str], k: int = 3) -> tuple[int, int]:
        """Where :meth:`type_matched`'s answer lies: ``(start, end)`` characters of the context (arguments as there)."""
        if self._cand_words is None:
            ctx = self.context
            self._cand_words = [frozenset(word_tokens(ctx[c.start : c.end])) for c in self.candidates]
        lo, hi = self.unit_slices[u]
        wlo, whi = self.word_ranges[u]
        words, starts, ends = self.words, self.starts, self.ends
        anchors = [
            (starts[i], ends[i]) for i in range(wlo, whi) if words[i] in q_words and is_content_word(words[i])
        ]
        return choose_typed_span(
            self.context, self.units[u], question, q_words, self.candidates[lo:hi], self._cand_words[lo:hi], anchors, k
        )
