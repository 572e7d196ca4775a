from mrclens.stats.summary import integer_bins, share_pct, shares, summarize


def test_summarize_mean_median_and_histogram():
    s = summarize([1, 2, 2, 10, None], bins=integer_bins(4), unit="words")
    assert s["n"] == 4 and s["missing"] == 1 and s["unit"] == "words"
    assert s["mean"] == 3.75 and s["median"] == 2.0 and s["min"] == 1.0 and s["max"] == 10.0
    # one bin per integer 0..4, the last also holding values above 4 (10 here)
    assert s["histogram"]["edges"] == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    assert s["histogram"]["counts"] == [0, 1, 2, 0, 1]


def test_summarize_empty():
    s = summarize([None, None])
    assert s["n"] == 0 and s["missing"] == 2 and s["mean"] is None and s["histogram"]["counts"] == []


def test_shares_keep_the_given_order_and_add_others_by_count():
    r = shares(["who", "what", "what", "zzz"], order=["what", "who", "why"])
    assert list(r["counts"]) == ["what", "who", "why", "zzz"]
    assert r["counts"] == {"what": 2, "who": 1, "why": 0, "zzz": 1}
    assert r["shares_pct"]["what"] == 50.0 and r["shares_pct"]["why"] == 0.0 and r["n"] == 4


def test_share_pct_ignores_none():
    assert share_pct([True, False, None, True]) == 100 * 2 / 3
    assert share_pct([None]) is None
