"""compute_stats end to end on hand-made data (every figure worked out by hand) and a real slice."""

import json

import pytest

from mrclens.formats import load_dataset
from mrclens.stats import TITLE, compute_stats, format_stats

from stats_helpers import C1, C2, make_dataset


@pytest.fixture(scope="module")
def mini_stats():
    from stats_helpers import MINI

    return compute_stats(make_dataset(MINI), cache_dir=False, progress=False)


def test_counts_lengths_and_question_types(mini_stats):
    s = mini_stats
    assert s["title"] == TITLE
    assert s["counts"]["questions"] == 5 and s["counts"]["answerable"] == 5
    # question words: 6, 6, 11, 7, 4; answer words: 1, 1, 2, 2, 1
    assert s["lengths"]["question_words"]["mean"] == pytest.approx(34 / 5)
    assert s["lengths"]["question_words"]["median"] == 6
    assert s["lengths"]["answer_words"]["mean"] == pytest.approx(7 / 5)
    assert s["lengths"]["answer_words"]["histogram"]["counts"][:3] == [0, 3, 2]
    assert s["question_types"]["counts"] == {
        "what": 1, "which": 0, "who": 1, "whom": 0, "whose": 0, "when": 1, "where": 1, "why": 0, "how": 1, "in": 0, "other": 0}
    assert s["question_types"]["shares_pct"]["when"] == 20.0
    assert s["wh_words_anywhere"]["counts"]["how"] == 1 and s["wh_words_anywhere"]["counts"]["none"] == 0


def test_answer_position(mini_stats):
    pos = mini_stats["answer_position"]
    # sentence units of the answers: q1 1, q2 0, q3 2, q4 0, q5 1
    assert pos["sentence_index"]["mean"] == pytest.approx(4 / 5)
    assert pos["sentence_index"]["histogram"]["counts"][:3] == [2, 2, 1]
    assert pos["first_sentence_pct"] == 40.0
    fractions = [C1.index("1889") / len(C1), 0.0, C1.index("330") / len(C1), 0.0, C2.index("Warsaw") / len(C2)]
    assert pos["char_fraction"]["mean"] == pytest.approx(sum(fractions) / 5)
    assert pos["char_fraction"]["max"] == pytest.approx(C2.index("Warsaw") / len(C2))
    # Position bias (issue 17): C1 has 3 units, C2 has 2; relative positions 1/2, 0, 1, 0, 1
    assert pos["sentence_shares"]["counts"] == {"sentence_1": 2, "sentence_2": 2, "sentence_3": 1, "later": 0}
    assert pos["relative_sentence_position"]["mean"] == pytest.approx(2.5 / 5)
    assert pos["last_sentence_pct"] == 40.0  # q3 (330 metres, unit 3 of 3) and q5 (Warsaw, unit 2 of 2)


def test_similarity_and_overlap(mini_stats):
    # q3 ("How tall is the Eiffel Tower that was built in 1889?") is most similar to the
    # sentence about building the tower, but its answer is in the next one: 4 of 5
    assert mini_stats["similarity"]["answer_in_most_similar_sentence_pct"] == 80.0
    ov = mini_stats["overlap"]
    # longest shared n-grams: 3 (the eiffel tower), 5 (is the capital of france),
    # 4 (was built in 1889), 6 (won the nobel prize in 1903), 1 (was / she / born)
    assert ov["longest_shared_ngram"]["mean"] == pytest.approx(19 / 5)
    assert ov["longest_shared_ngram"]["max"] == 6
    # content words in the answer sentence: 100, 100, 20 (tall of tall/eiffel/tower/built/1889), 100, 100
    assert ov["content_words_in_answer_sentence_pct"]["mean"] == pytest.approx(84.0)
    assert ov["content_words_in_answer_sentence_pct"]["min"] == pytest.approx(20.0)


def test_answer_types(mini_stats):
    assert mini_stats["answer_types"]["counts"] == {
        "date": 1, "number": 1, "person": 1, "location": 2, "other_entity": 0,
        "noun_phrase": 0, "verb_phrase_clause": 0, "other": 0}


def test_heuristic_baselines(mini_stats):
    h = mini_stats["heuristics"]
    # (a) "Paris is the" vs "Paris": F1 2/3; "Marie Curie won" vs "Marie Curie": F1 0.8; others 0
    assert h["first_k"]["exact_match"] == 0.0
    assert h["first_k"]["f1"] == pytest.approx(100 * (2 / 3 + 0.8) / 5)
    # the first sentence holds the answers of q2 and q4 only
    assert h["first_k"]["upper_bound_exact_match"] == 40.0 and h["first_k"]["upper_bound_f1"] == 40.0
    # (b) 1889, Paris, (q3: no candidate left -> "The Eiffel Tower"), Marie Curie, Warsaw
    assert h["type_matched_sentence"]["exact_match"] == 80.0 and h["type_matched_sentence"]["f1"] == 80.0
    assert h["type_matched_sentence"]["upper_bound_exact_match"] == 80.0
    assert h["first_k"]["n"] == h["sliding_window"]["n"] == 5


def test_json_serialisable_and_summary_text(mini_stats):
    again = json.loads(json.dumps(mini_stats))
    assert again["similarity"] == mini_stats["similarity"]
    text = format_stats(mini_stats)
    assert "answers in the TF-IDF-most-similar sentence: 80.0 %" in text
    assert "type_matched_sentence" in text


def test_unanswerable_questions_count_only_where_they_can():
    ds = make_dataset([(C1, [("a", "When was the Eiffel Tower built?", "1889"), ("b", "Who painted the tower?", None)])])
    s = compute_stats(ds, cache_dir=False, progress=False)
    assert s["counts"]["questions"] == 2 and s["counts"]["answerable"] == 1
    assert s["lengths"]["question_words"]["n"] == 2 and s["lengths"]["answer_words"]["n"] == 1
    assert s["similarity"]["n"] == 1 and s["heuristics"]["type_matched_sentence"]["n"] == 1
    assert s["heuristics"]["type_matched_sentence"]["exact_match"] == 100.0


def test_leakage_only_with_dev():
    train = make_dataset([(C1, [("a", "When was the Eiffel Tower built?", "1889")])])
    dev = make_dataset([(C1, [("b", "What is the capital of France?", "Paris")])])
    s = compute_stats(train, dev, cache_dir=False, progress=False)
    assert s["leakage"]["contexts_identical"] == 1 and s["leakage"]["pairs_near_identical"] == 0


def test_real_slice_of_squad(sample_path):
    full = load_dataset(sample_path)
    full.articles = full.articles[:3]
    s = compute_stats(full, cache_dir=False, progress=False)
    n = s["counts"]["answerable"]
    assert n > 300
    assert sum(s["question_types"]["counts"].values()) == s["counts"]["questions"]
    assert sum(s["answer_types"]["shares_pct"].values()) == pytest.approx(100.0)
    # SQuAD is known to be similarity-biased (Sugawara et al. 2018): most answers sit in the
    # most similar sentence, yet not all
    assert 55 < s["similarity"]["answer_in_most_similar_sentence_pct"] < 95
    assert 8 < s["lengths"]["question_words"]["mean"] < 13 and 2 < s["lengths"]["answer_words"]["mean"] < 5
    for h in s["heuristics"].values():
        assert h["n"] == n
        assert 0 <= h["exact_match"] <= h["f1"] <= h["upper_bound_f1"] <= 100
    assert s["question_types"]["largest"] == "what"


def test_per_question_values_make_up_the_means(sample_path):
    """compute_stats_with_values (used by `mrclens compare` to bootstrap means): for every value path,
    as many values as the summary's n, with its mean and SD; and the same figures as compute_stats."""
    import numpy as np

    from mrclens.stats import compute_stats_with_values
    from mrclens.stats.core import VALUE_PATHS

    full = load_dataset(sample_path)
    full.articles = full.articles[3:5]
    s, values = compute_stats_with_values(full, cache_dir=False, progress=False, n_process=1)
    assert set(values) == set(VALUE_PATHS)
    for path in VALUE_PATHS:
        section, name = path.split(".")
        node, v = s[section][name], np.asarray(values[path], dtype=float)
        assert v.size == node["n"] > 50, path
        assert v.mean() == pytest.approx(node["mean"]) and v.std() == pytest.approx(node["std"]), path
    assert len(values["lengths.question_words"]) == s["counts"]["questions"]
    plain = compute_stats(full, cache_dir=False, progress=False, n_process=1)
    assert {k: v for k, v in plain.items() if k != "timings_s"} == {k: v for k, v in s.items() if k != "timings_s"}


def test_worker_processes_give_the_same_figures(mini_stats):
    from stats_helpers import MINI

    par = compute_stats(make_dataset(MINI), cache_dir=False, progress=False, n_process=2)
    par.pop("timings_s")
    ser = {k: v for k, v in mini_stats.items() if k != "timings_s"}
    assert par["statistics_cache"] == {"paragraphs": 2, "computed": 2, "from_cache": 0}
    assert par == ser


@pytest.mark.slow
def test_statistics_cache_reuses_unchanged_paragraphs_only(sample_path, tmp_path):
    """A re-run reads every paragraph's figures from the statistics cache and gives the same
    result; editing one question recomputes that paragraph alone, with the figures of a run
    without any cache."""
    ds = load_dataset(sample_path)
    ds.articles = ds.articles[:2]
    n_par = sum(len(a.paragraphs) for a in ds.articles)

    def strip(s):
        return {k: v for k, v in s.items() if k not in ("timings_s", "statistics_cache")}

    first = compute_stats(ds, cache_dir=tmp_path, progress=False)
    assert first["statistics_cache"] == {"paragraphs": n_par, "computed": n_par, "from_cache": 0}
    assert (tmp_path / "stats-v2.sqlite").is_file()
    again = compute_stats(ds, cache_dir=tmp_path, progress=False, n_process=2)
    assert again["statistics_cache"]["from_cache"] == n_par
    assert strip(again) == strip(first)

    q = ds.articles[1].paragraphs[0].questions[0]
    q.question = "Which " + q.question  # a different question: n-gram overlap, baselines change
    edited = compute_stats(ds, cache_dir=tmp_path, progress=False)
    assert edited["statistics_cache"]["computed"] == 1
    fresh = compute_stats(ds, cache_dir=False, progress=False)
    assert fresh["statistics_cache"]["computed"] == n_par
    assert strip(edited) == strip(fresh) and strip(edited) != strip(first)
