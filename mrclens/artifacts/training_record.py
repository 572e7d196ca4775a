"""The training record: how a baseline reader's training ended and what it depended on (issue 16).

One typed record, written in two places: ``training.json`` in the reader checkpoint (by
:meth:`mrclens.baseline_model.reader.Reader.save`, which owns the checkpoint directory) and
``results.json`` → ``audit.training`` (:mod:`mrclens.artifacts.results`). Schema (format version
:data:`FORMAT_VERSION`; older files without the record read it as ``None``)::

    {"format_version": 1, "stopped_by": "epochs" | "steps" | "time_limit", "steps", "epoch",
     "epochs", "max_steps", "max_minutes", "seed", "device", "processes", "cpu_threads",
     "deterministic_algorithms", "time_dependent", "reproducible", "cpu", "cpu_capability", "torch"}

``steps`` counts optimizer steps; ``epoch`` is the position in the data when training stopped
(fractional mid-epoch); ``epochs``, ``max_steps``, ``max_minutes`` are the budgets it ran under
(``None``: no such budget). ``cpu_threads`` is torch's intra-op thread count during training on
the CPU (``None`` on a GPU). ``time_dependent`` is true when a wall clock decided something
that shapes the weights (the time cap stopped training, or dev evaluations at time marks chose
the kept weights); ``reproducible`` is true when the same data, options and seed give the same
weights again: CPU training that is not time dependent (CUDA kernels are not bitwise deterministic), **on the same
machine**: the same CPU instruction set (``cpu_capability``, what torch's kernels use: ``"AVX2"``, ``"AVX512"``),
thread count and library versions (``torch``). Another CPU gives other floating-point sums, so other weights and
figures (issue 57). ``cpu`` is the CPU's model name. The three are ``None`` in records written before them.

Examples:
    >>> r = TrainingRecord(stopped_by="time_limit", steps=812, epoch=3.76, epochs=10, max_steps=None,
    ...                    max_minutes=6.0, seed=0, device="cpu", processes=1, cpu_threads=2,
    ...                    deterministic_algorithms=True, time_dependent=True, reproducible=False)
    >>> TrainingRecord.from_json(r.to_json(), "training.json") == r
    True
    >>> r.notice()
    'training was stopped by the wall-clock cap after 812 steps: results depend on machine speed and load and are not reproducible'
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from typing import Any, Mapping

from mrclens.artifacts import _files
from mrclens.errors import ArtifactError, ArtifactMsg

#: The training-record format this MRCLens writes and the newest it reads.
FORMAT_VERSION = 1

#: What can stop training: all epochs done, the step budget, or the wall-clock cap.
STOP_REASONS = ("epochs", "steps", "time_limit")

_INT = (int, type(None))
_STR = (str, type(None))
_NUM = (float, type(None))


@dataclass
class TrainingRecord:
    """How training ended and what it depended on (schema in the module docstring)."""

    stopped_by: str
    steps: int
    epoch: float
    epochs: int
    max_steps: int | None
    max_minutes: float | None
    seed: int
    device: str
    processes: int
    cpu_threads: int | None
    deterministic_algorithms: bool
    time_dependent: bool
    reproducible: bool
    cpu: str | None = None
    cpu_capability: str | None = None
    torch: str | None = None
    format_version: int = FORMAT_VERSION

    def to_json(self) -> dict[str, Any]:
        """The JSON object (``format_version`` first)."""
        out = asdict(self)
        return {"format_version": out.pop("format_version"), **out}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any], path: str | os.PathLike, where: str = "") -> "TrainingRecord":
        """Parse and check a record read from ``path`` (``where`` prefixes the item in messages).

        Raises:
            ArtifactError: a field is missing or has the wrong type, ``stopped_by`` is unknown, or
                the format is newer than this MRCLens reads.
        """
        if not isinstance(obj, Mapping):
            raise ArtifactError(ArtifactMsg.BAD_SHAPE.format(path=path, expected=f"{where}an object"))
        version = _files.check_version(obj, path, FORMAT_VERSION)
        f = _files.field
        stopped_by = f(obj, "stopped_by", str, path, where)
        if stopped_by not in STOP_REASONS:
            raise ArtifactError(ArtifactMsg.BAD_FIELD.format(path=path, where=where, field="stopped_by",
                                                             expected=" or ".join(map(repr, STOP_REASONS))))
        return cls(stopped_by=stopped_by, steps=f(obj, "steps", int, path, where), epoch=f(obj, "epoch", float, path, where),
                   epochs=f(obj, "epochs", int, path, where), max_steps=f(obj, "max_steps", _INT, path, where, None),
                   max_minutes=f(obj, "max_minutes", _NUM, path, where, None), seed=f(obj, "seed", int, path, where, 0),
                   device=f(obj, "device", str, path, where, "cpu"), processes=f(obj, "processes", int, path, where, 1),
                   cpu_threads=f(obj, "cpu_threads", _INT, path, where, None),
                   deterministic_algorithms=f(obj, "deterministic_algorithms", bool, path, where, False),
                   time_dependent=f(obj, "time_dependent", bool, path, where, stopped_by == "time_limit"),
                   reproducible=f(obj, "reproducible", bool, path, where, False),
                   cpu=f(obj, "cpu", _STR, path, where, None), cpu_capability=f(obj, "cpu_capability", _STR, path, where, None),
                   torch=f(obj, "torch", _STR, path, where, None), format_version=version)

    def notice(self) -> str | None:
        """The warning to show prominently when a wall clock shaped the result, else ``None``."""
        if self.stopped_by == "time_limit":
            return (f"training was stopped by the wall-clock cap after {self.steps:,} steps: results depend on "
                    "machine speed and load and are not reproducible")
        if self.time_dependent:
            return ("dev evaluations at wall-clock time marks chose the kept weights: results depend on machine "
                    "speed and load and are not reproducible")
        return None

    def summary(self) -> str:
        """One line: what stopped training, after how many steps and epochs, on how many threads."""
        why = {"epochs": f"all {self.epochs} epochs done", "steps": f"step budget of {self.max_steps:,} reached"
               if self.max_steps is not None else "step budget reached",
               "time_limit": f"wall-clock cap of {self.max_minutes:g} min reached"
               if self.max_minutes is not None else "wall-clock cap reached"}[self.stopped_by]
        where = self.device + (f", {self.cpu_threads} thread(s)" if self.cpu_threads else "")
        where += f", {self.cpu_capability}" if self.device == "cpu" and self.cpu_capability else ""
        where += f", {self.processes} processes" if self.processes > 1 else ""
        return f"training stopped after {self.steps:,} steps (epoch {self.epoch:g}): {why} [{where}, seed {self.seed}]"
