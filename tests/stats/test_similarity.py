import pytest

from mrclens.stats.similarity import most_similar_units


def test_most_similar_unit_per_question_within_its_own_paragraph():
    units = [
        ["The dog ran in the park.", "The cat slept on the mat."],
        ["Rain fell on Monday.", "The cat ate fish on Tuesday.", "Nothing else happened."],
    ]
    idx, cos = most_similar_units(
        ["Where did the cat sleep on the mat?", "What did the cat eat?", "Which dog ran?", "Zebra?"],
        [0, 1, 0, 1],
        units,
    )
    assert idx == [1, 1, 0, 0]  # the last shares no word: ties go to the first unit
    assert cos[3] == 0.0
    assert 0 < cos[0] <= 1 and 0 < cos[1] <= 1


def test_cosine_is_one_for_an_identical_sentence():
    idx, cos = most_similar_units(["The cat slept."], [0], [["A dog barked.", "The cat slept."]])
    assert idx == [1] and cos[0] == pytest.approx(1.0)


def test_paragraph_without_units_and_length_mismatch():
    assert most_similar_units(["q"], [0], [[]]) == ([-1], [0.0])
    with pytest.raises(ValueError):
        most_similar_units(["a", "b"], [0], [["x"]])
