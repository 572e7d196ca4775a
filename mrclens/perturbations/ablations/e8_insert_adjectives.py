"""e8 — Keyword bias — insert the question's adjectives into a non-answer sentence (truncated set).

Rule (MRCLens issue 3; ablation from Zhong, Wang & Xing, DataPerf@ICML 2022): the question's
tokens with coarse POS ``ADJ``, in question order, joined by single spaces, are
inserted (followed by one space) at a random token boundary inside one random non-answer
sentence unit: the unit is drawn uniformly, then the boundary uniformly among the unit's token
starts that are the unit's start or follow whitespace
(:func:`mrclens.perturbations.base.insert_in_unit`).

Unchanged (with reason): ``no_adjectives``, ``no_non_answer_unit``.

Unanswerable questions (SQuAD v2.0, no gold answer): As e1: the adjectives go into a random
sentence of the whole context, since no unit holds an answer.
"""

from __future__ import annotations

from mrclens.perturbations.ablations._keywords import keyword_ablation
from mrclens.perturbations.registry import Ablation, register

insert_adjectives = keyword_ablation({"ADJ"}, "no_adjectives", "insert_adjectives")
insert_adjectives.__doc__ = "Apply e8 to one paragraph → ``(new paragraph, {question id: change record})`` (detail: inserted, offset, unit)."

E8 = register(Ablation(
    id="e8",
    name="insert adjectives",
    category="Keyword",
    eval_set="truncated",
    description="Insert the question's adjectives at a random place in a random sentence that holds no answer.",
    no_answer_rule='As e1: the adjectives go into a random sentence of the whole context, since no unit holds an answer.',
    bias_signal="large_drop",
    apply=insert_adjectives,
    other_direction="The question's adjectives next to a wrong sentence do not pull the reader: it does not match keywords alone.",
))
