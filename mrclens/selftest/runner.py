"""``mrclens selftest``: audit datasets with planted shortcuts and check the readings (issue 17, part 6).

For each planting of :data:`mrclens.selftest.plantings.PLANTINGS` (default: all), on the bundled
sample (40 SQuAD v1.1 articles) or a given dataset:

1. build the planted dataset and its clean counterpart (:func:`~mrclens.selftest.plantings.plant`)
   and write them as ``OUT/<planting>/planted.json`` and ``clean.json``;
2. audit each (:func:`mrclens.audit.run_audit`; one file split by title, the given reader profile,
   ``OUT/<planting>/planted-audit/`` and ``clean-audit/``; an interrupted selftest resumes there);
3. read the category verdicts (:func:`verdicts`): each category's comparison with the reference
   audit of the same reader profile (``results.json`` ``categories[].reference_bias``,
   :mod:`mrclens.scoring.against_reference`: ``"more"``, ``"in line"``, ``"less"``,
   ``"inconclusive"``), or, when the reference has no audit with that profile, its absolute
   evidence level (``categories[].evidence``, :mod:`mrclens.scoring.readings`).

A planting **passes** when the audit of the planted dataset *flags* its family (:data:`FLAGGED`:
more of the bias than the reference — or, without a reference audit, evidence ``"moderate"`` or
``"strong"``) and the audit of the clean counterpart flags **no** category. This is strict on
purpose: the clean counterpart is the same data without the shortcut, so any category flagged there
is flagged on SQuAD-like data whatever its bias, and a reader of the verdicts cannot tell it from a
finding. The reference is the bundled SQuAD v1.1 reference unless ``audit_options`` name another.

The summary is ``OUT/selftest.json`` (:mod:`mrclens.artifacts.selftest`) and the table of
:func:`format_selftest`. The whole run takes minutes (two quick-profile audits per planting), so it
is a benchmark, not a unit test; its output is recorded in BENCHMARKS.md.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Callable, Sequence

from mrclens import __version__
from mrclens.artifacts.selftest import PlantingVerdict, SelftestReport, write_selftest
from mrclens.errors import MRCLensError
from mrclens.selftest.plantings import PLANTINGS, plant
from mrclens.squad import write_dataset

log = logging.getLogger(__name__)

#: Verdicts that count as flagging a category: more of the bias than the reference, or (without a
#: reference audit for the profile) a moderate or strong absolute evidence level.
FLAGGED = frozenset({"more", "moderate", "strong"})


def verdicts(results) -> dict[str, str | None]:
    """Category → verdict of an audit's results: ``reference_bias`` where the category was read against a
    reference audit, else its evidence level (module docstring)."""
    return {c.category: c.reference_bias if c.reference_bias is not None else c.evidence for c in results.categories}


def judge(planting: str, planted: dict[str, str | None], clean: dict[str, str | None]) -> tuple[bool, str]:
    """Whether a planting passes, and why (rule in the module docstring).

    Args:
        planting: a key of :data:`~mrclens.selftest.plantings.PLANTINGS`.
        planted / clean: category → verdict of each side's audit (:func:`verdicts`).

    >>> judge("overlap", {"Similarity": "more", "Question": "in line"}, {"Similarity": "in line", "Question": "less"})
    (True, 'Similarity flagged (more) on the planted dataset; nothing flagged on the clean counterpart')
    >>> judge("overlap", {"Similarity": "strong"}, {"Similarity": "strong"})[0]
    False
    """
    family = PLANTINGS[planting].family
    got = planted.get(family)
    clean_flagged = [c for c, e in clean.items() if e in FLAGGED]
    parts = []
    if got in FLAGGED:
        parts.append(f"{family} flagged ({got}) on the planted dataset")
    elif family not in planted:
        parts.append(f"the audit has no {family} category")
    else:
        parts.append(f"{family} not flagged ({got}) on the planted dataset")
    if clean_flagged:
        parts.append("flagged on the clean counterpart: " + ", ".join(f"{c} ({clean[c]})" for c in clean_flagged))
    else:
        parts.append("nothing flagged on the clean counterpart")
    return got in FLAGGED and not clean_flagged, "; ".join(parts)


def run_selftest(out: str | Path, *, plantings: Sequence[str] | None = None, data: str | None = None, seed: int = 0,
                 profile: str = "quick", device: str = "auto", cache_dir: str | None = None, progress: bool = True,
                 audit_options: dict | None = None, echo: Callable[[str], None] | None = None) -> SelftestReport:
    """Build, audit and judge every planting; write ``out/selftest.json``.

    Args:
        out: output directory (created; an earlier selftest there is resumed).
        plantings: planting names (default: all of :data:`~mrclens.selftest.plantings.PLANTINGS`).
        data: the dataset the plantings are built from (any format MRCLens reads; default: the
            bundled sample).
        seed: seeds the plantings and every audit.
        profile: the reader profile of the audits.
        device: ``"auto"``, ``"cpu"`` or ``"cuda"``.
        cache_dir: spaCy parse cache.
        progress: show progress.
        audit_options: further :class:`mrclens.audit.AuditOptions` fields for every audit (e.g. a
            training budget).
        echo: called with one line per step (default: an INFO record on this module's logger).

    Returns:
        the :class:`~mrclens.artifacts.selftest.SelftestReport` (also written to ``out/selftest.json``).

    Raises:
        MRCLensError: an unknown planting name; what :func:`mrclens.audit.run_audit` raises.
    """
    from mrclens.audit import SAMPLE_PATH, AuditOptions, run_audit
    from mrclens.formats import load_dataset

    echo = echo or log.info
    names = list(plantings) if plantings else list(PLANTINGS)
    unknown = [n for n in names if n not in PLANTINGS]
    if unknown:
        raise MRCLensError(f"unknown planting(s): {', '.join(unknown)} (known: {', '.join(PLANTINGS)})")
    out = Path(out)
    source = load_dataset(data or SAMPLE_PATH)
    rows = []
    for name in names:
        pair = plant(source, name, seed, cache_dir=cache_dir, progress=progress)
        echo(f"[selftest] {name}: {PLANTINGS[name].description}; changed {pair.changed['planted']:,} planted / "
             f"{pair.changed['clean']:,} clean of {pair.planted.counts()['questions']:,} questions")
        sides = {}
        for side, dataset in (("planted", pair.planted), ("clean", pair.clean)):
            path = write_dataset(dataset, out / name / f"{side}.json")
            results = run_audit(AuditOptions(train=str(path), out=str(out / name / f"{side}-audit"), seed=seed,
                                             profile=profile, device=device, cache_dir=cache_dir, progress=progress,
                                             **(audit_options or {})), echo=echo)
            sides[side] = results
        cats = {side: verdicts(r) for side, r in sides.items()}
        passed, why = judge(name, cats["planted"], cats["clean"])
        family = PLANTINGS[name].family
        rows.append(PlantingVerdict(
            planting=name, family=family, planted_evidence=cats["planted"].get(family),
            clean_evidence=cats["clean"].get(family),
            clean_flagged=[c for c, e in cats["clean"].items() if e in FLAGGED],
            planted_f1=_baseline_f1(sides["planted"]), clean_f1=_baseline_f1(sides["clean"]),
            planted_categories=cats["planted"], clean_categories=cats["clean"], changed=dict(pair.changed),
            passed=passed, why=why))
        echo(f"[selftest] {name}: {'PASS' if passed else 'FAIL'}: {why}")
    report = SelftestReport(__version__, seed, profile, all(r.passed for r in rows), rows)
    write_selftest(out, report)
    return report


def _baseline_f1(results) -> float | None:
    scores = results.sets.get("original")
    return None if scores is None or scores.f1 is None else round(scores.f1, 2)


def format_selftest(report: SelftestReport) -> str:
    """The pass/fail table: one row per planting."""
    head = f"{'planting':<10} {'family':<11} {'planted':<9} {'clean':<9} {'F1 pl/cl':<13} {'result':<6} why"
    lines = [head]
    for r in report.plantings:
        f1 = f"{r.planted_f1 if r.planted_f1 is not None else '-'}/{r.clean_f1 if r.clean_f1 is not None else '-'}"
        lines.append(f"{r.planting:<10} {r.family:<11} {r.planted_evidence or '-':<9} {r.clean_evidence or '-':<9} "
                     f"{f1:<13} {'PASS' if r.passed else 'FAIL':<6} {r.why}")
    n = sum(r.passed for r in report.plantings)
    lines.append(f"{n} of {len(report.plantings)} plantings passed (seed {report.seed}, profile {report.profile})")
    return "\n".join(lines)
