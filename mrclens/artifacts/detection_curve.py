"""``detection-curve.json``: how strong a planted shortcut must be before MRCLens reads it (one writer, one reader).

Written by ``mrclens selftest --curve`` (:mod:`mrclens.selftest.curve`, issue 41). Schema (format
version :data:`FORMAT_VERSION`)::

    {"format_version": 1, "mrclens_version", "route": "model-free", "reference", "data", "questions",
     "rates": [0.1, ...], "seeds": [0, ...],
     "points": [{"kind": "graded" | "clean" | "shape", "planting", "family", "rate", "seed",
                 "verdicts": {category: "more" | "in line" | "less" | "inconclusive" | null},
                 "detected": bool | null, "false_flags": [category, ...]}]}

A ``graded`` point is a planting at ``rate`` (the share of questions that carry it); ``detected`` is
whether its ``family`` read "more", and ``false_flags`` the *other* categories that read "more" or
"less". A ``clean`` point is a planting's clean counterpart (rate 0) and a ``shape`` point a structural
counterpart (``planting`` is the shape's name, ``family`` ``null``): ``detected`` is ``null`` and
``false_flags`` every category read "more" or "less".

Examples:
    >>> import tempfile
    >>> curve = DetectionCurve("0.1.0", "model-free", "SQuAD v1.1", "sample", 8000, [0.5], [0],
    ...                        [CurvePoint("graded", "position", "Position", 0.5, 0, {"Position": "more"}, True, [])])
    >>> folder = tempfile.mkdtemp()
    >>> _ = write_curve(folder, curve)
    >>> read_curve(folder) == curve, curve.detection_rate("Position", 0.5)
    (True, 1.0)
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from mrclens.artifacts import _files
from mrclens.io_utils import atomic_write_json

#: The file name in the output folder.
CURVE_JSON = "detection-curve.json"
#: The format this MRCLens writes and the newest it reads.
FORMAT_VERSION = 1
#: Point kinds.
KINDS = ("graded", "clean", "shape")


@dataclass
class CurvePoint:
    """One dataset of the curve and what the route read on it (module docstring)."""

    kind: str
    planting: str
    family: str | None
    rate: float
    seed: int
    verdicts: dict[str, str | None]
    detected: bool | None
    false_flags: list[str] = field(default_factory=list)


@dataclass
class DetectionCurve:
    """A detection curve: the points, and the settings they were measured with."""

    mrclens_version: str
    route: str
    reference: str
    data: str
    questions: int
    rates: list[float]
    seeds: list[int]
    points: list[CurvePoint] = field(default_factory=list)

    def detection_rate(self, family: str, rate: float) -> float | None:
        """The share (0-1) of the family's graded points at ``rate`` read "more" in the family (``None``: none)."""
        hits = [p.detected for p in self.points if p.kind == "graded" and p.family == family and p.rate == rate]
        return sum(bool(h) for h in hits) / len(hits) if hits else None

    def false_flag_rate(self, kind: str) -> float | None:
        """The share (0-1) of the ``kind`` points (``"clean"``, ``"shape"`` or ``"graded"``) with a false flag."""
        pts = [p for p in self.points if p.kind == kind]
        return sum(bool(p.false_flags) for p in pts) / len(pts) if pts else None

    def families(self) -> list[str]:
        """The planted families, in first-seen order."""
        return list(dict.fromkeys(p.family for p in self.points if p.kind == "graded" and p.family))

    def to_json(self) -> dict[str, Any]:
        """The JSON object written to ``detection-curve.json`` (schema in the module docstring)."""
        return {"format_version": FORMAT_VERSION, **{k: v for k, v in asdict(self).items()}}


def write_curve(folder: str | os.PathLike, curve: DetectionCurve) -> Path:
    """Write ``folder/detection-curve.json`` atomically; return its path."""
    return atomic_write_json(Path(folder) / CURVE_JSON, curve.to_json(), indent=1)


def read_curve(folder: str | os.PathLike) -> DetectionCurve:
    """Read and check ``folder/detection-curve.json``.

    Raises:
        ArtifactError: the file is absent, not JSON, of a newer format, or malformed (file and field named).
    """
    path = Path(folder) / CURVE_JSON
    obj = _files.read_json_object(path, "run `mrclens selftest --curve --out FOLDER` first")
    _files.check_version(obj, path, FORMAT_VERSION)
    f = _files.field
    points = []
    for i, p in enumerate(f(obj, "points", list, path, "")):
        where = f"point #{i + 1}: "
        kind = f(p, "kind", str, path, where)
        if kind not in KINDS:
            from mrclens.errors import ArtifactError

            raise ArtifactError(f"{path}: {where}\"kind\" is {kind!r}, not one of {', '.join(KINDS)}")
        points.append(CurvePoint(kind, f(p, "planting", str, path, where), f(p, "family", (str, type(None)), path, where),
                                 float(f(p, "rate", (int, float), path, where)), f(p, "seed", int, path, where),
                                 dict(f(p, "verdicts", dict, path, where)),
                                 f(p, "detected", (bool, type(None)), path, where),
                                 list(f(p, "false_flags", list, path, where, []))))
    return DetectionCurve(f(obj, "mrclens_version", str, path, ""), f(obj, "route", str, path, ""),
                          f(obj, "reference", str, path, ""), f(obj, "data", str, path, ""),
                          f(obj, "questions", int, path, ""),
                          [float(r) for r in f(obj, "rates", list, path, "")], [int(s) for s in f(obj, "seeds", list, path, "")],
                          points)
