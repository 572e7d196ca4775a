"""The docstring examples (``>>>``) of every module of the ``mrclens`` package run as tests.

This file is how ``make test`` (``python -m pytest``, which collects ``tests/``) runs them: at
collection it imports every module under ``mrclens/`` (:func:`package_modules.package_modules`,
found on disk, so new modules are picked up without registering them) and makes one test per
docstring that has examples, named after the object (e.g. ``mrclens.stats.text.first_wh_word``).
A module that fails to import is a collection error, not a skip. Examples run as pytest's
``--doctest-modules`` would run them: with the module's globals and the ``ELLIPSIS`` option.

pytest's own ``--doctest-modules`` is not used because it applies to every path it collects: on
``tests/`` it imports the several ``conftest.py`` files as doctest modules and collection fails
("import file mismatch").
"""

from __future__ import annotations

import doctest
import importlib
import re
from collections import Counter
from pathlib import Path

import pytest

from package_modules import PACKAGE_DIR, package_modules

OPTIONFLAGS = doctest.ELLIPSIS
_PROMPT = re.compile(r"^\s*>>>( |$)")


def _docstring_tests() -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder(exclude_empty=True)
    found = []
    for name in package_modules():
        found.extend(t for t in finder.find(importlib.import_module(name)) if t.examples)
    return sorted(found, key=lambda t: t.name)


DOCTESTS = _docstring_tests()


@pytest.mark.parametrize("case", DOCTESTS, ids=[t.name for t in DOCTESTS])
def test_docstring_examples(case: doctest.DocTest):
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=OPTIONFLAGS)
    result = runner.run(case, out=report.append)
    assert result.attempted == len(case.examples)
    if result.failed:
        pytest.fail(f"{result.failed} of {result.attempted} examples failed in {case.name} "
                    f"({case.filename}:{case.lineno}):\n" + "".join(report), pytrace=False)


def test_examples_of_modules_and_functions_are_found():
    """Module-level and function docstrings, in the package and in a subpackage (a guard against a
    finder that silently finds nothing: this would then be the only test of this file)."""
    names = {t.name for t in DOCTESTS}
    assert {"mrclens.defaults", "mrclens.defaults.describe_step_budgets", "mrclens.baseline_model.config"} <= names
    assert sum(len(t.examples) for t in DOCTESTS) >= 30


def test_every_prompt_in_the_package_is_run():
    """Each ``>>>`` line of a package file belongs to an example above: none sits where the finder
    does not look (e.g. a click command's help text), where it would silently never run."""
    run = Counter()
    for case in DOCTESTS:
        run[Path(case.filename).resolve()] += len(case.examples)
    written = Counter()
    for path in PACKAGE_DIR.rglob("*.py"):
        n = sum(1 for line in path.read_text(encoding="utf-8").splitlines() if _PROMPT.match(line))
        if n:
            written[path.resolve()] = n
    assert run == written
