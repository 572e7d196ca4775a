"""results.json / results.csv: schema, round trip, atomic writing, CSV rows matching the JSON, the terminal table."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace

import pandas as pd
import pytest

from mrclens.artifacts.results import (
    AuditRecord,
    InputFile,
    ModelRecord,
    Results,
    package_versions,
    read_results,
    write_results,
)
from mrclens.artifacts.results_csv import CSV_COLUMNS, CSV_OPTIONAL_COLUMNS, read_results_csv, results_frame
from mrclens.errors import ArtifactError
from mrclens.reports.table import format_table
from mrclens.scoring.evaluate import evaluate_perturbed
from perturbed_fixture import PREDICTIONS, make_perturbed_dir, write_predictions

KEYS = {
    "format_version", "mrclens_version", "created", "seed", "model", "inputs", "versions", "step_seconds", "bootstrap",
    "sets", "ablations", "categories", "paths", "sections", "warnings",
}


@pytest.fixture()
def results(tmp_path) -> Results:
    preds = dict(PREDICTIONS)
    del preds["e4"]  # one ablation not evaluated: its CSV row has empty numbers
    evaluation = evaluate_perturbed(
        make_perturbed_dir(tmp_path), write_predictions(tmp_path, preds), results_dir=tmp_path / "out",
        model=ModelRecord("baseline", "co-attention BiLSTM", {"epochs": 1}), n_resamples=100,
        inputs=[InputFile("train", "train.json", "ab" * 32)], step_seconds={"train": 12.3456}, progress=False,
        audit=AuditRecord({"seed": 0}, None, "model", [{"epoch": 1, "f1": 50.0}], {"seed": "config file a.toml"}))
    return replace(evaluation.results, sections={"controls": {"x": 1}})


def test_schema(results):
    obj = results.to_json()
    assert set(obj) == KEYS | {"audit"}
    assert list(obj)[:3] == ["format_version", "mrclens_version", "created"]
    assert obj["model"] == {"kind": "baseline", "name": "co-attention BiLSTM", "config": {"epochs": 1}}
    assert list(obj["step_seconds"]) == ["train", "score"] and obj["step_seconds"]["train"] == 12.346
    assert obj["inputs"][0] == {"role": "train", "file": "train.json", "sha256": "ab" * 32}
    assert obj["audit"]["training_log"] == [{"epoch": 1, "f1": 50.0}]
    assert obj["audit"]["option_sources"] == {"seed": "config file a.toml"}
    created = dt.datetime.fromisoformat(obj["created"].replace("Z", "+00:00"))
    assert created.tzinfo is not None and abs((dt.datetime.now(dt.timezone.utc) - created).total_seconds()) < 60
    assert list(obj["sets"]) == ["original", "original-truncated", "e1", "e3", "e4"]
    assert list(obj["sets"]["e1"]) == ["file", "n", "exact_match", "f1", "missing", "unknown", "evaluated", "reason_not_evaluated"]
    for a in obj["ablations"]:
        assert {"id", "evaluated", "reason_not_evaluated", "f1_drop", "ci_low", "ci_high", "changed_only", "reading"} <= set(a)
    for c in obj["categories"]:
        assert {"category", "ablations", "f1_drop", "ci_low", "ci_high", "reading"} <= set(c)



def test_model_kind_is_checked(tmp_path):
    with pytest.raises(ValueError, match="model kind"):
        evaluate_perturbed(make_perturbed_dir(tmp_path), write_predictions(tmp_path), model=ModelRecord("bert", "x"),
                           n_resamples=10, progress=False)


def test_round_trip(results, tmp_path):
    write_results(results, tmp_path)
    assert read_results(tmp_path) == results
    no_audit = replace(results, audit=None)
    write_results(no_audit, tmp_path)
    assert read_results(tmp_path) == no_audit and "audit" not in json.loads((tmp_path / "results.json").read_text())
    frame = read_results_csv(tmp_path)

    def cells(f):
        return f.astype(object).where(f.notna(), None).values.tolist()

    assert list(frame.columns) == list(results_frame(results).columns)
    assert cells(frame) == cells(results_frame(results))


def test_file_without_format_version_is_read_as_version_1(results, tmp_path):
    obj = results.to_json()
    del obj["format_version"]
    (tmp_path / "results.json").write_text(json.dumps(obj))
    assert read_results(tmp_path).format_version == 1


@pytest.mark.parametrize("edit, message", [
    (lambda o: o.update(format_version=99), "newer MRCLens"),
    (lambda o: o.pop("ablations"), "field 'ablations' is missing"),
    (lambda o: o["ablations"][0].update(f1_drop="big"), "ablation e1: field 'f1_drop'"),
    (lambda o: o["model"].pop("kind"), "model: field 'kind'"),
])
def test_malformed_results_name_the_file_and_field(results, tmp_path, edit, message):
    obj = results.to_json()
    edit(obj)
    (tmp_path / "results.json").write_text(json.dumps(obj))
    with pytest.raises(ArtifactError, match=message) as err:
        read_results(tmp_path)
    assert str(tmp_path / "results.json") in str(err.value)


def test_the_context_shape_round_trips_and_a_bad_one_is_refused(results, tmp_path):
    """Issue 41: the data's context length beside the reference's (it picks the structure term's stratum)."""
    shaped = replace(results, context_shape={"sentences": "2", "reference_sentences": "5"})
    write_results(shaped, tmp_path / "a")
    assert read_results(tmp_path / "a").context_shape == {"sentences": "2", "reference_sentences": "5"}
    assert "context_shape" not in results.to_json()
    obj = shaped.to_json()
    obj["context_shape"] = {"sentences": 2}
    (tmp_path / "results.json").write_text(json.dumps(obj))
    with pytest.raises(ArtifactError, match="context_shape: field 'sentences'"):
        read_results(tmp_path)
    for label in ("ten", "10-", "0"):
        obj["context_shape"] = {"sentences": label, "reference_sentences": "5"}
        (tmp_path / "results.json").write_text(json.dumps(obj))
        with pytest.raises(ArtifactError, match="context_shape: field 'sentences' is '.*', not a stratum label"):
            read_results(tmp_path)
    obj["context_shape"] = {"sentences": "10-14", "reference_sentences": "15+"}
    (tmp_path / "results.json").write_text(json.dumps(obj))
    assert read_results(tmp_path).context_shape["reference_sentences"] == "15+"


def test_missing_and_broken_files(tmp_path):
    with pytest.raises(ArtifactError, match="results.json: not found"):
        read_results(tmp_path)
    (tmp_path / "results.json").write_text("{")
    with pytest.raises(ArtifactError, match="not valid JSON"):
        read_results(tmp_path)


def test_versions_are_the_installed_ones():
    import numpy
    import pandas

    v = package_versions()
    assert v["numpy"] == numpy.__version__ and v["pandas"] == pandas.__version__
    assert v["python"].count(".") == 2


def test_csv_rows_match_json(results, tmp_path):
    out = tmp_path / "written"
    json_path, csv_path = write_results(results, out)
    assert sorted(p.name for p in out.iterdir()) == ["results.csv", "results.json"]  # no temporary files left
    assert json.loads(json_path.read_text()) == json.loads(json.dumps(results.to_json()))
    frame = pd.read_csv(csv_path)
    assert list(frame.columns) == [c for c, _ in CSV_COLUMNS + CSV_OPTIONAL_COLUMNS]
    ablations = results.to_json()["ablations"]
    assert frame["id"].tolist() == [a["id"] for a in ablations]
    for (_, row), a in zip(frame.iterrows(), ablations):
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
    write_results(replace(results, seed=9), tmp_path)
    assert json.loads((tmp_path / "results.json").read_text())["seed"] == 9


def test_format_table(results):
    table = format_table(results)
    assert table.splitlines()[0] == "Model: co-attention BiLSTM (baseline)"
    assert "original: 4 questions, EM 100.0  F1 100.0" in table
    e1 = next(line for line in table.splitlines() if line.lstrip().startswith("e1 "))
    assert "+50.0" in e1 and "insert question" in e1
    e4 = next(line for line in table.splitlines() if line.lstrip().startswith("e4 "))
    assert "not evaluated" in e4
    assert "95% CI" in table and "90% CI" in format_table(replace(results, bootstrap=replace(results.bootstrap, confidence=0.9)))
    assert len(results_frame(results)) == 3


def test_own_json_files_holding_a_key_twice_are_refused(results, tmp_path):
    """Issue 42, item 11: results.json (and every file read through mrclens.artifacts) refuses a repeated key,
    as data and prediction files do, instead of keeping the last value without a word."""
    from click.testing import CliRunner

    from mrclens.artifacts.manifest import read_manifest
    from mrclens.cli import main

    out = tmp_path / "doubled"
    write_results(results, out)
    text = (out / "results.json").read_text()
    assert text.count('\n  "seed": ') == 1
    (out / "results.json").write_text(text.replace('\n  "seed": ', '\n  "seed": 7,\n  "seed": ', 1))
    with pytest.raises(ArtifactError, match=r"results.json: an object holds the key 'seed' twice"):
        read_results(out)
    for args in (["card", str(out), "--out", str(tmp_path / "card")], ["diff-results", str(out), str(out)]):
        res = CliRunner().invoke(main, args)
        assert res.exit_code == 2 and "the key 'seed' twice" in res.output, res.output
    manifest = tmp_path / "perturbed" / "manifest.json"
    manifest.write_text(manifest.read_text().replace('{"mrclens_version": "0.1.0", ', '{"seed": 3, "mrclens_version": "0.1.0", ', 1))
    with pytest.raises(ArtifactError, match=r"manifest.json: an object holds the key 'seed' twice"):
        read_manifest(tmp_path / "perturbed")


def test_the_standard_errors_beside_the_reference_intervals_are_written_read_and_optional():
    """issue 53: ``se``/``df`` beside each interval of the reference comparison (added fields; older files read)."""
    from demo_audit_fixture import demo_results

    demo = demo_results({"Similarity": 1.8})
    obj = demo.to_json()
    ab = next(a for a in obj["ablations"] if a["reference_difference_se"] is not None)
    cat = next(c for c in obj["categories"] if c["reference_difference_se"] is not None)
    fig = next(f for f in obj["model_free"] if f["difference_se"] is not None)
    # t on Welch–Satterthwaite degrees of freedom: the reference's run SD (8 runs) and structure term (6 counterparts)
    assert ab["reference_difference_df"] >= 5 and cat["reference_difference_df"] >= 5   # issue 54, item 4
    assert isinstance(fig["difference_df"], (int, type(None)))
    assert Results.from_json(json.loads(json.dumps(obj)), "results.json") == demo
    # a file written before the fields existed reads as before, the fields None
    for entry in obj["ablations"] + obj["categories"]:
        entry.pop("reference_difference_se", None), entry.pop("reference_difference_df", None)
    for entry in obj["model_free"]:
        entry.pop("difference_se"), entry.pop("difference_df")
    old = Results.from_json(obj, "results.json")
    assert old.ablation(ab["id"]).reference_difference_se is None and old.model_free[0].difference_df is None
    assert old.ablation(ab["id"]).reference_difference_ci_low == ab["reference_difference_ci_low"]
    # a df that is not a number is refused with the file named
    obj["model_free"][0]["difference_df"] = "seven"
    with pytest.raises(ArtifactError, match="results.json"):
        Results.from_json(obj, "results.json")
