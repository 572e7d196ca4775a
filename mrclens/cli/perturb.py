"""``mrclens perturb DATA --out DIR``: write the original, truncated and perturbed sets (e1–e10 and controls) and the manifest."""

from __future__ import annotations

import click

from mrclens.artifacts.manifest import PerturbationManifest
from mrclens.cli.options import echo_notes, example, on_invalid_option, show_progress, verbosity_options
from mrclens.perturbations import ABLATIONS, perturb_dataset
from mrclens.formats import load_dataset


def summary_lines(manifest: PerturbationManifest) -> list[str]:
    """The terminal summary of a manifest: set sizes, drop reasons and, per ablation, n / changed / unchanged by reason."""
    sets = manifest.sets
    trunc = sets["original-truncated"]
    dropped = ", ".join(f"{reason} {n:,}" for reason, n in (trunc.dropped or {}).items()) or "none"
    lines = [
        f"original: {sets['original'].n:,} questions",
        f"original-truncated: {trunc.n:,} questions (one per kept paragraph; "
        f"{trunc.paragraphs_total or 0:,} paragraphs, dropped: {dropped})",
    ]
    for aid, a in manifest.ablations.items():
        reasons = ", ".join(f"{r} {n:,}" for r, n in a.unchanged.items()) or "-"
        lines.append(
            f"{aid} {a.name:<22} {a.category:<10} on {a.eval_set:<9} n={a.n or 0:>6,}  "
            f"changed={a.changed or 0:>6,}  unchanged: {reasons}"
        )
    return lines


@click.command(epilog=example("mrclens perturb dev-v1.1.json.gz --out perturbed --ablations e1,e3"))
@click.argument("data", type=click.Path(exists=True, dir_okay=False))
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Output directory (created if missing).")
@click.option("--ablations", default=None, metavar="IDS",
              help=f"Comma-separated ablation ids (default: all of {','.join(ABLATIONS)}).")
@click.option("--seed", default=0, show_default=True, type=click.IntRange(min=0), help="Global seed of every random choice.")
@click.option("--draw", default=0, show_default=True, type=click.IntRange(min=0), metavar="K",
              help="Write draw K of every ablation's random choices (seed derived from --seed, mrclens.seeds; "
                   "0 is --seed itself), as `mrclens audit --perturb-seeds` writes them.")
@click.option("--format", "fmt", type=click.Choice(["json", "jsonl"]), default="json", show_default=True,
              help="json: SQuAD JSON only; jsonl: also the Hugging Face `datasets` flat form (.jsonl) of every set.")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
              help="spaCy parse cache (default: $MRCLENS_CACHE_DIR or ~/.cache/mrclens).")
@click.option("--n-process", default=1, show_default=True, type=click.IntRange(min=1), help="spaCy worker processes.")
@click.option("--force", is_flag=True,
              help="Write into a non-empty --out that does not hold an earlier `mrclens perturb` output (same-named files are replaced).")
@on_invalid_option
@verbosity_options
def perturb(data, out_dir, ablations, seed, draw, fmt, cache_dir, n_process, force, on_invalid) -> None:
    """Write DIR/original.json, DIR/original-truncated.json, DIR/e1.json … DIR/e8.json and DIR/manifest.json.

    Each eN.json is the evaluation set of ablation eN (the full set for e3–e5, the truncated set
    for e1, e2, e6–e8) in the SQuAD schema with the same question ids; manifest.json records,
    per ablation and question id, what changed or why nothing did. Same seed, same bytes.
    A non-empty DIR that holds something other than an earlier perturb output is refused
    unless --force; a failed run leaves DIR as it was.
    """
    from mrclens.multiple_choice.data import load_mc_dataset, sniff_mc

    if sniff_mc(data) is not None:  # multiple-choice data (issue 20): m1-m6 and their controls, JSON Lines sets
        from mrclens.multiple_choice.perturb import perturb_mc

        ids = [a.strip() for a in ablations.split(",") if a.strip()] if ablations else None
        manifest = perturb_mc(load_mc_dataset(data), out_dir, ablations=ids, seed=seed, draw=draw, cache_dir=cache_dir,
                              progress=show_progress(), force=force)
        for aid, a in manifest.ablations.items():
            click.echo(f"  {aid:<4} {a.name:<32} changed {a.changed:,} of {a.n:,}")
        click.echo(f"wrote {len(manifest.ablations) + 2} files to {out_dir}")
        return
    formats = ("json", "jsonl") if fmt == "jsonl" else ("json",)
    dataset = load_dataset(data, on_invalid=on_invalid)
    echo_notes(dataset, on_invalid)
    manifest = perturb_dataset(dataset, out_dir, ablations=ablations, seed=seed, cache_dir=cache_dir,
                               formats=formats, progress=show_progress(), n_process=n_process, force=force, draw=draw)
    for line in summary_lines(manifest):
        click.echo(line)
    click.echo(f"wrote {len(manifest.ablations) + 3} files{' (+ .jsonl twins)' if fmt == 'jsonl' else ''} to {out_dir}")
