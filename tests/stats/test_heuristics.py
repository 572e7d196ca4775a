import math

import pytest

from mrclens.scoring.official import f1_score
from mrclens.stats.heuristics import (
    SlidingWindow,
    best_span_prediction,
    expected_answer_type,
    first_k_prediction,
    normalized_tokens,
    type_matched_prediction,
    typed_candidates,
)


def spans(text, **kw):
    return [(text[c.start : c.end], c.type) for c in typed_candidates(text, **kw)]


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
    assert spans(text) == [
        ("3 May 1901", "date"),
        ("Duke of York", "name"),
        ("London", "name"),
        ("London", "location"),
        ("40 people", "number"),
        ("it rained", "clause"),
    ]
    assert spans("The 1990s saw three million visitors.") == [("1990s", "date"), ("three million", "number")]
    assert ("France", "name") in spans("It is in France. The Tower is tall.")
    assert ("Tower", "name") in spans("It is in France. The Tower is tall.")
    assert spans("Tom likes apples. Ann likes pears.", content_chunks=True) == [
        ("Tom", "name"), ("Tom likes apples", "chunk"), ("Ann", "name"), ("Ann likes pears", "chunk")]


def test_candidate_offsets_are_shifted():
    c = typed_candidates("in 1889.", offset=100)
    assert [(x.start, x.end, x.type) for x in c] == [(103, 107, "date")]


def test_first_k_prediction():
    ctx = "Paris is the capital of France. It is big."
    assert first_k_prediction(ctx, (0, 31), 3) == "Paris is the"
    assert first_k_prediction(ctx, (32, 42), 5) == "It is big."
    assert first_k_prediction(ctx, (0, 0), 3) == ""


def test_type_matched_prediction():
    ctx = "The Eiffel Tower was built in 1889 by Gustave Eiffel. Marie Curie was born in Warsaw in 1867."
    s1, s2 = (0, 53), (54, len(ctx))
    assert type_matched_prediction(ctx, s1, "When was the Eiffel Tower built?") == "1889"
    # "Eiffel Tower" is dropped (all its words are in the question); the person is the name left
    assert type_matched_prediction(ctx, s1, "Who built the Eiffel Tower?") == "Gustave Eiffel"
    assert type_matched_prediction(ctx, s2, "Where was Marie Curie born?") == "Warsaw"
    # no candidate at all: the first k tokens of the sentence
    assert type_matched_prediction("it was red and big.", (0, 19), "Why?", 2) == "it was"


def test_type_matched_prediction_prefers_the_candidate_next_to_question_words():
    ctx = "In 1900 the school opened, and in 1950 the library was built."
    assert type_matched_prediction(ctx, (0, len(ctx)), "When was the library built?") == "1950"
    assert type_matched_prediction(ctx, (0, len(ctx)), "When did the school open?") == "1900"


def test_sliding_window_scores_by_hand():
    # words: tom likes apples ann likes pears; C(likes) = 2, others 1
    # IC = log(1 + 1/C): ln 2 for count 1, ln 1.5 for "likes"
    w = SlidingWindow("Tom likes apples. Ann likes pears.")
    assert [w.context[c.start : c.end] for c in w.candidates] == ["Tom", "Tom likes apples", "Ann", "Ann likes pears"]
    # Q = {who, likes, pears}; for "Tom": S = Q + {tom}, |S| = 4, best window "tom likes apples ann"
    # = ln2 + ln1.5 = ln3; "Ann": window "apples ann likes pears" = ln2 + ln1.5 + ln2 = ln6;
    # "Tom likes apples": |S| = 5, window "tom likes apples ann likes" = ln 9.
    scores = w.scores(["Who likes pears?"])[0]
    assert scores == pytest.approx([math.log(3), math.log(9), math.log(6), math.log(6)])
    assert w.predict(["Who likes pears?"])[0].type == "chunk"


def test_sliding_window_drops_candidates_made_of_question_words():
    w = SlidingWindow("Tom likes apples. Ann likes pears.")
    s = w.scores(["Does Ann like pears or Tom likes apples?"])[0]
    # every candidate (Tom, Tom likes apples, Ann, Ann likes pears) consists of question words only
    assert list(s) == [-math.inf] * 4
    assert w.predict(["Does Ann like pears or Tom likes apples?"]) == [None]


def test_best_span_prediction():
    ctx = "Tom met Ann in Rome. They wed in June."
    assert best_span_prediction(ctx, (0, 20), [(8, "Ann in Rome")]) == "Ann in Rome"  # gold inside
    assert best_span_prediction(ctx, (0, 20), [(15, "Rome. They")]) == "Rome."  # crosses the unit end
    assert best_span_prediction(ctx, (21, 38), [(8, "Ann in Rome")]) == "in"  # only "in" is shared
    assert best_span_prediction(ctx, (21, 38), [(0, "Tom")]) == ""
    # the best span over several golds; normalisation drops articles and punctuation
    ctx2 = "X: the big red barn, next to a silo."
    best = best_span_prediction(ctx2, (0, len(ctx2)), [(100, "red barn silo"), (100, "a barn")])
    assert best == "barn,"
    assert f1_score(best, "a barn") == 1.0


def test_normalized_tokens_match_the_official_normalisation():
    toks = normalized_tokens("The U.S. army's–men, a (b)")
    assert [w for _, _, w in toks] == [[], ["us"], ["armys–men"], [], ["b"]]
