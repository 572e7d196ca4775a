"""c1, c2, c6, c7, c8, c9, c10 — matched controls of the insertion ablations and of e9.

Rule (issue 16; full text in :mod:`mrclens.perturbations.controls`):
Each control inserts, at exactly its ablation's offset, as many words as the ablation inserted,
taken from text that does not overlap the question: an unrelated sentence of another article
(c1, c2) or words with the same coarse POS from other articles' questions (c6–c8). Its drop is
what *any* insertion there costs; the ablation's excess drop over it is what the overlap with
the question costs (issue 16). c10 controls e10's decoy statement as c1 controls e1. c9 (issue 17)
is the move control of e9: it moves a sentence that does not hold the answer by e9's displacement
(:func:`mrclens.perturbations.ablations.e9_move_answer_sentence.move_other_sentence`).

Unanswerable questions (SQuAD v2.0): as their ablation (the text goes where the ablation put its
own, a random sentence of the whole context); a question the ablation left unchanged is left
unchanged with the same reason (c9 and c10 leave every unanswerable question unchanged, as e9
and e10 do).
"""

from __future__ import annotations

from mrclens.perturbations.ablations.e1_insert_question import E1
from mrclens.perturbations.ablations.e2_insert_half_question import E2
from mrclens.perturbations.ablations.e6_insert_nouns import E6
from mrclens.perturbations.ablations.e7_insert_verbs import E7
from mrclens.perturbations.ablations.e8_insert_adjectives import E8
from mrclens.perturbations.ablations.e9_move_answer_sentence import E9, move_other_sentence
from mrclens.perturbations.ablations.e10_decoy_statement import E10
from mrclens.perturbations.controls import control_apply, keyword_text, sentence_text
from mrclens.perturbations.registry import Ablation, register

_KEYWORD_TAGS = {"e6": {"NOUN", "PROPN"}, "e7": {"VERB"}, "e8": {"ADJ"}}


def _control(ablation: Ablation, text, what: str, *, apply=None, description: str | None = None,
             no_answer_rule: str | None = None) -> Ablation:
    cid = "c" + ablation.id[1:]
    return register(Ablation(
        id=cid,
        name=f"control for {ablation.id}",
        category=ablation.category,
        eval_set=ablation.eval_set,
        description=description or f"Insert as many {what} as {ablation.id} inserts, at {ablation.id}'s position.",
        bias_signal="control",
        apply=apply or control_apply(cid, ablation.apply, text),
        control_of=ablation.id,
        no_answer_rule=no_answer_rule or f"As {ablation.id}: the text goes at {ablation.id}'s position (a random sentence of the whole context).",
    ))


C1 = _control(E1, sentence_text, "words of an unrelated sentence of another article")
C2 = _control(E2, sentence_text, "words of an unrelated sentence of another article")
C6 = _control(E6, keyword_text(_KEYWORD_TAGS["e6"]), "nouns from other articles, absent from the question,")
C7 = _control(E7, keyword_text(_KEYWORD_TAGS["e7"]), "verbs from other articles, absent from the question,")
C8 = _control(E8, keyword_text(_KEYWORD_TAGS["e8"]), "adjectives from other articles, absent from the question,")
C9 = _control(E9, None, "", apply=move_other_sentence,
              description="Move a sentence that holds no answer by e9's displacement (as far as it can go).",
              no_answer_rule="Left unchanged (reason no_answer), as e9 leaves it: without an answer sentence there is no displacement to match.")
C10 = _control(E10, sentence_text, "words of an unrelated sentence of another article",
               no_answer_rule="Left unchanged (reason no_answer), as e10 leaves it.")
