"""Write what scoring computed: ``results.json``, ``results.csv``, ``question-scores.json`` and ``report.html``.

The one place that turns an :class:`~mrclens.scoring.evaluate.Evaluation` into files, used by
``mrclens evaluate --out`` and by the audit (data flows one way: score → publish → report). A
new ``results.json`` leaves no file derived from the old one: the report is rewritten (or, with
``report=False``, removed) and the dataset card drafted into the folder is removed
(:func:`mrclens.artifacts.card.remove_stale_card`).
"""

from __future__ import annotations

import os
from pathlib import Path

from mrclens.artifacts.card import remove_stale_card
from mrclens.artifacts.layout import OutputLayout
from mrclens.artifacts.question_scores import write_question_scores
from mrclens.artifacts.results import write_results
from mrclens.errors import OutputError
from mrclens.scoring.evaluate import Evaluation


def write_outputs(evaluation: Evaluation, out_dir: str | os.PathLike, *, report: bool = True) -> list[Path]:
    """Write the results files and the HTML report into ``out_dir`` (each file atomically).

    Args:
        evaluation: the output of :func:`mrclens.scoring.evaluate.evaluate_perturbed`.
        out_dir: the output directory (created if missing).
        report: also render ``report.html`` (:func:`mrclens.reports.write_report`).

    Returns:
        the paths written, in :data:`mrclens.artifacts.layout.OUTPUT_FILES` order.

    Raises:
        OutputError: a file cannot be written, or a file derived from the replaced results (the card,
            the report) cannot be removed.
    """
    layout = OutputLayout(out_dir)
    paths = list(write_results(evaluation.results, layout.root))
    paths.append(write_question_scores(layout.root, evaluation.question_scores))
    remove_stale_card(layout.root)
    if report:
        from mrclens.reports import write_report

        paths.append(write_report(layout.root, results=evaluation.results, question_scores=evaluation.question_scores))
    elif layout.report_html.is_file():
        try:
            layout.report_html.unlink()
        except OSError as err:
            raise OutputError(f"cannot remove {layout.report_html}, the report of the results.json this run "
                              f"replaced: {err.strerror or err}") from None
    return paths
