"""results.json's JSON Schema (issue 57, item 5): the published docs/results.schema.json is the one the records give,
real results files validate with the models it is generated from (the reader's own), a damaged file fails naming the
field, and every key the schema does not require reads, when an older file lacks it, as the default it publishes."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from mrclens.artifacts.results import (RESULTS_FORMAT, AuditRecord, CategoryReplicate, ChangedOnly, InputFile,
                                       ModelRecord, ReplicateFigures, ReplicateRecord, Results, SetResult, SubsetDrop,
                                       SubsetScore, read_results, write_results)
from mrclens.artifacts.results_schema import main, results_schema, schema_text
from mrclens.artifacts.training_record import TrainingRecord
from mrclens.errors import ArtifactError
from mrclens.scoring.evaluate import evaluate_perturbed
from perturbed_fixture import PREDICTIONS, make_perturbed_dir, write_predictions

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED = ROOT / "docs" / "results.schema.json"
#: a real audit's results.json (full SQuAD v1.1 on an H100), written before format versions and training records
GPU_AUDIT = ROOT / "benchmarks" / "gpu" / "results-2026-11-23-h100" / "results.json"


def test_the_published_schema_is_the_one_the_records_give():
    assert PUBLISHED.read_text(encoding="utf-8") == schema_text(), \
        "docs/results.schema.json is stale: python -m mrclens.artifacts.results_schema --out docs/results.schema.json"
    schema = json.loads(PUBLISHED.read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["required"] == ["model", "bootstrap", "sets", "ablations", "categories"]
    assert schema["properties"]["format_version"]["maximum"] == 1
    assert schema["properties"]["task"]["enum"] == ["span", "multiple_choice"]


def test_the_command_prints_writes_and_checks_the_schema(tmp_path, capsys):
    out = tmp_path / "results.schema.json"
    assert main(["--check", str(out)]) == 1 and "missing" in capsys.readouterr().err
    assert main(["--out", str(out)]) == 0 and out.read_text(encoding="utf-8") == schema_text()
    assert main(["--check", str(out)]) == 0
    stale = json.loads(out.read_text(encoding="utf-8"))
    del stale["$defs"]["AblationResult"]["properties"]["f1_drop"]
    out.write_text(json.dumps(stale, indent=2) + "\n", encoding="utf-8")
    assert main(["--check", str(out)]) == 1
    assert f"{out}: stale; regenerate it with" in capsys.readouterr().err
    assert main([]) == 0 and capsys.readouterr().out == schema_text()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    res = subprocess.run([sys.executable, "-m", "mrclens.artifacts.results_schema", "--check", str(PUBLISHED)],
                         capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0, res.stderr


@pytest.fixture(scope="module")
def scored(tmp_path_factory) -> Path:
    """results.json of a real scoring (the shared perturbed fixture), as `mrclens evaluate --out` writes it."""
    root = tmp_path_factory.mktemp("scored")
    preds = dict(PREDICTIONS)
    del preds["e4"]  # one ablation not evaluated: its numbers are null
    evaluation = evaluate_perturbed(make_perturbed_dir(root), write_predictions(root, preds), results_dir=root / "out",
                                    model=ModelRecord("external", "m"), n_resamples=50, progress=False)
    write_results(evaluation.results, root / "out")
    return root / "out" / "results.json"


def _demo() -> dict:
    from demo_audit_fixture import demo_results

    return json.loads(json.dumps(demo_results({"Similarity": 1.8}).to_json()))


def test_real_results_files_validate(scored):
    """The GPU audit (an older file: no format_version, no training record), a real scoring, and the demo-like
    audit against the bundled reference (model-free figures, verdicts, standard errors) all validate with the
    schema's models and read."""
    for path, obj in ((GPU_AUDIT, json.loads(GPU_AUDIT.read_text(encoding="utf-8"))),
                      (scored, json.loads(scored.read_text(encoding="utf-8"))), ("demo", _demo())):
        RESULTS_FORMAT.model().model_validate(obj)
        assert isinstance(Results.from_json(obj, path), Results), path
    gpu = read_results(GPU_AUDIT.parent)
    assert gpu.format_version == 1 and gpu.audit.training is None and gpu.sets["original"].n == 10570


@pytest.mark.parametrize("damage, says, field", [
    (lambda o: o["ablations"][0].update(f1_drop="big"), "ablation e1: field 'f1_drop' is missing or has the wrong "
                                                        "type (expected a number or null)", ("AblationResult", "f1_drop")),
    (lambda o: o["categories"][0].pop("category"), "category #1: field 'category' is missing or has the wrong type "
                                                   "(expected a string)", ("CategoryResult", "category")),
    (lambda o: o["model_free"][0].update(n=True), "model_free #1: field 'n' is missing or has the wrong type "
                                                  "(expected an integer)", ("ModelFreeFigure", "n")),
    (lambda o: o.update(task="yes_no"), "field 'task' is 'yes_no', not 'span' or 'multiple_choice'", (None, "task")),
    (lambda o: o["sets"]["original"].update(f1=float("nan")), "set original: field 'f1' is nan, not a finite number",
     ("SetResult", "f1")),
])
def test_a_damaged_file_fails_naming_the_field(tmp_path, damage, says, field):
    obj = _demo()
    damage(obj)
    (tmp_path / "results.json").write_text(json.dumps(obj), encoding="utf-8")
    with pytest.raises(ArtifactError) as err:
        read_results(tmp_path)
    assert str(err.value) == f"{tmp_path / 'results.json'}: {says}"
    record, name = field  # the published schema says the same of the field, so any JSON Schema validator refuses it
    schema = results_schema()
    assert name in (schema["$defs"][record] if record else schema)["properties"]


def _rich() -> Results:
    """Results holding every record of the file at least once (replicates, v2.0 subsets, a training record …)."""
    from demo_audit_fixture import demo_results

    r = demo_results()
    drop = SubsetDrop(3, 50.0, 60.0, 55.0, 65.0, 5.0, 1.0, 9.0)
    a0 = replace(r.ablations[0], changed_only=ChangedOnly(4, 50.0, 60.0, 10.0, 2.0, 18.0),
                 replicates=[ReplicateFigures(0, 0, 10.0), ReplicateFigures(1, 0, 12.0)], subsets={"HasAns": drop})
    c0 = replace(r.categories[0], replicates=[CategoryReplicate(0, 0, 8.0)], subsets={"NoAns": drop})
    name, s0 = next(iter(r.sets.items()))
    training = TrainingRecord("steps", 10, 1.5, 2, 10, None, 0, "cpu", 1, 2, True, False, True, "x86", "AVX2", "2.5")
    return replace(r, ablations=[a0, *r.ablations[1:]], categories=[c0, *r.categories[1:]],
                   sets={**r.sets, name: replace(s0, subsets={"HasAns": SubsetScore(3, 60.0, 70.0, 0)})}, inputs=[InputFile("train", "t.json", "ab" * 32)],
                   replicates=[ReplicateRecord(0, 1, 0, 2, "perturbed", "predictions")], variance_method="two-stage",
                   audit=AuditRecord({"seed": 0}, None, "model", [], {"seed": "default"}, training),
                   context_shape={"sentences": "5", "reference_sentences": "10-14"})


def _records(schema: dict, node: dict, value, at: tuple, found: dict) -> None:
    """The first place (a key path) of ``value`` where each record of ``schema`` occurs, into ``found``."""
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[1]
        found.setdefault(name, at)
        node = schema["$defs"][name]
    for option in node.get("anyOf", ()):
        _records(schema, option, value, at, found)
    if isinstance(value, dict):
        for key, sub in node.get("properties", {}).items():
            if key in value:
                _records(schema, sub, value[key], (*at, key), found)
        if isinstance(node.get("additionalProperties"), dict):
            for key, item in value.items():
                _records(schema, node["additionalProperties"], item, (*at, key), found)
    if isinstance(value, list) and "items" in node:
        for i, item in enumerate(value):
            _records(schema, node["items"], item, (*at, i), found)


def _at(obj, at: tuple):
    for step in at:
        obj = obj[step] if isinstance(obj, (dict, list)) else getattr(obj, step)
    return obj


def test_every_key_the_schema_does_not_require_reads_as_its_published_default_when_absent():
    """Older files: drop any key the schema does not require from a file and it still reads, as the schema's default
    (``time_dependent`` and the official v2.0 names have none: derived, or not read back); drop a required key and
    the file is refused naming it."""
    schema = results_schema()
    full = json.loads(json.dumps(_rich().to_json()))
    found = {"Results": ()}
    _records(schema, schema, full, (), found)
    assert set(found) == set(schema["$defs"]) | {"Results"}  # the sample holds every record of the file
    checked = 0
    for name, at in found.items():
        record = schema if name == "Results" else schema["$defs"][name]
        for key, prop in record["properties"].items():
            obj = copy.deepcopy(full)
            if key not in _at(obj, at):
                continue
            del _at(obj, at)[key]
            if key in record.get("required", ()):
                with pytest.raises(ArtifactError, match=f"field '{key}' is missing"):
                    Results.from_json(obj, "results.json")
                continue
            back = Results.from_json(obj, "results.json")
            if "default" in prop:
                parent = _at(back, at)
                got = parent[key] if isinstance(parent, dict) else getattr(parent, key)
                assert got == prop["default"], (name, key)
                checked += 1
    assert checked > 100
    old = copy.deepcopy(full)
    del old["audit"]["training"]["time_dependent"]
    assert Results.from_json(old, "results.json").audit.training.time_dependent is False  # stopped by its step budget
    old["audit"]["training"]["stopped_by"] = "time_limit"
    assert Results.from_json(old, "results.json").audit.training.time_dependent is True


def test_the_rich_sample_round_trips():
    rich = _rich()
    back = Results.from_json(json.loads(json.dumps(rich.to_json())), "results.json")
    assert back == rich and back.audit.training.cpu_capability == "AVX2"
    assert isinstance(back.sets["original"], SetResult) and back.sets["original"].subsets["HasAns"].f1 == 70.0
    assert back.context_shape == {"sentences": "5", "reference_sentences": "10-14"}
