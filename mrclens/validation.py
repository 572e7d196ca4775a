"""Validation report for one dataset file, in any format MRCLens reads (``mrclens validate``).

Span data in any format of :mod:`mrclens.formats`; data of another task (multiple choice: CODAH TSV,
multiple-choice JSON Lines) is told by its task's sniffer (:func:`mrclens.formats.detect_task`) and read
with that task's own reader (:data:`mrclens.formats.LOAD_SET`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mrclens.errors import DataError, Problem
from mrclens.formats import LOAD_SET, detect_task, read
from mrclens.formats.squad_schema import RecordCounts
from mrclens.nlp import long_context_problems
from mrclens.tasks import DEFAULT_TASK, Task, get_task


@dataclass
class ValidationReport:
    """Counts and every problem found in one file.

    Attributes:
        file: the path as given.
        counts: span data: articles, paragraphs, questions, answers, unanswerable (of the items
            that could be read); another task's data: that task's counts (multiple choice:
            questions, endings).
        problems: every problem, each naming the file, the line or article title, and the question id.
        dataset: what was read (a :class:`~mrclens.squad.Dataset`, or the task's dataset).
        records: how every record of the file was accounted for (span data read as a whole;
            :class:`~mrclens.formats.squad_schema.RecordCounts`), else ``None``.
        task: the task of the data (:mod:`mrclens.tasks`).
    """

    file: str
    counts: dict[str, int]
    problems: list[Problem] = field(default_factory=list)
    dataset: Any = field(default=None, repr=False)
    records: RecordCounts | None = None
    task: Task = field(default_factory=lambda: get_task(DEFAULT_TASK))

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    @property
    def ok(self) -> bool:
        """True when there is no error (warnings allowed)."""
        return not self.errors


def validate_file(path: str, on_invalid: str = "refuse", split: str | None = None) -> ValidationReport:
    """Read ``path`` and collect its counts and all schema problems (never raises on bad data).

    Args:
        on_invalid: read as the other commands would with ``--on-invalid`` (see
            :func:`mrclens.formats.squad_schema.parse_squad`); what was skipped or repaired is in
            ``report.dataset.notes`` and the counts are of what is left. Span data only: another
            task's reader refuses every invalid question.
        split: the split of a saved ``DatasetDict`` folder (:func:`mrclens.formats.read`).

    Raises:
        FileNotFoundError: the file does not exist.
        MRCLensError: a ``DatasetDict`` folder of several splits without ``split``, or an unknown split.
    """
    task = detect_task(path)
    if not task.is_default:
        try:
            data = LOAD_SET.of(task)(path)
        except DataError as err:
            return ValidationReport(str(path), {"questions": 0}, list(err.problems), task=task)
        return ValidationReport(str(path), data.counts(), list(data.notes), data, task=task)
    loaded = read(path, on_invalid=on_invalid, split=split)
    problems = [*loaded.problems, *long_context_problems(loaded.dataset)]  # what every other command refuses (issue 55)
    return ValidationReport(str(path), loaded.dataset.counts(), problems, loaded.dataset, loaded.records)
