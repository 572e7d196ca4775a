"""``mrclens convert IN OUT [--from FORMAT] --to squad|jsonl|parquet|hf``: write any format MRCLens reads as SQuAD
JSON, the flat form with the Hub's ``squad`` features, or a Hugging Face ``save_to_disk`` folder."""

from __future__ import annotations

import click

from mrclens.cli.options import AliasedOption, example, split_option, verbosity_options
from mrclens.formats import FORMATS, OUTPUT_FORMATS, convert as convert_file
from mrclens.formats.hf_flat import left_out


def _options(pairs: tuple[str, ...]) -> dict[str, object]:
    out: dict[str, object] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise click.UsageError(f"--option {pair!r}: expected NAME=VALUE, e.g. yes_no=unanswerable")
        out[name.strip().replace("-", "_")] = {"true": True, "false": False}.get(value.strip().lower(), value.strip())
    return out


@click.command(epilog=example("mrclens convert DuoRC.ParaphraseRC.jsonl.gz duorc-squad.json --to squad",
                              "mrclens convert dev-v2.0.json dev-v2.0-hf --to hf",
                              "mrclens convert squad-hf-folder dev.json --to squad --split validation"))
@click.argument("source", metavar="IN", type=click.Path(exists=True))
@click.argument("out", metavar="OUT", type=click.Path())
@click.option("--to", "to", type=click.Choice(OUTPUT_FORMATS), required=True,
              help="squad: SQuAD JSON; jsonl: flat Hugging Face records, one per line; parquet: the same records; "
                   "hf: a folder written by Hugging Face datasets' save_to_disk (datasets.load_from_disk reads it). "
                   "The flat forms have exactly the Hub's squad/squad_v2 features.")
@click.option("--from", "--format", "fmt", cls=AliasedOption, hidden_aliases=("--format",),
              type=click.Choice(("auto",) + FORMATS), default="auto", show_default=True,
              help="Format of IN (auto: detected from the content).")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="A reader option, repeatable. MRQA: id_field=qid|id, merge_duplicates=true|false, on_no_span=error|drop. "
                   "Simplified NQ: yes_no=drop|unanswerable, multi_span=drop|first|all|cover, tables_lists=drop|keep, "
                   "no_long_answer=drop|unanswerable, long_only=drop|unanswerable.")
@split_option
@click.option("--extra-columns", is_flag=True,
              help="jsonl/parquet/hf: also write is_impossible and every other question field (e.g. plausible_answers) "
                   "as columns, so nothing is lost; the features are then no longer exactly the Hub's.")
@verbosity_options
def convert(source: str, out: str, to: str, fmt: str, options: tuple[str, ...], split: str | None,
            extra_columns: bool) -> None:
    """Read IN (SQuAD JSON, flat JSON Lines / JSON / parquet, a Hugging Face save_to_disk folder, MRQA,
    simplified NQ) and write it to OUT.

    Prints the format read (detected or given), what the conversion did (answers merged,
    normalised or dropped; NQ examples kept or dropped, by reason), the counts written and,
    for the flat forms, the question fields the Hub's columns leave out.
    Names ending in .gz are gzip-compressed. Exit 2 if IN has errors (nothing is written).
    """
    loaded = convert_file(source, out, to=to, format=fmt, split=split, extra_columns=extra_columns, **_options(options))
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
    lost = left_out(loaded.dataset) if to != "squad" and not extra_columns else {}
    if lost:
        fields = ", ".join(f"{name} ({n:,} questions)" for name, n in lost.items())
        click.echo(f"not written (the Hub's squad columns only): {fields}; --extra-columns keeps them")
