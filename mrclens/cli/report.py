"""``mrclens report DIR [--out FILE]``: rebuild the HTML bias report from an audit directory."""

from __future__ import annotations

import click

from mrclens.cli.options import example, verbosity_options
from mrclens.defaults import DEFAULT_EXAMPLES


@click.command(epilog=example("mrclens report mrclens-audit --out report.html"))
@click.argument("directory", metavar="DIR", type=click.Path(exists=True, file_okay=False))
@click.option("--out", "out_file", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Output file: the HTML page (default DIR/report.html).")
@click.option("--examples", "n_examples", type=click.IntRange(0, 50), default=DEFAULT_EXAMPLES, show_default=True,
              help="Example items shown per ablation.")
@verbosity_options
def report(directory: str, out_file: str | None, n_examples: int) -> None:
    """Write the self-contained HTML bias report of the audit in DIR.

    Reads DIR/results.json, the perturbed sets and the saved predictions; runs no model.
    """
    from mrclens.reports import write_report

    path = write_report(directory, out_file, n_examples=n_examples)
    click.echo(f"wrote {path}")
