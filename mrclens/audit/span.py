"""``mrclens audit`` on span (SQuAD-format) data, end to end — load, perturb, train, predict, score, report.

:func:`run_audit` runs one step function per step, in this order (issue 5; method after Zhong,
Wang & Xing, "MRCLens: an MRC Dataset Bias Detection Toolkit", DataPerf@ICML 2022):

1. **load** (:func:`load_inputs`) — read and validate the training file (and ``--dev``). With one file only, split it
   by article title (seeded, ``dev_fraction`` of the articles, default 20 %) into a training
   part and an evaluation part.
2. **perturb** (:func:`perturb_sets`) — write the original, truncated and e1–e10 (and control) sets of the evaluation data under
   ``OUT/perturbed/`` (:func:`mrclens.perturbations.perturb_dataset`); then the model-free figures of
   the evaluation data beside the reference (:func:`model_free_step`), and which questions carry each shortcut,
   ``OUT/shortcut-questions.jsonl`` (:func:`evidence_step`; :mod:`mrclens.stats.evidence`).
3. **train** (:func:`train_readers`) — train the baseline reader on the training data, keeping the best epoch by F1
   on a held-out slice of the *training* articles (``heldout_fraction``, by title; never the
   evaluation data), and save it under ``OUT/model/``; or load ``--model``.
4. **predict** (:func:`predict_sets`) — one official-format prediction file per set, ``OUT/predictions/<set>.json``.
5. **score** (:func:`score_and_report`) — :func:`mrclens.scoring.evaluate.evaluate_perturbed`, the same code that scores
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

Caching and resuming (:mod:`mrclens.audit.ledger`): ``OUT/audit-state.json`` (:mod:`mrclens.artifacts.audit_state`)
records, for every finished step, a key — the sha256 of everything that determines its output (input file hashes, options that matter,
MRCLens/spaCy/pipeline versions, and the keys of the steps it depends on). A re-run reuses
each step whose key is unchanged and whose outputs exist, so an audit killed mid-way resumes
at the first unfinished step (prediction resumes per set), and changing an input or an option
invalidates exactly the steps that depend on it. Parses are cached separately by
:mod:`mrclens.parsing`.

An existing ``OUT`` that holds an audit of a different dataset (or anything that is not an
audit) is never overwritten silently: :class:`~mrclens.errors.MRCLensError` unless ``force``.
"""

from __future__ import annotations

import logging
import shutil
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Callable, Sequence

from mrclens import inputs
from mrclens.artifacts.folders import PREDICTIONS, REPLICATES, note_written, remove_stale
from mrclens.artifacts.layout import MANIFEST, OutputLayout, prediction_file_name
from mrclens.artifacts.manifest import read_manifest
from mrclens.artifacts.predictions import write_predictions
from mrclens.artifacts.reference import ReferenceChoice
from mrclens.artifacts.results import AuditRecord, InputFile, ModelRecord, Results
from mrclens.audit.ledger import AuditSteps, StepLedger, pipeline_versions, step_key
from mrclens.defaults import BUNDLED_SAMPLE, DEFAULT_DEV_FRACTION, DEFAULT_PERTURB_SEEDS, DEFAULT_SEED, DEFAULT_TRAIN_SEEDS, N_RESAMPLES, resolve_profile
from mrclens.errors import MRCLensError
from mrclens.formats import load_dataset, load_squad_file
from mrclens.io_utils import sha256_file
from mrclens.seeds import derived_seed
from mrclens.split import split_by_title
from mrclens.squad import Dataset

#: The bundled real sample that ``mrclens audit`` uses when no dataset is given.
SAMPLE_PATH = BUNDLED_SAMPLE
BASELINE_NAME = "MRCLens baseline: co-attention BiLSTM reader"

#: The audit's logger, ``mrclens.audit`` (:mod:`mrclens.logs`).
log = logging.getLogger(__package__)


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
            with :func:`mrclens.defaults.resolve_profile` (quick for the bundled sample, paper-parallel
            otherwise) when the options are created, where a name is checked (``MRCLensError``). With
            ``model``, the saved reader's profile (its ``config.json`` ``profile_name``) is the audit's,
            recorded as ``profile``; ``None`` takes it, another one is refused (:func:`run_audit`).
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
        language_notes: what the language check said of a run with ``--language en`` (the data declared
            English; :meth:`mrclens.languages.LanguageCheck.notes`): ``results.json`` ``warnings``.
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
    dev_fraction: float = DEFAULT_DEV_FRACTION
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
    language_notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.model is None:  # with a saved reader: its own, read by run_audit
            self.profile = resolve_profile(self.profile, self.train)  # the one rule, applied once: here
        for name in ("perturb_seeds", "train_seeds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise MRCLensError(f"--{name.replace('_', '-')} must be a whole number >= 1, got {value!r}")
        if self.model is not None and self.train_seeds > 1:
            raise MRCLensError("--train-seeds > 1 trains several readers; it cannot be combined with --model")


@dataclass
class LoadedInputs:
    """What the load step read (:func:`load_inputs`).

    Attributes:
        train: the training data (the training file, or its training part after the title split).
        eval: the evaluation data (``--dev``, or the split's evaluation part).
        inputs: the input files with their sha256 (``results.json`` ``inputs``; the reference is added later).
        notes: questions skipped and answers repaired (``on_invalid``), in file order.
        split: the title split (``dev_fraction``, ``seed``, ``eval_titles``); ``None`` with ``--dev``.
        ablation_ids: the ablations to run, resolved.
        model_path: the saved reader to use (``--model``), or ``None`` to train one.
        model_reader: that reader, loaded before any work (:func:`run_audit`), or ``None``.
        truncation: the truncated set's rule: the reference audit's of this profile
            (:attr:`mrclens.artifacts.reference.ReferenceAudit.truncation`), else ``"random"``, so
            the drops are compared with drops measured on sets made the same way.
    """

    train: Dataset
    eval: Dataset
    inputs: list[InputFile]
    notes: list[Any]
    split: dict[str, Any] | None
    ablation_ids: list[str]
    model_path: Path | None
    model_reader: Any = None
    truncation: str = "random"


@dataclass
class AuditRun(AuditSteps):
    """What the steps of one span audit share (made by :func:`run_audit` after the load step): the
    shared :class:`~mrclens.audit.ledger.AuditSteps` (``fingerprint``: :func:`input_fingerprint`), and

    Attributes:
        options: the audit's options.
        data: what the load step read.
    """

    options: AuditOptions
    data: LoadedInputs


@dataclass
class TrainedReader:
    """One reader of the audit (:func:`train_readers`).

    Attributes:
        dir: its folder (``OUT/model/``, ``OUT/model/reader-<r>/``, or ``--model``).
        key: its step key (the key its prediction steps depend on).
        seed: the seed it was trained with (``None``: a saved reader given with ``--model``).
        reader: the reader when it is in memory (``None``: loaded from ``dir`` when needed).
    """

    dir: Path
    key: str
    seed: int | None
    reader: Any = None


def run_audit(options: AuditOptions, echo: Callable[[str], None] | None = None) -> Results:
    """Run (or resume) an audit and write its outputs under ``options.out``.

    Each step reports one line to ``echo`` (default: an INFO record on the ``mrclens.audit``
    logger, :mod:`mrclens.logs`).

    Returns:
        the results written to ``results.json`` (:class:`~mrclens.artifacts.results.Results`).

    A bad ``reference`` or ``model`` stops the audit before the data is loaded; a run that fails
    before its first step finished removes the ``out`` folder it created.

    Raises:
        DataError: an input file is invalid (raised before any training).
        MRCLensError: bad options, or ``out`` holds something else and ``force`` is off, or a ``profile``
            other than the ``--model`` reader's (before any work);
            ArtifactError: a bad reference; CheckpointError: a bad ``--model`` (both before any work).
        FileNotFoundError: an input file does not exist.
    """
    from mrclens.scoring.reference_builder import read_any_reference

    echo = echo or log.info
    seconds: dict[str, float] = {}
    with inputs.session():  # the load shares the pre-flight's read of each input (mrclens.inputs): one read, hash, parse
        inputs.declare(options.train or SAMPLE_PATH, options.dev)
        # fail before work: the reference (not part of the fingerprint: it changes no perturbed set) and
        # the saved reader of --model are read before the data is loaded and before OUT is created
        reference, reference_path = read_any_reference(options.reference)
        model_reader = _load_reader(Path(options.model), options.device) if options.model else None
        if model_reader is not None:
            options = with_saved_profile(options, model_reader.config.profile_name)
        data = load_inputs(options, echo, seconds)
        reference_sha = sha256_file(reference_path)
    data.model_reader = model_reader
    choice = reference.audit_for(options.profile)  # chosen once: the truncation step and the comparison read it
    data.truncation = truncation_rule(choice)
    out = Path(options.out)
    created = not out.exists()
    ledger = StepLedger(out, input_fingerprint(options, data), options.force)
    data.inputs.append(InputFile("reference", str(reference_path), reference_sha))
    run = AuditRun(layout=OutputLayout(options.out), ledger=ledger, versions=pipeline_versions(),
                   echo=echo, seconds=seconds, options=options, data=data)
    try:
        perturb_sets(run)
        model_free, shape = model_free_step(run, reference)
        evidence_step(run)
        readers, config = train_readers(run)
        readers[0].reader = predict_sets(run, readers)
        return score_and_report(run, readers, config, model_free=model_free, reference=choice, shape=shape)
    except BaseException:
        if created and not ledger.steps:  # a failed start leaves no folder behind
            shutil.rmtree(out, ignore_errors=True)
        raise


def truncation_rule(choice: ReferenceChoice) -> str:
    """The truncated set's rule for an audit read against the reference audit ``choice``
    (:meth:`~mrclens.artifacts.reference.Reference.audit_for`): its rule
    (:attr:`~mrclens.artifacts.reference.ReferenceAudit.truncation`), or the default ``"random"``
    (:data:`mrclens.perturbations.truncation.DEFAULT_RULE`) when the reference has no audit of the reader's profile.

    Examples:
        >>> from mrclens.artifacts.reference import Reference, ReferenceAudit
        >>> ref = Reference("r", audits={"paper": ReferenceAudit("paper", 70.0, truncation="first")})
        >>> truncation_rule(ref.audit_for("paper")), truncation_rule(ref.audit_for("quick"))
        ('first', 'random')
    """
    from mrclens.perturbations.truncation import DEFAULT_RULE

    return choice.audit.truncation if choice.audit is not None else DEFAULT_RULE


def with_saved_profile(options: AuditOptions, saved: str) -> AuditOptions:
    """The options of an audit of the saved reader of ``--model``: its reader profile ``saved`` (from its
    ``config.json``) as the audit's ``profile``, so that ``results.json`` and the summary name the reader
    that was audited, and ``option_sources`` say where it came from.

    Raises:
        MRCLensError: ``options.profile`` is given and is another profile (``--profile`` says how to
            train a reader; with ``--model`` none is trained, so another profile would only mislabel it).
    """
    if options.profile is not None and options.profile != saved:
        raise MRCLensError(f"--model {options.model}: the saved reader was trained with the {saved} reader profile "
                           f"(its config.json), not {options.profile}; --profile sets how a reader is trained and "
                           "none is trained with --model: leave --profile out (the audit records the reader's own)")
    sources = dict(options.option_sources or {})
    if options.profile is None:
        sources["profile"] = f"--model {options.model} (its config.json)"
    return replace(options, profile=saved, option_sources=sources or None)


def load_inputs(options: AuditOptions, echo: Callable[[str], None], seconds: dict[str, float]) -> LoadedInputs:
    """Step 1, **load**: read and validate the training file (and ``--dev``), or split the one file by
    article title; resolve the ablations and check ``--model``. Sets ``seconds["load"]``.

    Raises:
        DataError: an input file is invalid.
        MRCLensError: an unknown ablation, or ``--model`` is not a folder.
        FileNotFoundError: an input file does not exist.
    """
    from mrclens.perturbations import resolve_ablations

    train_path = Path(options.train) if options.train else SAMPLE_PATH
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
    return LoadedInputs(train_data, eval_data, inputs, notes, split_note, ablation_ids, model_path)


def input_fingerprint(options: AuditOptions, data: LoadedInputs) -> str:
    """The audited input's step key (``audit-state.json`` ``"dataset"``): the input files' sha256, the
    title split (without its titles) and ``on_invalid`` unless it is ``"refuse"``."""
    split = data.split and {k: v for k, v in data.split.items() if k != "eval_titles"}
    parts = [[i.sha256 for i in data.inputs], split]
    if options.on_invalid != "refuse":  # (kept out of the key otherwise, so earlier audits still resume)
        parts.append(options.on_invalid)
    return step_key(*parts)


def perturb_sets(run: AuditRun) -> None:
    """Step 2, **perturb**: the original, truncated and ablation sets of the evaluation data under
    ``OUT/perturbed/``, and draws 1 … K-1 under ``OUT/perturbed/draw-<k>/``. Sets ``seconds["perturb"]``
    (all draws)."""
    from mrclens.perturbations import perturb_dataset

    options, data, layout, echo = run.options, run.data, run.layout, run.echo
    parts = ("perturb", run.fingerprint, options.seed, data.ablation_ids, run.versions, data.truncation)

    def perturb(target: Path, draw: int):
        return perturb_dataset(data.eval, target, ablations=data.ablation_ids, seed=options.seed, draw=draw,
                               truncation=data.truncation, cache_dir=options.cache_dir, progress=options.progress,
                               force=True)  # OUT was checked (StepLedger): perturbed/ is the audit's own

    perturbed = layout.perturbed_dir
    step = run.ledger.reuse_or_run("perturb", step_key(*parts), lambda: perturb(perturbed, 0),
                                   outputs=[layout.manifest])
    run.seconds["perturb"] = step.seconds
    if step.reused:
        echo(f"[perturb] reused {perturbed} (finished earlier in {step.seconds:.1f} s)")
    else:
        n_trunc = step.value.sets["original-truncated"].n
        echo(f"[perturb] {len(data.ablation_ids)} ablations written to {perturbed}; truncated set: {n_trunc:,} "
             f"questions ({step.seconds:.1f} s)")
    for k in range(1, options.perturb_seeds):
        draw_dir = layout.draw_perturbed_dir(k)
        step = run.ledger.reuse_or_run(f"perturb:draw-{k}", step_key(*parts, "draw", k), lambda: perturb(draw_dir, k),
                                       outputs=[draw_dir / MANIFEST])
        run.seconds["perturb"] += step.seconds
        if step.reused:
            echo(f"[perturb] draw {k}: reused {draw_dir}")
        else:
            echo(f"[perturb] draw {k} (seed {derived_seed(options.seed, 'draw', k)}) written to {draw_dir} "
                 f"({step.seconds:.1f} s)")
    remove_stale(perturbed, REPLICATES, [f"draw-{k}" for k in range(1, options.perturb_seeds)])


def model_free_step(run: AuditRun, reference) -> tuple[list, Any]:
    """Step 2b, the model-free figures of **all the audited data** — the training and the evaluation
    part: they need no reader, and more questions and articles narrow their intervals (issue 41) — beside
    ``reference`` (issue 17; :func:`mrclens.scoring.model_free.model_free_figures`, clustered by
    article), and the data's context length beside the reference's
    (:func:`mrclens.scoring.model_free.context_shape`; ``None`` without strata). Sets ``seconds["stats"]``, and
    reports the data route alone as a preliminary verdict (:func:`mrclens.scoring.data_route.data_route`), before
    any reader is trained."""
    from mrclens.reports.summary import format_data_route
    from mrclens.scoring.data_route import data_route
    from mrclens.scoring.model_free import cluster_standard_errors, context_shape, model_free_figures
    from mrclens.stats import compute_stats, compute_stats_per_article

    options = run.options
    audited = Dataset([*run.data.train.articles, *run.data.eval.articles], run.data.eval.version)
    t0 = time.perf_counter()
    stats = compute_stats(audited, cache_dir=options.cache_dir, progress=options.progress, n_process=1)
    per_article = compute_stats_per_article(audited, options.cache_dir)
    model_free = model_free_figures(stats, reference, clusters=cluster_standard_errors(per_article))
    shape = context_shape(stats, reference)
    run.seconds["stats"] = time.perf_counter() - t0
    n = audited.counts()["questions"]
    run.echo(f"[stats] {len(model_free)} model-free figures of the audited data ({n:,} questions, training and "
             f"evaluation parts) beside {reference.name} ({run.seconds['stats']:.1f} s)")
    # the first verdict before the reader trains (issue 57): the data route alone, read as this audit will read it
    run.echo(format_data_route(data_route(stats, per_article, reference, options.profile), preliminary=True))
    return model_free, shape


def evidence_step(run: AuditRun) -> None:
    """Step 2c, which questions of **all the audited data** (training and evaluation parts, as the model-free
    figures) carry each shortcut: ``OUT/shortcut-questions.jsonl`` (:func:`mrclens.stats.evidence.shortcut_evidence`,
    no reader; a ledger step, reused while the inputs and versions are unchanged). Adds ``seconds["evidence"]``."""
    from mrclens.artifacts.shortcut_questions import write_shortcut_questions
    from mrclens.stats.evidence import format_flag_counts, shortcut_evidence

    options, path = run.options, run.layout.shortcut_questions
    audited = Dataset([*run.data.train.articles, *run.data.eval.articles], run.data.eval.version)

    def write() -> str:
        rows = shortcut_evidence(audited, cache_dir=options.cache_dir, progress=options.progress)
        write_shortcut_questions(path, rows)
        return format_flag_counts(rows)

    step = run.ledger.reuse_or_run("evidence", step_key("evidence", run.fingerprint, run.versions), write,
                                   outputs=[path])
    run.seconds["evidence"] = step.seconds
    run.echo(f"[evidence] reused {path}" if step.reused else f"[evidence] {step.value} ({step.seconds:.1f} s): {path}")


def train_readers(run: AuditRun) -> tuple[list[TrainedReader], dict[str, Any]]:
    """Step 3, **train**: the saved reader of ``--model``, or ``train_seeds`` baseline readers trained
    (or reused) under ``OUT/model/``. Sets ``seconds["train"]``.

    Returns:
        ``(readers, config)``: reader 0 first (only reader 0 is kept in memory), and the readers'
        configuration (:meth:`~mrclens.baseline_model.ReaderConfig.to_dict`).
    """
    options, echo = run.options, run.echo
    run.seconds["train"] = 0.0
    model_path = run.data.model_path
    if model_path is not None:
        model_key = step_key("model", sorted((p.name, sha256_file(p)) for p in model_path.iterdir() if p.is_file()))
        reader = run.data.model_reader or _load_reader(model_path, options.device)
        echo(f"[train] using the saved reader in {model_path} (no training)")
        return [TrainedReader(model_path, model_key, None, reader)], reader.config.to_dict()
    from mrclens.baseline_model import ReaderConfig

    config = ReaderConfig.profile(options.profile, max_minutes=options.max_minutes, max_steps=options.max_steps)
    config_dict = config.to_dict()
    readers = []
    for r in range(options.train_seeds):
        model_dir = run.layout.reader_model_dir(r)
        reader_seed = derived_seed(options.seed, "reader", r)
        parts = ("train", run.fingerprint, options.seed, options.heldout_fraction, config_dict, run.versions)
        model_key = step_key(*parts) if r == 0 else step_key(*parts, "reader", r)
        which = "" if options.train_seeds == 1 else f" {r} (seed {reader_seed})"
        step = run.ledger.reuse_or_run("train" if r == 0 else f"train:reader-{r}", model_key,
                                       lambda: _train_reader(run, config, model_dir, reader_seed, which),
                                       outputs=[model_dir / "config.json"])
        run.seconds["train"] += step.seconds
        if step.reused:
            echo(f"[train] reused the reader{which} in {model_dir} (trained earlier in {step.seconds / 60:.1f} min)")
        else:
            echo(f"[train] done in {step.seconds / 60:.1f} min; {step.value.training.summary()}; saved to {model_dir}")
        readers.append(TrainedReader(model_dir, model_key, reader_seed,
                                     step.value if r == 0 else None))  # keep one reader in memory at most
    remove_stale(run.layout.model_dir, REPLICATES, [f"reader-{r}" for r in range(1, options.train_seeds)])
    return readers, config_dict


def _train_reader(run: AuditRun, config, model_dir: Path, seed: int, which: str):
    """Train one baseline reader on the training data less a held-out slice of its articles (which
    chooses the best epoch) and save it to ``model_dir``."""
    from mrclens.baseline_model import train

    options = run.options
    fit, heldout = split_by_title(run.data.train, options.heldout_fraction, options.seed)
    budget = [f"{config.epochs} epochs"] + ([f"{config.max_steps:,} steps"] if config.max_steps else []) + (
        [f"{config.max_minutes:g} min (wall-clock cap: not reproducible)"] if config.max_minutes is not None else [])
    run.echo(f"[train] training the baseline reader{which} (profile {options.profile}, at most "
             f"{' / '.join(budget)}) on {fit.counts()['questions']:,} questions; "
             f"best epoch chosen on {heldout.counts()['questions']:,} held-out training questions")
    reader = train(fit, config, dev=heldout, seed=seed, device=options.device, progress=options.progress, log=run.echo)
    reader.save(model_dir)
    return reader


def predict_sets(run: AuditRun, readers: Sequence[TrainedReader]) -> Any:
    """Step 4, **predict**: one prediction file per set, reader and draw (``OUT/predictions/``); a set of
    draw k > 0 whose file equals draw 0's is not predicted again. Sets ``seconds["predict"]``.

    Returns:
        reader 0 if it is in memory now, else ``None``.
    """
    layout, ledger = run.layout, run.ledger
    perturbed = layout.perturbed_dir
    draw0_files = read_manifest(perturbed).set_files()
    draw0_sha = {name: sha256_file(perturbed / file) for name, file in draw0_files.items()}
    reused = total = 0
    predict_steps = []
    written: dict[Path, set[str]] = {}  # folder under predictions/ -> the entries this run writes there
    first = None
    for r, entry in enumerate(readers):
        loaded = [entry.reader]  # loaded when the first set needs it

        def predict(data_file: Path, target: Path) -> None:
            if loaded[0] is None:
                loaded[0] = _load_reader(entry.dir, run.options.device)
            preds, na_probs, na_scores = loaded[0].predict_with_no_answer(load_squad_file(data_file),
                                                                          progress=run.options.progress)
            write_predictions(target, preds, na_probs=na_probs, na_scores=na_scores)

        for k in range(run.options.perturb_seeds):
            draw_dir = layout.draw_perturbed_dir(k)
            set_files = draw0_files if k == 0 else read_manifest(draw_dir).set_files()
            for name, file in set_files.items():
                sha = draw0_sha[name] if k == 0 else sha256_file(draw_dir / file)
                target = layout.replicate_predictions_dir(k, r) / prediction_file_name(name)
                note_written(written, target, layout.predictions_dir)
                if k > 0 and draw0_sha.get(name) == sha:
                    target.unlink(missing_ok=True)  # never a stale file: scoring reuses draw 0's predictions
                    continue
                step = f"predict:{name}" if (r, k) == (0, 0) else f"predict:reader-{r}:draw-{k}:{name}"
                predict_steps.append(step)
                total += 1
                reused += ledger.reuse_or_run(step, step_key("predict", entry.key, sha),
                                              lambda: predict(draw_dir / file, target), outputs=[target]).reused
        if r == 0:
            first = loaded[0]
        del loaded
    for folder, names in written.items():  # never a prediction file of an earlier run's set, reader or draw
        remove_stale(folder, PREDICTIONS, names)
    run.seconds["predict"] = sum(ledger.steps[s]["seconds"] for s in predict_steps)
    run.echo(f"[predict] {total} prediction files under {layout.predictions_dir}"
             f"{f' ({reused} reused)' if reused else ''} ({run.seconds['predict']:.1f} s of prediction)")
    return first


def score_and_report(run: AuditRun, readers: Sequence[TrainedReader], config: dict[str, Any], *,
                     model_free: list, reference: ReferenceChoice, shape: Any = None) -> Results:
    """Steps 5-6, **score** (:func:`mrclens.scoring.evaluate.evaluate_perturbed`) and **report**
    (:func:`mrclens.publish.write_outputs`); the load step's notes become the results' warnings."""
    from mrclens.publish import write_outputs
    from mrclens.scoring.evaluate import Replicate, evaluate_perturbed

    options, layout, data = run.options, run.layout, run.data
    reader, model_dir, model_path = readers[0].reader, readers[0].dir, data.model_path
    training_log = getattr(reader, "training_log", None) if reader is not None else _saved_training_log(model_dir)
    training = getattr(reader, "training", None) if reader is not None else _saved_training_record(model_dir)
    audit_record = AuditRecord(options=effective_options(options, data.ablation_ids, config, model_path),
                               split=data.split, model_dir=str(model_dir), training_log=training_log,
                               option_sources=dict(options.option_sources or {}), training=training)
    model = ModelRecord("baseline", BASELINE_NAME, config, _no_answer_record(reader, model_dir))
    evaluation = evaluate_perturbed(
        layout.perturbed_dir, layout.predictions_dir, results_dir=Path(options.out), model=model,
        inputs=data.inputs, step_seconds=run.seconds, audit=audit_record, seed=options.seed,
        n_resamples=options.n_resamples, model_free=model_free, shape=shape, progress=options.progress,
        reference=reference if model_path is None else None,  # a saved reader's drops are not compared
        reader_seed=readers[0].seed,
        replicates=[Replicate(layout.draw_perturbed_dir(k), layout.replicate_predictions_dir(k, r), draw=k, reader=r,
                              reader_seed=entry.seed)
                    for r, entry in enumerate(readers) for k in range(options.perturb_seeds) if (r, k) != (0, 0)])
    evaluation.results.warnings.extend([*options.language_notes, *(str(n) for n in data.notes)])
    if model_path is not None:
        evaluation.results.warnings.append(
            f"--model {model_path}: a saved reader (the {options.profile} profile, from its config.json), not one this "
            f"audit trained: its drops are not read against {reference.name}'s audits, so no category is read "
            "against the reference; the readings give the absolute evidence and cite the model-free figures")
    write_outputs(evaluation, Path(options.out))
    return evaluation.results


def effective_options(options: AuditOptions, ablation_ids: Sequence[str], config: dict[str, Any],
                      model_path: Path | None) -> dict[str, Any]:
    """The options as the audit ran (``results.json`` ``audit.options``): every field of ``options`` but
    ``progress`` and ``option_sources``, with the defaults resolved: ``ablations`` the ablation ids run
    and, for a trained reader (``model_path`` ``None``), ``max_minutes`` and ``max_steps`` the budget of
    the reader configuration ``config`` (the profile's unless given)."""
    recorded = {k: v for k, v in asdict(options).items() if k not in ("progress", "option_sources", "language_notes")}
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
