"""`mrclens audit` end to end on a small real slice: outputs, step caching and invalidation."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from mrclens.audit import AuditOptions, run_audit
from mrclens.cli import main
from mrclens.errors import DataError, MRCLensError
from mrclens.formats import load_dataset
from mrclens.squad import Dataset, write_dataset
from perturbed_fixture import ALL_ABLATION_IDS

pytestmark = pytest.mark.slow

TRAIN_TITLES = ("Comprehensive_school", "Infrared")   # 158 questions
DEV_TITLE = "Dutch_Republic"                          # 68 questions, 21 paragraphs


@pytest.fixture(scope="module")
def files(sample_path, tmp_path_factory):
    ds = load_dataset(sample_path)
    d = tmp_path_factory.mktemp("audit-data")
    train = Dataset([a for a in ds.articles if a.title in TRAIN_TITLES], "1.1")
    dev = Dataset([a for a in ds.articles if a.title == DEV_TITLE], "1.1")
    return write_dataset(train, d / "train.json"), write_dataset(dev, d / "dev.json")


def _opts(files, out, **kw):
    train, dev = files
    base = dict(train=str(train), dev=str(dev), out=str(out), profile="quick", max_steps=8,
                n_resamples=200, progress=False)
    base.update(kw)
    return AuditOptions(**base)


def _run(opts):
    lines: list[str] = []
    return run_audit(opts, echo=lines.append).to_json(), lines


@pytest.fixture(scope="module")
def first_audit(files, tmp_path_factory):
    out = tmp_path_factory.mktemp("audit") / "out"
    results, lines = _run(_opts(files, out))
    return out, results, lines


def test_audit_writes_every_output_with_consistent_numbers(first_audit, files):
    out, results, lines = first_audit
    for name in ("results.json", "results.csv", "audit-state.json", "perturbed/manifest.json", "model/weights.pt"):
        assert (out / name).exists(), name
    sets = ["original", "original-truncated"] + ALL_ABLATION_IDS
    assert sorted(p.stem for p in (out / "predictions").glob("*.json")) == sorted(sets)
    on_disk = json.loads((out / "results.json").read_text())
    assert on_disk["model"]["kind"] == "baseline" and on_disk["model"]["config"]["profile_name"] == "quick"
    assert on_disk["model"]["config"]["max_steps"] == 8 and on_disk["audit"]["options"]["profile"] == "quick"
    assert on_disk["model"]["config"]["max_minutes"] is None
    # issue 16: how training ended, recorded with the weights and in results.json
    training = on_disk["audit"]["training"]
    assert (training["stopped_by"], training["steps"], training["cpu_threads"], training["reproducible"]) == (
        "steps", 8, 2, True)
    assert json.loads((out / "model" / "training.json").read_text()) == training
    # issue 57: what "reproducible" holds on: the CPU, the instruction set torch's kernels use, torch's version
    import torch

    assert training["torch"] == torch.__version__ and training["cpu_capability"] == torch.backends.cpu.get_cpu_capability()
    assert training["cpu"] and training["cpu_capability"] in "\n".join(lines)
    assert any("training stopped after 8 steps" in line for line in lines)
    # the effective options: defaults resolved (all ablations, the budget trained under)
    assert on_disk["audit"]["options"]["ablations"] == ALL_ABLATION_IDS
    assert on_disk["audit"]["options"]["max_steps"] == 8 and on_disk["audit"]["options"]["n_resamples"] == 200
    assert on_disk["audit"]["options"]["max_minutes"] is None
    assert on_disk["audit"]["option_sources"] == {}  # run from Python: no sources given
    assert on_disk["sets"]["original"]["n"] == 68
    assert {i["role"] for i in on_disk["inputs"]} >= {"train", "dev", "reference"}
    assert set(on_disk["step_seconds"]) >= {"load", "perturb", "stats", "evidence", "train", "predict", "score"}
    # issue 56: which questions of the audited data (both parts) carry each shortcut
    from mrclens.artifacts.shortcut_questions import read_shortcut_questions

    evidence = read_shortcut_questions(out / "shortcut-questions.jsonl")
    train, dev = files
    ids = [q.id for path in (train, dev) for _, _, q in load_dataset(path).iter_questions()]
    assert sorted(r.id for r in evidence) == sorted(ids) and len(ids) == 158 + 68
    assert any(line.startswith("[evidence] questions flagged among 226 answerable") for line in lines)
    page = (out / "report.html").read_text(encoding="utf-8")  # the report shows each category's most exposed questions
    assert '<section id="exposed">' in page and all(f'id="exposed-{c}"' in page
                                                     for c in ("similarity", "question", "keyword", "position"))
    # issue 17: the data's model-free figures beside the bundled SQuAD v1.1 dev reference, cited by the readings
    mf = {m["path"]: m for m in on_disk["model_free"]}
    sim = mf["similarity.answer_in_most_similar_sentence_pct"]
    # issue 41: the model-free figures read all the audited data (training and evaluation parts), not the 68
    # evaluation questions alone
    assert sim["reference"] == "SQuAD v1.1" and sim["n"] > 68 and sim["ci_low"] < sim["value"] < sim["ci_high"]
    assert sim["comparison"] in ("higher", "lower", "in line", "inconclusive")
    cats = {c["category"]: c["reading"] for c in on_disk["categories"]}
    assert "Model-free (the data alone, no reader)" in cats["Similarity"] and "Model-free" in cats["Question"]
    # issue 17: the drops against the bundled reference's quick-profile audit; an 8-step reader is too weak to compare
    by_cat = {c["category"]: c for c in on_disk["categories"]}
    compared = {a["id"] for a in on_disk["ablations"] if a.get("reference_bias")}
    assert compared and all(a["reference_bias"] == "inconclusive" for a in on_disk["ablations"] if a["id"] in compared)
    for c in by_cat.values():  # the drops cannot be compared; the data alone (model-free figures) still can
        if compared & set(c["ablations"]):
            assert "Against SQuAD v1.1: the drops are not compared, the baseline reader is too weak." in c["reading"]
        assert (c["reference_bias"], c["reference_basis"]) in (("inconclusive", "drops"), ("more", "model-free"),
                                                              ("less", "model-free"), ("inconclusive", "model-free"),
                                                              ("in line", "model-free"), (None, None)), c
        if c["reference_bias"] == "inconclusive" and compared & set(c["ablations"]):
            assert (c["reference_basis"], c["reference_why"]) == ("drops", "weak"), c
        if c["reference_bias"] is None:  # no drop compared, the data alone in line: not compared, said so
            assert not compared & set(c["ablations"])
        mf_more = [m for m in on_disk["model_free"] if m["category"] == c["category"] and m["comparison"] == m["bias_when"]
                   and m["role"] == "verdict"]  # issue 32: only a chance-corrected figure decides
        assert (c["reference_bias"] == "more") == bool(mf_more)  # a figure towards the shortcut decides
    # issue 57: the data route alone is printed before the reader trains, read as the audit reads its figures
    prelim = next(i for i, line in enumerate(lines) if line.startswith("Preliminary verdict from the data alone"))
    assert prelim < next(i for i, line in enumerate(lines) if line.startswith("[train]"))
    from mrclens.artifacts.results import ModelFreeFigure
    from mrclens.reports.summary import NAME_WIDTH
    from mrclens.scoring.against_reference import model_free_reading
    from mrclens.verdicts import NOT_COMPARED

    judged = [ModelFreeFigure(**m) for m in on_disk["model_free"]]
    for c in by_cat.values():
        read = model_free_reading(judged, c["category"])
        row = next(row for row in lines[prelim].splitlines() if row.startswith(c["category"]))
        assert row[NAME_WIDTH + 1:].startswith(read or NOT_COMPARED.name), (row, read)
    by_id = {a["id"]: a for a in on_disk["ablations"]}
    assert list(by_id) == ALL_ABLATION_IDS
    for a in by_id.values():
        base = on_disk["sets"][a["baseline_set"]]["f1"]
        assert a["f1_drop"] == pytest.approx(base - a["f1"], abs=1e-3)
        assert a["ci_low"] <= a["f1_drop"] <= a["ci_high"]
    assert by_id["e1"]["baseline_set"] == "original-truncated" and by_id["e4"]["baseline_set"] == "original"
    csv_lines = (out / "results.csv").read_text().splitlines()
    assert len(csv_lines) == 1 + len(ALL_ABLATION_IDS)  # e1–e10, the controls c1, c2, c6–c10 and e4's reference c4
    assert any(line.startswith("[perturb]") for line in lines) and any(line.startswith("[train]") for line in lines)


def test_default_audit_scores_two_draws_with_one_reader(first_audit):
    # issue 16: --perturb-seeds defaults to 2; draw 1 is written and predicted apart, then combined
    out, results, lines = first_audit
    from mrclens.seeds import derived_seed

    assert [(r["draw"], r["draw_seed"], r["reader"]) for r in results["replicates"]] == [(0, 0, 0), (1, derived_seed(0, "draw", 1), 0)]
    m1 = json.loads((out / "perturbed" / "draw-1" / "manifest.json").read_text())
    assert m1["draw"] == 1 and m1["seed"] == 0
    # only the sets that depend on the draw are predicted again; the original sets, e4 and c4 are reused
    again = sorted(p.stem for p in (out / "predictions" / "draw-1").glob("*.json"))
    assert "original" not in again and "e4" not in again and "c4" not in again and {"e1", "e3", "e5"} <= set(again)  # (one article: the controls find no other article's text)
    for a in results["ablations"]:
        assert a["evaluated"] and [r["draw"] for r in a["replicates"]] == [0, 1], a["id"]
        drops = [r["f1_drop"] for r in a["replicates"]]
        assert a["f1_drop"] == pytest.approx(sum(drops) / 2, abs=1e-3)
        assert a["f1_drop_min"] == min(drops) and a["f1_drop_max"] == max(drops)
        assert a["ci_low"] <= min(drops) + 1e-6 and a["ci_high"] >= max(drops) - 1e-6
    e4 = next(a for a in results["ablations"] if a["id"] == "e4")
    assert e4["replicates"][0]["f1_drop"] == e4["replicates"][1]["f1_drop"]  # e4 has no random choice
    c4 = next(a for a in results["ablations"] if a["id"] == "c4")
    assert e4["control"] == "c4" and c4["control_of"] == "e4"
    # the share is defined exactly when the question-removed reference costs something (this reader trains 8 steps)
    assert (e4["recovered_share"] is None) == (c4["f1_drop"] <= 0)
    assert any("draw 1" in line for line in lines)


def test_train_seeds_trains_several_readers(files, tmp_path):
    out = tmp_path / "out"
    results, lines = _run(_opts(files, out, ablations=["e4"], perturb_seeds=1, train_seeds=2))
    from mrclens.seeds import derived_seed

    assert [(r["draw"], r["reader"], r["reader_seed"]) for r in results["replicates"]] == [
        (0, 0, 0), (0, 1, derived_seed(0, "reader", 1))]
    assert (out / "model" / "reader-1" / "weights.pt").exists()
    assert sorted(p.stem for p in (out / "predictions" / "reader-1").glob("*.json")) == ["c4", "e4", "original", "original-truncated"]
    e4 = next(a for a in results["ablations"] if a["id"] == "e4")
    assert [r["reader"] for r in e4["replicates"]] == [0, 1]
    with pytest.raises(MRCLensError, match="--model"):
        AuditOptions(model=str(out / "model"), train_seeds=2)


def test_rerun_reuses_every_step(first_audit, files):
    out, results, _ = first_audit
    weights = (out / "model" / "weights.pt").stat().st_mtime_ns
    preds = (out / "predictions" / "e1.json").stat().st_mtime_ns
    again, lines = _run(_opts(files, out))
    text = "\n".join(lines)
    assert "[perturb] reused" in text and "[train] reused" in text and "[perturb] draw 1: reused" in text
    assert "[evidence] reused" in text
    # the sets of draw 0 and the draw-1 sets that differ from draw 0's: every one reused
    m = re.search(r"\[predict\] (\d+) prediction files under .* \((\d+) reused\)", text)
    assert m and m.group(1) == m.group(2) and int(m.group(1)) > len(ALL_ABLATION_IDS) + 2
    assert (out / "model" / "weights.pt").stat().st_mtime_ns == weights
    assert (out / "predictions" / "e1.json").stat().st_mtime_ns == preds
    assert [a["f1_drop"] for a in again["ablations"]] == [a["f1_drop"] for a in results["ablations"]]


def test_the_cli_ends_with_the_verdict_at_a_glance_and_wide_adds_the_table(first_audit, files):
    # issue 33: at most 6 lines of at most 100 characters, the verdicts of results.json (the first audit's
    # steps are reused: nothing is trained again)
    out, results, _ = first_audit
    train, dev = files
    args = ["audit", str(train), "--dev", str(dev), "--out", str(out), "--profile", "quick", "--max-steps", "8",
            "--resamples", "200", "-q"]
    res = CliRunner().invoke(main, args, catch_exceptions=False)
    assert res.exit_code == 0, res.output
    lines = res.output.strip().splitlines()
    glance = lines[next(i for i, line in enumerate(lines) if line.startswith("Verdict against SQuAD v1.1 (")):]
    assert len(glance) == 6 and all(len(line) <= 100 for line in glance), glance
    assert glance[0].startswith("Verdict against SQuAD v1.1 (baseline reader, quick profile, F1 ")
    on_disk = json.loads((out / "results.json").read_text())
    for line, c in zip(glance[1:5], on_disk["categories"]):
        if c["reference_bias"] is None:  # not compared: the line gives the absolute level
            assert line.startswith(c["category"]), line
            continue
        decided_by_data = c["reference_basis"] == "model-free" and c["reference_bias"] in ("more", "less")
        verdict = c["reference_bias"] + (" (data)" if decided_by_data else "")
        assert line.startswith(f"{c['category']:<10} {verdict}"), line
        if c.get("reference_why") == "weak":  # an 8-step reader
            assert line.endswith("→ train longer / on more data")
        elif c["reference_bias"] == "inconclusive":  # no drop compared, and the data alone cannot tell (issue 41)
            assert c["reference_why"] == "cannot tell" and line.endswith("→ audit more questions")
    assert glance[5].endswith("report.html; every figure: --wide")
    assert "vs reference" not in res.output and max(len(line) for line in lines) <= 100 + len(str(out))
    wide = CliRunner().invoke(main, [*args, "--wide"], catch_exceptions=False)
    assert wide.exit_code == 0 and "vs reference" in wide.output and "Model: " in wide.output
    assert wide.output.strip().splitlines()[-6:-1] == glance[:5]


def test_changing_training_option_retrains_but_keeps_perturbations(files, tmp_path):
    out = tmp_path / "out"
    _run(_opts(files, out))
    manifest = (out / "perturbed" / "manifest.json").stat().st_mtime_ns
    _, lines = _run(_opts(files, out, max_steps=9))
    text = "\n".join(lines)
    assert "[perturb] reused" in text and "[train] reused" not in text and "reused)" not in text.split("[predict]")[-1]
    assert (out / "perturbed" / "manifest.json").stat().st_mtime_ns == manifest
    # a new seed changes the perturbations too
    _, lines = _run(_opts(files, out, seed=1, max_steps=9))
    assert "[perturb] reused" not in "\n".join(lines)


def test_other_dataset_in_same_out_is_refused_unless_forced(first_audit, files, tmp_path):
    out, _, _ = first_audit
    train, dev = files
    other = load_dataset(dev)
    other.articles[0].paragraphs = other.articles[0].paragraphs[:5]
    other_path = write_dataset(other, tmp_path / "other-dev.json")
    with pytest.raises(MRCLensError, match="different dataset"):
        _run(_opts((train, other_path), out))
    (tmp_path / "notanaudit").mkdir()
    (tmp_path / "notanaudit" / "keep.txt").write_text("user data")
    with pytest.raises(MRCLensError, match="not an MRCLens audit directory"):
        _run(_opts(files, tmp_path / "notanaudit"))
    assert (tmp_path / "notanaudit" / "keep.txt").read_text() == "user data"


def test_bad_input_stops_before_training_with_exit_2(files, tmp_path):
    train, _ = files
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"data": [{"title": "T", "paragraphs": [{"context": "Red fox.", "qas": [
        {"id": "broken-1", "question": "What?", "answers": [{"text": "fox", "answer_start": 0}]}]}]}]}))
    with pytest.raises(DataError):
        _run(_opts((train, bad), tmp_path / "out"))
    assert not (tmp_path / "out").exists()
    res = CliRunner().invoke(main, ["audit", str(train), "--dev", str(bad), "--out", str(tmp_path / "o2")])
    assert res.exit_code == 2 and "broken-1" in res.output
