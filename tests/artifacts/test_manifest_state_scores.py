"""Round trips and clear errors for the manifest, audit state, question scores, predictions and the layout."""

from __future__ import annotations

import json

import pytest

from mrclens.artifacts import layout
from mrclens.artifacts.audit_state import AuditState, read_audit_state, write_audit_state
from mrclens.artifacts.manifest import read_manifest, write_manifest
from mrclens.artifacts.predictions import read_predictions, read_predictions_dir, write_predictions
from mrclens.artifacts.question_scores import SetQuestionScores, read_question_scores, write_question_scores
from mrclens.errors import ArtifactError, PredictionsError
from mrclens.perturbations import perturb_dataset
from mrclens.formats import load_dataset
from mrclens.squad import Dataset, write_dataset
from perturbed_fixture import make_perturbed_dir


@pytest.fixture(scope="module")
def real_manifest(sample_path, tmp_path_factory):
    """The manifest of real ablations on two real articles of the bundled sample."""
    tmp = tmp_path_factory.mktemp("real")
    ds = load_dataset(sample_path)
    src = write_dataset(Dataset(ds.articles[:2], ds.version), tmp / "small.json")
    return perturb_dataset(src, tmp / "perturbed", cache_dir=tmp / "cache", progress=False), tmp / "perturbed"


@pytest.mark.slow
def test_manifest_round_trip_on_real_ablations(real_manifest, tmp_path):
    manifest, directory = real_manifest
    assert read_manifest(directory) == manifest
    assert json.loads((directory / layout.MANIFEST).read_text()) == manifest.to_json()
    write_manifest(tmp_path, manifest)
    assert (tmp_path / layout.MANIFEST).read_bytes() == (directory / layout.MANIFEST).read_bytes()
    assert list(manifest.set_files())[:3] == ["original", "original-truncated", "e1"]
    assert manifest.ablations["e1"].changed_ids() == {q for q, r in manifest.ablations["e1"].items.items() if r["changed"]}


def test_manifest_without_version_and_hand_made(tmp_path):
    directory = make_perturbed_dir(tmp_path)  # written by hand, no format_version
    manifest = read_manifest(directory)
    assert manifest.format_version == 1 and manifest.ablation_ids() == ["e1", "e3", "e4"]
    assert manifest.sets["original"].paragraphs_total is None


@pytest.mark.parametrize("text, message", [
    ("[1]", "expected a JSON object"),
    ('{"sets": {}, "ablations": {}, "format_version": 2}', "newer MRCLens"),
    ('{"sets": {"original": {"n": 1}}, "ablations": {"e1": {"name": "x", "category": "c", "eval_set": "full", '
     '"baseline_set": "nope", "bias_signal": "small_drop"}}}', "baseline set 'nope' is not listed"),
    ('{"sets": {"original": {"file": "o.json", "n": "4"}}, "ablations": {}}', "set original: field 'n'"),
])
def test_bad_manifest_names_the_file(tmp_path, text, message):
    (tmp_path / layout.MANIFEST).write_text(text)
    with pytest.raises(ArtifactError, match=message) as err:
        read_manifest(tmp_path)
    assert str(tmp_path / layout.MANIFEST) in str(err.value)
    with pytest.raises(ArtifactError, match="not a directory"):
        read_manifest(tmp_path / "absent")


def test_audit_state_round_trip_and_absence(tmp_path):
    assert read_audit_state(tmp_path) is None
    state = AuditState("fp", "0.1.0", {"perturb": {"key": "k1", "seconds": 1.25}, "predict:e1": {"key": "k2", "seconds": 3.0}})
    write_audit_state(tmp_path, state)
    assert read_audit_state(tmp_path) == state
    (tmp_path / layout.AUDIT_STATE).write_text('{"dataset": "fp", "steps": {"perturb": {"seconds": 1}}}')
    with pytest.raises(ArtifactError, match="step perturb: field 'key'"):
        read_audit_state(tmp_path)


def test_question_scores_round_trip(tmp_path):
    scores = {"original": SetQuestionScores(["a", "b", "c"], [1.0, 0.0, 0.0], [1.0, 2 / 3, 0.0]), "e4": None}
    write_question_scores(tmp_path, scores)
    assert read_question_scores(tmp_path) == scores
    (tmp_path / layout.QUESTION_SCORES).write_text('{"sets": {"x": {"ids": ["a"], "exact_match": [], "f1": [1]}}}')
    with pytest.raises(ArtifactError, match="of one length"):
        read_question_scores(tmp_path)


def test_predictions_round_trip_and_directory(tmp_path):
    write_predictions(tmp_path / "e1.json", {"q1": "Paris", "q2": "Łódź"})
    assert read_predictions(tmp_path / "e1.json") == {"q1": "Paris", "q2": "Łódź"}
    (tmp_path / "stray.json").write_text("{}")
    found = read_predictions_dir(tmp_path, ["original", "e1"])
    assert found.predictions["original"] is None and "original.json" in found.missing_reasons["original"]
    assert found.extra_files == ["stray.json"]
    with pytest.raises(ArtifactError, match="none of the expected prediction files"):
        read_predictions_dir(tmp_path, ["e9"])
    (tmp_path / "e1.json").write_text('{"q1": 3}')
    with pytest.raises(PredictionsError, match="q1: the predicted answer must be a string"):
        read_predictions(tmp_path / "e1.json")


def test_output_file_names_are_defined_once():
    """Only mrclens.artifacts.layout spells the output file names; no other module has them as literals."""
    from pathlib import Path

    import mrclens

    names = [layout.RESULTS_JSON, layout.RESULTS_CSV, layout.QUESTION_SCORES, layout.REPORT_HTML,
             layout.AUDIT_STATE, layout.MANIFEST, layout.COMPARISON_JSON, layout.COMPARISON_CSV, layout.COMPARISON_HTML]
    root = Path(mrclens.__file__).parent
    offenders = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "layout.py" and path.parent.name == "artifacts":
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.lstrip().startswith(">>>") or "get_template(" in line:  # doctest data; the Jinja template's own name
                continue
            for name in names:
                if f'"{name}"' in line or f"'{name}'" in line:
                    offenders.append(f"{path.relative_to(root)}: {line.strip()}")
    assert offenders == []
