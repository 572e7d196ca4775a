"""HasAns / NoAns figures (SQuAD v2.0): set scores, subset drops with subset-restricted paired bootstrap CIs,
results/CSV round trip with and without them, the terminal table, and none of them for v1.1 data."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mrclens.artifacts.results import (
    BootstrapSettings,
    ModelRecord,
    Results,
    SubsetDrop,
    SubsetScore,
    read_results,
    write_results,
)
from mrclens.artifacts.results_csv import CSV_COLUMNS, CSV_OPTIONAL_COLUMNS, V2_CSV_COLUMNS, read_results_csv
from mrclens.reports.no_answer import v2_view
from mrclens.reports.table import format_table
from mrclens.metrics.bootstrap import paired_bootstrap_drop
from mrclens.artifacts.manifest import AblationEntry
from mrclens.scoring.drops import score_ablation
from mrclens.scoring.sets import score_set
from mrclens.squad import Answer, Article, Dataset, Paragraph, Question, write_dataset
from perturbed_fixture import make_perturbed_dir, score_and_publish, write_predictions

CONTEXT = "Paris is in France. Berlin is in Germany."


def _v2_dataset(question_prefix: str = "") -> Dataset:
    qs = [
        Question("a1", f"{question_prefix}Where is Paris?", [Answer("France", 12)], False),
        Question("a2", f"{question_prefix}Where is Berlin?", [Answer("Germany", 33)], False),
        Question("a3", f"{question_prefix}Who lives in Paris?", [Answer("Paris", 0)], False),
        Question("n1", f"{question_prefix}Where is Rome?", [], True),
        Question("n2", f"{question_prefix}Where is Madrid?", [], True),
    ]
    return Dataset([Article("T", [Paragraph(CONTEXT, qs)])], "v2.0")


BASE = {"a1": "France", "a2": "Germany", "a3": "in France", "n1": "", "n2": "Berlin"}
PERT = {"a1": "Germany", "a2": "Germany", "a3": "Paris", "n1": "Paris", "n2": ""}


def test_set_scores_per_subset_on_hand_made_predictions():
    s = score_set("original", _v2_dataset(), BASE)
    assert s.has_answer.tolist() == [True, True, True, False, False]
    subsets = s.to_result("original.json").subsets
    # HasAns F1: 1, 1, 0 (in France vs Paris) -> 66.6667; NoAns: "" right, "Berlin" wrong -> 50
    assert subsets["HasAns"] == SubsetScore(n=3, exact_match=66.6667, f1=66.6667, abstained=0)
    assert subsets["NoAns"] == SubsetScore(n=2, exact_match=50.0, f1=50.0, abstained=1)


def test_subset_drops_and_cis_are_the_paired_bootstrap_over_each_subset():
    base = score_set("original", _v2_dataset(), BASE)
    pert = score_set("e4", _v2_dataset("Q: "), PERT)
    info = AblationEntry("e4", "interrogative words only", "Question", "full", "original", "small_drop", file="e4.json")
    r = score_ablation(info, base, pert, seed=5, n_resamples=400)
    has, no = r.subsets["HasAns"], r.subsets["NoAns"]
    # HasAns: baseline F1 (1 + 1 + 0)/3, perturbed (0 + 1 + 1)/3 -> drop 0; NoAns: (1 + 0)/2 vs (0 + 1)/2 -> drop 0
    b_f1, p_f1 = base.f1, pert.f1
    for name, mask, entry in (("HasAns", base.has_answer, has), ("NoAns", ~base.has_answer, no)):
        drop, low, high = paired_bootstrap_drop(b_f1[mask], p_f1[mask], seed=5, key=f"e4:{name}", n_resamples=400)
        assert entry.n == int(mask.sum())
        assert entry.f1_drop == pytest.approx(round(drop, 4)) and entry.ci_low == pytest.approx(round(low, 4))
        assert entry.ci_high == pytest.approx(round(high, 4))
        assert entry.baseline_f1 == pytest.approx(round(100 * b_f1[mask].mean(), 4))
        assert entry.f1 == pytest.approx(round(100 * p_f1[mask].mean(), 4))
    assert has.baseline_f1 == pytest.approx(66.6667) and has.f1 == pytest.approx(66.6667)
    assert no.baseline_f1 == 50.0 and no.f1 == 50.0
    # a subset-restricted CI is not the total's: the total drop weighs both subsets
    total = (b_f1.mean() - p_f1.mean()) * 100
    assert r.f1_drop == pytest.approx(round(total, 4))
    # a one-sided change: only NoAns questions get worse -> NoAns drop 50, HasAns 0
    worse = dict(BASE, n1="Rome")
    r2 = score_ablation(info, base, score_set("e4", _v2_dataset("Q: "), worse), seed=5, n_resamples=400)
    assert r2.subsets["NoAns"].f1_drop == 50.0 and r2.subsets["HasAns"].f1_drop == 0.0
    assert r2.f1_drop == 20.0


def test_category_subset_drop_is_the_mean_over_the_subset_items():
    from mrclens.scoring.drops import category_drop, score_categories

    base = score_set("original", _v2_dataset(), BASE)
    worse = dict(BASE, n1="Rome", a3="Paris")  # NoAns n1: 1 -> 0; HasAns a3: 0 -> 1
    pert = score_set("e4", _v2_dataset("Q: "), worse)
    info = AblationEntry("e4", "interrogative words only", "Question", "full", "original", "small_drop", file="e4.json")
    members = [(info, base, pert)]
    has = category_drop(members, seed=1, key="k", n_resamples=300, subset="HasAns")
    no = category_drop(members, seed=1, key="k", n_resamples=300, subset="NoAns")
    assert has[0] == pytest.approx(-100 / 3) and no[0] == pytest.approx(50.0)
    assert has[1] <= has[0] <= has[2] and no[1] <= no[0] <= no[2]
    r = score_ablation(info, base, pert, seed=1, n_resamples=300)
    cats = score_categories([r], {"e4": members[0]}, seed=1, n_resamples=300)
    assert cats[0].subsets["NoAns"].n == 2 and cats[0].subsets["NoAns"].f1_drop == 50.0
    assert cats[0].subsets["HasAns"].f1_drop == pytest.approx(round(-100 / 3, 4))


def test_v1_data_gets_no_subsets():
    gold = Dataset([Article("T", [Paragraph(CONTEXT, [Question("q1", "Where is Paris?", [Answer("France", 12)])])])], "1.1")
    s = score_set("original", gold, {"q1": "France"})
    assert s.has_answer is None and s.to_result(None).subsets is None
    # v2.0 data without any unanswerable question: no subsets either (score_all decides over all sets)
    from mrclens.scoring.drops import score_all
    v2 = Dataset([Article("T", [Paragraph(CONTEXT, [Question("q1", "Where is Paris?", [Answer("France", 12)], False)])])], "v2.0")
    assert score_all({"original": v2}, {"original": {"q1": "France"}}, []).set_scores["original"].has_answer is None


def _results(with_v2: bool) -> Results:
    from mrclens.artifacts.results import AblationResult, SetResult

    sets = {"original": SetResult("original.json", 5, 60.0, 60.0, 0, 0,
                                  subsets={"HasAns": SubsetScore(3, 66.6667, 66.6667, 0),
                                           "NoAns": SubsetScore(2, 50.0, 50.0, 1)} if with_v2 else None)}
    abl = AblationResult("e4", "interrogative words only", "Question", "full", "original", "small_drop", evaluated=True,
                         n=5, f1=40.0, baseline_f1=60.0, f1_drop=20.0, ci_low=0.0, ci_high=40.0,
                         subsets={"HasAns": SubsetDrop(3, 66.6667, 66.6667, 66.6667, 66.6667, 0.0, -33.3, 33.3),
                                  "NoAns": SubsetDrop(2, 0.0, 0.0, 50.0, 50.0, 50.0, 0.0, 100.0)} if with_v2 else None)
    return Results("0.1.0", "2026-01-01T00:00:00Z", 0,
                   ModelRecord("baseline", "m", {}, {"abstains": True, "threshold": 0.4} if with_v2 else None),
                   BootstrapSettings(100, 0.95, 0), sets=sets, ablations=[abl])


@pytest.mark.parametrize("with_v2", [False, True])
def test_results_round_trip_with_and_without_v2_fields(tmp_path, with_v2):
    r = _results(with_v2)
    write_results(r, tmp_path)
    back = read_results(tmp_path)
    assert back == r
    raw = json.loads((tmp_path / "results.json").read_text())
    assert ("subsets" in raw["sets"]["original"]) is with_v2
    official = {"exact": 60.0, "total": 5, "HasAns_exact": 66.6667, "HasAns_f1": 66.6667, "HasAns_total": 3,
                "NoAns_exact": 50.0, "NoAns_f1": 50.0, "NoAns_total": 2}  # the official v2.0 names, beside ours
    assert {k: raw["sets"]["original"].get(k) for k in official} == (official if with_v2 else dict.fromkeys(official))
    assert raw["sets"]["original"]["exact_match"] == 60.0
    assert ("subsets" in raw["ablations"][0]) is with_v2
    assert ("no_answer" in raw["model"]) is with_v2
    frame = read_results_csv(tmp_path)
    v2_cols = [c for c, _ in V2_CSV_COLUMNS]
    assert list(frame.columns) == [c for c, _ in CSV_COLUMNS + CSV_OPTIONAL_COLUMNS] + (v2_cols if with_v2 else [])
    if with_v2:
        row = frame.iloc[0]
        assert row["no_ans_f1_drop"] == 50.0 and row["has_ans_n"] == 3 and row["no_ans_ci_high"] == 100.0


def test_results_without_subsets_keys_still_read(tmp_path):
    """A results.json written before HasAns/NoAns existed (no such keys) reads, with None subsets."""
    r = _results(False)
    write_results(r, tmp_path)
    raw = json.loads((tmp_path / "results.json").read_text())
    for key in ("subsets",):
        assert key not in raw["sets"]["original"]
    (tmp_path / "results.json").write_text(json.dumps(raw))
    back = read_results(tmp_path)
    assert back.sets["original"].subsets is None and back.ablations[0].subsets is None


def test_table_and_view_say_when_the_model_never_abstains():
    r = _results(True)
    r.model = ModelRecord("baseline", "m", {}, None)
    r.sets["original"].subsets["NoAns"].abstained = 0
    r.sets["original"].subsets["HasAns"].abstained = 0
    view = v2_view(r)
    assert view.noans_meaningless and "trained on data without unanswerable questions" in view.notes[0]
    text = format_table(r)
    assert "HasAns" in text and "meaningless" in text and "never answered" in text
    assert "HasAns" not in format_table(_results(False))


def test_v1_outputs_have_no_v2_columns(tmp_path):
    """The v1.1 fixture scored end to end: no subsets in results.json, no v2 CSV columns, nothing in the table or report."""
    pert = make_perturbed_dir(tmp_path)
    preds = write_predictions(tmp_path)
    ev = score_and_publish(pert, preds, tmp_path / "out", seed=0, n_resamples=50, progress=False)
    raw = json.loads((tmp_path / "out" / "results.json").read_text())
    assert all("subsets" not in s for s in raw["sets"].values())
    assert all("subsets" not in a for a in raw["ablations"]) and "no_answer" not in raw["model"]
    header = (tmp_path / "out" / "results.csv").read_text().splitlines()[0]
    assert "has_ans" not in header and "no_ans" not in header
    assert "HasAns" not in format_table(ev.results)
    assert 'id="squad-v2"' not in (tmp_path / "out" / "report.html").read_text()


def test_v2_outputs_have_subsets_end_to_end(tmp_path):
    """The same pipeline on hand-made v2.0 sets: subsets in results.json and CSV, the table and the report."""
    pert = make_perturbed_dir(tmp_path)
    manifest = json.loads((pert / "manifest.json").read_text())
    ds = _v2_dataset()
    write_dataset(ds, pert / "original.json")
    write_dataset(_v2_dataset("Q: "), pert / "e4.json")
    ids = [q.id for _, _, q in ds.iter_questions()]
    manifest["sets"]["original"]["n"] = 5
    e4 = manifest["ablations"]["e4"]
    e4.update(n=5, changed=5, unchanged={}, items={q: {"changed": True, "reason": None, "detail": {}} for q in ids})
    e3 = manifest["ablations"].pop("e3")
    assert e3
    (pert / "e3.json").unlink()
    (pert / "manifest.json").write_text(json.dumps(manifest))
    preds = tmp_path / "predictions"
    preds.mkdir()
    (preds / "original.json").write_text(json.dumps(BASE))
    (preds / "e4.json").write_text(json.dumps(PERT))
    ev = score_and_publish(pert, preds, tmp_path / "out", seed=0, n_resamples=50, progress=False)
    raw = json.loads((tmp_path / "out" / "results.json").read_text())
    assert raw["sets"]["original"]["subsets"]["NoAns"] == {"n": 2, "exact_match": 50.0, "f1": 50.0, "abstained": 1}
    e4r = next(a for a in raw["ablations"] if a["id"] == "e4")
    assert e4r["subsets"]["HasAns"]["n"] == 3 and e4r["subsets"]["NoAns"]["n"] == 2
    assert "no_ans_f1_drop" in (tmp_path / "out" / "results.csv").read_text().splitlines()[0]
    assert "NoAns" in format_table(ev.results)
    html = (tmp_path / "out" / "report.html").read_text()
    assert 'id="squad-v2"' in html and 'id="v2-note"' not in html  # this model abstains (n1 -> "")
    assert np.isclose(ev.results.ablation("e4").subsets["NoAns"].f1_drop, 0.0)


def test_two_draws_combine_each_subset_with_the_two_stage_bootstrap():
    """With draws (issue 16), HasAns/NoAns drops are the mean over draws with a two-stage CI; a
    subset whose drop is the same in both draws keeps that drop, one that differs gets the mean."""
    from mrclens.metrics.bootstrap import two_stage_bootstrap
    from mrclens.scoring.drops import score_all
    from mrclens.scoring.replicates import combine_replicates

    info = AblationEntry("e4", "interrogative words only", "Question", "full", "original", "small_drop", file="e4.json")
    data = {"original": _v2_dataset(), "e4": _v2_dataset("Q: ")}
    draw0 = dict(BASE, n1="Rome")                 # NoAns drop 50, HasAns 0
    draw1 = dict(BASE, n1="Rome", a1="Germany")   # NoAns drop 50, HasAns 33.3
    boot = dict(seed=3, n_resamples=300)
    scored = [score_all(data, {"original": BASE, "e4": p}, [info], **boot) for p in (draw0, draw1)]
    one = combine_replicates(scored[:1], [(0, 0)], **boot)
    assert one.ablations[0].subsets == scored[0].ablations[0].subsets
    both = combine_replicates(scored, [(0, 0), (1, 0)], **boot)
    has, no = both.ablations[0].subsets["HasAns"], both.ablations[0].subsets["NoAns"]
    assert no.f1_drop == 50.0 and no.f1 == 0.0 and no.baseline_f1 == 50.0 and no.n == 2
    assert has.f1_drop == pytest.approx(round(100 / 6, 4)) and has.f1 == pytest.approx(50.0, abs=1e-3)
    # the CI is the two-stage bootstrap over the HasAns questions only
    b = scored[0].set_scores["original"].f1[:3]
    reps = [(np.arange(3), b, s.set_scores["e4"].f1[:3]) for s in scored]
    drop, low, high, _ = two_stage_bootstrap(reps, 3, key="e4:HasAns", **boot)
    assert (has.ci_low, has.ci_high) == (pytest.approx(round(low, 4)), pytest.approx(round(high, 4)))
    assert has.ci_low < has.f1_drop < has.ci_high
    cat = both.categories[0].subsets
    assert cat["NoAns"].f1_drop == 50.0 and cat["HasAns"].f1_drop == pytest.approx(round(100 / 6, 4))


def test_a_reader_that_abstains_everywhere_is_inconclusive_not_strong():
    """Total F1 40 (> the floor of 30) comes from abstaining on the two NoAns questions; HasAns F1 is 0.
    A small drop of such a reader is no evidence (measured on the v2.0 half dev file: total 47.8, HasAns 4.5)."""
    from mrclens.scoring.readings import read_all

    abstain = {q: "" for q in BASE}
    base = score_set("original", _v2_dataset(), abstain)
    pert = score_set("e4", _v2_dataset("Q: "), abstain)
    info = AblationEntry("e4", "interrogative words only", "Question", "full", "original", "small_drop", file="e4.json")
    r = score_ablation(info, base, pert, seed=1, n_resamples=100)
    assert r.baseline_f1 == 40.0 and r.subsets["HasAns"].baseline_f1 == 0.0 and r.f1_drop == 0.0
    (read,), _ = read_all([r], [])
    assert read.evidence == "inconclusive"
    assert "on the questions that have an answer (HasAns) the baseline F1 is only 0.0" in read.reading
    # the same small drop with answerable questions answered well is read as before
    (ok,), _ = read_all([score_ablation(info, score_set("original", _v2_dataset(), dict(BASE, a3="Paris")),
                                        score_set("e4", _v2_dataset("Q: "), dict(BASE, a3="Paris")),
                                        seed=1, n_resamples=100)], [])
    assert ok.evidence == "strong" and "HasAns) the baseline F1" not in ok.reading
