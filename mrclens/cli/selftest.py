"""``mrclens selftest``: audit datasets with planted shortcuts; exit 0 when every planting is read right, 1 if not."""

from __future__ import annotations

import sys

import click

from mrclens.cli.options import example, require_reader, show_progress, verbosity_options
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
@click.option("--cache-dir", type=click.Path(file_okay=False), help="spaCy parse cache (default: $MRCLENS_CACHE_DIR, else $XDG_CACHE_HOME/mrclens or ~/.cache/mrclens).")
@click.option("--curve", is_flag=True,
              help="Instead of audits: the detection curve of the model-free route (no reader; minutes): each span "
                   "planting in --rates of the questions, beside its clean and the shape counterparts, for --seeds "
                   "seeds; writes detection-curve.json and detection-curve.png. Exit 1 when a clean or shape "
                   "counterpart reads \"more\" or \"less\" anywhere.")
@click.option("--rates", default="0.1,0.25,0.5,1", show_default=True, metavar="SHARES",
              help="With --curve: the planting rates (shares of the questions, comma-separated, in (0, 1]).")
@click.option("--seeds", "n_seeds", default=2, show_default=True, type=click.IntRange(min=1),
              help="With --curve: how many seeds (--seed, --seed + 1, …).")
@verbosity_options
def selftest(out, plantings, data, mc_data, seed, profile, device, cache_dir, curve, rates, n_seeds) -> None:
    """Plant known shortcuts (question overlap, marked answers, question nouns, answer position) into
    a dataset, audit each planted dataset and its clean counterpart, and check that the readings flag
    each planted shortcut in its bias category and nothing on the clean counterpart. Prints a
    pass/fail table; exits 0 when every planting passes, 1 when one fails, 2 on bad input. Takes
    two audits per planting (minutes each with the quick profile). The multiple-choice planting
    mc-length (a fixed tail on the correct ending of 1,000 CODAH questions) is judged against its
    clean counterpart (docs/selftest.md); name it with --plantings. The structural
    counterparts short, long and grouped (clean data of another shape, one audit each) pass when every
    category reads in line with the reference."""
    require_reader("mrclens selftest")  # every planting is audited: a reader is trained
    names = [n.strip() for n in plantings.split(",") if n.strip()] if plantings else None
    if curve:
        _curve(out, names, data, seed, n_seeds, rates, cache_dir)
        return
    from mrclens.selftest.runner import format_selftest, run_selftest

    report = run_selftest(out, plantings=names, data=data, mc_data=mc_data, seed=seed, profile=profile,
                          device=device, cache_dir=cache_dir, progress=show_progress())
    click.echo(format_selftest(report))
    if not report.passed:
        sys.exit(EXIT_CHECK_FAILED)


def _curve(out, names, data, seed, n_seeds, rates, cache_dir) -> None:
    """``--curve``: the model-free route's detection curve (:func:`mrclens.selftest.curve.run_curve`)."""
    from mrclens.selftest.curve import format_curve, run_curve
    from mrclens.selftest.plantings import PLANTINGS, SHAPES

    try:
        shares = tuple(float(r) for r in rates.split(",") if r.strip())
    except ValueError:
        raise click.BadParameter(f"{rates!r}: give shares of the questions separated by commas, e.g. 0.25,0.5",
                                 param_hint="--rates") from None
    if not shares or any(not 0.0 < r <= 1.0 for r in shares):
        raise click.BadParameter(f"{rates!r}: every rate is a share of the questions in (0, 1]", param_hint="--rates")
    unknown = [n for n in names or () if n not in PLANTINGS and n not in SHAPES]
    if unknown:
        raise click.BadParameter(f"{', '.join(unknown)}: --curve plants the span plantings "
                                 f"({', '.join(PLANTINGS)}) beside the shapes ({', '.join(SHAPES)})",
                                 param_hint="--plantings")
    plantings = [n for n in names if n in PLANTINGS] if names else None
    shapes = [n for n in names if n in SHAPES] if names else None
    result = run_curve(out, data=data, plantings=plantings, shapes=shapes, rates=shares,
                       seeds=tuple(range(seed, seed + n_seeds)), cache_dir=cache_dir, progress=show_progress(),
                       echo=lambda line: click.echo(line, err=True))
    click.echo(format_curve(result))
    click.echo(f"written to {out}/: detection-curve.json, detection-curve.png")
    if any(p.false_flags for p in result.points if p.kind in ("clean", "shape")):
        sys.exit(EXIT_CHECK_FAILED)
