"""Every module of the ``mrclens`` package, found on disk (for the doctest and import tests).

Found from the files, not from a list and not with :func:`pkgutil.walk_packages` (which skips
folders without ``__init__.py``; the package is installed with ``find_namespace:``), so a module
that another change adds is covered without registering it.
"""

from __future__ import annotations

from pathlib import Path

import mrclens

PACKAGE_DIR = Path(mrclens.__file__).resolve().parent


def package_modules() -> list[str]:
    """Dotted names of every ``*.py`` file under ``mrclens/``, sorted; ``__main__`` modules are left out
    (running them is their purpose, importing them is not)."""
    names = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        rel = path.relative_to(PACKAGE_DIR.parent).with_suffix("")
        if "__pycache__" in rel.parts or rel.name == "__main__":
            continue
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        names.append(".".join(parts))
    return names
