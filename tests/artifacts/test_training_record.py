"""The training record in results.json (issue 16): round trip, old files, and the loud warning in the
terminal table and the HTML report when the wall-clock cap stopped training."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from mrclens.artifacts.results import AuditRecord, InputFile, ModelRecord, Results, read_results, write_results
from mrclens.artifacts.training_record import TrainingRecord
from mrclens.errors import ArtifactError
from mrclens.reports.report import render_report
from mrclens.reports.table import format_table
from mrclens.scoring.evaluate import evaluate_perturbed
from perturbed_fixture import PREDICTIONS, make_perturbed_dir, write_predictions

WARNING = ("training was stopped by the wall-clock cap after 812 steps: results depend on machine speed and load "
           "and are not reproducible")


def _record(**over) -> TrainingRecord:
    values = dict(stopped_by="steps", steps=1700, epoch=7.87, epochs=10, max_steps=1700, max_minutes=None, seed=0,
                  device="cpu", processes=1, cpu_threads=2, deterministic_algorithms=True, time_dependent=False,
                  reproducible=True)
    return TrainingRecord(**{**values, **over})


@pytest.fixture()
def audit_dir(tmp_path):
    """A scored audit (real scoring of the shared perturbed fixture) whose reader stopped on its step budget."""
    out = tmp_path / "out"
    evaluation = evaluate_perturbed(
        make_perturbed_dir(tmp_path), write_predictions(tmp_path, dict(PREDICTIONS)), results_dir=out,
        model=ModelRecord("baseline", "co-attention BiLSTM", {"epochs": 10}), n_resamples=50,
        inputs=[InputFile("train", "train.json", "ab" * 32)], progress=False,
        audit=AuditRecord({"seed": 0}, None, "model", [], {}, training=_record()))
    write_results(evaluation.results, out)
    return out, evaluation.results


def test_round_trip_and_files_without_the_record(audit_dir):
    out, results = audit_dir
    on_disk = json.loads((out / "results.json").read_text())
    assert on_disk["audit"]["training"]["stopped_by"] == "steps" and on_disk["audit"]["training"]["format_version"] == 1
    assert read_results(out) == results
    del on_disk["audit"]["training"]  # a results.json written before issue 16
    (out / "results.json").write_text(json.dumps(on_disk))
    assert read_results(out).audit.training is None
    on_disk["audit"]["training"] = {"stopped_by": "clock", "steps": 1, "epoch": 0.1, "epochs": 1}
    (out / "results.json").write_text(json.dumps(on_disk))
    with pytest.raises(ArtifactError, match=r"results\.json.*audit: training: .*stopped_by"):
        read_results(out)


def test_step_budget_run_shows_a_summary_and_no_warning(audit_dir):
    out, results = audit_dir
    table = format_table(results)
    assert "training stopped after 1,700 steps (epoch 7.87): step budget of 1,700 reached [cpu, 2 thread(s), seed 0]" in table
    assert "WARNING" not in table
    page = render_report(out, results=results)
    assert 'id="training-summary"' in page and 'id="training-warning"' not in page


def test_time_capped_run_is_flagged_in_table_and_report(audit_dir):
    out, results = audit_dir
    capped = _record(stopped_by="time_limit", steps=812, epoch=3.76, max_steps=None, max_minutes=6.0,
                     time_dependent=True, reproducible=False)
    results = replace(results, audit=replace(results.audit, training=capped))
    assert f"WARNING: {WARNING}" in format_table(results).splitlines()[2]
    write_results(results, out)
    page = render_report(out)
    assert 'id="training-warning"' in page and WARNING in page
    # before the verdict: the first thing a reader sees
    assert page.index('id="training-warning"') < page.index('id="verdict"')
