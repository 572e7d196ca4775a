"""The audit's step ledger (mrclens.audit.ledger): step keys as earlier audits wrote them, and
``reuse_or_run`` reusing a step whose key matches and rerunning it when the key or its output changes."""

from __future__ import annotations

import json

import pytest

from mrclens.artifacts.audit_state import read_audit_state
from mrclens.artifacts.predictions import read_predictions, write_predictions
from mrclens.audit import SAMPLE_PATH, StepLedger, pipeline_versions, step_key
from mrclens.errors import MRCLensError
from mrclens.io_utils import sha256_file

#: ``audit-state.json`` ``"dataset"`` of the audit of CODAH's official folds that MRCLens wrote before the
#: ledger was its own module (``mrclens audit codah/``): a folder made then must still resume.
CODAH_FINGERPRINT = "4dd569101d3b10914358e936387bbb0422da5984893f790745b391bdc1a63f2f"
#: The span audit's fingerprint of the bundled sample split by title (seed 0, 20 % of the articles),
#: as the code before the ledger computed it.
SAMPLE_FINGERPRINT = "5f565354bcc1d370d5f68007e6f3a05f5ee95549aa6b9873fc2d038260a42fa7"


def test_keys_are_the_ones_earlier_audits_recorded(codah_dir):
    from mrclens.audit.multiple_choice import MCAuditOptions, load_folds, mc_fingerprint

    folds, inputs, split = load_folds(MCAuditOptions(data=str(codah_dir)))
    assert mc_fingerprint(inputs, split, folds) == CODAH_FINGERPRINT
    assert step_key([sha256_file(SAMPLE_PATH)], {"dev_fraction": 0.2, "seed": 0}) == SAMPLE_FINGERPRINT
    versions = pipeline_versions()
    assert versions["mrclens"] and {"spacy", "torch"} <= set(versions)


@pytest.fixture
def predict_step(tmp_path):
    """A prediction step as the span audit keys it: the reader's key and the perturbed set's sha256; its
    function writes a real official-format prediction file and counts its calls."""
    fingerprint = step_key([sha256_file(SAMPLE_PATH)], {"dev_fraction": 0.2, "seed": 0})
    model_key = step_key("train", fingerprint, 0, 0.05, {"profile_name": "quick"}, pipeline_versions())
    target = tmp_path / "out" / "predictions" / "original.json"
    calls = []

    def predict(answer: str = "the Dutch Republic"):
        calls.append(answer)
        write_predictions(target, {"56ddde6b9a695914005b9628": answer, "56ddde6b9a695914005b9629": "1588"})
        return answer

    return fingerprint, step_key("predict", model_key, sha256_file(SAMPLE_PATH)), target, predict, calls


def test_reuse_when_the_key_matches_rerun_when_it_differs(predict_step, tmp_path):
    fingerprint, key, target, predict, calls = predict_step
    out = tmp_path / "out"
    first = StepLedger(out, fingerprint, force=False).reuse_or_run("predict:original", key, predict, outputs=[target])
    assert (first.reused, first.value, calls) == (False, "the Dutch Republic", ["the Dutch Republic"])
    saved = json.loads((out / "audit-state.json").read_text())
    assert set(saved) == {"format_version", "dataset", "mrclens_version", "steps"}  # the file as before
    assert saved["dataset"] == fingerprint
    assert saved["steps"] == {"predict:original": {"key": key, "seconds": round(first.seconds, 3)}}

    # a re-run (a new ledger read from disk) with the same key and the output present: reused, not run
    again = StepLedger(out, fingerprint, force=False).reuse_or_run("predict:original", key, predict, outputs=[target])
    assert (again.reused, again.value, again.seconds) == (True, None, saved["steps"]["predict:original"]["seconds"])
    assert len(calls) == 1

    # another key (the reader changed): run again and recorded under the new key
    other_key = step_key("predict", "another reader", sha256_file(SAMPLE_PATH))
    ledger = StepLedger(out, fingerprint, force=False)
    rerun = ledger.reuse_or_run("predict:original", other_key, lambda: predict("1588"), outputs=[target])
    assert (rerun.reused, calls) == (False, ["the Dutch Republic", "1588"])
    assert read_audit_state(out).steps["predict:original"]["key"] == other_key
    assert read_predictions(target)["56ddde6b9a695914005b9628"] == "1588"

    # the same key with its output gone: run again
    target.unlink()
    assert not ledger.reuse_or_run("predict:original", other_key, predict, outputs=[target]).reused
    assert target.exists() and len(calls) == 3


def test_ledger_refuses_another_datasets_audit_unless_forced(predict_step, tmp_path):
    fingerprint, key, target, predict, _ = predict_step
    out = tmp_path / "out"
    StepLedger(out, fingerprint, force=False).reuse_or_run("predict:original", key, predict, outputs=[target])
    with pytest.raises(MRCLensError):
        StepLedger(out, CODAH_FINGERPRINT, force=False)
    forced = StepLedger(out, CODAH_FINGERPRINT, force=True)
    assert forced.steps == {} and not target.exists()  # predictions/ of the other audit removed
    assert forced.done("predict:original", key) is None
