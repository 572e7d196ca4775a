"""mrclens.compare: the difference and CI arithmetic on hand-made statistics and audit directories (issue 19)."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest

from mrclens.artifacts.comparison import ComparedInput
from mrclens.artifacts.question_scores import SetQuestionScores
from mrclens.artifacts.results import (
    AblationResult,
    BootstrapSettings,
    ModelRecord,
    ReplicateRecord,
    Results,
    SetResult,
)
from mrclens.errors import ArtifactError, MRCLensError
from mrclens.compare import (
    READER_KEY,
    Source,
    compare,
    compare_sources,
    format_comparison,
    is_row_key,
    load_input,
    source_from_stats,
)

from perturbed_fixture import PREDICTIONS, make_perturbed_dir, score_and_publish, write_predictions

Z95 = 1.959963984540054
SIM = "similarity.answer_in_most_similar_sentence_pct"


def _share_stats(pct: float, n: int, q_mean: float = 10.0, q_std: float = 3.0, q_n: int = 900) -> dict:
    return {"counts": {"questions": n},
            "similarity": {"answer_in_most_similar_sentence_pct": pct, "n": n},
            "lengths": {"question_words": {"n": q_n, "mean": q_mean, "std": q_std}}}


# ------------------------------------------------------------------------- model-free figures
def test_share_difference_bootstrap_matches_the_normal_interval():
    """80 % vs 70 % of 1,000 questions: the binomial bootstrap's interval of the difference is the
    textbook one, -10 ± 1.96 sqrt(.8 .2 / 1000 + .7 .3 / 1000) = -10 ± 3.77 points, to resampling noise."""
    c = compare_sources([source_from_stats(_share_stats(80.0, 1000), "A"), source_from_stats(_share_stats(70.0, 1000), "B")],
                        n_resamples=4000)
    row = c.row(SIM)
    d = row.differences[0]
    half = Z95 * math.sqrt(0.8 * 0.2 / 1000 + 0.7 * 0.3 / 1000) * 100
    assert d.difference == -10.0 and d.ci_method == "bootstrap" and d.compared
    assert d.ci_low == pytest.approx(-10 - half, abs=0.4) and d.ci_high == pytest.approx(-10 + half, abs=0.4)
    assert d.significant is True and d.direction == "less"  # bias_when "higher": fewer answers there = less of the shortcut
    # each input's own interval: 80 ± 1.96 sqrt(.8 .2 / 1000)
    assert row.values[0].value == 80.0 and row.values[0].n == 1000
    assert row.values[0].ci_low == pytest.approx(80 - Z95 * 100 * math.sqrt(0.16 / 1000), abs=0.3)


def test_equal_shares_are_not_significant_and_small_samples_widen_the_interval():
    same = compare_sources([source_from_stats(_share_stats(50.0, 400), "A"), source_from_stats(_share_stats(50.0, 400), "B")])
    d = same.row(SIM).differences[0]
    assert d.difference == 0.0 and d.ci_low < 0 < d.ci_high and d.significant is False and d.direction is None
    # 60 % vs 50 % is significant over 2,000 questions each, not over 40
    big = compare_sources([source_from_stats(_share_stats(50.0, 2000), "A"), source_from_stats(_share_stats(60.0, 2000), "B")])
    small = compare_sources([source_from_stats(_share_stats(50.0, 40), "A"), source_from_stats(_share_stats(60.0, 40), "B")])
    assert big.row(SIM).differences[0].significant is True and big.row(SIM).differences[0].direction == "more"
    assert small.row(SIM).differences[0].significant is False


def test_mean_from_summary_figures_uses_the_normal_approximation_exactly():
    """A mean known only as (mean, std, n): difference ± z sqrt(std_a²/n_a + std_b²/n_b)."""
    a = source_from_stats(_share_stats(80.0, 100, q_mean=10.0, q_std=3.0, q_n=900), "A")
    b = source_from_stats(_share_stats(80.0, 100, q_mean=9.7, q_std=4.0, q_n=1600), "B")
    d = compare_sources([a, b]).row("lengths.question_words").differences[0]
    se = math.sqrt(9 / 900 + 16 / 1600)
    assert d.ci_method == "normal"
    assert d.difference == pytest.approx(-0.3)
    assert d.ci_low == pytest.approx(-0.3 - Z95 * se, abs=1e-4) and d.ci_high == pytest.approx(-0.3 + Z95 * se, abs=1e-4)
    assert d.significant is True


def test_mean_with_per_question_values_is_bootstrapped():
    rng = np.random.default_rng(7)
    va, vb = rng.poisson(10, 800).astype(float), rng.poisson(9, 600).astype(float)

    def src(v, name):
        stats = {"counts": {"questions": v.size},
                 "lengths": {"question_words": {"n": int(v.size), "mean": float(v.mean()), "std": float(v.std())}}}
        return source_from_stats(stats, name, values={"lengths.question_words": v.tolist()}, kind="dataset")

    c = compare_sources([src(va, "A"), src(vb, "B")], n_resamples=3000)
    d = c.row("lengths.question_words").differences[0]
    se = math.sqrt(va.var() / va.size + vb.var() / vb.size)
    assert d.ci_method == "bootstrap" and c.inputs[0].figures_from == "per-question values"
    assert d.difference == pytest.approx(vb.mean() - va.mean(), abs=1e-4)
    assert d.ci_low == pytest.approx(d.difference - Z95 * se, abs=0.05)
    assert d.ci_high == pytest.approx(d.difference + Z95 * se, abs=0.05)
    # one side with values, the other summary only: the normal approximation for that pair
    mixed = compare_sources([src(va, "A"), source_from_stats({"lengths": {"question_words": {
        "n": int(vb.size), "mean": float(vb.mean()), "std": float(vb.std())}}}, "B")])
    assert mixed.row("lengths.question_words").differences[0].ci_method == "normal"
    assert any("normal approximation" in x for x in mixed.differs)


def test_same_inputs_and_seed_give_the_same_comparison_and_another_seed_moves_the_intervals():
    def run(seed):
        return compare_sources([source_from_stats(_share_stats(80.0, 500), "A"), source_from_stats(_share_stats(75.0, 500), "B")],
                               seed=seed).to_json()

    assert json.dumps(run(0)) == json.dumps(run(0))
    assert run(0)["rows"] != run(1)["rows"]
    assert run(0)["rows"][0]["differences"][0]["difference"] == run(1)["rows"][0]["differences"][0]["difference"]


def test_three_inputs_are_each_compared_with_the_first_and_a_missing_figure_is_not_compared():
    a, b = source_from_stats(_share_stats(80.0, 1000), "A"), source_from_stats(_share_stats(70.0, 1000), "B")
    c_stats = _share_stats(85.0, 1000)
    del c_stats["lengths"]
    c = compare_sources([a, b, source_from_stats(c_stats, "C")])
    row = c.row(SIM)
    assert [d.input for d in row.differences] == ["B", "C"]
    assert row.differences[1].difference == 5.0 and row.differences[1].direction == "more"
    q = c.row("lengths.question_words")
    assert q.values[2].value is None and q.differences[1].compared is False and "no value for C" in q.differences[1].reason
    with pytest.raises(ValueError):
        compare_sources([a])


def test_row_keys_for_check_rules():
    assert is_row_key(SIM) and is_row_key("lengths.answer_words") and is_row_key(READER_KEY)
    assert is_row_key("answer_types.shares_pct.date") and is_row_key("ablations.e10.relative_excess_drop")
    assert not is_row_key("question_types.shares_pct.wat") and not is_row_key("ablations.e1.drop")


# ----------------------------------------------------------------------------- audits (hand-made)
def _results(name: str, f1: float, drops: dict, *, replicates: int = 1) -> Results:
    """Results with an original set and ablations given as {id: (f1_drop, ci_low, ci_high, rel, rel_low, rel_high)}."""
    abl = [AblationResult(aid, f"ablation {aid}", "Similarity", aid, "original", "large_drop", evaluated=True, n=200,
                          baseline_f1=f1, f1_drop=d[0], ci_low=d[1], ci_high=d[2], relative_drop=d[3],
                          relative_ci_low=d[4], relative_ci_high=d[5]) for aid, d in drops.items()]
    reps = [ReplicateRecord(k, k, 0, 0, "", "") for k in range(replicates)] if replicates > 1 else []
    return Results(mrclens_version="0.1.0", created="2026-01-01T00:00:00Z", seed=0, model=ModelRecord("external", name),
                   bootstrap=BootstrapSettings(1000, 0.95, 0), sets={"original": SetResult("original.json", 200, f1=f1, exact_match=f1)},
                   ablations=abl, replicates=reps)


def _audit_source(name: str, reader: str, f1_per_question: list[float], drops: dict, *, replicates: int = 1) -> Source:
    f1 = 100.0 * float(np.mean(f1_per_question))
    ids = [f"q{i}" for i in range(len(f1_per_question))]
    src = Source(ComparedInput(name, f"/{name}", "evaluation", reader=reader, reader_f1=f1, draws=replicates, readers=1,
                               ablations=list(drops)),
                 results=_results(reader, f1, drops, replicates=replicates),
                 scores={"original": SetQuestionScores(ids, list(f1_per_question), list(f1_per_question))})
    return src


def test_audits_of_readers_of_different_strength_compare_relative_drops_only():
    """Reader A answers all 200 questions (F1 100), reader B half of them (F1 50): the strength
    differs significantly, so the absolute drop is not compared and the relative one is, with the
    normal approximation from the results' intervals (no per-question ablation scores here)."""
    a = _audit_source("A", "m", [1.0] * 200, {"e1": (20.0, 16.0, 24.0, 20.0, 16.0, 24.0)})
    b = _audit_source("B", "m", [1.0] * 100 + [0.0] * 100, {"e1": (8.0, 5.0, 11.0, 16.0, 10.0, 22.0)})
    c = compare_sources([a, b])
    reader = c.row(READER_KEY).differences[0]
    assert reader.difference == -50.0 and reader.significant and reader.ci_method == "bootstrap"
    absolute = c.row("ablations.e1.f1_drop").differences[0]
    assert absolute.compared is False and "differ in strength" in absolute.reason and absolute.difference == -12.0
    rel = c.row("ablations.e1.relative_drop").differences[0]
    se = math.hypot(8.0 / (2 * Z95), 12.0 / (2 * Z95))
    assert rel.compared and rel.ci_method == "normal" and rel.difference == -4.0
    assert rel.ci_low == pytest.approx(-4.0 - Z95 * se, abs=1e-4) and rel.ci_high == pytest.approx(-4.0 + Z95 * se, abs=1e-4)
    assert rel.significant is False
    assert any("differ in strength" in x for x in c.differs)


def test_audits_with_other_profiles_or_draws_are_not_compared_on_drops():
    drops = {"e1": (20.0, 16.0, 24.0, 20.0, 16.0, 24.0)}
    a = _audit_source("A", "quick", [1.0] * 200, drops)
    other_profile = _audit_source("B", "full", [1.0] * 200, drops)
    more_draws = _audit_source("C", "quick", [1.0] * 200, drops, replicates=3)
    c = compare_sources([a, other_profile, more_draws])
    rows = [r for r in c.rows if r.section == "ablations"]
    assert rows and all(not d.compared for r in rows for d in r.differences)
    assert "reader profiles differ (quick vs full)" in rows[0].differences[0].reason
    assert "draws × readers differ (1×1 vs 3×1)" in rows[0].differences[1].reason
    assert c.row(READER_KEY).differences[0].compared  # the F1 itself is still shown and compared


@pytest.fixture(scope="module")
def two_evaluations(tmp_path_factory):
    """Two evaluation directories of the miniature perturbed set (tests/perturbed_fixture.py), scored by the
    project's one scoring path: A with the fixture's predictions (e1 drop 50 on 2 questions), B right on e1 too."""
    root = tmp_path_factory.mktemp("compare-audits")
    out = {}
    for name, preds in (("A", PREDICTIONS), ("B", {**PREDICTIONS, "e1": {"q1": "France", "q3": "Paris"}})):
        d = root / name
        perturbed = make_perturbed_dir(d)
        score_and_publish(perturbed, write_predictions(d, preds), d, model_name="made-up model", seed=0,
                          n_resamples=200, progress=False)
        out[name] = d
    return out


def test_drop_differences_are_bootstrapped_from_question_scores(two_evaluations, tmp_path, monkeypatch):
    """A's e1 drop is 50 points over 2 paired questions (per-question drops 100 and 0); B's is 0. A
    resample of A's two questions has drop 0, 50 or 100 (chance 1/4, 1/2, 1/4), so B − A has the
    percentile interval [−100, 0]: not significant, however large the point difference looks."""
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path / "cache"))
    c = compare([two_evaluations["A"], two_evaluations["B"]], n_resamples=1000)
    assert [i.kind for i in c.inputs] == ["evaluation", "evaluation"] and c.inputs[0].reader == "made-up model"
    assert c.inputs[0].figures_from == "per-question values" and c.inputs[0].questions == 4  # perturbed/original.json
    row = c.row("ablations.e1.f1_drop")
    a_results = json.loads((two_evaluations["A"] / "results.json").read_text())
    e1 = next(x for x in a_results["ablations"] if x["id"] == "e1")
    assert row.values[0].value == e1["f1_drop"] == 50.0 and row.values[1].value == 0.0
    d = row.differences[0]
    assert (d.difference, d.ci_low, d.ci_high, d.ci_method, d.significant) == (-50.0, -100.0, 0.0, "bootstrap", False)
    rel = c.row("ablations.e1.relative_drop")
    assert rel.values[0].value == 50.0 and rel.differences[0].difference == -50.0
    # the same reader, equally strong (F1 100 on the original set): nothing differs, no row is left out
    assert c.row(READER_KEY).differences[0].difference == 0.0 and c.differs == []
    assert all(d.compared for r in c.rows if r.section == "ablations" for d in r.differences)
    # a controls-free fixture: no excess rows
    assert c.row("ablations.e1.excess_drop") is None
    text = format_comparison(c)
    assert "e1 insert question: F1 drop" in text and "-50.00 [-100.00, +0.00]" in text


def test_an_audit_compared_with_itself_finds_nothing(two_evaluations, tmp_path, monkeypatch):
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path / "cache"))
    copy = Path(shutil.copytree(two_evaluations["A"], tmp_path / "A-again"))
    c = compare([two_evaluations["A"], copy], names=["first", "again"])
    compared = [d for r in c.rows for d in r.differences if d.compared]
    assert compared and all(d.difference == 0.0 and not d.significant for d in compared)


def test_other_model_name_is_another_reader(two_evaluations, tmp_path, monkeypatch):
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path / "cache"))
    other = Path(shutil.copytree(two_evaluations["B"], tmp_path / "other"))
    obj = json.loads((other / "results.json").read_text())
    obj["model"]["name"] = "another model"
    (other / "results.json").write_text(json.dumps(obj))
    c = compare([two_evaluations["A"], other])
    d = c.row("ablations.e1.f1_drop").differences[0]
    assert d.compared is False and "reader profiles differ (made-up model vs another model)" in d.reason
    assert "not compared" in format_comparison(c).lower()


def test_bad_inputs_are_named(tmp_path):
    (tmp_path / "empty-dir").mkdir()
    with pytest.raises(ArtifactError, match="empty-dir: not an audit or evaluation directory"):
        load_input(tmp_path / "empty-dir")
    with pytest.raises(FileNotFoundError):
        load_input(tmp_path / "nope.json")
    with pytest.raises(MRCLensError, match="at least two inputs"):
        compare([tmp_path])
    with pytest.raises(MRCLensError, match="gives 1 name"):
        compare([tmp_path, tmp_path], names=["x"])


def test_excess_drop_is_bootstrapped_with_the_controls_pairs(tmp_path, monkeypatch):
    """The miniature set with a matched control c1 of e1 (the control changes both questions and misleads
    nowhere): e1's excess drop over c1 is 50 points, bootstrapped from the question scores paired as
    scoring pairs them, and its relative form scales it by the baseline F1 (100)."""
    from perturbed_fixture import TRUNC, fixture_dataset, manifest_entry

    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path / "cache"))
    dirs = []
    for name, c1 in (("A", {"q1": "France", "q3": "Paris"}), ("B", {"q1": "Germany", "q3": "Paris"})):
        d = tmp_path / name
        perturbed = make_perturbed_dir(d)
        manifest = json.loads((perturbed / "manifest.json").read_text())
        manifest["ablations"]["c1"] = {**manifest_entry("control of insert question", "Similarity", "truncated", "large_drop",
                                                        TRUNC, {"q1", "q3"}), "control_of": "e1", "file": "c1.json"}
        (perturbed / "manifest.json").write_text(json.dumps(manifest))
        from mrclens.squad import write_dataset

        write_dataset(fixture_dataset(TRUNC), perturbed / "c1.json")
        score_and_publish(perturbed, write_predictions(d, {**PREDICTIONS, "c1": c1}), d, model_name="m", seed=0,
                          n_resamples=200, progress=False)
        dirs.append(d)
    e1 = next(a for a in json.loads((dirs[0] / "results.json").read_text())["ablations"] if a["id"] == "e1")
    assert e1["control"] == "c1" and e1["excess_drop"] == 50.0
    c = compare(dirs, n_resamples=500)
    assert c.row("ablations.c1.f1_drop") is None  # controls have no rows of their own
    for figure, first, later in (("excess_drop", 50.0, 0.0), ("relative_excess_drop", 50.0, 0.0)):
        row = c.row(f"ablations.e1.{figure}")
        assert [v.value for v in row.values] == [first, later], figure
        d = row.differences[0]
        # A: per-question excess 100 and 0 -> resampled means 0/50/100; B: the control misleads like e1 -> 0 always
        assert (d.difference, d.ci_low, d.ci_high, d.ci_method) == (-50.0, -100.0, 0.0, "bootstrap"), figure


def test_every_task_registers_its_comparison_hooks():
    """Each registered task has its `mrclens compare` hooks (role "compare" in mrclens.tasks): rows whose
    keys `mrclens check` accepts, and a word for the message that refuses mixed tasks."""
    from mrclens.compare.hooks import COMPARISONS, hooks_for
    from mrclens.compare.sources import TaskComparison
    from mrclens.tasks import all_tasks

    for task in all_tasks():
        hooks = COMPARISONS.of(task)
        assert isinstance(hooks, TaskComparison) and hooks is hooks_for(task.name)
        assert hooks.rows and all(is_row_key(row[1]) for row in hooks.rows)
    assert hooks_for("no_such_task") is hooks_for("span")  # an unknown task name is read as span data


def test_stats_json_holding_a_key_twice_is_refused(tmp_path):
    """Issue 42, item 11: a `mrclens stats` JSON file (span or multiple choice) with a repeated key is refused by
    name, as data files are, not read with the last value."""
    from mrclens.multiple_choice.stats import MC_STATS_SCHEMA
    from mrclens.stats.core import TITLE

    span = tmp_path / "stats.json"
    span.write_text('{"title": %s, "counts": {"questions": 900, "questions": 9}, "similarity": {}}' % json.dumps(TITLE))
    with pytest.raises(ArtifactError, match=r"stats.json: an object holds the key 'questions' twice"):
        load_input(span)
    mc = tmp_path / "mc-stats.json"
    mc.write_text('{"schema": "%s", "format_version": 1, "heuristics": {}, "heuristics": {}}' % MC_STATS_SCHEMA)
    with pytest.raises(ArtifactError, match=r"mc-stats.json: an object holds the key 'heuristics' twice"):
        load_input(mc)
