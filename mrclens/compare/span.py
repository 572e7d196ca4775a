"""Span-extraction inputs of ``mrclens compare``: their rows and how they are read
(:data:`SPAN_COMPARISON`, the span task's entry in :data:`mrclens.compare.hooks.COMPARISONS`).

Rows (:data:`MODEL_FREE_ROWS`, :data:`SHARE_SECTIONS`): question and answer length (whitespace
words) and the model-free figures of each bias category (:data:`mrclens.scoring.model_free.FIGURES`);
the share of each question type (first word, Beat the AI's buckets) and of each answer type. Inputs:
a dataset file in any format MRCLens reads (statistics computed on the fly with the per-question
values behind every mean, :func:`mrclens.stats.compute_stats_with_values`, cached), a ``mrclens
stats --out`` JSON file (summary figures), and an audit's model-free figures: from its evaluation
data (``perturbed/original.json``) when it is there, else its ``results.json``'s ``model_free``.

Examples:
    >>> [row[1] for row in MODEL_FREE_ROWS[:2]]
    ['lengths.question_words', 'lengths.answer_words']
    >>> share_label_ok("question_types", "what"), share_label_ok("answer_types", "nonsense")
    (True, False)
"""

from __future__ import annotations

import json
import logging
import math
from pathlib import Path

from mrclens.artifacts.comparison import ComparedInput
from mrclens.artifacts.layout import RESULTS_JSON, set_file_name
from mrclens.artifacts.reference import ReferenceFigure
from mrclens.artifacts.results import Results
from mrclens.compare.overlap import question_keys
from mrclens.compare.sources import RowSpec, Source, TaskComparison, read_stats_json, source_from_stats
from mrclens.io_utils import sha256_file
from mrclens.metrics.estimate import Estimate
from mrclens.scoring.model_free import FIGURES, figure_from_stats

log = logging.getLogger(__name__)

#: Rows of model-free figures: ``(section, stats path, kind, path of its n for a share, label, bias_when, category)``.
MODEL_FREE_ROWS: tuple[RowSpec, ...] = (
    ("lengths", "lengths.question_words", "mean", None, "question length (words)", None, None),
    ("lengths", "lengths.answer_words", "mean", None, "answer length (words)", None, None),
) + tuple(("model-free", f.path, f.kind, f.n_path, f.label, f.bias_when, f.category) for f in FIGURES)

#: Share sections compared label by label: ``(section, stats section, label template)``.
SHARE_SECTIONS = (
    ("question types", "question_types", "questions whose first word is “{}” (%)"),
    ("answer types", "answer_types", "answers of type {} (%)"),
)

#: The per-question distributions the page overlays: ``(stats path, label, unit)``.
DISTRIBUTIONS = (
    ("lengths.question_words", "question length", "words"),
    ("lengths.answer_words", "answer length", "words"),
    ("overlap.longest_shared_ngram", "longest n-gram shared by question and passage", "words"),
)


def share_label_ok(stats_section: str, label: str) -> bool:
    """Whether a share row of ``stats_section`` (``question_types``, ``answer_types``) can have ``label``."""
    from mrclens.stats.answer_types import ANSWER_TYPES
    from mrclens.stats.text import QUESTION_TYPES

    return label in {"question_types": QUESTION_TYPES, "answer_types": ANSWER_TYPES}[stats_section]


def stats_json(path: Path) -> dict | None:
    """The statistics in ``path`` when it is a ``mrclens stats`` JSON file, else ``None``.

    Raises:
        ArtifactError: a ``mrclens stats`` JSON file holding a key twice (:func:`read_stats_json`).
    """
    from mrclens.stats import TITLE

    if path.suffix.lower() != ".json" or path.stat().st_size > 50_000_000:
        return None
    with open(path, "rb") as fh:  # `mrclens stats --out` writes the title first: skip a SQuAD file without parsing it
        if json.dumps(TITLE).encode("utf-8") not in fh.read(4096):
            return None
    obj = read_stats_json(path)
    return obj if isinstance(obj, dict) and obj.get("title") == TITLE and "counts" in obj else None


def dataset_source(dataset, name: str, path: str, kind: str, *, cache_dir, progress: bool, n_process: int | None,
                   sha256: str | None) -> Source:
    """A span dataset's source: its statistics and the per-question values behind their means."""
    from mrclens.stats import compute_stats_with_values

    stats, values = compute_stats_with_values(dataset, cache_dir=cache_dir, progress=progress, n_process=n_process)
    src = source_from_stats(stats, name, path, values=values, kind=kind, sha256=sha256)
    src.question_ids, src.contexts = question_keys(dataset)
    return src


def load_span_file(p: Path, name: str, path: str, *, cache_dir, progress: bool, on_invalid: str,
                   n_process: int | None) -> Source:
    """A ``mrclens stats`` JSON file (summary figures) or a dataset file (:func:`mrclens.formats.load_dataset`;
    its notes logged as warnings); ``path`` is the input as given, recorded in the comparison."""
    stats = stats_json(p)
    if stats is not None:
        return source_from_stats(stats, name, path, kind="stats", sha256=sha256_file(p))
    from mrclens.formats import load_dataset

    dataset = load_dataset(p, on_invalid=on_invalid)
    for note in dataset.notes:
        log.warning(str(note))
    return dataset_source(dataset, name, path, "dataset", cache_dir=cache_dir, progress=progress,
                          n_process=n_process, sha256=sha256_file(p))


def span_audit_figures(results: Results, perturbed: Path, directory: Path, name: str, kind: str, *, cache_dir,
                       progress: bool, n_process: int | None) -> Source:
    """A span audit's model-free figures: statistics of its evaluation data (``original.json``) when
    it is there, else its ``results.json``'s ``model_free`` figures (summary figures)."""
    original = perturbed / set_file_name("original")
    if original.is_file():
        from mrclens.formats import load_squad_file

        return dataset_source(load_squad_file(original), name, str(directory), kind, cache_dir=cache_dir, progress=progress,
                              n_process=n_process, sha256=sha256_file(directory / RESULTS_JSON))
    src = Source(ComparedInput(name=name, path=str(directory), kind=kind, sha256=sha256_file(directory / RESULTS_JSON),
                               figures_from="summary figures"))
    src.figures = figures_from_results(results)
    src.info.questions = max((f.n for f in results.model_free), default=None)
    return src


def figures_from_results(results: Results) -> dict[str, ReferenceFigure]:
    """An audit's ``model_free`` figures as summary figures (a mean's SD from its interval)."""
    kinds = {spec.path: spec.kind for spec in FIGURES}
    out = {}
    for f in results.model_free:
        std = None
        if kinds.get(f.path) == "mean" and f.n:
            std = Estimate.from_interval(f.ci_low, f.ci_high, results.bootstrap.confidence).se * math.sqrt(f.n)
        out[f.path] = ReferenceFigure(f.value, f.n, std)
    return out


#: The span task's hooks (``"compare"`` in :mod:`mrclens.tasks`). As the default task it claims
#: nothing itself: a file no other task claims is span data.
SPAN_COMPARISON = TaskComparison(
    word="span extraction",
    rows=MODEL_FREE_ROWS,
    share_sections=tuple((sec, stats_sec, tpl, f"{stats_sec}.n") for sec, stats_sec, tpl in SHARE_SECTIONS),
    figure=figure_from_stats,
    claims=lambda p: False,
    load_file=load_span_file,
    audit_figures=span_audit_figures,
    share_label_ok=share_label_ok,
    distributions=DISTRIBUTIONS,
)
