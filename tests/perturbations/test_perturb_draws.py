"""Repeated draws (issue 16 part 4) and the question-removed reference c4 (part 2), on the real sample."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mrclens.cli import main
from mrclens.perturbations import perturb_dataset
from mrclens.perturbations.ablations.c4_no_question import NO_QUESTION
from mrclens.seeds import derived_seed
from mrclens.formats import load_dataset
from mrclens.squad import Dataset, write_dataset


@pytest.fixture(scope="module")
def src(sample_path, tmp_path_factory) -> Path:
    ds = load_dataset(sample_path)
    path = tmp_path_factory.mktemp("draws") / "small.json"
    write_dataset(Dataset(ds.articles[:3], ds.version), path)
    return path


@pytest.fixture(scope="module")
def draws(src, tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("out")
    cache = root / "cache"
    out = {}
    for name, draw in (("d0", 0), ("d1", 1), ("d1b", 1), ("d2", 2)):
        perturb_dataset(src, root / name, ablations="e1,e3,e4,e6", seed=5, draw=draw, cache_dir=cache, progress=False)
        out[name] = root / name
    return out


def _items(d: Path, aid: str) -> dict:
    return json.loads((d / "manifest.json").read_text())["ablations"][aid]["items"]


@pytest.mark.slow
def test_draws_differ_between_k_and_repeat_for_the_same_k(draws):
    d0, d1, d1b, d2 = draws["d0"], draws["d1"], draws["d1b"], draws["d2"]
    for name in ("e1.json", "c1.json", "e3.json", "e6.json", "c6.json"):  # random choices: redrawn
        assert (d0 / name).read_bytes() != (d1 / name).read_bytes() != (d2 / name).read_bytes(), name
        assert (d1 / name).read_bytes() == (d1b / name).read_bytes(), name  # same seed and draw: same bytes
    for name in ("original.json", "original-truncated.json", "e4.json", "c4.json"):  # no random choice
        assert (d0 / name).read_bytes() == (d1 / name).read_bytes() == (d2 / name).read_bytes(), name
    assert (d1 / "manifest.json").read_bytes() == (d1b / "manifest.json").read_bytes()
    m0, m1 = (json.loads((d / "manifest.json").read_text()) for d in (d0, d1))
    assert "draw" not in m0 and m0["seed"] == 5
    assert m1["seed"] == 5 and m1["draw"] == 1 and m1["draw_seed"] == derived_seed(5, "draw", 1) != 5
    # e1 inserts before a different sentence in at least some questions
    e1_0, e1_1 = _items(d0, "e1"), _items(d1, "e1")
    assert any(e1_0[q]["detail"].get("offset") != e1_1[q]["detail"].get("offset") for q in e1_0)


def test_draw_k_of_an_ablation_and_its_control_use_the_same_positions(draws):
    for d in (draws["d1"], draws["d2"]):
        for aid, cid in (("e1", "c1"), ("e6", "c6")):
            abl, ctl = _items(d, aid), _items(d, cid)
            both = [q for q in ctl if ctl[q]["changed"]]
            assert len(both) >= 5
            for q in both:
                assert ctl[q]["detail"]["offset"] == abl[q]["detail"]["offset"], (d.name, cid, q)
                assert ctl[q]["detail"]["unit"] == abl[q]["detail"]["unit"]
                assert ctl[q]["detail"]["replaces"] == abl[q]["detail"]["inserted"]


def test_c4_removes_every_question_and_keeps_offsets_exact(draws):
    d = draws["d0"]
    orig = json.loads((d / "original.json").read_text())
    c4 = json.loads((d / "c4.json").read_text())
    m = json.loads((d / "manifest.json").read_text())["ablations"]["c4"]
    assert m["control_of"] == "e4" and m["eval_set"] == "full" and m["baseline_set"] == "original"
    n = 0
    for a0, a1 in zip(orig["data"], c4["data"], strict=True):
        for p0, p1 in zip(a0["paragraphs"], a1["paragraphs"], strict=True):
            assert p1["context"] == p0["context"]
            for q0, q1 in zip(p0["qas"], p1["qas"], strict=True):
                assert q1["id"] == q0["id"] and q1["question"] == NO_QUESTION and q1["answers"] == q0["answers"]
                for a in q1["answers"]:
                    assert p1["context"][a["answer_start"]: a["answer_start"] + len(a["text"])] == a["text"]
                assert m["items"][q1["id"]] == {"changed": True, "reason": None, "detail": {"old": q0["question"], "new": "?"}}
                n += 1
    assert n == m["n"] == m["changed"] > 50
    load_dataset(d / "c4.json")  # passes the SQuAD schema check (the reason for the placeholder)


def test_perturb_cli_draw_option(src, tmp_path, draws):
    result = CliRunner().invoke(main, ["perturb", str(src), "--out", str(tmp_path / "o"), "--ablations", "e1",
                                       "--seed", "5", "--draw", "2", "--quiet"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "o" / "e1.json").read_bytes() == (draws["d2"] / "e1.json").read_bytes()
    bad = CliRunner().invoke(main, ["perturb", str(src), "--out", str(tmp_path / "p"), "--draw", "-1"])
    assert bad.exit_code == 2
