"""The statistics cache key: its code fingerprint is derived from the imports of the figure code."""

from __future__ import annotations

import pytest

from mrclens.formats import load_dataset
from mrclens.stats import cache, fingerprint
from mrclens.stats.fingerprint import module_closure, source_fingerprint


@pytest.fixture()
def fresh_fingerprint():
    """code_fingerprint() recomputed in the test, and again after it (it is cached per process)."""
    cache.code_fingerprint.cache_clear()
    yield
    cache.code_fingerprint.cache_clear()


def figure_modules() -> list[str]:
    return module_closure(cache.FIGURE_MODULES, cache._search_dir())


def test_the_figure_code_and_what_it_imports_are_fingerprinted():
    from mrclens.metrics.official import normalize_answer
    from mrclens.stats.heuristics import PassageIndex
    from mrclens.stats.text import word_tokens
    from mrclens.units import answer_unit_indices

    modules = figure_modules()
    # the official answer normalisation (upper bounds) and the answer units, which the old
    # hand-written list missed, wherever they are defined
    assert normalize_answer.__module__ in modules and answer_unit_indices.__module__ in modules
    assert {"mrclens.metrics.official", "mrclens.units"} <= set(modules)
    assert {PassageIndex.__module__, word_tokens.__module__, "mrclens.stats.paragraph", "mrclens.stats.cache"} <= set(modules)
    # figures computed after the cache (scores, similarity, answer types, leakage) are not in the key
    assert not {"mrclens.stats.core", "mrclens.stats.similarity", "mrclens.stats.answer_types",
                "mrclens.stats.leakage", "mrclens.stats.summary", "mrclens.checks"} & set(modules)
    assert modules == sorted(modules)


def test_editing_any_dependency_changes_the_key(monkeypatch, fresh_fingerprint, sample_path):
    paragraph = next(p for _, p in load_dataset(sample_path).iter_paragraphs())
    units, sims = [(0, 10), (10, len(paragraph.context))], [0] * len(paragraph.questions)
    original = cache.figures_key(paragraph, units, sims, 3)
    assert cache.figures_key(paragraph, units, sims, 3) == original  # deterministic
    read = fingerprint.read_source
    search_dir = cache._search_dir()
    modules = figure_modules()
    for name in modules + ["mrclens.stats.leakage"]:
        edited = fingerprint.module_file(name, search_dir)

        def read_edited(path, edited=edited):
            return read(path) + (b"\n# edited\n" if path == edited else b"")

        monkeypatch.setattr(fingerprint, "read_source", read_edited)
        cache.code_fingerprint.cache_clear()
        key = cache.figures_key(paragraph, units, sims, 3)
        if name in modules:
            assert key != original, f"editing {name} does not change the cache key"
        else:
            assert key == original, f"{name} is not used by the cached figures, yet changes the key"
    monkeypatch.setattr(fingerprint, "read_source", read)
    cache.code_fingerprint.cache_clear()
    assert cache.figures_key(paragraph, units, sims, 3) == original


def test_imports_are_followed_through_every_form(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "VERSION = 1\n",
        "root.py": ("import json\nimport pkg.plain\nfrom . import sibling\nfrom .sub.deep import f\n"
                    "from pkg import VERSION\nfrom pkg.sub import g\n\n"
                    "def later():\n    from pkg.lazy import h\n"),
        "plain.py": "", "sibling.py": "from .sub import deep\n",
        "lazy.py": "", "unused.py": "",
        "sub/__init__.py": "def g():\n    pass\n",
        "sub/deep.py": "from ..plain import x\n",
    }
    for rel, text in files.items():
        (pkg / rel).write_text(text)
    assert module_closure(["pkg.root"], tmp_path) == [
        "pkg",            # from pkg import VERSION (an attribute of pkg/__init__.py)
        "pkg.lazy",       # an import inside a function
        "pkg.plain",      # import pkg.plain; from ..plain import x (relative, two levels)
        "pkg.root",
        "pkg.sibling",    # from . import sibling
        "pkg.sub",        # from pkg.sub import g (an attribute of pkg/sub/__init__.py)
        "pkg.sub.deep",   # from .sub.deep import f; from .sub import deep
    ]
    before = source_fingerprint(["pkg.root"], tmp_path)
    (pkg / "unused.py").write_text("changed = True\n")
    assert source_fingerprint(["pkg.root"], tmp_path) == before
    (pkg / "sub" / "deep.py").write_text("from ..plain import x  # changed\n")
    assert source_fingerprint(["pkg.root"], tmp_path) != before
    (pkg / "plain.py").unlink()
    with pytest.raises(FileNotFoundError, match="pkg.plain"):
        module_closure(["pkg.root"], tmp_path)
