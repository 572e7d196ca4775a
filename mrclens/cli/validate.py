"""``mrclens validate FILE [--json]``: counts and every schema problem; exit 0 if valid, 2 if not."""

from __future__ import annotations

import json
import sys

import click

from mrclens.cli.options import JSON_HELP, example, verbosity_options
from mrclens.errors import EXIT_BAD_INPUT
from mrclens.validation import validate_file


@click.command(epilog=example("mrclens validate dev-v1.1.json.gz"))
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True,
              help=JSON_HELP + ' Fields: file, valid, counts, errors, warnings (each problem: '
                               'message, title, qid); the exit code is the same as without --json.')
@verbosity_options
def validate(file: str, as_json: bool) -> None:
    """Check a SQuAD v1.1/v2.0 FILE (.json or .json.gz) and print its counts and problems."""
    report = validate_file(file)
    c = report.counts
    if as_json:
        def problems(items):
            return [{"message": p.message, "title": p.title, "qid": p.qid} for p in items]

        click.echo(json.dumps({"file": file, "valid": report.ok, "counts": c, "errors": problems(report.errors),
                               "warnings": problems(report.warnings)}, ensure_ascii=False, indent=1))
        if not report.ok:
            sys.exit(EXIT_BAD_INPUT)
        return
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
