"""``mrclens audit [TRAIN] [--dev DEV] …``: the main job (see :mod:`mrclens.audit`)."""

from __future__ import annotations

import click

from mrclens.audit import AuditOptions, run_audit
from mrclens.cli._options import on_invalid_option
from mrclens.defaults import DEFAULT_SEED, default_profile, describe_time_caps, reader_profile_names


@click.command()
@click.argument("train", required=False, type=click.Path(exists=True, dir_okay=False))
@click.option("--dev", type=click.Path(exists=True, dir_okay=False),
              help="Evaluation data. Without it, TRAIN is split by article title (80/20, seeded).")
@click.option("--out", "out", default="mrclens-audit", show_default=True, type=click.Path(file_okay=False),
              help="Output directory (results.json, results.csv, report.html, perturbed/, predictions/, model/).")
@click.option("--model", type=click.Path(exists=True, file_okay=False),
              help="Use this saved reader (from `mrclens train`) instead of training one.")
@click.option("--ablations", default=None, help="Comma-separated ablation ids, e.g. e1,e3 (default: all).")
@click.option("--seed", default=DEFAULT_SEED, show_default=True, type=int, help="Seed for split, perturbations, training and bootstrap.")
@click.option("--profile", type=click.Choice(list(reader_profile_names())), default=None,
              help=f"Reader profile [default: {default_profile(None)} for the bundled sample, "
                   f"{default_profile('TRAIN')} otherwise].")
@click.option("--device", type=click.Choice(["auto", "cpu", "cuda"]), default="auto", show_default=True)
@click.option("--max-minutes", type=float, default=None,
              help=f"Cap on training time in minutes [default: the profile's cap: {describe_time_caps()}].")
@click.option("--force", is_flag=True, help="Replace an --out directory that holds another dataset's audit.")
@on_invalid_option
def audit(train, dev, out, model, ablations, seed, profile, device, max_minutes, force, on_invalid) -> None:
    """Audit a SQuAD-format dataset for shortcut biases (F1 drop per ablation and bias category).

    With no TRAIN, runs on the bundled real sample (40 SQuAD v1.1 articles), by default with the
    quick profile.
    """
    if train is None and dev is not None:
        raise click.UsageError("--dev needs a TRAIN file")
    options = AuditOptions(
        train=train, dev=dev, out=out, model=model,
        ablations=[a.strip() for a in ablations.split(",") if a.strip()] if ablations else None,
        seed=seed, profile=profile or default_profile(train), device=device,
        max_minutes=max_minutes, force=force, on_invalid=on_invalid,
    )
    if train is None:
        click.echo("no dataset given: auditing the bundled sample (40 SQuAD v1.1 articles, CC BY-SA 4.0)")
    results = run_audit(options, echo=click.echo)
    from mrclens.artifacts.layout import OutputLayout
    from mrclens.reports.table import format_table

    click.echo("")
    click.echo(format_table(results))
    click.echo(f"\nwritten to {out}/: {', '.join(OutputLayout(out).written())}")
