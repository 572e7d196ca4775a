"""``mrclens compare A B [C …] --out DIR [--names …]``: datasets and audits side by side, with CIs on the differences.

Writes ``DIR/comparison.json``, ``DIR/comparison.csv`` and ``DIR/comparison.html`` (all or
nothing) and prints the table; the library function is :func:`mrclens.compare.compare`.
Inputs are all span-extraction or all multiple-choice (issue 20).
Exit status: 0 done, 2 bad input (an unreadable input, span and multiple-choice inputs mixed, a bad
option, an unwritable --out), 3 a bug.
"""

from __future__ import annotations

import logging
from pathlib import Path

import click

from mrclens.cli.options import JSON_HELP, FiniteFloat, example, on_invalid_option, show_progress, verbosity_options, wide_option
from mrclens.io_utils import json_text

log = logging.getLogger(__name__)


@click.command(epilog=example(
    "mrclens compare dev-v1.1.json.gz DROP.jsonl.gz DuoRC.ParaphraseRC.jsonl.gz --out compare-out",
    "mrclens compare audit-seed0/ audit-seed1/ --names seed0,seed1 --out seeds",
    "mrclens compare codah/cv_split/fold_0/test.tsv.gz codah/cv_split/fold_1/test.tsv.gz --out codah-folds"))
@click.argument("inputs", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--out", "out_dir", type=click.Path(file_okay=False), metavar="FOLDER",
              help="Output folder: comparison.json, comparison.csv and comparison.html are written into it.")
@click.option("--names", default=None, help="Comma-separated names of the inputs, one per input (default: the file names).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the bootstrap.")
@click.option("--resamples", type=click.IntRange(min=1), default=1000, show_default=True, help="Bootstrap resamples.")
@click.option("--confidence", type=FiniteFloat(0.5, 0.999), default=0.95, show_default=True, help="Level of the intervals.")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.option("--cache-dir", type=click.Path(file_okay=False), help="Parse and statistics cache (default: $MRCLENS_CACHE_DIR, else $XDG_CACHE_HOME/mrclens or ~/.cache/mrclens).")
@click.option("--jobs", type=click.IntRange(min=1), default=None, show_default="CPUs available, at most 4",
              help="Worker processes for the statistics of dataset inputs.")
@click.option("--force", is_flag=True, help="Write into a non-empty --out that does not hold an earlier comparison (same-named files are replaced).")
@wide_option
@on_invalid_option
@verbosity_options
def compare(inputs: tuple[str, ...], out_dir: str | None, names: str | None, seed: int, resamples: int, confidence: float,
            as_json: bool, cache_dir: str | None, jobs: int | None, force: bool, on_invalid: str, wide: bool) -> None:
    """Compare INPUTS side by side: each a dataset file (any format MRCLens reads; statistics
    computed on the fly), a `mrclens stats --out` JSON file, or an audit / evaluation output
    directory. Every later input is compared with the first: lengths, the model-free evidence
    per bias category, question and answer types and, for audits, each ablation's drops, each
    difference with a bootstrap confidence interval (normal approximation where an input has
    summary figures only); significant differences are marked. Drops are compared only between
    audits with the same reader profile and number of draws (only relative drops when the
    readers' strength differs).

    Multiple-choice INPUTS (CODAH TSV or JSON Lines files, CODAH folders, their `mrclens stats`
    JSON, multiple-choice audits) are compared with each other only: heuristic-baseline
    accuracies, correct-minus-wrong ending length, label and category shares and, for audits,
    accuracy and its drops. Mixing them with span inputs is refused (exit 2).

    Standard output ends with the comparison at a glance: per bias category, each later input
    against the first (more / less of the shortcut, or in line); --wide adds the full table."""
    from mrclens.artifacts.comparison import write_comparison
    from mrclens.artifacts.folders import COMPARISON, check_output_folder, write_folder
    from mrclens.artifacts.layout import COMPARISON_FILES, COMPARISON_HTML
    from mrclens.reports.compare import write_comparison_page
    from mrclens.compare import compare as run_compare, format_comparison

    if len(inputs) < 2:
        raise click.UsageError("give at least two inputs to compare")
    name_list = [n.strip() for n in names.split(",")] if names else None
    if out_dir is not None:
        check_output_folder(out_dir, COMPARISON, force=force)
    from mrclens.languages import describe_languages

    for line, readable in describe_languages(inputs, cache_dir=cache_dir, on_invalid=on_invalid):
        (log.info if readable else log.warning)(line)
    comparison = run_compare(list(inputs), name_list, seed=seed, n_resamples=resamples, confidence=confidence,
                             cache_dir=cache_dir, progress=show_progress() and not as_json, on_invalid=on_invalid,
                             n_process=jobs)
    if out_dir is not None:
        with write_folder(out_dir, COMPARISON, force=force, protect=inputs) as stage:
            write_comparison(comparison, stage)
            write_comparison_page(comparison, stage)
    if as_json:
        click.echo(json_text(comparison.to_json(), ensure_ascii=False))
        if out_dir is not None:
            click.echo(f"\nwrote {', '.join(str(Path(out_dir) / name) for name in COMPARISON_FILES)}")
        return
    from mrclens.reports.summary import format_comparison_summary

    if wide:
        click.echo(format_comparison(comparison) + "\n")
    page = None
    if out_dir is not None:
        click.echo(f"wrote {', '.join(str(Path(out_dir) / name) for name in COMPARISON_FILES)}\n")
        page = str(Path(out_dir) / COMPARISON_HTML)
    for overlap in comparison.overlaps:  # inputs that share questions or contexts are not independent samples
        click.echo(f"Overlap: {overlap.sentence()}")
    click.echo(format_comparison_summary(comparison, page))
