"""``mrclens perturb DATA --out DIR``: write the original, truncated and perturbed sets (e1–e10 and controls) and the manifest.

The task of DATA (:func:`mrclens.formats.detect_task`) chooses the writer (:data:`PERTURB_FILE`, role
``"perturb_file"`` of :mod:`mrclens.tasks`).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any, Callable, Protocol

import click

from mrclens.cli.options import (AliasedOption, declared_language, echo_notes, example, jobs_option, language_option,
                                 on_invalid_option, show_progress, verbosity_options)
from mrclens.multiple_choice.perturb import perturb_mc_file
from mrclens.perturbations import ABLATIONS
from mrclens.perturbations.files import perturb_reference_sets, perturb_span_file
from mrclens.tasks import MULTIPLE_CHOICE, SPAN, TaskTable

log = logging.getLogger(__name__)


class PerturbFile(Protocol):
    """Role ``"perturb_file"`` (:mod:`mrclens.tasks`): write the original and perturbed sets of the data
    file ``data`` and their manifest into ``out_dir`` (``mrclens perturb``); returns the lines to print.
    A task reads the options that apply to it (multiple choice takes the span ones and leaves them).

    Raises:
        DataError: the data is invalid; OutputError: ``out_dir`` cannot be written or holds something else.
    """

    def __call__(self, data: str | os.PathLike, out_dir: str | os.PathLike, *, ablations: str | None = None,
                 seed: int = 0, draw: int = 0, jsonl: bool = False, cache_dir: str | Path | None = None,
                 n_process: int = 1, force: bool = False, on_invalid: str = "refuse", progress: bool = True,
                 on_loaded: Callable[[Any], None] | None = None) -> list[str]: ...


PERTURB_FILE: TaskTable[PerturbFile] = TaskTable("perturb_file", PerturbFile, {
    SPAN: perturb_span_file, MULTIPLE_CHOICE: perturb_mc_file})


@click.command(epilog=example("mrclens perturb dev-v1.1.json.gz --out perturbed --ablations e1,e3"))
@click.argument("data", required=False, type=click.Path(exists=True, dir_okay=False))
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), metavar="FOLDER",
              help="Output folder (created if missing): one file per set and manifest.json.")
@click.option("--reference", "reference_sets", is_flag=True,
              help="Write the reference's sets for an external model to predict (then `mrclens evaluate "
                   "--reference-sets`): from DATA when given (SQuAD v1.1 dev), else from the bundled SQuAD v1.1 "
                   "sample's evaluation part (docs/external-model.md).")
@click.option("--ablations", default=None, metavar="IDS",
              help=f"Comma-separated ablation ids (default: all of {','.join(ABLATIONS)}).")
@click.option("--seed", default=0, show_default=True, type=click.IntRange(min=0), help="Global seed of every random choice.")
@click.option("--draw", default=0, show_default=True, type=click.IntRange(min=0), metavar="K",
              help="Write draw K of every ablation's random choices (seed derived from --seed, mrclens.seeds; "
                   "0 is --seed itself), as `mrclens audit --perturb-seeds` writes them.")
@click.option("--out-format", "--format", "fmt", cls=AliasedOption, hidden_aliases=("--format",),
              type=click.Choice(["json", "jsonl"]), default="json", show_default=True,
              help="json: SQuAD JSON only; jsonl: also the Hugging Face `datasets` flat form (.jsonl) of every set.")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
              help="spaCy parse cache (default: $MRCLENS_CACHE_DIR, else $XDG_CACHE_HOME/mrclens or ~/.cache/mrclens).")
@jobs_option("spaCy worker processes.", default=1, show_default=True, old=("--n-process",))
@click.option("--force", is_flag=True,
              help="Write into a non-empty --out that does not hold an earlier `mrclens perturb` output (same-named files are replaced).")
@language_option
@on_invalid_option
@verbosity_options
def perturb(data, out_dir, reference_sets, ablations, seed, draw, fmt, cache_dir, jobs, force, language, on_invalid) -> None:
    """Write DIR/original.json, DIR/original-truncated.json, DIR/e1.json … DIR/e8.json and DIR/manifest.json.

    Each eN.json is the evaluation set of ablation eN (the full set for e3–e5, the truncated set
    for e1, e2, e6–e8) in the SQuAD schema with the same question ids; manifest.json records,
    per ablation and question id, what changed or why nothing did. Same seed, same bytes.
    A non-empty DIR that holds something other than an earlier perturb output is refused
    unless --force; into an earlier perturb output, the sets this run does not write are
    removed (with a warning), so DIR never mixes runs; a failed run leaves DIR as it was.
    With --reference and no DATA: the sets of the bundled SQuAD v1.1 sample's evaluation
    part, for `mrclens evaluate --reference-sets` (docs/external-model.md).
    """
    from mrclens.formats import detect_task
    from mrclens.languages import require_readable_language

    if data is None and not reference_sets:
        raise click.UsageError("missing argument DATA (the data file to perturb; without DATA, --reference writes "
                               "the bundled SQuAD v1.1 sample's reference sets)")
    if reference_sets and (draw or (data is not None and not detect_task(data).is_default)):
        raise click.UsageError("--reference writes draw 0 of span (SQuAD) data: the reference's sets, as an "
                               "external model's evaluation reads them")
    if data is None:
        for line in perturb_reference_sets(None, out_dir, ablations=ablations, seed=seed, jsonl=fmt == "jsonl",
                                           cache_dir=cache_dir, n_process=jobs, force=force, on_invalid=on_invalid,
                                           progress=show_progress()):
            click.echo(line)
        return

    language_check = require_readable_language("perturb", [data], cache_dir=cache_dir, on_invalid=on_invalid,
                                               declared=declared_language(language))
    for note in language_check.notes():
        log.warning(note)
    lines = PERTURB_FILE.of(detect_task(data))(
        data, out_dir, ablations=ablations, seed=seed, draw=draw, jsonl=fmt == "jsonl", cache_dir=cache_dir,
        n_process=jobs, force=force, on_invalid=on_invalid, progress=show_progress(),
        on_loaded=lambda d: echo_notes(d, on_invalid))
    for line in lines:
        click.echo(line)
