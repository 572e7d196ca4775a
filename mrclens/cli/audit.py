"""``mrclens audit [TRAIN] [--dev DEV] …``: the main job (see :mod:`mrclens.audit`).

The task of TRAIN (:func:`mrclens.formats.detect_task`: the first task whose sniffer recognizes it,
else span extraction) chooses how the command line becomes the audit's options (:data:`AUDIT_OPTIONS`:
:func:`span_audit_options`, :func:`mc_audit_options`) and which audit runs them
(:data:`mrclens.audit.AUDITS`).
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from typing import Any, Protocol

import click

from mrclens.audit import AUDITS, MCAuditOptions
from mrclens.audit.span import AuditOptions
from mrclens.cli.options import (FiniteFloat, config_option, declared_language, example, language_option, require_reader,
                                  on_invalid_option, option_sources, show_progress, verbosity_options, wide_option)
from mrclens.defaults import (
    DEFAULT_PERTURB_SEEDS,
    DEFAULT_SEED,
    DEFAULT_TRAIN_SEEDS,
    default_profile,
    describe_step_budgets,
    reader_profile_names,
)
from mrclens.formats import detect_task
from mrclens.tasks import MULTIPLE_CHOICE, SPAN, TaskTable, get_task

log = logging.getLogger(__name__)

#: CLI parameter name -> AuditOptions field, where they differ.
_FIELDS = {"resamples": "n_resamples"}


@click.command(epilog=example("mrclens audit train-v1.1.json.gz --dev dev-v1.1.json.gz --out audit-squad"))
@click.argument("train", required=False, type=click.Path(exists=True))
@click.option("--dev", type=click.Path(exists=True, dir_okay=False),
              help="Evaluation data. Without it, TRAIN is split by article title (seeded; see --dev-fraction).")
@click.option("--out", "out", default="mrclens-audit", show_default=True, type=click.Path(file_okay=False),
              metavar="FOLDER", help="Output folder (results.json, results.csv, report.html, perturbed/, predictions/, model/).")
@click.option("--model", type=click.Path(exists=True, file_okay=False),
              help="Use this saved reader (from `mrclens train`) instead of training one.")
@click.option("--ablations", default=None, help="Comma-separated ablation ids, e.g. e1,e3 (default: all).")
@click.option("--seed", default=DEFAULT_SEED, show_default=True, type=int, help="Seed for split, perturbations, training and bootstrap.")
@click.option("--profile", type=click.Choice(list(reader_profile_names())), default=None,
              help=f"Reader profile [default: {default_profile(None)} for the bundled sample, "
                   f"{default_profile('TRAIN')} otherwise; with --model, the saved reader's own].")
@click.option("--device", type=click.Choice(["auto", "cpu", "cuda"]), default="auto", show_default=True)
@click.option("--max-steps", type=click.IntRange(min=1), default=None,
              help=f"Training budget in optimizer steps [default: the profile's: {describe_step_budgets()}].")
@click.option("--max-minutes", type=FiniteFloat(min=0, min_open=True), default=None,
              help="Wall-clock cap on training in minutes [default: none]. If it stops training, the results "
                   "depend on machine speed and load and are not reproducible (the report says so).")
@click.option("--dev-fraction", type=FiniteFloat(0, 1, min_open=True, max_open=True),
              default=AuditOptions.dev_fraction, show_default=True,
              help="Without --dev: the share of TRAIN's articles used for evaluation.")
@click.option("--heldout-fraction", type=FiniteFloat(0, 1, min_open=True, max_open=True),
              default=AuditOptions.heldout_fraction, show_default=True,
              help="Share of the training articles held out to choose the best epoch (never the evaluation data).")
@click.option("--resamples", type=click.IntRange(min=1), default=AuditOptions.n_resamples, show_default=True,
              help="Bootstrap resamples per confidence interval.")
@click.option("--perturb-seeds", type=click.IntRange(min=1), default=DEFAULT_PERTURB_SEEDS, show_default=True,
              metavar="K", help="Draws of every ablation's random choices (seeds derived from --seed), all predicted by "
                                "the same reader; results give per-draw drops, their spread and CIs that include it.")
@click.option("--train-seeds", type=click.IntRange(min=1), default=DEFAULT_TRAIN_SEEDS, show_default=True,
              metavar="R", help="Readers trained with seeds derived from --seed (each costs a training run); "
                                "every reader scores every draw.")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
              help="spaCy parse cache (default: $MRCLENS_CACHE_DIR, else $XDG_CACHE_HOME/mrclens or ~/.cache/mrclens).")
@click.option("--reference", type=click.Path(), default=None, metavar="FILE|AUDIT_DIR",
              help="What the drops and model-free figures are read against: a reference file (written by "
                   "benchmarks/make_reference.py) or an earlier audit's --out directory, e.g. the previous "
                   "release of your dataset [default: the bundled SQuAD v1.1 reference].")
@click.option("--force", is_flag=True, help="Replace an --out directory that holds another dataset's audit.")
@click.option("--folds", default=None, metavar="K,K",
              help="Multiple-choice data only: the cross-validation folds to run, e.g. 0,1 (default: all).")
@wide_option
@language_option
@on_invalid_option
@config_option
@verbosity_options
@click.pass_context
def audit(ctx, train, dev, out, model, ablations, seed, profile, device, max_steps, max_minutes, dev_fraction,
          heldout_fraction, resamples, perturb_seeds, train_seeds, cache_dir, reference, force, folds, language,
          on_invalid, wide) -> None:
    """Audit a SQuAD-format dataset for shortcut biases (F1 drop per ablation and bias category).

    With no TRAIN, runs on the bundled real sample (40 SQuAD v1.1 articles), by default with the
    quick profile. Step messages and progress go to standard error; standard output ends with the
    verdict at a glance (one line per bias category, its deciding figure and what to do; two where they do
    not fit 100 characters; --wide adds the full table before it); OUT/results.json records the options used and where each
    came from.

    Multiple-choice data (issue 20) — a CODAH folder with cv_split/fold_k/, a CODAH TSV file or
    multiple-choice JSON Lines — is audited with cross-validation and accuracy instead of F1
    (see docs/multiple-choice.md).
    """
    if train is None and dev is not None:
        raise click.UsageError("--dev needs a TRAIN file")
    require_reader("mrclens audit", glove=model is None)  # a saved reader (--model) holds its own embeddings
    from mrclens.languages import require_readable_language

    language_check = require_readable_language("audit", [train, dev], cache_dir=cache_dir, on_invalid=on_invalid,
                                               declared=declared_language(language))
    for note in language_check.notes():
        log.warning(note)
    task = detect_task(train) if train is not None else get_task(None)
    options = AUDIT_OPTIONS.of(task)(
        ctx, train=train, dev=dev, out=out, model=model, ablations=ablations, seed=seed, profile=profile,
        device=device, max_steps=max_steps, max_minutes=max_minutes, dev_fraction=dev_fraction,
        heldout_fraction=heldout_fraction, resamples=resamples, perturb_seeds=perturb_seeds, train_seeds=train_seeds,
        cache_dir=cache_dir, reference=reference, force=force, folds=folds, on_invalid=on_invalid)
    if language_check.notes():  # recorded in results.json "warnings"
        options = dataclasses.replace(options, language_notes=tuple(language_check.notes()))
    results = AUDITS.of(task)(options)
    from mrclens.artifacts.layout import OutputLayout
    from mrclens.reports.summary import format_summary

    layout = OutputLayout(out)
    click.echo("")
    if wide:
        from mrclens.reports.table import format_table

        click.echo(format_table(results) + "\n")
    click.echo(f"written to {out}/: {', '.join(layout.written())}\n")
    report = str(layout.report_html) if layout.report_html.exists() else None
    evidence = str(layout.shortcut_questions) if layout.shortcut_questions.exists() else None
    click.echo(format_summary(results, report=report, wide_hint=not wide, evidence=evidence))


def span_audit_options(ctx: click.Context, *, train, dev, out, model, ablations, seed, profile, device, max_steps,
                       max_minutes, dev_fraction, heldout_fraction, resamples, perturb_seeds, train_seeds, cache_dir,
                       reference, force, folds, on_invalid) -> AuditOptions:
    """The span audit's options (:class:`mrclens.audit.span.AuditOptions`) from the command line.

    Raises:
        click.UsageError: ``--folds`` given.
        click.BadParameter: TRAIN is a folder.
    """
    if folds is not None:
        raise click.UsageError("--folds is for multiple-choice data only")
    if train is not None and Path(train).is_dir():
        raise click.BadParameter(f"{train} is a folder: SQuAD-format data is one file; a folder is read only as "
                                 "multiple-choice data with cv_split/fold_k/ or fold_k/", param_hint="TRAIN")
    options = AuditOptions(
        train=train, dev=dev, out=out, model=model,
        ablations=[a.strip() for a in ablations.split(",") if a.strip()] if ablations else None,
        seed=seed, profile=profile, device=device,  # None: AuditOptions applies the default-profile rule
        max_minutes=max_minutes, max_steps=max_steps, dev_fraction=dev_fraction, heldout_fraction=heldout_fraction,
        n_resamples=resamples, cache_dir=cache_dir, force=force, progress=show_progress(),
        perturb_seeds=perturb_seeds, train_seeds=train_seeds, reference=reference,
        option_sources=option_sources(ctx, _FIELDS), on_invalid=on_invalid,
    )
    if train is None:
        log.info("no dataset given: auditing the bundled sample (40 SQuAD v1.1 articles, CC BY-SA 4.0)")
    return options


def mc_audit_options(ctx: click.Context, *, train, dev, out, model, ablations, seed, profile, device, resamples,
                     perturb_seeds, train_seeds, cache_dir, force, folds, **span_only) -> MCAuditOptions:
    """The multiple-choice audit's options (:class:`mrclens.audit.multiple_choice.MCAuditOptions`) from the
    command line (``train``: the multiple-choice data); ``span_only``: the span audit's other options, which
    multiple-choice data ignores.

    Raises:
        click.UsageError: ``--dev``, ``--model``, ``--profile`` or ``--train-seeds`` given.
        click.BadParameter: ``--folds`` is not a list of fold numbers.
    """
    for name, value in (("--dev", dev), ("--model", model), ("--profile", profile)):
        if value is not None:
            raise click.UsageError(f"{name} is for span (SQuAD-format) data; multiple-choice data is audited with "
                                   "cross-validation over its folds")
    if train_seeds != 1:
        raise click.UsageError("--train-seeds is for span data; multiple-choice data trains one reader per fold")
    try:
        fold_ids = [int(k) for k in folds.split(",") if k.strip()] if folds else None
    except ValueError:
        raise click.BadParameter(f"{folds!r}: give fold numbers separated by commas, e.g. 0,1", param_hint="--folds")
    return MCAuditOptions(
        data=train, out=out, seed=seed, folds=fold_ids,
        ablations=[a.strip() for a in ablations.split(",") if a.strip()] if ablations else None,
        perturb_seeds=perturb_seeds, device=device, n_resamples=resamples, force=force, cache_dir=cache_dir,
        progress=show_progress(), option_sources=option_sources(ctx, _FIELDS))


class AuditOptionsFromCli(Protocol):
    """Role ``"cli_audit_options"`` (:mod:`mrclens.tasks`; the one role that names the command line):
    ``mrclens audit``'s values checked and turned into the task's audit options (the options it does
    not use refused with a message that says why).

    Raises:
        click.UsageError / click.BadParameter: an option that does not apply to the data, or a bad value.
    """

    def __call__(self, ctx: click.Context, *, train: Any, dev: Any, out: Any, model: Any, ablations: Any, seed: Any,
                 profile: Any, device: Any, max_steps: Any, max_minutes: Any, dev_fraction: Any, heldout_fraction: Any,
                 resamples: Any, perturb_seeds: Any, train_seeds: Any, cache_dir: Any, reference: Any, force: Any,
                 folds: Any, on_invalid: Any) -> AuditOptions | MCAuditOptions: ...


AUDIT_OPTIONS: TaskTable[AuditOptionsFromCli] = TaskTable("cli_audit_options", AuditOptionsFromCli, {
    SPAN: span_audit_options, MULTIPLE_CHOICE: mc_audit_options})
