"""The heuristic baselines' rules on small hand-worked cases, through the functions that
``mrclens stats`` calls (:class:`PassageIndex`, :func:`first_k_prediction`,
:func:`best_span_prediction`). ``test_heuristics_reference.py`` checks the same code against
plain-loop references on real paragraphs."""

import math

import pytest

from mrclens.metrics.official import f1_score
from mrclens.stats.heuristics import PassageIndex, best_span_prediction, first_k_prediction
from mrclens.stats.heuristics.answer_type import expected_answer_type
from mrclens.stats.heuristics.candidates import pattern_candidates
from mrclens.stats.heuristics.upper_bound import normalized_tokens
from mrclens.stats.text import word_tokens


def whole(text):
    """A PassageIndex whose one unit is the whole text."""
    return PassageIndex(text, [(0, len(text))])


def spans(text):
    """(text, type) of every candidate of the whole text, in order."""
    return [(text[c.start : c.end], c.type) for c in whole(text).candidates]


def test_expected_answer_type():
    cases = {
        "When did the war end?": "date",
        "In what year was it built?": "date",
        "How many people died?": "number",
        "What percentage voted?": "number",
        "Who wrote Hamlet?": "person",
        "Whose idea was it?": "person",
        "Where is the Louvre?": "location",
        "Which city hosted it?": "location",
        "Why did it fail?": "clause",
        "How did they travel?": "clause",
        "What is the capital of France?": "entity",
        "Name the river.": "entity",
    }
    assert {q: expected_answer_type(q) for q in cases} == cases


def test_typed_candidates():
    text = "On 3 May 1901 the Duke of York opened it in London with 40 people, because it rained."
    assert [x for x in spans(text) if x[1] != "chunk"] == [
        ("3 May 1901", "date"),
        ("Duke of York", "name"),
        ("London", "name"),
        ("London", "location"),
        ("40 people", "number"),
        ("it rained", "clause"),
    ]
    assert [x for x in spans("The 1990s saw three million visitors.") if x[1] != "chunk"] == [
        ("1990s", "date"), ("three million", "number")]
    assert ("France", "name") in spans("It is in France. The Tower is tall.")
    assert ("Tower", "name") in spans("It is in France. The Tower is tall.")
    # content-word runs: joined by one space or hyphen, broken by stop words and punctuation
    assert spans("Tom likes apples. Ann likes pears.") == [
        ("Tom", "name"), ("Tom likes apples", "chunk"), ("Ann", "name"), ("Ann likes pears", "chunk")]
    assert spans("a red-brick house, then a barn") == [("red-brick house", "chunk"), ("barn", "chunk")]


def test_candidates_stay_inside_their_unit_with_context_offsets():
    ctx = "Built in 1889. Opened in May 1890 to Paris crowds."
    index = PassageIndex(ctx, [(0, 14), (15, len(ctx))])
    (lo0, hi0), (lo1, hi1) = index.unit_slices
    assert [(ctx[c.start : c.end], c.type) for c in index.candidates[lo0:hi0]] == [
        ("Built", "name"), ("Built", "chunk"), ("1889", "date"), ("1889", "chunk")]
    assert [(ctx[c.start : c.end], c.type) for c in index.candidates[lo1:hi1]] == [
        ("Opened", "name"), ("Opened", "chunk"), ("May 1890", "date"), ("1890", "chunk"),
        ("Paris", "name"), ("Paris", "location"), ("Paris crowds", "chunk")]
    assert hi0 == lo1 and hi1 == len(index.candidates)
    # a content-word run stops at the unit end, although the next unit goes on with content words
    split = PassageIndex("huge Paris crowds", [(0, 10), (11, 17)])
    assert [("huge Paris crowds"[c.start : c.end], c.type) for c in split.candidates] == [
        ("huge Paris", "chunk"), ("Paris", "name"), ("crowds", "chunk")]
    assert pattern_candidates("in 1889.", 100) == [(103, 107, "date")]


def test_first_k_prediction():
    ctx = "Paris is the capital of France. It is big."
    assert first_k_prediction(ctx, (0, 31), 3) == "Paris is the"
    assert first_k_prediction(ctx, (32, 42), 5) == "It is big."
    assert first_k_prediction(ctx, (0, 0), 3) == ""
    assert first_k_prediction("New\tYork  City hall", (0, 19), 3) == "New\tYork  City"  # the context's own spaces


def type_matched(ctx, unit_index, units, question, k=3):
    return PassageIndex(ctx, units).type_matched(unit_index, question, set(word_tokens(question)), k)


def test_type_matched():
    ctx = "The Eiffel Tower was built in 1889 by Gustave Eiffel. Marie Curie was born in Warsaw in 1867."
    units = [(0, 53), (54, len(ctx))]
    assert type_matched(ctx, 0, units, "When was the Eiffel Tower built?") == "1889"
    # "Eiffel Tower" is dropped (all its words are in the question); the person is the name left
    assert type_matched(ctx, 0, units, "Who built the Eiffel Tower?") == "Gustave Eiffel"
    assert type_matched(ctx, 1, units, "Where was Marie Curie born?") == "Warsaw"
    # no candidate of any asked-for type: the first k tokens of the unit
    assert type_matched("it was red and big.", 0, [(0, 19)], "Why?", 2) == "it was"


def test_type_matched_prefers_the_candidate_next_to_question_words():
    ctx = "In 1900 the school opened, and in 1950 the library was built."
    assert type_matched(ctx, 0, [(0, len(ctx))], "When was the library built?") == "1950"
    assert type_matched(ctx, 0, [(0, len(ctx))], "When did the school open?") == "1900"


def test_sliding_window_scores_by_hand():
    # words: tom likes apples ann likes pears; C(likes) = 2, others 1
    # IC = log(1 + 1/C): ln 2 for count 1, ln 1.5 for "likes"
    ctx = "Tom likes apples. Ann likes pears."
    w = whole(ctx).sliding_window()
    assert [ctx[c.start : c.end] for c in w.candidates] == ["Tom", "Tom likes apples", "Ann", "Ann likes pears"]
    # Q = {who, likes, pears}; for "Tom": S = Q + {tom}, |S| = 4, best window "tom likes apples ann"
    # = ln2 + ln1.5 = ln3; "Ann": window "apples ann likes pears" = ln2 + ln1.5 + ln2 = ln6;
    # "Tom likes apples": |S| = 5, window "tom likes apples ann likes" = ln 9.
    scores = w.scores(["Who likes pears?"])[0]
    assert scores == pytest.approx([math.log(3), math.log(9), math.log(6), math.log(6)])
    assert ctx[w.predict(["Who likes pears?"])[0].start :].startswith("Tom likes apples")


def test_sliding_window_drops_candidates_made_of_question_words():
    w = whole("Tom likes apples. Ann likes pears.").sliding_window()
    s = w.scores(["Does Ann like pears or Tom likes apples?"])[0]
    # every candidate (Tom, Tom likes apples, Ann, Ann likes pears) consists of question words only
    assert list(s) == [-math.inf] * 4
    assert w.predict(["Does Ann like pears or Tom likes apples?"]) == [None]


def best_span(ctx, unit, golds):
    return best_span_prediction(ctx, unit, golds, lambda: normalized_tokens(ctx, *unit))


def test_best_span_prediction():
    ctx = "Tom met Ann in Rome. They wed in June."
    assert best_span(ctx, (0, 20), [(8, "Ann in Rome")]) == "Ann in Rome"  # gold inside
    assert best_span(ctx, (0, 20), [(15, "Rome. They")]) == "Rome."  # crosses the unit end
    assert best_span(ctx, (21, 38), [(8, "Ann in Rome")]) == "in"  # only "in" is shared
    assert best_span(ctx, (21, 38), [(0, "Tom")]) == ""
    # the best span over several golds; normalisation drops articles and punctuation
    ctx2 = "X: the big red barn, next to a silo."
    best = best_span(ctx2, (0, len(ctx2)), [(100, "red barn silo"), (100, "a barn")])
    assert best == "barn,"
    assert f1_score(best, "a barn") == 1.0


def test_best_span_reads_the_tokens_only_when_no_gold_is_inside():
    def never():
        raise AssertionError("tokens read although a gold answer lies in the unit")

    assert best_span_prediction("Tom met Ann.", (0, 12), [(8, "Ann")], never) == "Ann"


def test_normalized_tokens_match_the_official_normalisation():
    text = "The U.S. army's–men, a (b)"
    toks = normalized_tokens(text, 0, len(text))
    assert [w for _, _, w in toks] == [[], ["us"], ["armys–men"], [], ["b"]]
    assert [text[s:e] for s, e, _ in normalized_tokens(text, 4, 13)] == ["U.S.", "army"]  # cut at the unit end
