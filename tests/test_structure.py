"""The structure of the package, as rules that fail when broken (issue 31).

* The floors: ``lint-imports`` keeps the import contract of ``setup.cfg`` (``[importlinter]``):
  no module imports one of a higher floor, function-local and ``TYPE_CHECKING`` imports included.
* No circles: no two modules import each other, directly or round a loop (:func:`import_cycles`).
* Size: no function over :data:`MAX_FUNCTION_LINES` lines, no module over :data:`MAX_MODULE_LINES`.
* Privacy: no private name (leading underscore) is imported from another package, neither by the
  package nor by its tests (a name another package needs is public, or the code moves).
* Errors: every exception class is defined in :mod:`mrclens.errors` (:func:`exception_classes`).
* Tasks: code asks the task registry (:mod:`mrclens.tasks`) instead of comparing a task's name;
  the few comparisons left are listed in :data:`TASK_NAME_COMPARISONS`, each with its reason.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from package_modules import PACKAGE_DIR

ROOT = PACKAGE_DIR.parent
TESTS_DIR = Path(__file__).resolve().parent
MAX_FUNCTION_LINES = 120
MAX_MODULE_LINES = 800
TASK_NAMES = {"span", "multiple_choice"}
TASK_CONSTANTS = {"SPAN", "MULTIPLE_CHOICE", "MC_TASK", "TASK", "DEFAULT_TASK"}

#: "file: compared expression" → why the comparison stays outside the registry (at most 3).
TASK_NAME_COMPARISONS: dict[str, str] = {}


def _sources(base: Path) -> list[Path]:
    return sorted(p for p in base.rglob("*.py") if "__pycache__" not in p.parts)


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def test_import_contract_is_kept():
    lint = Path(sys.executable).with_name("lint-imports")
    res = subprocess.run([str(lint), "--no-cache", "--no-logo"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-2000:]
    assert "1 kept, 0 broken" in res.stdout


def test_no_long_functions_or_modules():
    too_long = []
    for path in _sources(PACKAGE_DIR):
        lines = path.read_text(encoding="utf-8").count("\n")
        if lines > MAX_MODULE_LINES:
            too_long.append(f"{path.relative_to(ROOT)}: {lines} lines")
        for node in ast.walk(_tree(path)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                n = node.end_lineno - start + 1
                if n > MAX_FUNCTION_LINES:
                    too_long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {n} lines")
    assert too_long == []


def _package_of(module: str) -> str:
    """``mrclens.scoring.drops`` → ``mrclens.scoring``; a top-level module is its own package; tests are ``tests``."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "mrclens" else "tests"


def _module_name(path: Path) -> str:
    if TESTS_DIR in path.parents:
        return "tests." + ".".join(path.relative_to(TESTS_DIR).with_suffix("").parts)
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_private_name_is_imported_across_packages():
    found = []
    for path in _sources(PACKAGE_DIR) + _sources(TESTS_DIR):
        importer = _package_of(_module_name(path))
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("mrclens"):
                private = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
                private += [p for p in node.module.split(".") if p.startswith("_") and not p.startswith("__")]
                if private and _package_of(node.module) != importer:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: from {node.module} import {', '.join(private)}")
            elif isinstance(node, ast.Import):
                for a in node.names:
                    parts = a.name.split(".")
                    if a.name.startswith("mrclens") and any(p.startswith("_") and not p.startswith("__") for p in parts) \
                            and _package_of(a.name) != importer:
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}: import {a.name}")
    assert found == []


def _names_task(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in TASK_NAMES
    if isinstance(node, ast.Name):
        return node.id in TASK_CONSTANTS
    if isinstance(node, ast.Attribute):
        return node.attr in TASK_CONSTANTS
    return False


def task_name_comparisons() -> list[str]:
    """Every comparison (``==``, ``!=``, ``in``, ``not in``) of a task's name outside :mod:`mrclens.tasks`,
    as ``"file: expression"``, in Python code and in the report templates."""
    found = []
    for path in _sources(PACKAGE_DIR):
        if path == PACKAGE_DIR / "tasks.py":
            continue
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Compare) and any(isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)) for op in node.ops) \
                    and any(_names_task(side) for side in (node.left, *node.comparators)):
                found.append(f"{path.relative_to(ROOT)}: {ast.unparse(node)}")
    pattern = re.compile(r"""==\s*["'](?:span|multiple_choice)["']|["'](?:span|multiple_choice)["']\s*==""")
    for path in sorted((PACKAGE_DIR / "reports" / "templates").glob("*.html")):
        found += [f"{path.relative_to(ROOT)}: {m.group()}" for m in pattern.finditer(path.read_text(encoding="utf-8"))]
    return found


def test_code_asks_the_task_registry_instead_of_comparing_task_names():
    found = task_name_comparisons()
    assert sorted(found) == sorted(TASK_NAME_COMPARISONS), found
    assert len(TASK_NAME_COMPARISONS) <= 3


def test_the_task_check_sees_a_comparison(tmp_path):
    """The detector itself: a comparison written the usual ways is found (so the rule above can fail)."""
    code = 'if task == "multiple_choice":\n    pass\nif results.task != SPAN:\n    pass\nx = task_of(r).metric\n'
    nodes = [n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Compare)]
    assert [any(_names_task(s) for s in (n.left, *n.comparators)) for n in nodes] == [True, True]


def import_cycles() -> list[list[str]]:
    """Every import circle between modules of the package (function-local and ``TYPE_CHECKING``
    imports included; the package faces, ``__init__`` modules that only hand names on, left out),
    as module lists, found with grimp (import-linter's graph) and Tarjan's strongly connected components."""
    import grimp

    graph = grimp.build_graph("mrclens")
    faces = {m for m in graph.modules if (PACKAGE_DIR.parent / m.replace(".", "/") / "__init__.py").is_file()}
    modules = sorted(graph.modules - faces)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m) - faces) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(m: str) -> None:
        index[m] = low[m] = len(index)
        stack.append(m)
        for n in edges[m]:
            if n not in index:
                visit(n)
                low[m] = min(low[m], low[n])
            elif n in stack:
                low[m] = min(low[m], index[n])
        if low[m] == index[m]:
            component = []
            while True:
                n = stack.pop()
                component.append(n)
                if n == m:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for m in modules:
        if m not in index:
            visit(m)
    return cycles


def test_no_import_circles():
    assert import_cycles() == []


def _is_exception_base(base: ast.expr, known: set[str]) -> bool:
    import builtins

    name = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
    builtin = getattr(builtins, name, None)
    return (isinstance(builtin, type) and issubclass(builtin, BaseException)) or name in known \
        or name.endswith(("Error", "Exception"))


def exception_classes() -> list[str]:
    """Every class of the package that derives from an exception (a built-in one, one of another class found
    here, or a name ending in ``Error`` / ``Exception``), as ``"file: class"``, outside :mod:`mrclens.errors`
    included (the classes of ``errors.py`` are read first, so a subclass of one elsewhere is found)."""
    paths = [PACKAGE_DIR / "errors.py"] + [p for p in _sources(PACKAGE_DIR) if p != PACKAGE_DIR / "errors.py"]
    known: set[str] = set()
    found = []
    for path in paths:
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ClassDef) and any(_is_exception_base(b, known) for b in node.bases):
                known.add(node.name)
                found.append(f"{path.relative_to(ROOT)}: {node.name}")
    return found


def test_every_exception_class_is_in_errors_py():
    found = exception_classes()
    assert "mrclens/errors.py: DuplicateKeyError" in found and "mrclens/errors.py: MRCLensError" in found
    assert [f for f in found if not f.startswith("mrclens/errors.py: ")] == []


def test_no_private_name_is_imported_from_another_module():
    """Inside the package, a private name (leading underscore) stays in its module: another module imports it
    neither by name nor through its module (``mod._name``); a private *module* of a package (``artifacts._files``)
    is imported only inside that package (the test above)."""
    found = []
    for path in _sources(PACKAGE_DIR):
        importer = _module_name(path)
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("mrclens"):
                for a in node.names:
                    submodule = PACKAGE_DIR.parent.joinpath(*node.module.split("."), a.name + ".py")
                    if a.name.startswith("_") and not a.name.startswith("__") and not submodule.is_file() \
                            and node.module != importer:
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}: from {node.module} import {a.name}")
    assert found == []
