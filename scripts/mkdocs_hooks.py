"""MkDocs hooks of the documentation site (``mkdocs.yml`` names this file under ``hooks:``).

Three files stay at the repository root, where GitHub shows them, and join the site as pages:
``README.md`` (the home page, ``index.md``), ``BENCHMARKS.md`` and ``DEVELOPERS.md``. Links are
written the way GitHub resolves them — from the README ``docs/commands.md#anchor``, from a page
under ``docs/`` ``../BENCHMARKS.md#anchor`` — and rewritten here to the site's names before MkDocs
reads them, so that ``mkdocs build --strict`` checks every one of them, the anchor included, and a
link that breaks on GitHub breaks the build. Headings get GitHub's anchors (:func:`github_slug`), so
an anchor means the same section in both places.

The API reference (``docs/api.md``) is rendered by mkdocstrings from the docstrings, which cross-reference with
Sphinx roles (``:func:`~mrclens.formats.read```); mkdocstrings leaves those as text, so :func:`tidy_roles` turns
each into its code, linked when the page documents the object.
"""

from __future__ import annotations

import re
from pathlib import Path

import ast

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
#: Repository-root files published as pages: file name -> the page's name on the site.
ROOT_PAGES = {"README.md": "index.md", "BENCHMARKS.md": "benchmarks.md", "DEVELOPERS.md": "developers.md"}
_LINK = re.compile(r"(\]\()([^)\s]+)")
#: A Sphinx role as mkdocstrings renders it: ``:func:`~mrclens.formats.read``` -> ``:func:<code>~mrclens.formats.read</code>``.
_ROLE = re.compile(r":(?:func|class|meth|mod|data|attr|exc|obj):<code>(~?)([\w.]+)</code>")


def github_slug(value: str, separator: str = "-") -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped (letters, digits, ``_`` and ``-``
    kept), each space a hyphen. ``"Input formats (mrclens convert)"`` -> ``input-formats-mrclens-convert``."""
    return re.sub(r"[^\w\- ]", "", value.strip().lower()).replace(" ", separator)


def site_target(target: str, page_is_root: bool) -> str:
    """The site's name of a link target written for GitHub, from a root file or from a page in docs/."""
    if page_is_root:
        if target.startswith("docs/"):
            return target[len("docs/"):]
        prefix = ""
    else:
        if not target.startswith("../"):
            return target
        prefix, target = "../", target[3:]
    name, sep, anchor = target.partition("#")
    if name in ROOT_PAGES:
        return ROOT_PAGES[name] + sep + anchor
    return prefix + target


def rewrite_links(markdown: str, page_is_root: bool) -> str:
    """``markdown`` with every inline link target passed through :func:`site_target`."""
    return _LINK.sub(lambda m: m.group(1) + site_target(m.group(2), page_is_root), markdown)


def public_names(init: Path = ROOT / "mrclens" / "__init__.py") -> dict[str, str]:
    """Where each public name of ``mrclens`` is defined -> its name on the API page: ``{"mrclens.formats.load_dataset":
    "mrclens.load_qa_dataset", ...}``, read from ``_EXPORTS`` in ``mrclens/__init__.py`` (empty without it)."""
    if not init.is_file():
        return {}
    tree = ast.parse(init.read_text(encoding="utf-8"))
    table = next((n.value for n in tree.body if isinstance(n, ast.Assign)
                  and [ast.unparse(t) for t in n.targets] == ["_EXPORTS"]), None)
    exports = ast.literal_eval(table) if table is not None else {}
    return {f"{module}.{attr}": f"mrclens.{name}" for name, (module, attr) in exports.items()}


def tidy_roles(html: str, aliases: dict[str, str] | None = None) -> str:
    """``html`` with every Sphinx role turned into its code (``~`` shows the last part only), linked to the
    object's entry when the page has one: by its path, its public name (``aliases``: :func:`public_names`) or,
    for a short name, ``mrclens.`` + it."""
    aliases = public_names() if aliases is None else aliases
    ids = set(re.findall(r'id="(mrclens[\w.]*)"', html))

    def code(m: re.Match) -> str:
        short, target = m.group(1), m.group(2)
        shown = f"<code>{target.rsplit('.', 1)[-1] if short else target}</code>"
        prefix, _, last = target.rpartition(".")
        candidates = (target, aliases.get(target), f"{aliases.get(prefix)}.{last}", f"mrclens.{target}")
        anchor = next((c for c in candidates if c in ids), None)
        return f'<a href="#{anchor}">{shown}</a>' if anchor else shown

    return _ROLE.sub(code, html)


def on_config(config):
    config.mdx_configs.setdefault("toc", {})["slugify"] = github_slug
    return config


def on_files(files, config):
    for name, page in ROOT_PAGES.items():
        files.append(File.generated(config, page, content=(ROOT / name).read_text(encoding="utf-8")))
    return files


def on_page_markdown(markdown, page, config, files):
    return rewrite_links(markdown, page.file.src_uri in ROOT_PAGES.values())


def on_page_content(html, page, config, files):
    return tidy_roles(html) if ":<code>" in html else html
