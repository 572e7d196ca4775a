"""Statistics of data files: load a dataset (and its dev file), then compute its figures.

What ``mrclens stats`` and ``mrclens check`` do with span data, as one library call;
:func:`span_file_stats` is the span task's entry in :data:`mrclens.checks.FILE_STATS` (role
``"file_stats"`` of :mod:`mrclens.tasks`; multiple choice has :func:`mrclens.multiple_choice.stats.mc_file_stats`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from mrclens.squad import Dataset


@dataclass
class FileStats:
    """The statistics of one data file (and its dev file), with what they were computed from.

    Attributes:
        figures: the JSON-serialisable result (``mrclens stats --json``); its layout is the task's
            (span: :mod:`mrclens.stats.schema`).
        values: the per-question values behind the figures, for bootstrap comparisons
            (:mod:`mrclens.compare`), or ``None`` where the task keeps none.
        datasets: the loaded datasets (data first, then dev), whose ``notes`` list the questions
            skipped or repaired under ``--on-invalid``; empty where the task reads files itself.
        format: renders ``figures`` as the plain-text report of ``mrclens stats``.
    """

    figures: dict
    values: Any
    datasets: list[Dataset] = field(default_factory=list)
    format: Callable[[dict], str] | None = None

    @property
    def notes(self) -> list[str]:
        """Every dataset's notes, as text (data first, then dev)."""
        return [str(n) for d in self.datasets for n in d.notes]

    def __repr__(self) -> str:
        """One line for a notebook (never the figures): ``FileStats(source 'dev.json', 10,570 questions; 15 sections)``."""
        questions = (self.figures.get("counts") or {}).get("questions")
        count = f", {questions:,} questions" if isinstance(questions, int) else ""
        sections = sum(1 for v in self.figures.values() if isinstance(v, dict))
        return f"{type(self).__name__}(source {self.figures.get('source')!r}{count}; {sections} sections)"

    def __str__(self) -> str:
        """The plain-text report of ``mrclens stats`` (:attr:`format`; without one, the figures as indented JSON)."""
        if self.format is not None:
            return self.format(self.figures)
        import json

        return json.dumps(self.figures, indent=1, ensure_ascii=False, default=str)


def span_file_stats(data: str | os.PathLike, dev: str | os.PathLike | None = None, *,
                    cache_dir: str | Path | None = None, progress: bool = True, on_invalid: str = "refuse",
                    first_k: int = 3, n_process: int | None = None,
                    on_loaded: Callable[[Dataset], None] | None = None, language: str | None = None,
                    sentencizer: str | None = None) -> FileStats:
    """Load ``data`` (and ``dev``) in any span format (:func:`mrclens.formats.load_dataset`) and
    compute every model-free figure (:func:`mrclens.stats.compute_stats_with_values`), and the
    plug-ins' figures of ``data`` under ``plugins`` (:mod:`mrclens.stats.plugins`; only when any is installed).

    Args:
        on_invalid: what to do with invalid questions (``"refuse"``, ``"skip"``, ``"repair"``).
        first_k: k of the first-k-tokens baseline (tokens).
        n_process: worker processes for the per-question figures (``None``: the CPUs available, at most 4).
        on_loaded: called with each dataset once it is loaded, before any figure is computed
            (the CLI prints the notes of skipped questions there).
        language: the data's language when it is not English and ``--language-ok`` was given
            (:mod:`mrclens.languages`): only the figures that read no words are computed
            (:func:`mrclens.stats.language_free.language_free_stats`; no trained spaCy pipeline), and ``values`` is ``None``.
        sentencizer: with ``language``, the spaCy code of ``data``'s language when its sentences are read with
            spaCy's rule-based sentencizer (:mod:`mrclens.stats.sentencizer`): the measured ranks are added.

    Raises:
        DataError: a file is invalid (named with the item and the problem).
        FileNotFoundError: a file does not exist.
        PipelineNotInstalled: no English spaCy pipeline is installed.
    """
    from mrclens.formats import load_dataset
    from mrclens.stats.core import compute_stats_with_values
    from mrclens.stats.plugins import SECTION, compute_figures, format_plugin_figures
    from mrclens.stats.report import format_stats

    dataset = load_dataset(data, on_invalid=on_invalid)
    dev_set = load_dataset(dev, on_invalid=on_invalid) if dev is not None else None
    datasets = [d for d in (dataset, dev_set) if d is not None]
    for d in datasets:
        if on_loaded is not None:
            on_loaded(d)
    if language is not None:
        from mrclens.stats.language_free import format_language_free, language_free_stats

        return FileStats(language_free_stats(dataset, dev_set, language=language, sentencizer=sentencizer), None,
                         datasets, format_language_free)
    figures, values = compute_stats_with_values(dataset, dev_set, cache_dir, progress, first_k=first_k,
                                                n_process=n_process)
    plugin_figures = compute_figures(dataset)
    if not plugin_figures:
        return FileStats(figures, values, datasets, format_stats)
    figures[SECTION] = plugin_figures  # only with plug-ins installed (mrclens.stats.plugins)
    return FileStats(figures, values, datasets, lambda f: format_stats(f) + "\n" + format_plugin_figures(f.get(SECTION)))
