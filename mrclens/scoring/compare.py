"""``mrclens compare``: datasets and audits side by side, with confidence intervals on the differences (issue 19).

The question a dataset builder asks is "does my new dataset (this annotation round, this filtered
version) carry less of a shortcut than SQuAD?" (Bartolo et al. 2020, "Beat the AI", Table 4 and
Figures 4–8 answer it for SQuAD against their adversarial sets by eye). :func:`compare` puts two
or more inputs side by side and gives every later input's difference to the first input with an
interval, so that one can tell a real difference from noise.

**Inputs** (:func:`load_input`; each is read once, nothing is written next to it):

* a dataset file in any format MRCLens reads (:func:`mrclens.formats.load_dataset`): its
  statistics are computed on the fly (:func:`mrclens.stats.compute_stats_with_values`, cached),
  with the per-question values behind every mean;
* a ``mrclens stats --out`` JSON file: its summary figures only (means with their SD, shares with
  their n);
* an audit directory (``mrclens audit --out``) or an evaluation directory (``mrclens evaluate
  PERTURBED_DIR --predictions-dir P --out DIR``): the drops of ``results.json`` and the
  per-question F1 of ``question-scores.json``; its model-free figures from its evaluation data
  (``perturbed/original.json``, statistics computed as for a dataset) when that file is there,
  else from ``results.json``'s ``model_free`` figures (summary figures).

**Rows** (:data:`MODEL_FREE_ROWS`, :data:`SHARE_SECTIONS`, :data:`ABLATION_FIGURES`): question
and answer length (whitespace words) and the model-free figures of each bias category
(:data:`mrclens.scoring.model_free.FIGURES`: answers in the most similar sentence, longest shared
n-gram, content words in the answer sentence, answers in the first sentence, the type-matched
heuristic); the share of each question type (first word, Beat the AI's buckets) and of each
answer type; for audits, the reader's F1 on the original set, and per ablation the F1 drop, the
relative drop (percent of the baseline F1), and for an ablation with a matched control the excess
drop over the control and the relative excess drop
(:func:`mrclens.scoring.against_reference.relative_figure`). Controls get no row of their own.

**Intervals** (level ``confidence``, default 95 %). Every input's questions are resampled on
their own (the inputs are independent samples of questions), ``n_resamples`` times (default
1,000), with the generator :func:`mrclens.metrics.bootstrap.stable_rng` ``(seed, "<row key>#<input
position>")``, so the same inputs and seed give the same numbers. The difference's interval is
the percentile interval of ``resampled later − resampled first`` (``ci_method`` ``"bootstrap"``)
when both inputs can be resampled:

* a **share** (percent over ``n`` questions) can always be: resampling ``n`` yes/no values with
  replacement draws the count from Binomial(``n``, share), so the bootstrap needs only the share
  and ``n`` — exact for a ``stats`` JSON and an audit's summary figures too;
* a **mean** (lengths, longest shared n-gram, content-word share) only from its per-question
  values (a dataset, or an audit whose evaluation data is there);
* an audit's **F1 and drops** from ``question-scores.json``: each ablation's questions paired
  with its baseline set as scoring pairs them (:mod:`mrclens.scoring.drops`; the excess drop's
  pairs with its control as :func:`mrclens.scoring.drops.excess_drop` does, using the perturbation
  manifest), resampled together within one input. The point estimate must reproduce
  ``results.json``'s figure (to 1e-3), else the figure falls back to the normal approximation.
  Audits with several perturbation draws or readers: ``question-scores.json`` holds the first
  draw's scores only, so their figures use ``results.json``'s two-stage intervals, which include
  the between-draw (and between-reader) variance, through the normal approximation below.

Otherwise (a mean from summary figures; a drop of a multi-draw audit) the interval is the normal
approximation ``difference ± z sqrt(se_first² + se_later²)`` (``ci_method`` ``"normal"``), each
side's standard error being ``std / sqrt(n)`` for a mean (:func:`mrclens.scoring.model_free.standard_error`)
or the half-width of its interval ÷ z. A difference is **significant** when its interval
excludes 0; ``direction`` then says whether the later input has *more* or *less* of the shortcut
the row measures (``bias_when``: a higher share in the most similar sentence, a larger drop for a
``large_drop`` ablation, a smaller one for a ``small_drop`` ablation …).

**What the intervals leave out.** Questions are resampled one by one, as the issue asks, but
questions on one passage (and passages of one article) are alike: when two inputs hold different
articles (two title-level splits of one dataset, say), the article-to-article variation is larger
than a question-level interval shows, so a "significant" difference of a figure that depends on
the topic (answer types, question types) may be a difference of articles. Many rows make a few
significant by chance, too (the notes give the expected number).

**Multiple-choice inputs** (issue 20; :mod:`mrclens.multiple_choice`): a multiple-choice file
(CODAH TSV or JSON Lines) or a CODAH folder with ``cv_split/fold_k/`` (every question of the folds'
test parts once, :func:`mrclens.multiple_choice.stats.folds_union`), a multiple-choice ``mrclens
stats --out`` JSON file (``"schema": "mrclens-mc-stats"``), or a multiple-choice audit or
evaluation directory (``results.json`` ``"task": "multiple_choice"``; its model-free figures from
``perturbed/original.jsonl`` when it is there, else from the audit's
``sections.multiple_choice.stats``). Multiple-choice inputs are compared only with multiple-choice
inputs: a mix raises :class:`~mrclens.errors.MRCLensError` naming each input's task. Their rows
(:data:`MC_ROWS`, :data:`MC_SHARE_SECTIONS`): the accuracy of each heuristic baseline
(:data:`mrclens.multiple_choice.stats.MC_HEURISTICS`: longest / shortest ending, most / least
prompt overlap; a higher accuracy is more of the cue), bootstrapped from each question's 0/1
correctness (:func:`mrclens.multiple_choice.stats.mc_heuristic_predictions`; from a stats JSON
the accuracy and its n, binomially, which is the same resampling); the mean correct-minus-wrong
ending length in words and characters (per-question values, or the stats JSON's own interval
through the normal approximation); the share of each gold label position and of each question
category. For audits the rows are the span audit's (every ``f1`` is an accuracy there; the labels
say "accuracy"). Input kinds are the same (``dataset``, ``stats``, ``audit``, ``evaluation``) and
each :class:`~mrclens.artifacts.comparison.ComparedInput` records ``task``.

**Compared only where comparable.** Drops depend on the reader, so an ablation row is compared
only between audits with the same reader profile (an evaluation's model name) and the same
numbers of perturbation draws and readers; when the readers' F1 on the original set differs
significantly (one reader is stronger), the absolute figures (F1 drop, excess drop) are not
compared and the relative ones are. An ablation one input lacks or did not evaluate is not
compared. Each such difference has ``compared`` false and a ``reason``; ``differs`` lists, per
later input, what differs from the first.

Examples:
    >>> stats_a = {"similarity": {"answer_in_most_similar_sentence_pct": 80.0, "n": 1000}}
    >>> stats_b = {"similarity": {"answer_in_most_similar_sentence_pct": 70.0, "n": 1000}}
    >>> c = compare_sources([source_from_stats(stats_a, "A"), source_from_stats(stats_b, "B")], n_resamples=500)
    >>> d = c.row("similarity.answer_in_most_similar_sentence_pct").differences[0]
    >>> d.difference, d.significant, d.direction, d.ci_method
    (-10.0, True, 'less', 'bootstrap')
"""

from __future__ import annotations

import json
import logging
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from mrclens.artifacts.comparison import (
    ComparedInput,
    Comparison,
    ComparisonRow,
    Difference,
    Distribution,
    DistributionSeries,
    InputValue,
)
from mrclens.artifacts.reference import ReferenceFigure
from mrclens.artifacts.results import AblationResult, Results
from mrclens.errors import ArtifactError, CompareMsg, MRCLensError
from mrclens.metrics.bootstrap import CONFIDENCE, N_RESAMPLES, percentile_interval, resample_counts, stable_rng
from mrclens.scoring.model_free import FIGURES, figure_from_stats, standard_error

log = logging.getLogger(__name__)

#: Rows of model-free figures: ``(section, stats path, kind, path of its n for a share, label, bias_when, category)``.
MODEL_FREE_ROWS: tuple[tuple[str, str, str, str | None, str, str | None, str | None], ...] = (
    ("lengths", "lengths.question_words", "mean", None, "question length (words)", None, None),
    ("lengths", "lengths.answer_words", "mean", None, "answer length (words)", None, None),
) + tuple(("model-free", path, kind, n_path, label, bias_when, category)
          for category, path, kind, n_path, label, bias_when in FIGURES)

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

#: Ablation figures: ``(figure, label, unit, absolute)``; absolute figures depend on the reader's strength.
ABLATION_FIGURES = (
    ("f1_drop", "F1 drop", "points", True),
    ("relative_drop", "relative drop", "% of baseline F1", False),
    ("excess_drop", "excess drop over the control", "points", True),
    ("relative_excess_drop", "relative excess drop", "% of baseline F1", False),
)

#: The key of the reader-strength row (F1 on the original set; accuracy for multiple-choice audits).
READER_KEY = "reader.original_f1"

#: The two tasks (issue 20): inputs of one comparison must share one.
SPAN, MULTIPLE_CHOICE = "span", "multiple_choice"
_TASK_WORDS = {SPAN: "span extraction", MULTIPLE_CHOICE: "multiple-choice"}
#: The message when span and multiple-choice inputs are mixed.
MIXED_TASKS = ("cannot compare span-extraction inputs with multiple-choice inputs: {listing}; give inputs of one "
               "task (all span-extraction data, stats and audits, or all multiple-choice ones)")

_MC_HEURISTIC_LABELS = {
    "longest_ending": ("longest-ending heuristic: accuracy (%)", None),
    "shortest_ending": ("shortest-ending heuristic: accuracy (%)", None),
    "prompt_overlap": ("most-prompt-overlap heuristic: accuracy (%)", "Keyword"),
    "least_prompt_overlap": ("least-prompt-overlap heuristic: accuracy (%)", "Keyword"),
}
#: Rows of multiple-choice inputs, shaped like :data:`MODEL_FREE_ROWS`; kind ``"accuracy"`` is a
#: share of questions answered right by a heuristic (per-question 0/1 values when known).
MC_ROWS: tuple[tuple[str, str, str, str | None, str, str | None, str | None], ...] = tuple(
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

_TOLERANCE = 1e-3


def is_row_key(key: str) -> bool:
    """Whether :func:`compare` can produce a row with this key (``mrclens check`` validates ``compare.`` rules with it).

    >>> is_row_key("similarity.answer_in_most_similar_sentence_pct"), is_row_key("ablations.e1.relative_drop")
    (True, True)
    >>> is_row_key("question_types.shares_pct.what"), is_row_key("similarity.typo")
    (True, False)
    >>> is_row_key("heuristics.longest_ending.accuracy"), is_row_key("labels.shares_pct.3")
    (True, True)
    """
    import re

    from mrclens.stats.answer_types import ANSWER_TYPES
    from mrclens.stats.text import QUESTION_TYPES

    if key == READER_KEY or key in {row[1] for row in MODEL_FREE_ROWS + MC_ROWS}:
        return True
    labels = {"question_types": QUESTION_TYPES, "answer_types": ANSWER_TYPES}
    section, _, label = key.partition(".shares_pct.")
    if section in labels:
        return label in labels[section]
    if section == "labels":
        return label.isdigit()
    if section == "categories":
        return bool(label)
    m = re.fullmatch(r"ablations\.([A-Za-z0-9_-]+)\.([a-z0-9_]+)", key)
    return bool(m) and m.group(2) in {f for f, *_ in ABLATION_FIGURES}


@dataclass
class Estimate:
    """One input's value of one row: the value, its interval and, when it can be resampled,
    the bootstrap replicates of the value (shape ``(n_resamples,)``)."""

    value: float
    ci_low: float | None
    ci_high: float | None
    n: int | None
    samples: np.ndarray | None = None


@dataclass
class Source:
    """One loaded input (:func:`load_input`).

    Attributes:
        info: what the comparison records about it.
        stats: a :func:`mrclens.stats.compute_stats` result (computed, or read from a stats JSON).
        values: per-question values behind the means (:data:`mrclens.stats.core.VALUE_PATHS`).
        figures: summary figures when there are no ``stats`` (an audit's ``model_free``).
        results, scores, infos: an audit's results, per-question scores (``None`` when absent)
            and the ablations' :class:`~mrclens.scoring.drops.AblationInfo` from its manifest.
    """

    info: ComparedInput
    stats: Mapping[str, Any] | None = None
    values: dict[str, np.ndarray] = field(default_factory=dict)
    figures: dict[str, ReferenceFigure] = field(default_factory=dict)
    results: Results | None = None
    scores: Mapping[str, Any] | None = None
    infos: dict[str, Any] = field(default_factory=dict)

    @property
    def task(self) -> str:
        return self.info.task

    def figure(self, path: str, kind: str, n_path: str | None) -> ReferenceFigure | None:
        if self.stats is not None:
            if self.task == MULTIPLE_CHOICE:
                return _mc_figure(self.stats, path, kind, n_path)
            return figure_from_stats(self.stats, path, kind, n_path)
        return self.figures.get(path)


def _node(obj: Any, path: str | None) -> Any:
    for part in (path or "").split("."):
        obj = obj.get(part) if isinstance(obj, Mapping) else None
    return obj


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _mc_figure(stats: Mapping[str, Any], path: str, kind: str, n_path: str | None) -> ReferenceFigure | None:
    """One figure of a multiple-choice statistics dict (:func:`mrclens.multiple_choice.stats.mc_stats`)
    as ``(value, n, std)``: a share or accuracy with its n; a mean (the ending-length difference) with
    the SD its own bootstrap interval implies (``None`` when it has none); ``None`` when absent."""
    value, n = _node(stats, path), _node(stats, n_path)
    if not _number(value) or not isinstance(n, int) or isinstance(n, bool) or n < 1:
        return None
    if kind != "mean":
        return ReferenceFigure(float(value), n)
    parent, _, leaf = path.rpartition(".")
    low, high = _node(stats, f"{parent}.{leaf}_ci_low"), _node(stats, f"{parent}.{leaf}_ci_high")
    level = _node(stats, "config.confidence")
    std = None
    if _number(low) and _number(high) and _number(level) and 0 < level < 1:
        std = (high - low) / (2.0 * _z(level)) * math.sqrt(n)
    return ReferenceFigure(float(value), n, std)


# ------------------------------------------------------------------------------------------ inputs
def _is_stats_json(path: Path) -> dict | None:
    """The statistics in ``path`` when it is a ``mrclens stats`` JSON file, else ``None``."""
    from mrclens.stats import TITLE

    if path.suffix.lower() != ".json" or path.stat().st_size > 50_000_000:
        return None
    with open(path, "rb") as fh:  # `mrclens stats --out` writes the title first: skip a SQuAD file without parsing it
        if json.dumps(TITLE).encode("utf-8") not in fh.read(4096):
            return None
    try:
        obj = json.loads(path.read_bytes().decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    return obj if isinstance(obj, dict) and obj.get("title") == TITLE and "counts" in obj else None


def _is_mc_stats_json(path: Path) -> dict | None:
    """The statistics in ``path`` when it is a multiple-choice ``mrclens stats`` JSON file
    (``"schema": "mrclens-mc-stats"``), else ``None``."""
    from mrclens.multiple_choice.stats import MC_STATS_FORMAT_VERSION, MC_STATS_SCHEMA

    if not path.is_file() or path.suffix.lower() != ".json" or path.stat().st_size > 50_000_000:
        return None
    with open(path, "rb") as fh:  # the schema is the first key `mrclens stats --out` writes
        if MC_STATS_SCHEMA.encode("utf-8") not in fh.read(4096):
            return None
    try:
        obj = json.loads(path.read_bytes().decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(obj, dict) or obj.get("schema") != MC_STATS_SCHEMA or "heuristics" not in obj:
        return None
    version = obj.get("format_version")
    if isinstance(version, int) and version > MC_STATS_FORMAT_VERSION:
        raise ArtifactError(f"{path}: multiple-choice statistics of format version {version}; this MRCLens reads "
                            f"version {MC_STATS_FORMAT_VERSION} and older (upgrade MRCLens)")
    return obj


def _results_task(results_json: Path) -> str:
    """The ``task`` of an audit's ``results.json`` (span when absent or unreadable: reading it later says why)."""
    try:
        obj = json.loads(results_json.read_bytes().decode("utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return SPAN
    task = obj.get("task") if isinstance(obj, dict) else None
    return MULTIPLE_CHOICE if task == MULTIPLE_CHOICE else SPAN


def input_task(path: str | os.PathLike) -> str | None:
    """The task of one input of :func:`compare`: :data:`MULTIPLE_CHOICE` for a multiple-choice file,
    CODAH folder, multiple-choice stats JSON or audit (``results.json`` ``"task"``), ``None`` for a
    folder that is neither an audit nor a CODAH folder, else :data:`SPAN`. Never raises on bad
    content (reading the input later says what is wrong)."""
    from mrclens.artifacts.layout import RESULTS_JSON
    from mrclens.multiple_choice.data import sniff_mc

    p = Path(path)
    if p.is_dir():
        if (p / RESULTS_JSON).is_file():
            return _results_task(p / RESULTS_JSON)
        return MULTIPLE_CHOICE if sniff_mc(p) == "folds" else None
    if not p.is_file():
        return SPAN
    try:
        if _is_mc_stats_json(p) is not None:
            return MULTIPLE_CHOICE
    except ArtifactError:
        return MULTIPLE_CHOICE
    return MULTIPLE_CHOICE if sniff_mc(p) is not None else SPAN


def check_one_task(tasks: Sequence[str | None], names: Sequence[str]) -> None:
    """Raise :class:`MRCLensError` (:data:`MIXED_TASKS`, every input named with its task) unless all
    ``tasks`` are one (``None``, an input of unknown task, is left out)."""
    if len({t for t in tasks if t is not None}) > 1:
        listing = ", ".join(f"{n} ({_TASK_WORDS.get(t, t)})" for n, t in zip(names, tasks) if t is not None)
        raise MRCLensError(MIXED_TASKS.format(listing=listing))


def source_from_stats(stats: Mapping[str, Any], name: str, path: str = "", *, values: Mapping[str, Sequence[float]] | None = None,
                      kind: str = "stats", sha256: str | None = None, task: str = SPAN) -> Source:
    """A :class:`Source` from a statistics dict (and the per-question values behind its means, if known);
    ``task`` :data:`MULTIPLE_CHOICE` for :func:`mrclens.multiple_choice.stats.mc_stats`'s dicts."""
    counts = stats.get("counts") or {}
    vals = {k: np.asarray(v, dtype=np.float64) for k, v in (values or {}).items()}
    info = ComparedInput(name=name, path=str(path), kind=kind, sha256=sha256, questions=counts.get("questions"),
                         figures_from="per-question values" if vals else "summary figures", task=task)
    return Source(info, stats=stats, values=vals)


def mc_question_values(dataset) -> dict[str, np.ndarray]:
    """The per-question values behind the multiple-choice rows (:data:`MC_ROWS`), in question order:
    per heuristic ``100 ×`` whether its prediction is right
    (:func:`mrclens.multiple_choice.stats.mc_heuristic_predictions`), and the correct ending's length
    minus the wrong endings' mean length, in words (``\\w+`` runs) and characters (of the stripped
    ending), as :func:`mrclens.multiple_choice.stats.mc_stats` counts them.

    >>> from mrclens.multiple_choice.data import MCDataset, MCQuestion
    >>> ds = MCDataset([MCQuestion("a", "The dog barked.", ("It slept.", "The dog barked at the cat."), 1)])
    >>> v = mc_question_values(ds)
    >>> v["heuristics.longest_ending.accuracy"].tolist(), v["ending_lengths.words.difference"].tolist()
    ([100.0], [4.0])
    """
    from mrclens.multiple_choice.stats import MC_HEURISTICS, mc_heuristic_predictions
    from mrclens.perturbations.controls import word_count

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


def _mc_dataset_source(dataset, name: str, path: str, kind: str, *, sha256: str | None) -> Source:
    """A multiple-choice dataset's source: :func:`mrclens.multiple_choice.stats.mc_stats` and the
    per-question values (:func:`mc_question_values`); a value array that does not reproduce its
    figure (to 1e-3) is dropped, so that figure falls back to the summary figures."""
    from mrclens.multiple_choice.stats import mc_stats

    stats = mc_stats(dataset)
    values = mc_question_values(dataset)
    for path_, arr in list(values.items()):
        fig = _node(stats, path_)
        if not _number(fig) or not arr.size or abs(float(arr.mean()) - fig) > _TOLERANCE:
            log.warning(f"{name}: the per-question values of {path_} give {arr.mean() if arr.size else None}, the "
                        f"statistics {fig}; using the summary figure")
            del values[path_]
    return source_from_stats(stats, name, path, values=values, kind=kind, sha256=sha256, task=MULTIPLE_CHOICE)


def _dataset_source(dataset, name: str, path: str, kind: str, *, cache_dir, progress: bool, n_process: int | None,
                    sha256: str | None) -> Source:
    from mrclens.stats import compute_stats_with_values

    stats, values = compute_stats_with_values(dataset, cache_dir=cache_dir, progress=progress, n_process=n_process)
    return source_from_stats(stats, name, path, values=values, kind=kind, sha256=sha256)


def load_input(path: str | os.PathLike, name: str | None = None, *, cache_dir: str | os.PathLike | None = None,
               progress: bool = False, on_invalid: str = "refuse", n_process: int | None = None,
               task: str | None = None) -> Source:
    """Read one input of :func:`compare` (kinds in the module docstring).

    Args:
        task: the input's task when known (:func:`input_task`; ``None``: found here).

    Raises:
        ArtifactError: a directory without a readable ``results.json`` (and no multiple-choice
            folds), or a malformed results, question-scores or manifest file (the message names it).
        DataError: a dataset file that MRCLens cannot read.
        FileNotFoundError: ``path`` does not exist.
    """
    from mrclens.artifacts.layout import RESULTS_JSON
    from mrclens.io_utils import sha256_file

    p = Path(path)
    name = name or _default_name(p)
    if not p.exists():
        raise FileNotFoundError(2, "No such file or directory", str(path))
    task = task or input_task(p)
    if p.is_dir():
        if task == MULTIPLE_CHOICE and not (p / RESULTS_JSON).is_file():
            from mrclens.multiple_choice.data import read_folds
            from mrclens.multiple_choice.stats import folds_union

            return _mc_dataset_source(folds_union(read_folds(p), str(p)), name, str(path), "dataset", sha256=None)
        return _audit_source(p, name, cache_dir=cache_dir, progress=progress, n_process=n_process)
    if task == MULTIPLE_CHOICE:
        mc = _is_mc_stats_json(p)
        if mc is not None:
            return source_from_stats(mc, name, str(path), kind="stats", sha256=sha256_file(p), task=MULTIPLE_CHOICE)
        from mrclens.multiple_choice.data import load_mc_dataset

        dataset = load_mc_dataset(p)
        for note in dataset.notes:
            log.warning(str(note))
        return _mc_dataset_source(dataset, name, str(path), "dataset", sha256=sha256_file(p))
    stats = _is_stats_json(p)
    if stats is not None:
        return source_from_stats(stats, name, str(path), kind="stats", sha256=sha256_file(p))
    from mrclens.formats import load_dataset

    dataset = load_dataset(p, on_invalid=on_invalid)
    for note in dataset.notes:
        log.warning(str(note))
    return _dataset_source(dataset, name, str(path), "dataset", cache_dir=cache_dir, progress=progress,
                           n_process=n_process, sha256=sha256_file(p))


def _default_name(p: Path) -> str:
    name = p.name
    for suffix in (".gz", ".json", ".jsonl", ".parquet", ".tsv"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return name or str(p)


def _audit_source(directory: Path, name: str, *, cache_dir, progress: bool, n_process: int | None) -> Source:
    from mrclens.artifacts.layout import QUESTION_SCORES, RESULTS_JSON, set_file_name
    from mrclens.artifacts.manifest import read_manifest
    from mrclens.artifacts.question_scores import read_question_scores
    from mrclens.artifacts.results import read_results
    from mrclens.io_utils import sha256_file
    from mrclens.scoring.drops import AblationInfo

    if not (directory / RESULTS_JSON).is_file():
        raise ArtifactError(CompareMsg.NOT_AN_AUDIT.format(path=directory, results=RESULTS_JSON))
    results = read_results(directory)
    scores = read_question_scores(directory) if (directory / QUESTION_SCORES).is_file() else None
    perturbed = Path(results.paths.get("perturbed_dir") or "perturbed")
    perturbed = perturbed if perturbed.is_absolute() else directory / perturbed
    infos: dict[str, AblationInfo] = {}
    if _has_manifest(perturbed):
        manifest = read_manifest(perturbed)
        infos = {aid: AblationInfo.from_manifest(aid, entry) for aid, entry in manifest.ablations.items()}
    kind = "audit" if results.audit is not None else "evaluation"
    original = perturbed / set_file_name("original")
    if results.task == MULTIPLE_CHOICE:
        src = _mc_audit_figures(results, perturbed, directory, name, kind)
    elif original.is_file():
        from mrclens.formats import load_dataset as load_squad

        src = _dataset_source(load_squad(original, format="squad"), name, str(directory), kind, cache_dir=cache_dir, progress=progress,
                              n_process=n_process, sha256=sha256_file(directory / RESULTS_JSON))
    else:
        src = Source(ComparedInput(name=name, path=str(directory), kind=kind, sha256=sha256_file(directory / RESULTS_JSON),
                                   figures_from="summary figures"))
        src.figures = _figures_from_results(results)
        src.info.questions = max((f.n for f in results.model_free), default=None)
    src.results, src.scores, src.infos = results, scores, infos
    options = (results.audit.options if results.audit is not None else None) or {}
    src.info.reader = options.get("profile") or results.model.name or results.model.kind
    orig = results.sets.get("original")
    src.info.reader_f1 = None if orig is None else orig.f1
    src.info.draws = len({r.draw for r in results.replicates}) or 1
    src.info.readers = len({r.reader for r in results.replicates}) or 1
    src.info.ablations = [a.id for a in results.ablations if a.evaluated]
    return src


def _mc_audit_figures(results: Results, perturbed: Path, directory: Path, name: str, kind: str) -> Source:
    """A multiple-choice audit's model-free figures: from its evaluation data (``original.jsonl``)
    when it is there, else the statistics its ``results.json`` holds (``sections.multiple_choice.stats``)."""
    from mrclens.artifacts.layout import RESULTS_JSON, set_file_name
    from mrclens.io_utils import sha256_file
    from mrclens.multiple_choice.data import load_mc_dataset

    sha = sha256_file(directory / RESULTS_JSON)
    original = perturbed / set_file_name("original", "jsonl")
    if original.is_file():
        return _mc_dataset_source(load_mc_dataset(original), name, str(directory), kind, sha256=sha)
    stats = (results.sections.get("multiple_choice") or {}).get("stats")
    if isinstance(stats, Mapping) and stats.get("heuristics"):
        return source_from_stats(stats, name, str(directory), kind=kind, sha256=sha, task=MULTIPLE_CHOICE)
    return Source(ComparedInput(name=name, path=str(directory), kind=kind, sha256=sha, figures_from="summary figures",
                                task=MULTIPLE_CHOICE))


def _has_manifest(perturbed: Path) -> bool:
    from mrclens.artifacts.layout import MANIFEST

    return (perturbed / MANIFEST).is_file()


def _figures_from_results(results: Results) -> dict[str, ReferenceFigure]:
    """An audit's ``model_free`` figures as summary figures (a mean's SD from its interval)."""
    z = _z(results.bootstrap.confidence)
    kinds = {path: kind for _, path, kind, _, _, _ in FIGURES}
    out = {}
    for f in results.model_free:
        std = None
        if kinds.get(f.path) == "mean" and f.n:
            std = (f.ci_high - f.ci_low) / (2.0 * z) * math.sqrt(f.n)
        out[f.path] = ReferenceFigure(f.value, f.n, std)
    return out


# ------------------------------------------------------------------------------------ estimates
def _z(confidence: float) -> float:
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def _boot(stat: Callable[[np.ndarray], np.ndarray], n: int, rng: np.random.Generator, n_resamples: int) -> np.ndarray:
    """``n_resamples`` values of ``stat(counts)`` over resamples of ``n`` items (counts ``(chunk, n)``)."""
    return np.concatenate([stat(counts) for counts in resample_counts(rng, n, n_resamples)])


def _from_samples(value: float, samples: np.ndarray, n: int, confidence: float) -> Estimate:
    low, high = percentile_interval(samples, confidence)
    return Estimate(value, low, high, n, samples)


def _normal(value: float, se: float, n: int | None, confidence: float) -> Estimate:
    z = _z(confidence)
    return Estimate(value, value - z * se, value + z * se, n, None)


def model_free_estimate(src: Source, path: str, kind: str, n_path: str | None, rng: np.random.Generator,
                        n_resamples: int, confidence: float) -> Estimate | None:
    """One input's estimate of a model-free row (rules in the module docstring); ``None`` when it lacks the figure."""
    fig = src.figure(path, kind, n_path)
    if fig is None or fig.value is None or not fig.n:
        return None
    values = src.values.get(path)
    if kind == "share" or (kind == "accuracy" and (values is None or values.size != fig.n)):
        p = min(max(fig.value / 100.0, 0.0), 1.0)
        samples = rng.binomial(fig.n, p, size=n_resamples) * (100.0 / fig.n)
        return _from_samples(fig.value, samples, fig.n, confidence)
    if values is not None and values.size == fig.n:
        samples = _boot(lambda c: c @ values / values.size, values.size, rng, n_resamples)
        return _from_samples(fig.value, samples, fig.n, confidence)
    if fig.std is None:
        return Estimate(fig.value, None, None, fig.n)
    return _normal(fig.value, standard_error(fig), fig.n, confidence)


def _scores(src: Source, set_name: str):
    """The per-question scores of a set as :class:`~mrclens.scoring.drops.SetScores` (``None`` when absent)."""
    from mrclens.scoring.drops import SetScores

    s = (src.scores or {}).get(set_name)
    if s is None:
        return None
    return SetScores(set_name, list(s.ids), np.asarray(s.exact_match, dtype=np.float64), np.asarray(s.f1, dtype=np.float64))


def _resamplable(src: Source) -> bool:
    """Whether an audit's figures are bootstrapped from its question scores (one draw, one reader, scores there)."""
    return src.scores is not None and (src.info.draws or 1) == 1 and (src.info.readers or 1) == 1


def reader_estimate(src: Source, rng: np.random.Generator, n_resamples: int, confidence: float) -> Estimate | None:
    """The reader's F1 on the original set (percent), bootstrapped from its question scores."""
    orig = src.results.sets.get("original") if src.results is not None else None
    if orig is None or orig.f1 is None:
        return None
    s = _scores(src, "original")
    if s is None or not s.n or abs(100.0 * float(s.f1.mean()) - orig.f1) > _TOLERANCE:
        return Estimate(orig.f1, None, None, orig.n)
    f1 = 100.0 * s.f1
    return _from_samples(orig.f1, _boot(lambda c: c @ f1 / f1.size, f1.size, rng, n_resamples), s.n, confidence)


def _results_interval(a: AblationResult, figure: str) -> tuple[float | None, float | None, float | None, int | None]:
    from mrclens.scoring.against_reference import relative_figure

    if figure == "f1_drop":
        return a.f1_drop, a.ci_low, a.ci_high, a.n
    if figure == "relative_drop":
        return a.relative_drop, a.relative_ci_low, a.relative_ci_high, a.n
    if figure == "excess_drop":
        return a.excess_drop, a.excess_ci_low, a.excess_ci_high, a.excess_n
    rel = relative_figure(a)
    if rel is None or rel.figure != "relative_excess_drop":
        return None, None, None, None
    return rel.value, rel.ci_low, rel.ci_high, rel.n


def _paired_arrays(src: Source, a: AblationResult, figure: str) -> tuple[np.ndarray, np.ndarray] | None:
    """The paired per-question F1 arrays (0–1) a figure is computed from: (baseline, ablation) for
    drops, (control, ablation) for excess drops; ``None`` when the scores are not there."""
    from mrclens.scoring.drops import AblationInfo, excess_ids

    base, pert = _scores(src, a.baseline_set), _scores(src, a.id)
    if base is None or pert is None:
        return None
    if figure in ("f1_drop", "relative_drop"):
        ids = [q for q in pert.ids if q in base._index]
        return base.f1[base.positions(ids)], pert.f1[pert.positions(ids)]
    control = _scores(src, a.control) if a.control else None
    if control is None:
        return None
    info = src.infos.get(a.id) or AblationInfo(a.id, a.name, a.category, a.eval_set, a.baseline_set, a.bias_signal)
    ids = excess_ids(info, base, pert, control, src.infos.get(a.control))
    return control.f1[control.positions(ids)], pert.f1[pert.positions(ids)]


def ablation_estimate(src: Source, a: AblationResult, figure: str, rng: np.random.Generator, n_resamples: int,
                      confidence: float) -> Estimate | None:
    """One audit's estimate of one ablation figure (rules in the module docstring); ``None`` when it has none."""
    value, low, high, n = _results_interval(a, figure)
    if value is None:
        return None
    arrays = _paired_arrays(src, a, figure) if _resamplable(src) else None
    if arrays is not None and arrays[0].size:
        b, p = arrays
        m = b.size
        if figure == "relative_drop":
            def stat(c):
                bs, ps = c @ b, c @ p
                with np.errstate(invalid="ignore", divide="ignore"):
                    return np.where(bs > 0, 100.0 * (bs - ps) / bs, np.nan)
            point = 100.0 * (b.sum() - p.sum()) / b.sum() if b.sum() > 0 else math.nan
        else:
            scale = 100.0 if figure in ("f1_drop", "excess_drop") else 100.0 * 100.0 / a.baseline_f1
            diff = scale * (b - p)
            def stat(c):
                return c @ diff / m
            point = float(diff.mean())
        if abs(point - value) <= _TOLERANCE:
            return _from_samples(value, _boot(stat, m, rng, n_resamples), m, confidence)
        log.debug(f"{src.info.name}: {a.id} {figure}: question scores give {point:.4f}, results.json {value:.4f}; "
                  f"normal approximation from results.json's interval")
    if low is None or high is None:
        return Estimate(value, None, None, n)
    return Estimate(value, low, high, n, None)


# --------------------------------------------------------------------------------- differences
def difference(first: Estimate, later: Estimate, name: str, confidence: float, bias_when: str | None) -> Difference:
    """``later − first`` with its interval: bootstrap when both can be resampled, else normal (module docstring)."""
    diff = later.value - first.value
    if first.samples is not None and later.samples is not None:
        low, high = percentile_interval(later.samples - first.samples, confidence)
        method = "bootstrap"
    else:
        if None in (first.ci_low, first.ci_high, later.ci_low, later.ci_high):
            return Difference(name, False, _r(diff), reason="no interval for one of the two values")
        z = _z(confidence)
        se = math.hypot((first.ci_high - first.ci_low) / (2 * z), (later.ci_high - later.ci_low) / (2 * z))
        low, high, method = diff - z * se, diff + z * se, "normal"
    if math.isnan(low) or math.isnan(high):
        return Difference(name, False, _r(diff), reason="no interval could be computed")
    significant = bool(low > 0 or high < 0)
    direction = None
    if significant and bias_when in ("higher", "lower"):
        direction = "more" if (diff > 0) == (bias_when == "higher") else "less"
    return Difference(name, True, _r(diff), _r(low), _r(high), significant, direction, method)


def _value(e: Estimate | None) -> InputValue:
    if e is None:
        return InputValue()
    return InputValue(_r(e.value), _r(e.ci_low), _r(e.ci_high), e.n)


def _row(key: str, section: str, label: str, unit: str, estimates: Sequence[Estimate | None], names: Sequence[str],
         confidence: float, *, bias_when: str | None = None, category: str | None = None, ablation: str | None = None,
         not_compared: Mapping[int, str] | None = None) -> ComparisonRow:
    row = ComparisonRow(key, section, label, unit, bias_when, category, ablation, [_value(e) for e in estimates])
    for i in range(1, len(estimates)):
        first, later = estimates[0], estimates[i]
        reason = (not_compared or {}).get(i)
        if reason is None and (first is None or later is None):
            lacking = [names[k] for k, e in ((0, first), (i, later)) if e is None]
            reason = f"no value for {' and '.join(lacking)}"
        if reason is not None:
            d = Difference(names[i], False, reason=reason)
            if first is not None and later is not None:
                d.difference = _r(later.value - first.value)
            row.differences.append(d)
            continue
        row.differences.append(difference(first, later, names[i], confidence, bias_when))
    return row


def _unit(path: str, kind: str) -> str:
    if kind in ("share", "accuracy") or path.endswith("_pct"):
        return "%"
    return "characters" if ".characters." in path else "words"


def _metric(task: str) -> str:
    """The per-question score's name: accuracy for multiple-choice audits, F1 for span ones."""
    return "accuracy" if task == MULTIPLE_CHOICE else "F1"


def compare_sources(sources: Sequence[Source], *, seed: int = 0, n_resamples: int = N_RESAMPLES,
                    confidence: float = CONFIDENCE) -> Comparison:
    """The comparison of loaded inputs (rules in the module docstring): every later input against the first.

    Raises:
        ValueError: fewer than two sources, or two with one name.
        MRCLensError: span and multiple-choice sources mixed (:data:`MIXED_TASKS`).
    """
    if len(sources) < 2:
        raise ValueError("compare needs at least two inputs")
    names = [s.info.name for s in sources]
    if len(set(names)) != len(names):
        raise ValueError(f"two inputs have one name: {names}")
    check_one_task([s.task for s in sources], [f"{s.info.name} ({s.info.path})" if s.info.path else s.info.name
                                                for s in sources])
    task = sources[0].task
    metric = _metric(task)
    rows: list[ComparisonRow] = []

    def rng(key: str, i: int) -> np.random.Generator:
        return stable_rng(seed, f"{key}#{i}")

    # reader strength (audits)
    audits = [s.results is not None for s in sources]
    reader: list[Estimate | None] = [None] * len(sources)
    if any(audits):
        reader = [reader_estimate(s, rng(READER_KEY, i), n_resamples, confidence) if s.results is not None else None
                  for i, s in enumerate(sources)]
        rows.append(_row(READER_KEY, "reader", f"reader's {metric} on the original set (%)", "%", reader, names,
                         confidence))

    # model-free figures
    mc = task == MULTIPLE_CHOICE
    for section, path, kind, n_path, label, bias_when, category in (MC_ROWS if mc else MODEL_FREE_ROWS):
        est = [model_free_estimate(s, path, kind, n_path, rng(path, i), n_resamples, confidence) for i, s in enumerate(sources)]
        if any(e is not None for e in est):
            rows.append(_row(path, section, label, _unit(path, kind), est, names, confidence, bias_when=bias_when,
                             category=category))
    share_sections = (MC_SHARE_SECTIONS if mc else
                      tuple((sec, stats_sec, tpl, f"{stats_sec}.n") for sec, stats_sec, tpl in SHARE_SECTIONS))
    for section, stats_section, template, n_path in share_sections:
        labels: list[str] = []
        for s in sources:
            for lab in ((s.stats or {}).get(stats_section) or {}).get("shares_pct", {}):
                if lab not in labels:
                    labels.append(lab)
        for lab in labels:
            path = f"{stats_section}.shares_pct.{lab}"
            est = [model_free_estimate(s, path, "share", n_path, rng(path, i), n_resamples, confidence)
                   for i, s in enumerate(sources)]
            rows.append(_row(path, section, template.format(lab), "%", est, names, confidence))

    # ablations
    notes_by_input = _comparability(sources, rows)
    if any(audits):
        rows.extend(_ablation_rows(sources, names, notes_by_input, seed, n_resamples, confidence, metric=metric))
    comparison = Comparison(inputs=[s.info for s in sources], rows=rows, distributions=_distributions(sources),
                            seed=seed, n_resamples=n_resamples, confidence=confidence)
    comparison.differs = _differs(sources, notes_by_input)
    comparison.notes = _method_notes(comparison)
    return comparison


def _comparability(sources: Sequence[Source], rows: Sequence[ComparisonRow]) -> dict[int, dict[str, str]]:
    """Per later input: ``{"all": reason}`` when no drop is comparable with the first input's, and
    ``{"absolute": reason}`` when only the relative figures are (a significantly different reader)."""
    out: dict[int, dict[str, str]] = {}
    first = sources[0]
    reader_row = next((r for r in rows if r.key == READER_KEY), None)
    for i, s in enumerate(sources[1:], start=1):
        notes: dict[str, str] = {}
        if first.results is None or s.results is None:
            out[i] = notes
            continue
        if first.info.reader != s.info.reader:
            notes["all"] = f"reader profiles differ ({first.info.reader} vs {s.info.reader}): drops of different readers are not compared"
        elif (first.info.draws, first.info.readers) != (s.info.draws, s.info.readers):
            notes["all"] = (f"numbers of perturbation draws × readers differ ({first.info.draws}×{first.info.readers} vs "
                            f"{s.info.draws}×{s.info.readers}): the intervals cover different sources of variance")
        else:
            d = reader_row.differences[i - 1] if reader_row is not None else None
            if d is not None and d.significant:
                notes["absolute"] = (f"the readers differ in strength ({_metric(first.task)} on the original set "
                                     f"{first.info.reader_f1:.1f} vs "
                                     f"{s.info.reader_f1:.1f}, difference significant): absolute drops are not compared, "
                                     f"relative ones are")
        out[i] = notes
    return out


def _ablation_rows(sources: Sequence[Source], names: Sequence[str], notes_by_input: Mapping[int, Mapping[str, str]],
                   seed: int, n_resamples: int, confidence: float, *, metric: str = "F1") -> list[ComparisonRow]:
    from mrclens.artifacts.manifest import ablation_order

    by_source = [{a.id: a for a in (s.results.ablations if s.results is not None else [])} for s in sources]
    ids: list[str] = []
    for d in by_source:
        ids.extend(aid for aid, a in d.items() if a.control_of is None and aid not in ids)
    rows = []
    for aid in sorted(ids, key=ablation_order):
        entry = next(d[aid] for d in by_source if aid in d)
        for figure, label, unit, absolute in ABLATION_FIGURES:
            label, unit = label.replace("F1", metric), unit.replace("F1", metric)
            key = f"ablations.{aid}.{figure}"
            est: list[Estimate | None] = []
            for i, (s, d) in enumerate(zip(sources, by_source)):
                a = d.get(aid)
                ok = a is not None and a.evaluated
                est.append(ablation_estimate(s, a, figure, stable_rng(seed, f"{key}#{i}"), n_resamples, confidence)
                           if ok else None)
            if all(e is None for e in est):
                continue
            not_compared = {}
            for i in range(1, len(sources)):
                notes = notes_by_input.get(i, {})
                if sources[0].results is None or sources[i].results is None:
                    kinds = [n for n, s in ((names[0], sources[0]), (names[i], sources[i])) if s.results is None]
                    not_compared[i] = f"{' and '.join(kinds)}: no audit (a dataset or statistics only)"
                elif "all" in notes:
                    not_compared[i] = notes["all"]
                elif absolute and "absolute" in notes:
                    not_compared[i] = notes["absolute"]
                else:
                    missing = [n for n, d in ((names[0], by_source[0]), (names[i], by_source[i]))
                               if aid not in d or not d[aid].evaluated]
                    if missing:
                        not_compared[i] = f"ablation {aid} not evaluated in {' and '.join(missing)}"
            bias_when = "higher" if entry.bias_signal == "large_drop" else "lower"
            rows.append(_row(key, "ablations", f"{aid} {entry.name}: {label}", unit, est, names, confidence,
                             bias_when=bias_when, category=entry.category, ablation=aid, not_compared=not_compared))
    return rows


def _distributions(sources: Sequence[Source]) -> list[Distribution]:
    out = []
    for path, label, unit in DISTRIBUTIONS:
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
        if s.task == MULTIPLE_CHOICE:
            chances = [_node(x.stats, "heuristics.chance.accuracy") for x in (first, s)]
            if all(_number(c) for c in chances) and abs(chances[0] - chances[1]) > _TOLERANCE:
                out.append(head + f"chance accuracy differs ({chances[1]:.1f}% vs {chances[0]:.1f}%: other numbers of "
                                  f"endings), so the heuristics' accuracies differ by that much with no cue at all.")
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
    if c.inputs and c.inputs[0].task == MULTIPLE_CHOICE:
        notes.append("Multiple-choice inputs: a heuristic's accuracy and the ending-length differences are resampled "
                     "from each question's value (a dataset, or an audit with its evaluation data); from summary "
                     "figures, an accuracy from its count and n (binomial, the same resampling) and a length "
                     "difference by the normal approximation from its own interval. For audits every F1 field "
                     "is an accuracy.")
    if "normal" in methods:
        notes.append("Normal approximation (ci_method \"normal\"): used where an input has summary figures only (a mean "
                     "from a stats JSON or an audit's results) or a multi-draw audit's drops (its results' intervals "
                     "include the between-draw variance).")
    n_rows = sum(1 for r in c.rows for d in r.differences if d.compared)
    n_sig = sum(1 for r in c.rows for d in r.differences if d.significant)
    if n_rows:
        notes.append(f"{n_sig} of {n_rows} compared differences are significant; at this level about "
                     f"{(1 - c.confidence) * n_rows:.1f} would be by chance alone if nothing differed.")
    return notes


def _r(x: float | None) -> float | None:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return None
    return round(float(x), 4)


# ---------------------------------------------------------------------------------- entry point
def compare(inputs: Sequence[str | os.PathLike], names: Sequence[str] | None = None, *, seed: int = 0,
            n_resamples: int = N_RESAMPLES, confidence: float = CONFIDENCE, cache_dir: str | os.PathLike | None = None,
            progress: bool = False, on_invalid: str = "refuse", n_process: int | None = None) -> Comparison:
    """Compare two or more datasets, ``stats`` JSON files, audits or evaluations (``mrclens compare``),
    all of span extraction or all multiple-choice (issue 20).

    Args:
        inputs: paths (kinds in the module docstring); the first is the one the others are compared with.
        names: one name per input for the table (default: the file or directory names).
        seed, n_resamples, confidence: the bootstrap (module docstring).
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
    chosen = list(names) if names is not None else [_default_name(Path(p)) for p in inputs]
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


# ----------------------------------------------------------------------------------- the table
def _fmt(x: float | None, unit: str = "") -> str:
    if x is None:
        return "–"
    return f"{x:.2f}" if unit == "words" else f"{x:.1f}"


def format_comparison(c: Comparison, *, width: int = 60) -> str:
    """The terminal table: one line per row, each input's value and each later input's difference
    with its interval; ``*`` marks a significant difference, ``~`` one from the normal approximation,
    ``n/c`` one not compared (the reasons are listed under the table)."""
    names = [i.name for i in c.inputs]
    level = f"{100 * c.confidence:g}%"
    lines = ["Inputs:"]
    for k, i in enumerate(c.inputs):
        extra = f", reader {i.reader} ({_metric(i.task)} {_fmt(i.reader_f1)})" if i.reader else ""
        q = f", {i.questions:,} questions" if i.questions else ""
        lines.append(f"  {k + 1}. {i.name}: {i.kind} {i.path}{q}{extra}")
    lines.append(f"Each later input minus {names[0]}, [{level} interval]; * significant, ~ normal approximation, n/c not compared.")
    cols = [max(9, len(n)) for n in names]
    diff_w = 30
    header = f"{'figure':<{width}} " + " ".join(f"{n:>{w}}" for n, w in zip(names[:1], cols[:1]))
    for n, w in zip(names[1:], cols[1:]):
        header += f" {n:>{w}} {'difference':<{diff_w}}"
    lines += ["", header]
    section = None
    reasons: dict[str, list[str]] = {}
    for row in c.rows:
        if row.section != section:
            section = row.section
            lines.append(f"-- {section}")
        label = row.label if len(row.label) <= width else row.label[: width - 1] + "…"
        line = f"{label:<{width}} {_fmt(row.values[0].value, row.unit):>{cols[0]}}"
        for k, (v, d) in enumerate(zip(row.values[1:], row.differences), start=1):
            if d.compared:
                mark = ("*" if d.significant else "") + ("~" if d.ci_method == "normal" else "")
                text = f"{d.difference:+.2f} [{d.ci_low:+.2f}, {d.ci_high:+.2f}]{mark}"
            else:
                text = "n/c" if v.value is not None and row.values[0].value is not None else ""
                if d.reason and text:
                    reasons.setdefault(d.reason, []).append(row.key)
            line += f" {_fmt(v.value, row.unit):>{cols[k]}} {text:<{diff_w}}"
        lines.append(line.rstrip())
    if c.differs:
        lines += ["", "What differs:"] + [f"  {d}" for d in c.differs]
    if reasons:
        lines += ["", "Not compared:"]
        for reason, keys in reasons.items():
            lines.append(f"  {len(keys)} row(s): {reason}")
    lines += [""] + c.notes
    return "\n".join(lines)
