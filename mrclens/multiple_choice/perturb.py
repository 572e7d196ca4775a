"""Write the original and perturbed multiple-choice sets and their manifest (issue 20).

The multiple-choice twin of :func:`mrclens.perturbations.perturb_dataset`: every ablation of
:mod:`mrclens.multiple_choice.ablations` is applied to every question, each set is written as
multiple-choice JSON Lines (:func:`mrclens.formats.multiple_choice.write_jsonl`) and described in
``manifest.json`` (:mod:`mrclens.artifacts.manifest`, ``task: "multiple_choice"``), which scoring,
the audit and the report read as they read the span task's.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterable

from mrclens import __version__
from mrclens.artifacts.folders import PERTURB, write_folder
from mrclens.artifacts.layout import MANIFEST, set_file_name
from mrclens.artifacts.manifest import (AblationEntry, PerturbationManifest, SetEntry, SourceRecord, read_manifest,
                                        write_manifest)
from mrclens.errors import ArtifactError, ArtifactMsg, MRCLensError
from mrclens.formats.multiple_choice import MCDataset, MCQuestion, load_mc_dataset, write_jsonl
from mrclens.io_utils import sha256_file
from mrclens.multiple_choice.ablations import BASELINE_SET, MC_ABLATIONS, MCWordPool, resolve_mc_ablations
from mrclens.parsing import ParsedText, parse_texts, pipeline_fingerprint_for
from mrclens.perturbations.base import Change, make_rng
from mrclens.progress import progress as progress_bar
from mrclens.seeds import derived_seed
from mrclens.tasks import MULTIPLE_CHOICE, task_of


def perturb_mc(dataset: MCDataset, out_dir: str | os.PathLike, *, ablations: Iterable[str] | str | None = None,
               seed: int = 0, draw: int = 0, cache_dir: str | Path | None | bool = None, progress: bool = False,
               force: bool = False, protect: Iterable[str | os.PathLike] = ()) -> PerturbationManifest:
    """Write the unperturbed and perturbed sets of a multiple-choice ``dataset`` to ``out_dir``.

    Files: ``original.jsonl`` (the questions as given), one ``<id>.jsonl`` per ablation (same
    question ids, order, labels and categories) and ``manifest.json`` (``task:
    "multiple_choice"``; set ``original``; per ablation its metadata, baseline set ``original``,
    the number of questions ``n``, how many it ``changed``, ``unchanged`` ``{reason: count}``,
    ``items`` ``{question id: change record}`` and ``control_of``). Every prompt is parsed once
    (spaCy tokens + coarse POS, :func:`mrclens.parsing.parse_texts`). The files are staged and
    moved into ``out_dir`` only when all were written, the manifest last
    (:func:`mrclens.io_utils.staged_output`). The same input and seed give byte-identical files.

    Args:
        dataset: the questions (:func:`mrclens.formats.multiple_choice.load_mc_dataset`).
        out_dir: output directory (created if missing).
        ablations: ids (list or ``"m1,m4"``); ``None`` → all; an ablation brings its control.
        seed: global seed; each question's generator is seeded from (seed, ablation id, question
            id) with :func:`mrclens.perturbations.base.make_rng`.
        draw: which draw of the random choices (issue 16): draw ``k >= 1`` seeds every generator
            with :func:`mrclens.seeds.derived_seed` ``(seed, "draw", k)``; the manifest records
            ``draw`` and ``draw_seed``. Draw 0 is ``seed`` itself.
        cache_dir: parse cache directory (default :func:`mrclens.parsing.default_cache_dir`;
            ``False`` for none).
        progress: show progress for parsing and perturbing.
        force: write into a non-empty ``out_dir`` that does not hold an earlier perturb output.
        protect: files that must never be overwritten (``dataset.source`` is always protected).

    Returns:
        the manifest written to ``manifest.json``.

    Raises:
        MRCLensError: an unknown ablation id, a bad ``draw``, a dataset without questions, or an output is a protected file.
        OutputError: ``out_dir`` cannot be written, or is non-empty, not an earlier perturb
            output, and ``force`` is off (a subclass of :class:`MRCLensError`).
        CacheError: the parse cache directory is not usable.
        PipelineNotInstalled: no English spaCy pipeline is installed.
    """
    ids = resolve_mc_ablations(ablations)
    if not dataset.questions:
        raise MRCLensError(f"{dataset.source or 'the dataset'}: no question to perturb")
    if isinstance(draw, bool) or not isinstance(draw, int) or draw < 0:
        raise MRCLensError(f"draw must be a whole number >= 0, got {draw!r}")
    protected = tuple(protect) + ((dataset.source,) if dataset.source else ())
    with write_folder(out_dir, PERTURB, force=force, protect=protected, last=(MANIFEST,)) as stage:
        return _write_all(dataset, stage, ids=ids, seed=seed, draw=draw, cache_dir=cache_dir, progress=progress)


def _parse_prompts(dataset: MCDataset, cache_dir, progress: bool) -> list[ParsedText]:
    """One parse (tokens + coarse POS) per question, in order; each distinct prompt parsed once."""
    return parse_texts([q.prompt for q in dataset.questions], pos=True, cache_dir=cache_dir,
                       progress="parsing prompts" if progress else False)


def apply_ablation(aid: str, dataset: MCDataset, parses: list[ParsedText], seed: int,
                   pool: MCWordPool | None) -> tuple[MCDataset, dict[str, Change]]:
    """Apply the ablation ``aid`` to every question (``parses[i]`` is question ``i``'s prompt parse).

    Returns:
        the perturbed set (same order, source and format) and ``{question id: change record}``.

    Raises:
        KeyError: ``aid`` is not in :data:`~mrclens.multiple_choice.ablations.MC_ABLATIONS`.
        ValueError: a control gets no ``pool``.
    """
    apply = MC_ABLATIONS[aid].apply
    questions: list[MCQuestion] = []
    items: dict[str, Change] = {}
    for q, parse in zip(dataset.questions, parses):
        new, record = apply(q, parse, make_rng(seed, aid, q.id), pool)
        questions.append(new)
        items[q.id] = record
    return MCDataset(questions, dataset.source, dataset.format), items


def _entry(aid: str, file: str, items: dict[str, Change]) -> AblationEntry:
    ablation = MC_ABLATIONS[aid]
    reasons: dict[str, int] = {}
    for rec in items.values():
        if not rec["changed"]:
            reasons[rec["reason"]] = reasons.get(rec["reason"], 0) + 1
    return AblationEntry(
        id=ablation.id, name=ablation.name, category=ablation.category, eval_set=ablation.eval_set, baseline_set=BASELINE_SET,
        description=ablation.description, bias_signal=ablation.bias_signal, file=file, n=len(items),
        changed=sum(1 for r in items.values() if r["changed"]), unchanged=dict(sorted(reasons.items())),
        items=items, control_of=ablation.control_of,
    )


def _write_all(dataset: MCDataset, out: Path, *, ids: list[str], seed: int, draw: int, cache_dir,
               progress: bool) -> PerturbationManifest:
    """Write every set into the staging directory ``out``; ``seed`` is the one given."""
    draw_seed = derived_seed(seed, "draw", draw)
    parses = _parse_prompts(dataset, cache_dir, progress)
    pool = MCWordPool.build(parses) if any(MC_ABLATIONS[a].control_of for a in ids) else None
    source = SourceRecord(dataset.source, None)
    if dataset.source and Path(dataset.source).is_file():
        source.sha256 = sha256_file(dataset.source)
    original = set_file_name(BASELINE_SET, "jsonl")
    write_jsonl(dataset, out / original)
    manifest = PerturbationManifest(
        mrclens_version=__version__, seed=seed, source=source,
        pipeline=pipeline_fingerprint_for(pos=True, cache_dir=cache_dir),
        sets={BASELINE_SET: SetEntry(original, len(dataset))}, ablations={},
        draw=draw, draw_seed=draw_seed if draw else None, task=MULTIPLE_CHOICE.name,
    )
    bar = progress_bar(total=len(ids), desc="perturbing", unit="ablation", enabled=progress)
    for aid in ids:
        perturbed, items = apply_ablation(aid, dataset, parses, draw_seed, pool)
        file = set_file_name(aid, "jsonl")
        write_jsonl(perturbed, out / file)
        manifest.ablations[aid] = _entry(aid, file, items)
        bar.update(1)
    bar.close()
    write_manifest(out, manifest)
    return manifest


def _is_mc_output(manifest: PerturbationManifest) -> bool:
    """Whether the manifest's task is multiple choice (a task name that is not registered is not)."""
    try:
        return task_of(manifest) is MULTIPLE_CHOICE
    except MRCLensError:
        return False


def load_perturbed_mc(perturbed_dir: str | os.PathLike) -> dict[str, MCDataset]:
    """Every set of a multiple-choice perturb output: ``{"original": …, "m1": …, …}`` (manifest order:
    the baseline set, then the ablations in report order).

    Raises:
        ArtifactError: the manifest is missing or malformed, is not of a multiple-choice output
            (``task`` other than ``"multiple_choice"``), or a set file it lists is missing.
        DataError: a set file is not valid multiple-choice JSON Lines.
    """
    manifest = read_manifest(perturbed_dir)
    if not _is_mc_output(manifest):
        raise ArtifactError(f"{Path(perturbed_dir) / MANIFEST}: task is {manifest.task!r}, not {MULTIPLE_CHOICE.name!r} "
                            f"(a span perturb output; read it with mrclens.formats.load_dataset)")
    out: dict[str, MCDataset] = {}
    for name, file in manifest.set_files().items():
        path = Path(perturbed_dir) / file
        if not path.is_file():
            raise ArtifactError(ArtifactMsg.MISSING.format(path=path, hint=f"manifest.json lists it for set {name!r}"))
        out[name] = load_mc_dataset(path, format="mc-jsonl")
    return out



def perturb_mc_file(data: str | os.PathLike, out_dir: str | os.PathLike, *, ablations: str | None = None, seed: int = 0,
                    draw: int = 0, cache_dir: str | os.PathLike | None = None, force: bool = False, progress: bool = True,
                    **_span_options: Any) -> list[str]:
    """Load a multiple-choice file and write its perturbed sets (:func:`perturb_mc`; m1-m6 and their
    controls, JSON Lines sets): the multiple-choice task's entry in
    :data:`mrclens.cli.perturb.PERTURB_FILE`. ``ablations`` is comma-separated ids (``None``: all). The span options of
    ``mrclens perturb`` (``jsonl``, ``n_process``, ``on_invalid``, ``on_loaded``) do not apply.

    Returns:
        the lines of the terminal summary: per ablation, changed of n; then what was written.

    Raises:
        as :func:`load_mc_dataset` and :func:`perturb_mc`.
    """
    ids = [a.strip() for a in ablations.split(",") if a.strip()] if ablations else None
    manifest = perturb_mc(load_mc_dataset(data), out_dir, ablations=ids, seed=seed, draw=draw, cache_dir=cache_dir,
                          progress=progress, force=force)
    lines = [f"  {aid:<4} {a.name:<32} changed {a.changed:,} of {a.n:,}" for aid, a in manifest.ablations.items()]
    return [*lines, f"wrote {len(manifest.ablations) + 2} files to {out_dir}"]
