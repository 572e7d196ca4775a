"""The verdict's words' home (issue 53): every reading, reason and evidence level has all of its words, and no
module of :mod:`mrclens` but :mod:`mrclens.verdicts` keeps a table of them (as ``test_categories.py`` holds the
bias categories to :mod:`mrclens.categories`)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import mrclens
from mrclens import verdicts
from mrclens.verdicts import (EVIDENCE_LEVELS, EVIDENCE_NAMES, NOT_COMPARED, READING_NAMES, READINGS, UNDECIDED,
                              UNDECIDED_NAMES, evidence_level, reading, undecided)

PACKAGE = Path(mrclens.__file__).resolve().parent
HOME = PACKAGE / "verdicts.py"
COLOUR = re.compile(r"#[0-9a-f]{6}")
#: The names a table could be keyed by, per kind: the readings, the reasons for an undecided one, the evidence
#: levels, the bases ("inconclusive" is a reading and a level; "weak" a reason and a level).
KINDS = {"reading": frozenset({*READING_NAMES, NOT_COMPARED.name}), "reason": frozenset(UNDECIDED_NAMES),
         "level": frozenset(EVIDENCE_NAMES), "basis": frozenset(verdicts.BASIS_NAMES)}
NAMES = frozenset().union(*KINDS.values())
#: The constants of :mod:`mrclens.verdicts` by kind (``MORE.name`` as a key is a table of readings too).
_TYPES = {verdicts.Reading: "reading", verdicts.Undecided: "reason", verdicts.EvidenceLevel: "level",
          verdicts.Basis: "basis"}
CONSTANTS = {n: _TYPES[type(v)] for n, v in vars(verdicts).items() if type(v) in _TYPES}
#: Tables keyed by the names that are allowed, each with its reason ("module:function").
ALLOWED = {
    "scoring/readings.py:read_ablation": "each level's sentence of one ablation's reading, built at run time from its "
                                         "figures and the rules' thresholds (the rules' prose, not the level's words)",
}
#: String literals equal to a reading's name that are not a reading, each with its reason ("module:function").
OTHER_WORDS = {
    "reports/report.py:ci_summary": "the level of a drop's interval against 0 (clear / inconclusive / unknown)",
}


@pytest.mark.parametrize("r", [*READINGS, NOT_COMPARED], ids=lambda r: r.name)
def test_every_reading_has_its_words(r):
    assert reading(r.name) is r and r.name in NAMES
    assert COLOUR.fullmatch(r.colour), r.colour
    assert r.than.strip() and r.than.startswith(r.name)
    if r.decided:  # more, in line, less: where the data stands, in every wording
        assert r.side and r.cost and r.sentence and r.figure
    if r is not verdicts.MORE and r is not verdicts.INCONCLUSIVE:  # "more": the category's advice; inconclusive: the reason's
        assert r.advice and "{ref}" in r.advice or r is NOT_COMPARED
    assert [x.name for x in READINGS] == ["more", "slightly more", "in line", "slightly less", "less", "inconclusive"]
    assert r.within_band == (r.name in ("in line", "slightly more", "slightly less"))
    assert r.towards == {"more": 1, "slightly more": 1, "less": -1, "slightly less": -1}.get(r.name, 0)
    # the dataset card's words for its readers (issue 57): what it means for a model trained on the data, what to do
    assert "{shortcut}" in r.means and r.means.endswith(".") and r.users_advice.endswith(".")
    assert "{ref}" in r.means or r is NOT_COMPARED
    assert reading(None) is NOT_COMPARED


@pytest.mark.parametrize("u", UNDECIDED, ids=lambda u: u.name)
def test_every_reason_for_an_undecided_reading_has_its_words(u):
    assert undecided(u.name) is u
    assert u.verdict.strip() and u.says.strip() and u.advice.strip()


@pytest.mark.parametrize("e", EVIDENCE_LEVELS, ids=lambda e: e.name)
def test_every_evidence_level_has_its_words(e):
    assert evidence_level(e.name) is e and EVIDENCE_LEVELS[e.rank] is e
    assert e.word.strip() and e.phrase.strip() and e.badge.strip() and e.reading.strip()
    assert e.shows_bias == (e.rank >= evidence_level("moderate").rank)


def test_lookups_refuse_an_unknown_name():
    for lookup in (reading, undecided, evidence_level):
        with pytest.raises(KeyError):
            lookup("somewhat more")


def _named(node: ast.AST | None) -> set[tuple[str, str]]:
    """``{(kind, name)}`` that ``node`` stands for: a string literal of :data:`NAMES` (of each kind it is a name
    of), or ``X.name`` of a :mod:`mrclens.verdicts` constant."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {(kind, node.value) for kind, names in KINDS.items() if node.value in names}
    if (isinstance(node, ast.Attribute) and node.attr == "name" and isinstance(node.value, ast.Name)
            and node.value.id in CONSTANTS):
        return {(CONSTANTS[node.value.id], node.value.id)}
    return set()


def _tables(source: str) -> list[tuple[int, str]]:
    """``(line, enclosing function)`` of each dict keyed by two or more names of one kind (:data:`KINDS`), and of
    each tuple, set or list literal holding two or more of them (a pair of a reading and its reason is no table)."""
    found = []

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else where
            items = (child.keys if isinstance(child, ast.Dict) else
                     child.elts if isinstance(child, (ast.Tuple, ast.Set, ast.List)) else [])
            named = set().union(*map(_named, items)) if items else set()
            if any(sum(k == kind for k, _ in named) >= 2 for kind in KINDS):
                found.append((child.lineno, where))
            visit(child, inner)

    visit(ast.parse(source), "")
    return found


def _scan(finder, allowances) -> tuple[list[str], set[str]]:
    """``(offending, used allowances)``: what ``finder`` finds in every module of the package but verdicts.py,
    as ``path:line (function)``, less the places ``allowances`` names (``path:function``)."""
    offending, used = [], set()
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == HOME:
            continue
        rel = str(path.relative_to(PACKAGE))
        for line, where in finder(path.read_text(encoding="utf-8")):
            if f"{rel}:{where}" in allowances:
                used.add(f"{rel}:{where}")
            else:
                offending.append(f"{rel}:{line} ({where or 'module'})")
    return offending, used


def test_no_module_keeps_a_table_of_the_verdict_s_words():
    """A dict keyed by two or more reading / reason / level names, or a tuple, set or list of them, outside
    mrclens/verdicts.py (and the :data:`ALLOWED` ones)."""
    offending, allowed = _scan(_tables, ALLOWED)
    assert offending == []
    assert allowed == set(ALLOWED)  # an allowance nothing needs any more goes


def test_the_table_finder_finds_them():
    source = ('WORDS = {"more": "more than", "less": "less than"}\n'
              'def f(v):\n    return v in ("more", "less") or v in {"strong", "moderate"}\n'
              'COLOURS = {MORE.name: "#b42318", LESS.name: "#1a7f37"}\n'
              'OK = ("more", "a shortcut")\nFINE = {"more": 1}\nPAIR = (INCONCLUSIVE.name, OPPOSITE.name)\n'
              'LEVELS = ("inconclusive", "weak")\n')
    assert _tables(source) == [(1, ""), (3, "f"), (3, "f"), (4, ""), (8, "")]


def _reading_literals(source: str) -> list[tuple[int, str]]:
    """``(line, enclosing function)`` of each string literal equal to a reading's name, in code (docstrings are
    prose)."""
    found = []
    tree = ast.parse(source)
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else where
            if isinstance(child, ast.Constant) and child.value in KINDS["reading"] and id(child) not in docs:
                found.append((child.lineno, where))
            visit(child, inner)

    visit(tree, "")
    return found


def test_code_names_a_reading_by_its_record():
    """``bias == MORE.name`` or ``reading(bias) is MORE``, never ``bias == "more"``, outside mrclens/verdicts.py."""
    offending, other = _scan(_reading_literals, OTHER_WORDS)
    assert offending == []
    assert other == set(OTHER_WORDS)


def test_the_literal_finder_finds_them():
    source = '"""A "more" docstring."""\ndef f(v):\n    """in line"""\n    return v == "in line" or v == "higher"\n'
    assert _reading_literals(source) == [(4, "f")]
