"""Repeated draws / readers (issue 16): the two-stage bootstrap arithmetic, combining, readings, results."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pandas as pd
import pytest

from mrclens.artifacts.results import read_results
from mrclens.metrics.bootstrap import paired_bootstrap_drop, paired_bootstrap_relative_drop, two_stage_bootstrap
from mrclens.artifacts.manifest import AblationEntry
from mrclens.scoring.drops import category_drop, category_drop_replicates
from mrclens.scoring.sets import SetScores
from mrclens.scoring.evaluate import Replicate
from mrclens.squad import write_dataset

from perturbed_fixture import ALL, PREDICTIONS, fixture_dataset as _ds, make_perturbed_dir, manifest_entry as _entry, score_and_publish, write_predictions  # noqa: E501


# --------------------------------------------------------------------------- the bootstrap arithmetic


def test_one_question_two_draws_ci_is_the_two_draws():
    # n = 1: the question stage is trivial; the replicate stage gives d1, (d1+d2)/2, d2 with p = 1/4, 1/2, 1/4
    one = (np.array([0]), np.array([1.0]), np.array([0.2]))   # drop 80
    two = (np.array([0]), np.array([1.0]), np.array([0.6]))   # drop 40
    point, low, high, each = two_stage_bootstrap([one, two], 1, seed=3, key="t", n_resamples=4000)
    assert each == pytest.approx([80.0, 40.0]) and point == pytest.approx(60.0)
    assert (low, high) == pytest.approx((40.0, 80.0))
    # the middle 40% of the resamples is the mixed pair (probability 1/2)
    _, mid_low, mid_high, _ = two_stage_bootstrap([one, two], 1, seed=3, key="t", n_resamples=4000, confidence=0.4)
    assert (mid_low, mid_high) == pytest.approx((60.0, 60.0))


def test_between_draw_variance_is_what_widens_the_interval():
    pos = np.arange(3)
    zero = (pos, np.ones(3), np.ones(3))          # drop 0 on every question
    full = (pos, np.ones(3), np.zeros(3))         # drop 100 on every question
    point, low, high, each = two_stage_bootstrap([zero, full], 3, key="w")
    assert each == [0.0, 100.0] and point == 50.0 and (low, high) == (0.0, 100.0)
    # the same two draws as one draw each: no question variance, so each interval is a point
    assert two_stage_bootstrap([zero], 3, key="w")[1:3] == (0.0, 0.0)
    assert two_stage_bootstrap([full], 3, key="w")[1:3] == (100.0, 100.0)


def test_one_replicate_is_exactly_the_paired_bootstrap():
    rng = np.random.default_rng(4)
    b, p = rng.random(40), rng.random(40)
    rep = (np.arange(40), b, p)
    assert two_stage_bootstrap([rep], 40, seed=2, key="e1")[1:3] == paired_bootstrap_drop(b, p, seed=2, key="e1")[1:3]
    assert two_stage_bootstrap([rep], 40, seed=2, key="e1")[0] == pytest.approx(paired_bootstrap_drop(b, p)[0])
    rel = two_stage_bootstrap([rep], 40, statistic="relative", seed=2, key="r")
    assert rel[:3] == pytest.approx(paired_bootstrap_relative_drop(b, p, seed=2, key="r"), rel=1e-12)
    # identical replicates: the same interval (the replicate stage only averages equal values)
    assert two_stage_bootstrap([rep, rep], 40, seed=2, key="e1")[1:3] == paired_bootstrap_drop(b, p, seed=2, key="e1")[1:3]
    with pytest.raises(ValueError, match="statistic"):
        two_stage_bootstrap([rep], 40, statistic="median")


def test_replicates_with_a_subset_of_questions_use_their_positions():
    # replicate 2 pairs questions 0 and 2 only: its drop is the mean over those
    a = (np.array([0, 1, 2]), np.array([1.0, 1.0, 1.0]), np.array([1.0, 0.0, 1.0]))   # 33.3
    b = (np.array([0, 2]), np.array([1.0, 1.0]), np.array([0.0, 0.0]))                # 100
    point, low, high, each = two_stage_bootstrap([a, b], 3, key="s")
    assert each == pytest.approx([100 / 3, 100.0]) and point == pytest.approx((100 / 3 + 100) / 2)
    assert 0.0 <= low < point < high <= 100.0


def test_category_over_one_replicate_is_category_drop():
    def scores(name, f1):
        s = SetScores(name, ["a", "b", "c", "d"], em=np.array(f1), f1=np.array(f1))
        return s

    info = AblationEntry("e3", "x", "Similarity", "full", "original", "small_drop", file="e3.json")
    info2 = AblationEntry("e4", "x", "Similarity", "full", "original", "small_drop", file="e4.json")
    base = scores("original", [1.0, 1.0, 0.5, 1.0])
    members = [(info, base, scores("e3", [0.0, 1.0, 0.5, 1.0])), (info2, base, scores("e4", [1.0, 0.0, 0.0, 1.0]))]
    single = category_drop(members, seed=1, key="category:S")
    point, low, high, each = category_drop_replicates([members], seed=1, key="category:S")
    assert (point, low, high) == single and each == [single[0]]
    other = [(info, base, scores("e3", [1.0, 1.0, 0.5, 1.0])), (info2, base, scores("e4", [1.0, 1.0, 0.5, 1.0]))]
    point2, low2, high2, each2 = category_drop_replicates([members, other], seed=1, key="category:S")
    assert each2 == pytest.approx([single[0], 0.0]) and point2 == pytest.approx(single[0] / 2)
    assert low2 <= 0.0 + 1e-9 and high2 >= single[0] - 1e-9


# --------------------------------------------------------------------------- end to end: evaluate_perturbed with K = 2


def _add_c4(d):
    """Give a miniature perturbed directory the question-removed reference c4 of e4."""
    write_dataset(_ds(ALL), d / "c4.json")
    m = json.loads((d / "manifest.json").read_text())
    entry = _entry("no question (reference for e4)", "Question", "full", "control", ALL, set(ALL))
    entry.update(file="c4.json", control_of="e4")
    m["ablations"]["c4"] = entry
    (d / "manifest.json").write_text(json.dumps(m))


@pytest.fixture
def two_draws(tmp_path):
    d0 = make_perturbed_dir(tmp_path / "r")
    _add_c4(d0)
    d1 = tmp_path / "draw1"
    shutil.copytree(d0, d1)
    m = json.loads((d1 / "manifest.json").read_text())
    m.update(draw=1, draw_seed=12345)
    (d1 / "manifest.json").write_text(json.dumps(m))
    p0 = write_predictions(tmp_path / "p0", {**PREDICTIONS, "c4": {"q1": "Paris", "q2": "Paris", "q3": "Paris", "q4": "Paris"}})
    # draw 1: only the perturbed sets are predicted; the baseline sets' predictions come from draw 0
    p1 = write_predictions(tmp_path / "p1", {
        "e1": PREDICTIONS["e1"], "e4": PREDICTIONS["e4"], "c4": {"q1": "Paris", "q2": "Paris", "q3": "Paris", "q4": "Paris"},
        "e3": {"q1": "Berlin", "q2": "Paris", "q3": "France", "q4": "Germany"},  # every answer wrong: drop 100
    })
    return d0, p0, d1, p1, tmp_path


def test_evaluate_two_draws_end_to_end(two_draws):
    d0, p0, d1, p1, root = two_draws
    out = root / "out"
    ev = score_and_publish(d0, p0, out, seed=0, n_resamples=500, progress=False,
                           replicates=[Replicate(d1, p1, draw=1)])
    r = ev.results
    assert [(x.draw, x.draw_seed, x.reader) for x in r.replicates] == [(0, 0, 0), (1, 12345, 0)]
    assert r.variance_method and "two-stage" in r.variance_method
    e1, e3, e4, c4 = (r.ablation(i) for i in ("e1", "e3", "e4", "c4"))
    # baseline predictions reused for draw 1 (the set files are identical), so everything is evaluated
    assert all(a.evaluated for a in (e1, e3, e4, c4))
    assert [x.f1_drop for x in e3.replicates] == [0.0, 100.0] and [x.draw for x in e3.replicates] == [0, 1]
    assert (e3.f1_drop, e3.ci_low, e3.ci_high) == (50.0, 0.0, 100.0)
    assert (e3.f1_drop_min, e3.f1_drop_max) == (0.0, 100.0) and e3.f1_drop_sd == pytest.approx(70.7107, abs=1e-4)
    assert [x.evidence for x in e3.replicates] == ["strong", "none"]
    assert e3.unstable is True and "Unstable across draws: the evidence is strong in draw 0, none in draw 1" in e3.reading
    assert [x.f1_drop for x in e1.replicates] == [50.0, 50.0] and e1.f1_drop == 50.0 and e1.f1_drop_sd == 0.0
    assert e1.unstable is False and "Unstable" not in e1.reading
    # e4 against its reference c4: F1 100 -> e4 66.7, c4 25; the wh-words recover (66.7-25)/(100-25) = 55.6 %
    assert c4.f1_drop == 75.0 and e4.control == "c4" and e4.control_f1_drop == 75.0 and e4.excess_drop is None
    assert e4.recovered_share == pytest.approx(100 * (8 / 3 - 1) / 3, abs=1e-4)
    assert [x.recovered_share for x in e4.replicates] == [e4.recovered_share] * 2
    assert "recovers 55.6%" in e4.reading and "removed entirely" in c4.reading and c4.evidence is None
    similarity = next(c for c in r.categories if c.category == "Similarity")
    assert [x.f1_drop for x in similarity.replicates] == [25.0, 75.0] and similarity.f1_drop == 50.0
    assert similarity.unstable is not None
    # the files: results.json reads back equal, the CSV has the spread and recovered columns
    assert read_results(out).to_json() == json.loads((out / "results.json").read_text()) == json.loads(json.dumps(r.to_json()))
    frame = pd.read_csv(out / "results.csv").set_index("id")
    assert frame.loc["e3", "replicates"] == 2 and frame.loc["e3", "f1_drop_max"] == 100.0
    assert bool(frame.loc["e3", "unstable"]) is True
    assert frame.loc["e4", "recovered_share"] == pytest.approx(55.5556, abs=1e-4)
    html = (out / "report.html").read_text()
    assert 'id="replicates"' in html and "draw 1" in html and "<strong>unstable</strong>" in html and "recovers 55.6%" in html
    from mrclens.reports.table import format_table

    table = format_table(r)
    assert "spread over 2 draws" in table and "0.0 to 100.0 (SD 70.7)" in table and "strong/none: unstable" in table
    assert "recovers 55.6%" in table


def test_one_replicate_results_are_unchanged(two_draws):
    d0, p0, _, _, root = two_draws
    single = score_and_publish(d0, p0, root / "a", seed=0, n_resamples=300, progress=False).results
    assert single.replicates == [] and "replicates" not in single.to_json()
    e3 = single.ablation("e3")
    assert e3.replicates == [] and e3.unstable is None and e3.f1_drop_sd is None
    assert single.ablation("e4").recovered_share == pytest.approx(55.5556, abs=1e-4)


def test_note_instability_names_draws_or_readers():
    from mrclens.artifacts.results import AblationResult, ReplicateFigures
    from mrclens.scoring.readings import note_instability

    def entry(levels, readers=False):
        reps = [ReplicateFigures(draw=0 if readers else i, reader=i if readers else 0, evidence=lv) for i, lv in enumerate(levels)]
        return AblationResult("e1", "x", "Similarity", "truncated", "original-truncated", "large_drop", evaluated=True,
                              reading="e1: read.", evidence="moderate", replicates=reps)

    (a,), _ = note_instability([entry(["strong", "moderate", "strong"])], [])
    assert a.unstable is True
    assert a.reading.startswith("e1: read. Unstable across draws: the evidence is strong in draw 0, moderate in draw 1, strong in draw 2")
    (b,), _ = note_instability([entry(["none", "moderate"], readers=True)], [])
    assert "Unstable across readers: the evidence is none in reader 0, moderate in reader 1" in b.reading
    (c,), _ = note_instability([entry(["strong", "strong"])], [])
    assert c.unstable is False and c.reading == "e1: read."
    (d,), _ = note_instability([entry(["strong"])], [])  # a single run: not judged
    assert d.unstable is None


def test_a_draw_whose_sets_all_equal_draw_0_needs_no_predictions_folder(two_draws):
    """Issue 42 (found re-checking item 12): when every set of draw 1 is byte-identical to draw 0's, nothing
    is predicted for it and its predictions folder is never made; the audit crashed with "predictions/draw-1:
    not a directory". Every set then takes draw 0's predictions."""
    d0, p0, d1, _, root = two_draws
    m = json.loads((d1 / "manifest.json").read_text())
    for name in ("e1", "e3", "e4", "c4"):  # draw 1's sets: the same bytes as draw 0's
        shutil.copyfile(d0 / m["ablations"][name]["file"], d1 / m["ablations"][name]["file"])
    r = score_and_publish(d0, p0, root / "same", seed=0, n_resamples=200, progress=False,
                          replicates=[Replicate(d1, root / "no-such-folder", draw=1)]).results
    e3 = r.ablation("e3")
    assert e3.evaluated and [x.f1_drop for x in e3.replicates] == [0.0, 0.0]
    # a replicate with neither a folder nor sets equal to draw 0's is still refused, naming the folder
    from mrclens.errors import ArtifactError

    (d1 / m["ablations"]["e3"]["file"]).write_text((d1 / m["ablations"]["e3"]["file"]).read_text() + " ")
    for name in ("e1", "e4", "c4", "original", "original-truncated"):
        target = d1 / (m["ablations"][name]["file"] if name in m["ablations"] else f"{name}.json")
        if target.exists():
            target.write_text(target.read_text() + " ")
    with pytest.raises(ArtifactError, match="no-such-folder"):
        score_and_publish(d0, p0, root / "other", seed=0, n_resamples=200, progress=False,
                          replicates=[Replicate(d1, root / "no-such-folder", draw=1)])
