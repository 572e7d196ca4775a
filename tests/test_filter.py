"""``mrclens filter`` (issue 56, item 3): the data without the flagged questions, in the format it was read in,
with a manifest; never its input."""

from __future__ import annotations

import dataclasses
import json

import pytest

from click.testing import CliRunner

from mrclens.artifacts.filter_manifest import manifest_path, read_filter_manifest
from mrclens.artifacts.shortcut_questions import read_shortcut_questions, write_shortcut_questions
from mrclens.cli import main
from mrclens.formats import load_dataset, read, write
from mrclens.squad import Dataset
from mrclens.stats.evidence import shortcut_evidence


def run_cli(args: list[str]):
    return CliRunner().invoke(main, args)


@pytest.fixture(scope="module")
def small(sample_path, tmp_path_factory) -> tuple[Dataset, str]:
    """Two real articles of the bundled sample (141 questions) as SQuAD JSON."""
    full = load_dataset(sample_path)
    ds = Dataset([a for a in full.articles if a.title in ("Dutch_Republic", "Comprehensive_school")], full.version)
    path = tmp_path_factory.mktemp("filter") / "small.json"
    write(ds, path)
    return load_dataset(path), str(path)


def _ids(path, **kw) -> list[str]:
    return [q.id for _, _, q in read(path, **kw).dataset.iter_questions()]


def _with_flags(rows, flagged_ids: set[str], category: str = "Keyword"):
    """The rows with ``category`` flagged exactly on ``flagged_ids`` (and nowhere else)."""
    out = []
    for r in rows:
        fields = {}
        for name in ("similarity", "question", "keyword", "position"):
            e = getattr(r, name)
            if e is not None:
                e = dataclasses.replace(e, flagged=(e.category == category and r.id in flagged_ids))
            fields[name] = e
        out.append(dataclasses.replace(r, **fields))
    return out


@pytest.mark.parametrize("to,name", [("squad", "data.json"), ("jsonl", "data.jsonl"), ("parquet", "data.parquet"), ("hf", "data-hf")])
def test_filter_writes_the_format_it_read_and_a_manifest_that_accounts_for_every_question(small, tmp_path, to, name):
    if to == "hf":
        pytest.importorskip("datasets")
    ds, _ = small
    src = tmp_path / name
    write(ds, src, to=to)
    ids = _ids(src)
    planted = set(ids[::4])  # every fourth question "carries" the Keyword shortcut
    rows = _with_flags(shortcut_evidence(ds), planted)
    ev = tmp_path / "ev.jsonl"
    write_shortcut_questions(ev, rows)
    before = {p: p.read_bytes() for p in ([src] if src.is_file() else sorted(src.rglob("*"))) if p.is_file()}
    out = tmp_path / ("out-" + name)
    r = run_cli(["filter", str(src), "--out", str(out), "--categories", "keyword", "--evidence", str(ev)])
    assert r.exit_code == 0, r.output
    got = read(out)
    assert got.format == read(src).format and got.container == read(src).container
    kept = _ids(out)
    assert kept == [i for i in ids if i not in planted]  # file order kept, exactly the flagged ones left out
    m = read_filter_manifest(manifest_path(out))
    assert m.questions_read == len(ids) and m.questions_kept == len(kept)
    assert [x.id for x in m.removed] == [i for i in ids if i in planted]
    assert all(x.categories == ["Keyword"] for x in m.removed) and m.removed_by_category == {"Keyword": len(planted)}
    assert {p: p.read_bytes() for p in before} == before  # the input is unchanged
    # the complement: --keep flagged writes exactly the questions left out above
    out2 = tmp_path / ("easy-" + name)
    r = run_cli(["filter", str(src), "--out", str(out2), "--categories", "keyword", "--evidence", str(ev),
                 "--keep", "flagged"])
    assert r.exit_code == 0, r.output
    assert _ids(out2) == [i for i in ids if i in planted]


def test_filter_refuses_to_overwrite_its_input(small, tmp_path):
    _, path = small
    before = open(path, "rb").read()
    r = run_cli(["filter", path, "--out", path])
    assert r.exit_code == 2 and "would overwrite the input" in r.output
    assert open(path, "rb").read() == before
    hf = tmp_path / "hf"
    pytest.importorskip("datasets")
    write(load_dataset(path), hf, to="hf")
    r = run_cli(["filter", str(hf), "--out", str(hf / "inside.json"), "--to", "squad"])
    assert r.exit_code == 2 and "would overwrite the input" in r.output


def test_an_evidence_file_of_other_questions_is_refused_before_anything_is_written(small, tmp_path):
    ds, path = small
    rows = shortcut_evidence(ds)
    ev = tmp_path / "other.jsonl"
    write_shortcut_questions(ev, rows[1:] + [dataclasses.replace(rows[0], id="not-in-the-data")])
    out = tmp_path / "out.json"
    r = run_cli(["filter", path, "--out", str(out), "--evidence", str(ev)])
    assert r.exit_code == 2 and "not-in-the-data" in r.output and str(ev) in r.output
    assert not out.exists() and not manifest_path(out).exists()


def test_evidence_computed_here_equals_the_file_stats_writes(small, tmp_path):
    ds, path = small
    ev = tmp_path / "ev.jsonl"
    write_shortcut_questions(ev, shortcut_evidence(ds))
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert run_cli(["filter", path, "--out", str(a)]).exit_code == 0
    assert run_cli(["filter", path, "--out", str(b), "--evidence", str(ev)]).exit_code == 0
    assert a.read_bytes() == b.read_bytes()
    flagged = {r.id for r in read_shortcut_questions(ev) if r.flagged_categories()}
    assert set(_ids(a)) == {q.id for _, _, q in ds.iter_questions()} - flagged
    assert json.loads(manifest_path(a).read_text())["evidence"] == "computed from the data"
