"""Validation report for one dataset file, in any format MRCLens reads (``mrclens validate``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from mrclens.errors import Problem
from mrclens.formats import read_dataset
from mrclens.squad import Dataset


@dataclass
class ValidationReport:
    """Counts and every problem found in one file.

    Attributes:
        file: the path as given.
        counts: articles, paragraphs, questions, answers, unanswerable (of the items
            that could be read).
        problems: every problem, each naming the file, article title and question id.
    """

    file: str
    counts: dict[str, int]
    problems: list[Problem] = field(default_factory=list)
    dataset: Dataset | None = field(default=None, repr=False)

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
            ``report.dataset.notes`` and the counts are of what is left.
        split: the split of a saved ``DatasetDict`` folder (:func:`mrclens.formats.read`).

    Raises:
        FileNotFoundError: the file does not exist.
        MRCLensError: a ``DatasetDict`` folder of several splits without ``split``, or an unknown split.
    """
    dataset, problems = read_dataset(path, on_invalid, split=split)
    return ValidationReport(str(path), dataset.counts(), problems, dataset)
