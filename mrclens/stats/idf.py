"""The shipped inverse document frequencies: one word weighting for every dataset (issue 54, part 1).

The similarity figures (:mod:`mrclens.stats.similarity`) weight words by TF-IDF. An IDF fitted on the
audited file makes the figure a measure of the file: the same 8,774 questions score 67.4 with the bundled
sample's own IDF and 64.2 with the reference corpus's, and the figure fell by about 0.9 points per doubling
of the file (issue 54). So the IDF is fitted **once**, on the sentence units of the reference corpus (SQuAD
v1.1 dev and train but the bundled sample's articles, the data of the shipped reference), and shipped as
``mrclens/data/idf-squad-v1.1.json.gz``; the audited data and the reference are weighted alike, and a
question's weights no longer depend on which other questions share its file.

**The weight of a word** ``t`` is scikit-learn's smoothed IDF (``TfidfVectorizer(smooth_idf=True)``)
computed with the reference corpus's counts: ``idf(t) = ln((1 + N) / (1 + df(t))) + 1``, ``N`` the
corpus's distinct sentence units, ``df(t)`` those holding ``t``; a word the corpus never holds (a new name)
has ``df = 0``, the largest weight, in every file. A word's weight therefore never depends on the other questions
of its file. (Weighting unseen words by their rate in the audited data instead made the bundled sample's
per-article figures pool 0.3 points off the whole file's: an article's own names are frequent within it.)
Text of another language (:mod:`mrclens.stats.sentencizer`, its own tokens) is weighted by its own distinct
sentence units (:meth:`IdfTable.of_units`): the English corpus's counts do not apply to it.

File layout (JSON, gzip; :func:`write_idf_table` writes it, :func:`read_idf_table` reads it):
``{"format_version": 1, "name", "documents": N, "analyzer": "...", "provenance": {...},
"df": {word: count}}``.

Examples:
    >>> table = IdfTable("toy", 9, {"the": 9, "cat": 1})
    >>> [round(w, 3) for w in table.weights(["the", "cat", "dog"])]
    [1.0, 2.609, 3.303]
"""

from __future__ import annotations

import gzip
import json
import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Sequence

#: The shipped table: SQuAD v1.1 dev and train but the bundled sample's 40 articles
#: (``benchmarks/make_idf.py``).
IDF_PATH = Path(__file__).resolve().parent.parent / "data" / "idf-squad-v1.1.json.gz"
#: The version of the file layout this module reads and writes.
FORMAT_VERSION = 1
#: The word analyzer the counts were made with (scikit-learn's default, :mod:`mrclens.stats.similarity`).
ANALYZER = "scikit-learn TfidfVectorizer default: lower-cased, tokens (?u)\\b\\w\\w+\\b"


@dataclass
class IdfTable:
    """Document frequencies of words over a corpus of ``documents`` distinct sentence units."""

    name: str
    documents: int
    df: Mapping[str, int]
    provenance: Mapping[str, Any] = field(default_factory=dict)

    def weights(self, words: Sequence[str]) -> list[float]:
        """The IDF of each of ``words`` (module docstring); a word the table lacks counts as in no unit."""
        n = self.documents
        return [math.log((1.0 + n) / (1.0 + self.df.get(word, 0))) + 1.0 for word in words]

    @classmethod
    def of_units(cls, name: str, words: Sequence[str], counts: Sequence[int], documents: int) -> "IdfTable":
        """A table of ``documents`` distinct units in which ``words[i]`` occurs in ``counts[i]``.

        Raises:
            ValueError: ``words`` and ``counts`` differ in length.
        """
        if len(words) != len(counts):
            raise ValueError("words and counts must have the same length")
        return cls(name, documents, dict(zip(words, (int(c) for c in counts))))


def read_idf_table(path: str | Path = IDF_PATH) -> IdfTable:
    """Read a table written by :func:`write_idf_table`.

    Raises:
        ValueError: the file is not such a table (names the file and what is wrong).
        OSError: the file cannot be read.
    """
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        raw = json.load(handle)
    if not isinstance(raw, dict) or raw.get("format_version") != FORMAT_VERSION:
        raise ValueError(f"{path}: not an MRCLens IDF table of format version {FORMAT_VERSION}")
    df = raw.get("df")
    documents = raw.get("documents")
    if not isinstance(df, dict) or not isinstance(documents, int) or documents < 1:
        raise ValueError(f"{path}: an IDF table needs 'documents' (a positive integer) and 'df' (word → count)")
    return IdfTable(str(raw.get("name", "")), documents, {str(k): int(v) for k, v in df.items()},
                    dict(raw.get("provenance") or {}))


@lru_cache(maxsize=1)
def shipped_idf_table() -> IdfTable:
    """The shipped table (:data:`IDF_PATH`), read once per process."""
    return read_idf_table(IDF_PATH)


def write_idf_table(name: str, units: Sequence[str], out: str | Path, provenance: Mapping[str, Any]) -> IdfTable:
    """Count the words of the distinct ``units`` (sentence-unit texts; repeats count once) with the
    similarity figures' analyzer and write the table to ``out`` atomically (gzip JSON, keys sorted).

    Raises:
        ValueError: no unit holds a word.
    """
    from sklearn.feature_extraction.text import CountVectorizer

    from mrclens.io_utils import atomic_write_bytes

    distinct = sorted(set(units))
    counts = CountVectorizer(binary=True).fit(distinct)
    matrix = counts.transform(distinct).tocsc()
    df = {word: int(matrix.indptr[i + 1] - matrix.indptr[i]) for word, i in counts.vocabulary_.items()}
    table = IdfTable(name, len(distinct), dict(sorted(df.items())), dict(provenance))
    payload = {"format_version": FORMAT_VERSION, "name": name, "documents": table.documents, "analyzer": ANALYZER,
               "provenance": dict(provenance), "df": table.df}
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    atomic_write_bytes(out, text)  # gzip-compressed by its name, mtime 0
    return table
