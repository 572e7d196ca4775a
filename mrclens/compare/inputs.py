"""Reading the inputs of ``mrclens compare``: which task each input poses (:func:`input_task`, a mix
refused by :func:`check_one_task`) and one input read into a :class:`~mrclens.compare.sources.Source`
(:func:`load_input`): a dataset file, a ``mrclens stats --out`` JSON file, or an audit or evaluation
directory (``results.json``, ``question-scores.json`` and the perturbation manifest). What is read
from a file, a data folder or an audit's evaluation data is the task's own
(:class:`~mrclens.compare.sources.TaskComparison`, each task's in :data:`mrclens.compare.hooks.COMPARISONS`). Each input is read once; nothing is written next to it.

Examples:
    >>> default_name(Path("data/dev-v1.1.json.gz")), default_name(Path("audits/seed0"))
    ('dev-v1.1', 'seed0')
    >>> check_one_task(["span", None, "span"], ["a", "b", "c"])
    >>> check_one_task(["span", "multiple_choice"], ["a", "b"])
    Traceback (most recent call last):
    ...
    mrclens.errors.MRCLensError: cannot compare span-extraction inputs with multiple-choice inputs: a (span extraction), b (multiple-choice); give inputs of one task (all span-extraction data, stats and audits, or all multiple-choice ones)
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Sequence

from mrclens.artifacts.layout import MANIFEST, QUESTION_SCORES, RESULTS_JSON
from mrclens.artifacts.manifest import AblationEntry, read_manifest
from mrclens.artifacts.question_scores import read_question_scores
from mrclens.artifacts.results import read_results
from mrclens.compare.hooks import hooks_for
from mrclens.compare.sources import Source, known_task
from mrclens.errors import ArtifactError, CompareMsg, MRCLensError
from mrclens.tasks import DEFAULT_TASK, all_tasks

#: The message when span and multiple-choice inputs are mixed.
MIXED_TASKS = ("cannot compare span-extraction inputs with multiple-choice inputs: {listing}; give inputs of one "
               "task (all span-extraction data, stats and audits, or all multiple-choice ones)")


def _results_task(results_json: Path) -> str:
    """The ``task`` of an audit's ``results.json`` (span when absent, unknown or unreadable: reading it later says why)."""
    try:
        obj = json.loads(results_json.read_bytes().decode("utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return DEFAULT_TASK
    return known_task(obj.get("task") if isinstance(obj, dict) else None).name


def input_task(path: str | os.PathLike) -> str | None:
    """The task name of one input of :func:`mrclens.compare.compare`: an audit's ``results.json``
    ``"task"``; for a file or a folder, the first task other than the default that claims it
    (``"multiple_choice"`` for a multiple-choice file, CODAH folder or multiple-choice stats JSON);
    else ``None`` for a folder (neither an audit nor data) and ``"span"`` for anything else. Never
    raises on bad content (reading the input later says what is wrong)."""
    p = Path(path)
    if p.is_dir() and (p / RESULTS_JSON).is_file():
        return _results_task(p / RESULTS_JSON)
    if not p.is_dir() and not p.is_file():
        return DEFAULT_TASK
    # The one task branch left: the default task (span extraction) claims nothing itself, because a
    # SQuAD-format file has no signature to sniff (any format mrclens.formats reads); it takes the
    # files no other task claims.
    for task in all_tasks():
        if not task.is_default and hooks_for(task).claims(p):
            return task.name
    return None if p.is_dir() else DEFAULT_TASK


def check_one_task(tasks: Sequence[str | None], names: Sequence[str]) -> None:
    """Raise :class:`MRCLensError` (:data:`MIXED_TASKS`, every input named with its task) unless all
    ``tasks`` are one (``None``, an input of unknown task, is left out)."""
    if len({t for t in tasks if t is not None}) > 1:
        listing = ", ".join(f"{n} ({hooks_for(t).word})" for n, t in zip(names, tasks) if t is not None)
        raise MRCLensError(MIXED_TASKS.format(listing=listing))


def default_name(p: Path) -> str:
    """An input's name in the table when none is given: its file or folder name without data suffixes."""
    name = p.name
    for suffix in (".gz", ".json", ".jsonl", ".parquet", ".tsv"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return name or str(p)


def load_input(path: str | os.PathLike, name: str | None = None, *, cache_dir: str | os.PathLike | None = None,
               progress: bool = False, on_invalid: str = "refuse", n_process: int | None = None,
               task: str | None = None) -> Source:
    """Read one input of :func:`mrclens.compare.compare` (kinds in the package docstring).

    Args:
        task: the input's task when known (:func:`input_task`; ``None``: found here).

    Raises:
        ArtifactError: a directory without a readable ``results.json`` (and no multiple-choice
            folds), or a malformed results, question-scores or manifest file (the message names it).
        DataError: a dataset file that MRCLens cannot read.
        FileNotFoundError: ``path`` does not exist.
    """
    p = Path(path)
    name = name or default_name(p)
    if not p.exists():
        raise FileNotFoundError(2, "No such file or directory", str(path))
    hooks = hooks_for(task or input_task(p))
    if p.is_dir():
        if hooks.load_folder is not None and not (p / RESULTS_JSON).is_file():
            return hooks.load_folder(p, name, str(path))
        return audit_source(p, name, cache_dir=cache_dir, progress=progress, n_process=n_process)
    return hooks.load_file(p, name, str(path), cache_dir=cache_dir, progress=progress, on_invalid=on_invalid,
                           n_process=n_process)


def audit_source(directory: Path, name: str, *, cache_dir, progress: bool, n_process: int | None) -> Source:
    """An audit or evaluation directory: its results, question scores, the ablations' manifest
    entries, its model-free figures (read as its task reads them) and its reader.

    Raises:
        ArtifactError: no ``results.json`` in ``directory``, or a malformed results, question-scores
            or manifest file.
    """
    if not (directory / RESULTS_JSON).is_file():
        raise ArtifactError(CompareMsg.NOT_AN_AUDIT.format(path=directory, results=RESULTS_JSON))
    results = read_results(directory)
    scores = read_question_scores(directory) if (directory / QUESTION_SCORES).is_file() else None
    perturbed = Path(results.paths.get("perturbed_dir") or "perturbed")
    perturbed = perturbed if perturbed.is_absolute() else directory / perturbed
    infos: dict[str, AblationEntry] = {}
    if (perturbed / MANIFEST).is_file():
        manifest = read_manifest(perturbed)
        infos = dict(manifest.ablations)
    kind = "audit" if results.audit is not None else "evaluation"
    src = hooks_for(results.task).audit_figures(results, perturbed, directory, name, kind, cache_dir=cache_dir,
                                                progress=progress, n_process=n_process)
    src.results, src.scores, src.infos = results, scores, infos
    src.info.reader = results.reader_profile or results.model.name or results.model.kind
    orig = results.sets.get("original")
    src.info.reader_f1 = None if orig is None else orig.f1
    src.info.draws = len({r.draw for r in results.replicates}) or 1
    src.info.readers = len({r.reader for r in results.replicates}) or 1
    src.info.ablations = [a.id for a in results.ablations if a.evaluated]
    return src
