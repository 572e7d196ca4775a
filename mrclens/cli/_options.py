"""Options and messages shared by the commands that read SQuAD data."""

from __future__ import annotations

import click

from mrclens.squad import ON_INVALID, Dataset

#: ``--on-invalid refuse|skip|repair`` on every command that reads a SQuAD file.
on_invalid_option = click.option(
    "--on-invalid", "on_invalid", type=click.Choice(ON_INVALID), default="refuse", show_default=True,
    help="What to do with invalid questions: refuse the file; skip each invalid question (each is listed "
         "with its reason); or repair an answer whose exact text is within a few characters of its "
         "answer_start (each repair listed) and skip the rest.")


def echo_notes(dataset: Dataset, on_invalid: str) -> None:
    """On stderr: one line per skipped question / repaired answer, then a count."""
    if on_invalid == "refuse" or not dataset.notes:
        return
    for note in dataset.notes:
        click.echo(str(note), err=True)
    click.echo(notes_summary(dataset), err=True)


def notes_summary(dataset: Dataset) -> str:
    """``"FILE: N question(s) skipped, M answer(s) repaired (--on-invalid MODE)"``."""
    skipped = sum(1 for n in dataset.notes if n.severity == "skipped")
    repaired = sum(1 for n in dataset.notes if n.severity == "repaired")
    return f"{dataset.source}: {skipped:,} invalid question(s) skipped, {repaired:,} answer(s) repaired"
