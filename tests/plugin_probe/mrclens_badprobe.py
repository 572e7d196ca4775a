"""Faulty MRCLens plug-ins, as third-party code may ship them (issue 42, "plug-ins are someone else's code").

Each ablation here has the id ``x1`` and each figure the name ``answer_chars``, so that a test installs one
of them under the entry point the working probe (:mod:`mrclens_myprobe`) uses and runs
``mrclens perturb --ablations x1`` / ``mrclens stats`` as a user would (:mod:`tests.test_plugins`). Every one
of them must stop the command with exit code 2 and a message naming the plug-in, never exit 3.
"""

from __future__ import annotations

from mrclens.perturbations import Ablation
from mrclens.perturbations.base import changed
from mrclens.squad import Paragraph, Question
from mrclens.stats.plugins import Figure


def _lower(example):
    """The working rule of ``mrclens_myprobe.X1``: every question lower-cased, one change record each."""
    questions = [Question(q.id, q.question.lower(), q.answers, q.is_impossible, q.extra) for q in example.questions]
    return questions, {q.id: changed(old=q.question, new=q.question.lower()) for q in example.questions}


def raises(example, parsed, rng):
    raise RuntimeError("probe failure")


def returns_none(example, parsed, rng):
    return None


def records_not_a_mapping(example, parsed, rng):
    questions, records = _lower(example)
    return Paragraph(example.context, questions), list(records.values())


def drops_questions(example, parsed, rng):
    """Keeps only the first question of each paragraph (its change records name all of them)."""
    questions, records = _lower(example)
    return Paragraph(example.context, questions[:1]), records


def adds_a_question(example, parsed, rng):
    questions, records = _lower(example)
    extra = Question(questions[0].id + "-extra", "an added question?", questions[0].answers)
    return Paragraph(example.context, questions + [extra]), {**records, extra.id: changed()}


def breaks_offsets(example, parsed, rng):
    """Puts a sentence before the context without moving any ``answer_start``."""
    questions, records = _lower(example)
    return Paragraph("A sentence the plug-in put first. " + example.context, questions), records


def omits_records(example, parsed, rng):
    questions, _ = _lower(example)
    return Paragraph(example.context, questions), {}


def bad_record(example, parsed, rng):
    questions, _ = _lower(example)
    return Paragraph(example.context, questions), {q.id: {"changed": "yes"} for q in questions}


def record_not_json(example, parsed, rng):
    questions, records = _lower(example)
    return Paragraph(example.context, questions), {q: {**r, "detail": {"rng": rng}} for q, r in records.items()}


def lower(example, parsed, rng):
    questions, records = _lower(example)
    return Paragraph(example.context, questions), records


def prepare_raises(dataset, context_parses, question_parses, seed, cache_dir):
    raise KeyError("vocabulary")


def _x1(apply, prepare=None):
    return Ablation(id="x1", name="faulty probe", category="Question", eval_set="full", bias_signal="small_drop",
                    description="A plug-in ablation with a fault.", apply=apply, prepare=prepare)


RAISES = _x1(raises)
RETURNS_NONE = _x1(returns_none)
RECORDS_NOT_A_MAPPING = _x1(records_not_a_mapping)
DROPS_QUESTIONS = _x1(drops_questions)
ADDS_A_QUESTION = _x1(adds_a_question)
BREAKS_OFFSETS = _x1(breaks_offsets)
OMITS_RECORDS = _x1(omits_records)
BAD_RECORD = _x1(bad_record)
RECORD_NOT_JSON = _x1(record_not_json)
PREPARE_RAISES = _x1(lower, prepare_raises)
#: an id that would name its set file outside the output folder
BAD_ID = Ablation(id="../x3", name="faulty probe", category="Question", eval_set="full", bias_signal="small_drop",
                  apply=lower)


def figure_raises(dataset):
    return {"mean": 1 / 0}


def figure_returns_none(dataset):
    return None


def figure_returns_a_list(dataset):
    return [1.0, 2.0]


def figure_returns_text(dataset):
    return {"mean": "long", "n": 3}


FIGURE_RAISES = Figure("answer_chars", ("mean", "n"), figure_raises)
FIGURE_RETURNS_NONE = Figure("answer_chars", ("mean", "n"), figure_returns_none)
FIGURE_RETURNS_A_LIST = Figure("answer_chars", ("mean", "n"), figure_returns_a_list)
FIGURE_RETURNS_TEXT = Figure("answer_chars", ("mean", "n"), figure_returns_text)
