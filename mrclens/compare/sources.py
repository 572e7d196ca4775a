"""What every other module of :mod:`mrclens.compare` stands on: one loaded input (:class:`Source`),
a source made from a statistics dict (:func:`source_from_stats`), and the shape of the per-task hooks
(:class:`TaskComparison`; each task's, role ``"compare"`` of :mod:`mrclens.tasks`, are in
:mod:`mrclens.compare.span` and :mod:`mrclens.compare.multiple_choice`, and looked up with
:func:`mrclens.compare.hooks.hooks_for`).

A task's hooks hold everything in which comparing its inputs differs from comparing another
task's: its rows, how a figure is read from its statistics, how its files, folders and audits
are read, and what it adds to the notes. The rest of the package asks the hooks of the inputs'
task and never compares task names.

Examples:
    >>> src = source_from_stats({"counts": {"questions": 12}}, "A")
    >>> src.task, src.info.questions, src.info.figures_from
    ('span', 12, 'summary figures')
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from mrclens.artifacts.comparison import ComparedInput
from mrclens.artifacts.reference import ReferenceFigure
from mrclens.artifacts.results import Results
from mrclens.errors import ArtifactError, ArtifactMsg, DuplicateKeyError, MRCLensError
from mrclens.io_utils import loads_unique
from mrclens.tasks import DEFAULT_TASK, Task, get_task

#: How closely per-question values must reproduce a summary figure (or question scores a
#: ``results.json`` figure) to be used for the bootstrap.
TOLERANCE = 1e-3

#: A row of model-free figures: ``(section, stats path, kind, path of its n for a share, label, bias_when, category)``.
RowSpec = tuple[str, str, str, str | None, str, str | None, str | None]


@dataclass(frozen=True)
class TaskComparison:
    """How :func:`mrclens.compare.compare` handles one task's inputs (one instance per task, in
    :data:`mrclens.compare.hooks.COMPARISONS`).

    Attributes:
        word: the task in the message that refuses a mix of tasks (``"multiple-choice"``).
        rows: the model-free rows, shaped like :data:`mrclens.compare.span.MODEL_FREE_ROWS`.
        share_sections: sections compared label by label: ``(section, stats section, label
            template, path of n)``.
        figure: ``(stats, path, kind, n_path) -> ReferenceFigure | None``: one figure of the task's
            statistics dict as ``(value, n, std)``; ``None`` when absent.
        claims: ``(path) -> bool``: whether a file, or a folder without ``results.json``, holds this
            task's data (asked of every task but the default one, which takes the files no other
            task claims); never raises on bad content.
        load_file: ``(p, name, path, *, cache_dir, progress, on_invalid, n_process) -> Source``: a
            dataset or ``mrclens stats`` JSON file of the task (``p`` the file, ``path`` the input
            as given, recorded in the comparison).
        audit_figures: ``(results, perturbed_dir, directory, name, kind, *, cache_dir, progress,
            n_process) -> Source``: an audit's or evaluation's model-free figures (its evaluation
            data when there, else its ``results.json``).
        share_label_ok: ``(stats section, label) -> bool``: whether a share row of one of its
            ``share_sections`` can have that label (``mrclens check`` validates rule keys with it).
        distributions: the per-question distributions the page overlays: ``(stats path, label, unit)``.
        load_folder: ``(p, name, path) -> Source``: a data folder of the task (``None``: the task has
            none, so a folder must be an audit).
        differs: ``(first, later) -> list[str]``: what else differs between two of its inputs.
        note: a method note for comparisons of its inputs (``None``: none).
    """

    word: str
    rows: tuple[RowSpec, ...]
    share_sections: tuple[tuple[str, str, str, str], ...]
    figure: Callable[[Mapping[str, Any], str, str, str | None], ReferenceFigure | None]
    claims: Callable[[Path], bool]
    load_file: Callable[..., "Source"]
    audit_figures: Callable[..., "Source"]
    share_label_ok: Callable[[str, str], bool]
    distributions: tuple[tuple[str, str, str], ...] = ()
    load_folder: Callable[[Path, str, str], "Source"] | None = None
    differs: Callable[["Source", "Source"], list[str]] = lambda first, later: []
    note: str | None = None


def known_task(name: str | Task | None) -> Task:
    """The registered task called ``name``, or the default task (span extraction) for ``None`` and
    for a name no task has: an input (``results.json`` ``"task"``) naming an unknown task is read
    as span data, as ``mrclens compare`` always read it."""
    try:
        return get_task(name)
    except MRCLensError:
        return get_task(DEFAULT_TASK)


@dataclass
class Source:
    """One loaded input (:func:`mrclens.compare.inputs.load_input`).

    Attributes:
        info: what the comparison records about it.
        stats: a :func:`mrclens.stats.compute_stats` result (computed, or read from a stats JSON;
            :func:`mrclens.multiple_choice.stats.mc_stats`'s for multiple-choice inputs).
        values: per-question values behind the means (:data:`mrclens.stats.core.VALUE_PATHS`).
        figures: summary figures when there are no ``stats`` (an audit's ``model_free``).
        results, scores, infos: an audit's results, per-question scores (``None`` when absent)
            and the ablations' :class:`~mrclens.artifacts.manifest.AblationEntry` from its manifest.
        question_ids, contexts: the question ids and the texts of the contexts of the questions
            read (a dataset, an audit's evaluation data; ``None`` when none were: a stats JSON, an
            audit's summary figures), for the overlap between inputs (:mod:`mrclens.compare.overlap`).
    """

    info: ComparedInput
    stats: Mapping[str, Any] | None = None
    values: dict[str, np.ndarray] = field(default_factory=dict)
    figures: dict[str, ReferenceFigure] = field(default_factory=dict)
    results: Results | None = None
    scores: Mapping[str, Any] | None = None
    infos: dict[str, Any] = field(default_factory=dict)
    question_ids: frozenset[str] | None = None
    contexts: frozenset[str] | None = None

    @property
    def task(self) -> str:
        """The name of the input's task (:mod:`mrclens.tasks`)."""
        return self.info.task


def source_from_stats(stats: Mapping[str, Any], name: str, path: str | os.PathLike = "", *,
                      values: Mapping[str, Sequence[float]] | None = None, kind: str = "stats",
                      sha256: str | None = None, task: str = DEFAULT_TASK) -> Source:
    """A :class:`Source` from a statistics dict (and the per-question values behind its means, if known);
    ``task`` ``"multiple_choice"`` for :func:`mrclens.multiple_choice.stats.mc_stats`'s dicts."""
    counts = stats.get("counts") or {}
    vals = {k: np.asarray(v, dtype=np.float64) for k, v in (values or {}).items()}
    info = ComparedInput(name=name, path=str(path), kind=kind, sha256=sha256, questions=counts.get("questions"),
                         figures_from="per-question values" if vals else "summary figures", task=task)
    return Source(info, stats=stats, values=vals)


def read_stats_json(path: Path) -> Any | None:
    """The JSON value of a file that looks like a ``mrclens stats`` JSON file (its header says so), read
    as MRCLens reads its own files: a key repeated in one object is refused (:func:`mrclens.io_utils.loads_unique`).

    Returns:
        the value, or ``None`` when the file is not UTF-8 JSON (it is then read as data).

    Raises:
        ArtifactError: an object holds a key twice (the message names the file and the key).
    """
    try:
        return loads_unique(path.read_bytes().decode("utf-8"))
    except DuplicateKeyError as err:
        raise ArtifactError(ArtifactMsg.DUPLICATE_KEY.format(path=path, key=err.key, where=err.where)) from None
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None


def node(obj: Any, path: str | None) -> Any:
    """The value at a dotted ``path`` of nested mappings (``None`` when a part is missing)."""
    for part in (path or "").split("."):
        obj = obj.get(part) if isinstance(obj, Mapping) else None
    return obj


def is_number(x: Any) -> bool:
    """Whether ``x`` is a finite int or float (not a bool)."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)

