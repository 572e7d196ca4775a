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
    ({"m1": "was loud."}, "question m1: the chosen ending must be a 0-based index"),
    ([{"id": "m1", "prediction_text": "was loud."}], "must be one JSON object"),
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


def test_the_docs_list_every_exit_code():
    text = (REPO / "docs" / "commands.md").read_text(encoding="utf-8")
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


# ------------------------------------------------------------------ 2. one output-folder policy
def test_perturb_into_an_earlier_runs_folder_leaves_no_stale_set(tmp_path):
    out, cache = tmp_path / "p", tmp_path / "cache"
    first = squad_file(tmp_path / "first.json", qids=("a1", "a2"))
    res = run("perturb", first, "--out", out, "--ablations", "e3,e4,e5", "--cache-dir", cache, "-q")
    assert res.exit_code == 0, res.output
    assert (out / "e4.json").is_file()
    (out / "my-notes.txt").write_text("the user's own file")
    other = squad_file(tmp_path / "other.json", qids=("b1", "b2", "b3"), title="Other")
    res = run("perturb", other, "--out", out, "--ablations", "e3", "--cache-dir", cache)
    assert res.exit_code == 0, res.output
    from mrclens.artifacts.manifest import read_manifest

    listed = set(read_manifest(out).set_files().values()) | {"manifest.json", "my-notes.txt"}
    assert "e3.json" in listed
    assert {p.name for p in out.iterdir()} == listed  # e4.json, e5.json of the first run are gone
    assert "removed 3 entries of an earlier `mrclens perturb` run" in res.output  # c4.json, e4.json, e5.json
    assert "c4.json, e4.json, e5.json" in res.output
    ids = {q["id"] for a in json.loads((out / "original.json").read_text())["data"]
           for p in a["paragraphs"] for q in p["qas"]}
    assert ids == {"b1", "b2", "b3"}


def test_a_folder_holding_something_else_is_refused_before_any_work(tmp_path, monkeypatch):
    import mrclens.formats as formats

    out = tmp_path / "p"
    out.mkdir()
    (out / "thesis.tex").write_text("")
    monkeypatch.setattr(formats, "load_dataset", lambda *a, **k: pytest.fail("data loaded before the check"))
    for args in (["perturb", squad_file(tmp_path / "d.json"), "--out", out],
                 ["compare", tmp_path / "d.json", tmp_path / "d.json", "--out", out]):
        res = run(*args)
        assert res.exit_code == errors.EXIT_BAD_INPUT, res.output
        assert f"{out} is not empty" in res.output and "thesis.tex" in res.output
    assert [p.name for p in out.iterdir()] == ["thesis.tex"]


def test_folder_kinds_own_only_their_entries(tmp_path):
    from mrclens.artifacts.folders import PERTURB, PREDICTIONS, SELFTEST, remove_stale

    for name in ("e1.json", "e4.json", "e4.jsonl", "manifest.json", "notes.json", "draw-1"):
        (tmp_path / name).mkdir() if name.startswith("draw") else (tmp_path / name).write_text("{}")
    removed = remove_stale(tmp_path, PERTURB, ["e1.json", "manifest.json"])
    assert sorted(p.name for p in removed) == ["e4.json", "e4.jsonl"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["draw-1", "e1.json", "manifest.json", "notes.json"]
    assert [p.name for p in remove_stale(tmp_path, PREDICTIONS, ["e1.json"])] == ["draw-1"]
    assert not SELFTEST.owns_name("results.json")


# ------------------------------------------------------------------ 4. check --with-audit of another dataset
def test_check_refuses_an_audit_of_another_dataset(tmp_path):
    from mrclens.artifacts.results import BootstrapSettings, InputFile, ModelRecord, Results
    from mrclens.io_utils import sha256_file

    audited = squad_file(tmp_path / "audited.json", qids=("a1",))
    data = squad_file(tmp_path / "data.json", qids=("d1", "d2"))
    audit = tmp_path / "audit"
    audit.mkdir()
    results = Results(mrclens_version="0.1.0", created="2026-01-01T00:00:00Z", seed=0,
                      model=ModelRecord("baseline", "reader"), bootstrap=BootstrapSettings(1000, 0.95, 0),
                      inputs=[InputFile("train", str(audited), sha256_file(audited))])
    (audit / "results.json").write_text(json.dumps(results.to_json()))
    res = run("check", data, "--with-audit", audit, "--cache-dir", tmp_path / "cache")
    assert res.exit_code == errors.EXIT_BAD_INPUT, res.output
    assert str(audit) in res.output and str(audited) in res.output and str(data) in res.output


# ------------------------------------------------------------------ 5. a cache with garbled pages
def test_a_cache_with_an_intact_header_and_garbled_pages_is_moved_aside(tmp_path):
    import sqlite3

    data, cache = squad_file(tmp_path / "d.json"), tmp_path / "cache"
    assert run("perturb", data, "--out", tmp_path / "p1", "--ablations", "e3", "--cache-dir", cache, "-q").exit_code == 0
    path = cache / "parses-v2.sqlite"
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    raw = bytearray(path.read_bytes())
    assert len(raw) > 4096
    raw[4096:] = bytes((i * 7) & 0xFF for i in range(4096, len(raw)))  # page 1 (the header) intact
    path.write_bytes(bytes(raw))
    res = run("perturb", data, "--out", tmp_path / "p2", "--ablations", "e3", "--cache-dir", cache)
    assert res.exit_code == 0, res.output
    assert "malformed" in res.output and "moved it to" in res.output
    assert list(cache.glob("parses-v2.sqlite.damaged-*"))
    assert (tmp_path / "p2" / "e3.json").read_bytes() == (tmp_path / "p1" / "e3.json").read_bytes()


# ------------------------------------------------------------------ 8. bytes that are not UTF-8
def test_text_and_file_names_that_are_not_utf8_exit_2(tmp_path):
    data = squad_file(tmp_path / "d.json")
    bad = "model-\udcff"  # how Python decodes the byte 0xff of a command line
    res = run("compare", data, data, "--names", f"a{bad},b", "--out", tmp_path / "c")
    assert res.exit_code == errors.EXIT_BAD_INPUT and "--names" in res.output and "0xff" in res.output
    res = run("evaluate", tmp_path, "--predictions-dir", tmp_path, "--model-name", bad, "--out", tmp_path / "e")
    assert res.exit_code == errors.EXIT_BAD_INPUT and "--model-name" in res.output and "not valid UTF-8" in res.output
    res = run("stats", data, "--out", tmp_path / f"stats-{bad}.json")
    assert res.exit_code == errors.EXIT_BAD_INPUT and "0xff" in res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.json"]


# ------------------------------------------------------------------ 9, 12, 14: model folders, fail before work
@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    """A tiny reader trained for one epoch on 12 real questions of the bundled sample, and that data."""
    import torch

    from mrclens.baseline_model import ReaderConfig, train
    from mrclens.formats import load_dataset
    from mrclens.squad import Article, Dataset, Paragraph, write_dataset

    folder = tmp_path_factory.mktemp("tiny")
    sample = load_dataset(REPO / "mrclens" / "data" / "squad-v1.1-sample.json.gz")
    paragraphs = sorted((p for a in sample.articles for p in a.paragraphs), key=lambda p: len(p.context))[:4]
    small = Dataset([Article("sample", [Paragraph(p.context, p.questions[:3]) for p in paragraphs])], "1.1")
    data = write_dataset(small, folder / "small.json")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        config = ReaderConfig(hidden=8, char_filters=8, dropout=0.0, batch_size=8, lr=0.01, profile_name="test-tiny")
        train(small, config, epochs=1, seed=0, device="cpu", progress=False).save(folder / "model")
    finally:
        torch.set_num_threads(threads)
    return folder / "model", Path(data)


def _copy_model(model: Path, target: Path) -> Path:
    import shutil

    return Path(shutil.copytree(model, target))


def test_model_folders_with_foreign_or_corrupt_files_exit_2_naming_the_file(tiny_model, tmp_path):
    import torch

    model, data = tiny_model
    foreign = _copy_model(model, tmp_path / "foreign")
    saved = torch.load(model / "weights.pt", weights_only=True)
    torch.save({key: saved[key] for key in ("format", "architecture", "state_dict")}, foreign / "weights.pt")
    corrupt = _copy_model(model, tmp_path / "corrupt")
    (corrupt / "training_log.json").write_text('[{"epoch": 1,')
    for folder, name, what in ((foreign, "weights.pt", "vocab_sha256"), (corrupt, "training_log.json", "")):
        out = tmp_path / f"{folder.name}.json"
        res = run("predict", folder, data, "--out", out, "--device", "cpu")
        assert res.exit_code == errors.EXIT_BAD_INPUT, res.output
        assert str(folder / name) in res.output and what in res.output and not out.exists()
    res = run("audit", data, "--dev", data, "--model", foreign, "--out", tmp_path / "audit", "--device", "cpu",
              "--cache-dir", tmp_path / "cache")
    assert res.exit_code == errors.EXIT_BAD_INPUT and str(foreign / "weights.pt") in res.output
    assert not (tmp_path / "audit").exists()  # noticed before perturbing: no audit-state.json, no perturbed/


@pytest.mark.parametrize("content", ['{"name": "x"}', '[1]', '{"format_version": 9, "name": "x", "figures": {}}'])
def test_a_bad_reference_leaves_no_out_folder(tmp_path, content):
    ref = tmp_path / "ref.json"
    ref.write_text(content)
    res = run("audit", "--reference", ref, "--out", tmp_path / "audit", "--cache-dir", tmp_path / "cache")
    assert res.exit_code == errors.EXIT_BAD_INPUT and str(ref) in res.output
    assert not (tmp_path / "audit").exists() and not (tmp_path / "cache").exists()


def test_selftest_refuses_an_unknown_profile_at_once(tmp_path):
    res = run("selftest", "--profile", "bogus", "--out", tmp_path / "st")
    assert res.exit_code == errors.EXIT_BAD_INPUT and "bogus" in res.output
    assert not (tmp_path / "st").exists()
    from mrclens.selftest.runner import run_selftest

    with pytest.raises(errors.MRCLensError, match="unknown reader profile 'bogus'"):
        run_selftest(tmp_path / "st", profile="bogus")
    assert not (tmp_path / "st").exists()


def test_on_invalid_on_train_predict_and_evaluate(tiny_model, tmp_path):
    model, data = tiny_model
    doc = json.loads(data.read_text())
    qa = doc["data"][0]["paragraphs"][0]["qas"][0]
    qa["answers"][0]["answer_start"] += 1000  # outside the context: an invalid question
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    res = run("predict", model, bad, "--out", tmp_path / "p.json", "--device", "cpu")
    assert res.exit_code == errors.EXIT_BAD_INPUT and qa["id"] in res.output
    res = run("predict", model, bad, "--out", tmp_path / "p.json", "--device", "cpu", "--on-invalid", "skip")
    assert res.exit_code == 0, res.output
    preds = json.loads((tmp_path / "p.json").read_text())
    assert qa["id"] not in preds and len(preds) == 11 and "1 invalid question(s) skipped" in res.output
    res = run("evaluate", bad, tmp_path / "p.json", "--on-invalid", "skip", "--json")
    assert res.exit_code == 0, res.output and "skipped" in res.output
    res = run("train", bad, "--out", tmp_path / "m", "--profile", "quick", "--max-steps", "1", "--device", "cpu",
              "--threads", "1", "--on-invalid", "skip")
    assert res.exit_code == 0, res.output
    assert "1 invalid question(s) skipped" in res.output and (tmp_path / "m" / "weights.pt").is_file()


# ------------------------------------------------------------------ issue 42, item 12: references, --model, re-checked
def _bundled_reference() -> dict:
    from mrclens.artifacts.reference import BUNDLED_REFERENCE

    return json.loads(BUNDLED_REFERENCE.read_text(encoding="utf-8"))


def _first_strata_figure(ref: dict) -> str:
    return next(k for k, v in ref["figures"].items() if v.get("strata"))


@pytest.mark.parametrize("where", ["audit ablation ci_low", "figure se", "stratum mean", "structure_sd"])
def test_a_reference_with_nan_or_infinity_anywhere_is_refused_naming_file_and_field(tmp_path, where):
    ref = _bundled_reference()
    e1 = ref["audits"]["quick"]["ablations"]["e1"]
    figure = _first_strata_figure(ref)
    if where == "audit ablation ci_low":
        e1["ci_low"], says = float("nan"), "audit quick: ablation e1: field 'ci_low' is nan, not a finite number"
    elif where == "figure se":
        ref["figures"][figure]["se"], says = float("inf"), f"figure {figure}: field 'se' is inf, not a finite number"
    elif where == "stratum mean":
        ref["figures"][figure]["strata"]["2"][1], says = float("nan"), f"figure {figure}: stratum '2' must be"
    else:
        ref["audits"]["quick"]["structure_sd"]["Position"] = float("-inf")
        says = "audit quick: structure_sd of 'Position' must be a finite number"
    path = tmp_path / "ref.json"
    path.write_text(json.dumps(ref))  # Python writes NaN / Infinity, as a hand-edited file might hold
    out = tmp_path / "audit"
    res = run("audit", "--reference", path, "--out", out, "--cache-dir", tmp_path / "cache")
    assert res.exit_code == errors.EXIT_BAD_INPUT, res.output
    assert str(path) in res.output and says in res.output
    assert not out.exists()


@pytest.mark.parametrize("version, says", [
    (0, "format version 0 is not one MRCLens writes"), (-1, "format version -1 is not one MRCLens writes"),
    (4, "written by a newer MRCLens (format version 4; this version reads up to 3)"),
    ("2", "field 'format_version' is missing or has the wrong type"), (2.0, "field 'format_version' is missing"),
    (True, "field 'format_version' is missing")])
def test_a_reference_of_another_format_version_exits_2_before_any_work(tiny_model, tmp_path, version, says):
    _, data = tiny_model
    ref = _bundled_reference()
    ref["format_version"] = version
    path = tmp_path / "ref.json"
    path.write_text(json.dumps(ref))
    out = tmp_path / "audit"
    # the options keep the audit small in case the reference were accepted (before issue 42: versions 0 and -1)
    res = run("audit", data, "--dev", data, "--reference", path, "--out", out, "--cache-dir", tmp_path / "cache",
              "--profile", "quick", "--max-steps", "1", "--perturb-seeds", "1", "--ablations", "e1", "--resamples", "20",
              "--device", "cpu")
    assert res.exit_code == errors.EXIT_BAD_INPUT, res.output
    assert str(path) in res.output and says in res.output
    assert not out.exists()


def test_audit_model_of_another_profile_is_refused_or_recorded_as_its_own(tiny_model, tmp_path):
    """The tiny reader's config.json says profile "test-tiny". Before issue 42 the audit recorded the default
    profile (paper-parallel) for it, the summary named that profile, and nothing said that its drops were not
    read against the reference."""
    model, data = tiny_model
    common = ("--dev", data, "--model", model, "--device", "cpu", "--cache-dir", tmp_path / "cache",
              "--perturb-seeds", "1", "--ablations", "e1", "--resamples", "50")
    res = run("audit", data, *common, "--profile", "quick", "--out", tmp_path / "refused")
    assert res.exit_code == errors.EXIT_BAD_INPUT, res.output
    assert f"--model {model}" in res.output and "test-tiny reader profile" in res.output and "not quick" in res.output
    assert not (tmp_path / "refused").exists()  # before any work

    out = tmp_path / "audit"
    res = run("audit", data, *common, "--out", out)
    assert res.exit_code == 0, res.output
    assert "baseline reader, test-tiny profile" in res.output
    results = json.loads((out / "results.json").read_text())
    assert results["audit"]["options"]["profile"] == "test-tiny"
    assert results["audit"]["option_sources"]["profile"] == f"--model {model} (its config.json)"
    [note] = [w for w in results["warnings"] if w.startswith(f"--model {model}")]
    assert "the test-tiny profile" in note and "not read against SQuAD v1.1's audits" in note
    assert all(c.get("reference_bias") is None for c in results["categories"])
