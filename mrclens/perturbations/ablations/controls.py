"""c1, c2, c6, c7, c8 — matched controls of the insertion ablations.

Rule (issue 16; full text in :mod:`mrclens.perturbations.controls`):
Each control inserts, at exactly its ablation's offset, as many words as the ablation inserted,
taken from text that does not overlap the question: an unrelated sentence of another article
(c1, c2) or words with the same coarse POS from other articles' questions (c6–c8). Its drop is
what *any* insertion there costs; the ablation's excess drop over it is what the overlap with
the question costs (issue 16).

Unanswerable questions (SQuAD v2.0): as their ablation (the text goes where the ablation put its
own, a random sentence of the whole context); a question the ablation left unchanged is left
unchanged with the same reason.
"""

from __future__ import annotations

from mrclens.perturbations.ablations.e1_insert_question import E1
from mrclens.perturbations.ablations.e2_insert_half_question import E2
from mrclens.perturbations.ablations.e6_insert_nouns import E6
from mrclens.perturbations.ablations.e7_insert_verbs import E7
from mrclens.perturbations.ablations.e8_insert_adjectives import E8
from mrclens.perturbations.controls import control_apply, keyword_text, sentence_text
from mrclens.perturbations.registry import Ablation, register

_KEYWORD_TAGS = {"e6": {"NOUN", "PROPN"}, "e7": {"VERB"}, "e8": {"ADJ"}}


def _control(ablation: Ablation, text, what: str) -> Ablation:
    cid = "c" + ablation.id[1:]
    return register(Ablation(
        id=cid,
        name=f"control for {ablation.id}",
        category=ablation.category,
        eval_set=ablation.eval_set,
        description=f"Insert as many {what} as {ablation.id} inserts, at {ablation.id}'s position.",
        bias_signal="control",
        apply=control_apply(cid, ablation.apply, text),
        control_of=ablation.id,
        no_answer_rule=f"As {ablation.id}: the text goes at {ablation.id}'s position (a random sentence of the whole context).",
    ))


C1 = _control(E1, sentence_text, "words of an unrelated sentence of another article")
C2 = _control(E2, sentence_text, "words of an unrelated sentence of another article")
C6 = _control(E6, keyword_text(_KEYWORD_TAGS["e6"]), "nouns from other articles, absent from the question,")
C7 = _control(E7, keyword_text(_KEYWORD_TAGS["e7"]), "verbs from other articles, absent from the question,")
C8 = _control(E8, keyword_text(_KEYWORD_TAGS["e8"]), "adjectives from other articles, absent from the question,")
