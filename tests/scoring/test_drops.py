"""F1 drops, paired bootstrap CIs and category aggregation, on hand-made cases with hand-computed values."""

from __future__ import annotations

import numpy as np
import pytest

from dataclasses import asdict, replace

from mrclens.artifacts.results import CategoryResult
from mrclens.metrics.bootstrap import confidence_label, paired_bootstrap_drop, stable_rng
from mrclens.artifacts.manifest import AblationEntry
from mrclens.scoring.drops import category_drop, score_ablation, score_all
from mrclens.scoring.sets import SetScores, score_set
from mrclens.scoring.readings import LARGE_DROP, SMALL_DROP, ablation_evidence, read_all
from mrclens.squad import Answer, Article, Dataset, Paragraph, Question

CONTEXT = "Paris is in France. Berlin is in Germany."
GOLD = {"q1": ("France", 12), "q2": ("Germany", 33), "q3": ("Paris", 0), "q4": ("Berlin", 20)}


def _ds(ids):
    return Dataset([Article("T", [Paragraph(CONTEXT, [Question(i, f"question {i}?", [Answer(*GOLD[i])]) for i in ids])])], "1.1")


def _scores(name, f1, em=None):
    f1 = np.asarray(f1, dtype=float)
    return SetScores(name, [f"q{i}" for i in range(len(f1))], em=np.asarray(em if em is not None else f1, dtype=float), f1=f1, missing=0, unknown=0)


def _info(aid="e1", base="original", signal="large_drop", category="Similarity", changed=None):
    items = None if changed is None else {q: {"changed": True, "reason": None, "detail": {}} for q in changed}
    return AblationEntry(aid, f"ablation {aid}", category, "full", base, signal, file=f"{aid}.json", items=items)


# --- paired bootstrap ---------------------------------------------------------------------------


def test_identical_scores_give_zero_drop_and_zero_ci():
    x = np.array([1.0, 0.5, 0.0, 1.0, 0.25])
    assert paired_bootstrap_drop(x, x.copy(), seed=3, key="e1") == (0.0, 0.0, 0.0)


def test_all_correct_vs_all_wrong_gives_drop_100():
    assert paired_bootstrap_drop(np.ones(7), np.zeros(7), key="e1") == (100.0, 100.0, 100.0)
    # and the other way round: the perturbation helps
    assert paired_bootstrap_drop(np.zeros(7), np.ones(7), key="e1") == (-100.0, -100.0, -100.0)


def test_hand_computed_percentile_interval():
    # diffs (points) = [100, 0, 0, 0]: each resample mean is 25*k, k ~ Binomial(4, 1/4):
    # P(k=0)=.316, P(k<=2)=.949, P(k<=3)=.996, so the 2.5th percentile is 0 and the 97.5th is 75.
    drop, low, high = paired_bootstrap_drop(np.array([1, 1, 0, 0.0]), np.array([0, 1, 0, 0.0]), seed=0, key="x")
    assert drop == 25.0
    assert (low, high) == (0.0, 75.0)


def test_resampling_is_paired():
    # Every question loses exactly 0.1 F1: a paired bootstrap sees a constant difference, so the
    # CI collapses to the drop; resampling the two sets independently would give a wide interval.
    rng = np.random.default_rng(1)
    base = rng.uniform(0.2, 1.0, size=200)
    drop, low, high = paired_bootstrap_drop(base, base - 0.1, key="e2")
    assert drop == pytest.approx(10.0)
    assert low == pytest.approx(10.0) and high == pytest.approx(10.0)


def test_ci_matches_normal_approximation_on_large_sample():
    rng = np.random.default_rng(7)
    base = (rng.uniform(size=5000) < 0.7).astype(float)
    pert = np.where(rng.uniform(size=5000) < 0.8, base, 1 - base)
    drop, low, high = paired_bootstrap_drop(base, pert, seed=0, key="e3", n_resamples=2000)
    diff = 100 * (base - pert)
    se = diff.std(ddof=1) / np.sqrt(diff.size)
    assert drop == pytest.approx(diff.mean())
    assert low == pytest.approx(drop - 1.96 * se, abs=0.25 * se)
    assert high == pytest.approx(drop + 1.96 * se, abs=0.25 * se)


def test_seeded_bootstrap_is_reproducible_and_keyed():
    rng = np.random.default_rng(0)
    base, pert = rng.uniform(size=300), rng.uniform(size=300)
    a = paired_bootstrap_drop(base, pert, seed=5, key="e4")
    assert a == paired_bootstrap_drop(base, pert, seed=5, key="e4")
    assert a[1:] != paired_bootstrap_drop(base, pert, seed=6, key="e4")[1:]
    assert a[1:] != paired_bootstrap_drop(base, pert, seed=5, key="e5")[1:]
    # the stream depends only on (seed, key): stable across processes (crc32, not hash())
    assert stable_rng(0, "e1").integers(0, 10**9) == stable_rng(0, "e1").integers(0, 10**9)


def test_bootstrap_rejects_bad_input():
    with pytest.raises(ValueError):
        paired_bootstrap_drop(np.ones(3), np.ones(4))
    with pytest.raises(ValueError):
        paired_bootstrap_drop(np.ones(3), np.ones(3), n_resamples=0)
    assert all(np.isnan(v) for v in paired_bootstrap_drop(np.array([]), np.array([])))


# --- per set and per ablation -------------------------------------------------------------------


def test_score_set_counts_missing_and_unknown():
    s = score_set("original", _ds(["q1", "q2", "q3", "q4"]), {"q1": "France", "q2": "Germany.", "q3": "Paris Berlin", "zz": "x", "yy": "y"})
    # q1, q2 exact; q3 F1 = 2*(1/2*1)/(1/2+1) = 2/3, EM 0; q4 missing -> 0
    assert s.missing == 1 and s.unknown == 2
    assert s.em.tolist() == [1.0, 1.0, 0.0, 0.0]
    assert s.f1.tolist() == pytest.approx([1.0, 1.0, 2 / 3, 0.0])
    assert s.exact_match() == 50.0
    assert s.f1_score() == pytest.approx(100 * (2 + 2 / 3) / 4)


def test_score_set_without_predictions_is_not_evaluated():
    s = score_set("e4", _ds(["q1"]), None, reason="no prediction file e4.json")
    result = s.to_result("e4.json")
    assert not s.evaluated and result.reason_not_evaluated == "no prediction file e4.json"
    assert result.f1 is None and result.n == 1 and result.file == "e4.json"


def test_score_ablation_pairs_by_id_and_reports_changed_only():
    base = score_set("original", _ds(["q1", "q2", "q3", "q4"]), {"q1": "France", "q2": "Germany", "q3": "Paris", "q4": "nope"})
    # the ablation set lists the questions in another order; q1 and q2 are changed
    pert = score_set("e3", _ds(["q4", "q3", "q2", "q1"]), {"q1": "Berlin", "q2": "Germany", "q3": "Paris", "q4": "nope"})
    r = asdict(score_ablation(_info("e3", signal="small_drop", changed={"q1", "q2"}), base, pert, n_resamples=200))
    assert r["evaluated"] and r["n"] == 4 and r["changed"] == 2 and r["unpaired"] == 0
    assert (r["baseline_f1"], r["f1"], r["f1_drop"]) == (75.0, 50.0, 25.0)
    assert (r["baseline_exact_match"], r["exact_match"], r["em_drop"]) == (75.0, 50.0, 25.0)
    assert r["ci_low"] <= 25.0 <= r["ci_high"]
    co = r["changed_only"]
    assert (co["n"], co["baseline_f1"], co["f1"], co["f1_drop"]) == (2, 100.0, 50.0, 50.0)


def test_score_ablation_not_evaluated_when_a_set_has_no_predictions():
    base = score_set("original", _ds(["q1"]), None, reason="no prediction file original.json")
    pert = score_set("e4", _ds(["q1"]), {"q1": "France"})
    r = asdict(score_ablation(_info("e4", signal="small_drop"), base, pert))
    assert not r["evaluated"] and r["f1_drop"] is None and r["ci_low"] is None
    assert "original: no prediction file original.json" in r["reason_not_evaluated"]


# --- categories ---------------------------------------------------------------------------------


def test_category_drop_is_mean_of_ablation_drops():
    base = _scores("original", [1, 1, 1, 1])
    same = _scores("e1", [1, 1, 1, 1])
    none = _scores("e2", [0, 0, 0, 0])
    drop, low, high = category_drop([(_info("e1"), base, same), (_info("e2"), base, none)], key="Similarity")
    # per ablation the differences are constant (0 and 100), so every resample gives (0+100)/2
    assert (drop, low, high) == (50.0, 50.0, 50.0)


def test_category_resamples_questions_jointly():
    # e4 loses question q0, e5 gains it back: each alone has a wide CI, but resampled jointly
    # (the same question draws for both) the mean drop is exactly 0 in every resample.
    base = _scores("original", [1, 0, 1, 0, 1, 0])
    a = _scores("e4", [0, 0, 1, 0, 1, 0])
    b = _scores("e5", [2, 0, 1, 0, 1, 0])  # F1 2 is not a real score; it makes diff(b) = -diff(a)
    _, lo_a, hi_a = paired_bootstrap_drop(base.f1, a.f1, key="e4")
    assert hi_a - lo_a > 10
    assert category_drop([(_info("e4"), base, a), (_info("e5"), base, b)], key="Question") == (0.0, 0.0, 0.0)


def test_score_all_partial_predictions_and_categories():
    datasets = {"original": _ds(["q1", "q2", "q3", "q4"]), "e3": _ds(["q1", "q2", "q3", "q4"]), "e4": _ds(["q1", "q2", "q3", "q4"])}
    gold = {q: a for q, (a, _) in GOLD.items()}
    infos = [_info("e3", signal="small_drop", category="Similarity"), _info("e4", signal="small_drop", category="Question")]
    scored = score_all(datasets, {"original": gold, "e3": {"q1": "France"}}, infos, n_resamples=100, missing_reasons={"e4": "no file"})
    out = {"ablations": [asdict(a) for a in scored.ablations], "categories": [asdict(c) for c in scored.categories],
           "sets": {k: asdict(v) for k, v in scored.set_results({}).items()}}
    assert [a["id"] for a in out["ablations"]] == ["e3", "e4"]
    e3, e4 = out["ablations"]
    assert e3["evaluated"] and e3["f1_drop"] == 75.0
    assert not e4["evaluated"] and e4["reason_not_evaluated"] == "e4: no file"
    assert out["sets"]["e3"]["missing"] == 3 and out["sets"]["e4"]["evaluated"] is False
    cats = {c["category"]: c for c in out["categories"]}
    assert cats["Similarity"]["f1_drop"] == 75.0 and cats["Similarity"]["evaluated"] == ["e3"]
    assert cats["Question"]["f1_drop"] is None and cats["Question"]["ablations"] == ["e4"]


# --- readings -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "signal, drop, low, high, level",
    [
        ("small_drop", 1.0, -0.5, 2.5, "strong"),  # whole CI below SMALL_DROP
        ("small_drop", 4.0, 2.0, 6.0, "moderate"),  # small point estimate, CI crosses SMALL_DROP
        ("small_drop", 8.0, 6.0, 10.5, "weak"),
        ("small_drop", 30.0, 25.0, 35.0, "none"),  # model clearly needs the information
        ("large_drop", 20.0, 15.0, 25.0, "strong"),  # whole CI above LARGE_DROP
        ("large_drop", 12.0, 8.0, 16.0, "moderate"),
        ("large_drop", 3.0, 1.0, 5.0, "none"),  # real (CI excludes 0) but small: no material evidence
        ("large_drop", 6.0, 2.0, 10.0, "moderate"),  # real and material, below LARGE_DROP
        ("large_drop", 0.5, -1.0, 2.0, "none"),
    ],
)
def test_evidence_levels(signal, drop, low, high, level):
    assert SMALL_DROP < LARGE_DROP
    assert ablation_evidence(signal, drop, low, high) == level


def test_readings_name_the_direction_and_the_ci():
    base = _scores("original", [1] * 10)
    pert = _scores("e4", [1] * 9 + [0.9])
    r = score_ablation(_info("e4", signal="small_drop", category="Question"), base, pert, n_resamples=100)
    cat = CategoryResult("Question", ["e4"], ["e4"], 1.0, 0.0, 3.0)
    (r,), (c,) = read_all([r], [cat])
    assert r.evidence == "strong"
    assert "F1 falls by 1.0 points (95% CI" in r.reading and "does not need the information" in r.reading
    assert c.evidence == "strong"
    assert c.reading.startswith("Question bias: strong evidence") and "(95% CI 0.0 to 3.0)" in c.reading
    # the confidence level reaches every text that prints it
    (r90,), (c90,) = read_all([r], [cat], confidence=0.9)
    assert "(90% CI" in r90.reading and "95%" not in r90.reading and "(90% CI 0.0 to 3.0)" in c90.reading
    assert cat.reading is None  # the inputs are not changed in place


def test_confidence_label():
    assert [confidence_label(c) for c in (0.95, 0.9, 0.975, 0.99)] == ["95% CI", "90% CI", "97.5% CI", "99% CI"]


def test_reading_warns_when_the_baseline_is_weak():
    base = _scores("original", [1] * 2 + [0] * 8)  # baseline F1 20 < LOW_BASELINE_F1
    pert = _scores("e3", [1] * 2 + [0] * 8)
    (r,), _ = read_all([score_ablation(_info("e3", signal="small_drop"), base, pert, n_resamples=50)], [])
    assert r.evidence == "inconclusive"  # a small drop of a weak reader is no evidence
    assert "Caution: the baseline F1 is only 20.0 (it keeps 100% of it)" in r.reading
    # a significant large drop still counts even with a weak baseline
    worse = _scores("e1", [0] * 10)
    (r,), _ = read_all([score_ablation(_info("e1", signal="large_drop"), base, worse, n_resamples=50)], [])
    assert r.evidence != "inconclusive" and r.f1_drop == 20.0


# --- relative and excess drops (issue 16) ------------------------------------------------------


def test_relative_drop_hand_computed():
    from mrclens.metrics.bootstrap import paired_bootstrap_relative_drop

    # baseline mean 0.8, perturbed mean 0.6 -> 25 % of the baseline is lost
    b = np.array([1.0, 1.0, 1.0, 1.0, 0.0])
    p = np.array([1.0, 1.0, 1.0, 0.0, 0.0])
    rel, low, high = paired_bootstrap_relative_drop(b, p, key="x", n_resamples=500)
    assert rel == pytest.approx(25.0)
    assert 0.0 <= low <= rel <= high <= 100.0
    # a constant ratio gives a zero-width interval: every resample loses exactly half
    rel, low, high = paired_bootstrap_relative_drop(np.ones(6), np.full(6, 0.5), key="x")
    assert (rel, low, high) == (50.0, 50.0, 50.0)
    assert all(np.isnan(v) for v in paired_bootstrap_relative_drop(np.zeros(3), np.zeros(3)))


def test_excess_drop_pairs_ablation_and_control_by_question():
    from mrclens.scoring.drops import excess_drop

    base = _scores("original", [1, 1, 1, 1])
    abl = _scores("e1", [0, 0, 1, 1])      # drop 50
    ctl = _scores("c1", [1, 0, 1, 1])      # drop 25
    drop, low, high, n = excess_drop(_info("e1"), base, abl, ctl, n_resamples=300)
    assert (drop, n) == (25.0, 4)           # per question c - a = [1, 0, 0, 0] -> 25 points
    assert 0.0 <= low <= 25.0 <= high <= 100.0
    # identical ablation and control: zero excess with a zero-width interval
    assert excess_drop(_info("e1"), base, abl, _scores("c1", [0, 0, 1, 1]), n_resamples=50)[:3] == (0.0, 0.0, 0.0)


def test_score_all_links_controls_and_keeps_them_out_of_categories():
    ids = ["q1", "q2", "q3", "q4"]
    datasets = {"original": _ds(ids), "e1": _ds(ids), "c1": _ds(ids)}
    gold = {q: a for q, (a, _) in GOLD.items()}
    infos = [_info("e1"), AblationEntry("c1", "control for e1", "Similarity", "full", "original", "control", control_of="e1", file="c1.json")]
    preds = {"original": gold, "e1": {"q3": "Paris", "q4": "Berlin"}, "c1": {"q2": "Germany", "q3": "Paris", "q4": "Berlin"}}
    scored = score_all(datasets, preds, infos, n_resamples=100)
    e1, c1 = scored.ablations
    assert (e1.f1_drop, c1.f1_drop) == (50.0, 25.0)
    assert (e1.control, e1.control_f1_drop, e1.excess_drop, e1.excess_n) == ("c1", 25.0, 25.0, 4)
    assert e1.relative_drop == 50.0 and c1.control_of == "e1"
    [cat] = scored.categories
    assert cat.ablations == ["e1"] and cat.f1_drop == 50.0
    (r_e1, r_c1), _ = read_all(scored.ablations, scored.categories)
    assert r_c1.evidence is None and "what any insertion there costs" in r_c1.reading
    assert "excess drop is 25.0 points" in r_e1.reading
    # the evidence comes from the excess drop (25, CI above 0 but crossing 10 -> moderate or strong), not the raw drop
    assert r_e1.evidence == ablation_evidence("large_drop", e1.excess_drop, e1.excess_ci_low, e1.excess_ci_high)


def test_position_category_reads_e9_against_its_move_control():
    # issue 17: e9 moves the answer sentence (Position bias), c9 moves a sentence without the answer
    ids = ["q1", "q2", "q3", "q4"]
    datasets = {"original": _ds(ids), "e9": _ds(ids), "c9": _ds(ids)}
    gold = {q: a for q, (a, _) in GOLD.items()}
    infos = [_info("e9", category="Position"),
             AblationEntry("c9", "control for e9", "Position", "full", "original", "control", control_of="e9", file="c9.json")]
    preds = {"original": gold, "e9": {"q4": "Berlin"}, "c9": gold}
    scored = score_all(datasets, preds, infos, n_resamples=100)
    e9, c9 = scored.ablations
    assert (e9.f1_drop, c9.f1_drop, e9.excess_drop) == (75.0, 0.0, 75.0)
    [cat] = scored.categories
    assert (cat.category, cat.ablations) == ("Position", ["e9"])
    (r_e9, r_c9), (r_cat,) = read_all(scored.ablations, scored.categories)
    assert r_c9.evidence is None and "a sentence that holds no answer is moved by e9's displacement" in r_c9.reading
    assert "insert" not in r_c9.reading and "lexical overlap" not in r_e9.reading
    assert "a sentence without the answer moved as far" in r_e9.reading
    assert r_e9.evidence in ("moderate", "strong") and "where the answer sits" in r_e9.reading
    assert r_cat.reading.startswith("Position bias:")


# --- both directions and the category rule (issue 17) ------------------------------------------


def test_category_level_needs_a_majority_of_the_ablations():
    from mrclens.scoring.readings import category_level

    assert category_level(["strong"]) == "strong"
    assert category_level(["strong", "none"]) == "none"                    # the weaker of two
    assert category_level(["none", "strong", "moderate"]) == "moderate"      # 2 of 3
    assert category_level(["strong", "moderate", "moderate", "none"]) == "moderate"  # 3 of 4
    assert category_level(["strong", "strong", "moderate", "none"]) == "moderate"
    assert category_level(["strong", "strong", "strong", "none"]) == "strong"
    with pytest.raises(ValueError):
        category_level([])


def _read_similarity(e3_pert, e1_pert):
    """Similarity with e1 (large_drop) and e3 (small_drop) on 40 questions, baseline F1 100."""
    base = _scores("original", [1] * 40)
    e3 = score_ablation(_info("e3", signal="small_drop"), base, _scores("e3", e3_pert), n_resamples=200)
    e1 = score_ablation(_info("e1", signal="large_drop"), base, _scores("e1", e1_pert), n_resamples=200)
    cat = CategoryResult("Similarity", ["e1", "e3"], ["e1", "e3"], 0.0, 0.0, 0.0)
    pos = CategoryResult("Position", ["e9"], [], None, None, None)
    (r1, r3), (c, p) = read_all([e1, e3], [cat, pos])
    return r1, r3, c, p


def test_one_small_shuffle_drop_does_not_make_similarity_strong():
    # e3 costs nothing (small drop: "strong" on its own), e1 costs nothing either (no overlap pull)
    r1, r3, c, _ = _read_similarity([1] * 40, [1] * 40)
    assert r3.evidence == "strong" and r1.evidence == "none"
    assert c.evidence == "none" and "a majority of its 2 ablations" in c.reading
    assert "Read the other way: The reader is not pulled towards a sentence that repeats the question" in r1.reading
    # the insertion now pulls the reader on 30 of 40 questions: the category moves with the data
    r1, r3, c, _ = _read_similarity([1] * 40, [0] * 30 + [1] * 10)
    assert r1.evidence == "strong" and c.evidence == "strong" and "Read the other way" not in r1.reading


def test_a_large_shuffle_drop_is_read_the_other_way_and_cited_by_position():
    r1, r3, c, p = _read_similarity([0] * 20 + [1] * 20, [1] * 40)  # e3 costs 50 points
    assert r3.evidence == "none"
    assert "Read the other way: The reader needs the sentences in their order" in r3.reading
    # Position has no evaluated ablation here, so it is not evaluated; with e9 evaluated it cites e3
    assert p.evidence is None
    base = _scores("original", [1] * 40)
    e9 = score_ablation(_info("e9", signal="large_drop", category="Position"), base, _scores("e9", [1] * 40),
                        n_resamples=200)
    e3 = score_ablation(_info("e3", signal="small_drop"), base, _scores("e3", [0] * 20 + [1] * 20), n_resamples=200)
    _, (pos,) = read_all([e9, e3], [CategoryResult("Position", ["e9"], ["e9"], 0.0, 0.0, 0.0)])
    assert pos.evidence == "none" and "Also: e3" in pos.reading and "costs 50.0 points" in pos.reading
    # a small e3 drop is not cited
    e3_small = score_ablation(_info("e3", signal="small_drop"), base, _scores("e3", [1] * 40), n_resamples=200)
    _, (pos,) = read_all([e9, e3_small], [CategoryResult("Position", ["e9"], ["e9"], 0.0, 0.0, 0.0)])
    assert "Also:" not in pos.reading


def test_a_real_but_small_pull_reads_as_no_material_sign():
    from mrclens.artifacts.results import AblationResult
    from mrclens.scoring.readings import read_ablation

    a = AblationResult("e7", "insert verbs", "Keyword", "e7", "original-truncated", "large_drop", evaluated=True,
                       n=2011, f1_drop=2.3, ci_low=1.7, ci_high=3.0, baseline_f1=74.4, relative_drop=3.1,
                       relative_ci_low=2.2, relative_ci_high=4.0, control="c7", control_f1_drop=-0.2,
                       excess_drop=2.5, excess_ci_low=1.8, excess_ci_high=3.2)
    text, level = read_ablation(a)
    assert level == "none"
    assert "the interval excludes 0 but the drop is under 5.0 points, a real but small pull" in text
    text, level = read_ablation(replace(a, excess_drop=0.4, excess_ci_low=-0.3, excess_ci_high=1.1))
    assert level == "none" and "the interval includes or touches 0" in text
    # the whole interval below 0: the model is pushed *away* by the overlap (issue 20, CODAH's m4)
    text, level = read_ablation(replace(a, excess_drop=-3.2, excess_ci_low=-5.1, excess_ci_high=-1.4))
    assert level == "none" and "a reversed pull" in text and "more than after unrelated words" in text
    assert "Read the other way" not in text
