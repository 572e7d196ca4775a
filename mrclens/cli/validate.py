"""``mrclens validate FILE``: counts and every schema problem; exit 0 if valid, 2 if not."""

from __future__ import annotations

import sys

import click

from mrclens.cli._options import notes_summary, on_invalid_option
from mrclens.errors import EXIT_BAD_INPUT
from mrclens.validation import validate_file


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@on_invalid_option
def validate(file: str, on_invalid: str) -> None:
    """Check a SQuAD v1.1/v2.0 FILE (.json or .json.gz) and print its counts and problems.

    Counts are of what the file holds (an invalid answer still counts as an answer). With
    --on-invalid skip or repair, lists what the other commands would skip or repair with the
    same option, and exits 0 when what is left is usable.
    """
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
        return
    fixed = validate_file(file, "skip" if on_invalid == "refuse" else on_invalid)
    skipped = sum(1 for n in fixed.dataset.notes if n.severity == "skipped" and n.qid is not None)
    where = f"{skipped:,} of {c['questions']:,} questions invalid" if fixed.ok else "the file cannot be read as a whole"
    click.echo(f"INVALID: {len(report.errors):,} error(s) ({where}), {len(report.warnings):,} warning(s)", err=True)
    if on_invalid == "refuse":
        if fixed.ok and fixed.counts["questions"]:
            click.echo("(--on-invalid skip would leave the invalid questions out; --on-invalid repair would "
                       "first move answers found within a few characters)", err=True)
        sys.exit(EXIT_BAD_INPUT)
    for note in fixed.dataset.notes:
        click.echo(str(note))
    click.echo(f"with --on-invalid {on_invalid}: " + notes_summary(fixed.dataset).split(": ", 1)[1]
               + f"; {fixed.counts['questions']:,} questions left")
    if not fixed.ok or not fixed.counts["questions"]:
        for problem in fixed.errors:
            click.echo(str(problem), err=True)
        sys.exit(EXIT_BAD_INPUT)
