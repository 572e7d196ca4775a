"""One paragraph's per-question figures and baseline predictions: the unit of the statistics cache.

:func:`paragraph_figures` is a pure function of its arguments, so :mod:`mrclens.stats.core`
caches its result per paragraph (:mod:`mrclens.stats.cache`, whose key fingerprints this
module's code and every MRCLens module it imports).
"""

from __future__ import annotations

import bisect
import functools

from mrclens.squad import Paragraph
from mrclens.stats.chance import percentile_rank, top_share
from mrclens.stats.heuristics import PassageIndex, best_span_prediction, first_k_prediction
from mrclens.stats.keyword_window import answer_token_range, keyword_window_top
from mrclens.stats.overlap import PassageNgrams, content_word_share, longest_shared_ngram
from mrclens.stats.set_apart import SetApart
from mrclens.stats.shared_ngram import shared_ngram_top
from mrclens.stats.text import whitespace_words, word_tokens
from mrclens.units import answer_unit_indices

#: The per-answerable-question lists of :func:`paragraph_figures` (besides ``longest`` and ``preds``).
PARAGRAPH_KEYS = ("a_len", "unit_index", "char_frac", "in_sim", "content_share", "kw_rank", "kw_top", "sa_top",
                  "ngram_top", "kwin_top")
#: The six predictions of each answerable question, in the order of a ``preds`` row: baselines
#: (a), (b), (c), then the upper bound in the unit each of them chose.
PRED_KEYS = ("a", "b", "c", "ua", "ub", "uc")


def paragraph_figures(p: Paragraph, us: list[tuple[int, int]], sims: list[int], first_k: int) -> dict:
    """The per-question figures and the six baseline predictions of one paragraph.

    A pure function of its arguments (the paragraph's context, questions and gold answers, its
    sentence units, the most similar unit of each answerable question, ``first_k``), so its
    result can be cached under a hash of them (:mod:`mrclens.stats.cache`).

    Args:
        p: the paragraph.
        us: its sentence units, ``(start, end)`` characters (:func:`mrclens.units.sentence_units`).
        sims: the TF-IDF-most-similar unit of each answerable question, in file order (``-1``
            when the paragraph has no unit).
        first_k: the ``k`` of baseline (a), in whitespace tokens.

    Returns:
        ``{"longest": [...] (every question), "a_len", "unit_index", "char_frac", "in_sim",
        "content_share", "kw_rank", "kw_top", "sa_top": [...] (answerable questions, file order; ``kw_rank``: the
        answer unit's percentile rank by share of the question's content words,
        :func:`mrclens.stats.chance.percentile_rank`; ``kw_top``: its chance-corrected top-1 hit by the same
        shares, :func:`mrclens.stats.chance.top_share`; ``sa_top``: the chance-corrected hit of a pick among the
        spans the context sets apart, :mod:`mrclens.stats.set_apart`; ``ngram_top``: the Similarity figure of
        :func:`mrclens.stats.shared_ngram.shared_ngram_top`; ``kwin_top``: the Keyword figure of
        :func:`mrclens.stats.keyword_window.keyword_window_top`; each of these two ``None`` where the context has
        fewer than two sentence units, as the ranks), "preds": [(a, b, c, ua, ub,
        uc), ...] (:data:`PRED_KEYS`; ``None`` where a baseline has no prediction)}``.
    """
    context = p.context
    out: dict = {key: [] for key in ("longest",) + PARAGRAPH_KEYS}
    out["preds"] = []
    index = PassageIndex(context, us)
    passage = PassageNgrams(word_tokens(context))  # tokenised as the questions are
    q_words = [word_tokens(q.question) for q in p.questions]
    out["longest"] = [longest_shared_ngram(words, passage) for words in q_words]
    qs = [(q, words) for q, words in zip(p.questions, q_words) if q.answers]
    if not qs:
        return out
    unit_starts = [s for s, _ in us]
    cue = SetApart(context, (context[c.start : c.end] for c in index.candidates))
    unit_words = [index.words[lo:hi] for lo, hi in index.word_ranges]
    window_choice = index.sliding_window().predict([q.question for q, _ in qs]) if us else [None] * len(qs)
    for (q, words), cand, best in zip(qs, window_choice, sims):
        first = q.answers[0]
        out["a_len"].append(len(whitespace_words(first.text)))
        first_units = answer_unit_indices(us, [(first.answer_start, first.answer_end)])
        u0 = min(first_units) if first_units else None
        out["unit_index"].append(u0)
        out["char_frac"].append(first.answer_start / len(context))
        gold_units = answer_unit_indices(us, [(a.answer_start, a.answer_end) for a in q.answers])
        out["in_sim"].append(best in gold_units if best >= 0 else None)
        out["content_share"].append(content_word_share(words, index.unit_word_set(u0)) if u0 is not None else None)
        kw_shares = None if u0 is None or len(us) < 2 else [
            content_word_share(words, index.unit_word_set(u)) for u in range(len(us))]
        out["kw_rank"].append(None if kw_shares is None else percentile_rank(kw_shares, u0))
        out["kw_top"].append(None if kw_shares is None else top_share(kw_shares, u0))
        out["sa_top"].append(cue.top(first.text))
        out["ngram_top"].append(None if kw_shares is None else shared_ngram_top(words, unit_words, u0))
        span = answer_token_range(index.starts, index.ends, first.answer_start, first.answer_end)
        out["kwin_top"].append(None if kw_shares is None or span is None else
                               keyword_window_top(words, index.words, *span))
        golds = [(a.answer_start, a.text) for a in q.answers]
        upper: dict[int, str] = {}  # best span per unit, shared by the three upper bounds

        def upper_bound(u: int) -> str:
            if u not in upper:
                upper[u] = best_span_prediction(context, us[u], golds, functools.partial(index.unit_tokens, u))
            return upper[u]

        a = ua = b = ub = c = uc = None
        if us:
            a, ua = first_k_prediction(context, us[0], first_k), upper_bound(0)
            b, ub = index.type_matched(best, q.question, set(words), first_k), upper_bound(best)
        if cand is not None:
            c = context[cand.start : cand.end]
            if us:
                uc = upper_bound(max(bisect.bisect_right(unit_starts, cand.start) - 1, 0))
        out["preds"].append((a, b, c, ua, ub, uc))
    return out
