"""MkDocs hooks of the documentation site (``mkdocs.yml`` names this file under ``hooks:``).

Three files stay at the repository root, where GitHub shows them, and join the site as pages:
``README.md`` (the home page, ``index.md``), ``BENCHMARKS.md`` and ``DEVELOPERS.md``. Links are
written the way GitHub resolves them — from the README ``docs/commands.md#anchor``, from a page
under ``docs/`` ``../BENCHMARKS.md#anchor`` — and rewritten here to the site's names before MkDocs
reads them, so that ``mkdocs build --strict`` checks every one of them, the anchor included, and a
link that breaks on GitHub breaks the build. Headings get GitHub's anchors (:func:`github_slug`), so
an anchor means the same section in both places.
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
#: Repository-root files published as pages: file name -> the page's name on the site.
ROOT_PAGES = {"README.md": "index.md", "BENCHMARKS.md": "benchmarks.md", "DEVELOPERS.md": "developers.md"}
_LINK = re.compile(r"(\]\()([^)\s]+)")


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


def on_config(config):
    config.mdx_configs.setdefault("toc", {})["slugify"] = github_slug
    return config


def on_files(files, config):
    for name, page in ROOT_PAGES.items():
        files.append(File.generated(config, page, content=(ROOT / name).read_text(encoding="utf-8")))
    return files


def on_page_markdown(markdown, page, config, files):
    return rewrite_links(markdown, page.file.src_uri in ROOT_PAGES.values())
