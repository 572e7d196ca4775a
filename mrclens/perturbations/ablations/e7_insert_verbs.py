"""e7 — Keyword bias — insert the question's verbs into a non-answer sentence (truncated set).

Rule (MRCLens issue 3; ablation from Zhong, Wang & Xing, DataPerf@ICML 2022): the question's
tokens with coarse POS ``VERB`` (auxiliaries, ``AUX``, are not verbs here), in question order, joined by single spaces, are
inserted (followed by one space) at a random token boundary inside one random non-answer
sentence unit: the unit is drawn uniformly, then the boundary uniformly among the unit's token
starts that are the unit's start or follow whitespace
(:func:`mrclens.perturbations.base.insert_in_unit`).

Unchanged (with reason): ``no_verbs``, ``no_non_answer_unit``.

Unanswerable questions (SQuAD v2.0, no gold answer): As e1: the verbs go into a random sentence of
the whole context, since no unit holds an answer.
"""

from __future__ import annotations

from mrclens.perturbations.ablations._keywords import keyword_ablation
from mrclens.perturbations.registry import Ablation, register

insert_verbs = keyword_ablation({"VERB"}, "no_verbs", "insert_verbs")
insert_verbs.__doc__ = "Apply e7 to one paragraph → ``(new paragraph, {question id: change record})`` (detail: inserted, offset, unit)."

E7 = register(Ablation(
    id="e7",
    name="insert verbs",
    category="Keyword",
    eval_set="truncated",
    description="Insert the question's verbs at a random place in a random sentence that holds no answer.",
    no_answer_rule='As e1: the verbs go into a random sentence of the whole context, since no unit holds an answer.',
    bias_signal="large_drop",
    apply=insert_verbs,
    other_direction="The question's verbs next to a wrong sentence do not pull the reader: it does not match keywords alone.",
))
