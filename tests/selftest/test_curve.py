"""Graded plantings and the model-free route's detection curve (issue 41, part 4), on real articles of the
bundled sample."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mrclens.artifacts.detection_curve import read_curve
from mrclens.artifacts.reference import read_reference
from mrclens.cli import main
from mrclens.formats import load_dataset
from mrclens.selftest.curve import detection_curve, format_curve
from mrclens.selftest.plantings import PLANTINGS, plant, plant_graded, planted_share
from mrclens.squad import Dataset


@pytest.fixture(scope="module")
def ten(sample_path):
    full = load_dataset(sample_path)
    return Dataset(full.articles[:10], full.version, str(sample_path))


def _paragraphs(data: Dataset) -> dict[str, str]:
    return {q.id: p.context for _, p in data.iter_paragraphs() for q in p.questions}


def test_planted_shares_are_exact_nested_and_seeded():
    ids = [f"q{i}" for i in range(200)]
    shares = {r: planted_share(ids, "position", r, 0) for r in (0.1, 0.25, 0.5, 1.0)}
    assert [len(s) for s in shares.values()] == [20, 50, 100, 200]
    assert shares[0.1] < shares[0.25] < shares[0.5] < shares[1.0]
    assert planted_share(ids, "position", 0.25, 0) == shares[0.25] != planted_share(ids, "position", 0.25, 1)
    with pytest.raises(ValueError):
        planted_share(ids, "position", 1.5, 0)


def test_a_graded_set_is_the_clean_counterpart_but_for_its_planted_share(ten, tmp_path):
    small = Dataset(ten.articles[:2], ten.version)
    graded, clean = plant_graded(small, "position", (0.25, 1.0), 0, cache_dir=tmp_path)
    pair = plant(small, "position", 0, cache_dir=tmp_path)
    assert _paragraphs(clean) == _paragraphs(pair.clean) and _paragraphs(graded[1.0]) == _paragraphs(pair.planted)
    quarter = _paragraphs(graded[0.25])
    share = planted_share(list(quarter), "position", 0.25, 0)
    planted, unplanted = _paragraphs(pair.planted), _paragraphs(pair.clean)
    assert all(quarter[q] == (planted[q] if q in share else unplanted[q]) for q in quarter)
    assert 0 < len(share) < len(quarter)


@pytest.mark.slow
def test_the_curve_reads_a_full_position_planting_and_flags_no_clean_or_shape_counterpart(ten, tmp_path):
    curve = detection_curve(ten, read_reference(), plantings=["position"], rates=(0.1, 1.0), seeds=(0,),
                            shapes=["short"], cache_dir=tmp_path)
    assert curve.detection_rate("Position", 1.0) == 1.0
    assert curve.false_flag_rate("clean") == 0.0 and curve.false_flag_rate("shape") == 0.0
    kinds = [(p.kind, p.rate) for p in curve.points]
    assert kinds == [("clean", 0.0), ("graded", 0.1), ("graded", 1.0), ("shape", 0.0)]
    # a shortcut in a tenth of the questions moves the position rank by a few points: not read
    assert curve.detection_rate("Position", 0.1) == 0.0
    table = format_curve(curve)
    assert "Position" in table and "100%" in table and "false flags, clean counterparts: 0%" in table


def test_cli_curve_refuses_bad_rates_and_names_before_any_work(tmp_path):
    for args in (["--rates", "0,0.5"], ["--rates", "x"], ["--plantings", "mc-length"]):
        res = CliRunner().invoke(main, ["selftest", "--curve", "--out", str(tmp_path / "c"), *args])
        assert res.exit_code == 2, res.output
        assert not (tmp_path / "c").exists()


@pytest.mark.slow
def test_cli_curve_writes_the_curve_and_its_picture(tmp_path, sample_path):
    data = tmp_path / "two.json"
    full = json.loads(__import__("gzip").decompress(sample_path.read_bytes()))
    data.write_text(json.dumps({**full, "data": full["data"][:3]}), encoding="utf-8")
    out = tmp_path / "curve"
    res = CliRunner().invoke(main, ["selftest", "--curve", "--out", str(out), "--data", str(data), "--plantings",
                                    "position", "--rates", "1", "--seeds", "1", "--cache-dir", str(tmp_path / "cache")])
    assert res.exit_code in (0, 1), res.output
    curve = read_curve(out)
    assert curve.route == "model-free" and curve.rates == [1.0] and curve.seeds == [0]
    assert {p.kind for p in curve.points} == {"clean", "graded"}
    assert (out / "detection-curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert res.exit_code == (1 if any(p.false_flags for p in curve.points if p.kind == "clean") else 0)
    assert set(PLANTINGS) >= {"position"}
