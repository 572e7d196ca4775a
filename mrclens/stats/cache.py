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

The store is ``stats-v2.sqlite`` (JSON values, checked by :func:`check_figures` when read) next to the parse cache (:func:`mrclens.parsing.default_cache_dir`).
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

_SCHEMA_VERSION = 2  # 2: values are JSON (1 was pickle and is never read)

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
    """Paragraph-figures store in ``DIR/stats-v2.sqlite`` (table ``paragraphs``)."""

    def __init__(self, directory: str | Path, *, setup: bool = True):
        super().__init__(Path(directory) / f"stats-v{_SCHEMA_VERSION}.sqlite", tables=("paragraphs",), setup=setup)

    def get_many(self, keys: list[bytes], check=None) -> dict[bytes, Any]:  # type: ignore[override]
        return super().get_many(keys, table="paragraphs", check=check)

    def put_many(self, items) -> None:  # type: ignore[override]
        super().put_many(items, table="paragraphs")


_NUM = (int, float)


def check_figures(value: Any, n_questions: int, n_answerable: int) -> dict:
    """Verify one paragraph's figures read from the cache (the shape :func:`mrclens.stats.paragraph.paragraph_figures` returns).

    Raises:
        ValueError: the value has the wrong shape (the caller treats it as a cache miss).
    """
    def column(name: str, n: int, ok) -> None:
        items = value[name]
        if type(items) is not list or len(items) != n or not all(ok(x) for x in items):
            raise ValueError(f"bad {name!r}")

    if type(value) is not dict:
        raise ValueError("not an object")
    column("longest", n_questions, lambda x: type(x) is int)
    column("a_len", n_answerable, lambda x: type(x) is int)
    column("unit_index", n_answerable, lambda x: x is None or type(x) is int)
    column("char_frac", n_answerable, lambda x: type(x) in _NUM)
    column("in_sim", n_answerable, lambda x: x is None or type(x) is bool)
    column("content_share", n_answerable, lambda x: x is None or type(x) in _NUM)
    column("kw_rank", n_answerable, lambda x: x is None or type(x) in _NUM)
    column("kw_top", n_answerable, lambda x: x is None or type(x) in _NUM)
    column("sa_top", n_answerable, lambda x: x is None or type(x) in _NUM)
    column("ngram_top", n_answerable, lambda x: x is None or type(x) in _NUM)
    column("kwin_top", n_answerable, lambda x: x is None or type(x) in _NUM)
    column("preds", n_answerable,
           lambda row: type(row) is list and len(row) == 6 and all(p is None or type(p) is str for p in row))
    return value
