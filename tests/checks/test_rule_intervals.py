"""Which interval each figure of a `mrclens check` rule gets (mrclens.checks.intervals; issue 44, item 2)."""

from __future__ import annotations

import math

import pytest

from mrclens.checks import AUDIT_SECTION, COMPARE_SECTION, load_rules, run_check
from mrclens.checks.intervals import ORDER_OPERATORS, decide, figure_interval, lookup_in
from mrclens.stats.schema import DEV_SECTION
from tests.conftest import SAMPLE


@pytest.mark.parametrize("op,threshold,want", [
    ("<=", 10, "pass"), ("<=", 5, "unsure"), ("<=", 4, "unsure"), ("<=", 3.9, "fail"), ("<=", 8, "pass"), ("<", 8, "unsure"),
    (">=", 4, "pass"), (">=", 5, "unsure"), (">=", 9, "fail"), (">", 4, "unsure"), (">", 3.9, "pass"),
])
def test_decide_reads_the_whole_interval(op, threshold, want):
    assert decide(op, threshold, 4.0, 8.0) == want


def test_decide_refuses_an_equality():
    with pytest.raises(ValueError):
        decide("==", 0, 0.0, 1.0)


def test_shares_take_the_n_recorded_beside_them_and_the_largest_type_its_share_per_article():
    stats = {"question_types": {"n": 200, "largest": "what", "largest_pct": 60.0,
                                "shares_pct": {"what": 60.0, "who": 40.0}}}
    arts = [{"question_types": {"n": 100, "largest": "what", "largest_pct": 80.0, "shares_pct": {"what": 80.0, "who": 20.0}}},
            {"question_types": {"n": 100, "largest": "who", "largest_pct": 60.0, "shares_pct": {"what": 40.0, "who": 60.0}}}]
    alone = figure_interval("question_types.largest_pct", lookup_in(stats))
    assert "n = 200" in alone.method and "article" not in alone.method
    both = figure_interval("question_types.largest_pct", lookup_in(stats), [lookup_in(a) for a in arts])
    # the articles' shares of "what" (80, 40), not their own largest shares (80, 60): se 20, t(1) 12.7
    assert both.low == 0.0 and both.high == 100.0 and "2 articles, t on 1 df" in both.method
    shares = figure_interval("question_types.shares_pct.who", lookup_in(stats))
    assert "n = 200" in shares.method


def test_recorded_intervals_are_used_as_they_are():
    audit = {"ablations": {"e4": {"f1_drop": 18.0, "ci_low": 15.0, "ci_high": 21.0, "relative_drop": 30.0,
                                  "relative_ci_low": 25.0, "relative_ci_high": 35.0}},
             "heuristics": {"longest_ending": {"above_chance_pts": 1.2, "above_chance_ci_low": -0.5,
                                               "above_chance_ci_high": 2.8}}}
    got = {p: figure_interval(p, lookup_in(audit)) for p in ("ablations.e4.f1_drop", "ablations.e4.relative_drop",
                                                             "heuristics.longest_ending.above_chance_pts")}
    assert [(g.low, g.high) for g in got.values()] == [(15.0, 21.0), (25.0, 35.0), (-0.5, 2.8)]
    assert figure_interval("counts.questions", lookup_in({"counts": {"questions": 5}})) is None  # a count: a point


def test_a_mean_of_ranks_that_agree_is_not_certain_on_three_questions():
    stats = {"chance_corrected": {"position_rank": {"n": 3, "mean": 100.0, "std": 0.0, "min": 100.0,
                                                    "unit": "percentile rank of the answer sentence, percent"}}}
    iv = figure_interval("chance_corrected.position_rank.mean", lookup_in(stats))
    assert iv.high == 100.0 and iv.low < 75.0 and "Wilson" in iv.method  # the t interval alone would be [100, 100]
    one = {"lengths": {"answer_words": {"n": 1, "mean": 3.0, "std": 0.0, "min": 3.0, "unit": "whitespace words"}}}
    iv = figure_interval("lengths.answer_words.mean", lookup_in(one))
    assert iv.low == 0.0 and iv.high == math.inf


def _data_rules(rules):
    return [r for r in rules if r.op in ORDER_OPERATORS and not isinstance(r.threshold, str)
            and r.metric.split(".")[0] not in (AUDIT_SECTION, COMPARE_SECTION)]


def test_every_default_span_rule_on_a_share_an_f1_or_a_mean_carries_its_interval(tmp_path):
    from mrclens.formats import load_dataset
    from mrclens.squad import Dataset, write_dataset

    sample = load_dataset(SAMPLE)
    data, dev = tmp_path / "data.json", tmp_path / "dev.json"
    write_dataset(Dataset(sample.articles[:3], sample.version), data)
    write_dataset(Dataset(sample.articles[3:4], sample.version), dev)
    wanted = {r.id for r in _data_rules(load_rules())}
    assert {"type-matching-heuristic", "duplicates", "similarity-rank", "question-type-balance"} <= wanted
    report = run_check(data, dev, cache_dir=tmp_path / "cache", progress=False)
    got = {r.rule.id: r for r in report.results}
    for rid in wanted:
        assert got[rid].ci_low is not None and got[rid].ci_low <= got[rid].value <= got[rid].ci_high, rid
        if not rid.startswith("leakage"):
            assert "3 articles" in got[rid].method, (rid, got[rid].method)  # clustered by article


def test_every_default_multiple_choice_rule_on_a_share_or_a_mean_carries_its_interval(codah_dir):
    wanted = {r.id for r in _data_rules(load_rules(task="multiple_choice")) if not r.metric.startswith(DEV_SECTION)}
    report = run_check(codah_dir / "full_data.tsv.gz", progress=False)
    got = {r.rule.id: r for r in report.results}
    assert wanted and all(got[rid].ci_low is not None for rid in wanted), {rid: got[rid] for rid in wanted}
