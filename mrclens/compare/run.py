"""The entry points of ``mrclens compare``: :func:`compare` (paths: each input read, then compared)
and :func:`compare_sources` (loaded inputs: the rows, what differs between the inputs beyond the
figures, the questions and contexts they share (:mod:`mrclens.compare.overlap`), and the notes on the method).

Examples:
    >>> from mrclens.compare.sources import source_from_stats
    >>> stats_a = {"similarity": {"answer_in_most_similar_sentence_pct": 80.0, "n": 1000}}
    >>> stats_b = {"similarity": {"answer_in_most_similar_sentence_pct": 80.0, "n": 1000}}
    >>> c = compare_sources([source_from_stats(stats_a, "A"), source_from_stats(stats_b, "B")], n_resamples=200)
    >>> c.notes[-1]
    '0 of 1 compared differences are significant; at this level about 0.1 would be by chance alone if nothing differed.'
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from mrclens.artifacts.comparison import Comparison, ComparisonRow, Distribution, DistributionSeries
from mrclens.compare.inputs import check_one_task, default_name, input_task, load_input
from mrclens.compare.overlap import OVERLAP_NOTE, find_overlaps
from mrclens.compare.rows import ablation_rows, comparability, model_free_rows, reader_row
from mrclens.compare.hooks import hooks_for
from mrclens.compare.sources import Source, known_task
from mrclens.errors import CompareMsg, MRCLensError
from mrclens.metrics.bootstrap import CONFIDENCE, N_RESAMPLES, stable_rng

log = logging.getLogger(__name__)


def compare_sources(sources: Sequence[Source], *, seed: int = 0, n_resamples: int = N_RESAMPLES,
                    confidence: float = CONFIDENCE) -> Comparison:
    """The comparison of loaded inputs (rules in the package docstring): every later input against the first.

    Raises:
        ValueError: fewer than two sources, or two with one name.
        MRCLensError: span and multiple-choice sources mixed (:data:`~mrclens.compare.inputs.MIXED_TASKS`).
    """
    if len(sources) < 2:
        raise ValueError("compare needs at least two inputs")
    names = [s.info.name for s in sources]
    if len(set(names)) != len(names):
        raise ValueError(f"two inputs have one name: {names}")
    check_one_task([s.task for s in sources], [f"{s.info.name} ({s.info.path})" if s.info.path else s.info.name
                                                for s in sources])
    metric = known_task(sources[0].task).metric

    def rng(key: str, i: int) -> np.random.Generator:
        return stable_rng(seed, f"{key}#{i}")

    audits = any(s.results is not None for s in sources)
    rows: list[ComparisonRow] = []
    if audits:  # reader strength
        rows.append(reader_row(sources, names, rng, n_resamples, confidence, metric))
    rows.extend(model_free_rows(sources, names, rng, n_resamples, confidence))
    notes_by_input = comparability(sources, rows)
    if audits:
        rows.extend(ablation_rows(sources, names, notes_by_input, seed, n_resamples, confidence, metric=metric))
    comparison = Comparison(inputs=[s.info for s in sources], rows=rows, distributions=_distributions(sources),
                            seed=seed, n_resamples=n_resamples, confidence=confidence)
    comparison.differs = _differs(sources, notes_by_input)
    comparison.overlaps = find_overlaps(sources)
    comparison.notes = _method_notes(comparison)
    if any(o.relation != "none" for o in comparison.overlaps):
        comparison.notes.insert(1, OVERLAP_NOTE)
    return comparison


def _distributions(sources: Sequence[Source]) -> list[Distribution]:
    out = []
    for path, label, unit in hooks_for(sources[0].task).distributions:
        series = []
        for s in sources:
            node: Any = s.stats
            for part in path.split("."):
                node = node.get(part) if isinstance(node, Mapping) else None
            hist = node.get("histogram") if isinstance(node, Mapping) else None
            if hist and hist.get("counts"):
                series.append(DistributionSeries(s.info.name, [float(e) for e in hist["edges"]], [int(c) for c in hist["counts"]]))
        if series:
            out.append(Distribution(path, label, unit, series))
    return out


def _differs(sources: Sequence[Source], notes_by_input: Mapping[int, Mapping[str, str]]) -> list[str]:
    """Plain sentences: what differs between each later input and the first, beyond the figures."""
    first = sources[0]
    out = []
    for i, s in enumerate(sources[1:], start=1):
        head = f"{s.info.name} vs {first.info.name}: "
        if s.info.kind != first.info.kind:
            out.append(head + f"a {s.info.kind} beside a {first.info.kind}.")
        out.extend(head + sentence for sentence in hooks_for(s.task).differs(first, s))
        if s.info.figures_from != first.info.figures_from:
            out.append(head + f"model-free figures from {s.info.figures_from} vs {first.info.figures_from}: "
                              f"differences of means use the normal approximation.")
        if s.results is not None and first.results is not None:
            for reason in notes_by_input.get(i, {}).values():
                out.append(head + reason + ".")
            only_first = sorted(set(first.info.ablations) - set(s.info.ablations))
            only_later = sorted(set(s.info.ablations) - set(first.info.ablations))
            if only_first or only_later:
                parts = []
                if only_first:
                    parts.append(f"only {first.info.name} evaluated {', '.join(only_first)}")
                if only_later:
                    parts.append(f"only {s.info.name} evaluated {', '.join(only_later)}")
                out.append(head + "; ".join(parts) + " (not compared).")
        elif (s.results is None) != (first.results is None):
            out.append(head + "only one of the two is an audit: its drops are shown, not compared.")
    return out


def _method_notes(c: Comparison) -> list[str]:
    methods = sorted({d.ci_method for r in c.rows for d in r.differences if d.ci_method})
    level = f"{100 * c.confidence:g}%"
    notes = [f"Differences are each later input minus {c.inputs[0].name}, with {level} intervals; a difference is "
             f"significant when its interval excludes 0.",
             f"Bootstrap: each input's questions resampled on their own, {c.n_resamples:,} times (seed {c.seed}); "
             f"shares resampled from their count and n (binomial, the same as resampling yes/no values)."]
    task_note = hooks_for(c.inputs[0].task).note if c.inputs else None
    if task_note:
        notes.append(task_note)
    if "normal" in methods:
        notes.append("Normal approximation (ci_method \"normal\"): used where an input has summary figures only (a mean "
                     "from a stats JSON or an audit's results) or a multi-draw audit's drops (its results' intervals "
                     "include the between-draw variance).")
    if "standardised" in methods:
        notes.append("Chance-corrected ranks (ci_method \"standardised\"): the first input's rank is re-weighted to "
                     "each later input's sentence counts (direct standardisation), so the number of sentences does not "
                     "drive the difference; normal approximation.")
    n_rows = sum(1 for r in c.rows for d in r.differences if d.compared)
    n_sig = sum(1 for r in c.rows for d in r.differences if d.significant)
    if n_rows:
        notes.append(f"{n_sig} of {n_rows} compared differences are significant; at this level about "
                     f"{(1 - c.confidence) * n_rows:.1f} would be by chance alone if nothing differed.")
    return notes


def compare(inputs: Sequence[str | os.PathLike], names: Sequence[str] | None = None, *, seed: int = 0,
            n_resamples: int = N_RESAMPLES, confidence: float = CONFIDENCE, cache_dir: str | os.PathLike | None = None,
            progress: bool = False, on_invalid: str = "refuse", n_process: int | None = None) -> Comparison:
    """Compare two or more datasets, ``stats`` JSON files, audits or evaluations (``mrclens compare``),
    all of span extraction or all multiple-choice (issue 20).

    Args:
        inputs: paths (kinds in the package docstring); the first is the one the others are compared with.
        names: one name per input for the table (default: the file or directory names).
        seed, n_resamples, confidence: the bootstrap (package docstring).
        cache_dir: the parse and statistics cache (:func:`mrclens.stats.compute_stats`).
        progress: progress bars while statistics are computed.
        on_invalid: what to do with invalid questions of a dataset file (:func:`mrclens.formats.load_dataset`).
        n_process: worker processes for the statistics (``None``: :func:`mrclens.stats.core.default_jobs`).

    Returns:
        the :class:`~mrclens.artifacts.comparison.Comparison` (the same inputs and seed give the same one).

    Raises:
        MRCLensError: fewer than two inputs, names that do not match them or repeat, ``confidence``
            / ``n_resamples`` out of range, or span and multiple-choice inputs mixed (raised before
            any input is read); ArtifactError, DataError, FileNotFoundError: an unreadable input
            (:func:`load_input`).
    """
    if len(inputs) < 2:
        raise MRCLensError(CompareMsg.TOO_FEW.format(n=len(inputs)))
    if names is not None and len(names) != len(inputs):
        raise MRCLensError(CompareMsg.NAMES_COUNT.format(n_names=len(names), n_inputs=len(inputs)))
    if not 0.0 < confidence < 1.0:
        raise MRCLensError(CompareMsg.CONFIDENCE.format(value=confidence))
    if n_resamples < 1:
        raise MRCLensError(CompareMsg.RESAMPLES.format(value=n_resamples))
    chosen = list(names) if names is not None else [default_name(Path(p)) for p in inputs]
    if len(set(chosen)) != len(chosen):
        if names is not None:
            raise MRCLensError(CompareMsg.NAMES_REPEAT.format(names=", ".join(chosen)))
        chosen = [f"{n} ({i + 1})" if chosen.count(n) > 1 else n for i, n in enumerate(chosen)]
    for path in inputs:
        if not Path(path).exists():
            raise FileNotFoundError(2, "No such file or directory", str(path))
    tasks = [input_task(p) for p in inputs]  # before anything is read: a mix fails at once
    check_one_task(tasks, [str(p) for p in inputs])
    sources = []
    for path, name, task in zip(inputs, chosen, tasks):
        log.info(f"reading {path} as {name}")
        sources.append(load_input(path, name, cache_dir=cache_dir, progress=progress, on_invalid=on_invalid,
                                  n_process=n_process, task=task))
    return compare_sources(sources, seed=seed, n_resamples=n_resamples, confidence=confidence)
