"""e6 — Keyword bias — insert the question's nouns into a non-answer sentence (truncated set).

Rule (MRCLens issue 3; ablation from Zhong, Wang & Xing, DataPerf@ICML 2022): the question's
tokens with coarse POS ``NOUN`` or ``PROPN``, in question order, joined by single spaces, are
inserted (followed by one space) at a random token boundary inside one random non-answer
sentence unit: the unit is drawn uniformly, then the boundary uniformly among the unit's token
starts that are the unit's start or follow whitespace
(:func:`mrclens.perturbations.base.insert_in_unit`).

Unchanged (with reason): ``no_nouns``, ``no_non_answer_unit``.

Unanswerable questions (SQuAD v2.0, no gold answer): As e1: the nouns go into a random sentence of
the whole context, since no unit holds an answer.
"""

from __future__ import annotations

from mrclens.perturbations.ablations._keywords import keyword_ablation
from mrclens.perturbations.registry import Ablation, register

insert_nouns = keyword_ablation({"NOUN", "PROPN"}, "no_nouns", "insert_nouns")
insert_nouns.__doc__ = "Apply e6 to one paragraph → ``(new paragraph, {question id: change record})`` (detail: inserted, offset, unit)."

E6 = register(Ablation(
    id="e6",
    name="insert nouns",
    category="Keyword",
    eval_set="truncated",
    description="Insert the question's nouns at a random place in a random sentence that holds no answer.",
    no_answer_rule='As e1: the nouns go into a random sentence of the whole context, since no unit holds an answer.',
    bias_signal="large_drop",
    apply=insert_nouns,
    other_direction="The question's nouns next to a wrong sentence do not pull the reader: it does not match keywords alone.",
))
