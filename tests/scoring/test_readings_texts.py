"""Texts that were wrong (issue 33): intervals that touch zero once rounded, counts and plurals, and
external models blamed as "the baseline reader"."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from mrclens.artifacts.results import AblationResult, CategoryResult
from mrclens.metrics.bootstrap import fmt_bound, interval_side
from mrclens.reports import ci_summary
from mrclens.scoring.readings import majority_phrase, read_ablation, read_category, reader_phrase

_SHOWN = re.compile(r"\[(-?[\d.]+), (-?[\d.]+)\]")
bounds = st.floats(min_value=-3.0, max_value=3.0, allow_nan=False)


@given(bounds, bounds)
def test_an_interval_is_called_above_or_below_zero_only_when_its_shown_bounds_are(a, b):
    low, high = min(a, b), max(a, b)
    text = ci_summary(low, high)["text"]
    shown_low, shown_high = (float(x) for x in _SHOWN.search(text).groups())
    assert ("above zero" in text) == (shown_low > 0)
    assert ("below zero" in text) == (shown_high < 0)
    assert not re.search(r"-0\.0(?!\d)", text) and ("includes or touches zero" in text) == (shown_low <= 0 <= shown_high)


def test_the_cases_seen_in_issue_33():
    assert "includes or touches zero" in ci_summary(0.001, 0.5)["text"]  # was "[0.0, 0.5] lies entirely above zero"
    assert "[0.03, 0.5] lies entirely above zero" in ci_summary(0.03, 0.5)["text"]  # more decimals, not a false 0.0
    assert "[-0.1, -0.04] lies entirely below zero" in ci_summary(-0.12, -0.04)["text"]
    assert "[-0.1, 0.0] includes or touches zero" in ci_summary(-0.1, -0.004)["text"]  # was "-0.0 … below zero"
    assert (fmt_bound(-0.0), fmt_bound(-0.004), interval_side(-0.1, -0.004)) == ("0.0", "0.0", None)


def _insertion(drop, low, high, **kw) -> AblationResult:
    return AblationResult("e6", "insert nouns", "Keyword", "truncated", "original-truncated", "large_drop",
                          evaluated=True, n=500, f1=60.0 - drop, baseline_f1=60.0, f1_drop=drop, ci_low=low,
                          ci_high=high, **kw)


def test_a_reading_never_says_the_interval_excludes_0_when_it_shows_0():
    text, level = read_ablation(_insertion(6.0, 0.004, 12.0))
    assert "95% CI 0.0 to 12.0" in text and "excludes 0" not in text and "includes or touches 0" in text
    assert level == "none"
    text, level = read_ablation(_insertion(6.0, 0.04, 12.0))  # shown as 0.04: a real drop, said so
    assert "95% CI 0.04 to 12.0" in text and "a real drop (the interval excludes 0)" in text and level == "moderate"
    text, _ = read_ablation(_insertion(-2.0, -4.0, -0.003))
    assert "lies below 0" not in text and "F1 rises by 2.0 points (95% CI -4.0 to 0.0)" in text


def _members(levels):
    return [AblationResult(f"e{i}", f"a{i}", "Similarity", "full", "original", "small_drop", evaluated=True,
                           f1_drop=3.0, ci_low=1.0, ci_high=5.0, evidence=lv) for i, lv in enumerate(levels, start=1)]


def test_category_counts_say_how_many_ablations_back_the_level():
    members = _members(["none", "inconclusive", "inconclusive", "inconclusive"])
    cat = CategoryResult("Similarity", [a.id for a in members], [a.id for a in members], 3.0, 1.0, 5.0)
    text, level = read_category(cat, members)
    assert level == "inconclusive" and "(3 of 4 are inconclusive)" in text and "reach inconclusive" not in text
    assert "Mean F1 drop over 4 ablations:" in text
    one = _members(["strong"])
    text, _ = read_category(CategoryResult("Similarity", ["e1"], ["e1"], 3.0, 1.0, 5.0), one)
    assert "Mean F1 drop over 1 ablation:" in text and "ablation(s)" not in text
    assert majority_phrase("strong", ["strong", "strong", "none"]) == "2 of 3 reach strong evidence"
    assert majority_phrase("weak", ["strong", "weak", "none"]) == "2 of 3 reach weak evidence or more"
    assert majority_phrase("none", ["none", "none", "none"]) == "none of them shows any evidence"


def test_a_weak_external_model_is_named_in_the_category_reading():
    members = _members(["inconclusive", "inconclusive"])
    cat = CategoryResult("Similarity", ["e1", "e2"], ["e1", "e2"], 3.0, 1.0, 5.0)
    text, _ = read_category(cat, members, reader=reader_phrase("external", "first sentence"))
    assert "because the model 'first sentence' is too weak" in text and "baseline reader" not in text
    text, _ = read_category(cat, members, reader=reader_phrase("baseline", "co-attention BiLSTM"))
    assert "because the baseline reader is too weak" in text
