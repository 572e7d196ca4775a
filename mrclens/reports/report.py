"""Build the self-contained HTML bias report from an audit directory.

Inputs (the layout ``mrclens audit`` and ``mrclens evaluate … --out DIR`` write, :mod:`mrclens.artifacts.layout`)::

    DIR/results.json            every figure (:mod:`mrclens.artifacts.results`)
    DIR/question-scores.json    official EM/F1 per question and set (:mod:`mrclens.artifacts.question_scores`)
    DIR/perturbed/              original.json, original-truncated.json, e1.json … + manifest.json
    DIR/predictions/<set>.json  official prediction files {"question id": "answer text"}
    DIR/shortcut-questions.jsonl  per question, its shortcut evidence (:mod:`mrclens.artifacts.shortcut_questions`;
                                an audit's; the most exposed questions, :mod:`mrclens.reports.exposed`)

``results.json``'s ``paths.perturbed_dir`` / ``paths.predictions_dir`` are used when present
(relative paths are resolved against ``DIR``). Nothing is re-run and nothing is scored again:
the page renders the results and per-question scores that scoring computed (passed in by
:func:`mrclens.publish.write_outputs`, or read back from the files by ``mrclens report DIR``);
the sets and prediction files are read only to show the example texts (and the evidence of the most exposed
questions is located again in them, :func:`mrclens.reports.exposed.exposed_section`).

The page reads the typed results (:class:`~mrclens.artifacts.results.Results` and its records, the
same objects the card and the terminal summary read; the template reads their attributes, e.g.
``{{ a.reference_bias }}``) and the display strings computed from them (:func:`build_context`); the
dict form of the results (:meth:`~mrclens.artifacts.results.Results.to_json`) is only for the file.

The page is rendered with Jinja2 with autoescaping on: dataset text (contexts, questions,
answers, predictions) is untrusted and always shown as text. It carries a Content-Security-
Policy that forbids scripts and every network request, inline CSS, and charts as inline SVG,
so the one file can be opened, mailed and printed anywhere.
"""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path
from typing import Any, Mapping, Protocol

import jinja2
from markupsafe import Markup

from mrclens import __version__
from mrclens.artifacts.layout import PERTURBED_DIR, PREDICTIONS_DIR, REPORT_HTML, RESULTS_JSON, set_file_name
from mrclens.artifacts.manifest import PerturbationManifest, read_manifest
from mrclens.artifacts.predictions import read_predictions
from mrclens.artifacts.question_scores import SetQuestionScores, read_question_scores
from mrclens.artifacts.results import (AblationResult, CategoryResult, ReplicateFigures, ReplicateRecord, Results,
                                      read_results)
from mrclens.categories import colour_of, known_direction, toward_bias
from mrclens.errors import ArtifactError, ArtifactMsg, DataError, MRCLensError, PredictionsError
from mrclens.formats import LOAD_SET
from mrclens.io_utils import atomic_write_text
from mrclens.reports.charts import drop_chart_svg
from mrclens.reports.examples import DEFAULT_EXAMPLES, span_example_block, span_report_facts
from mrclens.reports.exposed import ExposedSection, exposed_section
from mrclens.reports.forest import forest_svg, results_rows, scale_note
from mrclens.reports.glance import category_glance
from mrclens.reports.mc_examples import mc_example_block, mc_report_facts
from mrclens.reports.formatting import PCT_DECIMALS, fmt_ci, fmt_int, fmt_pct, fmt_value, label
from mrclens.metrics.bootstrap import CONFIDENCE, confidence_label, family_ci_label, fmt_bound, interval_side
from mrclens.squad import Dataset
from mrclens.tasks import MULTIPLE_CHOICE, SPAN, Task, TaskTable, task_of
from mrclens.verdicts import EVIDENCE_NAMES, INCONCLUSIVE, evidence_level, reading

#: A CI wider than this (percentage points) is flagged as imprecise in the verdict.
WIDE_CI = 10.0
#: Badge text for the results' ``evidence`` levels: :attr:`mrclens.verdicts.EvidenceLevel.badge`.



def _badge(level: Any, missing: str) -> str:
    """The report's badge of an evidence level (:attr:`mrclens.verdicts.EvidenceLevel.badge`), ``missing`` for none."""
    return evidence_level(level).badge if level in EVIDENCE_NAMES else missing


# --------------------------------------------------------------------------- formatting


def ci_summary(low: Any, high: Any, confidence: float = CONFIDENCE) -> dict[str, str]:
    """What a confidence interval (95% by default) says about the F1 drop (is it distinguishable from zero?).

    Rule: the paired-bootstrap percentile interval (Efron & Tibshirani 1993) excludes 0 →
    ``"clear"``; it includes or touches 0 → ``"inconclusive"``, decided with the bounds as the
    text shows them (:func:`mrclens.metrics.bootstrap.interval_side`: ``[0.0, 0.5]`` touches 0); a width over :data:`WIDE_CI` points is
    flagged as imprecise (too few items). Whether a drop means a bias depends on the
    ablation's direction and is said by the reading.

    Returns:
        ``{"level": "clear" | "inconclusive" | "unknown", "text": one sentence}``. The
        bias-aware evidence level (strong/moderate/weak/none) is the results' own ``evidence``
        field (:mod:`mrclens.scoring.readings`); this summary only complements it.
    """
    if fmt_ci(low, high) == "":
        return {"level": "unknown", "text": "no confidence interval was computed"}
    width = float(high) - float(low)
    wide = f"; the interval is wide ({width:.{PCT_DECIMALS}f} points), so the size is imprecise" if width > WIDE_CI else ""
    side = interval_side(low, high)  # decided with the bounds as shown (issue 33: never "[0.0, 0.5] above zero")
    shown = f"[{fmt_bound(low)}, {fmt_bound(high)}]"
    if side is not None:
        return {"level": "clear", "text": f"the drop is real: its {confidence_label(confidence)} {shown} lies entirely {side} zero{wide}"}
    return {"level": "inconclusive", "text": f"the drop is not distinguishable from zero: its {confidence_label(confidence)} {shown} includes or touches zero{wide}"}


# --------------------------------------------------------------------------- generic sections


def section_blocks(value: Any, depth: int = 0) -> list[dict[str, Any]]:
    """Turn any JSON value of a ``results.json`` section into display blocks for the template.

    Rules: scalars of a dict become one key/value table; a list of dicts becomes a table whose
    columns are the union of their keys (first-seen order); a dict whose values are all dicts
    becomes a table with the key as the first column when those dicts hold scalars only;
    other nested values become sub-sections (up to depth 3, then JSON text). Keys named
    ``title`` / ``description`` / ``note`` of a section are shown as its heading/paragraph.

    Returns:
        a list of ``{"kind": "text"|"kv"|"table"|"sub", ...}`` blocks; values are already
        formatted strings (autoescaped by the template).
    """
    blocks: list[dict[str, Any]] = []
    if isinstance(value, Mapping):
        scalars = [(k, v) for k, v in value.items() if _is_scalarish(v) and k not in ("title", "description", "note")]
        for key in ("description", "note"):
            if isinstance(value.get(key), str):
                blocks.append({"kind": "text", "text": value[key]})
        if scalars:
            blocks.append({"kind": "kv", "rows": [(label(k), fmt_value(v)) for k, v in scalars]})
        for k, v in value.items():
            if _is_scalarish(v) or k in ("title", "description", "note"):
                continue
            title = v.get("title") if isinstance(v, Mapping) and isinstance(v.get("title"), str) else label(k)
            table = _as_table(v)
            if table is not None:
                blocks.append({"kind": "sub", "title": title, "blocks": [table]})
            elif depth >= 3:
                blocks.append({"kind": "sub", "title": title, "blocks": [{"kind": "text", "text": fmt_value(v)}]})
            else:
                blocks.append({"kind": "sub", "title": title, "blocks": section_blocks(v, depth + 1)})
    else:
        table = _as_table(value)
        blocks.append(table if table is not None else {"kind": "text", "text": fmt_value(value)})
    return blocks


def _is_scalarish(v: Any) -> bool:
    return v is None or isinstance(v, (str, int, float, bool)) or (
        isinstance(v, (list, tuple)) and all(x is None or isinstance(x, (str, int, float, bool)) for x in v))


def _as_table(v: Any) -> dict[str, Any] | None:
    if isinstance(v, list) and v and all(isinstance(r, Mapping) for r in v):
        cols: list[str] = []
        for r in v:
            cols += [k for k in r if k not in cols]
        return {"kind": "table", "columns": [label(c) for c in cols],
                "rows": [[fmt_value(r.get(c)) for c in cols] for r in v]}
    if isinstance(v, Mapping) and v and all(isinstance(r, Mapping) and all(_is_scalarish(x) for x in r.values())
                                            for r in v.values()):
        cols = []
        for r in v.values():
            cols += [k for k in r if k not in cols]
        return {"kind": "table", "columns": [""] + [label(c) for c in cols],
                "rows": [[str(k)] + [fmt_value(r.get(c)) for c in cols] for k, r in v.items()]}
    return None


# --------------------------------------------------------------------------- loading


def _resolve(results_dir: Path, results: Results, key: str, default: str) -> Path:
    value = results.paths.get(key)
    path = Path(value) if value else Path(default)
    return path if path.is_absolute() else results_dir / path


class _Sources:
    """Lazy, cached access to the perturbed sets, prediction files and per-question scores.

    Problems become notes on the page, not crashes.
    """

    def __init__(self, perturbed_dir: Path, predictions_dir: Path,
                 question_scores: Mapping[str, SetQuestionScores | None] | None, scores_note: str | None):
        self.perturbed_dir = perturbed_dir
        self.predictions_dir = predictions_dir
        self.notes: list[str] = [scores_note] if scores_note else []
        self._sets: dict[str, Dataset | None] = {}
        self._preds: dict[str, dict[str, str] | None] = {}
        self._scores = dict(question_scores or {})
        self._lookups: dict[str, dict[str, tuple[float, float]] | None] = {}
        self.manifest: PerturbationManifest | None = None
        try:
            self.manifest = read_manifest(perturbed_dir)
        except ArtifactError as err:
            self.notes.append(f"{err}; changed items are found by comparing the texts")

    def manifest_json(self) -> dict[str, Any]:
        return self.manifest.to_json() if self.manifest is not None else {}

    def set_file(self, name: str) -> Path:
        files = self.manifest.set_files() if self.manifest is not None else {}
        return self.perturbed_dir / files.get(name, set_file_name(name))

    @property
    def task(self) -> Task:
        """The task of the perturbed sets (span extraction where no manifest says otherwise)."""
        return task_of(self.manifest)

    def dataset(self, name: str) -> Dataset | None:
        if name not in self._sets:
            path = self.set_file(name)
            try:
                self._sets[name] = LOAD_SET.of(self.task)(path)
            except FileNotFoundError:
                self._sets[name] = None
                self.notes.append(f"{path}: not found")
            except DataError as err:
                self._sets[name] = None
                self.notes.append(f"{path}: not a valid {self.task.data_label} file ({len(err.problems)} problem(s), first: {err.problems[0]})")
        return self._sets[name]

    def predictions(self, name: str) -> dict[str, str] | None:
        if name not in self._preds:
            path = self.predictions_dir / f"{name}.json"
            try:
                self._preds[name] = read_predictions(path, self.task.name)
            except FileNotFoundError:
                self._preds[name] = None
                self.notes.append(f"{path}: not found; predictions on this set are not shown")
            except PredictionsError as err:
                self._preds[name] = None
                self.notes.append(str(err))
        return self._preds[name]

    def scores(self, name: str) -> dict[str, tuple[float, float]] | None:
        """``{question id: (EM, F1)}`` of the set as scored (0–1), or ``None`` when not available."""
        if name not in self._lookups:
            entry = self._scores.get(name)
            self._lookups[name] = entry.lookup() if entry is not None else None
        return self._lookups[name]


# --------------------------------------------------------------------------- the page model


def _ablation_rows(results: Results, confidence: float) -> list[dict[str, Any]]:
    """One row per ablation: ``{"result": its AblationResult, "…_text": display strings}`` (the template reads
    the record's own fields from ``result``, the formatted figures from the row)."""
    rows = []
    for a in results.ablations:
        changed_only = a.changed_only
        rows.append({
            "result": a,
            "signal_text": (signal.text if (signal := known_direction(a.bias_signal)) else a.bias_signal or ""),
            "n_text": fmt_int(a.n),
            "changed_text": fmt_int(a.changed),
            "em_text": fmt_pct(a.exact_match),
            "f1_text": fmt_pct(a.f1),
            "baseline_f1_text": fmt_pct(a.baseline_f1),
            "drop_text": fmt_pct(a.f1_drop),
            "ci_text": fmt_ci(a.ci_low, a.ci_high),
            "em_drop_text": fmt_pct(a.em_drop),
            "changed_drop_text": fmt_pct(changed_only.f1_drop if changed_only else None),
            "changed_ci_text": fmt_ci(changed_only.ci_low, changed_only.ci_high) if changed_only else "",
            "changed_n_text": fmt_int(changed_only.n if changed_only else None),
            "ci_summary": ci_summary(a.ci_low, a.ci_high, confidence),
            "relative_text": fmt_pct(a.relative_drop),
            "relative_ci_text": fmt_ci(a.relative_ci_low, a.relative_ci_high),
            "excess_text": _excess_text(a),
            "reference_text": reference_text(a) + (
                f" (here {a.compared_value:.1f}%, {a.reference} {a.reference_value:.1f}% "
                f"{fmt_ci(a.reference_ci_low, a.reference_ci_high)})"
                if a.reference_bias not in (None, INCONCLUSIVE.name) else ""),
            "evidence_text": (_badge(a.evidence, "") if a.evaluated else "not evaluated")
                             if not a.control_of else "control (no verdict)",
            "reference_short": reference_short(a),
            "reading_sentences": sentences(a.reading),
        })
    return rows


def _excess_text(a: AblationResult) -> str:
    """The "over its control" cell: the excess drop over the control, the share of the control's loss recovered
    (e4 against c4), "control for eN" for a control, or ``"–"``."""
    if a.excess_drop is not None:
        return f"{fmt_pct(a.excess_drop)} {fmt_ci(a.excess_ci_low, a.excess_ci_high)} (vs {a.control})"
    if a.recovered_share is not None:
        return (f"recovers {fmt_pct(a.recovered_share)}% {fmt_ci(a.recovered_ci_low, a.recovered_ci_high)} "
                f"of {a.control}'s loss")
    return f"control for {a.control_of}" if a.control_of else "–"


_SENTENCE = re.compile(r"(?<=[.!?)])\s+(?=[A-Z(])")


def sentences(text: Any) -> list[str]:
    """A reading split into its sentences (at ``.``/``!``/``?``/``)`` followed by a space and a capital)
    for the structured long reading; ``[]`` for no text.

    >>> sentences("Similarity bias: strong. Mean F1 drop 3.2 points (95% CI 1.0 to 5.1). Verdict: more.")
    ['Similarity bias: strong.', 'Mean F1 drop 3.2 points (95% CI 1.0 to 5.1).', 'Verdict: more.']
    """
    return [t for t in _SENTENCE.split(str(text).strip()) if t] if text else []


def reference_short(entry: AblationResult) -> str:
    """An ablation's comparison with the reference for the table: ``"+30.2 [+21.0, +39.4]"`` (this
    audit's relative (excess) drop minus the reference's, signed towards the bias as the forest plot draws
    it, :func:`mrclens.categories.toward_bias`: ``+`` is more of the bias, for a ``small_drop`` ablation a
    *smaller* drop); ``"–"`` when not compared."""
    d, lo, hi = entry.reference_difference, entry.reference_difference_ci_low, entry.reference_difference_ci_high
    if not all(isinstance(x, (int, float)) for x in (d, lo, hi)):
        return "–"
    d, lo, hi = toward_bias(d, lo, hi, entry.bias_signal)
    return f"{d:+.1f} [{lo:+.1f}, {hi:+.1f}]"


# ---- repeated draws / readers (issue 16): the per-draw spread section


def _replicate_name(r: ReplicateRecord, kinds: set[str]) -> str:
    if kinds == {"reader"}:
        return f"reader {r.reader}"
    if kinds == {"draw"}:
        return f"draw {r.draw}"
    return f"draw {r.draw} × reader {r.reader}"


def _replicate_section(results: Results) -> dict[str, Any] | None:
    """The per-draw (per-reader) figures of every ablation and category, or ``None`` for a single run."""
    records = results.replicates
    if len(records) < 2:
        return None
    kinds = {k for k in ("draw", "reader") if len({getattr(r, k) for r in records}) > 1} or {"draw"}
    columns = [_replicate_name(r, kinds) for r in records]

    def row(entry: AblationResult | CategoryResult, label: str) -> dict[str, Any]:
        cells = []
        for rep in entry.replicates:
            text = f"{fmt_pct(rep.f1_drop)} {fmt_ci(rep.ci_low, rep.ci_high)}"
            if isinstance(rep, ReplicateFigures) and rep.excess_drop is not None:
                text += f" · excess {fmt_pct(rep.excess_drop)}"
            if isinstance(rep, ReplicateFigures) and rep.recovered_share is not None:
                text += f" · recovers {fmt_pct(rep.recovered_share)}%"
            cells.append({"text": text, "evidence": rep.evidence})
        spread = (f"{fmt_pct(entry.f1_drop_min)} to {fmt_pct(entry.f1_drop_max)} (SD {fmt_pct(entry.f1_drop_sd)})"
                  if entry.f1_drop_sd is not None else "–")
        return {"label": label, "cells": cells, "spread": spread,
                "combined": f"{fmt_pct(entry.f1_drop)} {fmt_ci(entry.ci_low, entry.ci_high)}",
                "unstable": entry.unstable}

    return {
        "what": {frozenset({"draw"}): "draws", frozenset({"reader"}): "readers"}.get(frozenset(kinds), "draws × readers"),
        "columns": columns,
        "seeds": [{"name": name, "draw_seed": r.draw_seed, "reader_seed": r.reader_seed}
                  for name, r in zip(columns, records)],
        "method": results.variance_method or "",
        "ablations": [row(a, a.id) for a in results.ablations if a.replicates],
        "categories": [row(c, c.category) for c in results.categories if c.replicates],
    }


def _verdict(results: Results, rows: list[dict[str, Any]], confidence: float, metric: str = "F1") -> list[dict[str, Any]]:
    """One card per bias category: ``{"result": its CategoryResult, display values}``. A category of the
    ablations without an aggregate of its own still gets one (a record with its ablations and no figures,
    "evidence not rated")."""
    categories = [(c, True) for c in results.categories]
    known = {c.category for c in results.categories}
    ablations = [r["result"] for r in rows]
    for a in ablations:  # categories without an aggregate still get a verdict line
        if a.category not in known:
            known.add(a.category)
            categories.append((CategoryResult(a.category, [b.id for b in ablations if b.category == a.category], [],
                                              None, None, None), False))
    out = []
    for c, aggregated in categories:
        members = [r for r in rows if r["result"].id in c.ablations or r["result"].category == c.category]
        out.append({
            "result": c,
            "members": members,
            "drop_text": fmt_pct(c.f1_drop),
            "ci_text": fmt_ci(c.ci_low, c.ci_high),
            "ci_summary": ci_summary(c.ci_low, c.ci_high, confidence),
            "evidence_text": _badge(c.evidence, "evidence not rated") if c.evaluated or not aggregated else "not evaluated",
            "evidence_level": c.evidence if c.evidence in EVIDENCE_NAMES else "unknown",
            "colour": colour_of(str(c.category)),
            "reference_text": reference_text(c),
            "reading_sentences": sentences(c.reading),
            "glance": category_glance(c, results.model_free, metric=metric, confidence=confidence,
                                     external=results.model.kind == "external", ablations=results.ablations),
        })
    return out


def reference_text(entry: AblationResult | CategoryResult) -> str:
    """How an ablation or category compares with the reference audit (issue 17), e.g. ``more than SQuAD
    v1.1: +30.2 [+21.0, +39.4]``; ``""`` when it was not compared. The difference is in percent of the
    baseline F1, signed towards the bias (an ablation's, :func:`mrclens.categories.toward_bias`; a
    category's: the mean over its ablations, already signed so)."""
    bias = entry.reference_bias
    if bias is None:
        return ""
    name = entry.reference or "the reference"
    if entry.reference_difference is None:
        return f"not compared with {name}: the reader is too weak" if bias == INCONCLUSIVE.name else f"{bias} ({name})"
    words = reading(bias).than
    signal = entry.bias_signal if isinstance(entry, AblationResult) else None
    d, lo, hi = toward_bias(entry.reference_difference, entry.reference_difference_ci_low,
                            entry.reference_difference_ci_high, signal)
    mde = entry.reference_mde if isinstance(entry, CategoryResult) else None
    sees = f"; sees {mde:.1f} or more (80 % power)" if isinstance(mde, (int, float)) else ""
    return f"{words} {name}: {d:+.1f} [{lo:+.1f}, {hi:+.1f}]{sees}"


def _sets_rows(results: Results) -> list[dict[str, Any]]:
    return [{"name": name, "file": s.file or "", "n_text": fmt_int(s.n), "em_text": fmt_pct(s.exact_match),
             "f1_text": fmt_pct(s.f1), "missing_text": fmt_int(s.missing), "unknown_text": fmt_int(s.unknown),
             "evaluated": s.evaluated} for name, s in results.sets.items()]


class ReportFacts(Protocol):
    """Role ``"report_facts"`` (:mod:`mrclens.tasks`): the report's "the data" card of the original set,
    from the set and the perturbation manifest (label -> value)."""

    def __call__(self, original: Any, manifest: Mapping[str, Any]) -> dict[str, Any]: ...


class ExampleBlock(Protocol):
    """Role ``"report_examples"``: fills ``block``, one ablation's entry of the report's example viewer,
    in place: up to ``k`` questions of ``ablated`` beside ``baseline`` (the set named ``baseline_name``),
    drawn with ``seed``; ``changed_ids``: the questions the ablation changed (``None``: unknown);
    ``items``: the manifest's per-question change records (``{qid: {"changed", "reason", "detail"}}``), if any;
    ``sources``: the audit's files (predictions and scores per set)."""

    def __call__(self, block: dict[str, Any], baseline: Any, ablated: Any, sources: Any, baseline_name: str, *,
                 ablation_id: str, seed: int, k: int, changed_ids: set[str] | None,
                 items: Mapping[str, Any] | None) -> None: ...


class ExposedQuestions(Protocol):
    """Role ``"report_exposed"`` (optional): the report's most exposed questions per bias category, from the folder's
    per-question shortcut evidence (``results_dir``: the audit folder; ``sources``: the audit's files, its sets and
    predictions); a task without per-question evidence has no entry."""

    def __call__(self, results_dir: str | Path, results: Results, sources: Any) -> ExposedSection | None: ...


REPORT_FACTS: TaskTable[ReportFacts] = TaskTable("report_facts", ReportFacts, {
    SPAN: span_report_facts, MULTIPLE_CHOICE: mc_report_facts})
REPORT_EXAMPLES: TaskTable[ExampleBlock] = TaskTable("report_examples", ExampleBlock, {
    SPAN: span_example_block, MULTIPLE_CHOICE: mc_example_block})
REPORT_EXPOSED: TaskTable[ExposedQuestions] = TaskTable("report_exposed", ExposedQuestions, {SPAN: exposed_section},
                                                       optional=True)


def _dataset_facts(sources: _Sources) -> dict[str, Any] | None:
    """The "the data" card: the task's :data:`REPORT_FACTS` of the original set (``None`` without it)."""
    original = sources.dataset("original")
    if original is None:
        return None
    return REPORT_FACTS.of(sources.task)(original, sources.manifest_json())


def _examples(ablations: list[AblationResult], sources: _Sources, k: int, seed: int) -> list[dict[str, Any]]:
    out = []
    m_ablations = sources.manifest_json().get("ablations") or {}
    fill_examples = REPORT_EXAMPLES.of(sources.task)
    for a in ablations:
        entry = m_ablations.get(a.id) or {}
        baseline_name = a.baseline_set or entry.get("baseline_set") or (
            "original-truncated" if a.eval_set == "truncated" else "original")
        block: dict[str, Any] = {"id": a.id, "name": a.name, "description": a.description,
                                 "baseline_set": baseline_name, "examples": [], "note": None, "flips": None}
        baseline = sources.dataset(baseline_name)
        ablated = sources.dataset(a.id)
        if baseline is None or ablated is None:
            block["note"] = "the perturbed files for this ablation are not available; see the notes at the end"
            out.append(block)
            continue
        items = entry.get("items") if isinstance(entry.get("items"), Mapping) else None
        changed_ids = {q for q, r in items.items() if isinstance(r, Mapping) and r.get("changed")} if items is not None else None
        fill_examples(block, baseline, ablated, sources, baseline_name, ablation_id=a.id, seed=seed, k=k,
                      changed_ids=changed_ids, items=items)
        out.append(block)
    return out


def _provenance(results: Results, sources: _Sources) -> dict[str, Any]:
    model = results.model
    steps = results.step_seconds
    numeric_steps = [v for v in steps.values() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    source = sources.manifest_json().get("source") or {}
    return {
        "general": [("created (UTC)", fmt_value(results.created)),
                    ("MRCLens version", fmt_value(results.mrclens_version)),
                    ("seed", fmt_value(results.seed)),
                    ("model", f"{model.name or '–'} ({model.kind or 'unknown kind'})"),
                    ("perturbation pipeline", fmt_value(sources.manifest_json().get("pipeline"))),
                    ("perturbed from", f"{source.get('file') or '–'} (sha256 {source.get('sha256') or '–'})")],
        "inputs": [{"role": str(i.role), "file": str(i.file), "sha256": str(i.sha256)} for i in results.inputs],
        "config": section_blocks(model.config) if isinstance(model.config, Mapping) and model.config else [],
        "versions": [(str(k), fmt_value(v)) for k, v in results.versions.items()],
        "bootstrap": [(label(f.name), fmt_value(getattr(results.bootstrap, f.name))) for f in fields(results.bootstrap)],
        "steps": [(str(k), fmt_value(v)) for k, v in steps.items()],
        "steps_total": fmt_value(float(sum(numeric_steps))) if numeric_steps else None,
    }


def _data_source(results: Results, sources: _Sources) -> str:
    """The name of the evaluated data file for the title: the audit's ``dev`` input, else its ``train``
    input (a single file split by title), else the perturbation manifest's source file."""
    inputs = [e for e in results.inputs if e.file]
    for role in ("dev", "eval", "evaluation", "data", "train"):  # the evaluation data first
        for entry in inputs:
            if entry.role == role:
                return Path(str(entry.file)).name
    source = (sources.manifest_json().get("source") or {}).get("file")
    return Path(str(source)).name if source else ""


def build_context(results_dir: str | Path, *, results: Results | None = None,
                  question_scores: Mapping[str, SetQuestionScores | None] | None = None,
                  n_examples: int = DEFAULT_EXAMPLES, seed: int | None = None) -> dict[str, Any]:
    """Everything the template shows: the typed results and display values computed from them.

    The template reads the results' own fields from the typed records (``results``, ``model``, each
    ablation row's and category card's ``result``: :class:`~mrclens.artifacts.results.AblationResult`,
    :class:`~mrclens.artifacts.results.CategoryResult`) and the formatted figures (strings) from the rows
    and cards beside them; the dict form of the results (:meth:`Results.to_json`) is only for the file.

    Args:
        results_dir: the audit directory holding ``results.json``.
        results: the results as scoring computed them; read from ``results_dir`` when ``None``.
        question_scores: per-question scores as scoring computed them; read from
            ``results_dir/question-scores.json`` when ``None`` (when that file is absent too, the
            examples are shown without right/wrong marks and a note says why).
        n_examples: examples per ablation in the viewer.
        seed: seed of the example choice; default the audit's own ``seed``.

    Raises:
        ArtifactError: ``results.json`` is absent or malformed (missing perturbed or prediction
            files are not errors: the page says what is missing).
    """
    results_dir = Path(results_dir)
    results = results if results is not None else read_results(results_dir)
    scores_note = None
    if question_scores is None:
        try:
            question_scores = read_question_scores(results_dir)
        except ArtifactError as err:
            scores_note = f"{err}; examples are shown without right/wrong marks"
    confidence = results.bootstrap.confidence
    sources = _Sources(_resolve(results_dir, results, "perturbed_dir", PERTURBED_DIR),
                       _resolve(results_dir, results, "predictions_dir", PREDICTIONS_DIR), question_scores, scores_note)
    seed = int(results.seed or 0) if seed is None else seed
    rows = _ablation_rows(results, confidence)
    sections = [{"key": str(key), "title": (value.get("title") if isinstance(value, Mapping) and isinstance(value.get("title"), str) else label(key)),
                 "blocks": section_blocks(value)} for key, value in results.sections.items()]
    data_source = _data_source(results, sources)
    verdict = _verdict(results, rows, confidence, results.metric)
    forest = results_rows(results)
    reference_name = next((c.reference for c in results.categories if c.reference), None)
    training = results.audit.training if results.audit else None
    exposed_of = REPORT_EXPOSED.get(sources.task)  # issue 56: the questions that carry each shortcut
    exposed = exposed_of(results_dir, results, sources) if exposed_of is not None else None
    return {
        "title": "MRCLens bias report" + (f" — {data_source}" if data_source else ""),
        "data_source": data_source,
        "results": results,
        "model": results.model,
        "verdict": verdict,
        "reference_name": reference_name,
        "forest_svg": forest_svg(forest, reference=reference_name or "the reference",
                                 colours={c["result"].category: c["colour"] for c in verdict}),
        "forest_scale": scale_note(forest),
        "forest_flipped": sorted({r.label.split(" ", 1)[0] for r in forest if r.flipped and r.kind == "ablation"}),
        "ablations": rows,
        "has_reference": any(a.reference_bias is not None for a in results.ablations),
        "replicates": _replicate_section(results),
        "chart_svg": Markup(drop_chart_svg(results.ablations, results.categories, results.metric)),
        "exposed": exposed,
        "examples": _examples(results.ablations, sources, n_examples, seed),
        "sets": _sets_rows(results),
        "v2": v2_view(results),  # SQuAD v2.0 HasAns/NoAns view (None without unanswerable questions)
        "facts": _dataset_facts(sources),
        "provenance": _provenance(results, sources),
        "sections": sections,
        "notes": [str(w) for w in results.warnings] + sources.notes,
        "training_notice": training.notice() if training else None,
        "training_summary": training.summary() if training else None,
        "decimals": PCT_DECIMALS,
        "n_examples": n_examples,
        "example_seed": seed,
        "ci_label": confidence_label(confidence),
        # one audit compares its categories at one level (family-wise over them)
        "category_ci_label": family_ci_label(next((c.reference_confidence for c in results.categories
                                                   if c.reference_confidence is not None), None), confidence),
        "metric": results.metric,  # "F1", or "accuracy" for multiple-choice results (issue 20)
        "metric_phrase": task_of(results).metric_phrase,
        "ci_level": confidence_label(confidence).replace(" CI", ""),
        "generator": f"MRCLens {__version__}",
    }

from mrclens.reports.no_answer import v2_view  # noqa: E402  (kept next to its one use)


def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader("mrclens.reports", "templates"),
                              autoescape=True,
                              trim_blocks=True, lstrip_blocks=True)


def render_report(results_dir: str | Path, *, results: Results | None = None,
                  question_scores: Mapping[str, SetQuestionScores | None] | None = None,
                  n_examples: int = DEFAULT_EXAMPLES, seed: int | None = None) -> str:
    """The report for ``results_dir`` as one self-contained HTML document (text); arguments as :func:`build_context`.

    Raises:
        ArtifactError: ``results.json`` is absent or malformed.
    """
    context = build_context(results_dir, results=results, question_scores=question_scores, n_examples=n_examples, seed=seed)
    return _environment().get_template("report.html").render(**context)


def write_report(results_dir: str | Path, out_file: str | Path | None = None, *, results: Results | None = None,
                 question_scores: Mapping[str, SetQuestionScores | None] | None = None,
                 n_examples: int = DEFAULT_EXAMPLES, seed: int | None = None) -> Path:
    """Render the report and write it atomically (default ``results_dir/report.html``).

    Renders the given (or saved) results and per-question scores; reads the perturbed sets and
    prediction files for the example texts only; runs no model and scores nothing.

    Returns:
        the path written.

    Raises:
        ArtifactError: ``results.json`` is absent or malformed;
        MRCLensError: ``out_file`` does not end in ``.html``/``.htm`` (so no input file can be overwritten).
    """
    results_dir = Path(results_dir)
    out = Path(out_file) if out_file is not None else results_dir / REPORT_HTML
    if out.suffix.lower() not in (".html", ".htm"):
        raise MRCLensError(ArtifactMsg.REPORT_NOT_HTML.format(path=out))
    html = render_report(results_dir, results=results, question_scores=question_scores, n_examples=n_examples, seed=seed)
    return atomic_write_text(out, html, protect=(results_dir / RESULTS_JSON,))
