"""Issue 35, the CLI side: no crash, no silent loss, no stale output, fail before work.

Each test reproduces one defect of the issue with small data (tiny files written in ``tmp_path``,
the bundled sample's first articles) and asserts the exit code, the message (file and item named)
and that nothing is left behind.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mrclens import errors
from mrclens.cli import main

REPO = Path(__file__).resolve().parents[2]


def run(*args: str, **kwargs):
    return CliRunner().invoke(main, [str(a) for a in args], **kwargs)


def squad_file(path: Path, qids=("q1", "q2", "q3"), title="Tiny") -> Path:
    """A small valid SQuAD v1.1 file: one paragraph, one question per id (answer 'Paris')."""
    context = "Paris is the capital of France. It lies on the Seine. Many people visit it every year."
    qas = [{"id": q, "question": f"Which city is the capital of France ({q})?",
            "answers": [{"text": "Paris", "answer_start": 0}]} for q in qids]
    path.write_text(json.dumps({"version": "1.1", "data": [{"title": title, "paragraphs": [
        {"context": context, "qas": qas}]}]}), encoding="utf-8")
    return path


def mc_file(path: Path) -> Path:
    rows = [{"id": f"m{i}", "prompt": "The dog barked. It", "endings": ["was loud.", "flew.", "sang opera.", "melted."],
             "label": i % 4} for i in range(4)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


# ------------------------------------------------------------------ 3. evaluate's checks on predictions
def test_evaluate_refuses_predictions_for_another_split_also_with_json(tmp_path):
    data = squad_file(tmp_path / "dev.json")
    preds = tmp_path / "p.json"
    preds.write_text(json.dumps({"other1": "Paris", "other2": "Lyon"}))
    for extra in ((), ("--json",)):
        res = run("evaluate", data, preds, *extra)
        assert res.exit_code == errors.EXIT_BAD_INPUT, res.output
        line = res.output.strip().splitlines()[-1]
        assert str(preds) in line and str(data) in line and "none of its 2 prediction ids" in line


def test_evaluate_warns_on_stderr_about_a_partial_mismatch_also_with_json(tmp_path):
    data = squad_file(tmp_path / "dev.json")
    preds = tmp_path / "p.json"
    preds.write_text(json.dumps({"q1": "Paris", "q2": "Paris", "stray": "Lyon"}))
    res = CliRunner().invoke(main, ["evaluate", str(data), str(preds), "--json"])
    assert res.exit_code == 0, res.stderr
    assert json.loads(res.stdout)["exact_match"] == pytest.approx(200 / 3)
    assert "1 question(s) have no prediction" in res.stderr and "1 prediction(s) are for question ids not in" in res.stderr


@pytest.mark.parametrize("preds, what", [
    ({"m0": 7}, "question m0: ending index 7 is not one of its 4 endings"),
    ([{"id": "m1", "prediction_text": "was loud."}], "question m1: the chosen ending must be a 0-based index"),
    ({"m0": -1}, "question m0: the chosen ending must be a 0-based index"),
    ({"x": 0, "y": 1}, "none of its 2 prediction ids"),
])
def test_multiple_choice_evaluate_refuses_bad_indices_text_and_unknown_ids(tmp_path, preds, what):
    data = mc_file(tmp_path / "mc.jsonl")
    path = tmp_path / "p.json"
    path.write_text(json.dumps(preds))
    res = run("evaluate", data, path, "--json")
    assert res.exit_code == errors.EXIT_BAD_INPUT, res.output
    assert what in res.output and str(path) in res.output


def test_multiple_choice_evaluate_scores_valid_indices(tmp_path):
    data = mc_file(tmp_path / "mc.jsonl")
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"m0": 0, "m1": 1, "m2": 0, "m3": 3}))
    res = run("evaluate", data, path, "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["accuracy"] == 75.0


# ------------------------------------------------------------------ 10. broken pipe and Ctrl-C
def test_a_broken_pipe_exits_141_without_crash_log_or_traceback(tmp_path):
    data = squad_file(tmp_path / "dev.json", qids=[f"q{i}" for i in range(2000)])
    code = ("import sys\nfrom mrclens.cli import main\nsys.argv = ['mrclens', *sys.argv[1:]]\nmain()\n")
    env = {**os.environ, "PYTHONPATH": str(REPO), "MRCLENS_CRASH_DIR": str(tmp_path / "crash")}
    for args in (["validate", str(data), "--json"], ["--help"]):
        proc = subprocess.run(["/bin/bash", "-c", 'set -o pipefail; "$@" | head -c 0; echo "${PIPESTATUS[0]}"', "x",
                               sys.executable, "-c", code, *args], capture_output=True, text=True, env=env)
        assert proc.stdout.strip() == str(errors.EXIT_BROKEN_PIPE), proc.stderr
        assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    assert not (tmp_path / "crash").exists() or not list((tmp_path / "crash").iterdir())


def test_ctrl_c_exits_130_with_one_line_and_leaves_no_partial_output(tmp_path, monkeypatch):
    import mrclens.perturbations.driver as driver

    def interrupted(dataset, out, **kwargs):
        (out / "original.json").write_text("{}")  # a file half-way through the run, in the staging folder
        raise KeyboardInterrupt

    monkeypatch.setattr(driver, "_write_all", interrupted)
    out = tmp_path / "out"
    res = run("perturb", squad_file(tmp_path / "dev.json"), "--out", out, "--cache-dir", tmp_path / "cache")
    assert res.exit_code == errors.EXIT_INTERRUPTED
    assert res.output.strip().splitlines()[-1] == "interrupted" and "Aborted" not in res.output
    assert not out.exists()


def test_readme_lists_every_exit_code():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    for code in (errors.EXIT_OK, errors.EXIT_CHECK_FAILED, errors.EXIT_BAD_INPUT, errors.EXIT_INTERNAL,
                 errors.EXIT_INTERRUPTED, errors.EXIT_BROKEN_PIPE):
        assert f"\n| {code} |" in text, code


# ------------------------------------------------------------------ 11. non-finite numbers, reader options
@pytest.mark.parametrize("args", [
    ["train", "TRAIN", "--out", "OUT", "--max-minutes", "nan"],
    ["audit", "--max-minutes", "inf", "--out", "OUT"],
    ["audit", "--dev-fraction", "nan", "--out", "OUT"],
    ["compare", "TRAIN", "TRAIN", "--confidence", "nan", "--out", "OUT"],
])
def test_float_options_refuse_nan_and_infinity(tmp_path, args):
    data = squad_file(tmp_path / "train.json")
    args = [str(data) if a == "TRAIN" else str(tmp_path / "out") if a == "OUT" else a for a in args]
    res = run(*args)
    assert res.exit_code == errors.EXIT_BAD_INPUT, res.output
    assert "is not a finite number" in res.output
    assert not (tmp_path / "out").exists()


def test_config_file_nan_is_refused(tmp_path):
    config = tmp_path / "c.toml"
    config.write_text("max-minutes = nan\n")
    res = run("train", squad_file(tmp_path / "t.json"), "--out", tmp_path / "out", "--config", config)
    assert res.exit_code == errors.EXIT_BAD_INPUT and "max-minutes" in res.output and "finite" in res.output


def test_json_writers_refuse_nan(tmp_path):
    from mrclens.io_utils import atomic_write_json, json_text

    with pytest.raises(errors.InternalError, match=r"figures\.f1\[1\] is not a finite number"):
        atomic_write_json(tmp_path / "x.json", {"figures": {"f1": [1.0, math.nan]}})
    assert not list(tmp_path.iterdir())
    assert json_text({"a": 1.5}) == '{"a": 1.5}'


def test_a_reference_with_nan_figures_is_refused_naming_file_and_field(tmp_path):
    from mrclens.artifacts.reference import BUNDLED_REFERENCE

    ref = json.loads(BUNDLED_REFERENCE.read_text(encoding="utf-8"))
    figure = next(iter(ref["figures"]))
    ref["figures"][figure]["value"] = float("nan")
    path = tmp_path / "ref.json"
    path.write_text(json.dumps(ref))  # Python writes NaN, as a hand-edited file might hold
    out = tmp_path / "audit"
    res = run("audit", "--reference", path, "--out", out, "--cache-dir", tmp_path / "cache")
    assert res.exit_code == errors.EXIT_BAD_INPUT, res.output
    assert str(path) in res.output and f"figure {figure}" in res.output and "not a finite number" in res.output
    assert not out.exists()


@pytest.mark.parametrize("option, allowed", [("id_field=bogus", "qid, id"), ("merge_duplicates=perhaps", "true, false"),
                                             ("on_no_span=ignore", "error, drop")])
def test_mrqa_options_refuse_unknown_values(tmp_path, option, allowed):
    src = tmp_path / "shard.jsonl"
    src.write_text(json.dumps({"header": {"dataset": "SQuAD", "split": "dev"}}) + "\n" + json.dumps(
        {"context": "Paris is the capital of France.", "qas": [{"qid": "q1", "question": "What is the capital?",
         "answers": ["Paris"], "detected_answers": [{"text": "Paris", "char_spans": [[0, 4]]}]}]}) + "\n")
    res = run("convert", src, tmp_path / "out.json", "--to", "squad", "-o", option)
    assert res.exit_code == errors.EXIT_BAD_INPUT, res.output
    assert option.split("=")[0] in res.output and allowed in res.output
    assert not (tmp_path / "out.json").exists()
