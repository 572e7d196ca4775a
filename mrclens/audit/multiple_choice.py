"""``mrclens audit`` on multiple-choice data (issue 20): load, perturb, train, predict, score, report.

The same steps, output layout and scoring code as the span audit (:mod:`mrclens.audit.span`), with
cross-validation as CODAH's authors publish it (Chen et al. 2019, §5: 5-fold cross-validation,
mean accuracy over folds):

1. **load** — a folder with ``cv_split/fold_k/{train,dev,test}`` (CODAH's official split) or one
   file, split with :func:`~mrclens.multiple_choice.folds.make_folds` (seeded; 5 folds of 3/5 train,
   1/5 dev, 1/5 test, every question tested once). The folds' test parts must not share a question; together they are the
   **evaluation set** (every CODAH question exactly once in the official split).
2. **perturb** — the evaluation set's original and ablation sets (m1–m6, controls mc4–mc6;
   :mod:`mrclens.multiple_choice.ablations`), ``perturb_seeds`` draws, under ``OUT/perturbed/``.
3. **stats** — the model-free figures (:func:`mrclens.multiple_choice.stats.mc_stats`): heuristic
   baselines (longest / shortest ending, prompt–ending overlap), ending length by label, duplicates.
4. **train** — one baseline reader per fold (:func:`mrclens.multiple_choice.train.train_mc`) on the
   fold's training part, best epoch by accuracy on its dev part, saved to ``OUT/model/fold_k/``.
5. **predict** — every question of every set is predicted by the reader of the fold whose test part
   holds it (cross-validated predictions, so no reader sees its own training questions);
   ``OUT/predictions/<set>.json`` as ``{"question id": ending index}``.
6. **score** — :func:`mrclens.scoring.evaluate.evaluate_perturbed`, the code that scores span audits,
   with accuracy as the per-question score (``results.json`` ``"task": "multiple_choice"``): accuracy
   drop, relative drop and excess drop over the matched control per ablation and per bias category,
   with paired bootstrap CIs. ``sections["multiple_choice"]`` adds the accuracy per fold (mean and
   sample SD over folds), per CODAH question category (with CIs, on the original and the answer-only
   set) and the heuristic baselines.
7. **report** — ``results.json``, ``results.csv``, ``question-scores.json``, ``report.html``
   (:func:`mrclens.publish.write_outputs`).

Every step is keyed like the span audit's, in the same step ledger (:mod:`mrclens.audit.ledger`,
``OUT/audit-state.json``): a re-run reuses the steps whose inputs and options did not change. Step
functions: :func:`load_folds`, :func:`perturb_mc_sets`, :func:`train_fold_readers`,
:func:`predict_folds`, :func:`mc_section`.
"""

from __future__ import annotations

import logging
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from mrclens.artifacts.folders import PREDICTIONS, REPLICATES, note_written, remove_stale
from mrclens.artifacts.layout import MANIFEST, OutputLayout, prediction_file_name
from mrclens.artifacts.manifest import read_manifest
from mrclens.artifacts.predictions import write_choice_predictions
from mrclens.artifacts.results import AuditRecord, InputFile, ModelRecord, Results
from mrclens.audit.ledger import AuditSteps, StepLedger, pipeline_versions, step_key
from mrclens.defaults import DEFAULT_PERTURB_SEEDS, DEFAULT_SEED, N_RESAMPLES
from mrclens.errors import MRCLensError
from mrclens.formats.multiple_choice import Fold, MCDataset, load_mc_dataset, read_folds, sniff_mc
from mrclens.io_utils import sha256_file
from mrclens.multiple_choice.folds import make_folds
from mrclens.tasks import MULTIPLE_CHOICE

#: The audit's logger, ``mrclens.audit`` (:mod:`mrclens.logs`), as the span audit's.
log = logging.getLogger(__package__)

BASELINE_NAME = "MRCLens multiple-choice baseline: BiLSTM ending scorer"
#: Ablation whose per-category accuracy the results list beside the original's (answer-only).
ANSWER_ONLY = "m1"


@dataclass
class MCAuditOptions:
    """Everything that determines a multiple-choice audit.

    Attributes:
        data: a CODAH-style folder (``cv_split/fold_k/``) or one multiple-choice file.
        out: output directory.
        seed: one seed for the fold split (one file only), the perturbations, training and the bootstrap.
        folds: fold numbers to use (``None``: all). Fewer folds cover fewer evaluation questions.
        n_folds: folds made from one file (ignored for a folder with folds).
        ablations: ablation ids (``None``: all, with their controls).
        perturb_seeds: draws of every ablation's random choices (as in the span audit).
        epochs: training epochs per fold (``None``: the reader config's).
        device: ``"auto"``, ``"cpu"`` or ``"cuda"``.
        n_resamples: bootstrap resamples per interval.
        force: overwrite an ``out`` that holds something else.
        cache_dir: spaCy parse cache (``None``: the default).
        progress: show progress bars.
    """

    data: str
    out: str = "mrclens-audit"
    seed: int = DEFAULT_SEED
    folds: Sequence[int] | None = None
    n_folds: int = 5
    ablations: Sequence[str] | None = None
    perturb_seeds: int = DEFAULT_PERTURB_SEEDS
    epochs: int | None = None
    device: str = "auto"
    n_resamples: int = N_RESAMPLES
    force: bool = False
    cache_dir: str | None = None
    progress: bool = True
    option_sources: dict[str, str] = field(default_factory=dict)


def load_folds(options: MCAuditOptions) -> tuple[list[Fold], list[InputFile], dict[str, Any]]:
    """The folds of ``options.data`` with the input files read and a record of the split.

    Raises:
        MRCLensError: not multiple-choice data, no fold, or test parts that share a question.
        DataError: an invalid file.
    """
    path = Path(options.data)
    kind = sniff_mc(path)
    if kind is None:
        raise MRCLensError(f"{path}: not multiple-choice data (see `mrclens audit --help`)")
    if kind == "folds":
        folds = read_folds(path, options.folds)
        files = [(f"{fold.name}:{part}", getattr(fold, part).source) for fold in folds for part in ("train", "dev", "test")]
        split = {"kind": "official folds", "folder": str(path)}
    else:
        whole = load_mc_dataset(path)
        folds = make_folds(whole, options.n_folds, seed=options.seed)
        if options.folds is not None:
            folds = [f for f in folds if int(f.name.split("_")[1]) in set(options.folds)]
        files = [("data", str(path))]
        split = {"kind": "seeded folds", "n_folds": options.n_folds, "seed": options.seed}
    if not folds:
        raise MRCLensError(f"{path}: no fold selected (--folds {list(options.folds or [])})")
    seen: dict[str, str] = {}
    for fold in folds:
        for q in fold.test.questions:
            if q.id in seen:
                raise MRCLensError(f"{path}: question {q.id} is in the test part of {seen[q.id]} and of {fold.name}; "
                                   "cross-validation needs disjoint test parts")
            seen[q.id] = fold.name
        leak = set(fold.train.ids()) & set(fold.test.ids())
        if leak:
            raise MRCLensError(f"{path}: {fold.name}: {len(leak)} question(s) are in both train and test "
                               f"(e.g. {sorted(leak)[0]})")
    # a folder is named first (role "data": the report's title), then each fold file with its role
    inputs = ([InputFile("data", str(path), None)] if kind == "folds" else []) + [
        InputFile(role, f, sha256_file(f)) for role, f in files if f]
    split["folds"] = [{"name": f.name, "train": len(f.train), "dev": len(f.dev), "test": len(f.test)} for f in folds]
    return folds, inputs, split


def mc_fingerprint(inputs: Sequence[InputFile], split: dict[str, Any], folds: Sequence[Fold]) -> str:
    """The audited input's step key (``audit-state.json`` ``"dataset"``): the input files' sha256, the seed
    of seeded folds and the folds' names (:func:`load_folds`)."""
    # "multiple_choice" (a literal, not the task's name): the key of audits written before must not change
    return step_key("multiple_choice", [i.sha256 for i in inputs], split.get("seed"), [f.name for f in folds])


def evaluation_set(folds: Sequence[Fold]) -> MCDataset:
    """The union of the folds' test parts, fold by fold in file order."""
    return MCDataset([q for f in folds for q in f.test.questions], folds[0].test.source, folds[0].test.format)


def run_mc_audit(options: MCAuditOptions, echo: Callable[[str], None] | None = None) -> Results:
    """Run (or resume) a multiple-choice audit and write its outputs under ``options.out``.

    Returns:
        the results written to ``results.json``.

    Raises:
        DataError: an input file is invalid (before any training).
        MRCLensError: bad options, or ``out`` holds something else and ``force`` is off.
        FileNotFoundError: the data path does not exist.
    """
    from mrclens.multiple_choice.ablations import resolve_mc_ablations
    from mrclens.multiple_choice.stats import mc_stats

    echo = echo or log.info
    if not Path(options.data).exists():
        raise FileNotFoundError(f"{options.data}: no such file or folder")
    if isinstance(options.perturb_seeds, bool) or not isinstance(options.perturb_seeds, int) or options.perturb_seeds < 1:
        raise MRCLensError(f"--perturb-seeds must be a whole number >= 1, got {options.perturb_seeds!r}")
    out = Path(options.out)
    seconds: dict[str, float] = {}

    # 1. load -------------------------------------------------------------------------------
    t0 = time.perf_counter()
    folds, inputs, split = load_folds(options)
    eval_set = evaluation_set(folds)
    ablation_ids = resolve_mc_ablations(options.ablations)
    seconds["load"] = time.perf_counter() - t0
    echo(f"[load] {len(folds)} fold(s) ({split['kind']}); evaluation set: {len(eval_set):,} questions "
         f"(the folds' test parts); training parts of {', '.join(str(len(f.train)) for f in folds)} questions")
    fingerprint = mc_fingerprint(inputs, split, folds)
    run = MCAuditRun(layout=OutputLayout(out), ledger=StepLedger(out, fingerprint, options.force),
                     versions=pipeline_versions(), echo=echo, seconds=seconds, options=options)

    perturb_mc_sets(run, eval_set, ablation_ids)  # 2. perturb
    t0 = time.perf_counter()  # 3. model-free statistics
    stats = mc_stats(eval_set, seed=options.seed, n_resamples=options.n_resamples)
    seconds["stats"] = time.perf_counter() - t0
    echo(f"[stats] heuristic baselines and ending lengths of the evaluation set ({seconds['stats']:.1f} s)")
    readers, config = train_fold_readers(run, folds)  # 4. train
    predict_folds(run, folds, readers)  # 5. predict
    return score_and_report_mc(run, folds, eval_set, readers, config, inputs=inputs, split=split, stats=stats,
                               ablation_ids=ablation_ids)


@dataclass
class MCAuditRun(AuditSteps):
    """What the steps of one multiple-choice audit share (made by :func:`run_mc_audit` after loading):
    the shared :class:`~mrclens.audit.ledger.AuditSteps`, and

    Attributes:
        options: the audit's options.
    """

    options: MCAuditOptions


def perturb_mc_sets(run: MCAuditRun, eval_set: MCDataset, ablation_ids: Sequence[str]) -> None:
    """Step 2, **perturb**: the evaluation set's original and ablation sets, ``perturb_seeds`` draws, under
    ``OUT/perturbed/`` (:func:`mrclens.multiple_choice.perturb.perturb_mc`). Sets ``seconds["perturb"]``."""
    from mrclens.multiple_choice.perturb import perturb_mc

    options = run.options
    run.seconds["perturb"] = 0.0  # step times: measured now, or as recorded when the step is reused
    for k in range(options.perturb_seeds):
        target = run.layout.draw_perturbed_dir(k)
        key = step_key("mc-perturb", run.fingerprint, options.seed, ablation_ids, run.versions, k)
        step = run.ledger.reuse_or_run(
            "perturb" if k == 0 else f"perturb:draw-{k}", key,
            lambda: perturb_mc(eval_set, target, ablations=ablation_ids, seed=options.seed, draw=k,
                               cache_dir=options.cache_dir, progress=options.progress, force=True),
            outputs=[target / MANIFEST])
        run.seconds["perturb"] += step.seconds
    remove_stale(run.layout.perturbed_dir, REPLICATES, [f"draw-{k}" for k in range(1, options.perturb_seeds)])
    run.echo(f"[perturb] {len(ablation_ids)} ablation sets × {options.perturb_seeds} draw(s) under "
             f"{run.layout.perturbed_dir} ({run.seconds['perturb']:.1f} s)")


def train_fold_readers(run: MCAuditRun, folds: Sequence[Fold]) -> tuple[dict[str, Any], Any]:
    """Step 4, **train**: one baseline reader per fold (:func:`mrclens.multiple_choice.train.train_mc`) on
    its training part, best epoch by accuracy on its dev part, saved to ``OUT/model/<fold>/`` (or reused
    and loaded). Sets ``seconds["train"]``.

    Returns:
        ``(readers, config)``: fold name → reader, and the readers' configuration.
    """
    from mrclens.multiple_choice.train import MCReader, MCReaderConfig, train_mc

    options = run.options
    config = MCReaderConfig()
    if options.epochs is not None:
        config.epochs = options.epochs
    readers: dict[str, Any] = {}
    run.seconds["train"] = 0.0
    for fold in folds:
        model_dir = run.layout.model_dir / fold.name

        def train_and_save(fold: Fold = fold, model_dir: Path = model_dir):
            reader = train_mc(fold.train, config, dev=fold.dev, seed=options.seed, device=options.device,
                              progress=options.progress, log=run.echo)
            reader.save(model_dir)
            return reader

        key = step_key("mc-train", run.fingerprint, fold.name, options.seed, config.to_dict(), run.versions)
        step = run.ledger.reuse_or_run(f"train:{fold.name}", key, train_and_save, outputs=[model_dir / "config.json"])
        run.seconds["train"] += step.seconds
        if step.reused:
            readers[fold.name] = MCReader.load(model_dir, device=options.device)
        else:
            readers[fold.name] = step.value
            run.echo(f"[train] {fold.name}: {len(fold.train):,} questions, {step.seconds:.0f} s; saved to {model_dir}")
    return readers, config


def predict_folds(run: MCAuditRun, folds: Sequence[Fold], readers: dict[str, Any]) -> None:
    """Step 5, **predict**: every question of every set by the reader of the fold whose test part holds it,
    ``OUT/predictions/<set>.json`` as ``{"question id": ending index}``. Sets ``seconds["predict"]``."""
    layout, ledger = run.layout, run.ledger
    run.seconds["predict"] = 0.0
    fold_of = {q.id: f.name for f in folds for q in f.test.questions}

    def predict(data_file: Path, target: Path) -> None:
        data = load_mc_dataset(data_file)
        preds: dict[str, int] = {}
        for fold in folds:
            part = MCDataset([q for q in data.questions if fold_of.get(q.id) == fold.name])
            if part.questions:
                preds.update(readers[fold.name].predict(part))
        write_choice_predictions(target, {q.id: preds[q.id] for q in data.questions if q.id in preds})

    written: dict[Path, set[str]] = {}
    for k in range(run.options.perturb_seeds):
        pdir = layout.draw_perturbed_dir(k)
        target_dir = layout.replicate_predictions_dir(k, 0)
        for name, file in read_manifest(pdir).set_files().items():
            target = target_dir / prediction_file_name(name)
            note_written(written, target, layout.predictions_dir)
            key = step_key("mc-predict", [ledger.steps[f"train:{f.name}"]["key"] for f in folds],
                           sha256_file(pdir / file))
            step = f"predict:{name}" if k == 0 else f"predict:draw-{k}:{name}"
            run.seconds["predict"] += ledger.reuse_or_run(step, key, lambda: predict(pdir / file, target),
                                                          outputs=[target]).seconds
    for folder, names in written.items():  # never a prediction file of an earlier run's set or draw
        remove_stale(folder, PREDICTIONS, names)
    run.echo(f"[predict] every set predicted by the reader of each question's fold ({run.seconds['predict']:.1f} s)")


def score_and_report_mc(run: MCAuditRun, folds: Sequence[Fold], eval_set: MCDataset, readers: dict[str, Any],
                        config, *, inputs: list[InputFile], split: dict[str, Any], stats: dict[str, Any],
                        ablation_ids: Sequence[str]) -> Results:
    """Steps 6-7, **score** (:func:`mrclens.scoring.evaluate.evaluate_perturbed`, accuracy per question;
    ``sections["multiple_choice"]``: :func:`mc_section`) and **report** (:func:`mrclens.publish.write_outputs`)."""
    from mrclens.publish import write_outputs
    from mrclens.scoring.evaluate import Replicate, evaluate_perturbed

    options, layout, out = run.options, run.layout, Path(run.options.out)
    first = readers[folds[0].name]
    audit_record = AuditRecord(
        options={**{k: v for k, v in asdict(options).items() if k not in ("progress", "option_sources")},
                 "ablations": list(ablation_ids), "task": MULTIPLE_CHOICE.name, "reader_config": config.to_dict()},
        split=split, model_dir=str(layout.model_dir), training_log=getattr(first, "training_log", None),
        option_sources=dict(options.option_sources))
    evaluation = evaluate_perturbed(
        layout.perturbed_dir, layout.predictions_dir, results_dir=out,
        model=ModelRecord("baseline", BASELINE_NAME, config.to_dict()), inputs=inputs, step_seconds=run.seconds,
        audit=audit_record, seed=options.seed, n_resamples=options.n_resamples, progress=options.progress,
        replicates=[Replicate(layout.draw_perturbed_dir(k), layout.replicate_predictions_dir(k, 0), draw=k, reader=0)
                    for k in range(1, options.perturb_seeds)])
    results = evaluation.results
    results.sections[MULTIPLE_CHOICE.name] = mc_section(folds, eval_set, evaluation.question_scores, stats, readers,
                                                        seed=options.seed, n_resamples=options.n_resamples)
    write_outputs(evaluation, out)
    return results


def _accuracy_ci(correct: np.ndarray, seed: int, key: str, n_resamples: int) -> dict[str, float | int | None]:
    """Accuracy (percent) of a 0/1 array ``(n,)`` with its 95 % percentile bootstrap CI over questions
    (:func:`mrclens.metrics.bootstrap.bootstrap_mean_intervals`, seeded by ``(seed, key)``)."""
    from mrclens.metrics.bootstrap import CONFIDENCE, bootstrap_mean_intervals

    n = len(correct)
    if n == 0:
        return {"n": 0, "accuracy": None, "ci_low": None, "ci_high": None}
    [(low, high)] = bootstrap_mean_intervals(100.0 * np.asarray(correct, dtype=np.float64)[:, None], seed=seed,
                                             key=key, n_resamples=n_resamples, confidence=CONFIDENCE)
    return {"n": int(n), "accuracy": round(float(np.mean(correct) * 100.0), 4), "ci_low": round(low, 4),
            "ci_high": round(high, 4)}


def mc_section(folds: Sequence[Fold], eval_set: MCDataset, question_scores: dict, stats: dict, readers: dict,
               *, seed: int, n_resamples: int) -> dict[str, Any]:
    """``results.json`` ``sections["multiple_choice"]``: accuracy per fold (mean, SD), per category
    (original and answer-only, with CIs), the heuristic baselines and the stats' summary figures."""
    original = question_scores.get("original")
    if original is None:
        return {}
    correct = dict(zip(original.ids, original.f1))
    answer_only = question_scores.get(ANSWER_ONLY)
    ao_correct = dict(zip(answer_only.ids, answer_only.f1)) if answer_only is not None else {}
    per_fold = []
    for fold in folds:
        values = np.array([correct[q.id] for q in fold.test.questions if q.id in correct])
        entry = {"name": fold.name, "train": len(fold.train), "dev": len(fold.dev),
                 **_accuracy_ci(values, seed, f"fold:{fold.name}", n_resamples)}
        log_ = getattr(readers.get(fold.name), "training_log", None) or []
        best = [r for r in log_ if r.get("best")]
        if best:
            entry["dev_accuracy"] = best[-1].get("dev_accuracy")
            entry["epoch"] = best[-1].get("epoch")
        per_fold.append(entry)
    accs = np.array([f["accuracy"] for f in per_fold if f["accuracy"] is not None])
    categories: dict[str, Any] = {}
    for name in eval_set.category_counts():
        ids = [q.id for q in eval_set.questions if name in (q.categories or ("(none)",))]
        categories[name] = {
            "original": _accuracy_ci(np.array([correct[i] for i in ids if i in correct]), seed, f"category:{name}",
                                     n_resamples),
            "answer_only": _accuracy_ci(np.array([ao_correct[i] for i in ids if i in ao_correct]), seed,
                                        f"category:{name}:{ANSWER_ONLY}", n_resamples) if ao_correct else None,
        }
    endings = {len(q.endings) for q in eval_set.questions}
    return {
        "folds": per_fold,
        "accuracy_mean": round(float(accs.mean()), 4) if len(accs) else None,
        "accuracy_sd": round(float(accs.std(ddof=1)), 4) if len(accs) > 1 else None,
        "accuracy": _accuracy_ci(np.array(original.f1), seed, "accuracy", n_resamples),
        "answer_only": (_accuracy_ci(np.array(answer_only.f1), seed, f"accuracy:{ANSWER_ONLY}", n_resamples)
                        if answer_only is not None else None),
        "chance": round(100.0 / min(endings), 4) if endings else None,
        "categories": categories,
        "stats": stats,
    }
