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
from typing import Annotated, Any, Literal, Mapping

from pydantic import Field

from mrclens.artifacts import _files
from mrclens.artifacts.record_models import RecordFormat

#: The training-record format this MRCLens writes and the newest it reads.
FORMAT_VERSION = 1

#: What can stop training: all epochs done, the step budget, or the wall-clock cap.
STOP_REASONS = ("epochs", "steps", "time_limit")

#: What a training record says beyond :class:`TrainingRecord`'s fields
#: (:class:`~mrclens.artifacts.record_models.RecordFormat`): the value each key that older records lack reads as,
#: ``stopped_by``'s values, the format versions read.
TRAINING_READ_AS: dict[str, Any] = {
    "stopped_by": Annotated[Literal[STOP_REASONS], Field(...)], "max_steps": None, "max_minutes": None, "seed": 0,
    "device": "cpu", "processes": 1, "cpu_threads": None, "deterministic_algorithms": False, "reproducible": False,
    "time_dependent": Field(default_factory=lambda: None,
                            description="absent in records written before it: true when stopped_by is 'time_limit'"),
    "format_version": Field(1, ge=1, le=FORMAT_VERSION, description="absent in records written before versions "
                                                                    "were recorded: 1")}


@dataclass
class TrainingRecord:
    """How training ended and what it depended on (fields: :mod:`mrclens.artifacts.training_record`)."""

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

    def __post_init__(self) -> None:
        """A record read without ``time_dependent`` (written before it was kept) gets it from ``stopped_by``: the
        wall-clock cap stopped training."""
        if self.time_dependent is None:
            self.time_dependent = self.stopped_by == "time_limit"

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
        if isinstance(obj, Mapping):
            _files.check_version(obj, path, FORMAT_VERSION)
        return _FORMAT.read(obj, path, where)

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


_FORMAT = RecordFormat(TrainingRecord, read_as={TrainingRecord: TRAINING_READ_AS})
