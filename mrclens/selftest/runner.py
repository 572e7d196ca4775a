"""``mrclens selftest``: audit datasets with planted shortcuts and check the readings (issue 17, part 6).

For each planting of :data:`mrclens.selftest.plantings.PLANTINGS` (default: all), on the bundled
sample (40 SQuAD v1.1 articles) or a given dataset:

1. build the planted dataset and its clean counterpart (:func:`~mrclens.selftest.plantings.plant`)
   and write them as ``OUT/<planting>/planted.json`` and ``clean.json``;
2. audit each (the span audit, :func:`mrclens.audit.span.run_audit`; one file split by title, the given reader profile,
   ``OUT/<planting>/planted-audit/`` and ``clean-audit/``; an interrupted selftest resumes there);
3. read the category verdicts (:func:`verdicts`): each category's comparison with the reference
   audit of the same reader profile (``results.json`` ``categories[].reference_bias``,
   :mod:`mrclens.scoring.against_reference`: ``"more"``, ``"in line"``, ``"less"``,
   ``"inconclusive"``), or, when the reference has no audit with that profile, its absolute
   evidence level (``categories[].evidence``, :mod:`mrclens.scoring.readings`).

A **structural counterpart** (issue 32, :data:`mrclens.selftest.plantings.SHAPES`: shorter contexts,
longer contexts, SQuAD's grouped layout; included by default) is audited once and **passes** when
every category reads *in line* with the reference (:func:`judge_shape`): nothing is planted, so a
category read as more *or* less would be a verdict about the data's shape.

A planting **passes** when the audit of the planted dataset *flags* its family (:data:`FLAGGED`:
more of the bias than the reference — or, without a reference audit, evidence ``"moderate"`` or
``"strong"``) and the audit of the clean counterpart flags **no** category. This is strict on
purpose: the clean counterpart is the same data without the shortcut, so any category flagged there
is flagged on SQuAD-like data whatever its bias, and a reader of the verdicts cannot tell it from a
finding. The reference is the bundled SQuAD v1.1 reference unless ``audit_options`` name another.

**Multiple-choice plantings** (issue 20; :data:`mrclens.selftest.plantings.MC_PLANTINGS`, run only
when named in ``plantings``: the default stays the four span plantings) are built from CODAH-style
data (``mc_data``; default :func:`default_mc_data`) by
:func:`~mrclens.selftest.plantings.plant_mc` on :data:`MC_QUESTIONS` questions, written as
``OUT/<planting>/planted.jsonl`` and ``clean.jsonl`` and audited by
:func:`mrclens.audit.multiple_choice.run_mc_audit` (:data:`MC_FOLDS` seeded folds of the file; the
audit's default reader and bootstrap). They are judged by :func:`judge_mc`, not by the span rule:
there is no reference audit of multiple-choice data, and the span rule's "nothing flagged on the
clean counterpart" cannot hold on CODAH, whose own reader barely reads the prompt (the Question
category reads *strong* on CODAH itself, README "Multiple-choice data"), so a clean counterpart is
flagged whatever was planted. The clean counterpart is the reference instead, and a planting passes
when (1) the readings flag its family on the planted dataset (:data:`FLAGGED` evidence), (2) the
planted reader's answer-only accuracy (``sections.multiple_choice.answer_only``: the m1 set, no
prompt) has a 95 % CI wholly above the clean reader's — the figure that says how much the planted
artefact lets a reader answer without the prompt; the m1–m3 *drops* cannot say it here, since they
are near 0 on both sides — and (3) the planting's ``mrclens check`` rule (model-free,
``mrclens/data/default_rules_mc.toml``) fails on the planted dataset and passes on the clean
counterpart. ``selftest.json`` records each part under ``criteria``.

The summary is ``OUT/selftest.json`` (:mod:`mrclens.artifacts.selftest`) and the table of
:func:`format_selftest`. The whole run takes minutes (two quick-profile audits per planting), so it
is a benchmark, not a unit test; its output is recorded in BENCHMARKS.md.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any, Callable, Sequence

from mrclens import __version__
from mrclens.artifacts.folders import SELFTEST, check_output_folder, remove_stale
from mrclens.artifacts.layout import SELFTEST_JSON
from mrclens.artifacts.selftest import PlantingVerdict, SelftestReport, write_selftest
from mrclens.defaults import resolve_profile
from mrclens.errors import MRCLensError
from mrclens.selftest.plantings import MC_PLANTINGS, PLANTINGS, SHAPES, plant, plant_mc, plant_shape
from mrclens.squad import write_dataset
from mrclens.tasks import MULTIPLE_CHOICE, SPAN, get_task
from mrclens.verdicts import EVIDENCE_LEVELS, LESS, MORE, differs

log = logging.getLogger(__name__)

#: Verdicts that count as flagging a category: more of the bias than the reference, or (without a
#: reference audit for the profile) a moderate or strong absolute evidence level.
FLAGGED = frozenset({MORE.name, *(level.name for level in EVIDENCE_LEVELS if level.shows_bias)})
#: Questions of the multiple-choice data a multiple-choice planting keeps (seeded subset,
#: :func:`mrclens.selftest.plantings.mc_subset`), and the folds its audits cut them into: on CODAH,
#: 1,000 questions in 3 folds (333 training questions a fold) give a reader that learns the planted
#: artefact in every fold (100 % accuracy, seeds 0 and 1) and two audits that take 67-85 s together
#: on 2 shared cores (README, selftest section).
MC_QUESTIONS = 1000
MC_FOLDS = 3


def verdicts(results) -> dict[str, str | None]:
    """Category → verdict of an audit's results: ``reference_bias`` where the category was read against a
    reference audit, else its evidence level (module docstring)."""
    return {c.category: c.reference_bias if c.reference_bias is not None else c.evidence for c in results.categories}


def judge(planting: str, planted: dict[str, str | None], clean: dict[str, str | None]) -> tuple[bool, str]:
    """Whether a planting passes, and why (rule in the module docstring).

    Args:
        planting: a key of :data:`~mrclens.selftest.plantings.PLANTINGS`.
        planted / clean: category → verdict of each side's audit (:func:`verdicts`).

    >>> judge("overlap", {"Similarity": "more", "Question": "in line"}, {"Similarity": "in line", "Question": "inconclusive"})
    (True, 'Similarity flagged (more) on the planted dataset; nothing flagged on the clean counterpart')
    >>> judge("overlap", {"Similarity": "more"}, {"Similarity": "in line", "Question": "less"})[0]  # clean: no "less" either
    False
    >>> judge("overlap", {"Similarity": "strong"}, {"Similarity": "strong"})[0]
    False
    """
    family = PLANTINGS[planting].family
    got = planted.get(family)
    clean_flagged = [c for c, e in clean.items() if e in FLAGGED or e == LESS.name]  # clean: neither more nor less
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


#: The ``family`` a structural counterpart's row carries in ``selftest.json``.
SHAPE_FAMILY = "shape"


def judge_shape(categories: dict[str, str | None]) -> tuple[bool, str]:
    """Whether a structural counterpart passes: no category reads **more** or **less** than the reference
    (clean data of another shape; "inconclusive" is allowed: the audit may not see enough to say "in line",
    issue 41).

    >>> judge_shape({"Similarity": "in line", "Position": "inconclusive"})
    (True, 'no category read as more or less than the reference (in line: Similarity; inconclusive: Position)')
    >>> judge_shape({"Similarity": "in line", "Position": "less"})
    (False, 'read as more or less than the reference: Position (less)')
    """
    off = {c: v for c, v in categories.items() if differs(v)}
    if not categories:
        return False, "the audit has no category verdict"
    if off:
        return False, "read as more or less than the reference: " + ", ".join(f"{c} ({v})" for c, v in off.items())
    groups = {v: [c for c, w in categories.items() if w == v] for v in dict.fromkeys(categories.values())}
    return True, ("no category read as more or less than the reference ("
                  + "; ".join(f"{v}: {', '.join(cs)}" for v, cs in groups.items()) + ")")


def _answer_only(results) -> dict[str, Any] | None:
    section = (getattr(results, "sections", None) or {}).get(MULTIPLE_CHOICE.name) or {}
    ao = section.get("answer_only")
    return dict(ao) if ao and ao.get("accuracy") is not None else None


def _fmt_acc(ao: dict[str, Any] | None) -> str:
    return "-" if ao is None else f"{ao['accuracy']:.1f} [{ao['ci_low']:.1f}, {ao['ci_high']:.1f}]"


def _check_rule(rule_id: str, results) -> dict[str, Any]:
    """``{"status", "value"}`` of the ``mrclens check`` rule ``rule_id`` (multiple-choice defaults) on the
    model-free statistics the audit computed (``sections.multiple_choice.stats``)."""
    from mrclens.checks import evaluate_rules, load_rules

    [rule] = [r for r in load_rules(task=MULTIPLE_CHOICE.name) if r.id == rule_id]
    stats = ((getattr(results, "sections", None) or {}).get(MULTIPLE_CHOICE.name) or {}).get("stats")
    if not stats:
        return {"status": "skip", "value": None}
    [got] = evaluate_rules([rule], stats)
    return {"status": got.status, "value": got.value}


def judge_mc(planting: str, planted, clean) -> tuple[bool, str, dict[str, Any]]:
    """Whether a multiple-choice planting passes, why, and what decided (rule in the module docstring).

    Args:
        planting: a key of :data:`~mrclens.selftest.plantings.MC_PLANTINGS`.
        planted / clean: each side's audit results (:func:`mrclens.audit.multiple_choice.run_mc_audit`).

    Returns:
        ``(passed, why, criteria)``; ``criteria`` has one entry per part of the rule (``readings``,
        ``answer_only``, ``check_rule``), each with both sides' figures and ``passed``, and ``rule``,
        the rule in words.
    """
    from mrclens.checks import load_rules

    spec = MC_PLANTINGS[planting]
    family = spec.family
    cats = {"planted": verdicts(planted), "clean": verdicts(clean)}
    got = cats["planted"].get(family)
    readings_ok = got in FLAGGED
    ao = {"planted": _answer_only(planted), "clean": _answer_only(clean)}
    ao_ok = ao["planted"] is not None and ao["clean"] is not None and ao["planted"]["ci_low"] > ao["clean"]["ci_high"]
    [rule] = [r for r in load_rules(task=MULTIPLE_CHOICE.name) if r.id == spec.check_rule]
    checks = {"planted": _check_rule(spec.check_rule, planted), "clean": _check_rule(spec.check_rule, clean)}
    check_ok = checks["planted"]["status"] == "fail" and checks["clean"]["status"] == "pass"
    criteria = {
        "rule": (f"{family} flagged (evidence moderate or strong) on the planted dataset; its answer-only accuracy's "
                 f"95% CI wholly above the clean counterpart's; check rule {spec.check_rule} fails on the planted "
                 "dataset and passes on the clean counterpart. The clean counterpart's own readings are recorded, "
                 "not judged: it is the reference (no reference audit of multiple-choice data)"),
        "readings": {"category": family, "planted": got, "clean": cats["clean"].get(family), "passed": readings_ok},
        "answer_only": {"planted": ao["planted"], "clean": ao["clean"], "passed": ao_ok},
        "check_rule": {"id": rule.id, "metric": rule.metric, "op": rule.op, "threshold": rule.threshold,
                       "planted": checks["planted"], "clean": checks["clean"], "passed": check_ok},
    }
    parts = [f"{family} {'flagged' if readings_ok else 'not flagged'} ({got}) on the planted dataset",
             f"answer-only accuracy {_fmt_acc(ao['planted'])} planted vs {_fmt_acc(ao['clean'])} clean"
             f" ({'above' if ao_ok else 'not above'} the clean counterpart's)"]
    value = {side: "-" if c["value"] is None else f"{c['value']:.1f}" for side, c in checks.items()}
    verb = {"pass": "passes", "fail": "fails", "skip": "is skipped"}
    status = {side: verb[c["status"]] for side, c in checks.items()}
    parts.append(f"check rule {rule.id} ({rule.metric} {rule.op} {rule.threshold:g}) {status['planted']} on the "
                 f"planted dataset ({value['planted']}) and {status['clean']} on the clean counterpart ({value['clean']})")
    flagged = [c for c, e in cats["clean"].items() if e in FLAGGED]
    if flagged:
        parts.append("not judged: the clean counterpart's own readings ("
                     + ", ".join(f"{c} {cats['clean'][c]}" for c in flagged) + ")")
    return readings_ok and ao_ok and check_ok, "; ".join(parts), criteria


def default_mc_data() -> Path | None:
    """The CODAH file the multiple-choice plantings use when none is given: ``full_data.tsv.gz`` under
    ``$MRCLENS_SHARED_DATA/codah/``, else under ``../shared/data/codah/`` beside a development checkout
    of MRCLens; ``None`` when neither exists (CODAH is not bundled)."""
    root = Path(__file__).resolve().parents[2]
    shared = Path(os.environ.get("MRCLENS_SHARED_DATA", root.parent / "shared" / "data"))
    path = shared / "codah" / "full_data.tsv.gz"
    return path if path.is_file() else None


def run_selftest(out: str | Path, *, plantings: Sequence[str] | None = None, data: str | None = None, seed: int = 0,
                 profile: str = "quick", device: str = "auto", cache_dir: str | None = None, progress: bool = True,
                 audit_options: dict | None = None, mc_data: str | None = None, mc_questions: int | None = MC_QUESTIONS,
                 mc_audit_options: dict | None = None, echo: Callable[[str], None] | None = None) -> SelftestReport:
    """Build, audit and judge every planting; write ``out/selftest.json``.

    Args:
        out: output directory (created; an earlier selftest there is resumed when it is this one: same
            seed and datasets; another is refused before any work, :func:`refuse_another_selftest`).
        plantings: planting names (default: all of :data:`~mrclens.selftest.plantings.PLANTINGS`; the
            multiple-choice ones of :data:`~mrclens.selftest.plantings.MC_PLANTINGS` only when named).
        data: the dataset the plantings are built from (any format MRCLens reads; default: the
            bundled sample).
        seed: seeds the plantings and every audit.
        profile: the reader profile of the audits.
        device: ``"auto"``, ``"cpu"`` or ``"cuda"``.
        cache_dir: spaCy parse cache.
        progress: show progress.
        audit_options: further :class:`mrclens.audit.span.AuditOptions` fields for every span audit (e.g. a
            training budget); ``profile`` too applies to the span audits only.
        mc_data: the multiple-choice file the multiple-choice plantings are built from (default:
            :func:`default_mc_data`).
        mc_questions: questions of ``mc_data`` they keep (``None``: all).
        mc_audit_options: further :class:`mrclens.audit.multiple_choice.MCAuditOptions` fields for their
            audits (default ``n_folds`` :data:`MC_FOLDS`).
        echo: called with one line per step (default: an INFO record on this module's logger).

    Returns:
        the :class:`~mrclens.artifacts.selftest.SelftestReport` (also written to ``out/selftest.json``).

    Raises:
        MRCLensError: an unknown planting name or reader profile; a multiple-choice planting without
            multiple-choice data (each before any work); OutputError: ``out`` holds something other
            than an earlier selftest (:data:`mrclens.artifacts.folders.SELFTEST`), or another selftest
            (:func:`refuse_another_selftest`; both before any work); what :func:`mrclens.audit.span.run_audit` or :func:`~mrclens.audit.multiple_choice.run_mc_audit` raises.
    """
    from mrclens.audit.span import SAMPLE_PATH, AuditOptions, run_audit
    from mrclens.formats import load_dataset

    echo = echo or log.info
    names = list(plantings) if plantings else [*PLANTINGS, *SHAPES]
    unknown = [n for n in names if n not in PLANTINGS and n not in MC_PLANTINGS and n not in SHAPES]
    if unknown:
        raise MRCLensError(f"unknown planting(s): {', '.join(unknown)} "
                           f"(known: {', '.join([*PLANTINGS, *SHAPES, *MC_PLANTINGS])})")
    resolve_profile(profile, data)  # before any work
    out = Path(out)
    check_output_folder(out, SELFTEST)
    mc_source = None
    if any(n in MC_PLANTINGS for n in names):
        from mrclens.formats.multiple_choice import load_mc_dataset

        path = mc_data or default_mc_data()
        if path is None:
            raise MRCLensError(f"the multiple-choice planting(s) {', '.join(n for n in names if n in MC_PLANTINGS)} "
                               "need multiple-choice data: pass --mc-data FILE (e.g. CODAH's full_data.tsv.gz)")
        mc_source = load_mc_dataset(path)
    source = load_dataset(data or SAMPLE_PATH) if any(n in PLANTINGS or n in SHAPES for n in names) else None
    refuse_another_selftest(out, names, seed, lambda name: _planting_files(
        name, source, mc_source, seed=seed, cache_dir=cache_dir, progress=progress, mc_questions=mc_questions))
    # selftest.json is written last: an earlier one goes now, so that it never sits beside audits it does not describe
    (out / SELFTEST_JSON).unlink(missing_ok=True)
    rows = []
    for name in names:
        if name in SHAPES:
            rows.append(_run_shape(name, source, out, seed=seed, echo=echo,
                                   options=dict(seed=seed, profile=profile, device=device, cache_dir=cache_dir,
                                                progress=progress, **(audit_options or {}))))
            continue
        if name in MC_PLANTINGS:
            rows.append(_run_mc_planting(name, mc_source, out, seed=seed, device=device, cache_dir=cache_dir,
                                         progress=progress, mc_questions=mc_questions,
                                         mc_audit_options=mc_audit_options, echo=echo))
            continue
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
    remove_stale(out, SELFTEST, [SELFTEST_JSON, *names])  # an earlier run's plantings are not this run's
    return report


def refuse_another_selftest(out: Path, names: Sequence[str], seed: int,
                            files_of: Callable[[str], dict[str, bytes]]) -> None:
    """Refuse, before any work, to resume in ``out`` a selftest that is not this one: the earlier run's
    ``selftest.json`` has another seed, or a planting folder there holds a dataset file other than the one
    this run writes (another ``--data``, ``--mc-data``, ``--seed`` or MRCLens version). Resuming then would
    overwrite the dataset beside the earlier run's audit of it, which the audit refuses only after that
    (it keys on its input files): the folder would mix two selftests. ``files_of(name)``: the dataset
    files a planting writes, name → bytes (built here only for planting folders that exist already).

    Raises:
        OutputError: the message names the file that differs and says how to proceed.
        ArtifactError: an earlier ``selftest.json`` that cannot be read.
    """
    from mrclens.artifacts.selftest import read_selftest
    from mrclens.errors import OutputError
    from mrclens.io_utils import read_bytes

    how = f"give another --out, or remove {out} first"
    if (out / SELFTEST_JSON).is_file():
        earlier = read_selftest(out)
        if earlier.seed != seed:
            raise OutputError(f"{out / SELFTEST_JSON}: {out} holds a selftest with seed {earlier.seed}; this one has "
                              f"seed {seed}, so its plantings and audits are not those: {how}")
    for name in names:
        if not (out / name).is_dir():
            continue
        for file_name, data in files_of(name).items():
            path = out / name / file_name
            if path.is_file() and read_bytes(path) != data:
                raise OutputError(f"{path} holds another {name} dataset than this selftest builds (an earlier "
                                  f"selftest with another --data, --mc-data, --seed or MRCLens version), and "
                                  f"{out / name} its audits: {how}")


def _planting_files(name: str, source, mc_source, *, seed: int, cache_dir: str | None, progress: bool,
                    mc_questions: int | None) -> dict[str, bytes]:
    """The dataset files (name → bytes) that :func:`run_selftest` writes for planting ``name``."""
    from mrclens.squad import dataset_bytes

    if name in SHAPES:
        return {"data.json": dataset_bytes(plant_shape(source, name, seed, cache_dir=cache_dir, progress=progress)[0])}
    if name in MC_PLANTINGS:
        from mrclens.multiple_choice.data import jsonl_bytes

        pair = plant_mc(mc_source, name, seed, n_questions=mc_questions)
        return {"planted.jsonl": jsonl_bytes(pair.planted), "clean.jsonl": jsonl_bytes(pair.clean)}
    pair = plant(source, name, seed, cache_dir=cache_dir, progress=progress)
    return {"planted.json": dataset_bytes(pair.planted), "clean.json": dataset_bytes(pair.clean)}


def _run_shape(name: str, source, out: Path, *, seed: int, options: dict, echo: Callable[[str], None]
               ) -> PlantingVerdict:
    """Build, audit and judge one structural counterpart (:func:`judge_shape`): one audit, written as
    ``OUT/<shape>/data.json`` and ``OUT/<shape>/audit/``."""
    from mrclens.audit.span import AuditOptions, run_audit

    dataset, unchanged = plant_shape(source, name, seed, cache_dir=options.get("cache_dir"),
                                     progress=bool(options.get("progress")))
    n = dataset.counts()["questions"]
    echo(f"[selftest] {name}: {SHAPES[name].description}; {n - sum(unchanged.values()):,} of {n:,} questions changed")
    path = write_dataset(dataset, out / name / "data.json")
    results = run_audit(AuditOptions(train=str(path), out=str(out / name / "audit"), **options), echo=echo)
    cats = verdicts(results)
    passed, why = judge_shape(cats)
    echo(f"[selftest] {name}: {'PASS' if passed else 'FAIL'}: {why}")
    return PlantingVerdict(
        planting=name, family=SHAPE_FAMILY, planted_evidence=None, clean_evidence=None,
        clean_flagged=[c for c, v in cats.items() if differs(v)], planted_f1=None, clean_f1=_baseline_f1(results),
        planted_categories={}, clean_categories=cats, changed={"clean": n - sum(unchanged.values())},
        passed=passed, why=why)


def _run_mc_planting(name: str, source, out: Path, *, seed: int, device: str, cache_dir: str | None, progress: bool,
                     mc_questions: int | None, mc_audit_options: dict | None, echo: Callable[[str], None]
                     ) -> PlantingVerdict:
    """Build, audit and judge one multiple-choice planting (:func:`run_selftest`)."""
    from mrclens.audit.multiple_choice import MCAuditOptions, run_mc_audit
    from mrclens.formats.multiple_choice import write_jsonl

    spec = MC_PLANTINGS[name]
    pair = plant_mc(source, name, seed, n_questions=mc_questions)
    echo(f"[selftest] {name}: {spec.description}; changed {pair.changed['planted']:,} planted / "
         f"{pair.changed['clean']:,} clean of {len(pair.planted):,} questions")
    sides = {}
    for side, dataset in (("planted", pair.planted), ("clean", pair.clean)):
        path = write_jsonl(dataset, out / name / f"{side}.jsonl")
        options = {"n_folds": MC_FOLDS, **(mc_audit_options or {})}
        sides[side] = run_mc_audit(MCAuditOptions(data=str(path), out=str(out / name / f"{side}-audit"), seed=seed,
                                                  device=device, cache_dir=cache_dir, progress=progress, **options), echo=echo)
    passed, why, criteria = judge_mc(name, sides["planted"], sides["clean"])
    cats = {side: verdicts(r) for side, r in sides.items()}
    echo(f"[selftest] {name}: {'PASS' if passed else 'FAIL'}: {why}")
    return PlantingVerdict(
        planting=name, family=spec.family, planted_evidence=cats["planted"].get(spec.family),
        clean_evidence=cats["clean"].get(spec.family),
        clean_flagged=[c for c, e in cats["clean"].items() if e in FLAGGED],
        planted_f1=_baseline_f1(sides["planted"]), clean_f1=_baseline_f1(sides["clean"]),
        planted_categories=cats["planted"], clean_categories=cats["clean"], changed=dict(pair.changed),
        passed=passed, why=why, task=MULTIPLE_CHOICE.name, criteria=criteria)


def _baseline_f1(results) -> float | None:
    scores = results.sets.get("original")
    return None if scores is None or scores.f1 is None else round(scores.f1, 2)


def format_selftest(report: SelftestReport) -> str:
    """The pass/fail table: one row per planting (a multiple-choice planting's score is its readers' accuracy)."""
    metrics = {get_task(r.task).metric for r in report.plantings}  # span: F1; multiple choice: accuracy
    score = "F1 pl/cl" if metrics <= {SPAN.metric} else "F1/acc pl/cl"
    head = f"{'planting':<10} {'family':<11} {'planted':<9} {'clean':<9} {score:<13} {'result':<6} why"
    lines = [head]
    for r in report.plantings:
        f1 = f"{r.planted_f1 if r.planted_f1 is not None else '-'}/{r.clean_f1 if r.clean_f1 is not None else '-'}"
        lines.append(f"{r.planting:<10} {r.family:<11} {r.planted_evidence or '-':<9} {r.clean_evidence or '-':<9} "
                     f"{f1:<13} {'PASS' if r.passed else 'FAIL':<6} {r.why}")
    n = sum(r.passed for r in report.plantings)
    lines.append(f"{n} of {len(report.plantings)} plantings and structural counterparts passed (seed {report.seed}, profile {report.profile})")
    return "\n".join(lines)
