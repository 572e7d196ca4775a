"""``comparison.json`` and ``comparison.csv``: the typed result of ``mrclens compare``, one writer, one reader.

``comparison.json`` (format version :data:`FORMAT_VERSION`) holds the compared inputs, one row
per compared figure with each input's value and each later input's difference to the first, and
the distributions the page draws (:mod:`mrclens.compare` computes them; the rules for
the intervals are in its docstring)::

    {"format_version": 1, "mrclens_version", "seed", "n_resamples", "confidence",
     "inputs": [{"name", "path", "kind" ("dataset" | "stats" | "audit" | "evaluation"), "sha256",
                 "questions", "figures_from", "reader", "reader_f1", "draws", "readers", "ablations",
                 "task" (only for multiple-choice inputs: "multiple_choice")}],
     "rows": [{"key", "section", "label", "unit", "bias_when", "category", "ablation",
               "values": [{"value", "ci_low", "ci_high", "n"}]            (one per input),
               "differences": [{"input", "compared", "difference", "ci_low", "ci_high",
                                "significant", "direction", "ci_method", "reason"}]
                                                                          (one per input after the first)}],
     "distributions": [{"key", "label", "unit", "series": [{"input", "edges", "counts"}]}],
     "overlaps": [{"input", "against", "relation", "questions", "against_questions", "shared_questions",
                   "contexts", "against_contexts", "shared_contexts", "sentence"}],
     "differs": [str], "notes": [str]}

``overlaps`` (issue 34; absent in older files): each later input whose questions MRCLens read (a
dataset, or an audit with its evaluation data) against the first, by question id and by exact
context text (:class:`Overlap`; ``relation`` ``"same"``, ``"subset"``, ``"superset"``, ``"partial"``
or ``"none"``).

Values are percentages (0–100) for shares and F1, words for lengths, percentage points for
drops, percent of the baseline F1 for relative drops (``unit`` says which). Multiple-choice
inputs (issue 20; every input of one comparison has one task) have ``"task": "multiple_choice"``;
there ``reader_f1`` and every ``f1``/``f1_drop`` row is an accuracy (the keys stay those of the
span rows, the labels say "accuracy"). A difference is
*later input − first input*; ``significant`` is true when its interval excludes 0, ``direction``
is ``"more"`` / ``"less"`` (of the shortcut the row measures, from ``bias_when``) for a
significant difference and ``null`` otherwise. A difference that is not computed has
``compared`` false and ``reason`` saying why (different reader profiles, a figure one input
lacks, …). No timestamp is written: the same inputs and seed give the same bytes.

``comparison.csv`` has one line per row and input (:data:`CSV_COLUMNS`; the first input's lines
have no difference).

Examples:
    >>> c = Comparison(inputs=[ComparedInput("A", "a.json", "dataset")], rows=[ComparisonRow(
    ...     "lengths.question_words", "lengths", "question length (words)", "words", values=[InputValue(10.2, 10.1, 10.3, 100)])])
    >>> Comparison.from_json(c.to_json(), "comparison.json") == c
    True
"""

from __future__ import annotations

import csv
import io
import os
from dataclasses import MISSING, asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Mapping

from mrclens import __version__
from mrclens.artifacts import _files
from mrclens.artifacts.layout import COMPARISON_CSV, COMPARISON_JSON
from mrclens.io_utils import atomic_write_json, atomic_write_text
from mrclens.tasks import DEFAULT_TASK, task_field

#: The comparison format this MRCLens writes and the newest it reads.
FORMAT_VERSION = 1

#: The kinds of input ``mrclens compare`` reads.
INPUT_KINDS = ("dataset", "stats", "audit", "evaluation")

_NUM = (float, type(None))
_INT = (int, type(None))
_STR = (str, type(None))
_BOOL = (bool, type(None))
_HINT = "run `mrclens compare A B … --out DIR` first"


@dataclass
class ComparedInput:
    """One compared input.

    Attributes:
        name: its name in the table (``--names`` or the file name).
        path: the path as given.
        kind: one of :data:`INPUT_KINDS`.
        sha256: of the dataset or statistics file, or of the audit's ``results.json``.
        questions: questions its model-free figures are computed on (``None`` when it has none).
        figures_from: ``"per-question values"`` (a dataset, or an audit whose evaluation data is
            there) or ``"summary figures"`` (a ``stats`` JSON, an audit's ``model_free`` figures).
        reader, reader_f1, draws, readers: an audit's reader profile (or an evaluation's model
            name), F1 on the original set (percent), perturbation draws and trained readers.
        ablations: the ids of its evaluated ablations.
        task: ``"span"`` (span extraction) or ``"multiple_choice"`` (issue 20; ``reader_f1`` is then
            an accuracy); written to ``comparison.json`` only when not :data:`mrclens.tasks.DEFAULT_TASK`.
    """

    name: str
    path: str
    kind: str
    sha256: str | None = None
    questions: int | None = None
    figures_from: str | None = None
    reader: str | None = None
    reader_f1: float | None = None
    draws: int | None = None
    readers: int | None = None
    ablations: list[str] = field(default_factory=list)
    task: str = DEFAULT_TASK

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        del out["task"]
        out.update(task_field(self.task))  # span comparisons are written as before issue 20
        return out


@dataclass
class InputValue:
    """One input's value of a row, with its own interval and the number of questions behind it."""

    value: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    n: int | None = None


@dataclass
class Difference:
    """A later input's difference to the first input on one row (rules in :mod:`mrclens.compare`)."""

    input: str
    compared: bool = False
    difference: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    significant: bool | None = None
    direction: str | None = None
    ci_method: str | None = None
    reason: str | None = None


@dataclass
class ComparisonRow:
    """One compared figure: each input's value, and each later input's difference to the first."""

    key: str
    section: str
    label: str
    unit: str
    bias_when: str | None = None
    category: str | None = None
    ablation: str | None = None
    values: list[InputValue] = field(default_factory=list)
    differences: list[Difference] = field(default_factory=list)


@dataclass
class DistributionSeries:
    """One input's histogram: ``counts[i]`` items in ``[edges[i], edges[i+1])`` (the last bin holds the rest)."""

    input: str
    edges: list[float]
    counts: list[int]


@dataclass
class Distribution:
    """A per-question figure's histogram for each input that has one (the page overlays them)."""

    key: str
    label: str
    unit: str
    series: list[DistributionSeries] = field(default_factory=list)


#: What :attr:`Overlap.relation` can be.
OVERLAP_RELATIONS = ("same", "subset", "superset", "partial", "none")


@dataclass
class Overlap:
    """What a later input shares with the first: question ids and contexts (exact text), counted
    in each input (``questions``, ``contexts``: the later input's; ``against_*``: the first's).

    ``relation`` is read on the question ids when any is shared, else on the contexts: ``"same"``
    (the same set), ``"subset"`` (the later input's all in the first), ``"superset"`` (the first's
    all in the later one), ``"partial"``, ``"none"`` (nothing shared).

    Examples:
        >>> Overlap("xquad.es", "dev", "subset", 1190, 10570, 1190, 240, 2067, 0).sentence()
        'xquad.es vs dev: all 1,190 question ids of xquad.es are in dev (11.3% of its 10,570), with other contexts (0 of 240 shared): the same questions translated or edited?'
    """

    input: str
    against: str
    relation: str
    questions: int
    against_questions: int
    shared_questions: int
    contexts: int
    against_contexts: int
    shared_contexts: int

    def sentence(self) -> str:
        """The overlap in one plain sentence (shown beside the figures)."""
        a, b = self.input, self.against
        head = f"{a} vs {b}: "
        if self.relation == "none":
            return head + "no question id or context in common."
        ids = self._part("question ids", self.shared_questions, self.questions, self.against_questions)
        ctx = self._part("contexts", self.shared_contexts, self.contexts, self.against_contexts)
        if self.shared_questions and not self.shared_contexts:
            return (head + ids + f", with other contexts (0 of {self.contexts:,} shared): the same questions "
                    f"translated or edited?")
        what = {"same": f"{a} and {b} hold the same questions", "subset": f"{a} is a subset of {b}",
                "superset": f"{b} is a subset of {a}", "partial": "they overlap"}[self.relation]
        return head + f"{what}: {ids}; {ctx}. Their differences are not between independent samples."

    def _part(self, what: str, shared: int, n: int, n_against: int) -> str:
        if shared == n:
            pct = f"{100 * shared / n_against:.1f}% of its {n_against:,}" if n_against else "none of its"
            return f"all {n:,} {what} of {self.input} are in {self.against} ({pct})"
        return (f"{shared:,} {what} shared ({100 * shared / n:.1f}% of {self.input}'s {n:,}, "
                f"{100 * shared / n_against:.1f}% of {self.against}'s {n_against:,})")

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "sentence": self.sentence()}


@dataclass
class Comparison:
    """The whole comparison (schema in the module docstring)."""

    inputs: list[ComparedInput]
    rows: list[ComparisonRow] = field(default_factory=list)
    distributions: list[Distribution] = field(default_factory=list)
    differs: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    overlaps: list[Overlap] = field(default_factory=list)
    seed: int = 0
    n_resamples: int = 1000
    confidence: float = 0.95
    mrclens_version: str = __version__
    format_version: int = FORMAT_VERSION

    def row(self, key: str) -> ComparisonRow | None:
        """The row with this ``key`` (``None`` when there is none)."""
        return next((r for r in self.rows if r.key == key), None)

    def to_json(self) -> dict[str, Any]:
        return {"format_version": self.format_version, "mrclens_version": self.mrclens_version, "seed": self.seed,
                "n_resamples": self.n_resamples, "confidence": self.confidence,
                "inputs": [i.to_json() for i in self.inputs], "rows": [asdict(r) for r in self.rows],
                "distributions": [asdict(d) for d in self.distributions],
                "overlaps": [o.to_json() for o in self.overlaps],
                "differs": list(self.differs), "notes": list(self.notes)}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any], path: str | os.PathLike) -> "Comparison":
        """Parse and check a comparison object read from ``path`` (named in every error).

        Raises:
            ArtifactError: a field is missing or has the wrong type, or the format is newer than this MRCLens reads.
        """
        version = _files.check_version(obj, path, FORMAT_VERSION)
        f = _files.field
        inputs = [_typed(ComparedInput, i, path, f"input #{k + 1}: ") for k, i in enumerate(f(obj, "inputs", list, path))]
        rows = []
        for k, r in enumerate(f(obj, "rows", list, path)):
            where = f"row #{k + 1}: "
            row = _typed(ComparisonRow, r, path, where)
            row.values = [_typed(InputValue, v, path, f"{where}value #{j + 1}: ") for j, v in enumerate(f(r, "values", list, path, where))]
            row.differences = [_typed(Difference, d, path, f"{where}difference #{j + 1}: ")
                               for j, d in enumerate(f(r, "differences", list, path, where))]
            rows.append(row)
        dists = []
        for k, d in enumerate(f(obj, "distributions", list, path, "", [])):
            where = f"distribution #{k + 1}: "
            dist = _typed(Distribution, d, path, where)
            dist.series = [_typed(DistributionSeries, s, path, f"{where}series #{j + 1}: ")
                           for j, s in enumerate(f(d, "series", list, path, where))]
            dists.append(dist)
        overlaps = [_typed(Overlap, o, path, f"overlap #{k + 1}: ") for k, o in enumerate(f(obj, "overlaps", list, path, "", []))]
        return cls(inputs=inputs, rows=rows, distributions=dists, overlaps=overlaps,
                   differs=[str(x) for x in f(obj, "differs", list, path, "", [])],
                   notes=[str(x) for x in f(obj, "notes", list, path, "", [])],
                   seed=f(obj, "seed", int, path), n_resamples=f(obj, "n_resamples", int, path),
                   confidence=f(obj, "confidence", float, path), mrclens_version=f(obj, "mrclens_version", str, path, "", ""),
                   format_version=version)


#: Field types of each dataclass when read back (lists of dataclasses are read by their owner).
_TYPES: dict[type, dict[str, Any]] = {
    ComparedInput: {"name": str, "path": str, "kind": str, "sha256": _STR, "questions": _INT, "figures_from": _STR,
                    "reader": _STR, "reader_f1": _NUM, "draws": _INT, "readers": _INT, "ablations": list,
                    "task": str},
    InputValue: {"value": _NUM, "ci_low": _NUM, "ci_high": _NUM, "n": _INT},
    Difference: {"input": str, "compared": bool, "difference": _NUM, "ci_low": _NUM, "ci_high": _NUM,
                 "significant": _BOOL, "direction": _STR, "ci_method": _STR, "reason": _STR},
    ComparisonRow: {"key": str, "section": str, "label": str, "unit": str, "bias_when": _STR, "category": _STR,
                    "ablation": _STR, "values": None, "differences": None},
    DistributionSeries: {"input": str, "edges": list, "counts": list},
    Distribution: {"key": str, "label": str, "unit": str, "series": None},
    Overlap: {"input": str, "against": str, "relation": str, "questions": int, "against_questions": int,
              "shared_questions": int, "contexts": int, "against_contexts": int, "shared_contexts": int},
}


def _typed(cls: type, obj: Any, path: Any, where: str) -> Any:
    """A ``cls`` instance from its JSON object: required fields are those without a default."""
    values = {}
    for fl in fields(cls):
        kind = _TYPES[cls][fl.name]
        if kind is None:  # a nested list, read by the caller
            continue
        if fl.default is not MISSING:
            default = fl.default
        elif fl.default_factory is not MISSING:
            default = fl.default_factory()
        else:
            default = ...
        values[fl.name] = _files.field(obj, fl.name, kind, path, where, default)
    return cls(**values)


#: Columns of ``comparison.csv``: one line per row and input.
CSV_COLUMNS = ("key", "section", "label", "unit", "ablation", "input", "value", "ci_low", "ci_high", "n",
               "difference", "difference_ci_low", "difference_ci_high", "significant", "direction", "ci_method",
               "compared", "reason")


def comparison_csv(comparison: Comparison) -> str:
    """The text of ``comparison.csv`` (:data:`CSV_COLUMNS`; empty cells where a number is missing)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in comparison.rows:
        for k, (inp, v) in enumerate(zip(comparison.inputs, row.values)):
            d = row.differences[k - 1] if k > 0 and k - 1 < len(row.differences) else None
            cells = [row.key, row.section, row.label, row.unit, row.ablation, inp.name, v.value, v.ci_low, v.ci_high, v.n]
            if d is None:
                cells += [None] * 8
            else:
                cells += [d.difference, d.ci_low, d.ci_high, d.significant, d.direction, d.ci_method, d.compared, d.reason]
            writer.writerow(["" if c is None else str(c).lower() if isinstance(c, bool) else c for c in cells])
    return buf.getvalue()


def write_comparison(comparison: Comparison, out_dir: str | os.PathLike, *, protect=()) -> tuple[Path, Path]:
    """Write ``out_dir/comparison.json`` (indented) and ``out_dir/comparison.csv``, each atomically.

    Returns:
        the two paths (the directory is created if missing).

    Raises:
        OutputError: a file cannot be written; MRCLensError: a target is one of the ``protect`` inputs.
    """
    out_dir = Path(out_dir)
    json_path = atomic_write_json(out_dir / COMPARISON_JSON, comparison.to_json(), indent=1, protect=protect)
    csv_path = atomic_write_text(out_dir / COMPARISON_CSV, comparison_csv(comparison), protect=protect)
    return json_path, csv_path


def read_comparison(directory: str | os.PathLike) -> Comparison:
    """Read and check ``directory/comparison.json`` (or the file itself when ``directory`` is one).

    Raises:
        ArtifactError: the file is absent, not JSON, or malformed (the message names the file and field).
    """
    path = Path(directory)
    if path.is_dir() or not path.name.endswith(".json"):
        path = path / COMPARISON_JSON
    return Comparison.from_json(_files.read_json_object(path, _HINT), path)
