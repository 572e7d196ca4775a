"""The multiple-choice audit end to end on real CODAH rows (issue 20): folds, perturbed sets,
cross-validated predictions, accuracy scoring through the span audit's code, report and CLI."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mrclens.artifacts.results import read_results
from mrclens.formats.multiple_choice import load_mc_dataset, write_jsonl

# a module fixture of several seconds: left out of `make test`, run by `make test-slow` and CI
pytestmark = pytest.mark.slow



@pytest.fixture(scope="module")
def small_codah(codah_dir, tmp_path_factory) -> Path:
    data = load_mc_dataset(codah_dir / "full_data.tsv.gz")
    data.questions = data.questions[:160]
    path = tmp_path_factory.mktemp("codah") / "codah-160.jsonl"
    write_jsonl(data, path)
    return path


@pytest.fixture(scope="module")
def audited(small_codah, tmp_path_factory):
    from mrclens.audit import MCAuditOptions, run_mc_audit

    out = tmp_path_factory.mktemp("audit") / "out"
    options = MCAuditOptions(data=str(small_codah), out=str(out), seed=0, n_folds=4, folds=[0, 1], epochs=1,
                             perturb_seeds=1, n_resamples=200, device="cpu", progress=False,
                             cache_dir=str(tmp_path_factory.mktemp("cache")))
    return out, run_mc_audit(options), options


def test_audit_scores_accuracy_with_the_span_scoring(audited):
    out, results, _ = audited
    assert results.task == "multiple_choice" and results.metric == "accuracy"
    saved = read_results(out)
    assert saved.task == "multiple_choice"
    # the evaluation set is the two folds' test parts: 2 x 160 / 4 = 80 questions
    original = saved.sets["original"]
    assert original.n == 80 and original.evaluated
    # accuracy recomputed from the prediction file and the gold labels
    preds = json.loads((out / "predictions" / "original.json").read_text())
    gold = {q.id: q.label for q in load_mc_dataset(out / "perturbed" / "original.jsonl").questions}
    assert set(preds) == set(gold) and all(isinstance(v, int) for v in preds.values())
    acc = 100.0 * np.mean([preds[q] == gold[q] for q in gold])
    assert original.f1 == pytest.approx(acc) and original.exact_match == pytest.approx(acc)
    m1 = saved.ablation("m1")
    assert m1.evaluated and m1.baseline_f1 == pytest.approx(acc)
    assert m1.f1_drop == pytest.approx(m1.baseline_f1 - m1.f1, abs=1e-3)
    assert m1.ci_low <= m1.f1_drop <= m1.ci_high
    assert "F1" not in (m1.reading or "") and "accuracy" in (m1.reading or "")
    m4 = saved.ablation("m4")
    assert m4.control == "mc4" and m4.excess_drop is not None
    assert {c.category for c in saved.categories} == {"Question", "Keyword"}


def test_section_has_folds_categories_and_heuristics(audited):
    out, results, _ = audited
    mc = read_results(out).sections["multiple_choice"]
    assert [f["name"] for f in mc["folds"]] == ["fold_0", "fold_1"]
    assert all(f["n"] == 40 and f["train"] == 80 and f["dev"] == 40 and f["ci_low"] <= f["accuracy"] <= f["ci_high"]
               for f in mc["folds"])
    assert mc["accuracy_mean"] == pytest.approx(np.mean([f["accuracy"] for f in mc["folds"]]), abs=1e-3)
    assert mc["chance"] == 25.0
    assert sum(c["original"]["n"] for c in mc["categories"].values()) >= 80
    assert "longest_ending" in mc["stats"]["heuristics"]


def test_report_and_rerun_reuse(audited):
    from mrclens.audit import run_mc_audit

    out, results, options = audited
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "accuracy drop" in html and "Prompt · original" in html
    before = (out / "predictions" / "m1.json").stat().st_mtime_ns
    again = run_mc_audit(options)  # every step reused: same numbers, prediction files untouched
    assert (out / "predictions" / "m1.json").stat().st_mtime_ns == before
    assert again.ablation("m1").f1_drop == results.ablation("m1").f1_drop


def test_evaluate_any_models_choices(audited, tmp_path):
    """`mrclens evaluate PERTURBED_DIR --predictions-dir` scores any model's {id: index} files."""
    from click.testing import CliRunner

    from mrclens.cli import main

    out, _, _ = audited
    preds = tmp_path / "preds"
    preds.mkdir()
    for f in (out / "perturbed").glob("*.jsonl"):
        ds = load_mc_dataset(f)
        (preds / f"{f.stem}.json").write_text(json.dumps({q.id: 0 for q in ds.questions}))
    res = CliRunner().invoke(main, ["evaluate", str(out / "perturbed"), "--predictions-dir", str(preds),
                                    "--out", str(tmp_path / "ev"), "--resamples", "50"])
    assert res.exit_code == 0, res.output
    saved = read_results(tmp_path / "ev")
    gold = load_mc_dataset(out / "perturbed" / "original.jsonl")
    expected = 100.0 * np.mean([q.label == 0 for q in gold.questions])
    assert saved.sets["original"].f1 == pytest.approx(expected)
    one = CliRunner().invoke(main, ["evaluate", str(out / "perturbed" / "original.jsonl"), str(preds / "original.json")])
    assert one.exit_code == 0 and json.loads(one.output)["accuracy"] == pytest.approx(expected)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({gold.questions[0].id: "B"}))
    res = CliRunner().invoke(main, ["evaluate", str(out / "perturbed" / "original.jsonl"), str(bad)])
    assert res.exit_code == 2 and "bad.json" in res.output and "Traceback" not in res.output


def test_cli_refuses_span_options(small_codah, tmp_path):
    from click.testing import CliRunner

    from mrclens.cli import main

    res = CliRunner().invoke(main, ["audit", str(small_codah), "--profile", "quick", "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and "--profile" in res.output
    empty = tmp_path / "not-folds"
    empty.mkdir()
    res = CliRunner().invoke(main, ["audit", str(empty), "--out", str(tmp_path / "o2")])
    assert res.exit_code == 2 and "is a folder" in res.output and "Traceback" not in res.output


def test_a_rerun_with_fewer_draws_leaves_no_stale_draw_or_prediction(small_codah, tmp_path):
    """No stale output: predictions and perturbed sets of a draw the new run does not make are removed
    (with a warning), as the span audit does."""
    from mrclens.audit import MCAuditOptions, run_mc_audit

    out = tmp_path / "out"
    common = dict(data=str(small_codah), out=str(out), seed=0, n_folds=4, folds=[0], epochs=1, n_resamples=50,
                  device="cpu", progress=False, cache_dir=str(tmp_path / "cache"))
    run_mc_audit(MCAuditOptions(perturb_seeds=2, **common))
    assert (out / "predictions" / "draw-1" / "original.json").is_file() and (out / "perturbed" / "draw-1").is_dir()
    results = run_mc_audit(MCAuditOptions(perturb_seeds=1, **common))
    assert not (out / "predictions" / "draw-1").exists() and not (out / "perturbed" / "draw-1").exists()
    assert (out / "predictions" / "original.json").is_file()
    assert [r.draw for r in results.replicates] in ([], [0])
