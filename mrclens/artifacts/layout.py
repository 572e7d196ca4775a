"""The names of every file and folder MRCLens writes, defined once.

An audit directory (``mrclens audit --out DIR``) and an evaluation directory
(``mrclens evaluate PERTURBED_DIR --predictions-dir P --out DIR``) share one layout::

    DIR/results.json           every figure (:mod:`mrclens.artifacts.results`)
    DIR/results.csv            one row per ablation (:mod:`mrclens.artifacts.results`)
    DIR/question-scores.json   official EM/F1 per question and set (:mod:`mrclens.artifacts.question_scores`)
    DIR/shortcut-questions.jsonl  per question, the evidence of each shortcut (:mod:`mrclens.artifacts.shortcut_questions`;
                               audits only)
    DIR/report.html            the HTML report (:mod:`mrclens.reports`)
    DIR/audit-state.json       the audit's finished steps (:mod:`mrclens.artifacts.audit_state`; audits only)
    DIR/perturbed/             the output of ``mrclens perturb``: manifest.json + one SQuAD file per set
    DIR/predictions/           one official prediction file per set: <set name>.json
    DIR/model/                 the trained baseline reader (audits only; :mod:`mrclens.baseline_model`)

With ``--perturb-seeds K`` / ``--train-seeds R`` (issue 16) the further draws and readers go in
sub-folders: ``perturbed/draw-<k>/`` (draw k >= 1), ``model/reader-<r>/`` (reader r >= 1) and
``predictions/[reader-<r>/][draw-<k>/]`` (reader r's predictions on draw k; only the sets
whose files differ from draw 0's are predicted again there).

Examples:
    >>> layout = OutputLayout("audit-out")
    >>> layout.results_json.as_posix(), layout.prediction_file("e1").as_posix()
    ('audit-out/results.json', 'audit-out/predictions/e1.json')
    >>> set_file_name("original-truncated")
    'original-truncated.json'
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

RESULTS_JSON = "results.json"
RESULTS_CSV = "results.csv"
QUESTION_SCORES = "question-scores.json"
REPORT_HTML = "report.html"
#: Per question, the evidence that it carries each shortcut (:mod:`mrclens.artifacts.shortcut_questions`): an
#: audit's, or the file ``mrclens stats --evidence`` names.
SHORTCUT_QUESTIONS = "shortcut-questions.jsonl"
AUDIT_STATE = "audit-state.json"
MANIFEST = "manifest.json"
PERTURBED_DIR = "perturbed"
PREDICTIONS_DIR = "predictions"
MODEL_DIR = "model"
#: The summary of ``mrclens selftest --out DIR`` (:mod:`mrclens.artifacts.selftest`).
SELFTEST_JSON = "selftest.json"
#: The outputs of ``mrclens compare … --out DIR`` (:mod:`mrclens.artifacts.comparison`, the page :mod:`mrclens.reports.compare`).
COMPARISON_JSON = "comparison.json"
COMPARISON_CSV = "comparison.csv"
COMPARISON_HTML = "comparison.html"
#: The files of a comparison directory, in the order they are listed.
COMPARISON_FILES = (COMPARISON_JSON, COMPARISON_CSV, COMPARISON_HTML)

#: The files an audit or evaluation directory holds at its top level, in the order they are listed.
OUTPUT_FILES = (RESULTS_JSON, RESULTS_CSV, QUESTION_SCORES, REPORT_HTML)
#: The files only an audit directory holds besides them (``mrclens evaluate`` writes none of them).
AUDIT_FILES = (SHORTCUT_QUESTIONS,)


def set_file_name(set_name: str, fmt: str = "json") -> str:
    """The file name of a perturbed set (``"e1"`` → ``"e1.json"``; ``fmt="jsonl"`` → ``"e1.jsonl"``)."""
    return f"{set_name}.{fmt}"


def prediction_file_name(set_name: str) -> str:
    """The file name of a set's official prediction file (``"e1"`` → ``"e1.json"``)."""
    return f"{set_name}.json"


@dataclass(frozen=True)
class OutputLayout:
    """The paths inside one audit or evaluation output directory.

    Attributes:
        root: the directory (``--out``).
    """

    root: Path

    def __init__(self, root: str | os.PathLike):
        object.__setattr__(self, "root", Path(root))

    @property
    def results_json(self) -> Path:
        return self.root / RESULTS_JSON

    @property
    def results_csv(self) -> Path:
        return self.root / RESULTS_CSV

    @property
    def question_scores(self) -> Path:
        return self.root / QUESTION_SCORES

    @property
    def report_html(self) -> Path:
        return self.root / REPORT_HTML

    @property
    def shortcut_questions(self) -> Path:
        return self.root / SHORTCUT_QUESTIONS

    @property
    def audit_state(self) -> Path:
        return self.root / AUDIT_STATE

    @property
    def perturbed_dir(self) -> Path:
        return self.root / PERTURBED_DIR

    @property
    def predictions_dir(self) -> Path:
        return self.root / PREDICTIONS_DIR

    @property
    def model_dir(self) -> Path:
        return self.root / MODEL_DIR

    @property
    def manifest(self) -> Path:
        return self.perturbed_dir / MANIFEST

    def prediction_file(self, set_name: str) -> Path:
        """``root/predictions/<set_name>.json``."""
        return self.predictions_dir / prediction_file_name(set_name)

    def draw_perturbed_dir(self, draw: int) -> Path:
        """Draw ``draw``'s perturbed sets: ``perturbed/`` for draw 0, ``perturbed/draw-<k>/`` after."""
        return self.perturbed_dir if draw == 0 else self.perturbed_dir / f"draw-{draw}"

    def reader_model_dir(self, reader: int) -> Path:
        """Reader ``reader``'s saved model: ``model/`` for reader 0, ``model/reader-<r>/`` after."""
        return self.model_dir if reader == 0 else self.model_dir / f"reader-{reader}"

    def replicate_predictions_dir(self, draw: int, reader: int) -> Path:
        """Reader ``reader``'s predictions on draw ``draw``: ``predictions/[reader-<r>/][draw-<k>/]``."""
        out = self.predictions_dir if reader == 0 else self.predictions_dir / f"reader-{reader}"
        return out if draw == 0 else out / f"draw-{draw}"

    def written(self) -> list[str]:
        """The names of :data:`OUTPUT_FILES` and :data:`AUDIT_FILES` that exist under :attr:`root`, in listing order."""
        return [name for name in (*OUTPUT_FILES, *AUDIT_FILES) if (self.root / name).exists()]
