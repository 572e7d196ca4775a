"""``mrclens filter DATA --out OUT [--categories C,...] [--keep unflagged|flagged] [--evidence FILE]``: the data
without the questions that carry chosen shortcuts, in its own format (:func:`mrclens.filtering.filter_data`)."""

from __future__ import annotations

import logging

import click

from mrclens.cli.options import example, show_progress, split_option, verbosity_options

log = logging.getLogger(__name__)


def _categories(value: str | None) -> list[str] | None:
    if value is None or value.strip().lower() == "all":
        return None
    return [c.strip().capitalize() for c in value.split(",") if c.strip()]


@click.command("filter", epilog=example("mrclens filter train.json --out train-without-similarity.json --categories similarity",
                              "mrclens filter dev.json --out dev-hard.json",
                              "mrclens filter dev.jsonl --out dev-easy.jsonl --keep flagged --evidence audit/shortcut-questions.jsonl"))
@click.argument("source", metavar="DATA", type=click.Path(exists=True))
@click.option("--out", required=True, type=click.Path(), metavar="FILE|FOLDER",
              help="Output file (a folder for a Hugging Face save_to_disk input); never DATA. Its manifest "
                   "(what was removed and why) is written beside it as OUT.manifest.json.")
@click.option("--categories", metavar="C,...", default="all", show_default=True,
              help="The bias categories whose flagged questions are left out (Similarity, Question, Keyword, "
                   "Position; comma-separated, any case), or all: the unflagged questions of every category, a "
                   "'hard' split.")
@click.option("--keep", type=click.Choice(("unflagged", "flagged")), default="unflagged", show_default=True,
              help="unflagged: the data without the flagged questions; flagged: only them (what the shortcut answers).")
@click.option("--evidence", type=click.Path(exists=True, dir_okay=False), metavar="FILE",
              help="The per-question evidence of DATA (shortcut-questions.jsonl, from mrclens stats DATA --evidence "
                   "FILE or an audit's folder); default: computed here from DATA (no reader; seconds to minutes).")
@click.option("--to", type=click.Choice(("squad", "jsonl", "parquet", "hf")), default=None,
              help="The output's format (default: DATA's own; needed for MRQA and Natural Questions input, which "
                   "MRCLens reads but does not write).")
@click.option("--cache-dir", type=click.Path(file_okay=False),
              help="Parse cache (default: $MRCLENS_CACHE_DIR, else $XDG_CACHE_HOME/mrclens or ~/.cache/mrclens).")
@split_option
@verbosity_options
def filter_command(source: str, out: str, categories: str, keep: str, evidence: str | None, to: str | None,
           cache_dir: str | None, split: str | None) -> None:
    """Write DATA without the questions whose per-question evidence flags a shortcut of the chosen bias
    categories (or, with --keep flagged, only those), in DATA's format, and a manifest of what was removed
    and why beside it.

    The evidence is MRCLens's per-question shortcut evidence (docs/stats-and-check.md, "Which questions carry a
    shortcut"). DATA is never changed; an OUT that would overwrite it is refused (exit 2), as is an evidence
    file of other questions. Unanswerable questions carry no evidence and are kept by --keep unflagged.
    """
    from mrclens.filtering import filter_data
    from mrclens.languages import require_readable_language

    if evidence is None:
        for note in require_readable_language("filter", [source], cache_dir=cache_dir).notes():
            log.warning(note)
    result = filter_data(source, out, _categories(categories), keep=keep, evidence=evidence, to=to, split=split,
                         cache_dir=cache_dir, progress=show_progress())
    m = result.manifest
    removed = m.questions_read - m.questions_kept
    by = ", ".join(f"{c} {n:,}" for c, n in m.removed_by_category.items())
    click.echo(f"{source}: read {m.questions_read:,} questions ({m.input_format}); kept {m.questions_kept:,}, "
               f"left out {removed:,}" + (f" (flagged: {by})" if keep == "unflagged" and by else ""))
    click.echo(f"wrote {result.out} ({result.to}) and {result.manifest_file}")
