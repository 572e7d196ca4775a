"""``mrclens validate FILE``: counts and every schema problem; exit 0 if valid, 2 if not."""

from __future__ import annotations

import sys

import click

from mrclens.errors import EXIT_BAD_INPUT
from mrclens.validation import validate_file


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
def validate(file: str) -> None:
    """Check a SQuAD v1.1/v2.0 FILE (.json or .json.gz) and print its counts and problems."""
    report = validate_file(file)
    c = report.counts
    click.echo(
        f"{file}: {c['articles']:,} articles, {c['paragraphs']:,} paragraphs, {c['questions']:,} questions, "
        f"{c['answers']:,} answers, {c['unanswerable']:,} unanswerable"
    )
    for problem in report.problems:
        click.echo(str(problem), err=True)
    if report.ok:
        click.echo(f"valid ({len(report.warnings):,} warning(s))" if report.warnings else "valid")
    else:
        click.echo(f"INVALID: {len(report.errors):,} error(s), {len(report.warnings):,} warning(s)", err=True)
        sys.exit(EXIT_BAD_INPUT)
