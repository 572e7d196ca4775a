"""``question-scores.json``: the official EM and F1 of every question of every scored set.

Written next to ``results.json`` by scoring's caller (:func:`mrclens.publish.write_outputs`) and
read by the report, which shows them and never scores again. Schema (format version
:data:`FORMAT_VERSION`)::

    {"format_version": 1,
     "sets": {set name: {"ids": [question id, ...], "exact_match": [0 or 1, ...], "f1": [0..1, ...]}
                        | null (the set was not evaluated)}}

Scores are per question on the 0–1 scale (the official SQuAD rules,
:mod:`mrclens.metrics.official`), in the set file's question order.

Examples:
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> scores = {"original": SetQuestionScores(["q1", "q2"], [1.0, 0.0], [1.0, 0.5]), "e1": None}
    >>> _ = write_question_scores(folder, scores)
    >>> read_question_scores(folder) == scores
    True
    >>> scores["original"].lookup()["q2"]
    (0.0, 0.5)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from mrclens.artifacts import _files
from mrclens.artifacts.layout import QUESTION_SCORES
from mrclens.errors import ArtifactError, ArtifactMsg
from mrclens.io_utils import atomic_write_json

#: The question-scores format this MRCLens writes and the newest it reads.
FORMAT_VERSION = 1


@dataclass
class SetQuestionScores:
    """Per-question official scores of one set (0–1 scale), all lists of length ``n_questions``."""

    ids: list[str]
    exact_match: list[float]
    f1: list[float]

    def lookup(self) -> dict[str, tuple[float, float]]:
        """``{question id: (exact match, f1)}``."""
        return {q: (em, f1) for q, em, f1 in zip(self.ids, self.exact_match, self.f1)}


def write_question_scores(out_dir: str | os.PathLike, scores: Mapping[str, SetQuestionScores | None]) -> Path:
    """Write ``out_dir/question-scores.json`` atomically."""
    obj = {"format_version": FORMAT_VERSION,
           "sets": {name: None if s is None else {"ids": list(s.ids), "exact_match": [float(x) for x in s.exact_match],
                                                  "f1": [float(x) for x in s.f1]}
                    for name, s in scores.items()}}
    return atomic_write_json(Path(out_dir) / QUESTION_SCORES, obj)


def read_question_scores(out_dir: str | os.PathLike) -> dict[str, SetQuestionScores | None]:
    """Read ``out_dir/question-scores.json``.

    Raises:
        ArtifactError: the file is missing, not JSON, or its lists are malformed or of unequal length.
    """
    path = Path(out_dir) / QUESTION_SCORES
    obj = _files.read_json_object(path, "run `mrclens evaluate … --out DIR` (or the audit) again to write it")
    _files.check_version(obj, path, FORMAT_VERSION)
    out: dict[str, SetQuestionScores | None] = {}
    for name, entry in _files.field(obj, "sets", dict, path).items():
        if entry is None:
            out[name] = None
            continue
        where = f"set {name}: "
        lists: list[Any] = [_files.field(entry, k, list, path, where) for k in ("ids", "exact_match", "f1")]
        if len({len(x) for x in lists}) != 1:
            raise ArtifactError(ArtifactMsg.BAD_SHAPE.format(path=path, expected=f"{where}ids, exact_match and f1 of one length"))
        out[name] = SetQuestionScores([str(q) for q in lists[0]], [float(x) for x in lists[1]], [float(x) for x in lists[2]])
    return out
