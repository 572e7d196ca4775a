"""The statistics cache: each paragraph's figures, keyed by everything they depend on.

``mrclens stats`` computes, per paragraph, the per-question figures and the six baseline
predictions (:func:`mrclens.stats.paragraph.paragraph_figures`). Those are a pure function of the
paragraph (context, question ids and texts, gold answers), its sentence units, the
TF-IDF-most-similar unit of each answerable question (which depends on the whole dataset and is
recomputed on every run), ``first_k`` and the code that computes them. The key is the sha256 of
all of these, so an edited paragraph, another dataset's similarity choice or a new MRCLens
version never reads a stale entry; only the official scoring, the similarity step, the answer
types, duplicates and leakage run again. A re-run on an unchanged file, or on a file where a few
paragraphs were edited, recomputes only what changed.

The code is fingerprinted by :func:`code_fingerprint`: the source of :data:`FIGURE_MODULES`
and of every MRCLens module they import, transitively (:mod:`mrclens.stats.fingerprint`).
Third-party code (NumPy, spaCy's stop-word list) is not part of the key.

The store is ``stats-v1.sqlite`` next to the parse cache (:func:`mrclens.parsing.default_cache_dir`).
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any, Sequence

import mrclens
from mrclens.diskcache import DiskCache
from mrclens.squad import Paragraph
from mrclens.stats import paragraph
from mrclens.stats.fingerprint import source_fingerprint

_SCHEMA_VERSION = 1

#: The modules whose code makes a cached entry: the figures (:mod:`mrclens.stats.paragraph`)
#: and the key itself (this module). :func:`code_fingerprint` follows their imports.
FIGURE_MODULES = (paragraph.__name__, __name__)


def _search_dir() -> Path:
    """The directory that holds the ``mrclens`` package."""
    return Path(mrclens.__file__).resolve().parent.parent


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """sha256 (hex) of the source of :data:`FIGURE_MODULES` and every MRCLens module they
    import, transitively (:func:`mrclens.stats.fingerprint.source_fingerprint`); computed once
    per process."""
    return source_fingerprint(FIGURE_MODULES, _search_dir())


def figures_key(paragraph: Paragraph, units: Sequence[tuple[int, int]], most_similar: Sequence[int], first_k: int) -> bytes:
    """The cache key of one paragraph's figures (32 bytes, sha256).

    Args:
        paragraph: the paragraph (context, questions, gold answers).
        units: its sentence units, ``(start, end)`` characters.
        most_similar: the most similar unit of each of its answerable questions, in file order.
        first_k: the ``k`` of baseline (a).
    """
    questions = [
        [q.id, q.question, [[a.answer_start, a.text] for a in q.answers]] for q in paragraph.questions
    ]
    payload = [_SCHEMA_VERSION, code_fingerprint(), first_k, paragraph.context, [list(u) for u in units],
               list(most_similar), questions]
    return hashlib.sha256(json.dumps(payload, ensure_ascii=False).encode("utf-8", "surrogatepass")).digest()


class StatsCache(DiskCache):
    """Paragraph-figures store in ``DIR/stats-v1.sqlite`` (table ``paragraphs``)."""

    def __init__(self, directory: str | Path, *, setup: bool = True):
        super().__init__(Path(directory) / f"stats-v{_SCHEMA_VERSION}.sqlite", tables=("paragraphs",), setup=setup)

    def get_many(self, keys: list[bytes]) -> dict[bytes, Any]:  # type: ignore[override]
        return super().get_many(keys, table="paragraphs")

    def put_many(self, items) -> None:  # type: ignore[override]
        super().put_many(items, table="paragraphs")
