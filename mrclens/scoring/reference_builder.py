"""Reference audits built from audits: one audit's figures, several runs combined, an earlier audit as a reference.

The builder side of the reference comparison (:mod:`mrclens.scoring.against_reference` reads an audit against
what this module builds; ``benchmarks/make_reference.py`` writes the shipped file with it):

* :func:`reference_audit_from_results`: one audit's figures (one per evaluated ablation,
  :func:`~mrclens.scoring.against_reference.relative_figure`; points of relative drop);
* :func:`combine_reference_audits`: several runs of one profile, their mean and how much a figure moves between
  training runs (``run_sd``);
* :func:`reference_from_audit` / :func:`read_any_reference`: an earlier audit folder, a reference file, or the
  bundled reference (:mod:`mrclens.artifacts.reference`).
"""

from __future__ import annotations

import math
import os
from dataclasses import replace
from pathlib import Path
from typing import Any, Sequence

from mrclens.artifacts.layout import OutputLayout
from mrclens.artifacts.manifest import truncation_rule_of
from mrclens.artifacts.reference import Reference, ReferenceAudit, ReferenceDrop, ReferenceFigure
from mrclens.artifacts.results import Results
from mrclens.metrics.bootstrap import CONFIDENCE
from mrclens.metrics.estimate import Estimate, excess_spread, round_stored
from mrclens.scoring.against_reference import relative_figure
from mrclens.scoring.model_free import FIGURES


def reference_audit_from_results(results: Results, profile: str, provenance: dict[str, Any] | None = None
                                 ) -> ReferenceAudit:
    """The :class:`~mrclens.artifacts.reference.ReferenceAudit` of an audit's results (one figure per
    evaluated ablation, :func:`relative_figure`)."""
    original = results.sets.get("original")
    drops = {a.id: fig for a in results.ablations for fig in [relative_figure(a)] if fig is not None}
    drops = {k: ReferenceDrop(d.figure, round_stored(d.value), round_stored(d.ci_low), round_stored(d.ci_high), d.n,
                              None if d.f1_drop is None else round_stored(d.f1_drop),
                              None if d.excess_drop is None else round_stored(d.excess_drop)) for k, d in drops.items()}
    prov = {"mrclens_version": results.mrclens_version, "created": results.created, "seed": results.seed,
            "reader_f1": None if original is None or original.f1 is None else round_stored(original.f1),
            **(provenance or {})}
    return ReferenceAudit(profile, None if original is None or original.f1 is None else round_stored(original.f1), prov, drops)


def combine_reference_audits(audits: Sequence[ReferenceAudit], confidence: float = CONFIDENCE) -> ReferenceAudit:
    """One reference audit from several audits of the same data and profile (different ``--seed``).

    Per ablation present in every audit: the value is the mean of the runs' values; the between-run
    SD beyond the runs' own CIs is ``run_sd = sqrt(max(s² − mean(se_i²), 0))`` (``s²``: the sample
    variance of the run values; ``se_i``: each run's CI half-width ÷ z; the method of moments,
    :func:`mrclens.metrics.estimate.excess_spread`), and the CI of the mean is
    ``mean ± z sqrt(s² / k)`` (at least ``± z sqrt(mean(se_i²) / k)``). With two runs ``s²`` rests on
    one difference, so ``run_sd`` is a rough estimate; it is recorded, not hidden.

    Each run's own figures are kept (:attr:`~mrclens.artifacts.reference.ReferenceAudit.run_ablations`, beside
    its provenance), so that a run can be added later (:meth:`~mrclens.artifacts.reference.ReferenceAudit.run_audits`).

    Raises:
        ValueError: no audits, audits of different profiles, or an audit that already combines several runs
            (pass its :meth:`~mrclens.artifacts.reference.ReferenceAudit.run_audits` instead).
    """
    if not audits:
        raise ValueError("combine_reference_audits needs at least one audit")
    if len({a.profile for a in audits}) > 1:
        raise ValueError(f"audits of different profiles: {sorted({a.profile for a in audits})}")
    if any(a.provenance.get("runs") for a in audits):
        raise ValueError("combine_reference_audits takes single runs; an audit that combines several gives them "
                         "with run_audits()")
    if len(audits) == 1:
        return audits[0]
    k = len(audits)
    drops = {}
    for aid in audits[0].ablations:
        runs = [a.ablations.get(aid) for a in audits]
        if any(r is None or r.figure != runs[0].figure for r in runs):
            continue
        each = [Estimate.from_interval(r.ci_low, r.ci_high, confidence, value=r.value) for r in runs]
        spread = excess_spread([e.value for e in each], [e.se for e in each])  # s², mean(se_i²), run_sd
        mean = sum(e.value for e in each) / k
        low, high = Estimate(mean, math.sqrt(max(spread.observed, spread.sampling) / k)).interval(confidence)
        drops[aid] = ReferenceDrop(runs[0].figure, round_stored(mean), round_stored(low), round_stored(high), runs[0].n,
                                   _mean_or_none([r.f1_drop for r in runs]), _mean_or_none([r.excess_drop for r in runs]),
                                   runs=k, run_sd=round_stored(spread.excess_sd))
    f1s = [a.baseline_f1 for a in audits if a.baseline_f1 is not None]
    return ReferenceAudit(audits[0].profile, round_stored(sum(f1s) / len(f1s)) if f1s else None,
                          {"runs": [dict(a.provenance) for a in audits]}, drops,
                          run_ablations=[{k: replace(d, structure_sd=None, cluster_factor=None) for k, d in a.ablations.items()}
                                         for a in audits])


def _mean_or_none(xs: Sequence[float | None]) -> float | None:
    return None if any(x is None for x in xs) else round_stored(sum(xs) / len(xs))


def reference_from_audit(audit_dir: str | os.PathLike) -> Reference:
    """An earlier audit (the folder holding its ``results.json``) as a reference: its model-free figures
    and its drops, under its reader profile (none for an external model's evaluation), with the truncation rule its sets were made with (from its
    ``perturbed/manifest.json``; ``"first"`` when it holds none), so an audit read against it perturbs the same way.

    Raises:
        ArtifactError: no readable ``results.json`` there, or a malformed manifest (the message names the file).
    """
    from mrclens.artifacts.results import read_results

    results = read_results(audit_dir)
    options = (results.audit.options if results.audit is not None else None) or {}
    profile = options.get("profile") or "external"
    name = f"the audit in {Path(audit_dir)}"
    figures = {}
    kinds = {spec.path: spec.kind for spec in FIGURES}
    for f in results.model_free:
        # the standard error its (normal) interval was drawn with
        se = Estimate.from_interval(f.ci_low, f.ci_high, results.bootstrap.confidence, value=f.value).se
        std = se * math.sqrt(f.n) if kinds.get(f.path) == "mean" and f.n else None
        figures[f.path] = ReferenceFigure(f.value, f.n, std, round_stored(se))
    prov = {"source": str(audit_dir), "kind": "audit"}
    if profile is None:  # an external model's evaluation: no reader profile to read a reader's drops against
        return Reference(name, prov, figures)
    audit = reference_audit_from_results(results, profile, prov)
    rule = truncation_rule_of(OutputLayout(audit_dir).perturbed_dir)  # the next audit perturbs the same way
    return Reference(name, prov, figures, {profile: replace(audit, truncation=rule or audit.truncation)})


def read_any_reference(path: str | os.PathLike | None) -> tuple[Reference, Path]:
    """A reference from a reference file or an audit directory (``None``: the bundled reference).

    Returns:
        ``(reference, file)``: ``file`` is the reference file or the audit's ``results.json`` (for its sha256).

    Raises:
        ArtifactError: the file or directory cannot be read as a reference.
    """
    from mrclens import inputs
    from mrclens.artifacts.layout import RESULTS_JSON
    from mrclens.artifacts.reference import BUNDLED_REFERENCE, read_reference

    if path is not None and Path(path).is_dir():
        inputs.declare(Path(path) / RESULTS_JSON)  # an input of the audit: read once, hashed once (mrclens.inputs)
        return reference_from_audit(path), Path(path) / RESULTS_JSON
    file = BUNDLED_REFERENCE if path is None else Path(path)
    inputs.declare(file)
    return read_reference(file), file
