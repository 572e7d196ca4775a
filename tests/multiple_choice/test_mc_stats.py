"""Model-free statistics of multiple-choice data (``mrclens.multiple_choice.stats``) on real CODAH rows.

Data: CODAH (Chen et al. 2019), ``shared/data/codah/full_data.tsv.gz`` (2,776 questions) and the
official ``cv_split/fold_k`` files; skipped when absent. The hand-checked rows are the first five
lines of ``full_data.tsv`` (words are ``\\w+`` runs, counted by hand below).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from mrclens.checks import RulesError, evaluate_rules, exit_code, load_rules
from mrclens.errors import MRCLensError
from mrclens.formats.multiple_choice import MCDataset, MCQuestion, read_folds
from mrclens.tasks import MULTIPLE_CHOICE
from mrclens.multiple_choice.stats import (
    MC_HEURISTICS,
    MC_METRIC_PATHS,
    MC_STATS_FORMAT_VERSION,
    MC_STATS_SCHEMA,
    chi_square_sf,
    compute_mc_stats,
    folds_union,
    is_mc_metric,
    mc_figure_paths,
    mc_heuristic_predictions,
    mc_stats,
    normalise,
)

@pytest.fixture(scope="module")
def full(codah_full):
    return codah_full


@pytest.fixture(scope="module")
def full_stats(full) -> dict:
    return mc_stats(full)


@pytest.fixture(scope="module")
def fold0(codah_dir):
    [fold] = read_folds(codah_dir, only=[0])
    return fold


@pytest.fixture(scope="module")
def first_five(full) -> MCDataset:
    """The first five lines of full_data.tsv."""
    return MCDataset(full.questions[:5], full.source, full.format)


def by_prompt(dataset: MCDataset, start: str) -> MCQuestion:
    [q] = [q for q in dataset.questions if q.prompt.startswith(start)]
    return q


# ---------------------------------------------------------------- heuristics on hand-checked rows


def test_first_rows_are_the_hand_checked_ones(first_five):
    qs = first_five.questions
    assert qs[0].prompt == "I am always very hungry before I go to bed. I am" and qs[0].label == 3
    assert qs[1].endings[3] == "I will fail." and qs[1].label == 3
    assert qs[2].endings[3] == "won a math competition when he was 5." and qs[2].label == 3
    assert qs[3].prompt == "I feel sickly. I think" and qs[3].label == 3
    assert qs[4].endings[1] == "have some ravioli." and qs[4].label == 1


def test_heuristic_predictions_on_real_rows(first_five):
    pred = mc_heuristic_predictions(first_five)
    assert set(pred) == set(MC_HEURISTICS)
    ids = first_five.ids()
    # row 1 (label 3): words 6, 8, 8, 8 -> longest ties 1, 2, 3 -> lowest index 1; shortest 0
    # row 2 (label 3): words 6, 11, 4, 3 -> longest 1, shortest 3 (correct: "I will fail.")
    # row 3 (label 3): words 6, 5, 5, 8 -> longest 3 (correct); shortest ties 1, 2 -> 1
    # row 4 (label 3): words 6, 8, 6, 7 -> longest 1; shortest ties 0, 2 -> 0
    # row 5 (label 1): words 3, 3, 4, 5 -> longest 3; shortest ties 0, 1 -> 0
    assert [pred["longest_ending"][i] for i in ids] == [1, 1, 3, 1, 3]
    assert [pred["shortest_ending"][i] for i in ids] == [0, 3, 1, 0, 0]
    # row 2: "midterm" is the only prompt content word in an ending (0: "...delay the midterm.")
    # row 3: "math" is in ending 3 ("won a math competition ..."), the answer
    assert pred["prompt_overlap"][ids[1]] == 0
    assert pred["prompt_overlap"][ids[2]] == 3


def test_heuristic_and_length_arithmetic_on_real_rows(first_five):
    s = mc_stats(first_five, n_resamples=200)
    h = s["heuristics"]
    assert h["chance"]["accuracy"] == 25.0
    assert h["longest_ending"]["accuracy"] == 20.0  # right on row 3 only
    assert h["longest_ending"]["above_chance_pts"] == -5.0
    assert h["longest_ending"]["tie_pct"] == 20.0  # row 1 only
    assert h["shortest_ending"]["accuracy"] == 20.0  # right on row 2 only
    assert h["shortest_ending"]["tie_pct"] == 60.0  # rows 3, 4, 5
    # random tie-breaking: longest = row 3 (1) + row 1 (label 3 among 3 tied: 1/3) = 4/3 of 5 questions
    assert h["longest_ending"]["accuracy_random_ties"] == pytest.approx(100 * (4 / 3) / 5, abs=1e-3)
    w = s["ending_lengths"]["words"]
    correct = [8, 3, 8, 7, 3]
    wrong = [(6 + 8 + 8) / 3, (6 + 11 + 4) / 3, (6 + 5 + 5) / 3, (6 + 8 + 6) / 3, (3 + 4 + 5) / 3]
    assert w["correct_mean"] == pytest.approx(np.mean(correct), abs=1e-4)
    assert w["wrong_mean"] == pytest.approx(np.mean(wrong), abs=1e-4)
    assert w["difference"] == pytest.approx(np.mean(np.subtract(correct, wrong)), abs=1e-4)  # -0.2667
    # the correct ending is among the longest in rows 1 and 3, among the shortest in rows 2 and 5
    assert s["ending_lengths"]["correct_longest_pct"] == 40.0
    assert s["ending_lengths"]["correct_shortest_pct"] == 40.0
    assert s["labels"]["counts"] == {"0": 0, "1": 1, "2": 0, "3": 4}


def test_full_data_figures(full, full_stats):
    s = full_stats
    assert s["schema"] == MC_STATS_SCHEMA and s["format_version"] == MC_STATS_FORMAT_VERSION == 1
    assert s["counts"]["questions"] == 2776 and s["counts"]["endings"] == 4 * 2776
    for name in MC_HEURISTICS:
        h = s["heuristics"][name]
        assert h["n"] == 2776 and h["bias_when"].startswith("above chance")
        assert 0 <= h["ci_low"] <= h["accuracy"] <= h["ci_high"] <= 100
        assert h["above_chance_ci_low"] <= h["above_chance_pts"] <= h["above_chance_ci_high"]
        assert h["above_chance_pts"] == pytest.approx(h["accuracy"] - 25.0, abs=1e-3)
        assert h["ci_high"] - h["ci_low"] < 4  # about +-1.6 points on 2,776 questions
    # the accuracies agree with a direct count from the predictions
    pred = mc_heuristic_predictions(full)
    for name in MC_HEURISTICS:
        direct = 100 * np.mean([pred[name][q.id] == q.label for q in full.questions])
        assert s["heuristics"][name]["accuracy"] == pytest.approx(direct, abs=1e-4)
    w = s["ending_lengths"]["words"]
    assert w["difference_ci_low"] <= w["difference"] <= w["difference_ci_high"]
    assert w["difference"] == pytest.approx(w["correct_mean"] - w["wrong_mean"], abs=1e-3)
    json.dumps(s, allow_nan=False)  # JSON-able, no NaN


def test_bootstrap_is_deterministic_per_seed(full):
    sub = MCDataset(full.questions[:300])
    a, b = mc_stats(sub, seed=3, n_resamples=300), mc_stats(sub, seed=3, n_resamples=300)
    assert a == b
    c = mc_stats(sub, seed=4, n_resamples=300)
    assert c["heuristics"]["longest_ending"]["accuracy"] == a["heuristics"]["longest_ending"]["accuracy"]
    assert (c["heuristics"]["longest_ending"]["ci_low"], c["heuristics"]["longest_ending"]["ci_high"]) != \
           (a["heuristics"]["longest_ending"]["ci_low"], a["heuristics"]["longest_ending"]["ci_high"])


# ---------------------------------------------------------------- counts


def test_label_distribution_on_full_data(full_stats):
    lab = full_stats["labels"]
    assert lab["counts"] == {"0": 689, "1": 684, "2": 697, "3": 706}
    assert lab["n_labels"] == 4 and lab["most_common"] == 3
    assert lab["largest_pct"] == pytest.approx(100 * 706 / 2776, abs=1e-4)
    assert lab["smallest_pct"] == pytest.approx(100 * 684 / 2776, abs=1e-4)
    assert lab["max_deviation_pts"] == pytest.approx(100 * 706 / 2776 - 25, abs=1e-4)
    expected_chi2 = sum((c - 694) ** 2 / 694 for c in (689, 684, 697, 706))
    assert lab["chi_square"] == pytest.approx(expected_chi2, abs=1e-4) and lab["chi_square_df"] == 3
    assert lab["chi_square_p"] > 0.5  # balanced


def test_chi_square_tail_matches_scipy():
    scipy_stats = pytest.importorskip("scipy.stats")
    for x in (0.0, 0.4, 3.0, 7.81, 20.0):
        for df in (1, 2, 3, 4, 5):
            assert chi_square_sf(x, df) == pytest.approx(float(scipy_stats.chi2.sf(x, df)), abs=1e-9)


def test_category_counts_on_full_data(full_stats):
    cats = full_stats["categories"]
    assert cats["counts"] == {"Idioms": 244, "Reference": 133, "Polysemy": 108, "Negation": 115,
                              "Quantitative": 86, "Other": 2080, "none": 10}
    assert cats["questions_with_category"] == 2776 - 10
    assert cats["shares_pct"]["Other"] == pytest.approx(100 * 2080 / 2776, abs=1e-4)


def test_duplicates_on_full_data(full, full_stats):
    d = full_stats["duplicates"]
    # an independent count: questions whose normalised prompt another question shares
    prompts = [normalise(q.prompt) for q in full.questions]
    shared = sum(1 for p in prompts if prompts.count(p) > 1)
    assert d["repeated_prompts"]["questions"] == shared
    # the hand-checked pair: the same question twice, endings reordered, a curly apostrophe
    santa = [q for q in full.questions if q.prompt.startswith("It was Christmas Eve and in the North Pole")]
    assert len(santa) == 2 and santa[0].id != santa[1].id
    assert sorted(map(normalise, santa[0].endings)) == sorted(map(normalise, santa[1].endings))
    assert d["identical_questions"]["groups"] >= 1 and d["identical_questions"]["questions"] >= 2
    assert d["identical_questions"]["conflicting_groups"] == 0  # same correct ending text in each group
    assert 0 < d["correct_ending_elsewhere"]["as_wrong_ending"] <= d["correct_ending_elsewhere"]["questions"]


# ---------------------------------------------------------------- leakage


def test_leakage_between_fold0_train_and_test(fold0):
    s = mc_stats(fold0.test, train=fold0.train, n_resamples=50)
    leak = s["leakage"]
    train_prompts = {normalise(q.prompt) for q in fold0.train.questions}
    expected = sum(normalise(q.prompt) in train_prompts for q in fold0.test.questions)
    assert leak["questions"] == len(fold0.test) == 555
    assert leak["prompt_in_train"] == expected > 0
    assert leak["prompt_in_train_pct"] == pytest.approx(100 * expected / 555, abs=1e-4)
    assert leak["identical_in_train"] <= leak["prompt_in_train"]
    assert leak["prompt_and_answer_in_train"] <= leak["prompt_in_train"]
    # hand-checked: "It was Christmas Eve ... Santa was" is in fold 0's test and train files
    test_q = by_prompt(fold0.test, "It was Christmas Eve")
    train_q = by_prompt(fold0.train, "It was Christmas Eve")
    assert test_q.id != train_q.id and normalise(test_q.correct_ending) == normalise(train_q.correct_ending)
    assert leak["identical_in_train"] >= 1
    assert mc_stats(fold0.test, n_resamples=50)["leakage"] is None


def test_folds_folder_is_every_question_once(full, codah_dir):
    folds = read_folds(codah_dir)
    union = folds_union(folds, str(codah_dir))
    assert len(union) == 2776 and set(union.ids()) == set(full.ids())
    s = compute_mc_stats(codah_dir, n_resamples=100)
    assert s["counts"]["questions"] == 2776 and s["input"]["form"] == "folds"
    assert s["labels"]["counts"] == {"0": 689, "1": 684, "2": 697, "3": 706}
    assert [p["name"] for p in s["leakage"]["parts"]] == [f"fold_{k}" for k in range(5)]
    assert s["leakage"]["prompt_in_train"] == sum(p["prompt_in_train"] for p in s["leakage"]["parts"])
    with pytest.raises(MRCLensError, match="--dev is not used with a folds folder"):
        compute_mc_stats(codah_dir, codah_dir / "full_data.tsv.gz")


def test_file_with_dev_measures_dev_questions_in_data(fold0):
    s = compute_mc_stats(fold0.train.source, fold0.test.source, n_resamples=50)
    assert s["counts"]["questions"] == len(fold0.train)
    direct = mc_stats(fold0.test, train=fold0.train, n_resamples=50)["leakage"]
    for key in ("questions", "prompt_in_train", "prompt_and_answer_in_train", "identical_in_train"):
        assert s["leakage"][key] == direct[key]


# ---------------------------------------------------------------- metric paths and default rules


def test_metric_paths_cover_every_figure(full_stats, fold0):
    with_leak = mc_stats(fold0.test, train=fold0.train, n_resamples=20)
    assert set(mc_figure_paths(with_leak)) == set(MC_METRIC_PATHS)
    assert set(mc_figure_paths(full_stats)) == {p for p in MC_METRIC_PATHS if not p.startswith("leakage.")}
    assert len(set(MC_METRIC_PATHS)) == len(MC_METRIC_PATHS)


def test_data_dependent_paths_for_five_endings():
    ds = MCDataset([MCQuestion("a", "A cat sat.", ("one", "two words", "three more words", "four", "five"), 4, ("Misc",)),
                    MCQuestion("b", "", ("x y", "y"), 0)])
    s = mc_stats(ds, n_resamples=20)
    assert s["labels"]["n_labels"] == 5 and s["labels"]["counts"]["4"] == 1
    assert s["heuristics"]["chance"]["accuracy"] == pytest.approx(100 * (1 / 5 + 1 / 2) / 2)
    assert all(is_mc_metric(p) for p in mc_figure_paths(s))
    assert is_mc_metric("labels.counts.4") and is_mc_metric("categories.counts.Misc")
    assert not is_mc_metric("heuristics.sliding_window.f1")


def test_default_mc_rules_load_and_cite(full_stats):
    rules = load_rules(task=MULTIPLE_CHOICE)
    assert len(rules) >= 8
    for r in rules:
        assert is_mc_metric(r.metric) and r.label and r.meaning
    results = evaluate_rules(rules, full_stats)
    status = {r.rule.id: r.status for r in results}
    assert status["mc-longest-ending"] == "pass" and status["mc-leakage-identical"] == "skip"
    assert exit_code(results) == 0


def test_mc_rules_reject_span_metrics(tmp_path):
    f = tmp_path / "r.toml"
    f.write_text('[[rule]]\nid = "x"\nmetric = "heuristics.sliding_window.f1"\nop = "<="\nthreshold = 1\n')
    with pytest.raises(RulesError, match="not a figure of `mrclens stats` on multiple-choice data"):
        load_rules(f, task=MULTIPLE_CHOICE)
    f.write_text('[[rule]]\nid = "x"\nmetric = "audit.ablations.m1.f1_drop"\nop = ">="\nthreshold = 1\n')
    assert [r.id for r in load_rules(f, task=MULTIPLE_CHOICE)][-1] == "x"


def test_invisible_format_characters_leave_every_figure_unchanged(full):
    """Issue 55, item 13: the multiple-choice figures read the text without its invisible format characters
    (Unicode Cf), as span data's do. Before, a soft hyphen inside a word split it in two for every length and
    overlap figure, and a zero-width space between two words joined them."""
    cf = ("\u00ad", "\u200b", "\u200e", "\ufeff")
    clean = MCDataset(full.questions[:300], full.source, full.format)

    def dirty(text: str, k: int) -> str:  # a Cf character inside every other word and before the text
        words = text.split(" ")
        return cf[k % 4] + " ".join(w[:1] + cf[(k + i) % 4] + w[1:] if i % 2 and len(w) > 1 else w
                                    for i, w in enumerate(words))

    soiled = MCDataset([MCQuestion(q.id, dirty(q.prompt, n), tuple(dirty(e, n + j) for j, e in enumerate(q.endings)),
                                   q.label, q.categories) for n, q in enumerate(clean.questions)],
                       full.source, full.format)
    assert all(q.prompt != c.prompt for q, c in zip(soiled.questions, clean.questions))
    assert soiled.visible().questions == clean.questions and clean.visible() is clean
    a, b = mc_stats(clean, train=clean, n_resamples=50), mc_stats(soiled, train=soiled, n_resamples=50)
    assert b == a
    assert mc_heuristic_predictions(soiled) == mc_heuristic_predictions(clean)
    # without the view the words differ: a soft hyphen or zero-width space splits a word for \w+
    assert sum(normalise(q.prompt) != normalise(c.prompt) for q, c in zip(soiled.questions, clean.questions)) > 250
