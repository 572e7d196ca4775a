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
older files and where the reader was too weak), and for an ``"inconclusive"`` category
``"reference_why"``: ``"weak"`` (the reader is too weak), ``"cannot tell"`` (an interval reaches beyond
its band) or ``"opposite"`` (the drops and the data point opposite ways); for a "more" or "less" read from the
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
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Mapping

from mrclens import __version__
from mrclens.artifacts import _files
from mrclens.artifacts.layout import RESULTS_CSV, RESULTS_JSON
from mrclens.artifacts.result_records import (AblationResult, AuditRecord, BootstrapSettings, CategoryReplicate,
                                              CategoryResult, ChangedOnly, InputFile, ModelFreeFigure, ModelRecord,
                                              ReplicateFigures, ReplicateRecord, SetResult, SubsetDrop, SubsetScore)
from mrclens.artifacts.results_csv import RESULTS_HINT, results_frame
from mrclens.artifacts.training_record import TrainingRecord
from mrclens.errors import ArtifactError, ArtifactMsg
from mrclens.io_utils import atomic_write_json, atomic_write_text
from mrclens.tasks import DEFAULT_TASK, get_task, read_task_name, task_field

#: The records of the file (:mod:`mrclens.artifacts.result_records`), re-exported here: import them from this module.
__all__ = ["AblationResult", "AuditRecord", "BootstrapSettings", "CategoryReplicate", "CategoryResult", "ChangedOnly",
           "FORMAT_VERSION", "InputFile", "ModelFreeFigure", "ModelRecord", "ReplicateFigures", "ReplicateRecord",
           "Results", "SUBSETS", "SetResult", "SubsetDrop", "SubsetScore", "entry_json", "official_v2_names",
           "package_versions", "read_results", "utc_now", "write_results"]

#: The results format this MRCLens writes and the newest it reads.
FORMAT_VERSION = 1

#: The SQuAD v2.0 question subsets (official ``evaluate-v2.0.py`` names).
SUBSETS = ("HasAns", "NoAns")
_PACKAGES = ("spacy", "torch", "numpy", "pandas", "scikit-learn")
_NUM = (float, type(None))
_INT = (int, type(None))
_STR = (str, type(None))
_DF = (int, float, type(None))  # degrees of freedom: a count, or null for the normal distribution


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
        """Parse and check a results object read from ``path`` (named in every error).

        Raises:
            ArtifactError: a field is missing or has the wrong type, or the format is newer than
                this MRCLens reads.
        """
        version = _files.check_version(obj, path, FORMAT_VERSION)
        f = _files.field
        model = f(obj, "model", dict, path)
        boot = f(obj, "bootstrap", dict, path)
        sets = {name: _set(s, path, f"set {name}: ") for name, s in f(obj, "sets", dict, path).items()}
        ablations = [_ablation(a, path, i) for i, a in enumerate(f(obj, "ablations", list, path))]
        categories = [_category(c, path, i) for i, c in enumerate(f(obj, "categories", list, path))]
        audit = f(obj, "audit", (dict, type(None)), path, "", None)
        return cls(
            mrclens_version=f(obj, "mrclens_version", str, path, "", ""),
            created=f(obj, "created", str, path, "", ""),
            seed=f(obj, "seed", int, path, "", 0),
            model=ModelRecord(f(model, "kind", str, path, "model: "), f(model, "name", _STR, path, "model: ", None),
                              f(model, "config", (dict, type(None)), path, "model: ", None),
                              f(model, "no_answer", (dict, type(None)), path, "model: ", None)),
            bootstrap=BootstrapSettings(f(boot, "n_resamples", int, path, "bootstrap: "),
                                        f(boot, "confidence", float, path, "bootstrap: "),
                                        f(boot, "seed", int, path, "bootstrap: ", 0)),
            inputs=[InputFile(f(i, "role", str, path, "inputs: "), f(i, "file", str, path, "inputs: "),
                              f(i, "sha256", _STR, path, "inputs: ", None))
                    for i in f(obj, "inputs", list, path, "", [])],
            versions=dict(f(obj, "versions", dict, path, "", {})),
            step_seconds=dict(f(obj, "step_seconds", dict, path, "", {})),
            sets=sets, ablations=ablations, categories=categories,
            paths=dict(f(obj, "paths", dict, path, "", {})),
            warnings=[str(w) for w in f(obj, "warnings", list, path, "", [])],
            sections=dict(f(obj, "sections", dict, path, "", {})),
            audit=None if audit is None else AuditRecord(
                options=dict(f(audit, "options", dict, path, "audit: ", {})),
                split=f(audit, "split", (dict, type(None)), path, "audit: ", None),
                model_dir=f(audit, "model_dir", str, path, "audit: ", ""),
                training_log=f(audit, "training_log", (list, type(None)), path, "audit: ", None),
                option_sources=dict(f(audit, "option_sources", dict, path, "audit: ", {})),
                training=_training(audit, path)),
            format_version=version,
            replicates=[_replicate_record(r, path) for r in f(obj, "replicates", list, path, "", [])],
            variance_method=f(obj, "variance_method", _STR, path, "", None),
            model_free=[_model_free(m, path, i) for i, m in enumerate(f(obj, "model_free", list, path, "", []))],
            task=read_task_name(f(obj, "task", str, path, "", DEFAULT_TASK), str(path)),
            context_shape=_context_shape(f(obj, "context_shape", (dict, type(None)), path, "", None), path),
        )


def _context_shape(obj: dict | None, path: Any) -> dict[str, str] | None:
    """``context_shape`` (schema in the module docstring), checked: two stratum labels of sentence units
    (``"2"`` … ``"9"``, ``"10-14"``, ``"15+"``: :data:`mrclens.stats.chance.STRATA`).

    Raises:
        ArtifactError: a key is missing, not a string or not a stratum label (the message names the file).
    """
    import re

    if obj is None:
        return None
    f = _files.field
    shape = {k: f(obj, k, str, path, "context_shape: ") for k in ("sentences", "reference_sentences")}
    for k, label in shape.items():
        if not re.fullmatch(r"[1-9][0-9]*(\+|-[1-9][0-9]*)?", label):
            raise ArtifactError(f"{path}: context_shape: {k} must be a stratum label such as '5', '10-14' or '15+', "
                                f"got {label!r}")
    return shape


def _model_free(obj: Any, path: Any, i: int) -> ModelFreeFigure:
    f = _files.field
    where = f"model_free #{i + 1}: "
    values = {}
    for fl in fields(ModelFreeFigure):
        if fl.name in ("category", "path", "label", "bias_when"):
            values[fl.name] = f(obj, fl.name, str, path, where)
        elif fl.name == "role":
            values[fl.name] = f(obj, fl.name, str, path, where, "verdict")
        elif fl.name == "reference_standardised":
            values[fl.name] = f(obj, fl.name, bool, path, where, False)
        elif fl.name == "margin":
            values[fl.name] = float(f(obj, fl.name, (float, int), path, where, 0.0))
        elif fl.name in ("reference", "comparison"):
            values[fl.name] = f(obj, fl.name, _STR, path, where, None)
        elif fl.name == "difference_df":
            values[fl.name] = f(obj, fl.name, _DF, path, where, None)
        elif fl.name in ("n", "reference_n", "articles"):
            values[fl.name] = f(obj, fl.name, int if fl.name == "n" else _INT, path, where, ... if fl.name == "n" else None)
        else:
            values[fl.name] = f(obj, fl.name, float if fl.name in ("value", "ci_low", "ci_high") else _NUM, path, where,
                                ... if fl.name in ("value", "ci_low", "ci_high") else None)
    return ModelFreeFigure(**values)


def _training(audit: Any, path: Any) -> TrainingRecord | None:
    obj = _files.field(audit, "training", (dict, type(None)), path, "audit: ", None)
    return None if obj is None else TrainingRecord.from_json(obj, path, "audit: training: ")
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


def _subsets(obj: Any, path: Any, where: str, cls: type) -> dict[str, Any] | None:
    """Parse an optional ``subsets`` object (``{"HasAns": {...}, "NoAns": {...}}``) into ``cls`` entries."""
    f = _files.field
    raw = f(obj, "subsets", (dict, type(None)), path, where, None)
    if raw is None:
        return None
    out = {}
    for name, entry in raw.items():
        w = f"{where}subsets: {name}: "
        values = {fl.name: f(entry, fl.name, int if fl.name == "n" else (_INT if fl.name == "abstained" else _NUM),
                             path, w, ... if fl.name == "n" else fl.default) for fl in fields(cls)}
        out[name] = cls(**values)
    return out


def _model_json(model: ModelRecord) -> dict[str, Any]:
    out = asdict(model)
    if out["no_answer"] is None:  # v1.1 results keep their shape
        del out["no_answer"]
    return out


def _set(s: Any, path: Any, where: str) -> SetResult:
    f = _files.field
    return SetResult(file=f(s, "file", _STR, path, where, None), n=f(s, "n", int, path, where),
                     exact_match=f(s, "exact_match", _NUM, path, where, None), f1=f(s, "f1", _NUM, path, where, None),
                     missing=f(s, "missing", _INT, path, where, None), unknown=f(s, "unknown", _INT, path, where, None),
                     evaluated=f(s, "evaluated", bool, path, where, True),
                     reason_not_evaluated=f(s, "reason_not_evaluated", _STR, path, where, None),
                     subsets=_subsets(s, path, where, SubsetScore))


_ABLATION_TYPES = {"name": str, "category": str, "eval_set": str, "baseline_set": str, "bias_signal": str,
                   "description": str, "evaluated": bool, "unchanged_by_reason": dict, "n": _INT, "changed": _INT,
                   "unpaired": _INT, "reading": _STR, "evidence": _STR, "reason_not_evaluated": _STR,
                   "control_of": _STR, "control": _STR, "excess_n": _INT, "unstable": (bool, type(None)),
                   "reference": _STR, "reference_figure": _STR, "reference_bias": _STR, "reference_difference_df": _DF}
_ABLATION_REQUIRED = ("name", "category", "eval_set", "baseline_set", "bias_signal")


def _ablation(a: Any, path: Any, index: int) -> AblationResult:
    f = _files.field
    where = f"ablation #{index + 1}: "
    aid = f(a, "id", str, path, where)
    where = f"ablation {aid}: "
    values: dict[str, Any] = {"id": aid}
    for fl in fields(AblationResult):
        if fl.name in ("id", "changed_only", "replicates", "subsets"):
            continue
        kind = _ABLATION_TYPES.get(fl.name, _NUM)
        if fl.name in _ABLATION_REQUIRED:
            default: Any = ...
        elif fl.name == "unchanged_by_reason":
            default = {}
        else:
            default = fl.default
        values[fl.name] = f(a, fl.name, kind, path, where, default)
    co = f(a, "changed_only", (dict, type(None)), path, where, None)
    if co is not None:
        w = where + "changed_only: "
        co = ChangedOnly(n=f(co, "n", int, path, w), f1=f(co, "f1", _NUM, path, w, None),
                         baseline_f1=f(co, "baseline_f1", _NUM, path, w, None), f1_drop=f(co, "f1_drop", _NUM, path, w, None),
                         ci_low=f(co, "ci_low", _NUM, path, w, None), ci_high=f(co, "ci_high", _NUM, path, w, None))
    reps = [_typed(ReplicateFigures, r, path, f"{where}replicate #{i + 1}: ")
            for i, r in enumerate(f(a, "replicates", list, path, where, []))]
    return AblationResult(**values, changed_only=co, replicates=reps, subsets=_subsets(a, path, where, SubsetDrop))


def _typed(cls, obj: Any, path: Any, where: str):
    """A :class:`ReplicateFigures` / :class:`CategoryReplicate` from its JSON object (``draw``, ``reader`` required)."""
    f = _files.field
    values = {}
    for fl in fields(cls):
        if fl.name in ("draw", "reader"):
            values[fl.name] = f(obj, fl.name, int, path, where)
        else:
            values[fl.name] = f(obj, fl.name, _STR if fl.name == "evidence" else _NUM, path, where, None)
    return cls(**values)


def _replicate_record(r: Any, path: Any) -> ReplicateRecord:
    f = _files.field
    w = "replicates: "
    return ReplicateRecord(draw=f(r, "draw", int, path, w), draw_seed=f(r, "draw_seed", int, path, w),
                           reader=f(r, "reader", int, path, w), reader_seed=f(r, "reader_seed", _INT, path, w, None),
                           perturbed_dir=f(r, "perturbed_dir", str, path, w, ""),
                           predictions_dir=f(r, "predictions_dir", str, path, w, ""))


def _category(c: Any, path: Any, index: int) -> CategoryResult:
    f = _files.field
    where = f"category #{index + 1}: "
    return CategoryResult(category=f(c, "category", str, path, where), ablations=list(f(c, "ablations", list, path, where)),
                          evaluated=list(f(c, "evaluated", list, path, where, [])), f1_drop=f(c, "f1_drop", _NUM, path, where, None),
                          ci_low=f(c, "ci_low", _NUM, path, where, None), ci_high=f(c, "ci_high", _NUM, path, where, None),
                          reading=f(c, "reading", _STR, path, where, None), evidence=f(c, "evidence", _STR, path, where, None),
                          replicates=[_typed(CategoryReplicate, r, path, f"{where}replicate #{i + 1}: ")
                                      for i, r in enumerate(f(c, "replicates", list, path, where, []))],
                          f1_drop_min=f(c, "f1_drop_min", _NUM, path, where, None),
                          f1_drop_max=f(c, "f1_drop_max", _NUM, path, where, None),
                          f1_drop_sd=f(c, "f1_drop_sd", _NUM, path, where, None),
                          unstable=f(c, "unstable", (bool, type(None)), path, where, None),
                          subsets=_subsets(c, path, where, SubsetDrop),
                          reference=f(c, "reference", _STR, path, where, None),
                          reference_bias=f(c, "reference_bias", _STR, path, where, None),
                          reference_basis=f(c, "reference_basis", _STR, path, where, None),
                          reference_why=f(c, "reference_why", _STR, path, where, None),
                          reference_shape=f(c, "reference_shape", _STR, path, where, None),
                          **{k: f(c, k, _NUM, path, where, None) for k in (
                              "reference_difference", "reference_difference_ci_low", "reference_difference_ci_high",
                              "reference_confidence", "reference_mde", "reference_band", "reference_difference_se")},
                          reference_difference_df=f(c, "reference_difference_df", _DF, path, where, None))


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
