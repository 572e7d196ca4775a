"""The output-folder policy: what a command may find in its ``--out`` folder, and what it leaves there.

Every command that writes a folder (``perturb``, ``evaluate --out``, ``compare --out``, ``train``,
``selftest``, the audit's ``perturbed/`` and ``predictions/``) declares its **folder kind**
(:class:`FolderKind`): the entries it writes (:attr:`FolderKind.owns`) and how an earlier output of
the same kind is recognised (:attr:`FolderKind.is_previous`). Two rules follow, the same for all:

1. **Before any work** (:func:`check_output_folder`, called by the CLI's pre-flight and again by
   the writer): a non-empty folder that holds no earlier output of the kind is refused
   (:class:`~mrclens.errors.OutputError`, exit code 2) unless ``force``.
2. **After writing** (:func:`remove_stale`, or :func:`write_folder`, which stages the files and
   then calls it): every entry of the kind that this run did not write is removed, with one
   warning naming them. So a later reader never takes an earlier run's file for this run's:
   ``perturb --ablations e1,e3`` into a folder of a run with all ablations leaves no ``e4.json``.
   Files of other kinds (a user's notes, a ``--force``\\d folder's own files) are never touched.

An audit that resumes (:mod:`mrclens.audit.ledger`) keeps its finished steps: its steps write
through the same policy, so what a step did not rewrite and the run still lists stays, and the
ledger reruns any step whose output was removed.

Examples:
    >>> PERTURB.owns_name("e4.json"), PERTURB.owns_name("original-truncated.jsonl"), PERTURB.owns_name("notes.txt")
    (True, True, False)
    >>> PREDICTIONS.owns_name("draw-2"), EVALUATION.owns_name("report.html")
    (True, True)
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from mrclens.artifacts import is_perturb_output
from mrclens.artifacts.layout import (
    AUDIT_FILES,
    AUDIT_STATE,
    COMPARISON_FILES,
    MANIFEST,
    OUTPUT_FILES,
    PERTURBED_DIR,
    PREDICTIONS_DIR,
    RESULTS_JSON,
    SELFTEST_JSON,
)
from mrclens.errors import Msg, OutputError
from mrclens.io_utils import TMP_PREFIX, staged_output

log = logging.getLogger("mrclens.outputs")

#: A set's file name (``original.json``, ``original-truncated.jsonl``, ``e10.json``, ``mc4.jsonl``):
#: the perturbed sets and the prediction files.
SET_FILE = re.compile(r"^(original|original-truncated|[a-z]{1,2}\d+)\.jsonl?$")
#: The sub-folders of further draws and readers (issue 16): ``draw-<k>``, ``reader-<r>``.
REPLICATE_DIR = re.compile(r"^(draw|reader)-\d+$")
#: The files of a reader checkpoint (:mod:`mrclens.baseline_model.checkpoint`).
CHECKPOINT_FILES = ("config.json", "vocab.json", "weights.pt", "training_log.json", "training.json", "no_answer.json")


@dataclass(frozen=True)
class FolderKind:
    """What one command writes into its output folder.

    Attributes:
        command: the command, for messages (``"perturb"``).
        owns: ``owns(entry) -> bool``: ``entry`` (a path in the folder) is of this kind, i.e. a
            run of the command writes entries like it.
        is_previous: ``is_previous(folder) -> bool``: the folder holds an earlier output of this kind.
    """

    command: str
    owns: Callable[[Path], bool]
    is_previous: Callable[[Path], bool]

    def owns_name(self, name: str) -> bool:
        """:attr:`owns` of an entry called ``name`` (a file unless the kind only owns folders)."""
        return self.owns(Path(name))


def _is_file_named(names: Iterable[str]) -> Callable[[Path], bool]:
    names = frozenset(names)
    return lambda p: p.name in names and not p.is_dir()


def _is_evaluate_output(folder: Path) -> bool:
    """``folder`` holds results.json written by ``mrclens evaluate`` (not by an audit), or only the
    ``perturbed/`` and ``predictions/`` folders of the output layout (an external model's run laid out
    as an audit is, e.g. ``examples/audit_external_model.sh``)."""
    from mrclens.artifacts.results import read_results
    from mrclens.errors import ArtifactError

    if not (folder / RESULTS_JSON).exists():
        names = {p.name for p in folder.iterdir() if not p.name.startswith(TMP_PREFIX)}
        return names <= {PERTURBED_DIR, PREDICTIONS_DIR} and all((folder / n).is_dir() for n in names)
    try:
        return read_results(folder).audit is None
    except ArtifactError:
        return False


def _is_comparison(folder: Path) -> bool:
    from mrclens.artifacts.comparison import read_comparison
    from mrclens.errors import ArtifactError

    try:
        read_comparison(folder)
        return True
    except ArtifactError:
        return False


def _is_planting_folder(entry: Path) -> bool:
    """A folder of ``mrclens selftest``: one planting's two datasets (and their audits), or a structural
    counterpart's one dataset (``data.json``) and its audit."""
    return entry.is_dir() and any((entry / f"{side}.{ext}").is_file() for side in ("planted", "clean", "data")
                                  for ext in ("json", "jsonl"))


#: ``mrclens perturb`` (span and multiple choice): the manifest and one file per set.
PERTURB = FolderKind("perturb", lambda p: p.name == MANIFEST or (bool(SET_FILE.match(p.name)) and not p.is_dir()),
                     is_perturb_output)
#: ``mrclens evaluate … --out``: results.json, results.csv, question-scores.json, report.html.
EVALUATION = FolderKind("evaluate", _is_file_named(OUTPUT_FILES), _is_evaluate_output)
#: ``mrclens compare … --out``: comparison.json, .csv, .html.
COMPARISON = FolderKind("compare", _is_file_named(COMPARISON_FILES), _is_comparison)
#: ``mrclens train --out``: a reader checkpoint.
MODEL = FolderKind("train", _is_file_named(CHECKPOINT_FILES), lambda d: (d / "config.json").is_file())
#: ``mrclens selftest --out``: selftest.json and one folder per planting.
SELFTEST = FolderKind("selftest", lambda p: p.name == SELFTEST_JSON or _is_planting_folder(p),
                      lambda d: (d / SELFTEST_JSON).is_file() or any(_is_planting_folder(p) for p in d.iterdir()))
#: ``mrclens selftest --curve --out``: the detection curve and its picture (:mod:`mrclens.artifacts.detection_curve`).
CURVE = FolderKind("selftest --curve", _is_file_named(("detection-curve.json", "detection-curve.png")),
                   lambda d: (d / "detection-curve.json").is_file())
#: An audit's ``predictions/``: one file per set, and the folders of further readers and draws.
PREDICTIONS = FolderKind("audit", lambda p: bool(SET_FILE.match(p.name) or REPLICATE_DIR.match(p.name)),
                         lambda d: True)
#: The replicates' folders in an audit's ``perturbed/`` (``draw-<k>``; draw 0's files are :data:`PERTURB`'s)
#: and ``model/`` (``reader-<r>``).
REPLICATES = FolderKind("audit", lambda p: p.is_dir() and bool(REPLICATE_DIR.match(p.name)), lambda d: True)
#: An audit's folder (:class:`mrclens.audit.ledger.StepLedger` checks it: it knows the audited dataset).
AUDIT = FolderKind("audit", lambda p: p.name in (*OUTPUT_FILES, *AUDIT_FILES, AUDIT_STATE, PERTURBED_DIR, PREDICTIONS_DIR),
                   lambda d: (d / AUDIT_STATE).is_file())


def check_output_folder(folder: str | os.PathLike, kind: FolderKind, *, force: bool = False) -> None:
    """Refuse to write into a non-empty ``folder`` that holds something other than an earlier output
    of ``kind``, unless ``force``. Creates nothing (the pre-flight calls it before any work).

    Raises:
        OutputError: ``folder`` is a file, or it is not empty and :attr:`FolderKind.is_previous` says
            no (the message names what is there and says how to proceed).
    """
    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise OutputError(Msg.OUTPUT_NOT_DIR.format(path=out))
    if force or not out.is_dir():
        return
    entries = sorted(p.name for p in out.iterdir() if not p.name.startswith(TMP_PREFIX))
    if not entries or kind.is_previous(out):
        return
    found = ", ".join(entries[:3]) + (f" and {len(entries) - 3} more" if len(entries) > 3 else "")
    raise OutputError(Msg.OUT_HOLDS_OTHER.format(path=out, command=kind.command, found=found))


def stale_entries(folder: str | os.PathLike, kind: FolderKind, written: Iterable[str]) -> list[Path]:
    """The entries of ``folder`` of ``kind`` whose names are not in ``written`` (sorted)."""
    out = Path(folder)
    keep = set(written)
    try:
        entries = sorted(out.iterdir())
    except OSError:
        return []
    return [p for p in entries if p.name not in keep and not p.name.startswith(TMP_PREFIX) and kind.owns(p)]


def note_written(written: dict[Path, set[str]], target: Path, root: Path) -> None:
    """Record in ``written`` (folder → names) ``target`` and each folder between it and ``root`` (``root``
    itself excluded), so that :func:`remove_stale` on every recorded folder keeps exactly this run's
    entries: e.g. ``predictions/draw-1/e1.json`` records ``e1.json`` in ``draw-1`` and ``draw-1`` in ``predictions``.

    >>> w = {}; note_written(w, Path("p/draw-1/e1.json"), Path("p")); sorted((str(k), sorted(v)) for k, v in w.items())
    [('p', ['draw-1']), ('p/draw-1', ['e1.json'])]
    """
    for part in (target, *target.parents):
        if part == root:
            break
        written.setdefault(part.parent, set()).add(part.name)


def remove_stale(folder: str | os.PathLike, kind: FolderKind, written: Iterable[str]) -> list[Path]:
    """Remove the entries of ``kind`` in ``folder`` that this run did not write (:func:`stale_entries`),
    with one warning naming them.

    Returns:
        the paths removed.

    Raises:
        OutputError: an entry cannot be removed (the message names it: the folder would mix runs).
    """
    stale = stale_entries(folder, kind, written)
    remove_entries(stale, f"left by an earlier `mrclens {kind.command}` run and not written by this one")
    if stale:
        names = ", ".join(p.name for p in stale[:8]) + (f" and {len(stale) - 8} more" if len(stale) > 8 else "")
        log.warning(f"{folder}: removed {len(stale)} entr{'y' if len(stale) == 1 else 'ies'} of an earlier "
                    f"`mrclens {kind.command}` run that this run does not write: {names}")
    return stale


def remove_entries(paths: Iterable[Path], why: str) -> None:
    """Remove each file or folder of ``paths``.

    Raises:
        OutputError: one cannot be removed: ``cannot remove PATH, WHY: reason; remove it, or choose another --out``.
    """
    for path in paths:
        try:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
        except OSError as err:
            raise OutputError(f"cannot remove {path}, {why}: {err.strerror or err}; remove it, or choose another "
                              "--out") from None


@contextlib.contextmanager
def write_folder(folder: str | os.PathLike, kind: FolderKind, *, force: bool = False,
                 protect: Iterable[str | os.PathLike] = (), last: Iterable[str] = ()) -> Iterator[Path]:
    """Write a whole output of ``kind`` into ``folder``, all or nothing, leaving no stale entry.

    :func:`check_output_folder`, then :func:`mrclens.io_utils.staged_output` (the caller writes into
    the staging folder it yields; ``protect`` and ``last`` are passed on), then
    :func:`remove_stale` with the names written. A failure leaves the folder as it was (and removes
    it if this call created it).

    Raises:
        OutputError: as :func:`check_output_folder`, :func:`mrclens.io_utils.staged_output`, :func:`remove_stale`.
        MRCLensError: a file to write is one of the ``protect`` inputs.
    """
    check_output_folder(folder, kind, force=force)
    with staged_output(folder, protect=protect, last=last) as stage:
        yield stage
        written = [p.name for p in stage.iterdir()]
    remove_stale(folder, kind, written)
