"""Baseline (c): the sliding window of Richardson, Burges & Renshaw 2013 ("MCTest", EMNLP,
algorithm SW), adapted to span extraction as in Rajpurkar et al. 2016.

Definitions (MCTest, §4.1): ``P`` is the passage as a word sequence, ``C(w)`` the count of
word ``w`` in ``P`` and ``IC(w) = log(1 + 1 / C(w))`` its inverse count. For a question
``Q`` and a candidate answer ``A``, the target set is ``S = set(Q) ∪ set(A)`` and the score is
the best sum of ``IC`` over the words of any window of ``|S|`` passage words that belong to
``S``: ``sw(A) = max_j Σ_{w=1..|S|} IC(P[j+w]) · [P[j+w] ∈ S]`` (windows running past the end
are cut short). Words are lower-cased ``\\w+`` tokens (:func:`~mrclens.stats.text.word_tokens`).

Extractive adaptation (ours, as the SQuAD paper's sliding-window baseline used candidate
constituents instead of given choices): the candidates are the typed spans of every sentence
unit of the context (:mod:`mrclens.stats.heuristics.candidates`, ``chunk`` included); the
words of a candidate are the passage words that overlap its span; candidates whose words all
occur in the question are dropped; the highest score wins, ties to the earliest candidate.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from mrclens.stats.heuristics.candidates import Candidate
from mrclens.stats.text import word_tokens


class SlidingWindow:
    """The SW score of every candidate span of one passage, for any number of questions.

    The computation is vectorised with NumPy per passage.

    Args:
        candidates: the passage's candidate spans, sorted by start, then end; of several
            candidates with the same span only the first is kept, and candidates that overlap
            no passage word are dropped.
        words: the passage's word tokens, their starts and ends (characters)
            (:func:`~mrclens.stats.text.word_token_spans` of the context).

    Attributes:
        candidates: the candidates kept, in order (the columns of :meth:`scores`).
    """

    def __init__(self, candidates: Sequence[Candidate], words: tuple[Sequence[str], Sequence[int], Sequence[int]]):
        tokens, starts, ends = words
        vocab: dict[str, int] = {}
        ids = [vocab.setdefault(w, len(vocab)) for w in tokens]
        self.vocab = vocab
        self.ids = np.asarray(ids, dtype=np.int64)
        counts = np.bincount(self.ids, minlength=len(vocab)) if len(vocab) else np.zeros(0)
        self.ic = np.log1p(1.0 / counts[self.ids]) if len(ids) else np.zeros(0)
        starts = np.asarray(starts, dtype=np.int64)
        ends = np.asarray(ends, dtype=np.int64)
        unique = list({(c.start, c.end): c for c in reversed(candidates)}.values())[::-1]  # first of each span
        c_start = np.asarray([c.start for c in unique], dtype=np.int64)
        c_end = np.asarray([c.end for c in unique], dtype=np.int64)
        lo = np.searchsorted(ends, c_start, side="right")
        hi = np.searchsorted(starts, c_end, side="left")
        has_words = hi > lo
        self.candidates: list[Candidate] = [c for c, ok in zip(unique, has_words) if ok]
        lo, hi = lo[has_words], hi[has_words]
        m = len(self.candidates)
        lengths = hi - lo
        rows = np.repeat(np.arange(m), lengths)
        pos = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths) + np.repeat(lo, lengths)
        self.incidence = np.zeros((m, len(vocab)), dtype=bool)
        self.incidence[rows, self.ids[pos]] = True
        self.sizes = self.incidence.sum(axis=1)
        self.mask = self.incidence[:, self.ids] if len(ids) else np.zeros((m, 0), dtype=bool)

    def _prepare(self, questions: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per question, which passage words are question words, shape ``(nq, n_words)``; per
        (question, candidate), whether the candidate is kept (not all question words) and the
        window size ``min(|S|, n_words)``, both ``(nq, n_candidates)``."""
        nq = len(questions)
        q_vec = np.zeros((nq, len(self.vocab)), dtype=bool)
        q_size = np.zeros(nq, dtype=np.int64)
        for i, question in enumerate(questions):
            q_words = set(word_tokens(question))
            q_size[i] = len(q_words)
            q_vec[i, [self.vocab[w] for w in q_words if w in self.vocab]] = True
        overlap = q_vec.astype(np.int64) @ self.incidence.T.astype(np.int64)  # (nq, m)
        keep = overlap < self.sizes[None, :]
        window = np.minimum(q_size[:, None] + self.sizes[None, :] - overlap, self.ids.size)  # |S|
        return q_vec[:, self.ids], keep, window

    def _exact(self, q_mask: np.ndarray, q_idx: np.ndarray, c_idx: np.ndarray, window: np.ndarray) -> np.ndarray:
        """The SW score of the (question ``q_idx[k]``, candidate ``c_idx[k]``) pairs, shape
        ``(n_pairs,)``; each pair's value depends only on that pair."""
        n = self.ids.size
        in_s = self.mask[c_idx] | q_mask[q_idx]  # (pairs, n)
        cum = np.zeros((len(c_idx), n + 1))
        np.cumsum(np.where(in_s, self.ic, 0.0), axis=1, out=cum[:, 1:])
        # window sums cum[j + W] - cum[j] for j = 0 .. n - W, one slice per distinct window
        # size W: windows cut short by the passage end never score more (cum is
        # non-decreasing), and a window as long as the passage covers all of it
        best = np.empty(len(c_idx))
        for w in np.unique(window):
            rows = np.flatnonzero(window == w)
            sub = cum[rows]
            best[rows] = (sub[:, w:] - sub[:, : n + 1 - w]).max(axis=1)
        return best

    def scores(self, questions: Sequence[str]) -> np.ndarray:
        """The SW score of every candidate for each question, shape ``(n_questions,
        n_candidates)``; ``-inf`` marks candidates dropped for that question."""
        nq, m, n = len(questions), len(self.candidates), self.ids.size
        if m == 0 or n == 0 or nq == 0:
            return np.full((nq, m), -np.inf)
        q_mask, keep, window = self._prepare(questions)
        q_idx, c_idx = np.divmod(np.arange(nq * m), m)
        best = self._exact(q_mask, q_idx, c_idx, window.reshape(-1)).reshape(nq, m)
        best[~keep] = -np.inf
        return best

    def predict(self, questions: Sequence[str]) -> list[Candidate | None]:
        """The best-scoring candidate for each question (``None`` when none is left): the
        argmax of :meth:`scores`, ties to the earliest candidate."""
        s = self.scores(questions)
        return [self.candidates[int(np.argmax(row))] if row.size and np.isfinite(row).any() else None for row in s]
