"""The multiple-choice planting of `mrclens selftest` (issue 20) on real CODAH rows: the planted side puts the
tail on the gold ending and nothing else, the clean side puts it on an ending drawn independently of the
label, the model-free figure the judgement reads moves with it, the rule, and a planted-vs-clean audit pair."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

import pytest

from mrclens.artifacts.results import CategoryResult
from mrclens.artifacts.selftest import read_selftest
from mrclens.checks import evaluate_rules, load_rules
from mrclens.tasks import MULTIPLE_CHOICE
from mrclens.errors import MRCLensError
from mrclens.multiple_choice.stats import mc_stats
from mrclens.selftest.plantings import MC_PLANTINGS, MC_TAIL, PLANTINGS, add_tail, plant_mc
from mrclens.selftest.runner import FLAGGED, format_selftest, judge_mc, run_selftest

@pytest.fixture(scope="module")
def codah(codah_full):
    return codah_full


@pytest.fixture(scope="module")
def whole(codah):
    return plant_mc(codah, "mc-length", seed=0)


def _tailed(ending: str, original: str) -> bool:
    return ending == add_tail(original) and ending != original


def test_add_tail_goes_before_the_final_punctuation():
    assert add_tail("I will fail.") == f"I will fail {MC_TAIL}."
    assert add_tail("what?!  ") == f"what {MC_TAIL}?!"
    assert add_tail("a kitten") == f"a kitten {MC_TAIL}"


def test_planted_side_tails_the_gold_ending_only_and_keeps_everything_else(codah, whole):
    original = codah.by_id()
    assert [q.id for q in whole.planted.questions] == [q.id for q in codah.questions]
    for q in whole.planted.questions:
        o = original[q.id]
        assert (q.prompt, q.label, q.categories) == (o.prompt, o.label, o.categories)
        assert _tailed(q.endings[q.label], o.endings[o.label])  # the gold ending keeps its text, tail added
        assert all(e == oe for i, (e, oe) in enumerate(zip(q.endings, o.endings)) if i != q.label)
    assert whole.changed == {"planted": len(codah), "clean": len(codah)}


def test_clean_side_tails_one_ending_drawn_independently_of_the_label(codah, whole):
    original = codah.by_id()
    table = Counter()
    for q in whole.clean.questions:
        o = original[q.id]
        assert (q.prompt, q.label, q.categories) == (o.prompt, o.label, o.categories)
        tailed = [i for i, (e, oe) in enumerate(zip(q.endings, o.endings)) if e != oe]
        assert len(tailed) == 1 and _tailed(q.endings[tailed[0]], o.endings[tailed[0]])
        table[q.label, tailed[0]] += 1
    n = len(whole.clean)
    # the tail sits on the gold ending about as often as chance (1 in 4; binomial SD 0.8 points on 2,776)
    on_gold = sum(v for (label, at), v in table.items() if label == at) / n
    assert abs(on_gold - 0.25) < 0.03, on_gold
    # and its position is independent of the label: chi-square test of the 4 x 4 table (9 df)
    labels, places = Counter(), Counter()
    for (label, at), v in table.items():
        labels[label] += v
        places[at] += v
    chi2 = sum((table[a, b] - labels[a] * places[b] / n) ** 2 / (labels[a] * places[b] / n)
               for a in labels for b in places)
    assert chi2 < 27.88, chi2  # the 0.1 % critical value of chi-square with 9 df
    assert min(places.values()) > 0.2 * n  # every position drawn


def test_subset_is_seeded_keeps_file_order_and_same_seed_same_data(codah):
    a = plant_mc(codah, "mc-length", seed=0, n_questions=300)
    again = plant_mc(codah, "mc-length", seed=0, n_questions=300)
    other = plant_mc(codah, "mc-length", seed=1, n_questions=300)
    assert len(a.planted) == 300 and a.planted == again.planted and a.clean == again.clean
    order = {q.id: i for i, q in enumerate(codah.questions)}
    ids = [q.id for q in a.planted.questions]
    assert ids == sorted(ids, key=order.get) and ids == [q.id for q in a.clean.questions]
    assert ids != [q.id for q in codah.questions[:300]]  # not the file's first rows
    assert set(ids) != {q.id for q in other.planted.questions}


def test_the_model_free_figure_and_its_check_rule_move_with_the_planting(codah, whole):
    [rule] = [r for r in load_rules(task=MULTIPLE_CHOICE) if r.id == MC_PLANTINGS["mc-length"].check_rule]
    figures = {}
    for name, ds in (("original", codah), ("planted", whole.planted), ("clean", whole.clean)):
        stats = mc_stats(ds, n_resamples=200)
        [got] = evaluate_rules([rule], stats)
        figures[name] = (stats["heuristics"]["longest_ending"], got.status)
    planted, clean = figures["planted"][0], figures["clean"][0]
    assert planted["accuracy"] > 80.0 and planted["above_chance_ci_low"] > 50.0  # CODAH itself: 26.2 %
    assert abs(clean["above_chance_pts"]) < 4.0 and clean["above_chance_ci_low"] < 0 < clean["above_chance_ci_high"]
    assert [figures[k][1] for k in ("original", "planted", "clean")] == ["pass", "fail", "pass"]


# ------------------------------------------------------------------------------------------- the rule
def _results(question: str, answer_only: tuple[float, float, float] | None, longest_above_chance: float,
             accuracy: float = 50.0):
    cats = [CategoryResult("Question", ["m1", "m2", "m3"], [], None, None, None, None, question),
            CategoryResult("Keyword", ["m4"], [], None, None, None, None, "none")]
    ao = None if answer_only is None else dict(zip(("accuracy", "ci_low", "ci_high"), answer_only), n=500)
    section = {"answer_only": ao, "accuracy": {"accuracy": accuracy},
               "stats": {"heuristics": {"longest_ending": {"above_chance_pts": longest_above_chance}}}}
    return SimpleNamespace(categories=cats, sections={"multiple_choice": section},
                           sets={"original": SimpleNamespace(f1=accuracy)})


def test_judge_mc_passes_only_when_all_three_parts_hold():
    planted = _results("strong", (97.0, 95.0, 99.0), 60.0)
    clean = _results("strong", (35.0, 31.0, 39.0), 1.5)  # CODAH's own Question reading: recorded, not judged
    passed, why, criteria = judge_mc("mc-length", planted, clean)
    assert passed, why
    assert criteria["readings"] == {"category": "Question", "planted": "strong", "clean": "strong", "passed": True}
    assert criteria["answer_only"]["passed"] and criteria["check_rule"]["passed"]
    assert criteria["check_rule"]["planted"] == {"status": "fail", "value": 60.0}
    assert criteria["check_rule"]["clean"] == {"status": "pass", "value": 1.5}
    assert "not judged: the clean counterpart's own readings (Question strong)" in why
    # each part alone can fail it
    assert not judge_mc("mc-length", _results("weak", (97.0, 95.0, 99.0), 60.0), clean)[0]
    overlap = judge_mc("mc-length", _results("strong", (40.0, 36.0, 44.0), 60.0), clean)
    assert not overlap[0] and not overlap[2]["answer_only"]["passed"] and "not above" in overlap[1]
    assert not judge_mc("mc-length", _results("strong", (97.0, 95.0, 99.0), 8.0), clean)[0]  # rule passes planted
    assert not judge_mc("mc-length", planted, _results("strong", (35.0, 31.0, 39.0), 12.0))[0]  # fails clean
    assert not judge_mc("mc-length", planted, _results("strong", None, 1.5))[0]  # no answer-only figure
    assert "moderate" in FLAGGED and judge_mc("mc-length", _results("moderate", (97.0, 95.0, 99.0), 60.0), clean)[0]


def test_mc_planting_is_named_only_and_needs_data(tmp_path, monkeypatch):
    import mrclens.selftest.runner as runner

    assert "mc-length" not in PLANTINGS  # the span default stays the four span plantings
    with pytest.raises(MRCLensError, match="known: overlap, marked, keywords, position, short, long, grouped, mc-length"):
        run_selftest(tmp_path / "x", plantings=["mc-lenght"], progress=False)
    monkeypatch.setattr(runner, "default_mc_data", lambda: None)
    with pytest.raises(MRCLensError, match="--mc-data"):
        run_selftest(tmp_path / "y", plantings=["mc-length"], progress=False)


# ------------------------------------------------------------------------------------ a real audit pair
@pytest.mark.slow
def test_selftest_mc_length_with_real_audits_planted_vs_clean(codah, codah_dir, tmp_path):
    """The whole planting through the runner with tiny settings (300 questions, 3 folds of 100 training
    questions, 3 epochs): the planted reader answers from the endings alone, the clean one cannot."""
    report = run_selftest(tmp_path / "st", plantings=["mc-length"], mc_data=str(codah_dir / "full_data.tsv.gz"), mc_questions=300, seed=0,
                          device="cpu", cache_dir=str(tmp_path / "cache"), progress=False,
                          mc_audit_options={"epochs": 3, "n_resamples": 200, "perturb_seeds": 1})
    [row] = report.plantings
    c = row.criteria
    assert row.task == "multiple_choice" and row.family == "Question"
    assert (tmp_path / "st" / "mc-length" / "planted.jsonl").is_file()
    assert row.passed and report.passed, row.why
    # the reader exploits the tail: far above the clean reader without the prompt, and with it
    assert c["answer_only"]["planted"]["accuracy"] > 80.0 and c["answer_only"]["clean"]["accuracy"] < 50.0
    assert row.planted_f1 > 80.0 and row.clean_f1 < 50.0
    # the model-free figure: 'pick the longest ending' far above chance planted, near chance clean
    assert c["check_rule"]["planted"]["value"] > 40.0 and abs(c["check_rule"]["clean"]["value"]) < 10.0
    assert read_selftest(tmp_path / "st") == report
    table = format_selftest(report)
    assert "mc-length" in table and "PASS" in table and "F1/acc pl/cl" in table
