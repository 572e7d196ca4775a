"""``mrclens check DATA [--dev DEV] [--rules FILE] [--with-audit DIR] [--compare-with REF] [--json]``: pre-training sanity check.

Exit status: 0 no rule fails (a rule whose interval holds its threshold is UNSURE: too small to tell, not a
failure; with --skip-non-dataset also: DATA is no QA dataset, skipped with a note), 1 any rule fails, 2 bad input
(data, rules file, audit file, an audit of another file).
DATA may be multiple-choice data (issue 20: a CODAH TSV or JSON Lines file, or a folds folder):
then the rules are ``mrclens/data/default_rules_mc.toml`` on its multiple-choice figures.
"""

from __future__ import annotations

import sys

import click

from mrclens.cli.options import (JSON_HELP, declared_language, example, jobs_option, language_option, on_invalid_option,
                                 show_progress, verbosity_options)
from mrclens.io_utils import json_text

#: ``ctx.meta`` keys where the command leaves what it found, for a caller that runs it in its own process (the
#: CI gate, :mod:`mrclens.cli.gate`): the :class:`~mrclens.checks.CheckReport`, or why DATA was skipped as no
#: QA dataset (``--skip-non-dataset``).
REPORT = "mrclens.check.report"
SKIPPED = "mrclens.check.skipped"


@click.command(epilog=example("mrclens check train-v1.1.json.gz --dev dev-v1.1.json.gz --rules my-rules.toml"))
@click.argument("data", type=click.Path(exists=True))
@click.option("--dev", type=click.Path(exists=True, dir_okay=False), help="A second file (e.g. dev): enables the train/dev leakage rules.")
@click.option("--rules", "rules_file", type=click.Path(exists=True, dir_okay=False), help="TOML file overriding the default rules.")
@click.option("--with-audit", "audit_dir", type=click.Path(exists=True, file_okay=False), help="An `mrclens audit` output directory: enables the rules on the audit's verdicts against its reference (and any other rule on its results.json).")
@click.option("--compare-with", "compare_with", type=click.Path(exists=True),
              help="A reference (dataset, `mrclens stats` JSON or audit directory) to compare DATA with: enables the rules on compare.… (as `mrclens compare REF DATA`).")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.option("--cache-dir", type=click.Path(file_okay=False), help="spaCy parse cache (default: $MRCLENS_CACHE_DIR, else $XDG_CACHE_HOME/mrclens or ~/.cache/mrclens).")
@jobs_option("Worker processes for the per-question statistics (spaCy parses in one).", show_default="CPUs available, at most 4")
@click.option("--language-ok", is_flag=True,
              help="DATA is not in English (MRCLens parses English only): run only what reads no words (counts, "
                   "duplicates, train/dev leakage, answer position in characters) and, for Spanish, Russian and Arabic, "
                   "the answer sentence's rank by position (spaCy's rule-based sentencizer: rule answer-position); every "
                   "other rule is skipped, never failed. See docs/languages.md.")
@click.option("--skip-non-dataset", is_flag=True,
              help="When DATA is surely no QA dataset (its content, not its name: e.g. package.json, "
                   "dataset_infos.json, croissant.json, JSON Lines of other records), say so in one note on "
                   "standard error and exit 0 instead of 2. For a CI gate given every .json file "
                   "(mrclens-ci-check passes it); a file that is no valid JSON is still read and fails.")
@language_option
@on_invalid_option
@verbosity_options
def check(data: str, dev: str | None, rules_file: str | None, audit_dir: str | None, compare_with: str | None,
          as_json: bool, cache_dir: str | None, jobs: int | None, language_ok: bool, skip_non_dataset: bool,
          language: str, on_invalid: str) -> None:
    """Check DATA for known shortcuts before training: one line per rule (pass/fail/unsure, value
    with its 95% CI, threshold, meaning). A rule on a share, an F1 or a mean fails only when its whole
    interval lies beyond the threshold; UNSURE when the interval holds it (too small to tell). Exits
    0 if no rule fails (UNSURE included), 1 if any fails, 2 on bad input (also: an audit of another
    file under --with-audit), so it can gate a training pipeline or a CI job.

    Multiple-choice DATA (a CODAH TSV or JSON Lines file, or a CODAH folder with
    cv_split/fold_k/) is checked with the multiple-choice rules (heuristic baselines against
    chance, ending length, label balance, duplicates, leakage between each fold's train and
    test parts)."""
    if skip_non_dataset:
        from mrclens.formats import not_a_dataset

        why = not_a_dataset(data)
        if why is not None:
            click.get_current_context().meta[SKIPPED] = why
            click.echo(f"note: {data}: skipped, not a QA dataset ({why})", err=True)
            if as_json:
                click.echo(json_text({"data": data, "skipped": why}, indent=1))
            return
    from mrclens.checks import format_report, run_check  # heavy (scikit-learn): only when the command runs

    if language_ok and language == "en":
        raise click.UsageError("--language-ok (the data is not English) and --language en (it is) exclude each other")
    report = run_check(data, dev, rules_file, audit_dir, cache_dir=cache_dir, progress=show_progress() and not as_json,
                       declared_language=declared_language(language),
                       on_invalid=on_invalid, compare_with=compare_with, n_process=jobs, language_ok=language_ok,
                       on_language=lambda note: click.echo(note, err=True))
    click.get_current_context().meta[REPORT] = report
    for note in report.notes:
        click.echo(note, err=True)
    if report.notes:
        click.echo(f"{len(report.notes):,} invalid question(s) skipped / answer(s) repaired (--on-invalid {on_invalid})", err=True)
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        click.echo(json_text(report.to_json(), indent=1))
    else:
        click.echo(format_report(report))
    sys.exit(report.exit_code)
