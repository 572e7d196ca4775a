"""`mrclens validate` and `mrclens evaluate DATA PREDICTIONS` through the real CLI."""

from __future__ import annotations

import json

from click.testing import CliRunner

from mrclens.cli import main
from mrclens.formats import load_dataset


def test_validate_real_dev(squad_dev_path):
    res = CliRunner().invoke(main, ["validate", str(squad_dev_path)])
    assert res.exit_code == 0, res.output
    assert "48 articles, 2,067 paragraphs, 10,570 questions, 34,726 answers" in res.output


def test_validate_bad_answer_start_exits_2_names_question_and_writes_nothing(tmp_path):
    obj = {"data": [{"title": "T", "paragraphs": [{"context": "Red fox.", "qas": [
        {"id": "bad-q", "question": "What?", "answers": [{"text": "fox", "answer_start": 2}]}]}]}]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(obj))
    before = sorted(p.name for p in tmp_path.iterdir())
    res = CliRunner().invoke(main, ["validate", str(path)])
    assert res.exit_code == 2 and "bad-q" in res.output and "answer_start 2" in res.output
    res = CliRunner().invoke(main, ["evaluate", str(path), str(path)])
    assert res.exit_code == 2 and "bad-q" in res.output and "Traceback" not in res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_evaluate_first_gold_answer_is_perfect_and_empty_is_zero(squad_dev_path, tmp_path):
    ds = load_dataset(squad_dev_path)
    first = {q.id: q.answers[0].text for _, _, q in ds.iter_questions()}
    (tmp_path / "first.json").write_text(json.dumps(first))
    (tmp_path / "empty.json").write_text("{}")
    res = CliRunner().invoke(main, ["evaluate", str(squad_dev_path), str(tmp_path / "first.json")])
    assert res.exit_code == 0 and json.loads(res.stdout.splitlines()[0]) == {"exact_match": 100.0, "f1": 100.0}
    res = CliRunner().invoke(main, ["evaluate", "--json", str(squad_dev_path), str(tmp_path / "empty.json")])
    out = json.loads(res.stdout.splitlines()[0])
    assert (out["exact_match"], out["f1"], out["missing"]) == (0.0, 0.0, 10570)


def test_evaluate_says_when_its_arguments_are_swapped_or_a_folder_needs_predictions_dir(tmp_path):
    """Issue 44, item 6: `evaluate PRED DATA` said only "cannot tell the format of this file", and a folder of
    prediction files as the second argument only "File '…' is a directory"; both now say what to type."""
    from perturbed_fixture import make_perturbed_dir, write_predictions

    perturbed, preds = make_perturbed_dir(tmp_path), write_predictions(tmp_path)
    data, pred = perturbed / "original.json", preds / "original.json"
    runner = CliRunner()
    assert runner.invoke(main, ["evaluate", str(data), str(pred)]).exit_code == 0

    res = runner.invoke(main, ["evaluate", str(pred), str(data)])
    assert res.exit_code == 2
    assert "the arguments are swapped" in res.stderr and f"mrclens evaluate {data} {pred}" in res.stderr, res.stderr

    res = runner.invoke(main, ["evaluate", str(perturbed), str(preds)])
    assert res.exit_code == 2
    assert f"mrclens evaluate {perturbed} --predictions-dir {preds}" in res.stderr, res.stderr
    res = runner.invoke(main, ["evaluate", str(data), str(preds)])
    assert res.exit_code == 2 and "--predictions-dir" in res.stderr and "is a folder" in res.stderr, res.stderr
    res = runner.invoke(main, ["evaluate", str(preds), "--predictions-dir", str(perturbed)])
    assert res.exit_code == 2
    assert f"mrclens evaluate {perturbed} --predictions-dir {preds}" in res.stderr, res.stderr

    other = tmp_path / "other.json"  # a bad data file with good predictions: no talk of swapping
    other.write_text('{"name": "web-app"}')
    res = runner.invoke(main, ["evaluate", str(other), str(pred)])
    assert res.exit_code == 2 and "swapped" not in res.stderr and "cannot tell the format" in res.stderr
