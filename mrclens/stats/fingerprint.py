"""A fingerprint of the source code behind a computation: its modules and every module of the
same package that they import, transitively.

The statistics cache (:mod:`mrclens.stats.cache`) keys each paragraph's figures by this
fingerprint, so editing any module those figures depend on (a tokeniser, the official answer
normalisation, the sentence units, ...) invalidates the cache without anyone keeping a list.

Imports are read from the source with :mod:`ast`, not by importing: every ``import`` and
``from ... import`` statement anywhere in a module (inside functions too) counts, relative
imports included. Only modules of the package the roots belong to are followed (for
``mrclens.stats.paragraph``, those under ``mrclens``); third-party and standard-library
modules are not. ``from pkg import name`` counts ``pkg.name`` when that is a module, else
``pkg`` itself (``name`` is then defined in ``pkg/__init__.py``). Parent packages that Python
runs on the way (``mrclens/__init__.py`` for ``mrclens.units``) do not count unless imported
from. Imports made by name at run time (:func:`importlib.import_module`) are not seen.
(:mod:`modulefinder` would follow every third-party import too, which costs seconds.)
"""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path
from typing import Iterable


def read_source(path: Path) -> bytes:
    """The bytes of a module's source file (the one place this module reads files)."""
    return path.read_bytes()


def module_file(name: str, search_dir: Path) -> Path | None:
    """The source file of module ``name`` (dotted) under ``search_dir`` (the directory that
    holds the top-level package): ``a/b.py`` or ``a/b/__init__.py``; ``None`` if neither exists."""
    base = search_dir.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def imported_modules(name: str, search_dir: Path) -> set[str]:
    """The modules of ``name``'s top-level package that module ``name`` imports directly.

    Raises:
        FileNotFoundError: ``name`` has no source file under ``search_dir``.
        SyntaxError: its source does not parse.
    """
    path = module_file(name, search_dir)
    if path is None:
        raise FileNotFoundError(f"module {name} has no source file under {search_dir}")
    top = name.split(".")[0]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _run_time_nodes(ast.parse(read_source(path), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: "." is the current package, ".." its parent, ...
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            submodules = {f"{source}.{alias.name}" for alias in node.names}
            submodules = {m for m in submodules if module_file(m, search_dir) is not None}
            found.update(submodules)
            if len(submodules) < len(node.names):  # some names are attributes of the module itself
                found.add(source)
    return {m for m in found if m == top or m.startswith(top + ".")}


def _type_checking(test: ast.expr) -> bool:
    """``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``): a block that never runs."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _run_time_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` but those of ``if TYPE_CHECKING:`` blocks (imports for type checkers only: they never
    run, so they neither change a figure nor belong in its fingerprint); their ``else:`` branches are kept."""
    out: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        out.append(node)
        if isinstance(node, ast.If) and _type_checking(node.test):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))
    return out


def module_closure(roots: Iterable[str], search_dir: Path) -> list[str]:
    """``roots`` and every module of their package that they import, transitively, sorted by name.

    Args:
        roots: dotted module names, e.g. ``["mrclens.stats.paragraph"]``.
        search_dir: the directory that holds their top-level package.

    Raises:
        FileNotFoundError: a root or an imported module has no source file under ``search_dir``.
    """
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(imported_modules(name, search_dir) - seen)
    return sorted(seen)


def source_fingerprint(roots: Iterable[str], search_dir: Path) -> str:
    """sha256 (hex) of the names and sources of :func:`module_closure` ``(roots, search_dir)``, in name order."""
    h = hashlib.sha256()
    for name in module_closure(roots, search_dir):
        source = read_source(module_file(name, search_dir))  # type: ignore[arg-type]
        h.update(name.encode("utf-8") + b"\0" + hashlib.sha256(source).digest())
    return h.hexdigest()
