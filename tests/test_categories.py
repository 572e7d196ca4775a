"""The bias categories' home (issues 43, 53): every category has all of its parts, and every stage reads them
from :mod:`mrclens.categories` (no stage keeps its own table keyed by a category's name, no stage falls back
silently for a name it lacks, no stage gives a plug-in's category a colour of its own, and no stage compares
an ablation's ``bias_signal`` with a name: the :class:`~mrclens.categories.Direction` judges).

What adding a category asks for (DEVELOPERS.md, "Add a category"): its record in ``mrclens/categories.py``
(:func:`test_every_category_has_every_part`), at least one ablation that declares it
(:func:`test_the_members_are_the_ablations_that_declare_them`), its model-free figures in
``mrclens/scoring/model_free.py`` (:func:`test_the_model_free_figures_are_the_records`) and its plantings in
``mrclens/selftest/plantings.py`` (:func:`test_the_plantings_are_the_records`)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import mrclens
import mrclens.multiple_choice.ablations  # noqa: F401  (the registries hand their ablations to the records)
import mrclens.perturbations  # noqa: F401
from mrclens import categories
from mrclens.categories import (CATEGORIES, CONTROL, LARGE_DROP, PLUGIN_COLOURS, SMALL_DROP, BiasCategory, Direction,
                                DropWording, colour_of, direction, get_category, plugin_category, plugin_colour,
                                toward_bias)

PACKAGE = Path(mrclens.__file__).resolve().parent
COLOUR = re.compile(r"#[0-9A-F]{6}")


@pytest.mark.parametrize("name", list(CATEGORIES))
def test_every_category_has_every_part(name):
    c = CATEGORIES[name]
    assert c.name == name and c.built_in
    assert COLOUR.fullmatch(c.colour), c.colour
    for text in (c.definition, c.source, c.advice, c.advice_more):
        assert isinstance(text, str) and len(text.strip()) > 5
    assert c.shortcut == c.shortcut.strip() and c.shortcut[0].islower() and not c.shortcut.endswith(".")  # after "learn to"
    assert c.ablations and set(c.ablations.values()) <= {LARGE_DROP, SMALL_DROP}
    assert set(c.mc_ablations.values()) <= {LARGE_DROP, SMALL_DROP}
    assert c.figures and all(isinstance(p, str) and "." in p for p in c.figures)
    assert isinstance(c.wording, DropWording) and all(
        getattr(c.wording, f) is not None for f in ("change", "s", "bias", "partly", "control"))
    assert c.plantings


def test_colours_are_distinct_and_kept():
    """The bundled colours are the charts' and cards' colours since issue 43: a change shows on every report."""
    assert {c.name: c.colour for c in CATEGORIES.values()} == {
        "Similarity": "#0072B2", "Question": "#D55E00", "Keyword": "#009E73", "Position": "#CC79A7"}
    assert not {c.colour for c in CATEGORIES.values()} & set(PLUGIN_COLOURS)
    assert not hasattr(CATEGORIES["Position"], "order")  # report order is the order of CATEGORIES


def test_the_members_are_the_ablations_that_declare_them():
    """One source of membership: each ablation's ``category`` (and ``bias_signal``); the records read the
    registries, in their order (which every output follows: the category means, the report's groups)."""
    from mrclens.multiple_choice.ablations import MC_ABLATIONS
    from mrclens.perturbations.registry import ABLATIONS

    assert {c.name: dict(c.ablations) for c in CATEGORIES.values()} == {
        "Similarity": {"e1": LARGE_DROP, "e2": LARGE_DROP, "e3": SMALL_DROP, "e10": LARGE_DROP},
        "Question": {"e4": SMALL_DROP, "e5": SMALL_DROP},
        "Keyword": {"e6": LARGE_DROP, "e7": LARGE_DROP, "e8": LARGE_DROP},
        "Position": {"e9": LARGE_DROP}}
    assert {c.name: dict(c.mc_ablations) for c in CATEGORIES.values()} == {
        "Similarity": {}, "Question": {"m1": SMALL_DROP, "m2": SMALL_DROP, "m3": SMALL_DROP},
        "Keyword": {"m4": LARGE_DROP, "m5": LARGE_DROP, "m6": LARGE_DROP}, "Position": {}}
    for registry, kind in ((ABLATIONS, "ablations"), (MC_ABLATIONS, "mc_ablations")):
        for a in registry.values():
            members = getattr(get_category(a.category), kind)
            assert (a.id in members) == (a.control_of is None), a.id
            assert a.control_of is not None or members[a.id] is a.direction


def test_a_registered_ablation_joins_its_category_at_once():
    from mrclens.perturbations.registry import ABLATIONS, Ablation, register

    saved = dict(ABLATIONS)
    try:
        register(Ablation("x9", "negate", "Negation", "full", "small_drop", "Negate the question.", apply=lambda *a: None))
        register(Ablation("x10", "more keywords", "Keyword", "full", "large_drop", "x", apply=lambda *a: None))
        assert dict(get_category("Negation").ablations) == {"x9": SMALL_DROP}
        assert list(CATEGORIES["Keyword"].ablations) == ["e6", "e7", "e8", "x10"]
    finally:
        ABLATIONS.clear()
        ABLATIONS.update(saved)
    assert "x10" not in CATEGORIES["Keyword"].ablations and not get_category("Negation").ablations


def test_the_members_are_not_read_before_a_registry_hands_them_over(monkeypatch):
    monkeypatch.setattr(categories, "_REGISTRIES", {})
    with pytest.raises(LookupError, match="import mrclens.perturbations"):
        CATEGORIES["Position"].ablations
    with pytest.raises(LookupError, match="mrclens.multiple_choice.ablations"):
        CATEGORIES["Question"].mc_ablations
    with pytest.raises(ValueError, match="kind"):
        categories.read_ablations_from("tabular", {})


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
    from mrclens.reports.glance import advice
    from mrclens.perturbations.registry import CATEGORY_NAMES

    assert CATEGORY_NAMES == tuple(CATEGORIES)
    assert {name: colour_of(name) for name in CATEGORIES} == {c.name: c.colour for c in CATEGORIES.values()}
    for c in CATEGORIES.values():
        assert advice(c.name, "more", "SQuAD v1.1") == c.advice_more


def test_a_plug_in_category_gets_the_generic_record():
    c = get_category("Negation")
    assert isinstance(c, BiasCategory) and not c.built_in
    assert c.advice == categories.GENERIC_ADVICE and c.colour == plugin_colour("Negation") and c.figures == ()
    assert colour_of("Negation") == c.colour and c.colour in PLUGIN_COLOURS
    assert len({plugin_colour(n) for n in ("Negation", "Coreference", "Numbers", "Length", "Dates")}) > 1
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


# --- the direction of a test: an object that judges (issue 53) ---------------------------------------------


def test_a_direction_is_looked_up_by_the_name_results_json_keeps():
    assert [direction(n) for n in ("large_drop", "small_drop", "control")] == [LARGE_DROP, SMALL_DROP, CONTROL]
    assert direction(SMALL_DROP) is SMALL_DROP and LARGE_DROP.name == "large_drop"
    assert all(isinstance(d, Direction) and d.name == n for n, d in categories.DIRECTIONS.items())
    assert (LARGE_DROP.text, SMALL_DROP.text, CONTROL.text) == ("large drop", "small drop", "matched control")
    with pytest.raises(ValueError, match="bias_signal"):
        direction("no_drop")
    from mrclens.perturbations.registry import ABLATIONS, BIAS_SIGNALS

    assert BIAS_SIGNALS == ("small_drop", "large_drop", "control")  # the names the registries accept, in this order
    assert ABLATIONS["e4"].direction is SMALL_DROP and ABLATIONS["c4"].direction is CONTROL


def test_a_direction_signs_a_difference_towards_the_bias():
    # e4 (interrogative words only) against SQuAD v1.1: it costs 42.7 points less than there, which is more
    # of the Question bias; e1 (insert question) costs 30.2 more, which is more of the Similarity bias
    assert SMALL_DROP.toward_bias(-42.7) == 42.7 and LARGE_DROP.toward_bias(30.2) == 30.2
    assert SMALL_DROP.toward_bias_interval(-42.7, -50.1, -35.3) == (42.7, 35.3, 50.1)
    assert LARGE_DROP.toward_bias_interval(30.2, 21.0, 39.4) == (30.2, 21.0, 39.4)
    assert toward_bias(-42.7, -50.1, -35.3, "small_drop") == toward_bias(-42.7, -50.1, -35.3, SMALL_DROP)
    assert toward_bias(3.0, 1.0, 5.0, None) == toward_bias(3.0, 1.0, 5.0, "control") == (3.0, 1.0, 5.0)
    assert (LARGE_DROP.bias_when, SMALL_DROP.bias_when, CONTROL.bias_when) == ("higher", "lower", None)
    assert LARGE_DROP.reads_excess and not SMALL_DROP.reads_excess and not CONTROL.reads_excess
    assert SMALL_DROP.removes_information and not LARGE_DROP.removes_information


@pytest.mark.parametrize("judge, drop, low, high, above, level", [
    (SMALL_DROP, 2.1, 0.4, 3.8, True, "strong"),      # e5 on a reader that ignores word order
    (SMALL_DROP, 4.2, 1.0, 7.4, True, "moderate"),    # small, but the interval reaches past 5
    (SMALL_DROP, 7.5, 5.2, 9.8, True, "weak"),        # neither small nor clearly large
    (SMALL_DROP, 42.7, 39.0, 46.4, True, "none"),     # e4 on SQuAD v1.1: the reader needs the question
    (LARGE_DROP, 30.2, 21.0, 39.4, True, "strong"),   # e1 on a reader steered by overlap
    (LARGE_DROP, 12.0, 8.0, 16.0, True, "moderate"),  # large, though the interval reaches below 10
    (LARGE_DROP, 6.2, 3.9, 8.4, True, "moderate"),    # a real, limited pull of 5 points or more
    (LARGE_DROP, 1.2, 0.3, 2.1, True, "none"),        # real but small
    (LARGE_DROP, 0.6, -0.3, 1.4, False, "none"),      # e9 on full SQuAD v1.1, seed 0
])
def test_a_direction_judges_the_evidence_of_a_drop(judge, drop, low, high, above, level):
    from mrclens.metrics.bootstrap import interval_side
    from mrclens.scoring.readings import ablation_evidence

    assert (interval_side(low, high) == "above") == above
    assert ablation_evidence(judge.name, drop, low, high) == level == ablation_evidence(judge, drop, low, high)


def test_a_control_judges_nothing():
    from mrclens.scoring.readings import ablation_evidence

    with pytest.raises(ValueError, match="control"):
        ablation_evidence(CONTROL, 3.0, 1.0, 5.0)


def _compares_a_direction_name(node: ast.AST, source: str) -> bool:
    """``x.bias_signal == "…"``, ``a.get("bias_signal") != …``, ``"small_drop" in …``: a comparison of a
    ``bias_signal`` with a string, or of anything with a direction's name."""
    if not isinstance(node, ast.Compare):
        return False
    sides = [node.left, *node.comparators]
    names = [s for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)]
    if any(s.value in categories.DIRECTIONS for s in names):
        return True
    return bool(names) and any("bias_signal" in (ast.get_source_segment(source, s) or "") for s in sides)


def _direction_tables(node: ast.AST) -> bool:
    """A dict literal keyed by two or more direction names (a table that a :class:`Direction` attribute replaces)."""
    return isinstance(node, ast.Dict) and len({k.value for k in node.keys if isinstance(k, ast.Constant)}
                                              & set(categories.DIRECTIONS)) >= 2


@pytest.mark.slow
def test_no_stage_compares_a_bias_signal_with_a_name():
    offending = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "categories.py" and path.parent == PACKAGE:
            continue
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if _compares_a_direction_name(node, source) or _direction_tables(node):
                offending.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert offending == []


def test_the_direction_finder_finds_them():
    source = ('a.bias_signal == "large_drop"\nx.get("bias_signal") != "control"\nsignal == "small_drop"\n'
              'a.direction is SMALL_DROP\nb.bias_signal in BIAS_SIGNALS\n{"large_drop": 1, "small_drop": 2}\n')
    tree = ast.parse(source)
    assert sum(_compares_a_direction_name(n, source) or _direction_tables(n) for n in ast.walk(tree)) == 4


# --- one colour per category on every surface (issue 53) ----------------------------------------------------


def _reads_a_category_colour(node: ast.AST, source: str) -> bool:
    """``get_category(x).colour``, ``CATEGORIES[f].colour``, ``category.colour``: a colour read past :func:`colour_of`."""
    return (isinstance(node, ast.Attribute) and node.attr == "colour"
            and "categor" in (ast.get_source_segment(source, node.value) or "").lower())


def test_no_stage_reads_a_category_colour_but_through_colour_of():
    """A category's colour is read in one place (:func:`mrclens.categories.colour_of`), so that a plug-in's
    category has the same colour in the bars, the verdict card, the forest plot and the selftest's curve."""
    offending = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "categories.py" and path.parent == PACKAGE:
            continue
        source = path.read_text(encoding="utf-8")
        offending += [f"{path.relative_to(PACKAGE)}:{node.lineno}" for node in ast.walk(ast.parse(source))
                      if _reads_a_category_colour(node, source)]
    assert offending == []


def test_the_colour_finder_finds_them():
    source = ('get_category(c).colour\nCATEGORIES[family].colour\nrecord_of_category.colour\n'
              'VERDICTS["more"].colour\ncolour_of(c)\n')
    assert sum(_reads_a_category_colour(n, source) for n in ast.walk(ast.parse(source))) == 3


def test_a_plug_in_category_s_bars_have_its_colour():
    from mrclens.artifacts.results import AblationResult
    from mrclens.reports.charts import drop_chart_svg

    rows = [AblationResult("x1", "negate", "Negation", "x1", "original", "large_drop", evaluated=True, f1_drop=8.0, ci_low=5.0,
                           ci_high=11.0),
            AblationResult("e9", "move answer sentence", "Position", "e9", "original", "large_drop", evaluated=True, f1_drop=1.0,
                           ci_low=0.2, ci_high=1.8)]
    svg = drop_chart_svg(rows).lower()
    assert colour_of("Negation").lower() in svg and colour_of("Position").lower() in svg
