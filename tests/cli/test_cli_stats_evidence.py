"""``mrclens stats DATA --evidence FILE`` (issue 56): writes the per-question evidence of span data beside the figures,
and refuses what it cannot read before any work."""

from __future__ import annotations

import json

from click.testing import CliRunner

from mrclens.artifacts.shortcut_questions import read_shortcut_questions
from mrclens.cli import main
from mrclens.formats import load_dataset
from mrclens.squad import Dataset, write_dataset


def _small(sample_path, tmp_path):
    ds = load_dataset(sample_path)
    return write_dataset(Dataset([a for a in ds.articles if a.title == "Dutch_Republic"], ds.version),
                         tmp_path / "dutch.json")


def test_stats_writes_the_evidence_of_every_question(sample_path, tmp_path):
    data = _small(sample_path, tmp_path)
    before = data.read_bytes()
    out, evidence = tmp_path / "stats.json", tmp_path / "ev" / "shortcut-questions.jsonl"
    res = CliRunner().invoke(main, ["stats", str(data), "--out", str(out), "--evidence", str(evidence)])
    assert res.exit_code == 0, res.output
    rows = read_shortcut_questions(evidence)
    figures = json.loads(out.read_text())
    assert [r.id for r in rows] == [q.id for _, _, q in load_dataset(data).iter_questions()]
    assert len(rows) == figures["counts"]["questions"] == 68
    assert 100 * sum(r.position.in_first_sentence for r in rows) / len(rows) == figures["answer_position"]["first_sentence_pct"]
    assert data.read_bytes() == before


def test_stats_refuses_what_evidence_cannot_read(sample_path, codah_dir, tmp_path):
    data = _small(sample_path, tmp_path)
    same = tmp_path / "x.json"
    res = CliRunner().invoke(main, ["stats", str(data), "--out", str(same), "--evidence", str(same)])
    assert res.exit_code == 2 and "same file" in res.output and not same.exists()
    res = CliRunner().invoke(main, ["stats", str(data), "--language-ok", "--evidence", str(tmp_path / "e.jsonl")])
    assert res.exit_code == 2 and "--language-ok" in res.output
    res = CliRunner().invoke(main, ["stats", str(codah_dir / "full_data.tsv.gz"), "--evidence", str(tmp_path / "e.jsonl")])
    assert res.exit_code == 2 and "span data" in res.output and "multiple-choice" in res.output
    res = CliRunner().invoke(main, ["stats", str(data), "--evidence", str(data)])  # never the input
    assert res.exit_code != 0 and load_dataset(data).counts()["questions"] == 68
    assert not (tmp_path / "e.jsonl").exists()
