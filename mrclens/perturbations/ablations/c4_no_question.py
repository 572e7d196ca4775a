"""c4 — reference for e4 (Question bias) — the question removed entirely (full set).

Rule (issue 16, part 2): every question text is replaced by the placeholder
:data:`NO_QUESTION` (``"?"``); contexts and answers are unchanged, so every ``answer_start`` is
exact. e4 keeps only the question's interrogative words (and the ``"?"``), so e4 and c4 differ in
exactly those words: c4's drop is what answering *without any question* costs, and the share of
it that e4 recovers (:mod:`mrclens.scoring.drops`, ``recovered_share``) is what the wh-words alone
are worth.

Why a placeholder and not an empty string: the SQuAD schema check (:func:`mrclens.formats.load_dataset`,
``mrclens validate``) rejects an empty question, and many external readers cannot tokenise one.
``"?"`` is a single punctuation token that every SQuAD question already ends with, so it carries
no information about what is asked (the built-in reader sees a one-token question; an empty one
would be padded to one token anyway, :func:`mrclens.baseline_model.reader.make_batch`).

Unchanged (with reason): ``already_no_question`` (the question already is the placeholder).
Registered as a control of e4 (``control_of="e4"``), so asking for e4 brings c4 along and the
two are shown side by side; unlike the insertion controls it is a *reference* (the loss with no
question at all), read in e4's reading rather than as an excess drop.
"""

from __future__ import annotations

from mrclens.perturbations.ablations.e4_interrogative_only import E4
from mrclens.perturbations.base import rewrite_questions
from mrclens.perturbations.registry import Ablation, register

#: The question text of every c4 item (rationale in the module docstring).
NO_QUESTION = "?"


def remove_question(example, parsed, rng):
    """Replace every question of one paragraph by :data:`NO_QUESTION` (context unchanged; ``parsed`` and ``rng`` unused).

    Returns:
        ``(new paragraph, {question id: change record})``; the detail holds ``old`` (the question text).
    """
    return rewrite_questions(example, lambda q: (None, "already_no_question") if q.question == NO_QUESTION else (NO_QUESTION, {}))


C4 = register(Ablation(
    id="c4",
    name="no question (reference for e4)",
    category=E4.category,
    eval_set=E4.eval_set,
    description="Remove the question entirely (placeholder '?'): the reference that e4's wh-words are read against.",
    bias_signal="control",
    apply=remove_question,
    no_answer_rule='Same rule: the question is removed; the gold answer stays "no answer".',
    control_of="e4",
))
