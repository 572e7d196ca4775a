"""The bias categories' home (issue 43): every category has all of its parts, and every stage reads them
from :mod:`mrclens.categories` (no stage keeps its own table keyed by a category's name, and no stage
falls back silently for a name it lacks)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import mrclens
from mrclens import categories
from mrclens.categories import CATEGORIES, BiasCategory, DropWording, get_category, plugin_category

PACKAGE = Path(mrclens.__file__).resolve().parent
COLOUR = re.compile(r"#[0-9A-F]{6}")


@pytest.mark.parametrize("name", list(CATEGORIES))
def test_every_category_has_every_part(name):
    c = CATEGORIES[name]
    assert c.name == name and c.built_in
    assert COLOUR.fullmatch(c.colour), c.colour
    for text in (c.definition, c.source, c.advice, c.advice_more):
        assert isinstance(text, str) and len(text.strip()) > 5
    assert c.ablations and set(c.ablations.values()) <= {"large_drop", "small_drop"}
    assert set(c.mc_ablations.values()) <= {"large_drop", "small_drop"}
    assert c.figures and all(isinstance(p, str) and "." in p for p in c.figures)
    assert isinstance(c.wording, DropWording) and all(
        getattr(c.wording, f) is not None for f in ("change", "s", "bias", "partly", "control"))
    assert c.plantings


def test_orders_and_colours_are_distinct():
    assert [c.order for c in CATEGORIES.values()] == list(range(len(CATEGORIES)))
    assert len({c.colour for c in CATEGORIES.values()}) == len(CATEGORIES)


def test_the_ablations_of_each_category_are_the_registry_s():
    """Each built-in ablation declares its category and bias signal; the records list exactly those."""
    from mrclens.multiple_choice.ablations import MC_ABLATIONS
    from mrclens.perturbations.registry import ABLATIONS, plugin_source

    def declared(registry, built_in=lambda aid: True):
        out: dict[str, dict[str, str]] = {}
        for a in registry.values():
            if a.control_of is None and a.bias_signal != "control" and built_in(a.id):
                out.setdefault(a.category, {})[a.id] = a.bias_signal
        return out

    span = declared(ABLATIONS, lambda aid: plugin_source(aid) is None)
    assert span == {c.name: dict(c.ablations) for c in CATEGORIES.values()}
    mc = declared(MC_ABLATIONS)
    assert mc == {c.name: dict(c.mc_ablations) for c in CATEGORIES.values() if c.mc_ablations}


def test_the_model_free_figures_are_the_records():
    from mrclens.scoring.model_free import FIGURES

    assert sorted(f.path for f in FIGURES) == sorted(p for c in CATEGORIES.values() for p in c.figures)
    for f in FIGURES:
        assert f.path in CATEGORIES[f.category].figures
    # each category's deciding figure comes first in its record, where it has one
    for c in CATEGORIES.values():
        verdicts = [f.path for f in FIGURES if f.category == c.name and f.role == "verdict"]
        assert verdicts in ([], [c.figures[0]])


def test_the_plantings_are_the_records():
    from mrclens.selftest.plantings import MC_PLANTINGS, PLANTINGS

    planted = {}
    for p in [*PLANTINGS.values(), *MC_PLANTINGS.values()]:
        planted.setdefault(p.family, []).append(p.name)
    assert {k: sorted(v) for k, v in planted.items()} == {c.name: sorted(c.plantings) for c in CATEGORIES.values()}


def test_the_stages_read_the_records():
    from mrclens.reports.charts import CATEGORY_COLOURS
    from mrclens.reports.glance import advice
    from mrclens.perturbations.registry import CATEGORY_NAMES

    assert CATEGORY_NAMES == tuple(CATEGORIES)
    assert CATEGORY_COLOURS == {c.name: c.colour for c in CATEGORIES.values()}
    for c in CATEGORIES.values():
        assert advice(c.name, "more", "SQuAD v1.1") == c.advice_more


def test_a_plug_in_category_gets_the_generic_record():
    c = get_category("Negation")
    assert isinstance(c, BiasCategory) and not c.built_in and c.order == len(CATEGORIES)
    assert c.advice == categories.GENERIC_ADVICE and c.colour == categories.GENERIC_COLOUR and c.figures == ()
    with pytest.raises(ValueError):
        plugin_category("Position")
    with pytest.raises(KeyError):
        categories.figure_category("counts.questions")


def _fallbacks_on_a_category_name(tree: ast.AST, source: str) -> list[str]:
    """``x.get(<an expression naming a category>, <fallback>)``: a default for a category a table lacks."""
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
                and len(node.args) + len(node.keywords) >= 2 and node.args
                and not isinstance(node.args[0], ast.Constant)
                and "categor" in (ast.get_source_segment(source, node.args[0]) or "").lower()):
            found.append(ast.get_source_segment(source, node) or "")
    return found


def test_no_stage_falls_back_for_a_category_it_lacks():
    offending = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        hits = _fallbacks_on_a_category_name(ast.parse(source), source)
        if hits:
            offending[str(path.relative_to(PACKAGE))] = hits
    assert offending == {}


def test_the_fallback_finder_finds_one():
    source = 'ADVICE.get(c.category, "see the report")\nc.get("category")\nCOLOURS.get(c.get("category"), "#555")\n'
    assert len(_fallbacks_on_a_category_name(ast.parse(source), source)) == 2


def test_no_stage_keeps_a_table_keyed_by_the_category_names():
    """A dict literal whose keys are two or more of the category names, outside mrclens/categories.py."""
    names = set(CATEGORIES)
    offending = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "categories.py" and path.parent == PACKAGE:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
                if len(keys & names) >= 2:
                    offending.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert offending == []
