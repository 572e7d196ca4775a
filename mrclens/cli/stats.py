"""``mrclens stats DATA [--dev DEV] [--json OUT]``: model-free dataset statistics."""

from __future__ import annotations

import click

from mrclens.cli._options import echo_notes, on_invalid_option
from mrclens.io_utils import atomic_write_json, check_output_file
from mrclens.squad import load_dataset
from mrclens.stats import compute_stats, format_stats


@click.command()
@click.argument("data", type=click.Path(exists=True, dir_okay=False))
@click.option("--dev", type=click.Path(exists=True, dir_okay=False), help="A second file (e.g. dev) to check for leakage from DATA.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False), help="Write every figure (histograms included) to this JSON file.")
@click.option("--first-k", type=click.IntRange(min=1), default=3, show_default=True, help="k of the first-k-tokens baseline.")
@click.option("--cache-dir", type=click.Path(file_okay=False), help="Parse and statistics cache (default: $MRCLENS_CACHE_DIR or ~/.cache/mrclens).")
@click.option("--jobs", type=click.IntRange(min=1), default=None, show_default="CPUs available, at most 4",
              help="Worker processes for the per-question statistics (spaCy parses in one).")
@click.option("--quiet", is_flag=True, help="No progress bars.")
@on_invalid_option
def stats(data: str, dev: str | None, json_out: str | None, first_k: int, cache_dir: str | None, jobs: int | None, quiet: bool,
          on_invalid: str) -> None:
    """Question/answer lengths, question types, answer positions and types, lexical overlap,
    heuristic baselines (EM/F1), duplicates and (with --dev) train/dev leakage of DATA.

    No model is trained: this takes seconds to minutes. Percentages are 0-100. Parses and
    each paragraph's figures are cached, so a re-run recomputes only edited paragraphs.
    """
    if json_out:
        check_output_file(json_out)
    dataset = load_dataset(data, on_invalid)
    dev_set = load_dataset(dev, on_invalid) if dev else None
    for d in (dataset, dev_set):
        if d is not None:
            echo_notes(d, on_invalid)
    result = compute_stats(dataset, dev_set, cache_dir=cache_dir, progress=not quiet, first_k=first_k, n_process=jobs)
    notes = [str(n) for d in (dataset, dev_set) if d is not None for n in d.notes]
    if notes:  # only then, so that the figures of a valid file are unchanged
        result["invalid_input"] = {"on_invalid": on_invalid, "notes": notes}
    if json_out:
        atomic_write_json(json_out, result, indent=1, protect=tuple(p for p in (data, dev) if p))
    click.echo(format_stats(result))
    if json_out:
        click.echo(f"wrote {json_out}")
