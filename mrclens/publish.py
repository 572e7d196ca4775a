"""Write what scoring computed: ``results.json``, ``results.csv``, ``question-scores.json`` and ``report.html``.

The one place that turns an :class:`~mrclens.scoring.evaluate.Evaluation` into files, used by
``mrclens evaluate --out`` and by the audit (data flows one way: score → publish → report).
"""

from __future__ import annotations

import os
from pathlib import Path

from mrclens.artifacts.layout import OutputLayout
from mrclens.artifacts.question_scores import write_question_scores
from mrclens.artifacts.results import write_results
from mrclens.scoring.evaluate import Evaluation


def write_outputs(evaluation: Evaluation, out_dir: str | os.PathLike, *, report: bool = True) -> list[Path]:
    """Write the results files and the HTML report into ``out_dir`` (each file atomically).

    Args:
        evaluation: the output of :func:`mrclens.scoring.evaluate.evaluate_perturbed`.
        out_dir: the output directory (created if missing).
        report: also render ``report.html`` (:func:`mrclens.reports.write_report`).

    Returns:
        the paths written, in :data:`mrclens.artifacts.layout.OUTPUT_FILES` order.
    """
    layout = OutputLayout(out_dir)
    paths = list(write_results(evaluation.results, layout.root))
    paths.append(write_question_scores(layout.root, evaluation.question_scores))
    if report:
        from mrclens.reports import write_report

        paths.append(write_report(layout.root, results=evaluation.results, question_scores=evaluation.question_scores))
    return paths
