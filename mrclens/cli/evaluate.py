"""``mrclens evaluate``: official SQuAD EM/F1 of one prediction file, or the bias table of a predictions directory.

Two forms:

* ``mrclens evaluate DATA PREDICTIONS [--json]``: official EM/F1 of one prediction file.
* ``mrclens evaluate PERTURBED_DIR --predictions-dir PRED_DIR [--out DIR] [--model-name NAME]
  [--seed S] [--resamples N]``: F1 drops, paired bootstrap CIs and readings for any model's
  predictions on the sets ``mrclens perturb`` wrote (:func:`mrclens.scoring.evaluate.evaluate_perturbed`,
  then :func:`mrclens.publish.write_outputs`).
"""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import click

from mrclens.cli.options import JSON_HELP, example, show_progress, verbosity_options, wide_option
from mrclens.defaults import N_RESAMPLES

log = logging.getLogger(__name__)


@click.command(epilog=example("mrclens evaluate dev-v1.1.json.gz predictions.json",
                              "mrclens evaluate perturbed/ --predictions-dir my-model-predictions/ --out my-model-audit"))
@click.argument("data", type=click.Path(exists=True))
@click.argument("predictions", required=False, type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.option(
    "--predictions-dir",
    type=click.Path(exists=True, file_okay=False),
    help="With DATA a perturbed directory: one prediction file per set (original.json, original-truncated.json, e1.json …).",
)
@click.option("--out", "out_dir", type=click.Path(file_okay=False), help="Write results.json, results.csv (and report.html) here.")
@click.option("--model-name", default="external model", show_default=True, help="Name of the model, recorded in the results.")
@click.option("--seed", default=0, show_default=True, type=click.IntRange(min=0), help="Seed of the bootstrap resampling.")
@click.option("--resamples", default=N_RESAMPLES, show_default=True, type=click.IntRange(min=1), help="Bootstrap resamples per CI.")
@click.option("--na-threshold", default=None, metavar="T|best",
              help="SQuAD v2.0 predictions with no_answer_probability: answer '' where it is above T (0-1), "
                   "or 'best': the threshold with the best F1 on DATA (an optimistic oracle, as in the official "
                   "v2.0 script). Default: the prediction_text as given.")
@click.option("--force", is_flag=True,
              help="Write into a non-empty --out that does not hold an earlier `mrclens evaluate` output (same-named files are replaced).")
@wide_option
@verbosity_options
def evaluate(data, predictions, as_json, predictions_dir, out_dir, model_name, seed, resamples, na_threshold, force,
             wide) -> None:
    """Score predictions with the official SQuAD EM/F1.

    Prediction files: {"question id": "answer text"} (official), {"question id": [n-best]},
    or a JSON list / JSON Lines of {"id", "prediction_text"[, "no_answer_probability"]} (Hugging Face).
    DATA is any format MRCLens reads (SQuAD JSON, flat JSON Lines/parquet, MRQA, simplified NQ).
    For multiple-choice DATA (CODAH TSV, multiple-choice JSON Lines) the predictions are
    {"question id": ending index} (0-based) and the score is accuracy.

    \b
    mrclens evaluate DATA PREDICTIONS
        EM/F1 (percent) of one prediction file against the gold answers in DATA.
    mrclens evaluate PERTURBED_DIR --predictions-dir PRED_DIR [--out DIR] [--wide]
        Any model's bias table: F1 drop per ablation and bias category with paired
        bootstrap 95% CIs and a reading of each, from one prediction file per set
        that `mrclens perturb` wrote into PERTURBED_DIR. Prints the verdict per
        bias category at a glance (--wide: the full table and readings before it).
    """
    if Path(data).is_dir():
        if predictions is not None:
            raise click.UsageError("with a perturbed directory, give the predictions with --predictions-dir PRED_DIR, not as a second argument")
        if predictions_dir is None:
            raise click.UsageError(f"{data} is a directory: give the model's predictions with --predictions-dir PRED_DIR")
        _evaluate_dir(data, predictions_dir, out_dir, model_name, seed, resamples, as_json, force, wide)
        return
    if predictions_dir is not None or out_dir is not None:
        given = "--predictions-dir" if predictions_dir is not None else "--out"
        raise click.UsageError(
            f"{given} needs DATA to be a perturbed directory (the output of `mrclens perturb`), and {data} is a file. "
            f"To score one prediction file against {data}: mrclens evaluate {data} PREDICTIONS; "
            f"to score a directory of prediction files: mrclens evaluate PERTURBED_DIR --predictions-dir PRED_DIR")
    if predictions is None:
        raise click.UsageError("missing argument PREDICTIONS (the prediction file to score against DATA)")
    from mrclens.tasks import detect_task

    score = detect_task(data).entry("score_file")(data, predictions, na_threshold=na_threshold)
    if as_json:
        click.echo(json.dumps(score.result))
        return
    for line in score.lines:
        click.echo(line)
    for warning in score.warnings:
        log.warning(warning)


def _is_evaluate_output(directory: Path) -> bool:
    """``directory`` holds results.json written by ``mrclens evaluate`` (not by an audit), or
    only the ``perturbed/`` and ``predictions/`` folders of the output layout (an external
    model's run laid out as an audit is, e.g. ``examples/audit_external_model.sh``)."""
    from mrclens.artifacts.layout import PERTURBED_DIR, PREDICTIONS_DIR, RESULTS_JSON
    from mrclens.artifacts.results import read_results
    from mrclens.errors import ArtifactError

    if not (directory / RESULTS_JSON).exists():
        names = {p.name for p in directory.iterdir() if not p.name.startswith(".mrclens-tmp.")}
        return names <= {PERTURBED_DIR, PREDICTIONS_DIR} and all((directory / n).is_dir() for n in names)
    try:
        return read_results(directory).audit is None
    except ArtifactError:
        return False


def _evaluate_dir(perturbed_dir, predictions_dir, out_dir, model_name, seed, resamples, as_json, force=False,
                  wide=False) -> None:
    from mrclens.io_utils import make_output_dir, refuse_foreign_output
    from mrclens.publish import write_outputs
    from mrclens.reports.summary import format_summary
    from mrclens.scoring.evaluate import evaluate_perturbed

    if out_dir is not None:
        refuse_foreign_output(out_dir, "evaluate", _is_evaluate_output, force=force)
    evaluation = evaluate_perturbed(perturbed_dir, predictions_dir, results_dir=out_dir, model_name=model_name,
                                    seed=seed, n_resamples=resamples, progress=show_progress())
    written = []
    if out_dir is not None:
        created = make_output_dir(out_dir)
        try:
            written = write_outputs(evaluation, out_dir)
        except BaseException:
            if created:
                shutil.rmtree(out_dir, ignore_errors=True)
            raise
    results = evaluation.results
    for message in results.warnings:
        log.warning(message)
    if as_json:
        click.echo(json.dumps(results.to_json()))
        return
    if wide:
        from mrclens.reports.table import format_table

        click.echo(format_table(results))
        for c in results.categories:
            click.echo(f"\n{c.reading}")
        click.echo("")
    if written:
        click.echo(f"wrote {', '.join(str(p) for p in written)}\n")
    report = next((str(p) for p in written if Path(p).name == "report.html"), None)
    click.echo(format_summary(results, report=report, wide_hint=not wide))
