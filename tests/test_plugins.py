"""Plug-in probes (:mod:`mrclens.plugins`): an installed package adds an ablation and a model-free figure
through entry points. The package is ``tests/plugin_probe/mrclens_myprobe.py`` with a ``.dist-info``
written next to a copy of it on ``sys.path`` (what ``pip install mrclens-myprobe`` leaves)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mrclens.errors import MRCLensError
from mrclens.formats import load_dataset
from mrclens.squad import Dataset, write_dataset
from tests.conftest import REPO, SAMPLE

PROBE = Path(__file__).parent / "plugin_probe" / "mrclens_myprobe.py"
ENTRY_POINTS = """\
[mrclens_ablations]
x1 = mrclens_myprobe:X1

[mrclens_figures]
answer_chars = mrclens_myprobe:ANSWER_CHARS
"""


def install_probe(site: Path, entry_points: str = ENTRY_POINTS) -> Path:
    """Lay out an installed ``mrclens-myprobe`` in ``site`` (module + dist-info with entry points)."""
    site.mkdir(parents=True, exist_ok=True)
    shutil.copy(PROBE, site / PROBE.name)
    info = site / "mrclens_myprobe-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mrclens-myprobe\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(entry_points)
    return site


@pytest.fixture
def registry_restored():
    """Put the ablation registry and the plug-in figures back as they were after the test."""
    from mrclens.perturbations import registry
    from mrclens.stats import plugins

    ablations, categories = dict(registry.ABLATIONS), {k: list(v) for k, v in registry.CATEGORIES.items()}
    figures = dict(plugins._FIGURES)
    yield registry
    registry.ABLATIONS.clear()
    registry.ABLATIONS.update(ablations)
    registry.CATEGORIES.clear()
    registry.CATEGORIES.update(categories)
    plugins._FIGURES.clear()
    plugins._FIGURES.update(figures)
    sys.modules.pop("mrclens_myprobe", None)


def test_entry_points_fill_the_one_ablation_registry_and_the_figures(tmp_path, monkeypatch, registry_restored):
    from mrclens.perturbations import resolve_ablations
    from mrclens.stats.plugins import compute_figures, load_plugin_figures
    from mrclens.stats.schema import is_metric

    monkeypatch.syspath_prepend(str(install_probe(tmp_path / "site")))
    assert registry_restored.load_plugin_ablations() == ["x1"]
    assert list(registry_restored.ABLATIONS)[-1] == "x1" and "x1" in registry_restored.CATEGORIES["Question"]
    assert resolve_ablations("e4,x1") == ["e4", "c4", "x1"]
    assert load_plugin_figures() == ["answer_chars"]
    assert is_metric("plugins.answer_chars.mean") and not is_metric("plugins.answer_chars.median")
    sample = load_dataset(SAMPLE)
    lengths = [len(q.answers[0].text) for _, _, q in sample.iter_questions()]
    assert compute_figures(sample) == {"answer_chars": {"mean": sum(lengths) / len(lengths), "n": len(lengths)}}


def test_a_broken_or_wrong_plug_in_is_reported_by_name(tmp_path, monkeypatch, registry_restored):
    monkeypatch.syspath_prepend(str(install_probe(tmp_path / "site", "[mrclens_ablations]\nx9 = mrclens_nothere:X9\n")))
    with pytest.raises(MRCLensError, match=r"plug-in 'x9' \(mrclens_nothere:X9, group mrclens_ablations, from mrclens-myprobe\)"):
        registry_restored.load_plugin_ablations()
    monkeypatch.syspath_prepend(str(install_probe(tmp_path / "site2", "[mrclens_ablations]\nx2 = mrclens_myprobe:answer_chars\n")))
    with pytest.raises(MRCLensError, match="expected an mrclens.perturbations.Ablation"):
        registry_restored.load_plugin_ablations()


def _mrclens(env, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(Path(sys.executable).parent / "mrclens"), *args], env=env, capture_output=True, text=True)


@pytest.mark.slow
def test_a_plug_in_ablation_and_figure_end_to_end(tmp_path):
    """pip-installed plug-in → `perturb --ablations x1` → `evaluate` (a simple predictions folder) → `report`,
    and its figure in `stats` and a `check` rule; each command in its own process, as a user runs them."""
    if not (Path(sys.executable).parent / "mrclens").exists():
        pytest.skip("the mrclens console script is not installed next to this Python")
    site = install_probe(tmp_path / "site")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(site)]), "MRCLENS_CACHE_DIR": str(tmp_path / "cache")}
    sample = load_dataset(SAMPLE)
    data = tmp_path / "one.json"
    write_dataset(Dataset(sample.articles[:1], sample.version), data)
    gold = {q.id: q.answers[0].text for _, _, q in load_dataset(data).iter_questions()}
    cased = sum(q.question != q.question.lower() for _, _, q in load_dataset(data).iter_questions())

    assert "x1" in _mrclens(env, "perturb", "--help").stdout
    r = _mrclens(env, "perturb", str(data), "--out", str(tmp_path / "p"), "--ablations", "x1", "-q")
    assert r.returncode == 0, r.stderr
    manifest = json.loads((tmp_path / "p" / "manifest.json").read_text())
    assert list(manifest["ablations"]) == ["x1"] and manifest["ablations"]["x1"]["changed"] == cased
    assert manifest["ablations"]["x1"]["unchanged"] == ({"already_lower_case": len(gold) - cased} if cased < len(gold) else {})
    x1_set = load_dataset(tmp_path / "p" / "x1.json")
    assert all(q.question == q.question.lower() for _, _, q in x1_set.iter_questions())

    preds = tmp_path / "preds"
    preds.mkdir()
    (preds / "original.json").write_text(json.dumps(gold))
    wrong = sorted(gold)[: len(gold) // 2]  # the reader misses half the questions once they are lower-cased
    (preds / "x1.json").write_text(json.dumps({q: ("" if q in wrong else a) for q, a in gold.items()}))
    r = _mrclens(env, "evaluate", str(tmp_path / "p"), "--predictions-dir", str(preds), "--out", str(tmp_path / "e"),
                 "--resamples", "200")
    assert r.returncode == 0, r.stderr
    results = json.loads((tmp_path / "e" / "results.json").read_text())
    x1 = next(a for a in results["ablations"] if a["id"] == "x1")
    assert x1["evaluated"] and x1["category"] == "Question" and x1["f1_drop"] == pytest.approx(100 * len(wrong) / len(gold))
    assert next(c for c in results["categories"] if c["category"] == "Question")["evaluated"] == ["x1"]
    lengths = [len(a) for a in gold.values()]
    assert results["sections"]["plugin_figures"]["answer_chars"] == {"mean": pytest.approx(sum(lengths) / len(lengths)),
                                                                      "n": len(lengths)}
    r = _mrclens(env, "report", str(tmp_path / "e"), "--out", str(tmp_path / "r.html"))
    assert r.returncode == 0, r.stderr
    html = (tmp_path / "r.html").read_text()
    assert "lower-cased question" in html and "Plug-in figures of the original set" in html

    r = _mrclens(env, "stats", str(data), "--jobs", "1")
    assert r.returncode == 0 and "answer_chars: mean" in r.stdout, r.stderr
    rules = tmp_path / "rules.toml"
    rules.write_text('replace_defaults = true\n[[rule]]\nid = "short-answers"\nmetric = "plugins.answer_chars.mean"\n'
                     'op = "<="\nthreshold = 5\nmeaning = "answers are short"\n')
    r = _mrclens(env, "check", str(data), "--rules", str(rules), "--jobs", "1")
    assert r.returncode == 1 and "FAIL  short-answers" in r.stdout, r.stdout + r.stderr
