"""The public names of ``mrclens`` (issue 57, item 7): each is imported on first use (PEP 562) and seen by a
type checker and the API reference (docs/api.md) through the ``TYPE_CHECKING`` imports of ``mrclens/__init__.py``,
which must name the same objects as ``_EXPORTS``, the table ``__getattr__`` imports from."""

from __future__ import annotations

import ast
import importlib
import re

import mrclens
from package_modules import PACKAGE_DIR


TREE = ast.parse((PACKAGE_DIR / "__init__.py").read_text(encoding="utf-8"))


def _exports() -> dict[str, tuple[str, str]]:
    """The table ``__getattr__`` imports from: public name -> (module, name there), read from the source."""
    value = next(node.value for node in TREE.body if isinstance(node, ast.Assign)
                 and [ast.unparse(t) for t in node.targets] == ["_EXPORTS"])
    return {k: tuple(v) for k, v in ast.literal_eval(value).items()}


def _type_checking_imports() -> dict[str, tuple[str, str]]:
    block = next(node for node in TREE.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    return {a.asname or a.name: (node.module, a.name) for node in block.body if isinstance(node, ast.ImportFrom)
            for a in node.names}


def test_type_checkers_see_every_public_name_as_it_is_imported():
    exports = _exports()
    assert len(exports) >= 15 and _type_checking_imports() == exports
    assert sorted(mrclens.__all__) == sorted(["__version__", *exports])


def test_every_public_name_is_the_object_it_names():
    for name, (module, attribute) in _exports().items():
        assert getattr(mrclens, name) is getattr(importlib.import_module(module), attribute), name


def test_the_api_reference_documents_every_public_name():
    page = (PACKAGE_DIR.parent / "docs" / "api.md").read_text(encoding="utf-8")
    documented = re.findall(r"^::: mrclens\.(\w+)$", page, re.M)
    assert sorted(documented) == sorted(_exports())
