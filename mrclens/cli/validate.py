"""``mrclens validate FILE [--json]``: counts and every schema problem; exit 0 if valid, 2 if not."""

from __future__ import annotations

import sys

import click

from mrclens.cli.options import (JSON_HELP, example, note_counts, notes_summary, on_invalid_option, split_option,
                                 verbosity_options)
from mrclens.errors import EXIT_BAD_INPUT
from mrclens.tasks import task_field
from mrclens.io_utils import json_text
from mrclens.validation import validate_file


@click.command(epilog=example("mrclens validate dev-v1.1.json.gz"))
@click.argument("file", type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True,
              help=JSON_HELP + ' Fields: file, valid (the file as it is), usable (what the exit code says: '
                               'true for 0), counts, errors, warnings (each problem: message, title, qid), records '
                               '(span data: read, kept, skipped, dropped, refused; with --on-invalid skip/repair, '
                               'as that read counts them), task (multiple-choice data), and with --on-invalid '
                               'skip/repair on an invalid file: on_invalid (mode, skipped, repaired, notes, '
                               'questions_left, usable); the exit code is the same as without --json.')
@on_invalid_option
@split_option
@verbosity_options
def validate(file: str, as_json: bool, on_invalid: str, split: str | None) -> None:
    """Check a data FILE (any format MRCLens reads) and print its counts and problems.

    Counts are of what the file holds (an invalid answer still counts as an answer). With
    --on-invalid skip or repair, lists what the other commands would skip or repair with the
    same option, and exits 0 when what is left is usable. Multiple-choice data (CODAH TSV,
    multiple-choice JSON Lines) is checked by its own reader, which refuses any invalid question. FILE may be a folder
    written by Hugging Face datasets' save_to_disk (a DatasetDict: with --split).
    """
    report = validate_file(file, split=split)
    c = report.counts
    if not report.task.is_default:
        return _validate_other_task(report, as_json)
    if as_json:
        def problems(items):
            return [{"message": p.message, "title": p.title, "qid": p.qid} for p in items]

        obj = {"file": file, "valid": report.ok, "usable": report.ok, "counts": c, "errors": problems(report.errors),
               "warnings": problems(report.warnings)}
        records = report.records
        if not report.ok and on_invalid != "refuse":  # what the other commands read with the same option
            fixed = validate_file(file, on_invalid, split)
            records = fixed.records
            obj["usable"] = fixed.ok and fixed.counts["questions"] > 0
            obj["on_invalid"] = {"mode": on_invalid, **note_counts(fixed.dataset),
                                 "notes": [str(n) for n in fixed.dataset.notes],
                                 "questions_left": fixed.counts["questions"], "usable": obj["usable"]}
        if records is not None:
            obj["records"] = vars(records)
        usable = obj["usable"]
        click.echo(json_text(obj, ensure_ascii=False, indent=1))
        if not usable:
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
        return
    fixed = validate_file(file, "skip" if on_invalid == "refuse" else on_invalid, split)
    records = fixed.records
    where = (f"{records.skipped:,} of {records.read:,} questions invalid" if fixed.ok and records is not None
             else "the file cannot be read as a whole")
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


def _validate_other_task(report, as_json: bool) -> None:
    """``validate`` of another task's data (multiple choice): counts, problems, exit 2 when invalid."""
    if as_json:
        obj = {"file": report.file, **task_field(report.task.name), "valid": report.ok, "usable": report.ok,
               "counts": report.counts,
               "errors": [{"message": p.message, "qid": p.qid} for p in report.errors],
               "warnings": [{"message": p.message, "qid": p.qid} for p in report.warnings]}
        click.echo(json_text(obj, ensure_ascii=False, indent=1))
    else:
        counts = ", ".join(f"{v:,} {k}" for k, v in report.counts.items())
        click.echo(f"{report.file}: {report.task.title} data: {counts}")
        for problem in report.problems:
            click.echo(str(problem), err=True)
        if report.ok:
            click.echo(f"valid ({len(report.warnings):,} warning(s))" if report.warnings else "valid")
        else:
            click.echo(f"INVALID: {len(report.errors):,} error(s), {len(report.warnings):,} warning(s)", err=True)
    if not report.ok:
        sys.exit(EXIT_BAD_INPUT)
