"""Per-question shortcut evidence (issue 56) on real slices of the bundled sample: a planted question is flagged in
its family and its clean counterpart's evidence is weaker; the evidence agrees with the figures of ``mrclens stats``;
each rule on hand-made contexts."""

from __future__ import annotations

import pytest

from mrclens.categories import CATEGORY_NAMES
from mrclens.formats import load_dataset
from mrclens.selftest.plantings import PLANTINGS, plant, planting_applied
from mrclens.squad import Answer, Article, Dataset, Paragraph, Question
from mrclens.stats import compute_stats
from mrclens.stats.evidence import RULES, default_thresholds, flag_counts, format_flag_counts, shortcut_evidence
from stats_helpers import make_dataset

#: 429 questions of five articles of the bundled sample.
TITLES = ("Comprehensive_school", "Dutch_Republic", "Infrared", "Glacier", "Baptists")


@pytest.fixture(scope="module")
def slice_data(sample_path):
    ds = load_dataset(sample_path)
    return Dataset([a for a in ds.articles if a.title in TITLES], ds.version)


@pytest.fixture(scope="module")
def planted(slice_data):
    """Per planting: the evidence of its planted and its clean side by question id, and the questions it edits."""
    out = {}
    for name in PLANTINGS:
        pair = plant(slice_data, name, seed=0)
        by_id = {side: {r.id: r for r in shortcut_evidence(getattr(pair, side))} for side in ("planted", "clean")}
        out[name] = by_id["planted"], by_id["clean"], {q for q, ok in planting_applied(slice_data, name).items() if ok}
    return out


@pytest.mark.parametrize("name", list(PLANTINGS))
def test_a_planted_question_is_flagged_and_its_clean_counterpart_is_weaker(name, planted):
    family = PLANTINGS[name].family
    on_planted, on_clean, applied = planted[name]
    assert len(applied) >= 0.9 * len(on_planted)
    pairs = [(on_planted[q].of(family), on_clean[q].of(family)) for q in applied]
    weaker = sum(1 for p, c in pairs if c.strength <= p.strength) / len(pairs)
    stronger_on_clean = sum(1 for p, c in pairs if c.strength > p.strength)
    flagged_planted = sum(1 for p, _ in pairs if p.flagged) / len(pairs)
    flagged_clean = sum(1 for _, c in pairs if c.flagged) / len(pairs)
    assert weaker >= 0.95, (family, stronger_on_clean)
    if family == "Position":  # every planted answer sentence is first; flagged where the context has 3+ units
        assert all(p.in_first_sentence and p.sentence_index == 0 for p, _ in pairs)
        assert all(p.flagged == (p.sentences >= 3) for p, _ in pairs)
        assert flagged_planted >= 0.5 and flagged_clean <= flagged_planted / 2
    else:
        assert flagged_planted >= 0.8, (family, flagged_planted)  # 0.85 to 1.0 on this slice
        assert flagged_clean <= 0.15 and 5 * flagged_clean <= flagged_planted, (family, flagged_clean)


def test_the_planted_evidence_points_at_what_was_planted(planted):
    on_planted, on_clean, applied = planted["marked"]
    marks = {on_planted[q].question.marks for q in applied}
    assert marks == {"«»"} and all(on_planted[q].question.marked_spans == 1 for q in applied)
    assert all(on_clean[q].question.marks != "«»" for q in applied)  # the clean side marks a non-answer span
    on_planted, _, applied = planted["keywords"]
    assert sum(1 for q in applied if on_planted[q].keyword.next_to_answer) >= 0.95 * len(applied)
    on_planted, _, applied = planted["overlap"]
    assert sum(1 for q in applied if on_planted[q].similarity.most_similar) >= 0.97 * len(applied)


def test_the_evidence_agrees_with_the_figures_of_mrclens_stats(slice_data):
    rows = [r for r in shortcut_evidence(slice_data) if r.answerable]
    stats = compute_stats(slice_data, progress=False, n_process=1)
    assert len(rows) == stats["counts"]["answerable"]

    def pct(values):
        return 100.0 * sum(values) / len(values)

    # SQuAD train questions have one gold answer: the first answer's sentence is the answer sentence of the stats
    assert pct([r.similarity.most_similar for r in rows]) == pytest.approx(
        stats["similarity"]["answer_in_most_similar_sentence_pct"])
    assert pct([r.position.in_first_sentence for r in rows]) == pytest.approx(
        stats["answer_position"]["first_sentence_pct"])
    assert sum(r.position.sentence_index for r in rows) / len(rows) == pytest.approx(
        stats["answer_position"]["sentence_index"]["mean"])
    shares = [100.0 * r.keyword.in_answer_sentence / r.keyword.content_words for r in rows if r.keyword.content_words]
    assert sum(shares) / len(shares) == pytest.approx(stats["overlap"]["content_words_in_answer_sentence_pct"]["mean"])
    # the type-matched heuristic's exact matches: the stats' baseline (b) EM
    assert pct([r.question.typed_exact for r in rows]) == pytest.approx(
        stats["heuristics"]["type_matched_sentence"]["exact_match"])


def test_flags_are_the_strength_against_the_thresholds(slice_data):
    assert [rule.category for rule in RULES] == list(CATEGORY_NAMES)
    rows = [r for r in shortcut_evidence(slice_data) if r.answerable]
    limits = default_thresholds()
    for r in rows:
        assert [e.category for e in r.evidence()] == list(CATEGORY_NAMES)
        for e in r.evidence():
            assert 0.0 <= e.strength <= 1.0 and e.flagged == (e.strength >= limits[e.category])
    loose = shortcut_evidence(slice_data, thresholds={"Similarity": 0.0001})
    assert sum(r.similarity.flagged for r in loose if r.answerable) == sum(r.similarity.strength > 0 for r in rows)
    counts = {c.category: c for c in flag_counts(rows)}
    assert counts["Position"].flagged == sum(r.position.flagged for r in rows) and counts["Position"].answerable == len(rows)
    low, high = counts["Position"].interval
    assert low <= counts["Position"].pct <= high
    assert "Position" in format_flag_counts(rows) and f"{len(rows):,} answerable" in format_flag_counts(rows)


def _one(context: str, question: str, answer: str, start: int | None = None):
    q = Question("q", question, [Answer(answer, context.index(answer) if start is None else start)])
    return shortcut_evidence(Dataset([Article("T", [Paragraph(context, [q])])]), cache_dir=False)[0]


def test_keyword_runs_stop_at_any_word_not_a_question_content_word():
    ctx = "The museum opened in 1901. Its founder, the painter Claude Monet, lived nearby."
    row = _one(ctx, "Which painter founded the museum?", "Claude Monet")
    assert row.keyword.next_to_answer == ["painter"] and row.keyword.content_words == 3  # painter, founded, museum
    assert row.keyword.strength == pytest.approx(1 / 3) and not row.keyword.flagged
    row = _one("The museum opened in 1901. museum painter Claude Monet lived nearby.",
               "Which painter founded the museum?", "Claude Monet")
    assert row.keyword.next_to_answer == ["museum", "painter"] and row.keyword.flagged
    assert row.keyword.only_in_answer_sentence == ["painter"]  # "museum" is in the first sentence too


def test_question_evidence_reads_the_type_and_the_marks():
    ctx = "It is long. The bridge was opened in 1932 after years of work."
    row = _one(ctx, "When did the bridge open?", "1932")
    assert (row.question.asked_type, row.question.typed_answer, row.question.typed_exact) == ("date", "1932", True)
    assert row.question.typed_candidates == 1 and row.question.flagged and row.question.strength == 1.0
    ctx = "Two names were proposed: ( Avon ) and ( Severn ). The council chose « Severn » in 1901."
    row = _one(ctx, "What name did the council choose?", "Severn", ctx.index("Severn »"))
    assert (row.question.marks, row.question.marked_spans, row.question.flagged) == ("«»", 1, True)
    row = _one(ctx, "Which name came first?", "Avon")
    assert (row.question.marks, row.question.marked_spans) == ("()", 2) and row.question.strength == 0.5


def test_unanswerable_questions_get_no_evidence():
    ds = make_dataset([("Paris is the capital of France. It is large.", [
        ("q1", "What is the capital of France?", "Paris"), ("q2", "What is the capital of Spain?", None)])])
    rows = shortcut_evidence(ds, cache_dir=False)
    assert [(r.id, r.answerable) for r in rows] == [("q1", True), ("q2", False)]
    assert rows[1].evidence() == [] and rows[1].flagged_categories() == []
    assert rows[0].position.in_first_sentence and rows[0].position.strength == 0.5 and not rows[0].position.flagged
    assert flag_counts(rows)[0].answerable == 1
