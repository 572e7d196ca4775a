"""Markdown rendered through Jinja2 with every value escaped unless MRCLens wrote it as Markdown (the dataset card).

The HTML report renders with Jinja2's autoescaping (:mod:`mrclens.reports.report`); Markdown has no such mode,
so this module gives it one: the environment (:func:`render_markdown`, templates in ``mrclens/reports/templates``,
shipped as package data) passes every ``{{ value }}`` through :func:`md_text` on its way out (Jinja2's
``finalize``), unless the value is :class:`Markdown` — text that is Markdown already: the output of the
``md_text`` and ``md_code`` filters, or text MRCLens wrote itself and marked so (:func:`markdown`). A model name,
a plug-in's category or ablation name, a reference name, a warning, a file name: each reads as the text it is,
never as HTML (``<img onerror=…>``) or as Markdown that breaks a table (``|``), without a filter to remember.

Examples:
    >>> render_markdown_string("| {{ name }} | {{ file|md_code }} | {{ ours }} |",
    ...                        name="a|b <i>", file="x.json", ours=markdown("**more**"))
    '| a\\\\|b &lt;i&gt; | `x.json` | **more** |'
"""

from __future__ import annotations

import html
import re
from typing import Any

import jinja2

#: The characters that Markdown (CommonMark with GitHub's tables and strikethrough) reads as markup in a line.
MD_MARKUP = re.compile(r"([\\`*_\[\]|#~])")


class Markdown(str):
    """Text that is Markdown already (escaped by :func:`md_text` or :func:`md_code`, or written by MRCLens and
    marked with :func:`markdown`): the environment outputs it as it is."""

    __slots__ = ()


def markdown(text: str) -> Markdown:
    """Mark ``text``, which MRCLens wrote as Markdown (no outside text in it, or outside text escaped already),
    to be output as it is."""
    return Markdown(text)


def md_text(text: Any) -> Markdown:
    r"""``text`` as Markdown that shows it as it is: ``&``, ``<`` and ``>`` as HTML entities (no raw HTML),
    markup characters (:data:`MD_MARKUP`, ``|`` included: a table cell stays one cell) behind a
    backslash, and line breaks as spaces (a table row or list item stays one line). :class:`Markdown` text is
    returned as it is (escaped once, never twice).

    >>> md_text("<img src=x onerror=alert(1)> | *bold*")
    '&lt;img src=x onerror=alert(1)&gt; \\| \\*bold\\*'
    """
    if isinstance(text, Markdown):
        return text
    text = re.sub(r"\s*[\r\n]+\s*", " ", str(text))
    return Markdown(MD_MARKUP.sub(r"\\\1", html.escape(text, quote=False)))


def md_code(text: Any) -> Markdown:
    """``text`` as a Markdown code span, fenced with more backticks than it holds (CommonMark 6.1).

    >>> md_code("results.json"), md_code("odd`name")
    ('`results.json`', '``odd`name``')
    """
    text = re.sub(r"\s*[\r\n]+\s*", " ", str(text))
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return Markdown(f"{fence}{pad}{text}{pad}{fence}")


def md_format(template: str, **values: Any) -> Markdown:
    """``template`` (Markdown MRCLens wrote, with ``{name}`` fields) filled with ``values``, each escaped
    (:func:`md_text`; :class:`Markdown` values as they are).

    >>> md_format("treat it as {ref}'s known shortcuts", ref="my_ref")
    "treat it as my\\\\_ref's known shortcuts"
    """
    return Markdown(template.format(**{k: md_text(v) for k, v in values.items()}))


def _finalize(value: Any) -> Any:
    """Every ``{{ value }}`` on its way out: :class:`Markdown` as it is, anything else escaped (:func:`md_text`)."""
    return value if isinstance(value, Markdown) else md_text("" if value is None else value)


def environment() -> jinja2.Environment:
    """The Jinja2 environment of the Markdown templates: ``mrclens/reports/templates`` (the report's folder),
    the report's whitespace rules (``trim_blocks``, ``lstrip_blocks``), every value escaped on output unless it
    is :class:`Markdown` (:func:`_finalize`), and the filters ``md_text``, ``md_code``."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("mrclens.reports", "templates"), autoescape=False,
                             finalize=_finalize, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined)
    env.filters.update(md_text=md_text, md_code=md_code)
    return env


def render_markdown(template: str, **context: Any) -> str:
    """Render the Markdown template called ``template`` (in ``mrclens/reports/templates``) with ``context``.

    Raises:
        jinja2.TemplateNotFound: no such template (a damaged install).
        jinja2.UndefinedError: the template reads a name ``context`` lacks (a bug).
    """
    return environment().get_template(template).render(**context)


def render_markdown_string(source: str, **context: Any) -> str:
    """Render Markdown template text ``source`` with ``context`` in the same environment (:func:`environment`)."""
    return environment().from_string(source).render(**context)
