"""The sentence most similar to the question, by TF-IDF cosine.

Rule (Sugawara et al. 2018, "What Makes Reading Comprehension Questions Easier?", EMNLP,
call questions whose answer lies in the context sentence most similar to the question
"easy"; the MRCLens paper, Zhong, Wang & Xing 2022, reports this share for SQuAD v1.1 dev).
The similarity measure is TF-IDF cosine, as the MRCLens issue specifies:

* Words are counted with scikit-learn's word analyzer (:class:`~sklearn.feature_extraction.text.CountVectorizer`
  defaults: lower-casing, tokens ``(?u)\\b\\w\\w+\\b``, no stop-word list) and weighted by the **shipped IDF**
  of the reference corpus (:mod:`mrclens.stats.idf`; issue 54: an IDF fitted on the audited file made the figure
  measure the file's size), raw term counts times IDF, L2-normalised (scikit-learn's ``TfidfTransformer``
  with ``smooth_idf``, ``sublinear_tf`` off). A question's figure depends on its own paragraph alone, not on
  which other questions share its file.
* Each question is transformed alike, and its cosine similarity with each sentence unit of
  its own paragraph is the dot product of the two L2-normalised rows.
* The most similar unit is the one with the highest cosine; ties go to the earliest unit (a
  question sharing no word with its paragraph therefore gets unit 0).
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np


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
            order); words are weighted by the shipped IDF (:func:`weighted_matrices`).

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


def unit_cosines(questions: Sequence[str], question_paragraph: Sequence[int],
                 paragraph_units: Sequence[Sequence[str]]) -> list[list[float]]:
    """For each question, the TF-IDF cosine (0–1) of each sentence unit of its paragraph with it, in unit order
    (the weighting of :func:`most_similar_units`; rounded to 12 decimals, as :func:`similarity_ranks` compares them).

    Returns:
        one list per question, of its paragraph's length (all 0.0 when no unit holds a word).

    Raises:
        ValueError: the lengths of ``questions`` and ``question_paragraph`` differ.

    Examples:
        >>> [[round(c, 2) for c in cs] for cs in unit_cosines(["Where did the cat sleep?"], [0],
        ...                                                    [["The dog ran.", "The cat slept on the mat."]])]
        [[0.01, 0.37]]
    """
    if len(questions) != len(question_paragraph):
        raise ValueError("questions and question_paragraph must have the same length")
    sizes = [len(u) for u in paragraph_units]
    pairs = _pair_cosines(questions, question_paragraph, paragraph_units) if questions else None
    if pairs is None:
        return [[0.0] * sizes[p] for p in question_paragraph]
    counts, seg_starts, _, cos = pairs
    return [[round(float(c), 12) for c in cos[int(s):int(s) + int(n)]] for s, n in zip(seg_starts, counts)]


def _pair_cosines(questions: Sequence[str], question_paragraph: Sequence[int],
                  paragraph_units: Sequence[Sequence[str]], analyzer: Callable[[str], list[str]] | None = None):
    """``(counts, seg_starts, within, cos)`` over every (question, unit of its paragraph) pair, question
    by question (``counts``: units per question; ``within``: the unit's index in its paragraph), or
    ``None`` when there is no vocabulary (no unit, or no word in any unit). ``analyzer``: the
    word analyzer (default: scikit-learn's, :func:`weighted_matrices`)."""
    sizes = np.array([len(u) for u in paragraph_units], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    all_units = [t for units in paragraph_units for t in units]
    if not all_units:
        return None
    weighted = weighted_matrices(all_units, questions, analyzer)
    if weighted is None:  # every sentence is empty of words: no vocabulary
        return None
    unit_matrix, question_matrix = weighted
    n_q = len(questions)
    qp = np.asarray(question_paragraph, dtype=np.int64)
    counts = sizes[qp]  # units per question
    pair_q = np.repeat(np.arange(n_q), counts)
    seg_starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    within = np.arange(pair_q.size) - np.repeat(seg_starts, counts)
    pair_u = offsets[qp][pair_q] + within
    cos = np.asarray(question_matrix[pair_q].multiply(unit_matrix[pair_u]).sum(axis=1)).ravel()
    return counts, seg_starts, within, cos


def weighted_matrices(units: Sequence[str], questions: Sequence[str],
                      analyzer: Callable[[str], list[str]] | None = None):
    """``(unit_matrix, question_matrix)``: the L2-normalised TF-IDF rows (CSR, one per text) of ``units`` and
    ``questions`` over their joint vocabulary, the words weighted by the shipped IDF
    (:meth:`mrclens.stats.idf.IdfTable.weights`; a word the corpus lacks weighs as the rarest), or ``None`` when
    no unit holds a word. With a custom ``analyzer`` (the tokens of a language
    other than the reference corpus's, :mod:`mrclens.stats.sentencizer`) the English corpus's counts do not
    apply: every word is weighted by its rate among the distinct ``units`` (scikit-learn's smoothed IDF over them).

    >>> units, questions = weighted_matrices(["The cat slept.", "A dog ran."], ["Where did the cat sleep?"])
    >>> units.shape[0], questions.shape[0], round(float(units[0].multiply(units[0]).sum()), 6)
    (2, 1, 1.0)
    """
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.preprocessing import normalize

    from mrclens.stats.idf import IdfTable, shipped_idf_table

    counter = CountVectorizer() if analyzer is None else CountVectorizer(analyzer=analyzer)
    try:
        counter.fit(list(units) + list(questions))
    except ValueError:  # no word anywhere
        return None
    unit_counts = counter.transform(units).tocsr()
    if unit_counts.nnz == 0:
        return None
    first: dict[str, int] = {}
    distinct = [first.setdefault(t, i) == i for i, t in enumerate(units)]
    data_df = np.asarray((unit_counts[np.flatnonzero(distinct)] > 0).sum(axis=0)).ravel()
    words = list(counter.get_feature_names_out())
    table = (shipped_idf_table() if analyzer is None
             else IdfTable.of_units("the data's own", words, data_df.tolist(), int(sum(distinct))))
    idf = np.asarray(table.weights(words))
    unit_matrix = normalize(unit_counts.multiply(idf).tocsr())
    question_matrix = normalize(counter.transform(questions).multiply(idf).tocsr())
    return unit_matrix, question_matrix


def similarity_ranks(questions: Sequence[str], question_paragraph: Sequence[int],
                     paragraph_units: Sequence[Sequence[str]], target_units: Sequence[int | None], *,
                     analyzer: Callable[[str], list[str]] | None = None) -> list[float | None]:
    """For each question, the percentile rank (percent; :func:`mrclens.stats.chance.percentile_rank`)
    of unit ``target_units[i]`` (e.g. its answer's sentence unit) among its paragraph's units by
    TF-IDF cosine with the question (the weighting of :func:`most_similar_units`): 100 = the most
    similar, 0 = the least, 50 = a unit drawn at random; ties share the rank. ``analyzer`` replaces
    the word analyzer (e.g. ``str.split`` on texts that are tokens joined by spaces).

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
