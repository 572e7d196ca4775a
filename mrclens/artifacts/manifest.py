"""The perturbation manifest ``perturbed/manifest.json``: its one writer and one reader.

Written by :func:`mrclens.perturbations.perturb_dataset` (through :func:`write_manifest`), read
by scoring, the audit and the report (through :func:`read_manifest`). Schema (format version
:data:`FORMAT_VERSION`; a file without ``format_version`` is read as version 1)::

    {"format_version": 1, "mrclens_version", "seed", "source": {"file", "sha256"}, "pipeline",
     "sets": {"original": {"file", "n"},
              "original-truncated": {"file", "n", "paragraphs_total", "dropped": {reason: count},
                                     "rule": "random" | "every" | "first"}},   (absent in older manifests: "first")
     "ablations": {"e1": {"name", "category", "eval_set", "baseline_set", "description",
                          "bias_signal", "file", "n", "changed", "unchanged": {reason: count},
                          ["control_of": ablation id,]   (matched controls c1, c2, c6–c8 only)
                          ["no_answer_rule": what it does to unanswerable (SQuAD v2.0) questions,]
                          "items": {question id: {"changed", "reason", "detail"}}}, ...},
     ["draw": k, "draw_seed": seed of draw k],   (written for draws k >= 1 only; issue 16)
     ["task": "multiple_choice"]}   (written for multiple-choice sets only, issue 20; absent = "span")

``n`` counts questions; ``items`` records, per question id, whether the ablation changed it,
the reason when it did not (a snake_case code) and a free-form ``detail`` object.

Examples:
    >>> m = PerturbationManifest(mrclens_version="0.1.0", seed=0, source=SourceRecord("dev.json", None),
    ...                          pipeline="p", sets={"original": SetEntry("original.json", 3)}, ablations={})
    >>> PerturbationManifest.from_json(m.to_json(), "manifest.json") == m
    True
    >>> m.set_files()
    {'original': 'original.json'}
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from mrclens.artifacts import _files
from mrclens.artifacts.ablation import AblationMeta
from mrclens.artifacts.layout import MANIFEST, set_file_name
from mrclens.errors import ArtifactError, ArtifactMsg
from mrclens.io_utils import atomic_write_json
from mrclens.tasks import DEFAULT_TASK, read_task_name, task_field

#: The rules for which qualifying questions of each paragraph the truncated set keeps
#: (:mod:`mrclens.perturbations.truncation`), as recorded in a manifest and a reference audit.
TRUNCATION_RULES = ("random", "every", "first")

#: The manifest format this MRCLens writes and the newest it reads.
FORMAT_VERSION = 1

_HINT = "the directory does not look like the output of `mrclens perturb`"


def ablation_order(ablation_id: str) -> tuple[int, int, str]:
    """Sort key of ablation ids: by number, each control (``c1``) right after its ablation (``e1``);
    ``e2`` before ``e10``; ids without a number last. Multiple-choice ids (issue 20) sort the same
    way: ``m4`` then its control ``mc4``.

    >>> sorted(["e10", "c1", "e2", "x", "e1"], key=ablation_order)
    ['e1', 'c1', 'e2', 'e10', 'x']
    >>> sorted(["mc4", "m10", "m4", "m1"], key=ablation_order)
    ['m1', 'm4', 'mc4', 'm10']
    """
    for prefix, rank in (("mc", 1), ("m", 0), ("e", 0), ("c", 1)):
        digits = ablation_id[len(prefix):]
        if ablation_id.startswith(prefix) and digits.isdigit():
            return (int(digits), rank, ablation_id)
    return (10**9, 0, ablation_id)


@dataclass
class SourceRecord:
    """The file the sets were made from (``None`` fields when perturbed from memory)."""

    file: str | None
    sha256: str | None


@dataclass
class SetEntry:
    """A baseline set: its file name and question count; the truncated set also says what it dropped.

    Attributes:
        file: file name inside the perturbed directory.
        n: number of questions.
        paragraphs_total: paragraphs before truncation (truncated set only).
        dropped: ``{reason: paragraphs dropped}`` (truncated set only).
        rule: which qualifying question of a paragraph the truncated set kept (truncated set only;
            :data:`TRUNCATION_RULES`; ``None`` for other sets; a manifest written
            before the rule was recorded reads as ``"first"``).
    """

    file: str
    n: int
    paragraphs_total: int | None = None
    dropped: dict[str, int] | None = None
    rule: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.file, "n": self.n}
        if self.paragraphs_total is not None:
            out["paragraphs_total"] = self.paragraphs_total
        if self.dropped is not None:
            out["dropped"] = dict(self.dropped)
        if self.rule is not None:
            out["rule"] = self.rule
        return out


@dataclass(kw_only=True)
class AblationEntry(AblationMeta):
    """One ablation's set: what it is (its :class:`~mrclens.artifacts.ablation.AblationMeta`, as
    registered) and what it changed. Scoring reads its ablations as these entries.

    The fields of its own are keyword-only; ``id`` is the entry's key in the manifest's
    ``ablations`` object (not written inside the entry).

    Attributes:
        id, name, category, eval_set, baseline_set, bias_signal, description: the metadata
            (:class:`~mrclens.artifacts.ablation.AblationMeta`).
        file: the set's file name inside the perturbed directory.
        n: questions in the set.
        changed: questions the ablation changed (``None`` when not recorded).
        unchanged: ``{reason: count}`` of questions left as they were.
        items: ``{question id: {"changed", "reason", "detail"}}`` (``None`` when not recorded).
        control_of: for a matched control, the id of the ablation it controls (written only then).
        no_answer_rule: what the ablation does to unanswerable (SQuAD v2.0) questions (written
            only when stated; ``""`` in older manifests).
    """

    file: str
    n: int | None = None
    changed: int | None = None
    unchanged: dict[str, int] = field(default_factory=dict)
    items: dict[str, dict[str, Any]] | None = None
    control_of: str | None = None
    no_answer_rule: str = ""

    def changed_ids(self) -> set[str] | None:
        """Ids of the questions the ablation changed (``None`` when the manifest has no per-item records)."""
        if self.items is None:
            return None
        return {qid for qid, rec in self.items.items() if isinstance(rec, Mapping) and rec.get("changed")}

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name, "category": self.category, "eval_set": self.eval_set,
            "baseline_set": self.baseline_set, "description": self.description, "bias_signal": self.bias_signal,
            "file": self.file, "n": self.n, "changed": self.changed, "unchanged": dict(self.unchanged),
        }
        if self.control_of is not None:
            out["control_of"] = self.control_of
        if self.no_answer_rule:
            out["no_answer_rule"] = self.no_answer_rule
        if self.items is not None:
            out["items"] = self.items
        return out


@dataclass
class PerturbationManifest:
    """The typed ``manifest.json`` (schema in the module docstring)."""

    mrclens_version: str
    seed: int
    source: SourceRecord
    pipeline: str | None
    sets: dict[str, SetEntry]
    ablations: dict[str, AblationEntry]
    format_version: int = FORMAT_VERSION
    #: which draw of the random choices these sets are (0: the one seeded with ``seed``; issue 16).
    draw: int = 0
    #: the seed draw ``draw`` used (:func:`mrclens.seeds.derived_seed`); ``None`` for draw 0.
    draw_seed: int | None = None
    #: the task of the sets (:mod:`mrclens.tasks`): ``"span"`` (SQuAD-format sets, the default) or
    #: ``"multiple_choice"`` (multiple-choice JSON Lines sets, :mod:`mrclens.multiple_choice`; issue 20).
    task: str = DEFAULT_TASK

    def ablation_ids(self) -> list[str]:
        """The ablation ids in report order (e1, e2, …, e10)."""
        return sorted(self.ablations, key=ablation_order)

    def set_files(self) -> dict[str, str]:
        """``{set name: file name}`` for the baseline sets, then every ablation in report order."""
        out = {name: entry.file for name, entry in self.sets.items()}
        for aid in self.ablation_ids():
            out[aid] = self.ablations[aid].file
        return out

    def to_json(self) -> dict[str, Any]:
        out = {
            "format_version": self.format_version,
            "mrclens_version": self.mrclens_version,
            "seed": self.seed,
            "source": {"file": self.source.file, "sha256": self.source.sha256},
            "pipeline": self.pipeline,
            "sets": {name: entry.to_json() for name, entry in self.sets.items()},
            "ablations": {aid: entry.to_json() for aid, entry in self.ablations.items()},
        }
        if self.draw:
            out["draw"], out["draw_seed"] = self.draw, self.draw_seed
        out.update(task_field(self.task))
        return out

    @classmethod
    def from_json(cls, obj: Mapping[str, Any], path: str | os.PathLike) -> "PerturbationManifest":
        """Parse and check a manifest object read from ``path`` (named in every error).

        Raises:
            ArtifactError: a required field is missing or has the wrong type, an ablation names a
                baseline set that is not listed, or the format version is newer than this MRCLens.
        """
        version = _files.check_version(obj, path, FORMAT_VERSION)
        f = _files.field
        sets_obj = f(obj, "sets", dict, path)
        abl_obj = f(obj, "ablations", dict, path)
        sets = {}
        for name, e in sets_obj.items():
            where = f"set {name}: "
            dropped = f(e, "dropped", (dict, type(None)), path, where, None)
            sets[name] = SetEntry(file=f(e, "file", str, path, where, set_file_name(name)), n=f(e, "n", int, path, where),
                                  paragraphs_total=f(e, "paragraphs_total", (int, type(None)), path, where, None),
                                  dropped=dict(dropped) if dropped is not None else None,
                                  rule=f(e, "rule", (str, type(None)), path, where,
                                         "first" if name == "original-truncated" else None))
        ablations = {}
        for aid, e in abl_obj.items():
            where = f"ablation {aid}: "
            entry = AblationEntry(
                id=aid, name=f(e, "name", str, path, where), category=f(e, "category", str, path, where),
                eval_set=f(e, "eval_set", str, path, where), baseline_set=f(e, "baseline_set", str, path, where),
                description=f(e, "description", str, path, where, ""), bias_signal=f(e, "bias_signal", str, path, where),
                file=f(e, "file", str, path, where, set_file_name(aid)), n=f(e, "n", (int, type(None)), path, where, None),
                changed=f(e, "changed", (int, type(None)), path, where, None),
                unchanged=dict(f(e, "unchanged", (dict, type(None)), path, where, None) or {}),
                items=f(e, "items", (dict, type(None)), path, where, None),
                control_of=f(e, "control_of", (str, type(None)), path, where, None),
                no_answer_rule=f(e, "no_answer_rule", str, path, where, ""),
            )
            if entry.baseline_set not in sets:
                raise ArtifactError(ArtifactMsg.UNKNOWN_BASELINE_SET.format(path=path, aid=aid, set=entry.baseline_set))
            ablations[aid] = entry
        source = f(obj, "source", (dict, type(None)), path, "", None) or {}
        return cls(
            mrclens_version=f(obj, "mrclens_version", str, path, "", ""),
            seed=f(obj, "seed", int, path, "", 0),
            source=SourceRecord(f(source, "file", (str, type(None)), path, "source: ", None),
                                f(source, "sha256", (str, type(None)), path, "source: ", None)),
            pipeline=f(obj, "pipeline", (str, type(None)), path, "", None),
            sets=sets, ablations=ablations, format_version=version,
            draw=f(obj, "draw", int, path, "", 0), draw_seed=f(obj, "draw_seed", (int, type(None)), path, "", None),
            task=read_task_name(f(obj, "task", str, path, "", DEFAULT_TASK), str(path)),
        )


def manifest_path(perturbed_dir: str | os.PathLike) -> Path:
    """``perturbed_dir/manifest.json``."""
    return Path(perturbed_dir) / MANIFEST


def write_manifest(perturbed_dir: str | os.PathLike, manifest: PerturbationManifest, *,
                   protect: tuple[str | os.PathLike, ...] = ()) -> Path:
    """Write ``perturbed_dir/manifest.json`` atomically (compact JSON, keys in schema order).

    Args:
        protect: paths that must never be overwritten (the user's input file).
    """
    return atomic_write_json(manifest_path(perturbed_dir), manifest.to_json(), protect=protect)


def read_manifest(perturbed_dir: str | os.PathLike) -> PerturbationManifest:
    """Read and check ``perturbed_dir/manifest.json``.

    Raises:
        ArtifactError: the directory or manifest is missing, not JSON, or malformed (the message
            names the file and field).
    """
    if not Path(perturbed_dir).is_dir():
        raise ArtifactError(ArtifactMsg.NOT_A_DIR.format(path=perturbed_dir, command="perturb"))
    path = manifest_path(perturbed_dir)
    return PerturbationManifest.from_json(_files.read_json_object(path, _HINT), path)


def truncation_rule_of(perturbed_dir: str | os.PathLike) -> str | None:
    """The rule the truncated set under ``perturbed_dir`` was made with (:data:`TRUNCATION_RULES`; ``"first"`` for
    a manifest written before the rule was recorded), or ``None`` when the folder holds no manifest or no
    truncated set (e.g. an audit's results copied without its sets).

    Raises:
        ArtifactError: a manifest that is there but malformed (the message names the file and field).
    """
    if not manifest_path(perturbed_dir).is_file():
        return None
    entry = read_manifest(perturbed_dir).sets.get("original-truncated")
    return entry.rule if entry is not None else None
