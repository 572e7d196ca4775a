from mrclens.stats.leakage import find_duplicates, find_leakage

from stats_helpers import C1, C2, make_dataset


def test_duplicates_same_question_same_context():
    ds = make_dataset([
        (C1, [("a", "When was the tower built?", "1889"), ("b", "when was the Tower built", "1889"),
              ("c", "When was the tower built?", "1889"), ("d", "What is the capital?", "Paris")]),
        (C2, [("e", "When was the tower built?", "1903")]),  # same question, other context: no duplicate
    ])
    d = find_duplicates(ds)
    assert d["duplicate_questions"] == 2  # b and c repeat a
    assert d["identical_duplicate_questions"] == 1  # only c is character-identical to a
    assert d["groups"] == 1 and d["examples"] == [["a", "b", "c"]]
    assert d["duplicate_questions_pct"] == 100 * 2 / 5


def test_no_duplicates():
    assert find_duplicates(make_dataset([(C1, [("a", "Q1?", "Paris"), ("b", "Q2?", "Paris")])]))["duplicate_questions"] == 0


def test_leakage_between_train_and_dev():
    train = make_dataset([
        (C1, [("t1", "What is the capital of France?", "Paris")]),
        ("Some other passage about Rome.", [("t2", "Where is the Colosseum?", "Rome")]),
    ])
    dev = make_dataset([
        (C1.upper(), [("d1", "WHAT IS THE CAPITAL OF FRANCE?", "PARIS"),  # near-identical context and pair
                      ("d2", "How tall is it?", "330 METRES")]),
        (C2, [("d3", "Where is the Colosseum?", "Warsaw")]),  # question text leaks, context does not
    ])
    lk = find_leakage(train, dev)
    assert lk["dev_contexts"] == 2
    assert lk["contexts_identical"] == 0 and lk["contexts_near_identical"] == 1
    assert lk["dev_questions"] == 3
    assert lk["questions_identical"] == 1  # d3
    assert lk["questions_near_identical"] == 2  # d1 (case only) and d3
    assert lk["pairs_near_identical"] == 1 and lk["examples"] == ["d1"]
    assert lk["dev_questions_with_leaked_context"] == 2  # d1, d2
    assert lk["dev_questions_with_leaked_context_pct"] == 100 * 2 / 3
    assert find_leakage(train, train)["contexts_identical_pct"] == 100.0
