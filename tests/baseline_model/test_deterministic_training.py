"""Deterministic training (issue 16): step budgets, a fixed thread count, deterministic algorithms,
and the training record (``stopped_by``) saved with the reader.

Trainings here are a few steps of a tiny reader on 32 real SQuAD v1.1 questions of the bundled sample.
"""

from __future__ import annotations

import json

import pytest
import torch

from mrclens.artifacts.training_record import TrainingRecord
from mrclens.baseline_model import Reader, train
from mrclens.baseline_model.checkpoint import read_training_record
from mrclens.errors import CheckpointError, MRCLensError

from reader_helpers import tiny_config


def _weights(reader) -> dict[str, torch.Tensor]:
    return {k: v.detach().clone() for k, v in reader.model.state_dict().items()}


def _same(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def _train(data, seed=0, **kw):
    # dropout on, so that the seed's dropout masks matter; 1 thread unless asked (fast on a shared machine)
    config = tiny_config(dropout=0.2, cpu_threads=kw.pop("threads", 1), max_steps=kw.pop("max_steps", 6))
    return train(data, config, seed=seed, device="cpu", progress=False, log=lambda line: None, **kw)


@pytest.fixture(scope="module")
def first_run(sample32):
    """Six steps on 2 threads, as the shipped profiles (2 threads need the deterministic algorithms)."""
    return _train(sample32, threads=2)


def test_same_seed_gives_bitwise_identical_weights(first_run, sample32):
    again = _train(sample32, threads=2)
    assert _same(_weights(first_run), _weights(again))
    assert first_run.predict(sample32, progress=False) == again.predict(sample32, progress=False)
    assert first_run.training == again.training


def test_no_kernel_reads_uninitialized_memory(first_run, sample32, monkeypatch):
    """Training skips torch's NaN fill of new tensors (issue 21: 18-20 % of a step); with the fill on,
    a kernel that read memory it had not written would change the weights. They are bitwise the same."""
    import torch.utils.deterministic as deterministic

    from mrclens.baseline_model import runtime

    before = deterministic.fill_uninitialized_memory
    monkeypatch.setattr(runtime, "FILL_UNINITIALIZED_MEMORY", True)
    filled = _train(sample32, threads=2)
    assert _same(_weights(first_run), _weights(filled))
    assert deterministic.fill_uninitialized_memory == before  # restored after training


def test_a_different_seed_gives_different_weights(first_run, sample32):
    other = _train(sample32, seed=1, threads=2)
    assert not _same(_weights(first_run), _weights(other))


def test_step_budget_stops_at_exactly_that_many_steps(first_run, sample32):
    steps: list[int] = []
    reader = _train(sample32, max_steps=5, on_step=lambda step, loss: steps.append(step))
    assert steps == [1, 2, 3, 4, 5]
    rec = reader.training
    assert (rec.stopped_by, rec.steps, rec.max_steps, rec.cpu_threads) == ("steps", 5, 5, 1)
    assert rec.reproducible and not rec.time_dependent and rec.deterministic_algorithms and rec.notice() is None
    # 32 questions in batches of 8: 4 steps per epoch, so step 5 lies in the second epoch
    assert [r["event"] for r in reader.training_log] == ["epoch", "step_limit"]
    assert [r["step"] for r in reader.training_log] == [4, 5] and rec.epoch == 1.25
    assert first_run.training.steps == 6 and first_run.training.stopped_by == "steps"


def test_epochs_and_step_marks(sample32):
    reader = _train(sample32, max_steps=None, epochs=2, dev=sample32, eval_at_steps=[2, 4, 6])
    rec = reader.training
    assert (rec.stopped_by, rec.steps, rec.epoch, rec.epochs, rec.max_steps) == ("epochs", 8, 2.0, 2, None)
    # the mark at step 4 coincides with the end of epoch 1: one evaluation there, not two
    assert [(r["event"], r["step"]) for r in reader.training_log] == [
        ("step_mark", 2), ("epoch", 4), ("step_mark", 6), ("epoch", 8)]
    assert all(r["dev_f1"] is not None for r in reader.training_log)


def test_time_cap_is_recorded_as_not_reproducible(sample32, tmp_path, caplog):
    reader = _train(sample32, max_steps=None, epochs=50, max_minutes=1e-6)
    rec = reader.training
    assert (rec.stopped_by, rec.steps, rec.max_minutes) == ("time_limit", 1, 1e-6)
    assert rec.time_dependent and not rec.reproducible
    assert rec.notice().startswith("training was stopped by the wall-clock cap after 1 steps: results depend on "
                                   "machine speed and load")
    assert reader.training_log[-1]["event"] == "time_limit"
    assert any("wall-clock cap" in r.getMessage() for r in caplog.records)
    # saved with the weights and read back
    d = reader.save(tmp_path / "m")
    assert json.loads((d / "training.json").read_text())["stopped_by"] == "time_limit"
    assert Reader.load(d, device="cpu").training == rec == read_training_record(d)


def test_training_record_file_errors(first_run, tmp_path):
    d = first_run.save(tmp_path / "m")
    (d / "training.json").write_text('{"stopped_by": "tired", "steps": 3, "epoch": 1.0, "epochs": 2}')
    with pytest.raises(CheckpointError, match=r"training\.json.*stopped_by"):
        Reader.load(d, device="cpu")
    (d / "training.json").unlink()  # a reader saved before issue 16
    assert Reader.load(d, device="cpu").training is None


def test_torch_settings_are_restored_and_threads_recorded(sample32):
    torch.set_num_threads(1)  # the autouse fixture's setting, restored after training on 2 threads
    before = (torch.get_num_threads(), torch.are_deterministic_algorithms_enabled())
    reader = _train(sample32, max_steps=1, threads=2)
    assert reader.training.cpu_threads == 2
    assert (torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()) == before


def test_bad_step_budget(sample32):
    with pytest.raises(MRCLensError, match="max_steps must be at least 1"):
        _train(sample32, max_steps=0)


def test_record_round_trip_and_defaults():
    rec = TrainingRecord(stopped_by="epochs", steps=40, epoch=10.0, epochs=10, max_steps=None, max_minutes=None,
                         seed=3, device="cpu", processes=1, cpu_threads=2, deterministic_algorithms=True,
                         time_dependent=False, reproducible=True)
    assert TrainingRecord.from_json(json.loads(json.dumps(rec.to_json())), "x") == rec
    assert rec.summary() == "training stopped after 40 steps (epoch 10): all 10 epochs done [cpu, 2 thread(s), seed 3]"
