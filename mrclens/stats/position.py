"""Where answers sit: the answer sentence's position in the context (Position bias).

Ko, Lee, Kim, Kim & Kang, "Look at the First Sentence: Position Bias in Question Answering",
EMNLP 2020: on SQuAD most answers lie in the first sentences, and a reader trained where answers
sit in the first sentence fails when they sit elsewhere. These figures say how skewed a dataset
is; the audit's e9 (:mod:`mrclens.perturbations.ablations.e9_move_answer_sentence`) measures
whether a reader relies on it. Sentences are the sentence units of :mod:`mrclens.units` (spaCy
sentences merged where an answer crosses a boundary), as everywhere in MRCLens.
"""

from __future__ import annotations

from typing import Sequence

from mrclens.stats.summary import share_pct, shares, summarize

#: The labels of ``answer_position.sentence_shares``: the answer's sentence unit, 1-based, then ``later``.
POSITION_LABELS = ("sentence_1", "sentence_2", "sentence_3", "later")
_FRACTION_BINS = [i / 10 for i in range(11)]


def position_label(unit_index: int) -> str:
    """The :data:`POSITION_LABELS` label of a 0-based unit index.

    >>> [position_label(i) for i in (0, 1, 2, 3, 9)]
    ['sentence_1', 'sentence_2', 'sentence_3', 'later', 'later']
    """
    return POSITION_LABELS[min(unit_index, len(POSITION_LABELS) - 1)]


def position_figures(unit_index: Sequence[int | None], n_units: Sequence[int]) -> dict:
    """The answer-sentence position figures added to the ``answer_position`` statistics section.

    Args:
        unit_index: per answerable question, the 0-based index of its first gold answer's
            sentence unit (``None`` when the answer lies in no unit).
        n_units: per answerable question (same order), the number of sentence units of its context.

    Returns:
        ``{"sentence_shares": counts and shares (percent) of answers in sentence 1, 2, 3 and later
        (:func:`mrclens.stats.summary.shares` over :data:`POSITION_LABELS`), "relative_sentence_position":
        summary of ``index / (units - 1)`` (0 = first sentence, 1 = last; contexts of one unit are
        missing), "last_sentence_pct": percent of answers in the last unit of a context of at least
        two units}``.

    Raises:
        ValueError: the two sequences differ in length.
    """
    if len(unit_index) != len(n_units):
        raise ValueError(f"unit_index has {len(unit_index)} items but n_units has {len(n_units)}")
    relative = [None if u is None or n < 2 else u / (n - 1) for u, n in zip(unit_index, n_units)]
    return {
        "sentence_shares": shares((position_label(u) for u in unit_index if u is not None), POSITION_LABELS),
        "relative_sentence_position": summarize(
            relative, bins=_FRACTION_BINS, unit="answer sentence index / (sentence units - 1); 0 = first, 1 = last"),
        "last_sentence_pct": share_pct(None if u is None or n < 2 else u == n - 1 for u, n in zip(unit_index, n_units)),
    }
