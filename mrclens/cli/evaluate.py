"""``mrclens evaluate``: official SQuAD EM/F1 of one prediction file, or the bias table of a predictions directory.

Two forms:

* ``mrclens evaluate DATA PREDICTIONS [--json]``: official EM/F1 of one prediction file.
* ``mrclens evaluate PERTURBED_DIR --predictions-dir PRED_DIR [--out DIR] [--model-name NAME]
  [--seed S] [--resamples N]``: F1 drops, paired bootstrap CIs and readings for any model's
  predictions on the sets ``mrclens perturb`` wrote (:func:`mrclens.scoring.evaluate.evaluate_perturbed`,
  then :func:`mrclens.publish.write_outputs`).
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import click

from mrclens.cli.options import JSON_HELP, example, on_invalid_option, show_progress, verbosity_options, wide_option
from mrclens.defaults import N_RESAMPLES
from mrclens.io_utils import json_text

log = logging.getLogger(__name__)


@click.command(epilog=example("mrclens evaluate dev-v1.1.json.gz predictions.json",
                              "mrclens evaluate perturbed/ --predictions-dir my-model-predictions/ --out my-model-audit"))
@click.argument("data", type=click.Path(exists=True))
@click.argument("predictions", required=False, type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
@click.option(
    "--predictions-dir",
    type=click.Path(exists=True, file_okay=False),
    help="With DATA a perturbed directory: one prediction file per set (original.json, original-truncated.json, e1.json …).",
)
@click.option("--reference-sets", type=click.Path(exists=True, file_okay=False), metavar="DIR",
              help="The reference's perturbed sets (`mrclens perturb --reference --out DIR`): with "
                   "--reference-predictions-dir, each bias category is read against the model's own evaluation "
                   "on them (more / in line / less / inconclusive, as the audit reads it).")
@click.option("--reference-predictions-dir", type=click.Path(exists=True, file_okay=False), metavar="DIR",
              help="The model's predictions on --reference-sets, one file per set (original.json, e1.json …).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), metavar="FOLDER",
              help="Output folder: results.json, results.csv (and report.html) are written into it.")
@click.option("--model-name", default="external model", show_default=True, help="Name of the model, recorded in the results.")
@click.option("--seed", default=0, show_default=True, type=click.IntRange(min=0), help="Seed of the bootstrap resampling.")
@click.option("--resamples", default=N_RESAMPLES, show_default=True, type=click.IntRange(min=1), help="Bootstrap resamples per CI.")
@click.option("--na-threshold", default=None, metavar="T|best",
              help="SQuAD v2.0 predictions with no_answer_probability: answer '' where it is above T (0-1), "
                   "or 'best': the threshold with the best F1 on DATA (an optimistic oracle, as in the official "
                   "v2.0 script). Default: the prediction_text as given.")
@click.option("--force", is_flag=True,
              help="Write into a non-empty --out that does not hold an earlier `mrclens evaluate` output (same-named files are replaced).")
@on_invalid_option
@wide_option
@verbosity_options
def evaluate(data, predictions, as_json, predictions_dir, reference_sets, reference_predictions_dir, out_dir, model_name, seed, resamples, na_threshold, force,
             on_invalid, wide) -> None:
    """Score predictions with the official SQuAD EM/F1.

    Prediction files: {"question id": "answer text"} (official), {"question id": [n-best]},
    or a JSON list / JSON Lines of {"id", "prediction_text"[, "no_answer_probability"]} (Hugging Face).
    DATA is any format MRCLens reads (SQuAD JSON, flat JSON Lines/parquet, MRQA, simplified NQ).
    For multiple-choice DATA (CODAH TSV, multiple-choice JSON Lines) the predictions are
    {"question id": ending index} (0-based) and the score is accuracy.

    Predictions none of whose ids is a question of DATA (another split?) and multiple-choice
    indices that are not one of the question's endings stop with exit code 2; questions without
    a prediction and unknown ids are counted in a warning on standard error (also with --json),
    and so are, apart, the predictions for questions that --on-invalid skip/repair left out.

    \b
    mrclens evaluate DATA PREDICTIONS
        EM/F1 (percent) of one prediction file against the gold answers in DATA.
    mrclens evaluate PERTURBED_DIR --predictions-dir PRED_DIR [--out DIR] [--wide]
        Any model's bias table: F1 drop per ablation and bias category with paired
        bootstrap 95% CIs and a reading of each, from one prediction file per set
        that `mrclens perturb` wrote into PERTURBED_DIR. Prints the verdict per
        bias category at a glance (--wide: the full table and readings before it).
        A prediction file none of whose ids is a question of its set stops with
        exit code 2.
    mrclens evaluate PERTURBED_DIR --predictions-dir PRED_DIR --reference-sets REF_SETS
                     --reference-predictions-dir REF_PRED_DIR
        The same, each category read against the model's own evaluation on the
        reference's sets (`mrclens perturb --reference`): more / in line / less /
        inconclusive, with the audit's bands and power (docs/external-model.md).
        Reference sets of the same questions as PERTURBED_DIR, and a reference
        that lacks a file or more than 2% of a set's ids that a compared ablation
        needs, stop with exit code 2; fewer missing ids are a warning.
    """
    if Path(data).is_dir():
        if predictions is not None and Path(predictions).is_dir():
            perturbed, folder = _perturbed_first(data, predictions)
            raise click.UsageError(f"{predictions} is a folder of prediction files: give it with --predictions-dir: "
                                   f"mrclens evaluate {perturbed} --predictions-dir {folder}")
        if predictions is not None:
            raise click.UsageError("with a perturbed directory, give the predictions with --predictions-dir PRED_DIR, not as a second argument")
        if predictions_dir is None:
            raise click.UsageError(f"{data} is a directory: give the model's predictions with --predictions-dir PRED_DIR")
        if _perturbed_first(data, predictions_dir) != (data, predictions_dir):
            raise click.UsageError(f"{predictions_dir} is the perturbed folder (it holds manifest.json) and {data} is not: "
                                   f"the two are swapped: mrclens evaluate {predictions_dir} --predictions-dir {data}")
        if (reference_sets is None) != (reference_predictions_dir is None):
            raise click.UsageError("--reference-sets and --reference-predictions-dir go together: the reference's "
                                   "sets (`mrclens perturb --reference --out DIR`) and the model's predictions on them")
        _evaluate_dir(data, predictions_dir, out_dir, model_name, seed, resamples, as_json, force, wide,
                      (reference_sets, reference_predictions_dir) if reference_sets else None)
        return
    if predictions is not None and Path(predictions).is_dir():
        raise click.UsageError(
            f"{predictions} is a folder: a folder of prediction files (one per set) goes with --predictions-dir, "
            f"and DATA is then the folder `mrclens perturb` wrote: mrclens evaluate PERTURBED_DIR --predictions-dir "
            f"{predictions}; to score one prediction file: mrclens evaluate {data} PREDICTIONS_FILE")
    if predictions_dir is not None or out_dir is not None or reference_sets or reference_predictions_dir:
        given = ("--predictions-dir" if predictions_dir is not None else "--out" if out_dir is not None else
                 "--reference-sets" if reference_sets else "--reference-predictions-dir")
        raise click.UsageError(
            f"{given} needs DATA to be a perturbed directory (the output of `mrclens perturb`), and {data} is a file. "
            f"To score one prediction file against {data}: mrclens evaluate {data} PREDICTIONS; "
            f"to score a directory of prediction files: mrclens evaluate PERTURBED_DIR --predictions-dir PRED_DIR")
    if predictions is None:
        raise click.UsageError("missing argument PREDICTIONS (the prediction file to score against DATA)")
    from mrclens.errors import MRCLensError
    from mrclens.formats import detect_task
    from mrclens.scoring.files import SCORE_FILE

    try:
        score = SCORE_FILE.of(detect_task(data))(data, predictions, na_threshold=na_threshold, on_invalid=on_invalid)
    except MRCLensError:
        if _swapped(data, predictions):
            raise click.UsageError(f"{data} is a prediction file and {predictions} is data: the arguments are swapped "
                                   f"(DATA comes first): mrclens evaluate {predictions} {data}") from None
        raise
    for note in score.notes:  # --on-invalid skip/repair: what was left out or moved
        click.echo(str(note), err=True)
    for warning in score.warnings:  # on standard error, with --json too
        log.warning(f"{predictions}: {warning}")
    if as_json:
        click.echo(json_text(score.result))
        return
    for line in score.lines:
        click.echo(line)


def _perturbed_first(a: str, b: str) -> tuple[str, str]:
    """``(a, b)``, or ``(b, a)`` when ``b`` is the perturbed folder (it holds manifest.json) and ``a`` is not."""
    from mrclens.artifacts.layout import MANIFEST

    return (b, a) if (Path(b) / MANIFEST).is_file() and not (Path(a) / MANIFEST).is_file() else (a, b)


def _swapped(data: str, predictions: str) -> bool:
    """Whether ``data`` reads as a prediction file (of any task) and ``predictions`` as data with questions:
    asked only after scoring failed, to tell ``evaluate PREDICTIONS DATA``."""
    from mrclens.artifacts.predictions import read_prediction_file
    from mrclens.errors import MRCLensError
    from mrclens.formats import read
    from mrclens.formats import detect_task
    from mrclens.tasks import all_tasks

    def reads_as_predictions(task: str) -> bool:
        try:
            return bool(read_prediction_file(data, task).texts)
        except (MRCLensError, OSError, ValueError):
            return False

    if not any(reads_as_predictions(task.name) for task in all_tasks()):
        return False
    try:
        if not detect_task(predictions).is_default:  # another task's data (multiple choice)
            return True
        loaded = read(predictions)
    except (MRCLensError, OSError, ValueError):
        return False
    return not loaded.errors and any(True for _ in loaded.dataset.iter_questions())


def _evaluate_dir(perturbed_dir, predictions_dir, out_dir, model_name, seed, resamples, as_json, force=False,
                  wide=False, reference=None) -> None:
    from mrclens.artifacts.folders import EVALUATION, check_output_folder, remove_stale
    from mrclens.io_utils import make_output_dir
    from mrclens.publish import write_outputs
    from mrclens.reports.summary import format_summary
    from mrclens.scoring.evaluate import evaluate_perturbed

    if out_dir is not None:
        check_output_folder(out_dir, EVALUATION, force=force)
    if reference is None:
        evaluation = evaluate_perturbed(perturbed_dir, predictions_dir, results_dir=out_dir, model_name=model_name,
                                        seed=seed, n_resamples=resamples, progress=show_progress())
    else:  # issue 44: read against the model's own evaluation on the reference's sets
        from mrclens.scoring.own_reference import evaluate_against_own_reference

        evaluation, _ = evaluate_against_own_reference(perturbed_dir, predictions_dir, *reference, results_dir=out_dir,
                                                       model_name=model_name, seed=seed, n_resamples=resamples,
                                                       progress=show_progress())
    written = []
    if out_dir is not None:
        created = make_output_dir(out_dir)
        try:
            written = write_outputs(evaluation, out_dir)
            remove_stale(out_dir, EVALUATION, [Path(p).name for p in written])
        except BaseException:
            if created:
                shutil.rmtree(out_dir, ignore_errors=True)
            raise
    results = evaluation.results
    for message in results.warnings:
        log.warning(message)
    if as_json:
        click.echo(json_text(results.to_json()))
        return
    if wide:
        from mrclens.reports.table import format_table

        click.echo(format_table(results))
        for c in results.categories:
            click.echo(f"\n{c.reading}")
        click.echo("")
    if written:
        click.echo(f"wrote {', '.join(str(p) for p in written)}\n")
    from mrclens.artifacts.layout import REPORT_HTML

    report = next((str(p) for p in written if Path(p).name == REPORT_HTML), None)
    click.echo(format_summary(results, report=report, wide_hint=not wide))
