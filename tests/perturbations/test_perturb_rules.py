"""One test per ablation rule on hand-made examples, with the expected output written out."""

from __future__ import annotations

import random

import pytest

from mrclens.perturbations.base import insert_text, make_rng
from mrclens.perturbations.registry import ABLATIONS
from mrclens.squad import Answer, Paragraph
from perturb_helpers import example, question

# "Paris is the capital. It is big. France is in Europe."
#  units: [0,21) "Paris is the capital."  [22,32) "It is big."  [33,53) "France is in Europe."
CTX = "Paris is the capital. It is big. France is in Europe."
Q_CAPITAL = "What is the capital of France?"
POS_CAPITAL = ["PRON", "AUX", "DET", "NOUN", "ADP", "PROPN", "PUNCT"]


def _apply(aid, par, parsed, seed=0):
    key = par.questions[0].id
    return ABLATIONS[aid].apply(par, parsed, make_rng(seed, aid, key))


def _answers(par):
    return [[(a.text, a.answer_start) for a in q.answers] for q in par.questions]


def test_units_of_the_fixture():
    par, parsed = example(CTX, [question("q", Q_CAPITAL, [("Paris", 0)])], {"q": POS_CAPITAL})
    assert [CTX[s:e] for s, e in parsed.units] == ["Paris is the capital.", "It is big.", "France is in Europe."]


def test_e1_inserts_whole_question_before_the_only_non_answer_unit():
    q = question("q", " " + Q_CAPITAL + " ", [("Paris", 0), ("Europe", 46)])
    par, parsed = example(CTX, [q], {"q": POS_CAPITAL})
    new, rec = _apply("e1", par, parsed)
    assert new.context == "Paris is the capital. What is the capital of France? It is big. France is in Europe."
    assert _answers(new) == [[("Paris", 0), ("Europe", 77)]]
    assert rec == {"q": {"changed": True, "reason": None, "detail": {"inserted": Q_CAPITAL, "offset": 22, "unit": 1}}}
    assert par.context == CTX and par.questions[0].answers[1].answer_start == 46  # input untouched


def test_e2_inserts_first_ceil_half_of_word_tokens():
    q = question("q", Q_CAPITAL, [("Paris", 0), ("Europe", 46)])
    par, parsed = example(CTX, [q], {"q": POS_CAPITAL})
    new, rec = _apply("e2", par, parsed)
    assert new.context == "Paris is the capital. What is the It is big. France is in Europe."
    assert rec["q"]["detail"] == {"inserted": "What is the", "offset": 22, "unit": 1}
    assert _answers(new) == [[("Paris", 0), ("Europe", 58)]]


def test_e2_odd_word_count_keeps_inner_punctuation():
    # words: Who in 1600 wrote Hamlet (n=5) -> first 3 = "Who, in 1600"
    text = "Who, in 1600, wrote Hamlet?"
    q = question("q", text, [("Paris", 0), ("Europe", 46)])
    pos = ["PRON", "PUNCT", "ADP", "NUM", "PUNCT", "VERB", "PROPN", "PUNCT"]
    par, parsed = example(CTX, [q], {"q": pos})
    new, rec = _apply("e2", par, parsed)
    assert rec["q"]["detail"]["inserted"] == "Who, in 1600"
    assert new.context == "Paris is the capital. Who, in 1600 It is big. France is in Europe."


def test_e3_shuffles_units_and_moves_answers():
    ctx = "Alpha is first. Beta is second."
    qs = [question("a", "Which is first?", [("Alpha", 0)]), question("b", "Which is second?", [("Beta", 16), ("second", 24)])]
    par, parsed = example(ctx, qs, {"a": ["DET", "AUX", "ADJ", "PUNCT"], "b": ["DET", "AUX", "ADJ", "PUNCT"]})
    new, rec = _apply("e3", par, parsed)
    assert new.context == "Beta is second. Alpha is first."
    assert _answers(new) == [[("Alpha", 16)], [("Beta", 0), ("second", 8)]]
    assert rec["a"] == rec["b"] == {"changed": True, "reason": None, "detail": {"permutation": [1, 0]}}


def test_e3_whitespace_between_units_becomes_one_space():
    ctx = "  One is here.\n\nTwo is there.  "
    qs = [question("a", "Where?", [("there", 23)])]
    par, parsed = example(ctx, qs, {"a": ["ADV", "PUNCT"]})
    new, _ = _apply("e3", par, parsed)
    assert new.context == "Two is there. One is here."
    assert _answers(new) == [[("there", 7)]]


def test_e3_never_keeps_the_original_order_and_shares_one_shuffle():
    qs = [question("a", "x?", [("Paris", 0)]), question("b", "y?", [("Europe", 46)])]
    par, parsed = example(CTX, qs, {"a": ["X", "PUNCT"], "b": ["X", "PUNCT"]})
    seen = set()
    for seed in range(25):
        new, rec = _apply("e3", par, parsed, seed)
        perm = rec["a"]["detail"]["permutation"]
        assert perm != [0, 1, 2] and sorted(perm) == [0, 1, 2] and rec["b"]["detail"]["permutation"] == perm
        units = ["Paris is the capital.", "It is big.", "France is in Europe."]
        assert new.context == " ".join(units[i] for i in perm)
        seen.add(tuple(perm))
    assert len(seen) == 5  # every non-identity order of three units occurs


def test_e3_merges_sentences_crossed_by_an_answer():
    q = question("q", "What?", [("capital. It", 13)])
    par, parsed = example(CTX, [q], {"q": ["PRON", "PUNCT"]})
    assert [CTX[s:e] for s, e in parsed.units] == ["Paris is the capital. It is big.", "France is in Europe."]
    new, _ = _apply("e3", par, parsed)
    assert new.context == "France is in Europe. Paris is the capital. It is big."
    assert _answers(new) == [[("capital. It", 34)]]


def test_e4_keeps_only_interrogatives_in_order_and_casing():
    qs = [
        question("a", "Who founded the company and when?", [("Paris", 0)]),
        question("b", "In which year did WHO start?", [("Paris", 0)]),
        question("c", "Name the city that hosted it.", [("Paris", 0)]),
        question("d", "Why?", [("Paris", 0)]),
    ]
    pos = {
        "a": ["PRON", "VERB", "DET", "NOUN", "CCONJ", "SCONJ", "PUNCT"],
        "b": ["ADP", "DET", "NOUN", "AUX", "PROPN", "VERB", "PUNCT"],
        "c": ["VERB", "DET", "NOUN", "PRON", "VERB", "PRON", "PUNCT"],  # relative "that" (WDT) is not kept
        "d": ["SCONJ", "PUNCT"],
    }
    par, parsed = example(CTX, qs, pos)
    new, rec = _apply("e4", par, parsed)
    assert [q.question for q in new.questions] == ["Who when?", "which WHO?", "Name the city that hosted it.", "Why?"]
    assert rec["a"] == {"changed": True, "reason": None, "detail": {"old": "Who founded the company and when?", "new": "Who when?"}}
    assert rec["c"] == {"changed": False, "reason": "no_interrogative_word", "detail": {}}
    assert rec["d"]["reason"] == "already_interrogative_only"
    assert new.context == CTX


def test_e4_without_question_mark():
    q = question("a", "Tell me where and how", [("Paris", 0)])
    par, parsed = example(CTX, [q], {"a": ["VERB", "PRON", "SCONJ", "CCONJ", "SCONJ"]})
    new, _ = _apply("e4", par, parsed)
    assert new.questions[0].question == "where how"


def test_e5_swaps_two_words_and_keeps_final_question_mark():
    q = question("a", "Name it?", [("Paris", 0)])
    par, parsed = example(CTX, [q], {"a": ["VERB", "PRON", "PUNCT"]})
    new, rec = _apply("e5", par, parsed)
    assert new.questions[0].question == "it Name?"
    assert rec["a"]["detail"] == {"old": "Name it?", "new": "it Name?", "permutation": [1, 0]}


def test_e5_punctuation_stays_in_place_and_order_always_differs():
    text = "Who, in 1600, wrote Hamlet?"
    pos = ["PRON", "PUNCT", "ADP", "NUM", "PUNCT", "VERB", "PROPN", "PUNCT"]
    q = question("a", text, [("Paris", 0)])
    par, parsed = example(CTX, [q], {"a": pos})
    for seed in range(20):
        new, rec = _apply("e5", par, parsed, seed)
        out = new.questions[0].question
        words = [w.strip(",?") for w in out.split()]
        assert out[-1] == "?" and out.count(",") == 2
        assert out.split()[0].endswith(",") and out.split()[2].endswith(",")  # slots 1 and 3 keep their commas
        assert sorted(words) == sorted(["Who", "in", "1600", "wrote", "Hamlet"]) and words != ["Who", "in", "1600", "wrote", "Hamlet"]


def test_e5_needs_two_distinct_words():
    q = question("a", "the the?", [("Paris", 0)])
    par, parsed = example(CTX, [q], {"a": ["DET", "DET", "PUNCT"]})
    new, rec = _apply("e5", par, parsed)
    assert rec["a"] == {"changed": False, "reason": "fewer_than_two_distinct_words", "detail": {}}
    assert new.questions[0].question == "the the?"


KEYWORD_Q = "Which famous city did Napoleon rule?"
KEYWORD_POS = ["DET", "ADJ", "NOUN", "AUX", "PROPN", "VERB", "PUNCT"]


@pytest.mark.parametrize("aid, inserted", [("e6", "city Napoleon"), ("e7", "rule"), ("e8", "famous")])
def test_keyword_insertion_at_a_token_boundary_of_the_non_answer_unit(aid, inserted):
    q = question("q", KEYWORD_Q, [("Paris", 0), ("Europe", 46)])
    par, parsed = example(CTX, [q], {"q": KEYWORD_POS})
    expected = {
        22: f"Paris is the capital. {inserted} It is big. France is in Europe.",
        25: f"Paris is the capital. It {inserted} is big. France is in Europe.",
        28: f"Paris is the capital. It is {inserted} big. France is in Europe.",
    }  # never before the "." of "big." (no whitespace before it)
    seen = set()
    for seed in range(30):
        new, rec = _apply(aid, par, parsed, seed)
        off = rec["q"]["detail"]["offset"]
        assert rec["q"]["detail"] == {"inserted": inserted, "offset": off, "unit": 1}
        assert new.context == expected[off]
        assert _answers(new) == [[("Paris", 0), ("Europe", 46 + len(inserted) + 1)]]
        seen.add(off)
    assert seen == set(expected)


@pytest.mark.parametrize("aid, reason, pos", [
    ("e6", "no_nouns", ["PRON", "AUX", "ADJ", "PUNCT"]),
    ("e7", "no_verbs", ["PRON", "AUX", "ADJ", "PUNCT"]),  # "is" is AUX, not VERB
    ("e8", "no_adjectives", ["PRON", "AUX", "NOUN", "PUNCT"]),
])
def test_keyword_unchanged_without_that_part_of_speech(aid, reason, pos):
    q = question("q", "What is big?", [("Paris", 0)])
    par, parsed = example(CTX, [q], {"q": pos})
    new, rec = _apply(aid, par, parsed)
    assert rec["q"] == {"changed": False, "reason": reason, "detail": {}}
    assert new.context == CTX


# ----------------------------------------------------------------- odd items


@pytest.mark.parametrize("aid", ["e1", "e2", "e6"])
def test_question_without_words_is_unchanged(aid):
    q = question("q", " ? ", [("Paris", 0)])
    par, parsed = example(CTX, [q], {"q": ["PUNCT"]})
    new, rec = _apply(aid, par, parsed)
    assert rec["q"]["changed"] is False
    assert rec["q"]["reason"] == {"e1": "empty_question", "e2": "no_word_tokens", "e6": "no_nouns"}[aid]
    assert new.context == CTX


@pytest.mark.parametrize("ctx, answer", [("Paris", ("Paris", 0)), ("Paris is big. It is old.", ("Paris is big. It is old.", 0))])
def test_answer_covering_the_whole_context_is_unchanged_everywhere(ctx, answer):
    q = question("q", "What is big?", [answer])
    par, parsed = example(ctx, [q], {"q": ["PRON", "AUX", "ADJ", "PUNCT"]})
    assert len(parsed.units) == 1
    assert _apply("e1", par, parsed)[1]["q"]["reason"] == "no_non_answer_unit"
    assert _apply("e8", par, parsed)[1]["q"]["reason"] == "no_non_answer_unit"
    assert _apply("e3", par, parsed)[1]["q"]["reason"] == "single_unit"
    assert _apply("e4", par, parsed)[0].questions[0].question == "What?"


def test_answer_at_offset_zero_stays_at_zero_when_inserting_later():
    q = question("q", Q_CAPITAL, [("P", 0)])
    par, parsed = example("P. Q.", [q], {"q": POS_CAPITAL})
    new, rec = _apply("e1", par, parsed)
    assert new.context == "P. What is the capital of France? Q."
    assert _answers(new) == [[("P", 0)]]


def test_insert_text_rule():
    par = Paragraph("ab cd ef", [question("q", "x", [("ab", 0), ("cd", 3), ("ef", 6)])])
    new = insert_text(par, 3, "XY")
    assert new.context == "ab XY cd ef"
    assert _answers(new) == [[("ab", 0), ("cd", 6), ("ef", 9)]]
    with pytest.raises(ValueError):
        insert_text(par, 9, "Z")


def test_make_rng_is_stable_and_keyed():
    assert make_rng(0, "e1", "q1").random() == make_rng(0, "e1", "q1").random()
    values = {make_rng(s, a, k).random() for s in (0, 1) for a in ("e1", "e2") for k in ("q1", "q2")}
    assert len(values) == 8
    # fixed value: sha256-seeded, independent of PYTHONHASHSEED and platform
    assert make_rng(0, "e1", "q1").randrange(10**6) == random.Random(
        int.from_bytes(__import__("hashlib").sha256(b"0\x1fe1\x1fq1").digest()[:16], "big")).randrange(10**6)
