"""``audit-state.json``: the audit's finished steps, so a re-run resumes (one writer, one reader).

Schema (format version :data:`FORMAT_VERSION`; a file without ``format_version`` is version 1)::

    {"format_version": 1, "dataset": fingerprint, "mrclens_version",
     "steps": {step name: {"key": sha256, "seconds": float, ...}}}

``dataset`` is the fingerprint of the audited input files; each step's ``key`` is the sha256 of
everything that determines its output (:mod:`mrclens.audit`); ``seconds`` is its wall time.

Examples:
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> state = AuditState(dataset="abc", mrclens_version="0.1.0", steps={"perturb": {"key": "k", "seconds": 1.5}})
    >>> _ = write_audit_state(folder, state)
    >>> read_audit_state(folder) == state
    True
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mrclens.artifacts import _files
from mrclens.artifacts.layout import AUDIT_STATE
from mrclens.io_utils import atomic_write_json

#: The audit-state format this MRCLens writes and the newest it reads.
FORMAT_VERSION = 1


@dataclass
class AuditState:
    """The typed ``audit-state.json``."""

    dataset: str
    mrclens_version: str
    steps: dict[str, dict[str, Any]] = field(default_factory=dict)
    format_version: int = FORMAT_VERSION

    def to_json(self) -> dict[str, Any]:
        return {"format_version": self.format_version, "dataset": self.dataset,
                "mrclens_version": self.mrclens_version, "steps": self.steps}


def audit_state_path(out_dir: str | os.PathLike) -> Path:
    """``out_dir/audit-state.json``."""
    return Path(out_dir) / AUDIT_STATE


def write_audit_state(out_dir: str | os.PathLike, state: AuditState) -> Path:
    """Write ``out_dir/audit-state.json`` atomically."""
    return atomic_write_json(audit_state_path(out_dir), state.to_json(), indent=1)


def read_audit_state(out_dir: str | os.PathLike) -> AuditState | None:
    """Read ``out_dir/audit-state.json``; ``None`` when there is none.

    Raises:
        ArtifactError: the file is not JSON or malformed (names the file and field).
    """
    path = audit_state_path(out_dir)
    if not path.exists():
        return None
    obj = _files.read_json_object(path, "")
    version = _files.check_version(obj, path, FORMAT_VERSION)
    steps = _files.field(obj, "steps", dict, path, "", {})
    for name, entry in steps.items():
        _files.field(entry, "key", str, path, f"step {name}: ")
    return AuditState(dataset=_files.field(obj, "dataset", str, path),
                      mrclens_version=_files.field(obj, "mrclens_version", str, path, "", ""),
                      steps=dict(steps), format_version=version)
