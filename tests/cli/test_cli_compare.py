"""`mrclens compare` and `mrclens check --compare-with` on real SQuAD text (two slices of the bundled sample):
outputs, determinism, exit codes, and a check rule gating on a comparison (issue 19)."""

from __future__ import annotations

import gzip
import json

import pytest
from click.testing import CliRunner

from mrclens.artifacts.comparison import read_comparison
from mrclens.cli import main


def _run(args):
    return CliRunner().invoke(main, args, catch_exceptions=False)


@pytest.fixture(scope="module")
def slices(sample_path, tmp_path_factory):
    """Articles 0–2 and 3–5 of the bundled sample (real SQuAD v1.1 train articles), as two SQuAD files."""
    root = tmp_path_factory.mktemp("slices")
    data = json.loads(gzip.decompress(sample_path.read_bytes()))
    out = []
    for name, articles in (("first", data["data"][:3]), ("second", data["data"][3:6])):
        path = root / f"{name}.json"
        path.write_text(json.dumps({"version": "1.1", "data": articles}), encoding="utf-8")
        out.append(path)
    return root, out[0], out[1]


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "compare-cache"))


@pytest.mark.slow
def test_compare_writes_table_json_csv_and_page(slices):
    root, first, second = slices
    out = root / "out"
    r = _run(["compare", str(first), str(second), "--out", str(out), "--names", "A,B", "--resamples", "300", "-q"])
    assert r.exit_code == 0, r.output
    assert {p.name for p in out.iterdir()} == {"comparison.json", "comparison.csv", "comparison.html"}
    c = read_comparison(out)
    assert [i.name for i in c.inputs] == ["A", "B"] and all(i.kind == "dataset" for i in c.inputs)
    assert c.inputs[0].questions > 100 and c.inputs[0].figures_from == "per-question values"
    row = c.row("lengths.question_words")
    d = row.differences[0]
    assert d.ci_method == "bootstrap" and d.ci_low <= d.difference <= d.ci_high
    assert row.values[1].value - row.values[0].value == pytest.approx(d.difference, abs=1e-3)
    # issue 33: the output ends with the comparison at a glance (no table), and points to the page
    lines = r.output.strip().splitlines()
    assert "question length (words)" not in r.output and lines[-1].endswith(str(out / "comparison.html"))
    glance = lines[lines.index("B against A (more / less of the shortcut, per bias category):"):]
    assert 3 <= len(glance) <= 6 and all(len(line) <= 100 for line in glance), glance
    categories = {r_.category for r_ in c.rows if r_.category}
    assert {line.split()[0] for line in glance[1:-1]} == categories
    first_bytes = (out / "comparison.json").read_bytes()
    # the same inputs and seed: the same file (an earlier comparison may be replaced); --wide: the table too
    r = _run(["compare", str(first), str(second), "--out", str(out), "--names", "A,B", "--resamples", "300", "-q",
              "--wide"])
    assert r.exit_code == 0 and (out / "comparison.json").read_bytes() == first_bytes
    assert "question length (words)" in r.output and "A" in r.output.splitlines()[1]
    assert r.output.strip().splitlines()[-len(glance):] == glance
    r = _run(["compare", str(first), str(second), "--names", "A,B", "--resamples", "300", "--json", "-q"])
    assert r.exit_code == 0 and json.loads(r.stdout) == json.loads(first_bytes)


def test_compare_exit_codes(slices, tmp_path):
    _, first, second = slices
    r = _run(["compare", str(first)])
    assert r.exit_code == 2 and "at least two inputs" in r.output
    r = _run(["compare", str(first), str(second), "--names", "only-one"])
    assert r.exit_code == 2 and "--names gives 1 name(s) for 2 inputs" in r.output
    (tmp_path / "not-an-audit").mkdir()
    r = _run(["compare", str(first), str(tmp_path / "not-an-audit")])
    assert r.exit_code == 2 and "not-an-audit: not an audit or evaluation directory" in r.output
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    r = _run(["compare", str(first), str(second), "--out", str(foreign)])
    assert r.exit_code == 2 and "does not hold an earlier output of `mrclens compare`" in r.output
    assert [p.name for p in foreign.iterdir()] == ["notes.txt"]


@pytest.mark.slow
def test_check_gates_on_a_comparison(slices, tmp_path):
    """`check DATA --compare-with REF`: a rule on compare.<row>.<field> passes or fails on DATA − REF."""
    _, first, second = slices
    stats_out = tmp_path / "first-stats.json"
    assert _run(["stats", str(first), "--out", str(stats_out), "-q"]).exit_code == 0
    c = read_comparison_via_cli(first, second, tmp_path)
    d = c.row("lengths.question_words").differences[0]
    rules = tmp_path / "rules.toml"
    rules.write_text('replace_defaults = true\n[[rule]]\nid = "shorter-questions"\n'
                     'metric = "compare.lengths.question_words.difference"\nop = "<"\nthreshold = 0\n'
                     '[[rule]]\nid = "sim-not-higher"\n'
                     'metric = "compare.similarity.answer_in_most_similar_sentence_pct.difference_ci_low"\nop = "<="\nthreshold = 100\n')
    r = _run(["check", str(second), "--compare-with", str(stats_out), "--rules", str(rules), "--json", "-q"])
    out = json.loads(r.stdout)
    status = {x["id"]: (x["status"], x["value"]) for x in out["rules"]}
    # the stats JSON holds the same figures as the file it was computed from: the same difference
    assert status["shorter-questions"][1] == pytest.approx(d.difference, abs=1e-3)
    assert status["shorter-questions"][0] == ("pass" if d.difference < 0 else "fail")
    assert status["sim-not-higher"][0] == "pass"
    assert r.exit_code == (0 if d.difference < 0 else 1) and out["compare_with"] == str(stats_out)
    r = _run(["check", str(second), "--rules", str(rules), "-q"])  # without --compare-with: skipped
    assert r.exit_code == 0 and r.output.count("SKIP") == 2 and "--compare-with REF" in r.output
    rules.write_text('[[rule]]\nid = "typo"\nmetric = "compare.similarity.typo.difference"\nop = "<"\nthreshold = 0\n')
    r = _run(["check", str(second), "--compare-with", str(stats_out), "--rules", str(rules)])
    assert r.exit_code == 2 and "compare.<row key>.<field>" in r.output


def read_comparison_via_cli(first, second, tmp_path):
    out = tmp_path / "cmp"
    assert _run(["compare", str(first), str(second), "--out", str(out), "-q"]).exit_code == 0
    return read_comparison(out)
