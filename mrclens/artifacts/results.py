"""``results.json`` and ``results.csv``: the typed results of an audit or evaluation, one writer, one reader.

``results.json`` holds every number of an audit or of ``mrclens evaluate --predictions-dir``
(format version :data:`FORMAT_VERSION`; a file without ``format_version`` is read as version 1)::

    {"format_version": 1, "mrclens_version", "created" (ISO 8601 UTC), "seed",
     "model": {"kind": "baseline" | "external", "name", "config" | null},
     "inputs": [{"role", "file", "sha256"}], "versions": {package: version},
     "step_seconds": {step: seconds}, "bootstrap": {"n_resamples", "confidence", "seed"},
     "sets": {set name: {"file", "n", "exact_match", "f1", "missing", "unknown", "evaluated",
                         "reason_not_evaluated"}},
     "ablations": [{"id", "name", "category", "eval_set", "baseline_set", "bias_signal", "description",
                    "evaluated", "reason_not_evaluated", "n", "changed", "unchanged_by_reason", "unpaired",
                    "exact_match", "f1", "baseline_exact_match", "baseline_f1", "em_drop", "f1_drop",
                    "ci_low", "ci_high", "changed_only": {"n", "f1", "baseline_f1", "f1_drop", "ci_low",
                    "ci_high"} | null, "reading", "evidence",
                    "relative_drop", "relative_ci_low", "relative_ci_high",
                    "control_of", "control", "control_f1_drop", "excess_drop", "excess_ci_low", "excess_ci_high",
                    "excess_n"}],
     "categories": [{"category", "ablations", "evaluated", "f1_drop", "ci_low", "ci_high", "reading", "evidence"}],
     "paths": {"perturbed_dir", "predictions_dir"}, "warnings": [str], "sections": {},
     "audit": {"options", "split", "model_dir", "training_log", "option_sources",
               "training": TrainingRecord | null}   (audits only)}

Repeated draws / readers (issue 16; all optional, absent or empty in files written before them
and in single-run results): the top level may hold ``"replicates": [{"draw", "draw_seed",
"reader", "reader_seed", "perturbed_dir", "predictions_dir"}]`` (one per scored draw × reader)
and ``"variance_method"``; each ablation ``"replicates": [{"draw", "reader", "f1_drop",
"ci_low", "ci_high", "relative_drop", "excess_drop", "excess_ci_low", "excess_ci_high",
"recovered_share", "evidence"}]``, the spread ``"f1_drop_min"``, ``"f1_drop_max"``,
``"f1_drop_sd"``, ``"excess_drop_min"``, ``"excess_drop_max"``, ``"excess_drop_sd"`` and
``"unstable"`` (the evidence level differs between replicates); each category ``"replicates":
[{"draw", "reader", "f1_drop", "ci_low", "ci_high", "evidence"}]``, ``"f1_drop_min"``,
``"f1_drop_max"``, ``"f1_drop_sd"``, ``"unstable"``. With several replicates an entry's
``f1_drop``/``ci_*``, ``relative_*`` and ``excess_*`` are the mean over replicates with the
two-stage bootstrap CI (:func:`mrclens.metrics.bootstrap.two_stage_bootstrap`); ``changed``
and ``changed_only`` are the first replicate's. An ablation with a question-removed reference
(e4 with c4) has ``"recovered_share"``, ``"recovered_ci_low"``, ``"recovered_ci_high"``: the
percentage of the F1 lost without the question that the ablation's kept words recover.

Model-free evidence (issue 17; optional, audits only): ``"model_free": [{"category", "path",
"label", "bias_when", "value", "ci_low", "ci_high", "n", "reference", "reference_value",
"reference_ci_low", "reference_ci_high", "reference_n", "difference", "difference_ci_low",
"difference_ci_high", "comparison", "articles", "role", "chance", "reference_standardised", "margin",
"difference_confidence", "mde", "band", "difference_se", "difference_df"}]`` — the :mod:`mrclens.stats` figures that bear on each
bias category, beside a reference dataset's (:mod:`mrclens.scoring.model_free`; ``articles``: the
number of articles the cluster-robust standard error was computed over, ``null`` without one; ``role``,
``chance``, ``reference_standardised``, ``margin``: issue 32, :class:`ModelFreeFigure`), and ``"context_shape":
{"sentences", "reference_sentences"}`` — the data's median sentence units per context beside the reference's
(issue 41; :attr:`Results.context_shape`).

Drops against a reference audit (issue 17; optional, absent when the reference has no audit with
the reader's profile; :mod:`mrclens.scoring.against_reference`): each compared ablation has
``"reference"`` (its name), ``"reference_figure"`` (``"relative_excess_drop"`` or
``"relative_drop"``), ``"compared_value"`` (this audit's figure, percent of the baseline F1),
``"reference_value"``, ``"reference_ci_low"``, ``"reference_ci_high"``, ``"reference_difference"``,
``"reference_difference_ci_low"``, ``"reference_difference_ci_high"`` and ``"reference_bias"``
(``"more"``, ``"in line"``, ``"less"`` or ``"inconclusive"``); each category ``"reference"``,
``"reference_bias"``, ``"reference_basis"`` (``"drops"``, ``"model-free"`` or ``"drops and
model-free"``: the evidence that decided it) and the mean difference of its drops towards the bias
``"reference_difference"`` with its ``"reference_difference_ci_low"``/``"_high"`` at the confidence level
``"reference_confidence"`` (a fraction, e.g. 0.9929: the categories' intervals hold the results'
confidence *family-wise* over the tests read together, Bonferroni; ``null`` in older files), the
equivalence band ``"reference_band"`` its interval must lie inside to read "in line" and the minimum
detectable effect ``"reference_mde"`` at 80 % power (points of relative drop; issue 41; ``null`` in
older files and where the reader was too weak), ``"reference_per_planted_pct"``: the points of relative drop a
shortcut planted in 1 % of the questions adds (issue 54, :mod:`mrclens.scoring.drop_scale`; the band is then 10 %
of the questions; ``null``: not calibrated, the band is in points), and for an ``"inconclusive"`` category
``"reference_why"``: ``"weak"`` (the reader is too weak), ``"cannot tell"`` (an interval reaches beyond
its band), ``"opposite"`` (the drops and the data point opposite ways), ``"out of reach"`` (no number of
questions can read the data's figure in line) or ``"profile out of reach"`` (nor this reader profile's drops), ``"unexplained drops"`` (drops that are described,
not read, lie beyond their band) or ``"description apart"`` (a description of the data lies wholly beyond its band,
the verdict figures inside theirs); for a "more" or "less" read from the
drops alone on data whose contexts are much shorter or longer than the reference's, ``"reference_shape"``: the
sentence that says so (the shape may explain it; issue 41; ``null`` otherwise).

Standard errors beside the intervals (issue 53; optional: absent or ``null`` in older files, which read as
before): each compared ablation and category has ``"reference_difference_se"`` and ``"reference_difference_df"``,
each compared model-free figure ``"difference_se"`` and ``"difference_df"``: the standard error (the unit of the
difference: points of relative drop, or the figure's unit) and the degrees of freedom of Student's t (``null``:
normal) that the difference's interval beside them is drawn with, so that ``difference ± q(level, df) × se`` gives
the stored interval back to its rounding (:class:`mrclens.metrics.estimate.Estimate`). An ablation's interval, and
its ``se``, hold its structure term; a category's are at ``"reference_confidence"``.

Multiple-choice results (issue 20) have ``"task": "multiple_choice"``: there every ``exact_match``
and ``f1`` figure is **accuracy** (per question 1 when the chosen ending is the gold one), drops are
accuracy drops, and ``sections["multiple_choice"]`` holds the per-fold accuracies, accuracy per
question category and the heuristic baselines (:mod:`mrclens.audit.multiple_choice`).

EM, F1 are percentages (0–100); drops and CI bounds are percentage points; ``null`` marks a
number that could not be computed (the set or ablation was not evaluated). An ablation's ``n``
counts the questions it shares with its baseline set (the paired items the drop is computed on);
``unpaired`` counts ablation-set questions that are not in the baseline set (normally 0).
``evidence`` is the reading's evidence level (:mod:`mrclens.scoring.readings`).
``relative_drop`` is the F1 drop as a percentage of the baseline F1 (with its CI). A matched
control (``c1``, ``c2``, ``c6``–``c8``) has ``control_of`` = the ablation it controls; that
ablation has ``control`` = the control's id, ``control_f1_drop`` and the **excess drop** (its
drop minus the control's, paired by question: ``excess_n`` questions) with its CI. Relative
``paths`` are relative to the directory that holds ``results.json``. Step times are seconds.

``results.csv`` has one row per ablation (its columns: :mod:`mrclens.artifacts.results_csv`).

The JSON Schema of ``results.json`` is published as ``docs/results.schema.json`` (:mod:`mrclens.artifacts.results_schema`).
It is generated from :data:`RESULTS_FORMAT`, the records above and what the file says beyond them (the default each key
absent from an older file reads as, the keys required, the allowed values), with which :func:`read_results` validates
every file (:mod:`mrclens.artifacts.record_models`): the schema and the reader accept the same files.

SQuAD v2.0 (only when the evaluation data has unanswerable questions; v1.1 results have none of
these keys or columns): a set has ``"subsets": {"HasAns": {"n", "exact_match", "f1", "abstained"},
"NoAns": {...}}`` (:class:`SubsetScore`; ``abstained`` = questions answered ``""``) and, written
for readers of the official v2.0 script's output (``evaluate-v2.0.py``, Hugging Face ``squad_v2``;
derived, not read back), its figures under those names too: ``"exact"`` (= ``exact_match``),
``"total"`` (= ``n``), ``"HasAns_exact"``, ``"HasAns_f1"``, ``"HasAns_total"``, ``"NoAns_exact"``,
``"NoAns_f1"``, ``"NoAns_total"``; an
ablation ``"subsets": {"HasAns": {"n", "exact_match", "f1", "baseline_exact_match", "baseline_f1",
"f1_drop", "ci_low", "ci_high"}, "NoAns": {...}}`` (:class:`SubsetDrop`: the paired drop and its
paired bootstrap CI over that subset's questions only; official v2.0 subsets: ``HasAns`` = the
question has a gold answer, ``NoAns`` = it has none); a category has ``"subsets"`` with ``n`` (paired
items summed over its ablations), ``f1_drop``, ``ci_low``, ``ci_high`` per subset. ``model.no_answer`` records the threshold of a
baseline reader that abstains. ``results.csv`` then gets the
:data:`~mrclens.artifacts.results_csv.V2_CSV_COLUMNS` too.

Examples:
    >>> r = Results(mrclens_version="0.1.0", created="2026-01-01T00:00:00Z", seed=0,
    ...             model=ModelRecord("external", "m"), bootstrap=BootstrapSettings(1000, 0.95, 0))
    >>> Results.from_json(r.to_json(), "results.json") == r
    True
"""

from __future__ import annotations

import datetime as _dt
import importlib.metadata
import io
import os
import platform
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, Mapping

from pydantic import BaseModel, ConfigDict, Field

from mrclens import __version__
from mrclens.artifacts import _files
from mrclens.artifacts.layout import RESULTS_CSV, RESULTS_JSON
from mrclens.artifacts.result_records import (AblationResult, AuditRecord, BootstrapSettings, CategoryReplicate,
                                              CategoryResult, ChangedOnly, InputFile, ModelFreeFigure, ModelRecord,
                                              ReplicateFigures, ReplicateRecord, SetResult, SubsetDrop, SubsetScore)
from mrclens.artifacts.record_models import RecordFormat
from mrclens.artifacts.results_csv import RESULTS_HINT, results_frame
from mrclens.artifacts.training_record import TRAINING_READ_AS, TrainingRecord
from mrclens.errors import ArtifactError, ArtifactMsg
from mrclens.io_utils import atomic_write_json, atomic_write_text
from mrclens.tasks import DEFAULT_TASK, all_tasks, get_task, task_field

#: The records of the file (:mod:`mrclens.artifacts.result_records`), re-exported here: import them from this module.
__all__ = ["AblationResult", "AuditRecord", "BootstrapSettings", "CategoryReplicate", "CategoryResult", "ChangedOnly",
           "FORMAT_VERSION", "InputFile", "ModelFreeFigure", "ModelRecord", "ReplicateFigures", "ReplicateRecord",
           "RESULTS_FORMAT", "Results", "SUBSETS", "SetResult", "SubsetDrop", "SubsetScore", "entry_json",
           "official_v2_names", "package_versions", "read_results", "utc_now", "write_results"]

#: The results format this MRCLens writes and the newest it reads.
FORMAT_VERSION = 1

#: The SQuAD v2.0 question subsets (official ``evaluate-v2.0.py`` names).
SUBSETS = ("HasAns", "NoAns")
_PACKAGES = ("spacy", "torch", "numpy", "pandas", "scikit-learn")


def package_versions() -> dict[str, str]:
    """Versions of Python, MRCLens and the packages that shape the numbers (installed ones only).

    Read from package metadata (:mod:`importlib.metadata`), so nothing heavy is imported.
    """
    out = {"python": platform.python_version(), "mrclens": __version__}
    for name in _PACKAGES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return out


def utc_now() -> str:
    """The current time as ISO 8601 UTC, to the second (``2026-01-31T12:00:00Z``)."""
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


#: The name of an external model whose user gives none (``mrclens evaluate --model-name``).
DEFAULT_MODEL_NAME = "external model"

@dataclass
class Results:
    """The typed ``results.json`` of an audit or of ``mrclens evaluate`` (:func:`read_results`,
    ``mrclens.load_results``; the schema is in :mod:`mrclens.artifacts.results`' docstring).

    Printed it is one line (the model, its score, each category's verdict); in Jupyter a table of the verdicts;
    :meth:`to_pandas` gives its tables. EM and F1 are percentages (0-100; accuracy for multiple choice, see
    :attr:`metric`), drops and their CI bounds percentage points, times seconds.

    Attributes:
        mrclens_version: the MRCLens version that wrote the file.
        created: when, ISO 8601 UTC (``2026-01-31T12:00:00Z``).
        seed: the run's seed.
        model: the scored model (``kind`` ``"baseline"`` or ``"external"``, ``name``, ``config``).
        bootstrap: the paired bootstrap's settings (``n_resamples``, ``confidence``, ``seed``).
        inputs: every input file with its role and sha256.
        versions: the versions of Python and the packages that shape the numbers.
        step_seconds: the wall time of each step, in seconds.
        sets: the scores of every scored set (``original``, ``e1`` …) by name: ``n``, ``exact_match``, ``f1``.
        ablations: one record per ablation: its drop with its CI, its reading and evidence, its control.
        categories: one record per bias category: its drop, and its verdict against the reference
            (``reference_bias``: ``"more"``, ``"in line"``, ``"less"`` or ``"inconclusive"``).
        model_free: the data's own figures beside the reference's, per category (audits only).
        audit: the audit's options, split, training log and training record (``None`` for an evaluation).
        task: ``"span"`` or ``"multiple_choice"`` (:mod:`mrclens.tasks`).
        warnings: what the run warned of.
    """

    mrclens_version: str
    created: str
    seed: int
    model: ModelRecord
    bootstrap: BootstrapSettings
    inputs: list[InputFile] = field(default_factory=list)
    versions: dict[str, str] = field(default_factory=dict)
    step_seconds: dict[str, float] = field(default_factory=dict)
    sets: dict[str, SetResult] = field(default_factory=dict)
    ablations: list[AblationResult] = field(default_factory=list)
    categories: list[CategoryResult] = field(default_factory=list)
    paths: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    sections: dict[str, Any] = field(default_factory=dict)
    audit: AuditRecord | None = None
    format_version: int = FORMAT_VERSION
    replicates: list[ReplicateRecord] = field(default_factory=list)
    variance_method: str | None = None
    model_free: list[ModelFreeFigure] = field(default_factory=list)
    #: the task (:mod:`mrclens.tasks`): ``"span"`` (extractive QA: EM/F1) or ``"multiple_choice"`` (issue 20:
    #: every ``exact_match``/``f1`` figure, drop and CI is an **accuracy** figure, see :attr:`metric`);
    #: written only when not the default (:data:`mrclens.tasks.DEFAULT_TASK`).
    task: str = DEFAULT_TASK
    #: the audited data's median context length beside the reference's, in sentence units
    #: (``{"sentences", "reference_sentences"}``: stratum labels, :class:`mrclens.scoring.model_free.ContextShape`);
    #: it picks the stratum of the structure term the drops were read with (issue 41). ``None``: not measured
    #: (no reference, no strata, or a file written before it was kept).
    context_shape: dict[str, str] | None = None

    @property
    def metric(self) -> str:
        """The name of the per-question score behind the ``f1`` fields (:attr:`mrclens.tasks.Task.metric`:
        ``"F1"`` or ``"accuracy"``).

        Raises:
            MRCLensError: ``task`` is not a registered task.
        """
        return get_task(self.task).metric

    @property
    def reader_profile(self) -> str | None:
        """The reader profile of the scored model (``"quick"``, ``"paper-parallel"`` …): the audit's option, else the
        one the model's config records (a saved reader's); ``None`` for an external model."""
        options = (self.audit.options if self.audit is not None else None) or {}
        return options.get("profile") or (self.model.config or {}).get("profile")

    @property
    def reader_label(self) -> str:
        """The scored model in words, as every surface names it: ``baseline reader, quick profile``,
        ``external model 'NAME'`` or ``external model``."""
        if self.model.kind == "baseline":
            return f"baseline reader, {self.reader_profile} profile" if self.reader_profile else "baseline reader"
        named = self.model.name and self.model.name != DEFAULT_MODEL_NAME
        return f"{DEFAULT_MODEL_NAME} {self.model.name!r}" if named else DEFAULT_MODEL_NAME

    def __repr__(self) -> str:
        """One line for a notebook (never the whole record): the model, its score and each category's verdict, e.g.
        ``Results(baseline reader, quick profile; F1 45.8 on 1,693 questions; against SQuAD v1.1: Similarity
        inconclusive, Question inconclusive, Keyword inconclusive, Position in line)``."""
        s = self.sets.get("original")
        score = f"; {self.metric} {s.f1:.1f} on {s.n:,} questions" if s is not None and s.f1 is not None else ""
        references = sorted({c.reference for c in self.categories if c.reference_bias is not None and c.reference})
        verdicts = ", ".join(f"{c.category} {c.reference_bias or c.evidence or 'not evaluated'}" for c in self.categories)
        against = f"; against {' / '.join(references)}: " if references else "; " if verdicts else ""
        return f"Results({self.reader_label}{score}{against}{verdicts})"

    def _repr_html_(self) -> str:
        """The verdicts as an HTML table for Jupyter: per category its verdict, the route that decided it and its
        difference from the reference with the family-wise interval (percentage points of relative drop), escaped."""
        from html import escape

        def cell(x: Any) -> str:
            return f"<td>{escape(str(x))}</td>"

        rows = []
        for c in self.categories:
            diff = (f"{c.reference_difference:+.1f} [{c.reference_difference_ci_low:+.1f}, "
                    f"{c.reference_difference_ci_high:+.1f}]" if c.reference_difference is not None
                    and c.reference_difference_ci_low is not None and c.reference_difference_ci_high is not None else "")
            rows.append("<tr>" + cell(c.category) + cell(c.reference_bias or c.evidence or "not evaluated")
                        + cell(c.reference_basis or "") + cell(diff) + "</tr>")
        head = "".join(f"<th>{h}</th>" for h in ("category", "verdict", "decided by", "drops vs reference [CI]"))
        return (f"<p>{escape(repr(self))}</p><table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody>"
                "</table>")

    def to_pandas(self, table: str = "ablations"):
        """One table of these results as a :class:`pandas.DataFrame`, one row per entry:
        ``"ablations"`` (the columns of ``results.csv``), ``"categories"``, ``"model_free"`` or
        ``"sets"`` (columns: :mod:`mrclens.artifacts.results_tables`).

        Raises:
            MRCLensError: an unknown ``table``.
        """
        from mrclens.artifacts.results_tables import results_table

        return results_table(self, table)

    def ablation(self, ablation_id: str) -> AblationResult | None:
        """The ablation with this id, or ``None``."""
        return next((a for a in self.ablations if a.id == ablation_id), None)

    def to_json(self) -> dict[str, Any]:
        """The JSON object written to ``results.json`` (keys in schema order)."""
        out: dict[str, Any] = {
            "format_version": self.format_version,
            "mrclens_version": self.mrclens_version,
            "created": self.created,
            "seed": self.seed,
            "model": _model_json(self.model),
            "inputs": [asdict(i) for i in self.inputs],
            "versions": dict(self.versions),
            "step_seconds": dict(self.step_seconds),
            "bootstrap": asdict(self.bootstrap),
            "sets": {name: {**entry_json(s), **official_v2_names(s)} for name, s in self.sets.items()},
            "ablations": [entry_json(a) for a in self.ablations],
            "categories": [entry_json(c) for c in self.categories],
            "paths": dict(self.paths),
            "warnings": list(self.warnings),
            "sections": dict(self.sections),
        }
        if self.audit is not None:
            out["audit"] = asdict(self.audit)
            out["audit"]["training"] = self.audit.training.to_json() if self.audit.training is not None else None
        if self.replicates:
            out["replicates"] = [asdict(r) for r in self.replicates]
            out["variance_method"] = self.variance_method
        if self.model_free:
            out["model_free"] = [asdict(m) for m in self.model_free]
        out.update(task_field(self.task))
        if self.context_shape is not None:
            out["context_shape"] = dict(self.context_shape)
        return out

    @classmethod
    def from_json(cls, obj: Mapping[str, Any], path: str | os.PathLike) -> "Results":
        """Parse and check a results object read from ``path`` (named in every error), validated with
        :data:`RESULTS_FORMAT` (the models of ``docs/results.schema.json``).

        Raises:
            ArtifactError: a field is missing or has the wrong type or value (the message names the file, the item
                and the field, e.g. ``ablation e1: field 'f1_drop'``), a number is not finite, or the format is newer
                than this MRCLens reads.
        """
        _files.check_version(obj, path, FORMAT_VERSION)
        return RESULTS_FORMAT.read(obj, path)


def official_v2_names(s: SetResult) -> dict[str, Any]:
    """A v2.0 set's figures under the official v2.0 script's names (``exact``, ``total``,
    ``HasAns_exact``, ``HasAns_f1``, ``HasAns_total``, ``NoAns_*``); ``{}`` for a set without subsets."""
    if not s.subsets:
        return {}
    out: dict[str, Any] = {"exact": s.exact_match, "total": s.n}
    for name in SUBSETS:
        sub = s.subsets.get(name)
        if sub is not None:
            out.update({f"{name}_exact": sub.exact_match, f"{name}_f1": sub.f1, f"{name}_total": sub.n})
    return out


def entry_json(entry: Any) -> dict[str, Any]:
    """A set or ablation entry as written to ``results.json``: ``asdict`` without an empty
    ``subsets`` (results of data without unanswerable questions keep their v1.1 shape)."""
    out = asdict(entry)
    if out.get("subsets") is None:
        out.pop("subsets", None)
    return out


def _model_json(model: ModelRecord) -> dict[str, Any]:
    out = asdict(model)
    if out["no_answer"] is None:  # v1.1 results keep their shape
        del out["no_answer"]
    return out


_STRATUM = Field(pattern=r"^[1-9][0-9]*(\+|-[1-9][0-9]*)?$",
                 description="a stratum label such as '5', '10-14' or '15+'")


class ContextShape(BaseModel):
    """The audited data's median context length beside the reference's, in sentence units: stratum labels
    (`"2"` … `"9"`, `"10-14"`, `"15+"`: `mrclens.stats.chance.STRATA`); it picks the stratum of the structure term
    the drops were read with (issue 41). Read into `Results.context_shape`, a dict."""

    model_config = ConfigDict(strict=True, defer_build=True)  # built when a file is first read
    sentences: str = _STRATUM
    reference_sentences: str = _STRATUM


def _written_only(what: str) -> Any:
    """A key MRCLens writes for other readers and does not read back (no default: absent unless written)."""
    return Field(default_factory=lambda: None, description=f"{what} (the official SQuAD v2.0 script's name; "
                                                           "written for its readers, not read back)")


#: The figures of a v2.0 set under the official v2.0 script's names (:func:`official_v2_names`).
_OFFICIAL_V2_KEYS = {"exact": (float | None, _written_only("= exact_match")), "total": (int, _written_only("= n")),
                     **{f"{s}_{k}": (kind, _written_only(f"= subsets.{s}.{name}")) for s in SUBSETS
                        for k, kind, name in (("exact", float | None, "exact_match"), ("f1", float | None, "f1"),
                                              ("total", int, "n"))}}

#: How ``results.json`` is read (:class:`~mrclens.artifacts.record_models.RecordFormat`): its records, and what the
#: file says beyond their own fields and defaults: the value a key that older files lack reads as, the keys required
#: although the record has a default (``Field(...)``), the constraints. Its JSON Schema is ``docs/results.schema.json``
#: (:mod:`mrclens.artifacts.results_schema`).
RESULTS_FORMAT = RecordFormat(
    Results,
    read_as={
        Results: {"mrclens_version": "", "created": "", "seed": 0, "sets": Field(...), "ablations": Field(...),
                  "categories": Field(...),
                  "format_version": Field(1, ge=1, le=FORMAT_VERSION, description="absent in files written before "
                                          "versions were recorded: 1"),
                  "task": Annotated[Literal[tuple(t.name for t in all_tasks())], Field(DEFAULT_TASK)],
                  "context_shape": Annotated[ContextShape | None, Field(None)]},
        ModelRecord: {"name": None}, BootstrapSettings: {"seed": 0}, InputFile: {"sha256": None},
        SetResult: {"file": None},
        ChangedOnly: dict.fromkeys(("f1", "baseline_f1", "f1_drop", "ci_low", "ci_high")),
        CategoryResult: {"evaluated": [], "f1_drop": None, "ci_low": None, "ci_high": None},
        ReplicateRecord: {"reader_seed": None, "perturbed_dir": "", "predictions_dir": ""},
        AuditRecord: {"options": {}, "split": None, "model_dir": "", "training_log": None},
        TrainingRecord: TRAINING_READ_AS},
    extra={SetResult: _OFFICIAL_V2_KEYS},
    labels={"sets": ("set {key}", "set {key}"), "ablations": ("ablation {id}", "ablation #{n}"),
            "categories": ("category {category}", "category #{n}"),
            "model_free": ("model_free #{n}", "model_free #{n}"),
            "replicates": ("replicate #{n}", "replicate #{n}"), "inputs": ("input #{n}", "input #{n}"),
            "subsets": ("subsets: {key}", "subsets: {key}")},
    title=f"MRCLens results.json (format version {FORMAT_VERSION})",
    description="The typed results of `mrclens audit` or `mrclens evaluate --out` (mrclens.artifacts.results). EM, F1 "
                "and accuracy are percentages (0-100); drops and CI bounds are percentage points; null marks a number "
                "that could not be computed; step times are seconds; relative paths are relative to the folder that "
                "holds results.json. A key absent from an older file reads as its default. Regenerate with "
                "`python -m mrclens.artifacts.results_schema`.")


def write_results(results: Results, out_dir: str | os.PathLike) -> tuple[Path, Path]:
    """Write ``out_dir/results.json`` (indented) and ``out_dir/results.csv``, each atomically.

    Returns:
        the two paths. The directory is created if missing.
    """
    out_dir = Path(out_dir)
    json_path = atomic_write_json(out_dir / RESULTS_JSON, results.to_json(), indent=2)
    buf = io.StringIO()
    results_frame(results).to_csv(buf, index=False, lineterminator="\n")
    csv_path = atomic_write_text(out_dir / RESULTS_CSV, buf.getvalue())
    return json_path, csv_path


def read_results(results_dir: str | os.PathLike) -> Results:
    """Read and check ``results_dir/results.json`` (``mrclens.load_results``): the results an audit
    (``mrclens audit --out DIR``) or an evaluation (``mrclens evaluate --out DIR``) wrote, in any format version
    up to :data:`FORMAT_VERSION` (a file without ``format_version`` is read as version 1).

    Args:
        results_dir: the output directory of the audit or evaluation (the one holding ``results.json``).

    Returns:
        the typed :class:`Results`; ``.to_pandas()`` gives its tables.

    Raises:
        ArtifactError: the file is absent, not JSON, or malformed (the message names the file and field), of a
            newer format version, or ``results_dir`` is a file, not a directory.
    """
    path = Path(results_dir) / RESULTS_JSON
    if Path(results_dir).exists() and not Path(results_dir).is_dir():
        raise ArtifactError(ArtifactMsg.NOT_A_DIR.format(path=results_dir, command="audit` or `mrclens evaluate"))
    return Results.from_json(_files.read_json_object(path, RESULTS_HINT), path)
