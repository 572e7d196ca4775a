"""``selftest.json``: what ``mrclens selftest`` found (one writer, one reader).

Schema (format version :data:`FORMAT_VERSION`; a file without ``format_version`` is version 1)::

    {"format_version": 1, "mrclens_version", "seed", "profile", "passed": bool,
     "plantings": [{"planting", "family", "planted_evidence", "clean_evidence",
                    "clean_flagged": [category, ...], "planted_f1", "clean_f1",
                    "planted_categories": {category: evidence}, "clean_categories": {category: evidence},
                    "changed": {"planted": n, "clean": n}, "passed": bool, "why": str,
                    "task": "span" | "multiple_choice", "criteria": {...} | null}]}

``*_evidence`` is the verdict on the planting's family on each side (``None`` when the audit has no
reading for that category): its comparison with the reference audit (``"more"``, ``"in line"``,
``"less"``, ``"inconclusive"``) or, without one, its evidence level
(:func:`mrclens.selftest.runner.verdicts`); ``*_categories`` give the same per category;
``clean_flagged`` lists the categories flagged on the clean side. ``planted_f1`` / ``clean_f1`` are
the readers' baseline scores: F1, or accuracy (%) for a multiple-choice planting.

``task`` and ``criteria`` came with the multiple-choice plantings (issue 20); a file without them
holds span plantings only (``task`` ``"span"``, ``criteria`` ``null``). A span planting is judged on
the verdicts alone (:func:`mrclens.selftest.runner.judge`; ``criteria`` ``null``); a multiple-choice
planting by :func:`mrclens.selftest.runner.judge_mc`, whose ``criteria`` record what decided:
``rule`` (in words), ``readings`` (the family's verdict on each side), ``answer_only`` (each side's
answer-only accuracy with its CI) and ``check_rule`` (the ``mrclens check`` rule, its value and
status on each side), each with ``passed``. There ``clean_flagged`` is recorded, not judged.

Examples:
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> row = PlantingVerdict("overlap", "Similarity", "strong", "none", [], 90.0, 60.0,
    ...                       {"Similarity": "strong"}, {"Similarity": "none"}, {"planted": 10, "clean": 10}, True, "ok")
    >>> report = SelftestReport("0.1.0", 0, "quick", True, [row])
    >>> _ = write_selftest(folder, report)
    >>> read_selftest(folder) == report
    True
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from mrclens.artifacts import _files
from mrclens.artifacts.layout import SELFTEST_JSON
from mrclens.io_utils import atomic_write_json
from mrclens.tasks import DEFAULT_TASK

#: The selftest format this MRCLens writes and the newest it reads.
FORMAT_VERSION = 1


@dataclass
class PlantingVerdict:
    """One planting: the audits of its planted dataset and clean counterpart, and the verdict."""

    planting: str
    family: str
    planted_evidence: str | None
    clean_evidence: str | None
    clean_flagged: list[str]
    planted_f1: float | None
    clean_f1: float | None
    planted_categories: dict[str, str | None]
    clean_categories: dict[str, str | None]
    changed: dict[str, int]
    passed: bool
    why: str
    task: str = DEFAULT_TASK
    criteria: dict[str, Any] | None = None


@dataclass
class SelftestReport:
    """The typed ``selftest.json``."""

    mrclens_version: str
    seed: int
    profile: str
    passed: bool
    plantings: list[PlantingVerdict] = field(default_factory=list)
    format_version: int = FORMAT_VERSION

    def to_json(self) -> dict[str, Any]:
        return {"format_version": self.format_version, "mrclens_version": self.mrclens_version, "seed": self.seed,
                "profile": self.profile, "passed": self.passed, "plantings": [asdict(p) for p in self.plantings]}


def selftest_path(out_dir: str | os.PathLike) -> Path:
    """``out_dir/selftest.json``."""
    return Path(out_dir) / SELFTEST_JSON


def write_selftest(out_dir: str | os.PathLike, report: SelftestReport) -> Path:
    """Write ``out_dir/selftest.json`` atomically."""
    return atomic_write_json(selftest_path(out_dir), report.to_json(), indent=1)


def read_selftest(out_dir: str | os.PathLike) -> SelftestReport:
    """Read ``out_dir/selftest.json``.

    Raises:
        ArtifactError: the file is missing, not JSON or malformed (names the file and field).
    """
    path = selftest_path(out_dir)
    obj = _files.read_json_object(path, "run `mrclens selftest --out DIR` first")
    version = _files.check_version(obj, path, FORMAT_VERSION)
    f = _files.field
    rows = []
    for i, raw in enumerate(f(obj, "plantings", list, path)):
        w = f"plantings[{i}]: "
        rows.append(PlantingVerdict(
            planting=f(raw, "planting", str, path, w), family=f(raw, "family", str, path, w),
            planted_evidence=f(raw, "planted_evidence", (str, type(None)), path, w),
            clean_evidence=f(raw, "clean_evidence", (str, type(None)), path, w),
            clean_flagged=list(f(raw, "clean_flagged", list, path, w)),
            planted_f1=f(raw, "planted_f1", (float, int, type(None)), path, w),
            clean_f1=f(raw, "clean_f1", (float, int, type(None)), path, w),
            planted_categories=dict(f(raw, "planted_categories", dict, path, w)),
            clean_categories=dict(f(raw, "clean_categories", dict, path, w)),
            changed=dict(f(raw, "changed", dict, path, w)),
            passed=f(raw, "passed", bool, path, w), why=f(raw, "why", str, path, w),
            task=f(raw, "task", str, path, w, default=DEFAULT_TASK),
            criteria=f(raw, "criteria", (dict, type(None)), path, w, default=None)))
    return SelftestReport(mrclens_version=f(obj, "mrclens_version", str, path), seed=f(obj, "seed", int, path),
                          profile=f(obj, "profile", str, path), passed=f(obj, "passed", bool, path),
                          plantings=rows, format_version=version)
