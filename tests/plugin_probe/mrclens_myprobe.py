"""A tiny MRCLens plug-in, as a third-party package ``mrclens-myprobe`` would ship it (the tests install
it with a ``.dist-info`` on ``sys.path``; :mod:`tests.test_plugins`).

* ablation **x1** (Question bias): the question lower-cased; a reader that leans on capitalised
  question words to find the answer loses F1 (a large drop would mean casing is a cue);
* figure **answer_chars**: the mean length of the first gold answer, in characters, and ``n``.
"""

from __future__ import annotations

from mrclens.perturbations import Ablation
from mrclens.perturbations.base import changed, copy_question, unchanged
from mrclens.squad import Paragraph
from mrclens.stats.plugins import Figure


def lower_case_question(example, parsed, rng):
    """Lower-case every question of one paragraph (the context and the answers are unchanged)."""
    questions, records = [], {}
    for q in example.questions:
        new = q.question.lower()
        if new == q.question:
            records[q.id] = unchanged("already_lower_case")
            questions.append(q)
        else:
            records[q.id] = changed(old=q.question, new=new)
            questions.append(copy_question(q, question=new))
    return Paragraph(example.context, questions), records


X1 = Ablation(id="x1", name="lower-cased question", category="Question", eval_set="full", bias_signal="small_drop",
              description="Lower-case the question.", apply=lower_case_question,
              no_answer_rule="Same rule; the gold answer stays \"no answer\".")


def answer_chars(dataset):
    lengths = [len(q.answers[0].text) for _, _, q in dataset.iter_questions() if q.answers]
    return {"mean": sum(lengths) / len(lengths) if lengths else None, "n": len(lengths)}


ANSWER_CHARS = Figure("answer_chars", ("mean", "n"), answer_chars, "first gold answer length (characters)")
