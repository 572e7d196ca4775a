"""The reference file: a reference dataset's model-free figures that audits are read against (issue 17).

MRCLens ships one, for SQuAD v1.1 dev (:data:`BUNDLED_REFERENCE`, built by
``benchmarks/make_reference.py`` from ``mrclens stats``); ``mrclens audit --reference FILE`` reads
another one written by the same script (for example from the previous release of one's own
dataset). Schema (format version :data:`FORMAT_VERSION`)::

    {"format_version": 1, "name": "SQuAD v1.1 dev",
     "provenance": {"source", "sha256", "command", "commit", "date", "mrclens_version"},
     "figures": {dotted stats path: {"value", "n", "std"}}}

``figures`` holds the :mod:`mrclens.stats` figures that the model-free evidence uses
(:data:`mrclens.scoring.model_free.FIGURES`): a share in percent with ``std`` ``null``, or a
mean with its standard deviation; ``n`` counts the questions it is computed on.

Examples:
    >>> ref = Reference("toy", {"source": "toy.json"}, {"similarity.answer_in_most_similar_sentence_pct":
    ...                                               ReferenceFigure(value=80.0, n=100)})
    >>> Reference.from_json(ref.to_json(), "ref.json") == ref
    True
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mrclens.artifacts import _files
from mrclens.io_utils import atomic_write_json

#: The reference format this MRCLens writes and the newest it reads.
FORMAT_VERSION = 1

#: The shipped reference: SQuAD v1.1 dev (file inside the package data).
BUNDLED_REFERENCE = Path(__file__).resolve().parent.parent / "data" / "reference-squad-v1.1-dev.json"

_HINT = "write a reference file with `benchmarks/make_reference.py DATA --name NAME --out FILE`"
_NUM = (float, type(None))


@dataclass
class ReferenceFigure:
    """One reference figure: ``value`` (percent or words), its standard deviation (``None`` for a share) and ``n``."""

    value: float | None
    n: int
    std: float | None = None


@dataclass
class Reference:
    """A reference dataset's figures (schema in the module docstring)."""

    name: str
    provenance: dict[str, Any] = field(default_factory=dict)
    figures: dict[str, ReferenceFigure] = field(default_factory=dict)
    format_version: int = FORMAT_VERSION

    def to_json(self) -> dict[str, Any]:
        return {"format_version": self.format_version, "name": self.name, "provenance": dict(self.provenance),
                "figures": {path: {"value": f.value, "n": f.n, "std": f.std} for path, f in self.figures.items()}}

    @classmethod
    def from_json(cls, obj: Any, path: str | os.PathLike) -> "Reference":
        """Parse a reference object.

        Raises:
            ArtifactError: a field is missing or has the wrong type (the message names file and figure).
        """
        f = _files.field
        version = _files.check_version(obj, path, FORMAT_VERSION)
        figures = {}
        for fig_path, fig in f(obj, "figures", dict, path).items():
            where = f"figure {fig_path}: "
            figures[fig_path] = ReferenceFigure(value=f(fig, "value", _NUM, path, where),
                                                n=f(fig, "n", int, path, where),
                                                std=f(fig, "std", _NUM, path, where, None))
        return cls(name=f(obj, "name", str, path), provenance=dict(f(obj, "provenance", dict, path, "", {})),
                   figures=figures, format_version=version)


def write_reference(reference: Reference, path: str | os.PathLike) -> Path:
    """Write ``reference`` as JSON at ``path`` (atomically)."""
    return atomic_write_json(path, reference.to_json(), indent=1)


def read_reference(path: str | os.PathLike | None = None) -> Reference:
    """Read a reference file (default: :data:`BUNDLED_REFERENCE`).

    Raises:
        ArtifactError: the file is missing, not JSON, or malformed.
    """
    path = BUNDLED_REFERENCE if path is None else Path(path)
    return Reference.from_json(_files.read_json_object(path, _HINT), path)
