"""``mrclens convert IN OUT [--from FORMAT] --to squad|jsonl|parquet``: write any format MRCLens reads as SQuAD JSON or the flat form."""

from __future__ import annotations

import click

from mrclens.cli.options import AliasedOption, example, verbosity_options
from mrclens.formats import FORMATS, OUTPUT_FORMATS, convert as convert_file


def _options(pairs: tuple[str, ...]) -> dict[str, object]:
    out: dict[str, object] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise click.UsageError(f"--option {pair!r}: expected NAME=VALUE, e.g. yes_no=unanswerable")
        out[name.strip().replace("-", "_")] = {"true": True, "false": False}.get(value.strip().lower(), value.strip())
    return out


@click.command(epilog=example("mrclens convert DuoRC.ParaphraseRC.jsonl.gz duorc-squad.json --to squad"))
@click.argument("source", metavar="IN", type=click.Path(exists=True, dir_okay=False))
@click.argument("out", metavar="OUT", type=click.Path(dir_okay=False))
@click.option("--to", "to", type=click.Choice(OUTPUT_FORMATS), required=True,
              help="squad: SQuAD JSON; jsonl: flat Hugging Face records, one per line; parquet: the same records.")
@click.option("--from", "--format", "fmt", cls=AliasedOption, hidden_aliases=("--format",),
              type=click.Choice(("auto",) + FORMATS), default="auto", show_default=True,
              help="Format of IN (auto: detected from the content).")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="A reader option, repeatable. MRQA: id_field=qid|id, merge_duplicates=true|false, on_no_span=error|drop. "
                   "Simplified NQ: yes_no=drop|unanswerable, multi_span=drop|first|all|cover, tables_lists=drop|keep, "
                   "no_long_answer=drop|unanswerable, long_only=drop|unanswerable.")
@verbosity_options
def convert(source: str, out: str, to: str, fmt: str, options: tuple[str, ...]) -> None:
    """Read IN (SQuAD JSON, flat JSON Lines / JSON / parquet, MRQA, simplified NQ) and write it to OUT.

    Prints the format read (detected or given), what the conversion did (answers merged,
    normalised or dropped; NQ examples kept or dropped, by reason) and the counts written.
    Names ending in .gz are gzip-compressed. Exit 2 if IN has errors (nothing is written).
    """
    loaded = convert_file(source, out, to=to, format=fmt, **_options(options))
    click.echo(f"{source}: read as {loaded.describe()}")
    for note in loaded.notes:
        click.echo(f"  {note}")
    warnings = [p for p in loaded.problems if p.severity == "warning"]
    for problem in warnings[:10]:
        click.echo(str(problem), err=True)
    if len(warnings) > 10:
        click.echo(f"... and {len(warnings) - 10:,} more warnings", err=True)
    c = loaded.dataset.counts()
    click.echo(f"wrote {out} ({to}): {c['articles']:,} articles, {c['paragraphs']:,} paragraphs, "
               f"{c['questions']:,} questions, {c['answers']:,} answers, {c['unanswerable']:,} unanswerable")
