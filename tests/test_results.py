"""results.json / results.csv: schema, atomic writing, CSV rows matching the JSON, the terminal table."""

from __future__ import annotations

import datetime as dt
import json

import pandas as pd
import pytest

from mrclens.evaluation import load_perturbed_dir, score_predictions
from mrclens.results import CSV_COLUMNS, build_results, format_table, package_versions, results_frame, write_results

from test_evaluation import PREDICTIONS, make_perturbed_dir  # noqa: E402  (tests/ is on sys.path under pytest)

KEYS = {
    "mrclens_version", "created", "seed", "model", "inputs", "versions", "step_seconds", "bootstrap",
    "sets", "ablations", "categories", "paths", "sections", "warnings",
}


@pytest.fixture()
def results(tmp_path):
    manifest, datasets = load_perturbed_dir(make_perturbed_dir(tmp_path), progress=False)
    preds = dict(PREDICTIONS)
    del preds["e4"]  # one ablation not evaluated: its CSV row has empty numbers
    scores = score_predictions(manifest, datasets, preds, n_resamples=100, missing_reasons={"e4": "no prediction file e4.json"})
    return build_results(
        scores,
        model={"kind": "baseline", "name": "co-attention BiLSTM", "config": {"epochs": 1}},
        seed=0,
        n_resamples=100,
        confidence=0.95,
        inputs=[{"role": "train", "file": "train.json", "sha256": "ab" * 32}],
        step_seconds={"train": 12.3456},
        paths={"perturbed_dir": "perturbed", "predictions_dir": "predictions"},
        sections={"controls": {"x": 1}},
    )


def test_schema(results):
    assert set(results) == KEYS
    assert results["model"] == {"kind": "baseline", "name": "co-attention BiLSTM", "config": {"epochs": 1}}
    assert results["step_seconds"] == {"train": 12.346}
    assert results["sections"] == {"controls": {"x": 1}}
    created = dt.datetime.fromisoformat(results["created"].replace("Z", "+00:00"))
    assert created.tzinfo is not None and abs((dt.datetime.now(dt.timezone.utc) - created).total_seconds()) < 60
    assert list(results["sets"]) == ["original", "original-truncated", "e1", "e3", "e4"]
    for a in results["ablations"]:
        assert {"id", "evaluated", "reason_not_evaluated", "f1_drop", "ci_low", "ci_high", "changed_only", "reading"} <= set(a)
    for c in results["categories"]:
        assert {"category", "ablations", "f1_drop", "ci_low", "ci_high", "reading"} <= set(c)
    with pytest.raises(ValueError, match="model kind"):
        build_results({"sets": {}, "ablations": [], "categories": []}, model={"kind": "bert"}, seed=0, n_resamples=1, confidence=0.95)


def test_versions_are_the_installed_ones():
    import numpy
    import pandas

    v = package_versions()
    assert v["numpy"] == numpy.__version__ and v["pandas"] == pandas.__version__
    assert v["python"].count(".") == 2


def test_csv_rows_match_json(results, tmp_path):
    out = tmp_path / "out"
    json_path, csv_path = write_results(results, out)
    assert sorted(p.name for p in out.iterdir()) == ["results.csv", "results.json"]  # no temporary files left
    assert json.loads(json_path.read_text()) == json.loads(json.dumps(results))
    frame = pd.read_csv(csv_path)
    assert list(frame.columns) == [c for c, _ in CSV_COLUMNS]
    assert frame["id"].tolist() == [a["id"] for a in results["ablations"]]
    for (_, row), a in zip(frame.iterrows(), results["ablations"]):
        assert row["category"] == a["category"] and row["set"] == a["eval_set"]
        assert row["n"] == a["n"] and row["changed"] == a["changed"]
        for col in ("exact_match", "f1", "f1_drop", "ci_low", "ci_high"):
            if a[col] is None:
                assert pd.isna(row[col])
            else:
                assert row[col] == pytest.approx(a[col])
        assert bool(row["evaluated"]) is a["evaluated"]
    e4 = frame.set_index("id").loc["e4"]
    assert pd.isna(e4["f1_drop"]) and not e4["evaluated"]
    # integers stay integers in the CSV text (no "2.0")
    assert csv_path.read_text().splitlines()[1].split(",")[5:7] == ["2", "2"]


def test_rewriting_replaces_files(results, tmp_path):
    write_results(results, tmp_path)
    changed = dict(results, seed=9)
    write_results(changed, tmp_path)
    assert json.loads((tmp_path / "results.json").read_text())["seed"] == 9


def test_format_table(results):
    table = format_table(results)
    assert table.splitlines()[0] == "Model: co-attention BiLSTM (baseline)"
    assert "original: 4 questions, EM 100.0  F1 100.0" in table
    e1 = next(line for line in table.splitlines() if line.lstrip().startswith("e1 "))
    assert "+50.0" in e1 and "insert question" in e1
    e4 = next(line for line in table.splitlines() if line.lstrip().startswith("e4 "))
    assert "not evaluated" in e4
    assert len(results_frame(results)) == 3
