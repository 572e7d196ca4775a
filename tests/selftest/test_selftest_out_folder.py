"""`mrclens selftest` into a used output folder (issue 42, item 12): the earlier selftest is resumed only
when it is this one (same seed and datasets); another one is refused before any work, so the folder never
holds one run's datasets beside another run's audits. Real audits of a tiny planting (5 articles of the
bundled sample, 3 questions each; 2 training steps, one ablation), one planting (overlap)."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from mrclens import errors
from mrclens.cli import main
from mrclens.formats import load_dataset
from mrclens.selftest.runner import run_selftest
from mrclens.squad import Article, Dataset, Paragraph, write_dataset

pytestmark = pytest.mark.slow

TINY_AUDIT = dict(max_steps=2, perturb_seeds=1, n_resamples=20, ablations=["e1"])


def _tiny(sample_path: Path, target: Path, first: int) -> Path:
    """Articles first..first+4 of the sample, each its shortest paragraph with 3 questions."""
    sample = load_dataset(sample_path)
    articles = [Article(a.title, [Paragraph(p.context, p.questions[:3])
                                  for p in sorted(a.paragraphs, key=lambda p: len(p.context))[:1]])
                for a in sample.articles[first:first + 5]]
    return write_dataset(Dataset(articles, "1.1"), target)


def _snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_selftest_resumes_only_itself_in_a_used_folder(sample_path, tmp_path):
    data, other = _tiny(sample_path, tmp_path / "tiny.json", 0), _tiny(sample_path, tmp_path / "other.json", 5)
    out, cache = tmp_path / "st", tmp_path / "cache"
    first = run_selftest(out, plantings=["overlap"], data=str(data), seed=0, progress=False, cache_dir=str(cache),
                         audit_options=TINY_AUDIT)
    before = _snapshot(out)
    assert "selftest.json" in before and "overlap/planted-audit/results.json" in before

    def selftest(*args):
        return CliRunner().invoke(main, ["selftest", "--plantings", "overlap", "--out", str(out),
                                         "--cache-dir", str(cache), "--device", "cpu", *map(str, args)])

    # other data: before issue 42, overlap/planted.json was rewritten, then its audit refused (exit 2), leaving
    # the new planted dataset beside the old audit of the old one and the old selftest.json
    res = selftest("--data", other)
    assert res.exit_code == errors.EXIT_BAD_INPUT, res.output
    assert f"{out / 'overlap' / 'planted.json'} holds another overlap dataset" in res.output
    assert "give another --out" in res.output and _snapshot(out) == before
    # another seed: refused on selftest.json's seed (before: the audit's own refusal, which asks for a --force
    # that `mrclens selftest` does not have)
    res = selftest("--data", data, "--seed", 1)
    assert res.exit_code == errors.EXIT_BAD_INPUT, res.output
    assert "holds a selftest with seed 0; this one has seed 1" in res.output and _snapshot(out) == before
    # an interrupted earlier run (no selftest.json yet): the datasets tell (the overlap planting's clean side
    # depends on the seed, its planted side does not)
    shutil.move(out / "selftest.json", tmp_path / "selftest.json")
    res = selftest("--data", data, "--seed", 1)
    assert res.exit_code == errors.EXIT_BAD_INPUT, res.output
    assert f"{out / 'overlap' / 'clean.json'} holds another overlap dataset" in res.output
    shutil.move(tmp_path / "selftest.json", out / "selftest.json")
    assert _snapshot(out) == before

    # the same selftest again: resumed (its audits reused), the same report
    again = run_selftest(out, plantings=["overlap"], data=str(data), seed=0, progress=False, cache_dir=str(cache),
                         audit_options=TINY_AUDIT)
    assert again == first
    assert {k: v for k, v in _snapshot(out).items() if "/model/" in k} == \
           {k: v for k, v in before.items() if "/model/" in k}  # no reader trained again (training.json: its times)
