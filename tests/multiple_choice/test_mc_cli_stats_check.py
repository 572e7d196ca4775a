"""``mrclens stats`` and ``mrclens check`` on multiple-choice data (issue 20), through click's CliRunner.

Data: CODAH (Chen et al. 2019), ``shared/data/codah/full_data.tsv.gz`` and ``cv_split/fold_k``;
skipped when absent. Exit codes: 0 every rule passes, 1 a rule fails, 2 bad input.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mrclens.artifacts.results import AblationResult, BootstrapSettings, CategoryResult, ModelRecord, Results
from mrclens.cli import main
from mrclens.errors import EXIT_BAD_INPUT, EXIT_CHECK_FAILED, EXIT_OK

@pytest.fixture(scope="module")
def full(codah_dir) -> Path:
    return codah_dir / "full_data.tsv.gz"


@pytest.fixture(scope="module")
def folder(codah_dir) -> Path:
    return codah_dir / "cv_split"


def run(*args: str):
    return CliRunner().invoke(main, [*map(str, args)])


def _rules(tmp_path: Path, text: str) -> Path:
    f = tmp_path / "rules.toml"
    f.write_text(text, encoding="utf-8")
    return f


def _mc_audit(tmp_path: Path, drop: float) -> Path:
    """An audit directory whose results.json holds one multiple-choice ablation (m1) with this accuracy drop."""
    results = Results(
        mrclens_version="0.1.0", created="2026-01-01T00:00:00Z", seed=0, model=ModelRecord("baseline", "mc reader"),
        bootstrap=BootstrapSettings(1000, 0.95, 0), task="multiple_choice",
        ablations=[AblationResult("m1", "answer only", "Prompt", "full", "original", "small_drop", evaluated=True,
                                  f1_drop=drop, ci_low=drop - 3, ci_high=drop + 3)],
        categories=[CategoryResult("Prompt", ["m1"], ["m1"], drop, None, None)],
    )
    out = tmp_path / "audit"
    out.mkdir()
    (out / "results.json").write_text(json.dumps(results.to_json()))
    return out


# ---------------------------------------------------------------- mrclens stats


def test_stats_prints_a_summary_and_writes_the_json(full, tmp_path):
    out = tmp_path / "codah-stats.json"
    r = run("stats", full, "--out", out, "--quiet")
    assert r.exit_code == EXIT_OK, r.output
    assert "2,776 multiple-choice questions" in r.output and "longest_ending" in r.output
    assert "0: 689" in r.output and "Idioms 244" in r.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["schema"] == "mrclens-mc-stats" and data["format_version"] == 1
    assert data["labels"]["counts"] == {"0": 689, "1": 684, "2": 697, "3": 706}
    assert data["leakage"] is None


def test_stats_json_to_stdout_is_the_same_figures(full, tmp_path):
    out = tmp_path / "s.json"
    r = run("stats", full, "--json", "--out", out, "--quiet")
    assert r.exit_code == EXIT_OK, r.output
    assert json.loads(r.output) == json.loads(out.read_text(encoding="utf-8"))


def test_stats_on_a_folds_folder_measures_leakage(folder):
    r = run("stats", folder, "--json", "--quiet")
    assert r.exit_code == EXIT_OK, r.output
    data = json.loads(r.output)
    assert data["counts"]["questions"] == 2776 and data["input"]["form"] == "folds"
    assert data["leakage"]["questions"] == 2776 and len(data["leakage"]["parts"]) == 5
    assert data["leakage"]["prompt_in_train"] > 0


def test_stats_dev_with_a_folder_is_bad_input(folder, full):
    r = run("stats", folder, "--dev", full)
    assert r.exit_code == EXIT_BAD_INPUT and "--dev is not used with a folds folder" in r.output


# ---------------------------------------------------------------- mrclens check


def test_check_full_data_passes_the_default_rules(full):
    r = run("check", full, "--json", "--quiet")
    assert r.exit_code == EXIT_OK, r.output
    out = json.loads(r.output)
    ids = {x["id"]: x["status"] for x in out["rules"]}
    assert ids["mc-longest-ending"] == "pass" and ids["mc-label-balance"] == "pass"
    assert ids["mc-leakage-identical"] == "skip"  # a single file: no training side
    assert "similarity-shortcut" not in ids  # the span defaults are not used


def test_check_fails_with_an_impossible_threshold(full, tmp_path):
    rules = _rules(tmp_path, '[[rule]]\nid = "mc-longest-ending"\nthreshold = -100.0\n')
    r = run("check", full, "--rules", rules, "--quiet")
    assert r.exit_code == EXIT_CHECK_FAILED, r.output
    assert "FAIL    mc-longest-ending" in r.output and "means: the correct ending is often the longest" in r.output
    # a new rule on a data-dependent path (a label index) also works
    rules = _rules(tmp_path, 'replace_defaults = true\n[[rule]]\nid = "l3"\nmetric = "labels.counts.3"\nop = "=="\n'
                             'threshold = 706\n')
    r = run("check", full, "--rules", rules, "--quiet")
    assert r.exit_code == EXIT_OK, r.output


def test_check_folds_folder_fails_on_leaked_questions(folder, tmp_path):
    r = run("check", folder, "--json", "--quiet")
    assert r.exit_code == EXIT_CHECK_FAILED, r.output
    status = {x["id"]: x for x in json.loads(r.output)["rules"]}
    assert status["mc-leakage-identical"]["status"] == "fail" and status["mc-leakage-identical"]["value"] > 0
    assert status["mc-leakage-prompt"]["status"] == "pass"
    off = _rules(tmp_path, '[[rule]]\nid = "mc-leakage-identical"\nenabled = false\n')
    r = run("check", folder, "--rules", off, "--quiet")
    assert r.exit_code == EXIT_OK, r.output


def test_check_dev_file_that_is_inside_data_leaks(full, folder):
    r = run("check", full, "--dev", folder / "fold_0" / "test.tsv.gz", "--json", "--quiet")
    assert r.exit_code == EXIT_CHECK_FAILED
    status = {x["id"]: x for x in json.loads(r.output)["rules"]}
    assert status["mc-leakage-identical"]["value"] == 555  # every test question is in full_data


def test_check_audit_rules_on_an_mc_audit(full, tmp_path):
    audit = _mc_audit(tmp_path, drop=30.0)
    rules = _rules(tmp_path, '[[rule]]\nid = "prompt-needed"\nmetric = "audit.ablations.m1.f1_drop"\nop = ">="\n'
                             'threshold = 10\n')
    r = run("check", full, "--rules", rules, "--with-audit", audit, "--json", "--quiet")
    assert r.exit_code == EXIT_OK, r.output
    [res] = [x for x in json.loads(r.output)["rules"] if x["id"] == "prompt-needed"]
    assert res["status"] == "pass" and res["value"] == 30.0
    r = run("check", full, "--rules", rules, "--quiet")  # without the audit: skipped
    assert r.exit_code == EXIT_OK and "SKIP    prompt-needed" in r.output


# ---------------------------------------------------------------- bad input: exit 2, the file named, no traceback


def test_bad_mc_file_exits_2_naming_file_and_line(full, tmp_path):
    with gzip.open(full, "rt", encoding="utf-8") as fh:
        first = fh.readline()
    bad = tmp_path / "broken-codah.tsv"
    bad.write_text(first + "o\tA prompt\ta\tb\tc\td\t9\n", encoding="utf-8")
    for command in ("stats", "check"):
        r = run(command, bad)
        assert r.exit_code == EXIT_BAD_INPUT, r.output
        assert "broken-codah.tsv" in r.output and "line 2" in r.output and "is not one of 0, 1, 2, 3" in r.output
        assert "Traceback" not in r.output


def test_bad_rules_and_bad_folder_exit_2(full, tmp_path):
    rules = _rules(tmp_path, '[[rule]]\nid = "x"\nmetric = "heuristics.sliding_window.f1"\nop = "<="\nthreshold = 1\n')
    r = run("check", full, "--rules", rules)
    assert r.exit_code == EXIT_BAD_INPUT and "rules.toml" in r.output and "multiple-choice data" in r.output
    assert "Traceback" not in r.output
    empty = tmp_path / "empty-folder"
    empty.mkdir()
    for command in ("stats", "check"):
        r = run(command, empty)
        assert r.exit_code == EXIT_BAD_INPUT and "empty-folder" in r.output and "Traceback" not in r.output
    r = run("check", full, "--compare-with", full)
    assert r.exit_code == EXIT_BAD_INPUT and "not available for multiple-choice data" in r.output
