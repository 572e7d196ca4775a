"""The task registry (mrclens.tasks): every entry point resolves, detection, lookups, file fields."""

from __future__ import annotations

import gzip
import shutil

import pytest

from mrclens.errors import MRCLensError
from mrclens.tasks import (DEFAULT_TASK, MULTIPLE_CHOICE, SPAN, Task, all_tasks, detect_task, get_task, register,
                           task_field, task_of)

#: Roles both tasks must register: what the stages above ask every task for.
SHARED_ROLES = {"load_set", "perturb_file", "file_stats", "is_metric", "metric_paths", "ablations", "score_set",
                "score_file", "report_facts", "report_examples", "compare", "audit", "cli_audit_options"}


@pytest.mark.parametrize("task", list(all_tasks()), ids=lambda t: t.name)
def test_every_entry_point_imports(task):
    """A typo in a dotted name would fail only when that step runs: resolve every one here."""
    for role in task.entry_points:
        assert task.entry(role) is not None, role
    assert SHARED_ROLES <= set(task.entry_points)


def test_lookups_and_errors():
    assert get_task(None) is SPAN and get_task("span") is SPAN and get_task(MULTIPLE_CHOICE) is MULTIPLE_CHOICE
    with pytest.raises(MRCLensError, match="unknown task 'free_form'"):
        get_task("free_form")
    with pytest.raises(MRCLensError, match="has no 'translate' step"):
        SPAN.entry("translate")
    with pytest.raises(ValueError, match="registered already"):
        register(Task(name="span", title="x", data_label="x", metric="F1", metric_phrase="x", rules_file="x"))


def test_task_of_files_and_objects():
    class Manifest:
        task = "multiple_choice"

    assert task_of(Manifest()) is MULTIPLE_CHOICE and task_of(object()) is SPAN
    assert task_field(DEFAULT_TASK) == {} and task_field("multiple_choice") == {"task": "multiple_choice"}


def test_detect_task_on_real_files(tmp_path, squad_dev_path, codah_dir):
    """CODAH TSV and its folds folder are multiple choice; SQuAD JSON and a missing file are span data;
    an empty folder is claimed only where folders are multiple-choice input (stats / check)."""
    tsv = tmp_path / "test.tsv"
    with gzip.open(codah_dir / "cv_split" / "fold_0" / "test.tsv.gz", "rb") as src, open(tsv, "wb") as dst:
        shutil.copyfileobj(src, dst)
    assert detect_task(tsv) is MULTIPLE_CHOICE
    assert detect_task(codah_dir / "cv_split" / "fold_0" / "test.tsv.gz") is MULTIPLE_CHOICE
    assert detect_task(codah_dir) is MULTIPLE_CHOICE
    assert detect_task(squad_dev_path) is SPAN
    assert detect_task(tmp_path / "missing.json") is SPAN
    (tmp_path / "empty").mkdir()
    assert detect_task(tmp_path / "empty") is SPAN
    assert detect_task(tmp_path / "empty", role="sniff_input") is MULTIPLE_CHOICE


def test_a_file_naming_an_unknown_task_is_refused_with_its_name(tmp_path):
    """manifest.json with "task": "yes_no": `mrclens evaluate` exits 2 naming the file and the known tasks
    (it was read as span data before, and a later step failed without naming the file)."""
    import json

    from click.testing import CliRunner
    from perturbed_fixture import make_perturbed_dir, write_predictions

    from mrclens.cli import main

    perturbed = make_perturbed_dir(tmp_path)
    manifest = json.loads((perturbed / "manifest.json").read_text())
    (perturbed / "manifest.json").write_text(json.dumps({**manifest, "task": "yes_no"}))
    res = CliRunner().invoke(main, ["evaluate", str(perturbed), "--predictions-dir", str(write_predictions(tmp_path))])
    assert res.exit_code == 2, res.output
    assert "manifest.json" in res.output and "'yes_no'" in res.output and "span, multiple_choice" in res.output
