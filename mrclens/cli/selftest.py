"""``mrclens selftest``: audit datasets with planted shortcuts; exit 0 when every planting is read right, 1 if not."""

from __future__ import annotations

import sys

import click

from mrclens.cli.options import example, show_progress, verbosity_options
from mrclens.defaults import DEFAULT_SEED, reader_profile_names
from mrclens.errors import EXIT_CHECK_FAILED


@click.command(epilog=example(
    "mrclens selftest --out selftest", "mrclens selftest --plantings overlap,position --out st",
    "mrclens selftest --plantings mc-length --mc-data ../shared/data/codah/full_data.tsv.gz --out st-mc"))
@click.option("--out", "out", default="mrclens-selftest", show_default=True, type=click.Path(file_okay=False),
              metavar="FOLDER", help="Output folder: selftest.json, and per planting the two datasets and their audits.")
@click.option("--plantings", default=None, metavar="NAMES",
              help="Comma-separated plantings (default: the span plantings overlap, marked, keywords, position and "
                   "the structural counterparts short, long, grouped; the multiple-choice planting mc-length runs "
                   "only when named).")
@click.option("--data", type=click.Path(exists=True, dir_okay=False),
              help="Build the span plantings from this dataset instead of the bundled sample.")
@click.option("--mc-data", type=click.Path(exists=True, dir_okay=False),
              help="Build the multiple-choice plantings (mc-length) from this CODAH-style file (default: CODAH's "
                   "full_data.tsv.gz under $MRCLENS_SHARED_DATA/codah/ or ../shared/data/codah/ beside a checkout).")
@click.option("--seed", default=DEFAULT_SEED, show_default=True, type=click.IntRange(min=0),
              help="Seed of the plantings and of every audit.")
@click.option("--profile", default="quick", show_default=True, type=click.Choice(list(reader_profile_names())),
              help="Reader profile of the audits.")
@click.option("--device", default="auto", show_default=True, type=click.Choice(["auto", "cpu", "cuda"]))
@click.option("--cache-dir", type=click.Path(file_okay=False), help="spaCy parse cache (default: $MRCLENS_CACHE_DIR or ~/.cache/mrclens).")
@verbosity_options
def selftest(out, plantings, data, mc_data, seed, profile, device, cache_dir) -> None:
    """Plant known shortcuts (question overlap, marked answers, question nouns, answer position) into
    a dataset, audit each planted dataset and its clean counterpart, and check that the readings flag
    each planted shortcut in its bias category and nothing on the clean counterpart. Prints a
    pass/fail table; exits 0 when every planting passes, 1 when one fails, 2 on bad input. Takes
    two audits per planting (minutes each with the quick profile). The multiple-choice planting
    mc-length (a fixed tail on the correct ending of 1,000 CODAH questions) is judged against its
    clean counterpart (README, "Does a verdict mean anything?"); name it with --plantings. The structural
    counterparts short, long and grouped (clean data of another shape, one audit each) pass when every
    category reads in line with the reference."""
    from mrclens.selftest.runner import format_selftest, run_selftest

    names = [n.strip() for n in plantings.split(",") if n.strip()] if plantings else None
    report = run_selftest(out, plantings=names, data=data, mc_data=mc_data, seed=seed, profile=profile,
                          device=device, cache_dir=cache_dir, progress=show_progress())
    click.echo(format_selftest(report))
    if not report.passed:
        sys.exit(EXIT_CHECK_FAILED)
