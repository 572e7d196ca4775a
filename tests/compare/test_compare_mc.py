"""`mrclens compare` on multiple-choice data (issue 20): real CODAH datasets, stats JSON files and
evaluation directories side by side, a planted length cue found in the right direction, and span and
multiple-choice inputs refused together."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from mrclens.artifacts.comparison import read_comparison
from mrclens.cli import main
from mrclens.errors import MRCLensError
from mrclens.formats.multiple_choice import MCQuestion, load_mc_dataset, write_jsonl
from mrclens.multiple_choice.stats import MC_HEURISTICS, mc_heuristic_predictions, mc_stats
from mrclens.compare import (
    MC_ROWS,
    READER_KEY,
    compare,
    compare_sources,
    format_comparison,
    is_row_key,
    load_input,
)

SQUAD_SAMPLE = Path(__file__).resolve().parents[2] / "mrclens" / "data" / "squad-v1.1-sample.json.gz"
LONGEST = "heuristics.longest_ending.accuracy"


def _run(args):
    return CliRunner().invoke(main, args, catch_exceptions=False)


@pytest.fixture(scope="module")
def codah(codah_dir) -> Path:
    return codah_dir


def _test_part(codah: Path, k: int) -> Path:
    return codah / "cv_split" / f"fold_{k}" / "test.tsv.gz"


@pytest.fixture(scope="module")
def folds01(codah):
    return compare([_test_part(codah, 0), _test_part(codah, 1)], ["fold0", "fold1"], n_resamples=400)


def _inside(v) -> bool:
    return v.ci_low is not None and v.ci_low - 1e-9 <= v.value <= v.ci_high + 1e-9


# --------------------------------------------------------------------------------------- datasets
def test_two_folds_have_every_mc_figure_with_intervals_around_the_point(codah, folds01):
    c = folds01
    assert [i.task for i in c.inputs] == ["multiple_choice"] * 2 and [i.kind for i in c.inputs] == ["dataset"] * 2
    assert [i.questions for i in c.inputs] == [555, 555]
    assert all(i.figures_from == "per-question values" for i in c.inputs)
    keys = {r.key for r in c.rows}
    assert {row[1] for row in MC_ROWS} <= keys
    assert {f"labels.shares_pct.{k}" for k in range(4)} <= keys
    assert {"categories.shares_pct.Idioms", "categories.shares_pct.Other"} <= keys
    assert "lengths.question_words" not in keys and READER_KEY not in keys  # no span rows, no reader
    assert all(is_row_key(k) for k in keys)
    for row in c.rows:
        assert all(_inside(v) for v in row.values), row.key
        d = row.differences[0]
        assert d.compared and d.ci_method == "bootstrap", row.key
        assert d.ci_low <= d.difference <= d.ci_high, row.key
        assert d.significant == (d.ci_low > 0 or d.ci_high < 0)
        assert row.values[1].value - row.values[0].value == pytest.approx(d.difference, abs=2e-4)
    # the values are mc_stats' figures, and the accuracies the mean of each question's 0/1 correctness
    for k, inp in enumerate(c.inputs):
        ds = load_mc_dataset(_test_part(codah, k))
        stats = mc_stats(ds, n_resamples=10)
        preds = mc_heuristic_predictions(ds)
        for name in MC_HEURISTICS:
            row = c.row(f"heuristics.{name}.accuracy")
            assert row.values[k].value == pytest.approx(stats["heuristics"][name]["accuracy"], abs=1e-4)
            correct = np.mean([preds[name][q.id] == q.label for q in ds.questions]) * 100
            assert row.values[k].value == pytest.approx(correct, abs=1e-3) and row.values[k].n == 555
        assert c.row("ending_lengths.words.difference").values[k].value == pytest.approx(
            stats["ending_lengths"]["words"]["difference"], abs=1e-4)
        assert c.row("labels.shares_pct.2").values[k].value == pytest.approx(stats["labels"]["shares_pct"]["2"], abs=1e-4)
    assert c.row(LONGEST).bias_when == "higher" and c.row(LONGEST).unit == "%"
    assert c.row("ending_lengths.characters.difference").unit == "characters"
    table = format_comparison(c)
    assert "longest-ending heuristic: accuracy (%)" in table and "correct ending at index 0 (%)" in table


def test_same_seed_same_bytes_and_another_seed_other_intervals(codah, tmp_path):
    args = ["compare", str(_test_part(codah, 0)), str(_test_part(codah, 1)), "--names", "fold0,fold1",
            "--resamples", "300", "-q"]
    r = _run(args + ["--out", str(tmp_path / "a")])
    assert r.exit_code == 0, r.output
    assert {p.name for p in (tmp_path / "a").iterdir()} == {"comparison.json", "comparison.csv", "comparison.html"}
    assert _run(args + ["--out", str(tmp_path / "b")]).exit_code == 0
    first = (tmp_path / "a" / "comparison.json").read_bytes()
    assert first == (tmp_path / "b" / "comparison.json").read_bytes()
    obj = json.loads(first)
    assert obj["inputs"][0]["task"] == "multiple_choice"
    assert read_comparison(tmp_path / "a").inputs[1].task == "multiple_choice"  # read back
    html = (tmp_path / "a" / "comparison.html").read_text(encoding="utf-8")
    assert "Heuristic baselines" in html and "Position of the correct ending" in html and "reader accuracy" in html
    assert _run(args + ["--seed", "1", "--out", str(tmp_path / "c")]).exit_code == 0
    other = read_comparison(tmp_path / "c").row(LONGEST).differences[0]
    same = read_comparison(tmp_path / "a").row(LONGEST).differences[0]
    assert other.difference == same.difference and (other.ci_low, other.ci_high) != (same.ci_low, same.ci_high)


def _planted(ds) -> list[MCQuestion]:
    """Each question with its correct ending made strictly the longest (real words appended)."""
    out = []
    for q in ds.questions:
        others = max(len(e.split()) for i, e in enumerate(q.endings) if i != q.label)
        correct = q.endings[q.label].rstrip()
        extra = max(0, others - len(correct.split()) + 2)
        endings = list(q.endings)
        endings[q.label] = correct + " " + " ".join(["and then some"] * extra)
        out.append(MCQuestion(q.id, q.prompt, tuple(endings), q.label, q.categories))
    return out


def test_a_planted_length_cue_is_found_in_the_shortcut_direction(codah, tmp_path):
    ds = load_mc_dataset(_test_part(codah, 0))
    planted = load_mc_dataset(_test_part(codah, 0))
    planted.questions = _planted(ds)
    path = tmp_path / "fold0-planted.jsonl"
    write_jsonl(planted, path)
    assert mc_stats(planted, n_resamples=10)["heuristics"]["longest_ending"]["accuracy"] == 100.0
    c = compare([_test_part(codah, 0), path], ["codah", "planted"], n_resamples=500)
    d = c.row(LONGEST).differences[0]
    assert c.row(LONGEST).values[1].value == 100.0
    assert d.significant and d.direction == "more" and d.difference > 50 and d.ci_low > 50
    words = c.row("ending_lengths.words.difference").differences[0]
    assert words.significant and words.ci_low > 0
    shortest = c.row("heuristics.shortest_ending.accuracy").differences[0]
    assert shortest.significant and shortest.direction == "less"  # the correct ending is never the shortest now
    # the labels and categories were not touched
    assert not any(c.row(f"labels.shares_pct.{k}").differences[0].significant for k in range(4))
    assert c.row("labels.shares_pct.0").differences[0].difference == 0.0


# --------------------------------------------------------------------------------- other inputs
def test_folder_stats_json_and_dataset(codah, tmp_path):
    stats_file = tmp_path / "fold2-stats.json"
    r = _run(["stats", str(_test_part(codah, 2)), "--out", str(stats_file)])
    assert r.exit_code == 0, r.output
    c = compare([stats_file, _test_part(codah, 2), codah], ["stats", "data", "folder"], n_resamples=300)
    assert [i.kind for i in c.inputs] == ["stats", "dataset", "dataset"]
    assert [i.figures_from for i in c.inputs] == ["summary figures", "per-question values", "per-question values"]
    assert c.inputs[2].questions == 2776  # every question of the folds' test parts once
    acc = c.row(LONGEST)
    d = acc.differences[0]
    assert d.difference == 0.0 and d.ci_method == "bootstrap" and not d.significant  # binomial from the stats JSON
    length = c.row("ending_lengths.words.difference")
    assert length.differences[0].ci_method == "normal" and length.differences[0].difference == 0.0
    assert length.values[0].ci_low < length.values[0].value < length.values[0].ci_high
    assert any("summary figures" in x for x in c.differs)


@pytest.mark.slow
def test_span_and_mc_inputs_are_refused_together(codah, tmp_path):
    if not SQUAD_SAMPLE.exists():
        pytest.skip(f"{SQUAD_SAMPLE} not found")
    mc = _test_part(codah, 0)
    for mc_input, args in ((mc, [SQUAD_SAMPLE, mc]), (mc, [mc, SQUAD_SAMPLE]), (codah, [codah, SQUAD_SAMPLE])):
        r = CliRunner().invoke(main, ["compare", *map(str, args), "--out", str(tmp_path / "out")])
        assert r.exit_code == 2, r.output
        assert "Traceback" not in r.output and isinstance(r.exception, SystemExit)
        assert "cannot compare span-extraction inputs with multiple-choice inputs" in r.output
        assert f"{SQUAD_SAMPLE} (span extraction)" in r.output and f"{mc_input} (multiple-choice)" in r.output
        assert not (tmp_path / "out").exists()
    (tmp_path / "empty").mkdir()  # a folder of no task: its own message, not the mix's
    r = CliRunner().invoke(main, ["compare", str(mc), str(tmp_path / "empty")])
    assert r.exit_code == 2 and "empty: not an audit or evaluation directory" in r.output
    with pytest.raises(MRCLensError, match="span extraction"):
        compare_sources([load_input(SQUAD_SAMPLE, "squad"), load_input(mc, "codah")], n_resamples=10)


# --------------------------------------------------------------------------- evaluation directories
@pytest.fixture(scope="module")
def evaluations(codah, tmp_path_factory):
    """Two multiple-choice evaluations (`mrclens evaluate`) of fold 0's and fold 1's test parts,
    perturbed with m1 and m4 (+ its control mc4), the "reader" being the most-prompt-overlap heuristic."""
    from mrclens.multiple_choice.perturb import perturb_mc

    root = tmp_path_factory.mktemp("mc-evaluations")
    out = []
    for k in (0, 1):
        pdir, preds = root / f"perturbed{k}", root / f"preds{k}"
        perturb_mc(load_mc_dataset(_test_part(codah, k)), pdir, ablations="m1,m4", seed=0, cache_dir=str(root / "cache"))
        preds.mkdir()
        for f in sorted(pdir.glob("*.jsonl")):
            (preds / f"{f.stem}.json").write_text(json.dumps(mc_heuristic_predictions(load_mc_dataset(f))["prompt_overlap"]))
        r = _run(["evaluate", str(pdir), "--predictions-dir", str(preds), "--out", str(root / f"ev{k}"),
                  "--resamples", "200", "-q"])
        assert r.exit_code == 0, r.output
        out.append(root / f"ev{k}")
    return out


@pytest.mark.slow
def test_evaluations_compare_accuracy_and_drops(evaluations):
    from mrclens.artifacts.results import read_results

    ev0, ev1 = evaluations
    c = compare([ev0, ev1], ["fold0", "fold1"], n_resamples=400)
    assert [i.kind for i in c.inputs] == ["evaluation"] * 2 and all(i.task == "multiple_choice" for i in c.inputs)
    reader = c.row(READER_KEY)
    assert reader.label == "reader's accuracy on the original set (%)"
    assert reader.differences[0].ci_method == "bootstrap"
    for k, ev in enumerate(evaluations):
        res = read_results(ev)
        assert reader.values[k].value == pytest.approx(res.sets["original"].f1, abs=1e-3)
        assert c.inputs[k].reader_f1 == pytest.approx(res.sets["original"].f1, abs=1e-3)
        m4 = res.ablation("m4")
        assert c.row("ablations.m4.f1_drop").values[k].value == pytest.approx(m4.f1_drop, abs=1e-3)
        assert c.row("ablations.m4.excess_drop").values[k].value == pytest.approx(m4.excess_drop, abs=1e-3)
    for key in ("ablations.m1.f1_drop", "ablations.m1.relative_drop", "ablations.m4.f1_drop",
                "ablations.m4.relative_drop", "ablations.m4.excess_drop", "ablations.m4.relative_excess_drop"):
        row = c.row(key)
        assert row is not None and "F1" not in row.label and "F1" not in row.unit, key
        d = row.differences[0]
        assert d.compared and d.ci_method == "bootstrap" and d.ci_low <= d.difference <= d.ci_high, key
        assert all(_inside(v) for v in row.values), key
    assert c.row("ablations.m4.f1_drop").label == "m4 insert prompt nouns: accuracy drop"
    assert c.row("ablations.m1.relative_drop").unit == "% of baseline accuracy"
    assert c.row(LONGEST) is not None and c.inputs[0].figures_from == "per-question values"  # from original.jsonl
    assert "(accuracy " in format_comparison(c)
    # an evaluation compared with itself: nothing differs
    same = compare([ev0, ev0], ["a", "b"], n_resamples=200)
    assert not any(d.significant for r in same.rows for d in r.differences)
    assert all(d.difference == 0.0 for r in same.rows for d in r.differences if d.compared)


def test_an_audit_without_its_evaluation_data_uses_the_statistics_in_its_results(evaluations, codah, tmp_path):
    """A copied audit directory (its perturbed sets not beside it) falls back to
    ``sections.multiple_choice.stats``: summary figures, accuracies still resampled binomially."""
    ev0, ev1 = evaluations
    moved = tmp_path / "moved"
    shutil.copytree(ev0, moved)
    obj = json.loads((moved / "results.json").read_text())
    obj["sections"]["multiple_choice"] = {"stats": mc_stats(load_mc_dataset(_test_part(codah, 0)), n_resamples=200)}
    (moved / "results.json").write_text(json.dumps(obj))
    c = compare([ev1, moved], ["fold1", "moved"], n_resamples=300)
    assert c.inputs[1].figures_from == "summary figures" and c.inputs[1].task == "multiple_choice"
    d = c.row(LONGEST).differences[0]
    assert d.compared and d.ci_method == "bootstrap"
    assert c.row("ending_lengths.words.difference").differences[0].ci_method == "normal"
    # the drops still come from question-scores.json
    assert c.row("ablations.m4.f1_drop").differences[0].ci_method == "bootstrap"
