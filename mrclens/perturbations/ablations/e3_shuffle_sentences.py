"""e3 — Similarity bias — shuffle the paragraph's sentence units (full set).

Rule (MRCLens issue 3; ablation from Zhong, Wang & Xing, DataPerf@ICML 2022): draw one random
order of the paragraph's sentence units (one shuffle per paragraph, shared by all its
questions), different from the original order, and join the units' texts in that order with
single spaces (whitespace between units in the original is replaced by one space; text before
the first and after the last unit, which is whitespace only, is dropped). Every
``answer_start`` is recomputed: an answer inside unit ``u`` keeps its offset relative to the
start of ``u``. Units are merged where an answer crosses a sentence boundary, so every answer
lies inside one unit.

Unchanged (with reason): ``single_unit`` (the paragraph has one sentence unit).

Unanswerable questions (SQuAD v2.0, no gold answer): The context is shuffled as for every question
of the paragraph; there are no answer offsets to move, and the right answer stays "no answer".
"""

from __future__ import annotations

from mrclens.perturbations.base import changed, reorder_units, unchanged
from mrclens.perturbations.registry import Ablation, register


def shuffle_sentences(example, parsed, rng):
    """Apply e3 to one paragraph (all its questions share the new context).

    Returns:
        ``(new paragraph, {question id: change record})``; the detail holds ``permutation``:
        the original unit index at each new position (e.g. ``[2, 0, 1]``).

    Raises:
        InvariantError: an answer offset broke (never expected).
    """
    units = parsed.units
    if len(units) < 2:
        return example, {q.id: unchanged("single_unit") for q in example.questions}
    order = list(range(len(units)))
    while order == sorted(order):
        rng.shuffle(order)
    new = reorder_units(example, units, order, "e3")
    return new, {q.id: changed(permutation=list(order)) for q in example.questions}


E3 = register(Ablation(
    id="e3",
    name="shuffle sentences",
    category="Similarity",
    eval_set="full",
    description="Shuffle the order of the paragraph's sentences.",
    no_answer_rule='The context is shuffled as for every question of the paragraph; there are no answer offsets to move, and the right answer stays "no answer".',
    bias_signal="small_drop",
    apply=shuffle_sentences,
    other_direction='The reader needs the sentences in their order: it relies on discourse order or on where the answer sits in the context (see the Position category), not only on the sentence most similar to the question.',
    other_direction_category='Position',
))
