"""`mrclens train` and `mrclens predict` through the real CLI, scored with `mrclens evaluate`."""

from __future__ import annotations

import json

from click.testing import CliRunner

from mrclens.cli import main
from mrclens.squad import write_dataset


def test_train_predict_evaluate_round_trip(sample32, tmp_path):
    data = write_dataset(sample32, tmp_path / "train.json")
    model = tmp_path / "model"
    res = CliRunner().invoke(main, ["train", str(data), "--out", str(model), "--dev", str(data), "--epochs", "2",
                                    "--profile", "quick", "--device", "cpu", "--seed", "3", "--threads", "1"])
    assert res.exit_code == 0, res.output
    assert "dev EM" in res.output and "exact-match features off" in res.output
    assert (model / "weights.pt").is_file() and json.loads((model / "config.json").read_text())["profile_name"] == "quick"
    log = json.loads((model / "training_log.json").read_text())
    assert [r["epoch"] for r in log] == [1, 2]
    preds_file = tmp_path / "preds.json"
    res = CliRunner().invoke(main, ["predict", str(model), str(data), "--out", str(preds_file), "--device", "cpu"])
    assert res.exit_code == 0, res.output
    preds = json.loads(preds_file.read_text())
    assert sorted(preds) == sorted(q.id for _, _, q in sample32.iter_questions())
    res = CliRunner().invoke(main, ["evaluate", str(data), str(preds_file)])
    assert res.exit_code == 0
    f1 = json.loads(res.output.splitlines()[0])["f1"]
    assert abs(f1 - max(r["dev_f1"] for r in log)) < 0.01  # the kept epoch is the best one on --dev


def test_bad_inputs_exit_2_without_traceback(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"data": [{"title": "T", "paragraphs": [{"context": "Red fox.", "qas": [
        {"id": "q1", "question": "What?", "answers": [{"text": "fox", "answer_start": 1}]}]}]}]}))
    res = CliRunner().invoke(main, ["train", str(bad), "--out", str(tmp_path / "m")])
    assert res.exit_code == 2 and "q1" in res.output and "Traceback" not in res.output
    assert not (tmp_path / "m").exists()
    (tmp_path / "empty_model").mkdir()
    res = CliRunner().invoke(main, ["predict", str(tmp_path / "empty_model"), str(bad), "--out", str(tmp_path / "p.json")])
    assert res.exit_code == 2 and "not a reader checkpoint" in res.output
    assert not (tmp_path / "p.json").exists()
