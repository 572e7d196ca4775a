"""``mrclens card AUDIT_DIR [--out FOLDER|FILE.md] [--force]``: draft a dataset card's bias section."""

from __future__ import annotations

import logging

import click

from mrclens.cli.options import example, verbosity_options

log = logging.getLogger(__name__)


@click.command(epilog=example("mrclens card audit-squad --out card/"))
@click.argument("audit_dir", metavar="AUDIT_DIR", type=click.Path(exists=True, file_okay=False))
@click.option("--out", "out", type=click.Path(), default=None, metavar="FOLDER|FILE.md",
              help="Folder (gets bias-card.md, bias-card-body.md, bias-card-recommendations.md and "
                   "bias-card.rai.jsonld; any name, e.g. card.v2, that does not end in a file type such as .txt) "
                   "or Markdown file name ending in .md or .markdown (the others go beside it as NAME-body.md, "
                   "NAME-recommendations.md and NAME.rai.jsonld) [default: AUDIT_DIR].")
@click.option("--force", is_flag=True, help="Replace card files that exist already.")
@verbosity_options
def card(audit_dir: str, out: str | None, force: bool) -> None:
    """Draft the "Bias, Risks, and Limitations" section of a dataset card from AUDIT_DIR/results.json, for
    the people who train on or evaluate with the data: a Markdown section (each bias category's verdict
    against the reference and what it means for a model trained on the data; a compact table of each
    category's difference with its 95 % interval and the band of "in line"; what MRCLens cannot see; tool
    version, reader, data checksums; and Recommendations for the data's users); the same section's body and
    recommendations as two files to paste into the Hugging Face dataset-card template
    (bias_risks_limitations, bias_recommendations); and a Croissant RAI JSON-LD fragment (rai:dataBiases,
    rai:dataLimitations, the figures behind them in mrclens:biasFigures) to merge into croissant.json.

    Both are drafts for the dataset's authors to edit, not a certificate. Prints the paths written.
    """
    from mrclens.reports.card import write_dataset_card

    if out is not None and not out.strip():  # '' would write into the current folder
        raise click.BadParameter("is empty; give a folder or a Markdown file name ending in .md "
                                 "(leave --out out to write into AUDIT_DIR)", param_hint="'--out'")

    for path in write_dataset_card(audit_dir, out, force=force):
        click.echo(str(path))
