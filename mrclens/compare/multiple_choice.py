"""Multiple-choice inputs of ``mrclens compare`` (issue 20): their rows and how they are read
(:data:`MC_COMPARISON`, the multiple-choice task's entry in :data:`mrclens.compare.hooks.COMPARISONS`).

Inputs: a multiple-choice file (CODAH TSV or JSON Lines), a CODAH folder with ``cv_split/fold_k/``
(every question of the folds' test parts once, :func:`mrclens.multiple_choice.stats.folds_union`),
a multiple-choice ``mrclens stats --out`` JSON file (``"schema": "mrclens-mc-stats"``), or a
multiple-choice audit or evaluation directory (its model-free figures from
``perturbed/original.jsonl`` when it is there, else from the audit's
``sections.multiple_choice.stats``). Rows (:data:`MC_ROWS`, :data:`MC_SHARE_SECTIONS`): the
accuracy of each heuristic baseline (:data:`mrclens.multiple_choice.stats.MC_HEURISTICS`; a higher
accuracy is more of the cue), bootstrapped from each question's 0/1 correctness
(:func:`mc_question_values`; from a stats JSON the accuracy and its n, binomially, which is the
same resampling); the mean correct-minus-wrong ending length in words and characters
(per-question values, or the stats JSON's own interval through the normal approximation); the
share of each gold label position and of each question category.

Examples:
    >>> [row[1] for row in MC_ROWS[:2]]
    ['heuristics.longest_ending.accuracy', 'heuristics.shortest_ending.accuracy']
    >>> f = mc_figure({"heuristics": {"chance": {"accuracy": 25.0, "n": 8}}}, "heuristics.chance.accuracy",
    ...               "accuracy", "heuristics.chance.n")
    >>> f.value, f.n, f.std
    (25.0, 8, None)
"""

from __future__ import annotations

import logging
import math
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from mrclens.artifacts.comparison import ComparedInput
from mrclens.artifacts.layout import RESULTS_JSON, set_file_name
from mrclens.artifacts.reference import ReferenceFigure
from mrclens.artifacts.results import Results
from mrclens.compare.sources import (
    TOLERANCE,
    RowSpec,
    Source,
    TaskComparison,
    is_number,
    node,
    read_stats_json,
    source_from_stats,
)
from mrclens.errors import ArtifactError
from mrclens.formats.multiple_choice import load_mc_dataset, read_folds, sniff_mc
from mrclens.io_utils import sha256_file
from mrclens.metrics.estimate import Estimate
from mrclens.multiple_choice.stats import (
    MC_HEURISTICS,
    MC_STATS_FORMAT_VERSION,
    MC_STATS_SCHEMA,
    folds_union,
    mc_heuristic_predictions,
    mc_stats,
)
from mrclens.perturbations.controls import word_count
from mrclens.tasks import MULTIPLE_CHOICE

log = logging.getLogger(__name__)

_MC_HEURISTIC_LABELS = {
    "longest_ending": ("longest-ending heuristic: accuracy (%)", None),
    "shortest_ending": ("shortest-ending heuristic: accuracy (%)", None),
    "prompt_overlap": ("most-prompt-overlap heuristic: accuracy (%)", "Keyword"),
    "least_prompt_overlap": ("least-prompt-overlap heuristic: accuracy (%)", "Keyword"),
}
#: Rows of multiple-choice inputs, shaped like :data:`mrclens.compare.span.MODEL_FREE_ROWS`; kind
#: ``"accuracy"`` is a share of questions answered right by a heuristic (per-question 0/1 values when known).
MC_ROWS: tuple[RowSpec, ...] = tuple(
    ("heuristics", f"heuristics.{name}.accuracy", "accuracy", f"heuristics.{name}.n", label, "higher", category)
    for name, (label, category) in _MC_HEURISTIC_LABELS.items()) + (
    ("ending lengths", "ending_lengths.words.difference", "mean", "ending_lengths.n",
     "correct minus wrong ending length (words)", None, None),
    ("ending lengths", "ending_lengths.characters.difference", "mean", "ending_lengths.n",
     "correct minus wrong ending length (characters)", None, None),
)
#: Multiple-choice share sections: ``(section, stats section, label template, n path)``.
MC_SHARE_SECTIONS = (
    ("labels", "labels", "correct ending at index {} (%)", "counts.questions"),
    ("categories", "categories", "questions of category {} (%)", "counts.questions"),
)

#: The method note of a multiple-choice comparison.
MC_NOTE = ("Multiple-choice inputs: a heuristic's accuracy and the ending-length differences are resampled "
           "from each question's value (a dataset, or an audit with its evaluation data); from summary "
           "figures, an accuracy from its count and n (binomial, the same resampling) and a length "
           "difference by the normal approximation from its own interval. For audits every F1 field "
           "is an accuracy.")


def mc_figure(stats: Mapping[str, Any], path: str, kind: str, n_path: str | None) -> ReferenceFigure | None:
    """One figure of a multiple-choice statistics dict (:func:`mrclens.multiple_choice.stats.mc_stats`)
    as ``(value, n, std)``: a share or accuracy with its n; a mean (the ending-length difference) with
    the SD its own bootstrap interval implies (``None`` when it has none); ``None`` when absent."""
    value, n = node(stats, path), node(stats, n_path)
    if not is_number(value) or not isinstance(n, int) or isinstance(n, bool) or n < 1:
        return None
    if kind != "mean":
        return ReferenceFigure(float(value), n)
    parent, _, leaf = path.rpartition(".")
    low, high = node(stats, f"{parent}.{leaf}_ci_low"), node(stats, f"{parent}.{leaf}_ci_high")
    level = node(stats, "config.confidence")
    std = None
    if is_number(low) and is_number(high) and is_number(level) and 0 < level < 1:
        std = Estimate.from_interval(low, high, level).se * math.sqrt(n)
    return ReferenceFigure(float(value), n, std)


def mc_stats_json(path: Path) -> dict | None:
    """The statistics in ``path`` when it is a multiple-choice ``mrclens stats`` JSON file
    (``"schema": "mrclens-mc-stats"``), else ``None``.

    Raises:
        ArtifactError: the file's format version is newer than this MRCLens reads, or an object holds a
            key twice (:func:`mrclens.compare.sources.read_stats_json`).
    """
    if not path.is_file() or path.suffix.lower() != ".json" or path.stat().st_size > 50_000_000:
        return None
    with open(path, "rb") as fh:  # the schema is the first key `mrclens stats --out` writes
        if MC_STATS_SCHEMA.encode("utf-8") not in fh.read(4096):
            return None
    obj = read_stats_json(path)
    if not isinstance(obj, dict) or obj.get("schema") != MC_STATS_SCHEMA or "heuristics" not in obj:
        return None
    version = obj.get("format_version")
    if isinstance(version, int) and version > MC_STATS_FORMAT_VERSION:
        raise ArtifactError(f"{path}: multiple-choice statistics of format version {version}; this MRCLens reads "
                            f"version {MC_STATS_FORMAT_VERSION} and older (upgrade MRCLens)")
    return obj


def claims_mc(p: Path) -> bool:
    """Whether ``p`` is multiple-choice data: a multiple-choice stats JSON file (also one of a newer
    format: reading it says so), a multiple-choice file or a CODAH folder (:func:`sniff_mc`)."""
    try:
        if mc_stats_json(p) is not None:
            return True
    except ArtifactError:
        return True
    return sniff_mc(p) is not None


def mc_question_values(dataset) -> dict[str, np.ndarray]:
    """The per-question values behind the multiple-choice rows (:data:`MC_ROWS`), in question order:
    per heuristic ``100 ×`` whether its prediction is right
    (:func:`mrclens.multiple_choice.stats.mc_heuristic_predictions`), and the correct ending's length
    minus the wrong endings' mean length, in words (``\\w+`` runs) and characters (of the stripped
    ending), as :func:`mrclens.multiple_choice.stats.mc_stats` counts them.

    >>> from mrclens.formats.multiple_choice import MCDataset, MCQuestion
    >>> ds = MCDataset([MCQuestion("a", "The dog barked.", ("It slept.", "The dog barked at the cat."), 1)])
    >>> v = mc_question_values(ds)
    >>> v["heuristics.longest_ending.accuracy"].tolist(), v["ending_lengths.words.difference"].tolist()
    ([100.0], [4.0])
    """
    qs = dataset.questions
    preds = mc_heuristic_predictions(dataset)
    out = {f"heuristics.{name}.accuracy": np.array([100.0 * (preds[name][q.id] == q.label) for q in qs], dtype=np.float64)
           for name in MC_HEURISTICS}
    for unit, measure in (("words", word_count), ("characters", lambda e: len(e.strip()))):
        diffs = []
        for q in qs:
            lengths = np.array([measure(e) for e in q.endings], dtype=np.float64)
            diffs.append(lengths[q.label] - np.delete(lengths, q.label).mean())
        out[f"ending_lengths.{unit}.difference"] = np.array(diffs, dtype=np.float64)
    return out


def mc_dataset_source(dataset, name: str, path: str, kind: str, *, sha256: str | None) -> Source:
    """A multiple-choice dataset's source: :func:`mrclens.multiple_choice.stats.mc_stats` and the
    per-question values (:func:`mc_question_values`); a value array that does not reproduce its
    figure (to 1e-3) is dropped, so that figure falls back to the summary figures."""
    stats = mc_stats(dataset)
    values = mc_question_values(dataset)
    for path_, arr in list(values.items()):
        fig = node(stats, path_)
        if not is_number(fig) or not arr.size or abs(float(arr.mean()) - fig) > TOLERANCE:
            log.warning(f"{name}: the per-question values of {path_} give {arr.mean() if arr.size else None}, the "
                        f"statistics {fig}; using the summary figure")
            del values[path_]
    return source_from_stats(stats, name, path, values=values, kind=kind, sha256=sha256, task=MULTIPLE_CHOICE.name)


def load_mc_file(p: Path, name: str, path: str, **_: Any) -> Source:
    """A multiple-choice stats JSON file (summary figures) or data file (its notes logged as
    warnings); ``path`` is the input as given, recorded in the comparison."""
    mc = mc_stats_json(p)
    if mc is not None:
        return source_from_stats(mc, name, path, kind="stats", sha256=sha256_file(p), task=MULTIPLE_CHOICE.name)
    dataset = load_mc_dataset(p)
    for note in dataset.notes:
        log.warning(str(note))
    return mc_dataset_source(dataset, name, path, "dataset", sha256=sha256_file(p))


def load_mc_folder(p: Path, name: str, path: str) -> Source:
    """A CODAH folder: every question of its folds' test parts once."""
    return mc_dataset_source(folds_union(read_folds(p), str(p)), name, path, "dataset", sha256=None)


def mc_audit_figures(results: Results, perturbed: Path, directory: Path, name: str, kind: str, **_: Any) -> Source:
    """A multiple-choice audit's model-free figures: from its evaluation data (``original.jsonl``)
    when it is there, else the statistics its ``results.json`` holds (``sections.multiple_choice.stats``)."""
    sha = sha256_file(directory / RESULTS_JSON)
    original = perturbed / set_file_name("original", "jsonl")
    if original.is_file():
        return mc_dataset_source(load_mc_dataset(original), name, str(directory), kind, sha256=sha)
    stats = (results.sections.get("multiple_choice") or {}).get("stats")
    if isinstance(stats, Mapping) and stats.get("heuristics"):
        return source_from_stats(stats, name, str(directory), kind=kind, sha256=sha, task=MULTIPLE_CHOICE.name)
    return Source(ComparedInput(name=name, path=str(directory), kind=kind, sha256=sha, figures_from="summary figures",
                                task=MULTIPLE_CHOICE.name))


def mc_share_label_ok(stats_section: str, label: str) -> bool:
    """Whether a share row of ``labels`` (an ending index) or ``categories`` (any name) can have ``label``."""
    return label.isdigit() if stats_section == "labels" else bool(label)


def mc_differs(first: Source, later: Source) -> list[str]:
    """What else differs between two multiple-choice inputs: their chance accuracy (numbers of endings)."""
    chances = [node(x.stats, "heuristics.chance.accuracy") for x in (first, later)]
    if all(is_number(c) for c in chances) and abs(chances[0] - chances[1]) > TOLERANCE:
        return [f"chance accuracy differs ({chances[1]:.1f}% vs {chances[0]:.1f}%: other numbers of "
                f"endings), so the heuristics' accuracies differ by that much with no cue at all."]
    return []


#: The multiple-choice task's hooks (``"compare"`` in :mod:`mrclens.tasks`).
MC_COMPARISON = TaskComparison(
    word="multiple-choice",
    rows=MC_ROWS,
    share_sections=MC_SHARE_SECTIONS,
    figure=mc_figure,
    claims=claims_mc,
    load_file=load_mc_file,
    audit_figures=mc_audit_figures,
    share_label_ok=mc_share_label_ok,
    load_folder=load_mc_folder,
    differs=mc_differs,
    note=MC_NOTE,
)
