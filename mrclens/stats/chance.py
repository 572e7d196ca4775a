"""Chance-corrected figures: where the answer sentence ranks among its context's sentences (issue 32).

A raw share such as "answers in the first sentence" or "answers in the sentence most similar to
the question" has a chance level that depends on how many sentences a context has (1/n): 33 % of
answers in the first sentence is far above chance in 20-sentence articles and below it in
2-sentence paragraphs. So the figures the bias verdicts read are per-question **percentile ranks**
of the answer sentence among the context's sentence units, in percent:

* 100 = the answer sentence ranks first (the first sentence; the most similar to the question;
  the one holding most of the question's content words), 0 = last, **50 = what a sentence drawn at
  random gives, whatever the number of sentences**;
* ties share the rank (mid-rank), so the chance level stays exactly 50;
* a context of one sentence unit has no rank (nothing to choose from) and is left out.

This is the *expected percentile rank* of Hu, Koren & Volinsky (2008, "Collaborative Filtering for
Implicit Feedback Datasets", ICDM, §5: 0 % for the best rank, 50 % for a random list; here
reversed so that higher = more shortcut), which for one relevant item equals the area under the
ROC curve of the score that ranks the sentences (Mann–Whitney).

Structure beyond chance: the reference's figures are kept per number of sentence units
(:data:`STRATA`, :func:`by_sentence_count`), so that a comparison can weight the reference's strata
like the audited data's (direct standardisation; :mod:`mrclens.scoring.model_free`).

Examples:
    >>> percentile_rank([0.9, 0.1, 0.5], 0), percentile_rank([0.9, 0.1, 0.5], 1), percentile_rank([0.2, 0.2], 0)
    (100.0, 0.0, 50.0)
    >>> position_rank(0, 5), position_rank(4, 5), position_rank(0, 1)
    (100.0, 0.0, None)
    >>> [stratum(n) for n in (1, 2, 9, 10, 14, 15, 80)]
    [None, '2', '9', '10-14', '10-14', '15+', '15+']
"""

from __future__ import annotations

import math
from typing import Sequence

#: The sentence-count strata of the chance-corrected figures: 2 … 9 units, 10–14, 15 or more.
STRATA: tuple[str, ...] = tuple(str(n) for n in range(2, 10)) + ("10-14", "15+")

#: The chance-corrected figures (keys of the ``chance_corrected`` statistics section), and what 100 means.
RANK_FIGURES: dict[str, str] = {
    "position_rank": "the answer sentence is the context's first (100) … last (0); 50 = chance",
    "similarity_rank": "the answer sentence is the most TF-IDF-similar to the question (100) … the least (0); 50 = chance",
    "keyword_rank": "the answer sentence holds the largest share of the question's content words (100) … the smallest (0); "
                    "50 = chance",
}

#: The chance-corrected top-1 shares (issue 41): how often the answer sentence is *the* top sentence, beyond
#: chance, in percent (:func:`top_share`; 0 = chance, 100 = always the top). A mean rank saturates near
#: SQuAD's (88-89 of 100: a shortcut planted in a quarter of the questions moves it by about 3 points); the
#: top-1 share has three to four times that room (SQuAD v1.1 dev: about 60), so it grows with the shortcut's
#: share. Source: the corrected share is ``(p − 1/n) / (1 − 1/n)`` of a hit rate ``p`` with chance ``1/n``,
#: the form of Cohen's kappa (Cohen 1960) for a top-1 choice among ``n`` sentences, taken per question.
#: ``set_apart_top`` (issue 54, item 5) is the same form for a pick among the context's candidate answers instead of
#: its sentences (:mod:`mrclens.stats.set_apart`); its strata are still by sentence count.
#: ``shared_ngram_top`` and ``keyword_window_top`` (issue 54) are the same form for a long shared n-gram
#: (:mod:`mrclens.stats.shared_ngram`) and for the places of a span (:mod:`mrclens.stats.keyword_window`); they decide
#: Similarity and Keyword, the two top-1 shares above describe them.
TOP_FIGURES: dict[str, str] = {
    "similarity_top": "the answer sentence is the most TF-IDF-similar to the question, beyond chance (percent; "
                      "100 = always, 0 = as often as a sentence drawn at random)",
    "keyword_top": "the answer sentence holds the largest share of the question's content words, beyond chance "
                   "(percent; 100 = always, 0 = as often as a sentence drawn at random)",
    "set_apart_top": "the answer is a span the context sets apart (quoted, bracketed, marked), beyond chance (percent; "
                     "100 = always the one span set apart, 0 = as often as a candidate drawn at random; "
                     "mrclens.stats.set_apart)",
    "shared_ngram_top": "the answer sentence alone repeats the question's longest stretch of 4 content words or more, "
                        "beyond chance (percent; 100 = always, 0 = as often as a sentence drawn at random; "
                        "mrclens.stats.shared_ngram)",
    "keyword_window_top": "the question's content words crowd the 3 tokens either side of the answer span more than "
                          "any other place, beyond chance (percent; 100 = always, 0 = as often as a place drawn at "
                          "random; mrclens.stats.keyword_window)",
}
#: Every figure of the ``chance_corrected`` section that is kept per sentence-count stratum.
CHANCE_FIGURES: dict[str, str] = {**RANK_FIGURES, **TOP_FIGURES}


def stratum(n_units: int) -> str | None:
    """The :data:`STRATA` label of a context with ``n_units`` sentence units (``None`` below 2)."""
    if n_units < 2:
        return None
    if n_units < 10:
        return str(n_units)
    return "10-14" if n_units < 15 else "15+"


def percentile_rank(scores: Sequence[float | None], target: int) -> float | None:
    """Percentile rank (percent) of unit ``target`` among ``scores`` (higher score = better rank).

    ``100 × (#units scoring lower + ½ #other units scoring the same) / (n − 1)``; a ``None`` score
    counts as the lowest possible.

    Returns:
        0–100, or ``None`` when there are fewer than two units or ``target`` is out of range.
    """
    n = len(scores)
    if n < 2 or not 0 <= target < n:
        return None
    vals = [-math.inf if s is None else float(s) for s in scores]
    mine = vals[target]
    lower = sum(1 for i, v in enumerate(vals) if i != target and v < mine)
    equal = sum(1 for i, v in enumerate(vals) if i != target and v == mine)
    return 100.0 * (lower + 0.5 * equal) / (n - 1)


def top_share(scores: Sequence[float | None], target: int) -> float | None:
    """Chance-corrected top-1 hit (percent) of unit ``target`` among ``scores`` (higher score = better):
    ``100 × (h − 1/n) / (1 − 1/n)`` where ``h = 1/t`` when ``target`` ties with ``t`` units (itself
    included) at the highest score and ``h = 0`` otherwise. Its mean over questions is the share of answer
    sentences that are the top sentence, corrected for chance (``(p − 1/n)/(1 − 1/n)``; :data:`TOP_FIGURES`):
    a target drawn at random gives 0 in expectation whatever ``n`` and the ties, always the top gives 100,
    never the top ``−100 / (n − 1)``. A ``None`` score counts as the lowest possible.

    Returns:
        −100–100, or ``None`` when there are fewer than two units or ``target`` is out of range.

    >>> top_share([0.9, 0.1, 0.5], 0), top_share([0.9, 0.1, 0.5], 1), top_share([0.2, 0.2], 0)
    (100.0, -50.0, 0.0)
    """
    n = len(scores)
    if n < 2 or not 0 <= target < n:
        return None
    vals = [-math.inf if s is None else float(s) for s in scores]
    best = max(vals)
    hit = 1.0 / sum(1 for v in vals if v == best) if vals[target] == best else 0.0
    return round(100.0 * (hit - 1.0 / n) / (1.0 - 1.0 / n), 10)


def position_rank(unit_index: int | None, n_units: int) -> float | None:
    """Percentile rank (percent) of the answer sentence by position: 100 = first unit, 0 = last."""
    if unit_index is None or n_units < 2 or not 0 <= unit_index < n_units:
        return None
    return 100.0 * (1.0 - unit_index / (n_units - 1))


def by_sentence_count(values: Sequence[float | None], n_units: Sequence[int]) -> dict[str, dict]:
    """Per stratum of :data:`STRATA`: ``{"n", "mean", "std"}`` of ``values`` (``None`` skipped; strata
    without a value left out). ``std`` is the population standard deviation (0 for one value).

    Raises:
        ValueError: the two sequences differ in length.

    >>> by_sentence_count([100.0, 0.0, 50.0, None], [2, 2, 3, 3])
    {'2': {'n': 2, 'mean': 50.0, 'std': 50.0}, '3': {'n': 1, 'mean': 50.0, 'std': 0.0}}
    """
    if len(values) != len(n_units):
        raise ValueError(f"values has {len(values)} items but n_units has {len(n_units)}")
    groups: dict[str, list[float]] = {}
    for v, n in zip(values, n_units):
        s = stratum(n)
        if v is not None and s is not None:
            groups.setdefault(s, []).append(float(v))
    out = {}
    for s in STRATA:
        vs = groups.get(s)
        if vs:
            mean = sum(vs) / len(vs)
            out[s] = {"n": len(vs), "mean": mean, "std": math.sqrt(sum((v - mean) ** 2 for v in vs) / len(vs))}
    return out


def chance_share_pct(n_units: Sequence[int]) -> float | None:
    """The share (percent) a sentence drawn at random would give for "the answer is in that sentence":
    the mean of ``1 / n`` over the questions (contexts without a unit skipped)."""
    ns = [n for n in n_units if n >= 1]
    return 100.0 * sum(1.0 / n for n in ns) / len(ns) if ns else None
