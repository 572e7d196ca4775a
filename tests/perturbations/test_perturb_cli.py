"""``mrclens perturb``: files, summary, --format jsonl, clear errors with exit 2."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mrclens.cli import main
from mrclens.formats import load_dataset
from mrclens.squad import Dataset, write_dataset


def test_perturb_cli(sample_path, tmp_path, monkeypatch):
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path / "cache"))
    ds = load_dataset(sample_path)
    src = tmp_path / "one.json.gz"
    write_dataset(Dataset(ds.articles[:1], ds.version), src)
    result = CliRunner().invoke(main, ["perturb", str(src), "--out", str(tmp_path / "o"), "--ablations", "e1,e4",
                                       "--seed", "3", "--format", "jsonl", "--quiet"])
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "o").iterdir())
    assert names == ["c1.json", "c1.jsonl", "c4.json", "c4.jsonl", "e1.json", "e1.jsonl", "e4.json", "e4.jsonl", "manifest.json", "original-truncated.json",
                     "original-truncated.jsonl", "original.json", "original.jsonl"]
    m = json.loads((tmp_path / "o" / "manifest.json").read_text())
    assert m["seed"] == 3
    out = result.output
    assert f"original: {m['sets']['original']['n']:,} questions" in out
    assert f"original-truncated: {m['sets']['original-truncated']['n']:,} questions" in out
    e4 = m["ablations"]["e4"]
    assert f"n={e4['n']:>6,}  changed={e4['changed']:>6,}" in out
    assert (tmp_path / "cache").is_dir()


def test_perturb_cli_errors(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = CliRunner().invoke(main, ["perturb", str(bad), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and "bad.json" in result.output and "not valid JSON" in result.output
    good = tmp_path / "good.json"
    good.write_text('{"data": []}')
    result = CliRunner().invoke(main, ["perturb", str(good), "--out", str(tmp_path / "o"), "--ablations", "e99"])
    assert result.exit_code == 2 and "unknown ablation(s) e99" in result.output


def test_a_file_without_questions_is_refused_before_anything_is_written(tmp_path):
    """Issue 42, item 11: `perturb` of a 0-question file wrote 21 empty sets while `stats` and `check` refuse it;
    it is refused the same way (exit 2), and no folder is made."""
    from mrclens.errors import DataError
    from mrclens.perturbations.driver import perturb_dataset

    empty = tmp_path / "empty.json"
    for obj in ({"version": "1.1", "data": []}, {"version": "1.1", "data": [{"title": "T", "paragraphs": []}]}):
        empty.write_text(json.dumps(obj))
        result = CliRunner().invoke(main, ["perturb", str(empty), "--out", str(tmp_path / "o")])
        assert result.exit_code == 2, result.output
        assert f"{empty}: no questions: perturbed sets need at least one question" in result.output
        assert "wrote" not in result.output and not (tmp_path / "o").exists()
    stats = CliRunner().invoke(main, ["stats", str(empty)])
    assert stats.exit_code == 2 and "no questions:" in stats.output
    with pytest.raises(DataError, match="no questions: perturbed sets need at least one question"):
        perturb_dataset(load_dataset(empty), tmp_path / "lib")
    assert not (tmp_path / "lib").exists()
