"""The example viewer's building blocks: text differences, highlighting, seeded choice."""

from __future__ import annotations

from mrclens.reports.examples import (
    Outcome,
    Segment,
    build_examples,
    choose_examples,
    diff_marks,
    highlight,
    inserted_marks,
    prediction_flips,
    sentence_reordering,
)
from mrclens.formats.squad_schema import parse_squad


def _marked(text: str, flags: list[bool]) -> str:
    return "".join(ch for ch, f in zip(text, flags) if f)


def test_insertion_is_found_by_prefix_and_suffix():
    before = "Jupiter is large. It has 95 moons."
    after = "Jupiter is large. How many moons? It has 95 moons."
    removed, added, kind = diff_marks(before, after)
    assert kind == "insertion"
    assert _marked(after, added) == "How many moons?"  # the inserted text, not the space that separates it
    assert not any(removed)


def test_insertion_that_repeats_neighbouring_text_marks_the_right_length():
    # the inserted text repeats the word that follows it: prefix/suffix must still mark exactly the inserted word
    before = "moons are many."
    after = "moons moons are many."
    removed, added, kind = diff_marks(before, after)
    assert kind == "insertion"
    assert _marked(after, added) == "moons"


def test_insertion_that_begins_like_the_next_word_is_not_shifted():
    # issue 33: e1 inserted "Who is …?" before "Wh…": a common prefix alone marked "ho is …? W" (off by one)
    before = "Denver won. Who scored? Nobody knows."
    inserted = "Who is the coach?"
    after = before[:12] + inserted + " " + before[12:]
    _, added, kind = diff_marks(before, after)
    assert kind == "insertion" and _marked(after, added) == inserted
    # where the text alone is ambiguous (the piece repeats its neighbours), the perturbation record decides
    before = "The Broncos won. The Broncos lost."
    inserted = "Broncos The"
    after = before[:21] + inserted + " " + before[21:]
    assert _marked(after, diff_marks(before, after)[1]) != inserted
    assert _marked(after, inserted_marks(before, after, {"inserted": inserted, "offset": 21})) == inserted
    assert inserted_marks(before, after, {"inserted": inserted, "offset": 20}) is None  # a record that does not fit
    assert inserted_marks(before, after, None) is None


def test_sentence_shuffle_is_a_reordering():
    before = "A cat sat. The dog ran. Birds sang."
    after = "Birds sang. A cat sat. The dog ran."
    removed, added, kind = diff_marks(before, after)
    assert kind == "reordering"
    assert _marked(after, added) == "Birds sang."
    assert _marked(before, removed) == "Birds sang."


def test_word_edit_marks_removed_and_added_words():
    removed, added, kind = diff_marks("Who discovered the moons?", "Who found the moons?")
    assert kind == "edit"
    assert _marked("Who discovered the moons?", removed) == "discovered"
    assert _marked("Who found the moons?", added) == "found"


def test_equal_texts_have_no_marks():
    assert diff_marks("same text", "same text") == ([False] * 9, [False] * 9, "none")


def test_highlight_splits_runs_with_answer_and_insertion():
    text = "ab INS cd ANSWER ef"
    changed = [3 <= i < 7 for i in range(len(text))]
    segs = highlight(text, changed, [(10, 16)])
    assert segs == [
        Segment("ab "),
        Segment("INS ", inserted=True),
        Segment("cd "),
        Segment("ANSWER", answer=True),
        Segment(" ef"),
    ]
    assert "".join(s.text for s in segs) == text
    assert segs[1].css_class == "ins" and segs[3].css_class == "ans" and segs[0].css_class == ""


def test_highlight_overlapping_answer_and_insert_gets_both_classes():
    segs = highlight("xyz", [False, True, True], [(2, 3)], changed_as="moved")
    assert [(s.text, s.css_class) for s in segs] == [("x", ""), ("y", "moved"), ("z", "moved ans")]


def test_choose_examples_prefers_changed_and_is_seeded():
    ids = [f"q{i}" for i in range(20)]
    changed = {f"q{i}" for i in range(0, 20, 2)}
    first = choose_examples(ids, changed, 3, seed=0, ablation_id="e1")
    assert first == choose_examples(ids, changed, 3, seed=0, ablation_id="e1")
    assert len(first) == 3 and set(first) <= changed
    assert first == sorted(first, key=ids.index)  # file order
    assert choose_examples(ids, changed, 3, seed=0, ablation_id="e2") != first
    # fewer changed than asked for: every changed one, topped up with unchanged ones
    few = choose_examples(ids, {"q5"}, 3, seed=0, ablation_id="e1")
    assert "q5" in few and len(few) == 3
    assert choose_examples([], set(), 3, seed=0, ablation_id="e1") == []


def test_outcome_verdicts():
    assert Outcome("95", 1.0, 1.0).verdict == "right"
    assert Outcome("Galileo", 0.0, 0.67).verdict == "partial"
    assert Outcome("Mars", 0.0, 0.0).verdict == "wrong"
    assert Outcome(None, 0.0, 0.0).verdict == "missing"


def _ds(context, qas):
    obj = {"version": "1.1", "data": [{"title": "T", "paragraphs": [{"context": context, "qas": qas}]}]}
    ds, problems = parse_squad(obj)
    assert not problems
    return ds


def test_build_examples_shows_the_scores_that_scoring_computed():
    ctx = "Jupiter is large. It has 95 moons."
    new = "Jupiter is large. How many moons does Jupiter have? It has 95 moons."
    q = {"id": "a", "question": "How many moons does Jupiter have?", "answers": [{"text": "95", "answer_start": ctx.index("95")}]}
    q2 = dict(q, answers=[{"text": "95", "answer_start": new.index("95")}])
    base, abl = _ds(ctx, [q]), _ds(new, [q2])
    from mrclens.metrics.official import question_scores

    before = question_scores(base, {"a": "95"})
    after = question_scores(abl, {"a": "Jupiter"})
    [ex] = build_examples(base, abl, ablation_id="e1", seed=0, k=3, baseline_predictions={"a": "95"},
                          ablated_predictions={"a": "Jupiter"}, baseline_scores=before, ablated_scores=after)
    assert ex.changed and ex.change_kind == "insertion" and ex.context_changed and not ex.question_changed
    assert [s.text for s in ex.context_after if s.inserted] == ["How many moons does Jupiter have?"]
    assert [s.text for s in ex.context_after if s.answer] == ["95"]
    assert [s.text for s in ex.context_before if s.answer] == ["95"]
    assert ex.golds == ["95"]
    assert (ex.before.verdict, ex.after.verdict) == ("right", "wrong")
    flips = prediction_flips(base, abl, {"a"}, {"a": "95"}, {"a": "Jupiter"}, before, after)
    assert flips == {"changed": 1, "prediction_changed": 1, "right_to_wrong": 1, "wrong_to_right": 0}
    # without the per-question scores the example has no outcome (the report does not score again)
    [bare] = build_examples(base, abl, ablation_id="e1", seed=0, k=3, baseline_predictions={"a": "95"},
                            ablated_predictions={"a": "Jupiter"})
    assert bare.before is None and bare.after is None


def test_build_examples_without_manifest_or_predictions():
    ctx = "One. Two."
    q = {"id": "a", "question": "What comes first?", "answers": [{"text": "One", "answer_start": 0}]}
    qe = dict(q, question="What?")
    [ex] = build_examples(_ds(ctx, [q]), _ds(ctx, [qe]), ablation_id="e4", seed=0)
    assert ex.changed and ex.question_changed and not ex.context_changed and ex.change_kind == "edit"
    assert ex.before is None and ex.after is None
    assert [s.text for s in ex.question_before if s.deleted] == ["comes first"]


def test_sentence_reordering_numbers_sentences_by_original_position():
    before = "Jupiter is big. It has 95 moons! Galileo saw four."
    after = "Galileo saw four. Jupiter is big. It has 95 moons!"
    labels_before, labels_after, moved = sentence_reordering(before, after)
    assert labels_before == {0: "1", 16: "2", 33: "3"}
    assert labels_after == {0: "3", 18: "1", 34: "2"}
    assert _marked(after, moved) == "Galileo saw four.Jupiter is big.It has 95 moons!"  # all moved; gaps between not
    assert sentence_reordering(before, before.replace("big", "large")) is None
    segs = highlight(after, moved, [(after.index("95"), after.index("95") + 2)], changed_as="moved", labels=labels_after)
    assert [(s.label, s.text) for s in segs if s.label] == [("3", "Galileo saw four."), ("1", "Jupiter is big."), ("2", "It has ")]
