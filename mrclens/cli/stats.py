"""``mrclens stats DATA [--dev DEV] [--json] [--out FILE] [--evidence FILE]``: model-free dataset statistics, and
with ``--evidence`` the per-question shortcut evidence (``shortcut-questions.jsonl``, :mod:`mrclens.stats.evidence`).

DATA may be multiple-choice data (issue 20: a CODAH TSV or JSON Lines file, or a folds folder):
then the figures are :func:`mrclens.multiple_choice.stats.compute_mc_stats`'s.
"""

from __future__ import annotations

import logging
from pathlib import Path

import click

from mrclens.cli.options import (JSON_HELP, declared_language, echo_notes, example, language_option, on_invalid_option,
                                 show_progress, verbosity_options)
from mrclens.io_utils import json_text

log = logging.getLogger(__name__)


class _StatsCommand(click.Command):
    """Adds a hint to usage errors when ``--json`` is followed by a file name, the old spelling
    (``--json OUT`` wrote a file; ``--json`` now prints to standard output and ``--out`` writes a file)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        old_spelling = "--json" in args  # (the parser consumes ``args``)
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as err:
            if old_spelling:
                err.message += ("\n(--json takes no file name any more: it prints the JSON to standard output; "
                                "write it to a file with --out FILE)")
            raise


@click.command(cls=_StatsCommand, epilog=example("mrclens stats train-v1.1.json.gz --dev dev-v1.1.json.gz --out stats.json"))
@click.argument("data", type=click.Path(exists=True))
@click.option("--dev", type=click.Path(exists=True, dir_okay=False), help="A second file (e.g. dev) to check for leakage from DATA.")
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP + " Every figure, histograms included.")
@click.option("--out", "json_out", type=click.Path(dir_okay=False), metavar="FILE",
              help="Output file: also write every figure (histograms included) to this JSON file.")
@click.option("--evidence", "evidence_out", type=click.Path(dir_okay=False), metavar="FILE",
              help="Also write which questions carry each shortcut, with the evidence and its strength, to this JSON "
                   "Lines file (the layout of shortcut-questions.jsonl; span data in English). See "
                   "docs/stats-and-check.md.")
@click.option("--first-k", type=click.IntRange(min=1), default=3, show_default=True, help="k of the first-k-tokens baseline.")
@click.option("--cache-dir", type=click.Path(file_okay=False), help="Parse and statistics cache (default: $MRCLENS_CACHE_DIR, else $XDG_CACHE_HOME/mrclens or ~/.cache/mrclens).")
@click.option("--jobs", type=click.IntRange(min=1), default=None, show_default="CPUs available, at most 4",
              help="Worker processes for the per-question statistics (spaCy parses in one).")
@click.option("--language-ok", is_flag=True,
              help="DATA is not in English (MRCLens parses English only): run only what reads no words (counts, "
                   "duplicates, train/dev leakage, answer position in characters) and, for Spanish, Russian and Arabic, "
                   "the answer sentence's rank by position (spaCy's rule-based sentencizer); every other figure is not "
                   "computed. See docs/languages.md.")
@language_option
@on_invalid_option
@verbosity_options
def stats(data: str, dev: str | None, as_json: bool, json_out: str | None, evidence_out: str | None, first_k: int,
          cache_dir: str | None, jobs: int | None, language_ok: bool, language: str, on_invalid: str) -> None:
    """Question/answer lengths, question types, answer positions and types, lexical overlap,
    heuristic baselines (EM/F1), duplicates and (with --dev) train/dev leakage of DATA.

    No model is trained: this takes seconds to minutes. Percentages are 0-100. Parses and
    each paragraph's figures are cached, so a re-run recomputes only edited paragraphs.

    Multiple-choice DATA (a CODAH TSV or JSON Lines file, or a CODAH folder with
    cv_split/fold_k/): label distribution, categories, heuristic baselines (longest / shortest
    ending, prompt overlap) with bootstrap CIs, ending length by label, duplicates and leakage
    (a folder: each fold's test part against its training part; a file: DEV's questions in DATA).
    """
    from mrclens.io_utils import atomic_write_json, check_output_file
    from mrclens.checks import file_stats

    for out in (json_out, evidence_out):
        if out:
            check_output_file(out)
    if json_out and evidence_out and Path(json_out).resolve() == Path(evidence_out).resolve():
        raise click.UsageError("--out and --evidence name the same file; give each its own")
    if language_ok and evidence_out:
        raise click.UsageError("--evidence reads the words of English data; it cannot be combined with --language-ok")
    if language_ok and language == "en":
        raise click.UsageError("--language-ok (the data is not English) and --language en (it is) exclude each other")
    if evidence_out:
        from mrclens.formats import detect_task

        task = detect_task(data, role="sniff_input")
        if not task.data_route:
            raise click.UsageError(f"--evidence reads span data (SQuAD-format questions and answer spans); {data} holds "
                                   f"{task.data_label} data")
    stats = file_stats(data, dev or None, first_k=first_k, cache_dir=cache_dir, progress=show_progress(), n_process=jobs,
                       on_invalid=on_invalid, language_ok=language_ok, declared_language=declared_language(language),
                       on_language=log.warning, on_loaded=lambda d: echo_notes(d, on_invalid))
    result = stats.figures
    protect = tuple(p for p in (data, dev) if p)
    if json_out:
        atomic_write_json(json_out, result, indent=1, protect=protect)
    if evidence_out:
        from mrclens.artifacts.shortcut_questions import write_shortcut_questions
        from mrclens.stats.evidence import format_flag_counts, shortcut_evidence

        rows = shortcut_evidence(stats.datasets[0], cache_dir=cache_dir, progress=show_progress())
        write_shortcut_questions(evidence_out, rows, protect=protect)
    click.echo(json_text(result, ensure_ascii=False, indent=1) if as_json else stats.format(result))
    if json_out:
        log.info(f"wrote {json_out}")
    if evidence_out:
        log.info(f"wrote {evidence_out}; " + format_flag_counts(rows))
