"""Plug-in probes (:mod:`mrclens.plugins`): an installed package adds an ablation and a model-free figure
through entry points. The package is ``tests/plugin_probe/mrclens_myprobe.py`` with a ``.dist-info``
written next to a copy of it on ``sys.path`` (what ``pip install mrclens-myprobe`` leaves)."""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mrclens.categories import get_category
from mrclens.errors import MRCLensError, PluginError
from mrclens.formats import load_dataset
from mrclens.squad import Article, Dataset, write_dataset
from tests.conftest import REPO, SAMPLE
from tests.perturbed_fixture import make_perturbed_dir, write_predictions

PROBE = Path(__file__).parent / "plugin_probe" / "mrclens_myprobe.py"
ENTRY_POINTS = """\
[mrclens_ablations]
x1 = mrclens_myprobe:X1

[mrclens_figures]
answer_chars = mrclens_myprobe:ANSWER_CHARS
"""


def install_probe(site: Path, entry_points: str = ENTRY_POINTS) -> Path:
    """Lay out an installed ``mrclens-myprobe`` in ``site`` (its modules, the working probe and the faulty
    :mod:`mrclens_badprobe`, and a dist-info with ``entry_points``)."""
    site.mkdir(parents=True, exist_ok=True)
    for module in PROBE.parent.glob("mrclens_*.py"):
        shutil.copy(module, site / module.name)
    info = site / "mrclens_myprobe-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mrclens-myprobe\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(entry_points)
    return site


@pytest.fixture
def registry_restored():
    """Put the ablation registry, the plug-in figures, their sources and the plug-ins that could not be loaded
    back as they were after the test."""
    import mrclens.plugins
    from mrclens.perturbations import registry
    from mrclens.stats import plugins

    kept = [registry.ABLATIONS, registry.PLUGIN_SOURCES, plugins._FIGURES, plugins._SOURCES,
            mrclens.plugins._broken]
    saved = [{k: (list(v) if isinstance(v, list) else v) for k, v in d.items()} for d in kept]
    loaded = plugins._loaded
    yield registry
    plugins._loaded = loaded
    for d, before in zip(kept, saved):
        d.clear()
        d.update(before)
    for module in ("mrclens_myprobe", "mrclens_badprobe", "mrclens_selfregistering"):
        sys.modules.pop(module, None)


def test_entry_points_fill_the_one_ablation_registry_and_the_figures(tmp_path, monkeypatch, registry_restored):
    from mrclens.perturbations import resolve_ablations
    from mrclens.stats.plugins import compute_figures, load_plugin_figures
    from mrclens.stats.schema import is_metric

    monkeypatch.syspath_prepend(str(install_probe(tmp_path / "site")))
    assert registry_restored.load_plugin_ablations() == ["x1"]
    assert list(registry_restored.ABLATIONS)[-1] == "x1" and "x1" in get_category("Question").ablations
    assert resolve_ablations("e4,x1") == ["e4", "c4", "x1"]
    assert load_plugin_figures() == ["answer_chars"]
    assert is_metric("plugins.answer_chars.mean") and not is_metric("plugins.answer_chars.median")
    sample = load_dataset(SAMPLE)
    lengths = [len(q.answers[0].text) for _, _, q in sample.iter_questions()]
    assert compute_figures(sample) == {"answer_chars": {"mean": sum(lengths) / len(lengths), "n": len(lengths)}}


def test_a_plug_in_that_cannot_be_loaded_warns_once_and_stops_only_what_asks_for_it(tmp_path, monkeypatch, caplog,
                                                                                       registry_restored):
    """Issue 42, item 3: a plug-in that fails to import (or names something else than an ablation or a figure)
    is a warning naming it and its error, given once; ``--ablations x9`` or a rule on its figure stops with
    :class:`PluginError` naming it, and every other ablation still resolves."""
    from mrclens.perturbations import resolve_ablations
    from mrclens.stats.plugins import registered_figures
    from mrclens.stats.schema import is_metric

    broken = ("[mrclens_ablations]\nx9 = mrclens_nothere:X9\nx2 = mrclens_myprobe:answer_chars\nx3 = mrclens_badprobe:BAD_ID\n"
              "x4 = mrclens_selfregistering\n[mrclens_figures]\nanswer_chars = mrclens_nothere:ANSWER_CHARS\n")
    site = install_probe(tmp_path / "site", broken)
    (site / "mrclens_selfregistering.py").write_text(  # a module that registers its own ablation, with a bad field
        "from mrclens.perturbations import Ablation, register\nregister(Ablation(id='x4', name=None, category='Question', "
        "eval_set='full', bias_signal='small_drop', apply=print))\n")
    monkeypatch.syspath_prepend(str(site))
    with caplog.at_level(logging.WARNING, logger="mrclens"):
        assert registry_restored.load_plugin_ablations() == []
        assert registry_restored.load_plugin_ablations() == []  # tried again: not warned again
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 4, warnings
    x9 = "plug-in 'x9' (mrclens_nothere:X9, group mrclens_ablations, from mrclens-myprobe)"
    assert x9 in warnings[3] and "ModuleNotFoundError: No module named 'mrclens_nothere'" in warnings[3]
    assert "plug-in 'x2' (mrclens_myprobe:answer_chars" in warnings[0] and "expected an mrclens.perturbations.Ablation" in warnings[0]
    assert "plug-in 'x3' (mrclens_badprobe:BAD_ID" in warnings[1] and "its id '../x3' is not lower-case" in warnings[1]
    assert "plug-in 'x4' (mrclens_selfregistering" in warnings[2] and "ablation 'x4': its name is None, not a string" in warnings[2]
    assert "x4" not in registry_restored.ABLATIONS and all("left out" in w for w in warnings)

    assert resolve_ablations("e4") == ["e4", "c4"]
    with pytest.raises(PluginError, match=re.escape(x9) + " cannot be loaded: ModuleNotFoundError"):
        resolve_ablations("e4,x9")
    with pytest.raises(PluginError, match=r"plug-in 'x2' .*expected an mrclens.perturbations.Ablation, got function"):
        resolve_ablations("x2")
    with pytest.raises(PluginError, match=r"plug-in 'x3' .*its id '\.\./x3'"):
        resolve_ablations("x3")
    with pytest.raises(MRCLensError, match=r"unknown ablation\(s\) x7; .*plug-in 'x9' .* cannot be loaded"):
        resolve_ablations("x7")

    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="mrclens"):
        from mrclens.stats import plugins

        plugins._loaded = False
        assert registered_figures() == [] and registered_figures() == []
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "plug-in 'answer_chars' (mrclens_nothere:ANSWER_CHARS, group mrclens_figures" in warnings[0]
    assert not is_metric("plugins.other.mean")
    with pytest.raises(PluginError, match=r"plug-in 'answer_chars' .* cannot be loaded: ModuleNotFoundError"):
        is_metric("plugins.answer_chars.mean")  # a check rule asks for the figure


def test_a_plug_in_that_cannot_be_imported_does_not_block_help(tmp_path):
    """Issue 42, item 3, as a user meets it: ``perturb --help`` lists the options (exit 0) with one warning
    naming the plug-in; ``perturb --ablations x9`` stops with exit 2 naming it and its error."""
    site = install_probe(tmp_path / "site", "[mrclens_ablations]\nx9 = mrclens_nothere:X9\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(site)]), "MRCLENS_CACHE_DIR": str(tmp_path / "cache")}
    name = "plug-in 'x9' (mrclens_nothere:X9, group mrclens_ablations, from mrclens-myprobe)"
    r = subprocess.run([sys.executable, "-m", "mrclens.cli", "perturb", "--help"], env=env, capture_output=True, text=True)
    assert r.returncode == 0 and "--ablations" in r.stdout, r.stderr
    assert r.stderr.count(name) == 1 and "warning: " in r.stderr and "ModuleNotFoundError" in r.stderr, r.stderr
    data = tmp_path / "one.json"
    sample = load_dataset(SAMPLE)
    write_dataset(Dataset([Article(sample.articles[0].title, sample.articles[0].paragraphs[:1])], sample.version), data)
    r = subprocess.run([sys.executable, "-m", "mrclens.cli", "perturb", str(data), "--out", str(tmp_path / "p"),
                        "--ablations", "x9", "-q"], env=env, capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    assert f"error: {name} cannot be loaded: ModuleNotFoundError" in r.stderr and "internal error" not in r.stderr
    assert not (tmp_path / "p").exists()


# --------------------------------------------------------------------------- faulty plug-ins (issue 42, item 2)


@pytest.fixture(scope="module")
def small_data(tmp_path_factory) -> Path:
    """The sample's first three paragraphs (1, 5 and 4 questions)."""
    sample = load_dataset(SAMPLE)
    article = sample.articles[0]
    return write_dataset(Dataset([Article(article.title, article.paragraphs[:3])], sample.version),
                         tmp_path_factory.mktemp("data") / "small.json")


@pytest.fixture(scope="module")
def parse_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cache")


def _first_moved_answer(data: Path) -> str:
    """The first question whose answer is no longer at its offset once a sentence is put before the context."""
    for _, p, q in load_dataset(data).iter_questions():
        context = "A sentence the plug-in put first. " + p.context
        if any(context[a.answer_start:a.answer_end] != a.text for a in q.answers):
            return q.id
    raise AssertionError("no answer moved")


def _one_error_line(output: str) -> str:
    assert "Traceback" not in output and "internal error" not in output, output
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), output
    return lines[0]


FAULTY_ABLATIONS = {  # entry point value -> (what the message says, which question it names)
    "RAISES": ("raised RuntimeError: probe failure on the paragraph of question {first}", "first"),
    "RETURNS_NONE": ("returned None for the paragraph of question {first}, not (paragraph, change records)", "first"),
    "RECORDS_NOT_A_MAPPING": ("change records for the paragraph of question {first} are a list", "first"),
    "DROPS_QUESTIONS": ("dropped question {dropped} (its paragraph has 5 questions, the output 1)", "dropped"),
    "ADDS_A_QUESTION": ("added question {first}-extra", "first"),
    "BREAKS_OFFSETS": ("question {moved}: answer", "moved"),
    "OMITS_RECORDS": ("gave no change record for question {first}", "first"),
    "BAD_RECORD": ("the change record of question {first} is {{'changed': 'yes'}}", "first"),
    "RECORD_NOT_JSON": ("the change record of question {first} cannot be written as JSON", "first"),
    "PREPARE_RAISES": ("prepare raised KeyError: 'vocabulary'", None),
}


@pytest.mark.parametrize("value", FAULTY_ABLATIONS)
def test_a_faulty_plug_in_ablation_exits_2_naming_it_and_writes_nothing(value, small_data, parse_cache, tmp_path,
                                                                         monkeypatch, registry_restored):
    """Issue 42, item 2: an ablation plug-in that raises, returns the wrong thing, drops or adds questions,
    breaks an answer's offset or gives no (or malformed) change records stops ``perturb --ablations x1``
    with exit 2 naming the plug-in, its distribution and the first offending question, before any file is
    written; never exit 3 (a bug in MRCLens)."""
    from click.testing import CliRunner

    from mrclens.cli import main

    monkeypatch.syspath_prepend(str(install_probe(tmp_path / "site", f"[mrclens_ablations]\nx1 = mrclens_badprobe:{value}\n")))
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(parse_cache))
    assert registry_restored.load_plugin_ablations() == ["x1"]
    paragraphs = load_dataset(small_data).articles[0].paragraphs
    ids = {"first": paragraphs[0].questions[0].id, "dropped": paragraphs[1].questions[1].id,
           "moved": _first_moved_answer(small_data)}
    said, named = FAULTY_ABLATIONS[value]
    out = tmp_path / "p"
    res = CliRunner().invoke(main, ["perturb", str(small_data), "--out", str(out), "--ablations", "x1", "-q"])
    assert res.exit_code == 2, res.output
    line = _one_error_line(res.output)
    assert line.startswith(f"error: plug-in 'x1' (mrclens_badprobe:{value}, group mrclens_ablations, from mrclens-myprobe)"), line
    assert said.format(**ids) in line, line
    if named is not None:
        assert all(ids[k] not in line for k in ids if k != named and ids[k] != ids[named]), line  # the first one only
    assert "fix or uninstall mrclens-myprobe" in line
    assert not out.exists()


FAULTY_FIGURES = {
    "FIGURE_RAISES": "raised ZeroDivisionError: division by zero",
    "FIGURE_RETURNS_NONE": "returned None, not a mapping of its keys (mean, n) to numbers",
    "FIGURE_RETURNS_A_LIST": "returned a list ([1.0, 2.0]), not a mapping of its keys (mean, n) to numbers",
    "FIGURE_RETURNS_TEXT": "returned mean = 'long', not a finite number or null",
}


@pytest.mark.parametrize("value", FAULTY_FIGURES)
def test_a_faulty_plug_in_figure_is_named_with_its_distribution(value, tmp_path, monkeypatch, registry_restored):
    """Issue 42, item 2: a figure that raises or returns something other than numbers under its keys is a
    :class:`PluginError` naming the plug-in, its distribution and what it raised or returned."""
    from mrclens.stats.plugins import compute_figures, load_plugin_figures

    monkeypatch.syspath_prepend(str(install_probe(tmp_path / "site", f"[mrclens_figures]\nanswer_chars = mrclens_badprobe:{value}\n")))
    assert load_plugin_figures() == ["answer_chars"]
    with pytest.raises(PluginError) as caught:
        compute_figures(load_dataset(SAMPLE))
    message = str(caught.value)
    assert message.startswith(f"plug-in 'answer_chars' (mrclens_badprobe:{value}, group mrclens_figures, from mrclens-myprobe): "
                              f"figure 'answer_chars' {FAULTY_FIGURES[value]}"), message
    assert "fix or uninstall mrclens-myprobe" in message


@pytest.mark.parametrize("command", ["stats", "check", "evaluate"])
def test_a_faulty_plug_in_figure_exits_2_in_every_command_that_computes_it(command, small_data, parse_cache, tmp_path,
                                                                         monkeypatch, registry_restored):
    """Issue 42, item 2, as a user meets it: ``stats``, ``check`` and ``evaluate --out`` stop with exit 2 naming
    the figure's plug-in and its distribution (no crash log, nothing written)."""
    from click.testing import CliRunner

    from mrclens.cli import main
    from mrclens.stats.plugins import load_plugin_figures

    monkeypatch.syspath_prepend(str(install_probe(tmp_path / "site", "[mrclens_figures]\nanswer_chars = mrclens_badprobe:FIGURE_RETURNS_NONE\n")))
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(parse_cache))
    monkeypatch.setenv("MRCLENS_CRASH_DIR", str(tmp_path / "crashes"))
    assert load_plugin_figures() == ["answer_chars"]
    out = tmp_path / "out"
    args = {"stats": ["stats", str(small_data), "--jobs", "1", "--out", str(out / "stats.json")],
            "check": ["check", str(small_data), "--jobs", "1"],
            "evaluate": ["evaluate", str(make_perturbed_dir(tmp_path / "p")), "--predictions-dir",
                         str(write_predictions(tmp_path / "p")), "--out", str(out)]}[command]
    res = CliRunner().invoke(main, [*args, "-q"])
    assert res.exit_code == 2, res.output
    line = _one_error_line(res.output)
    assert line.startswith("error: plug-in 'answer_chars' (mrclens_badprobe:FIGURE_RETURNS_NONE, group mrclens_figures, "
                           "from mrclens-myprobe): figure 'answer_chars' returned None"), line
    assert not out.exists() and not (tmp_path / "crashes").exists()


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
    assert r.returncode == 1 and "FAIL    short-answers" in r.stdout, r.stdout + r.stderr
