"""Results as tables (``mrclens.load_results(DIR).to_pandas(...)``) and two results compared
(``mrclens.diff_results``, ``mrclens diff-results``, ``benchmarks/compare_results.py``), on results.json
files written by the project's one scoring path."""

from __future__ import annotations

import json
import shutil
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

import mrclens
from mrclens.artifacts.results import write_results
from mrclens.artifacts.results_csv import read_results_csv
from mrclens.cli import main
from mrclens.errors import ArtifactError, MRCLensError
from mrclens.scoring.model_free import model_free_figures, reference_from_stats
from perturbed_fixture import make_perturbed_dir, score_and_publish, write_predictions

REPO = Path(__file__).resolve().parents[2]


def _stats(similar_pct: float, n: int) -> dict:
    return {"similarity": {"answer_in_most_similar_sentence_pct": similar_pct, "n": n},
            "overlap": {"longest_shared_ngram": {"n": n, "mean": 3.0, "std": 2.0},
                        "content_words_in_answer_sentence_pct": {"n": n, "mean": 60.0, "std": 20.0}},
            "answer_position": {"first_sentence_pct": 30.0, "sentence_index": {"n": n}},
            "heuristics": {"type_matched_sentence": {"exact_match": 27.0, "n": n}}}


@pytest.fixture(scope="module")
def scored(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tables")
    score_and_publish(make_perturbed_dir(root), write_predictions(root), root / "out", model_name="made-up",
                      seed=0, n_resamples=200, progress=False)
    return root / "out"


def test_load_results_tables(scored, tmp_path):
    results = mrclens.load_results(scored)
    ablations = results.to_pandas()
    csv = read_results_csv(scored)  # the ablations table has results.csv's columns and numbers
    assert list(ablations.columns) == list(csv.columns)
    for column in ("n", "f1", "baseline_f1", "f1_drop", "ci_low", "ci_high"):
        assert ablations[column].tolist() == csv[column].tolist(), column
    assert ablations["id"].tolist() == ["e1", "e3", "e4"]
    e1 = results.ablation("e1")
    assert ablations.set_index("id").loc["e1", "f1_drop"] == e1.f1_drop == 50.0

    categories = results.to_pandas("categories")
    assert categories["category"].tolist() == [c.category for c in results.categories]
    assert categories["f1_drop"].tolist() == [c.f1_drop for c in results.categories]
    similarity = categories.set_index("category").loc["Similarity"]
    assert similarity["ablations"] == "e1,e3" and similarity["ci_low"] <= similarity["f1_drop"] <= similarity["ci_high"]
    assert "replicates" not in categories.columns

    sets = results.to_pandas("sets")
    assert sets["set"].tolist() == list(results.sets) and sets["n"].tolist() == [s.n for s in results.sets.values()]
    assert sets.set_index("set").loc["original", "f1"] == results.sets["original"].f1

    assert results.to_pandas("model_free").empty  # no model-free figures in an evaluation
    ref = reference_from_stats(_stats(80.0, 10_000), "SQuAD v1.1 dev", {"source": "dev-v1.1.json.gz"})
    figures = model_free_figures(_stats(90.0, 400), ref)
    write_results(replace(results, model_free=figures), tmp_path)
    model_free = mrclens.load_results(tmp_path).to_pandas("model_free")
    assert model_free["path"].tolist() == [f.path for f in figures]
    row = model_free.set_index("path").loc["similarity.answer_in_most_similar_sentence_pct"]
    assert (row["value"], row["reference_value"], row["comparison"]) == (90.0, 80.0, "higher")
    assert row["difference"] == pytest.approx(10.0)

    with pytest.raises(MRCLensError, match="unknown results table 'drops'; choose one of ablations, categories"):
        results.to_pandas("drops")


#: The text columns of the ablations and categories tables: every other column holds numbers or flags.
_TEXT = {"id", "name", "category", "set", "baseline_set", "evidence", "control_of", "control", "reference_figure",
         "reference_bias", "ablations", "evaluated", "reading", "reference", "reference_basis", "file",
         "reason_not_evaluated", "path", "label", "bias_when", "comparison", "reference_why", "reference_shape"}


def test_tables_have_numeric_dtypes_even_where_no_figure_was_computed(scored, tmp_path):
    """Issue 44, item 6: to_pandas("ablations") had 19 object columns (every figure that no row computed, e.g.
    excess_drop without controls); numbers are float64 / Int64 and flags boolean, from the results' types."""
    import pandas as pd

    results = mrclens.load_results(scored)
    ref = reference_from_stats(_stats(80.0, 10_000), "SQuAD v1.1 dev", {"source": "dev-v1.1.json.gz"})
    write_results(replace(results, model_free=model_free_figures(_stats(90.0, 400), ref)), tmp_path)
    results = mrclens.load_results(tmp_path)
    for table in ("ablations", "categories", "model_free", "sets"):
        frame = results.to_pandas(table)
        assert not frame.empty, table
        loose = [c for c in frame.columns if frame[c].dtype == object and c not in _TEXT]
        assert loose == [], (table, loose)
    ablations = results.to_pandas("ablations")
    assert ablations["excess_drop"].isna().all() and ablations["excess_drop"].dtype == "float64"
    assert ablations["reference_difference_ci_high"].dtype == "float64"
    assert ablations["unstable"].dtype == "boolean" and ablations["n"].dtype == "Int64"
    assert ablations["f1_drop_sd"].dtype == "float64" and ablations["changed_f1_drop"].dtype == "float64"
    assert pd.api.types.is_bool_dtype(ablations["evaluated"])
    categories = results.to_pandas("categories")
    assert categories["unstable"].dtype == "boolean" and categories["reference_confidence"].dtype == "float64"
    csv = read_results_csv(tmp_path)  # the file itself is written as before
    assert csv["f1"].tolist() == ablations["f1"].tolist()


def test_diff_results_ignores_times_and_places_and_finds_a_changed_figure(scored, tmp_path):
    other = Path(shutil.copytree(scored, tmp_path / "elsewhere"))
    raw = json.loads((other / "results.json").read_text())
    raw["created"], raw["step_seconds"] = "2030-01-01T00:00:00Z", {"score": 99.0}
    raw["paths"] = {k: str(other / v) for k, v in raw["paths"].items()}
    (other / "results.json").write_text(json.dumps(raw))
    same = mrclens.diff_results(scored, other / "results.json")
    assert same.identical and same.summary() == ("0 difference(s) (ignoring time fields and output locations); "
                                                 "3 ablations, 5 sets compared")
    raw["ablations"][0]["f1_drop"] = 49.5
    raw["inputs"][0]["sha256"] = "f" * 64
    (other / "results.json").write_text(json.dumps(raw))
    diff = mrclens.diff_results(scored, other)
    assert diff.differences == [f"ablations[0].f1_drop: 50.0 != 49.5",
                                f"inputs[0].sha256: {json.dumps(json.loads((scored / 'results.json').read_text())['inputs'][0]['sha256'])} != \"{'f' * 64}\""]

    runner = CliRunner()
    res = runner.invoke(main, ["diff-results", str(scored), str(other)])
    assert res.exit_code == 1 and "ablations[0].f1_drop: 50.0 != 49.5" in res.output and "2 difference(s)" in res.output
    res = runner.invoke(main, ["diff-results", str(scored), str(scored / "results.json"), "--json"])
    assert res.exit_code == 0 and json.loads(res.output)["identical"] is True
    (tmp_path / "empty").mkdir()
    res = runner.invoke(main, ["diff-results", str(scored), str(tmp_path / "empty")])
    assert res.exit_code == 2 and "results.json: not found" in res.output
    with pytest.raises(ArtifactError):
        mrclens.diff_results(scored, tmp_path / "empty")

    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import compare_results  # the benchmark script is a thin wrapper now
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    assert compare_results.main([str(scored / "results.json"), str(other / "results.json")]) == 1
    assert compare_results.main([str(scored / "results.json"), str(scored / "results.json")]) == 0


def test_diff_results_refuses_what_is_not_a_results_file(scored, tmp_path):
    """Issue 42, item 7: a data file, a stats JSON, a newer format version or a NaN is bad input (exit 2), not
    '13 differences'; both inputs are read as `mrclens card` reads results.json."""
    runner = CliRunner()
    data = tmp_path / "dev.json"
    data.write_text(json.dumps({"version": "1.1", "data": [{"title": "T", "paragraphs": []}]}))
    stats = tmp_path / "stats.json"
    stats.write_text(json.dumps({"title": "MRCLens dataset statistics", "counts": {"questions": 4}, "similarity": {}}))
    raw = json.loads((scored / "results.json").read_text())
    newer = tmp_path / "newer" / "results.json"
    newer.parent.mkdir()
    newer.write_text(json.dumps({**raw, "format_version": 99}))
    for bad, says in ((data, "an MRCLens results file"), (stats, "got a JSON object with keys counts, similarity, title"),
                      (newer, "format version 99")):
        for args in ([str(scored), str(bad)], [str(bad), str(scored)]):
            res = runner.invoke(main, ["diff-results", *args])
            assert res.exit_code == 2, (bad, res.output)
            assert str(bad) in res.output and says in res.output and "difference" not in res.output
        with pytest.raises(ArtifactError):
            mrclens.diff_results(bad, scored)

    nan = tmp_path / "nan" / "results.json"
    nan.parent.mkdir()
    for where in ("ablations", "step_seconds"):  # a typed figure, and a value no typed field reads
        obj = json.loads(json.dumps(raw))
        if where == "ablations":
            obj["ablations"][0]["f1_drop"] = float("nan")
        else:
            obj["step_seconds"] = {"score": float("nan")}
        nan.write_text(json.dumps(obj))
        res = runner.invoke(main, ["diff-results", str(nan), str(nan)])
        assert res.exit_code == 2 and "difference" not in res.output, res.output
        assert f"{nan}: " in res.output and "is nan, not a finite number" in res.output
        if where == "ablations":  # the message `mrclens card` gives for the same file
            card = runner.invoke(main, ["card", str(nan.parent), "--out", str(tmp_path / "c")])
            assert card.exit_code == 2 and card.output == res.output
