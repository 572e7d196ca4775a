"""Property-based tests (hypothesis) of what every ablation's output must be (:mod:`mrclens.perturbations.contract`,
MRCLens issue 42): a faithful edit passes; a dropped or added question, a moved answer or a missing or
malformed change record is caught, naming the first offending question id."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mrclens.errors import InvariantError, PluginError
from mrclens.perturbations.base import changed, copy_question, insert_text, unchanged
from mrclens.perturbations.contract import apply_ablation, output_violation
from mrclens.perturbations.registry import ABLATIONS, Ablation
from mrclens.squad import Answer, Paragraph, Question
from perturb_helpers import hand_parse

WORDS = ["Paris", "é", "Zürich", "中文", "🙂", "naïve", "a", "the", "Köln", "x1", "ß", "Ω", "France", "river"]
SETTINGS = settings(max_examples=120, deadline=None)


@st.composite
def paragraphs(draw):
    """A context of random (partly non-ASCII) words and 1-5 questions, each with 1-2 answers on token spans."""
    words = draw(st.lists(st.sampled_from(WORDS), min_size=2, max_size=30))
    context = " ".join(words) + "."
    parse = hand_parse(context)
    n = len(parse.starts)
    questions = []
    for i in range(draw(st.integers(1, 5))):
        answers = []
        for _ in range(draw(st.integers(1, 2))):
            a = draw(st.integers(0, n - 1))
            b = draw(st.integers(a, min(n - 1, a + 3)))
            s, e = parse.starts[a], parse.ends[b]
            answers.append(Answer(context[s:e], s))
        questions.append(Question(f"q{i}", f"question {i}?", answers))
    return Paragraph(context, questions)


def _faithful(p: Paragraph, data) -> tuple[Paragraph, dict]:
    """A correct edit: text inserted where it cuts no answer (every later answer_start shifted), one record each."""
    allowed = [k for k in range(len(p.context) + 1)
               if not any(a.answer_start < k < a.answer_end for q in p.questions for a in q.answers)]
    new = insert_text(p, data.draw(st.sampled_from(allowed)), data.draw(st.text(min_size=1, max_size=8)))
    records = {q.id: data.draw(st.sampled_from([changed(inserted=True), unchanged("no_room")])) for q in p.questions}
    return new, records


@SETTINGS
@given(paragraphs(), st.data())
def test_a_faithful_edit_passes(p, data):
    assert output_violation(p, _faithful(p, data), "x1") is None


@SETTINGS
@given(paragraphs(), st.data())
def test_the_first_dropped_question_is_named(p, data):
    new, records = _faithful(p, data)
    dropped = data.draw(st.sets(st.sampled_from([q.id for q in p.questions]), min_size=1))
    kept = Paragraph(new.context, [q for q in new.questions if q.id not in dropped])
    violation = output_violation(p, (kept, records), "x1")
    first = next(q.id for q in p.questions if q.id in dropped)
    assert violation.qid == first
    assert f"dropped question {first} (its paragraph has {len(p.questions)} questions, the output {len(kept.questions)})" in violation.message


@SETTINGS
@given(paragraphs(), st.data())
def test_an_added_or_repeated_question_is_named(p, data):
    new, records = _faithful(p, data)
    i = data.draw(st.integers(0, len(p.questions) - 1))
    added = copy_question(new.questions[i])
    if data.draw(st.booleans()):
        added = Question("q-new", added.question, added.answers)
    violation = output_violation(p, (Paragraph(new.context, new.questions + [added]), records), "x1")
    assert violation.qid == added.id
    assert (f"added question {added.id}," if added.id == "q-new" else f"returned question {added.id} twice") in violation.message


@SETTINGS
@given(paragraphs(), st.data())
def test_an_answer_off_its_offset_is_named(p, data):
    new, records = _faithful(p, data)
    i = data.draw(st.integers(0, len(p.questions) - 1))
    q = new.questions[i]
    a = q.answers[0]
    shift = data.draw(st.integers(-a.answer_start, len(new.context) - a.answer_start).filter(lambda d: d != 0))
    if new.context[a.answer_start + shift: a.answer_end + shift] == a.text:
        return  # the same text also stands there: not a moved answer
    moved = copy_question(q, answers=[Answer(a.text, a.answer_start + shift)] + q.answers[1:])
    questions = new.questions[:i] + [moved] + new.questions[i + 1:]
    violation = output_violation(p, (Paragraph(new.context, questions), records), "x1")
    assert violation.qid == q.id and f"answer_start {a.answer_start + shift} in the perturbed context" in violation.message


BAD_RECORDS = [None, {"changed": True}, {"changed": 1, "reason": None, "detail": {}},
               {"changed": True, "reason": "why", "detail": {}}, {"changed": False, "reason": None, "detail": {}},
               {"changed": False, "reason": "", "detail": {}}, {"changed": True, "reason": None, "detail": []},
               {"changed": True, "reason": None, "detail": {}, "extra": 1}]


@SETTINGS
@given(paragraphs(), st.data())
def test_the_first_missing_malformed_or_non_json_record_is_named(p, data):
    new, records = _faithful(p, data)
    spoiled = data.draw(st.sets(st.sampled_from(list(records)), min_size=1))
    how = data.draw(st.sampled_from(["missing", "malformed", "not json"]))
    for qid in spoiled:
        if how == "missing":
            del records[qid]
        elif how == "malformed":
            records[qid] = data.draw(st.sampled_from(BAD_RECORDS))
        else:
            records[qid] = changed(score=data.draw(st.sampled_from([math.nan, math.inf, object()])))
    first = next(q.id for q in p.questions if q.id in spoiled)
    violation = output_violation(p, (new, records), "x1")
    said = {"missing": f"gave no change record for question {first}", "malformed": f"the change record of question {first} is",
            "not json": f"the change record of question {first} cannot be written as JSON"}[how]
    assert violation.qid == first and said in violation.message
    # built-in ablations' records are not serialised here (the manifest's writer does): only the JSON rule is theirs alone
    assert (output_violation(p, (new, records), "x1", json_records=False) is None) == (how == "not json")


@SETTINGS
@given(paragraphs(), st.sampled_from([None, "text", (1, 2, 3), ("paragraph", {}), [Paragraph("c", []), []]]))
def test_an_output_that_is_not_a_paragraph_and_records_is_named(p, output):
    violation = output_violation(p, output, "x1")
    assert violation is not None and violation.qid == p.questions[0].id


def test_a_built_in_ablation_that_breaks_the_rules_is_a_bug_and_a_plug_in_one_is_named(monkeypatch):
    """The same rule, two faults: a built-in ablation's broken output is an InvariantError (exit 3, a bug in
    MRCLens); one registered by other code in the process is a PluginError (exit 2) naming its function."""
    from mrclens.perturbations import registry

    p = Paragraph("Paris is in France.", [Question("q1", "Where is Paris?", [Answer("France", 12)])])

    def drops(example, parsed, rng):
        return Paragraph(example.context, []), {"q1": changed()}

    monkeypatch.setitem(ABLATIONS, "e4", Ablation(id="e4", name="x", category="Question", eval_set="full",
                                                   bias_signal="small_drop", apply=drops))
    with pytest.raises(InvariantError, match="ablation e4 dropped question q1"):
        apply_ablation(ABLATIONS["e4"], p, None, None)
    monkeypatch.setitem(ABLATIONS, "z1", Ablation(id="z1", name="x", category="Question", eval_set="full",
                                                   bias_signal="small_drop", apply=drops))
    assert registry.plugin_source("z1") is not None and registry.plugin_source("e4") is None
    with pytest.raises(PluginError, match=r"^plug-in 'z1' \(tests?\.?.*drops, registered in this process\): "
                                          r"ablation z1 dropped question q1 .*fix or uninstall the code that registered it"):
        apply_ablation(ABLATIONS["z1"], p, None, None)
