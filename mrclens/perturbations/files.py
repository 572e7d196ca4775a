"""Perturb a span data file: load it, write every perturbed set and the manifest, summarise.

What ``mrclens perturb DATA --out DIR`` does with span data (SQuAD JSON, MRQA, Natural Questions,
Hugging Face flat files), as one library call: :func:`perturb_span_file` is the span task's entry in
:data:`mrclens.cli.perturb.PERTURB_FILE` (role ``"perturb_file"`` of :mod:`mrclens.tasks`; multiple
choice has :func:`mrclens.multiple_choice.perturb.perturb_mc_file`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

from mrclens.artifacts.manifest import PerturbationManifest


def summary_lines(manifest: PerturbationManifest) -> list[str]:
    """The terminal summary of a manifest: set sizes, drop reasons and, per ablation, n / changed / unchanged by reason."""
    sets = manifest.sets
    trunc = sets["original-truncated"]
    dropped = ", ".join(f"{reason} {n:,}" for reason, n in (trunc.dropped or {}).items()) or "none"
    kept = ("every qualifying question, each in its own copy of its paragraph" if trunc.rule == "every"
            else "one per kept paragraph")
    lines = [
        f"original: {sets['original'].n:,} questions",
        f"original-truncated: {trunc.n:,} questions ({kept}; {trunc.paragraphs_total or 0:,} paragraphs, "
        f"dropped: {dropped})",
    ]
    for aid, a in manifest.ablations.items():
        reasons = ", ".join(f"{r} {n:,}" for r, n in a.unchanged.items()) or "-"
        lines.append(
            f"{aid} {a.name:<22} {a.category:<10} on {a.eval_set:<9} n={a.n or 0:>6,}  "
            f"changed={a.changed or 0:>6,}  unchanged: {reasons}"
        )
    return lines


def perturb_span_file(data: str | os.PathLike, out_dir: str | os.PathLike, *, ablations: str | None = None,
                      seed: int = 0, draw: int = 0, jsonl: bool = False, cache_dir: str | Path | None = None,
                      n_process: int = 1, force: bool = False, on_invalid: str = "refuse", progress: bool = True,
                      on_loaded: Callable[[Any], None] | None = None) -> list[str]:
    """Load ``data`` (:func:`mrclens.formats.load_dataset`) and write its perturbed sets to ``out_dir``
    (:func:`mrclens.perturbations.driver.perturb_dataset`).

    Args:
        ablations: comma-separated ablation ids (``None``: all of e1-e10 and their controls).
        draw: which draw of every ablation's random choices to write (0: ``seed`` itself).
        jsonl: also write the Hugging Face flat form (``.jsonl``) of every set.
        on_loaded: called with the dataset once it is loaded (the CLI prints skipped questions).

    Returns:
        the lines of the terminal summary (:func:`summary_lines`, then what was written).

    Raises:
        DataError, FileNotFoundError: bad or missing ``data``; ArtifactError / MRCLensError: an
        ``out_dir`` that holds something else (without ``force``), an unknown ablation id.
    """
    from mrclens.formats import load_dataset
    from mrclens.perturbations.driver import perturb_dataset

    dataset = load_dataset(data, on_invalid=on_invalid)
    if on_loaded is not None:
        on_loaded(dataset)
    manifest = perturb_dataset(dataset, out_dir, ablations=ablations, seed=seed, cache_dir=cache_dir,
                               formats=("json", "jsonl") if jsonl else ("json",), progress=progress, n_process=n_process,
                               force=force, draw=draw)
    return [*summary_lines(manifest),
            f"wrote {len(manifest.ablations) + 3} files{' (+ .jsonl twins)' if jsonl else ''} to {out_dir}"]


def perturb_reference_sets(data: str | os.PathLike | None, out_dir: str | os.PathLike, *, ablations: str | None = None,
                           seed: int = 0, jsonl: bool = False, cache_dir: str | Path | None = None, n_process: int = 1,
                           force: bool = False, on_invalid: str = "refuse", progress: bool = True) -> list[str]:
    """Write the reference's perturbed sets for an external model to predict (``mrclens perturb --reference``):
    from ``data`` (SQuAD v1.1 dev) when given, else from the bundled SQuAD v1.1 sample's evaluation part (the
    articles ``mrclens audit`` evaluates on by default: :func:`mrclens.split.split_by_title` with
    :data:`~mrclens.defaults.DEFAULT_DEV_FRACTION` and :data:`~mrclens.defaults.DEFAULT_SEED`). The ablations and
    ``seed`` are the audit's defaults unless given, so the sets are made as the audited sets are; the manifest
    records the file they were made from and its sha256 (``source``). The model's predictions on them are then
    given to ``mrclens evaluate --reference-sets DIR --reference-predictions-dir PRED_DIR``
    (:mod:`mrclens.scoring.own_reference`).

    Returns:
        the lines of the terminal summary, as :func:`perturb_span_file`.

    Raises:
        as :func:`perturb_span_file`.
    """
    from mrclens.defaults import BUNDLED_SAMPLE, DEFAULT_DEV_FRACTION, DEFAULT_SEED
    from mrclens.formats import load_dataset
    from mrclens.perturbations.driver import perturb_dataset
    from mrclens.split import split_by_title

    if data is not None:
        return perturb_span_file(data, out_dir, ablations=ablations, seed=seed, jsonl=jsonl, cache_dir=cache_dir,
                                 n_process=n_process, force=force, on_invalid=on_invalid, progress=progress)
    _, part = split_by_title(load_dataset(BUNDLED_SAMPLE), DEFAULT_DEV_FRACTION, DEFAULT_SEED)
    manifest = perturb_dataset(part, out_dir, ablations=ablations, seed=seed, cache_dir=cache_dir,
                               formats=("json", "jsonl") if jsonl else ("json",), progress=progress, n_process=n_process,
                               force=force)
    return [f"reference sets: the evaluation part of the bundled SQuAD v1.1 sample ({len(part.articles)} articles; "
            f"title split seed {DEFAULT_SEED}, {DEFAULT_DEV_FRACTION:.0%} of the articles)", *summary_lines(manifest),
            f"wrote {len(manifest.ablations) + 3} files{' (+ .jsonl twins)' if jsonl else ''} to {out_dir}"]
