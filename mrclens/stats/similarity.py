"""The sentence most similar to the question, by TF-IDF cosine.

Rule (Sugawara et al. 2018, "What Makes Reading Comprehension Questions Easier?", EMNLP,
call questions whose answer lies in the context sentence most similar to the question
"easy"; the MRCLens paper, Zhong, Wang & Xing 2022, reports this share for SQuAD v1.1 dev).
The similarity measure is TF-IDF cosine, as the MRCLens issue specifies:

* A scikit-learn :class:`~sklearn.feature_extraction.text.TfidfVectorizer` with its
  defaults (lower-casing, tokens ``(?u)\\b\\w\\w+\\b``, smoothed idf, sublinear tf off, L2
  norm, no stop-word list) is fitted on the sentence units of every paragraph of the dataset.
* Each question is transformed with it, and its cosine similarity with each sentence unit of
  its own paragraph is the dot product of the two L2-normalised rows.
* The most similar unit is the one with the highest cosine; ties go to the earliest unit (a
  question sharing no word with its paragraph therefore gets unit 0).
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer


def most_similar_units(
    questions: Sequence[str],
    question_paragraph: Sequence[int],
    paragraph_units: Sequence[Sequence[str]],
) -> tuple[list[int], list[float]]:
    """For each question, the index of the most TF-IDF-similar sentence unit of its paragraph.

    Args:
        questions: the question texts, length ``n_questions``.
        question_paragraph: for each question, the index of its paragraph in ``paragraph_units``.
        paragraph_units: for each paragraph, the texts of its sentence units (in context
            order); the vectorizer is fitted on all of them.

    Returns:
        ``(unit_index, cosine)``: two lists of length ``n_questions``; ``unit_index`` is
        ``-1`` and ``cosine`` ``0.0`` for a question whose paragraph has no unit.

    Raises:
        ValueError: the lengths of ``questions`` and ``question_paragraph`` differ.

    Examples:
        >>> idx, cos = most_similar_units(
        ...     ["Where did the cat sleep?"], [0],
        ...     [["The dog ran in the park.", "The cat slept on the mat."]])
        >>> idx
        [1]
    """
    if len(questions) != len(question_paragraph):
        raise ValueError("questions and question_paragraph must have the same length")
    n_q = len(questions)
    if n_q == 0:
        return [], []
    pairs = _pair_cosines(questions, question_paragraph, paragraph_units)
    if pairs is None:  # no unit, or every sentence empty of words: no vocabulary
        sizes = [len(u) for u in paragraph_units]
        return [0 if sizes[p] else -1 for p in question_paragraph], [0.0] * n_q
    counts, seg_starts, within, cos = pairs
    best_idx = [-1] * n_q
    best_cos = [0.0] * n_q
    has = counts > 0
    if cos.size:
        starts = seg_starts[has]
        seg_max = np.maximum.reduceat(cos, starts)
        is_max = cos >= np.repeat(seg_max, counts[has]) - 1e-12
        first_true = np.flatnonzero(is_max)
        pos = first_true[np.searchsorted(first_true, starts)]
        for q, p, m in zip(np.flatnonzero(has), pos, seg_max):
            best_idx[q] = int(within[p])
            best_cos[q] = float(m)
    return best_idx, best_cos


def _pair_cosines(questions: Sequence[str], question_paragraph: Sequence[int],
                  paragraph_units: Sequence[Sequence[str]], analyzer: Callable[[str], list[str]] | None = None):
    """``(counts, seg_starts, within, cos)`` over every (question, unit of its paragraph) pair, question
    by question (``counts``: units per question; ``within``: the unit's index in its paragraph), or
    ``None`` when there is no vocabulary (no unit, or no word in any unit). ``analyzer``: the
    vectorizer's (default: scikit-learn's word analyzer)."""
    sizes = np.array([len(u) for u in paragraph_units], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    all_units = [t for units in paragraph_units for t in units]
    if not all_units:
        return None
    vectorizer = TfidfVectorizer() if analyzer is None else TfidfVectorizer(analyzer=analyzer)
    try:
        unit_matrix = vectorizer.fit_transform(all_units).tocsr()
    except ValueError:  # every sentence is empty of words: no vocabulary
        return None
    question_matrix = vectorizer.transform(questions).tocsr()
    n_q = len(questions)
    qp = np.asarray(question_paragraph, dtype=np.int64)
    counts = sizes[qp]  # units per question
    pair_q = np.repeat(np.arange(n_q), counts)
    seg_starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    within = np.arange(pair_q.size) - np.repeat(seg_starts, counts)
    pair_u = offsets[qp][pair_q] + within
    cos = np.asarray(question_matrix[pair_q].multiply(unit_matrix[pair_u]).sum(axis=1)).ravel()
    return counts, seg_starts, within, cos


def similarity_ranks(questions: Sequence[str], question_paragraph: Sequence[int],
                     paragraph_units: Sequence[Sequence[str]], target_units: Sequence[int | None], *,
                     analyzer: Callable[[str], list[str]] | None = None) -> list[float | None]:
    """For each question, the percentile rank (percent; :func:`mrclens.stats.chance.percentile_rank`)
    of unit ``target_units[i]`` (e.g. its answer's sentence unit) among its paragraph's units by
    TF-IDF cosine with the question (the vectorizer of :func:`most_similar_units`): 100 = the most
    similar, 0 = the least, 50 = a unit drawn at random; ties share the rank. ``analyzer`` replaces
    the vectorizer's word analyzer (e.g. ``str.split`` on texts that are tokens joined by spaces).

    Returns:
        one value per question; ``None`` where the paragraph has fewer than two units or the target
        is ``None``/out of range. With no vocabulary at all every unit ties: 50.

    Raises:
        ValueError: the lengths of ``questions``, ``question_paragraph`` and ``target_units`` differ.

    Examples:
        >>> similarity_ranks(["Where did the cat sleep?"], [0],
        ...                  [["The dog ran in the park.", "The cat slept on the mat.", "It rained."]], [1])
        [100.0]
    """
    return similarity_rank_tops(questions, question_paragraph, paragraph_units, target_units, analyzer=analyzer)[0]


def similarity_rank_tops(questions: Sequence[str], question_paragraph: Sequence[int],
                         paragraph_units: Sequence[Sequence[str]], target_units: Sequence[int | None], *,
                         analyzer: Callable[[str], list[str]] | None = None
                         ) -> tuple[list[float | None], list[float | None]]:
    """``(ranks, tops)``: :func:`similarity_ranks`, and for each question the chance-corrected top-1 hit
    of its target unit by the same cosines (percent, :func:`mrclens.stats.chance.top_share`: 100 = the
    most similar, 0 = chance; ``None`` where the rank is).

    Raises:
        ValueError: the lengths of ``questions``, ``question_paragraph`` and ``target_units`` differ.

    Examples:
        >>> similarity_rank_tops(["Where did the cat sleep?"], [0],
        ...                      [["The dog ran in the park.", "The cat slept on the mat.", "It rained."]], [0])
        ([50.0], [-50.0])
    """
    from mrclens.stats.chance import percentile_rank, top_share

    if not len(questions) == len(question_paragraph) == len(target_units):
        raise ValueError("questions, question_paragraph and target_units must have the same length")
    sizes = [len(u) for u in paragraph_units]
    pairs = _pair_cosines(questions, question_paragraph, paragraph_units, analyzer) if questions else None
    ranks: list[float | None] = []
    tops: list[float | None] = []
    for i, (p, t) in enumerate(zip(question_paragraph, target_units)):
        n = sizes[p]
        if t is None or n < 2:
            ranks.append(None)
            tops.append(None)
            continue
        if pairs is None:
            scores = [0.0] * n
        else:
            counts, seg_starts, _, cos = pairs
            start = int(seg_starts[i])
            scores = [round(float(c), 12) for c in cos[start:start + int(counts[i])]]
        ranks.append(percentile_rank(scores, t))
        tops.append(top_share(scores, t))
    return ranks, tops
