"""`mrclens evaluate PERTURBED_DIR --predictions-dir`: hand-made perturbed directories, partial and bad prediction files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner


from mrclens.artifacts.predictions import read_predictions
from mrclens.artifacts.results import entry_json
from mrclens.cli import main
from mrclens.errors import MRCLensError, PredictionsError
from mrclens.perturbations import perturb_dataset
from mrclens.publish import write_outputs
from mrclens.scoring.evaluate import evaluate_perturbed, load_perturbed_dir, score_predictions
from mrclens.squad import Dataset, write_dataset
from perturbed_fixture import PREDICTIONS, make_perturbed_dir, write_predictions  # tests/ is on sys.path under pytest


def evaluate_predictions_dir(perturbed_dir, predictions_dir, out_dir=None, **kwargs) -> dict:
    """Score and (with ``out_dir``) write the outputs, as `mrclens evaluate --out` does; the results as JSON."""
    evaluation = evaluate_perturbed(perturbed_dir, predictions_dir, results_dir=out_dir, **kwargs)
    if out_dir is not None:
        write_outputs(evaluation, out_dir)
    return evaluation.results.to_json()

@pytest.fixture()
def dirs(tmp_path):
    return make_perturbed_dir(tmp_path), write_predictions(tmp_path), tmp_path


def test_full_directory_hand_computed(dirs):
    pert, preds, tmp = dirs
    r = evaluate_predictions_dir(pert, preds, tmp / "out", model_name="toy", n_resamples=200, progress=False)
    a = {x["id"]: x for x in r["ablations"]}
    assert (a["e1"]["baseline_f1"], a["e1"]["f1"], a["e1"]["f1_drop"]) == (100.0, 50.0, 50.0)
    assert a["e1"]["baseline_set"] == "original-truncated" and a["e1"]["n"] == 2 and a["e1"]["changed"] == 2
    assert (a["e3"]["f1_drop"], a["e3"]["ci_low"], a["e3"]["ci_high"]) == (0.0, 0.0, 0.0)
    assert a["e3"]["changed"] == 3 and a["e3"]["unchanged_by_reason"] == {"no room": 1}
    assert a["e4"]["f1"] == pytest.approx(100 * (2 / 3 + 0 + 1 + 1) / 4, abs=1e-4)
    assert a["e4"]["f1_drop"] == pytest.approx(100 - 100 * (2 / 3 + 2) / 4, abs=1e-4)
    assert a["e4"]["em_drop"] == 50.0
    cats = {c["category"]: c for c in r["categories"]}
    assert cats["Similarity"]["ablations"] == ["e1", "e3"] and cats["Similarity"]["f1_drop"] == 25.0
    assert cats["Question"]["f1_drop"] == a["e4"]["f1_drop"]
    assert r["model"] == {"kind": "external", "name": "toy", "config": None}
    assert r["warnings"] == []
    assert r["paths"] == {"perturbed_dir": "../perturbed", "predictions_dir": "../predictions"}
    assert {i["role"] for i in r["inputs"]} >= {"manifest", "set:e1", "predictions:e1"}
    written = json.loads((tmp / "out" / "results.json").read_text())
    assert written["ablations"] == r["ablations"] and written["sets"] == r["sets"]
    assert all(x["reading"] and x["evidence"] for x in written["ablations"])


def test_same_numbers_as_in_memory_scoring_path(dirs):
    """The audit scores its predictions in memory with score_predictions: the files must give the same numbers."""
    pert, preds, _ = dirs
    from_files = evaluate_predictions_dir(pert, preds, seed=4, n_resamples=300, progress=False)
    manifest, datasets = load_perturbed_dir(pert, progress=False)
    in_memory = score_predictions(manifest, datasets, PREDICTIONS, seed=4, n_resamples=300)
    assert from_files["ablations"] == [entry_json(a) for a in in_memory.ablations]
    assert from_files["categories"] == [entry_json(c) for c in in_memory.categories]
    assert from_files["sets"] == {k: entry_json(v) for k, v in in_memory.set_results(manifest.set_files()).items()}


def test_missing_prediction_file_marks_only_its_ablations(dirs):
    pert, preds, tmp = dirs
    (preds / "original-truncated.json").unlink()
    (preds / "e4.json").unlink()
    r = evaluate_predictions_dir(pert, preds, n_resamples=100, progress=False)
    a = {x["id"]: x for x in r["ablations"]}
    assert not a["e1"]["evaluated"] and "original-truncated.json" in a["e1"]["reason_not_evaluated"]
    assert not a["e4"]["evaluated"] and "e4.json" in a["e4"]["reason_not_evaluated"]
    assert a["e3"]["evaluated"] and a["e3"]["f1_drop"] == 0.0
    assert "not evaluated" in a["e1"]["reading"]
    cats = {c["category"]: c for c in r["categories"]}
    assert cats["Similarity"]["evaluated"] == ["e3"] and cats["Question"]["f1_drop"] is None
    assert any("e4: not evaluated" in w for w in r["warnings"])


def test_unknown_and_missing_ids_are_counted(dirs):
    pert, preds, tmp = dirs
    e3 = {"q1": "France", "q2": "Germany", "zz1": "x", "zz2": "y", "zz3": "z"}
    (preds / "e3.json").write_text(json.dumps(e3))
    r = evaluate_predictions_dir(pert, preds, n_resamples=100, progress=False)
    s = r["sets"]["e3"]
    assert (s["missing"], s["unknown"]) == (2, 3)
    assert s["f1"] == 50.0  # q3, q4 missing score 0 and count
    assert {x["id"]: x for x in r["ablations"]}["e3"]["f1_drop"] == 50.0
    assert "e3: 2 of 4 question(s) have no prediction and score 0" in r["warnings"]
    assert "e3: 3 prediction(s) are for question ids not in the set (ignored)" in r["warnings"]


def test_no_prediction_files_at_all_is_an_error(dirs, tmp_path):
    pert, _, _ = dirs
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(MRCLensError, match="none of the expected prediction files"):
        evaluate_predictions_dir(pert, empty, progress=False)


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"q1": "France",', "not valid JSON"),
        ('{"q1": [3]}', "question q1: the predicted answer must be a string, got int"),
        ('{"q1": []}', "question q1: the n-best list is empty"),
        ('["France"]', "not a prediction file MRCLens reads"),
        ('[{"id": "q1", "prediction_text": "France", "no_answer_probability": 2}]', "must be a number in"),
    ],
)
def test_malformed_prediction_file_names_the_file(dirs, content, message):
    pert, preds, tmp = dirs
    (preds / "e4.json").write_text(content)
    with pytest.raises(PredictionsError, match=message) as err:
        evaluate_predictions_dir(pert, preds, progress=False)
    assert str(preds / "e4.json") in str(err.value)
    res = CliRunner().invoke(main, ["evaluate", str(pert), "--predictions-dir", str(preds)])
    assert res.exit_code == 2
    assert str(preds / "e4.json") in res.output and message.split(":")[0] in res.output


def test_bad_perturbed_dir(tmp_path):
    (tmp_path / "p").mkdir()
    res = CliRunner().invoke(main, ["evaluate", str(tmp_path), "--predictions-dir", str(tmp_path / "p")])
    assert res.exit_code == 2 and "manifest.json: not found" in res.output
    (tmp_path / "manifest.json").write_text('{"sets": {}, "ablations": {"e1": {"name": "x"}}}')
    res = CliRunner().invoke(main, ["evaluate", str(tmp_path), "--predictions-dir", str(tmp_path / "p")])
    assert res.exit_code == 2 and "ablation e1: field 'category' is missing" in res.output


def test_cli_writes_results_and_prints_table(dirs):
    pert, preds, tmp = dirs
    out = tmp / "out"
    res = CliRunner().invoke(
        main, ["evaluate", str(pert), "--predictions-dir", str(preds), "--out", str(out), "--model-name", "toy", "--seed", "1", "--resamples", "50"]
    )
    assert res.exit_code == 0, res.output
    r = json.loads((out / "results.json").read_text())
    assert r["seed"] == 1 and r["bootstrap"] == {"n_resamples": 50, "confidence": 0.95, "seed": 1}
    assert (out / "results.csv").exists()
    # issue 33: the verdict at a glance ends the output; --wide prints the table and the readings before it
    assert res.output.strip().splitlines()[-1].endswith("report.html; every figure: --wide")
    assert "Evidence of each bias (external model 'toy', F1 100.0 on 4 questions; no reference):" in res.output
    assert "Model: toy (external)" not in res.output and "Similarity bias:" not in res.output
    res = CliRunner().invoke(main, ["evaluate", str(pert), "--predictions-dir", str(preds), "--model-name", "toy",
                                    "--resamples", "50", "--wide"])
    assert "Model: toy (external)" in res.output
    assert "e1" in res.output and "+50.0" in res.output
    assert "Similarity bias:" in res.output


def test_cli_usage_errors_and_first_form_still_works(dirs):
    pert, preds, tmp = dirs
    res = CliRunner().invoke(main, ["evaluate", str(pert)])
    assert res.exit_code == 2 and "--predictions-dir" in res.output
    res = CliRunner().invoke(main, ["evaluate", str(pert / "original.json")])
    assert res.exit_code == 2 and "PREDICTIONS" in res.output
    res = CliRunner().invoke(main, ["evaluate", str(pert / "original.json"), str(preds / "e4.json")])
    assert res.exit_code == 0
    assert json.loads(res.output.splitlines()[0]) == {"exact_match": 50.0, "f1": pytest.approx(100 * (2 / 3 + 2) / 4)}


def test_real_perturbations_end_to_end(sample_path, tmp_path):
    """Real ablations on two real articles; the gold answers as predictions score 100 on every set."""
    from mrclens.formats import load_dataset

    ds = load_dataset(sample_path)
    small = Dataset(ds.articles[:2], ds.version)
    src = write_dataset(small, tmp_path / "small.json")
    out = tmp_path / "perturbed"
    perturb_dataset(src, out, seed=0, cache_dir=tmp_path / "cache", progress=False)
    manifest, datasets = load_perturbed_dir(out, progress=False)
    preds = {}
    for name, d in datasets.items():
        preds[name] = {q.id: q.answers[0].text for _, _, q in d.iter_questions()}
    pdir = write_predictions(tmp_path, preds)
    r = evaluate_predictions_dir(out, pdir, n_resamples=100, progress=False)
    assert len(r["ablations"]) == len(manifest.ablations) >= 8
    for a in r["ablations"]:
        assert a["evaluated"] and a["f1"] == 100.0 and a["f1_drop"] == 0.0 and (a["ci_low"], a["ci_high"]) == (0.0, 0.0)
    assert read_predictions(pdir / "e1.json")
