"""``results.csv``: its columns, the one table that is written, and its reader.

``results.csv`` has one row per ablation of ``results.json`` (:mod:`mrclens.artifacts.results`,
which writes both files with :func:`mrclens.artifacts.results.write_results`): the columns
:data:`CSV_COLUMNS`, then :data:`CSV_OPTIONAL_COLUMNS` (always written, optional when reading: older
files lack them), then :data:`V2_CSV_COLUMNS` when the data has unanswerable questions (SQuAD
v2.0). An empty cell is a number that could not be computed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from mrclens.artifacts.layout import RESULTS_CSV
from mrclens.errors import ArtifactError, ArtifactMsg

#: What a missing results file's message advises.
RESULTS_HINT = "run `mrclens audit` or `mrclens evaluate PERTURBED_DIR --predictions-dir DIR --out DIR` first"

#: Columns of ``results.csv``: (column, attribute of :class:`AblationResult`, or a dotted path into it).
CSV_COLUMNS = (
    ("id", "id"),
    ("name", "name"),
    ("category", "category"),
    ("set", "eval_set"),
    ("baseline_set", "baseline_set"),
    ("n", "n"),
    ("changed", "changed"),
    ("exact_match", "exact_match"),
    ("f1", "f1"),
    ("baseline_f1", "baseline_f1"),
    ("f1_drop", "f1_drop"),
    ("ci_low", "ci_low"),
    ("ci_high", "ci_high"),
    ("changed_f1_drop", "changed_only.f1_drop"),
    ("changed_ci_low", "changed_only.ci_low"),
    ("changed_ci_high", "changed_only.ci_high"),
    ("evaluated", "evaluated"),
    ("evidence", "evidence"),
    ("relative_drop", "relative_drop"),
    ("relative_ci_low", "relative_ci_low"),
    ("relative_ci_high", "relative_ci_high"),
    ("control_of", "control_of"),
    ("control", "control"),
    ("control_f1_drop", "control_f1_drop"),
    ("excess_drop", "excess_drop"),
    ("excess_ci_low", "excess_ci_low"),
    ("excess_ci_high", "excess_ci_high"),
)

#: Columns added by repeated draws / readers and the e4 reference (issue 16); optional when reading
#: (older files lack them), always written.
CSV_OPTIONAL_COLUMNS = (
    ("recovered_share", "recovered_share"),
    ("recovered_ci_low", "recovered_ci_low"),
    ("recovered_ci_high", "recovered_ci_high"),
    ("replicates", "n_replicates"),
    ("f1_drop_min", "f1_drop_min"),
    ("f1_drop_max", "f1_drop_max"),
    ("f1_drop_sd", "f1_drop_sd"),
    ("excess_drop_min", "excess_drop_min"),
    ("excess_drop_max", "excess_drop_max"),
    ("excess_drop_sd", "excess_drop_sd"),
    ("unstable", "unstable"),
    ("reference_figure", "reference_figure"),
    ("compared_value", "compared_value"),
    ("reference_value", "reference_value"),
    ("reference_ci_low", "reference_ci_low"),
    ("reference_ci_high", "reference_ci_high"),
    ("reference_difference", "reference_difference"),
    ("reference_difference_ci_low", "reference_difference_ci_low"),
    ("reference_difference_ci_high", "reference_difference_ci_high"),
    ("reference_bias", "reference_bias"),
)

_INT_COLUMNS = ("n", "changed", "replicates")

#: Extra ``results.csv`` columns when the data has unanswerable questions (SQuAD v2.0).
V2_CSV_COLUMNS = tuple(
    (f"{prefix}_{col}", f"subsets.{subset}.{col}")
    for subset, prefix in (("HasAns", "has_ans"), ("NoAns", "no_ans"))
    for col in ("n", "f1", "baseline_f1", "f1_drop", "ci_low", "ci_high")
)


def _get(entry: Any, dotted: str) -> Any:
    value: Any = entry
    for part in dotted.split("."):
        if value is None:
            return None
        value = value.get(part) if isinstance(value, dict) else getattr(value, part, None)
    return value


def csv_columns(results: Any) -> tuple[tuple[str, str], ...]:
    """The ``results.csv`` columns of ``results`` (a :class:`~mrclens.artifacts.results.Results`, which
    imports this module: hence no import of the type here): :data:`CSV_COLUMNS` and :data:`CSV_OPTIONAL_COLUMNS`, plus :data:`V2_CSV_COLUMNS`
    when some ablation has HasAns/NoAns figures (data with unanswerable questions)."""
    v2 = any(a.subsets for a in results.ablations)
    return CSV_COLUMNS + CSV_OPTIONAL_COLUMNS + (V2_CSV_COLUMNS if v2 else ())


def results_frame(results: Any):
    """One row per ablation of ``results`` (a :class:`~mrclens.artifacts.results.Results`) with the :func:`csv_columns` (a :class:`pandas.DataFrame`; ``<NA>`` where not computed)."""
    import pandas as pd

    columns = csv_columns(results)
    rows = [{col: _get(a, key) for col, key in columns} for a in results.ablations]
    frame = pd.DataFrame(rows, columns=[c for c, _ in columns])
    ints = [c for c in _INT_COLUMNS + ("has_ans_n", "no_ans_n") if c in frame.columns]
    return frame.astype({c: "Int64" for c in ints})


def read_results_csv(results_dir: str | os.PathLike):
    """Read ``results_dir/results.csv`` as a :class:`pandas.DataFrame` with :data:`CSV_COLUMNS`.

    Raises:
        ArtifactError: the file is absent or lacks a column.
    """
    import pandas as pd

    path = Path(results_dir) / RESULTS_CSV
    if not path.is_file():
        raise ArtifactError(ArtifactMsg.MISSING.format(path=path, hint=RESULTS_HINT))
    frame = pd.read_csv(path)
    frame = frame.astype({c: "Int64" for c in _INT_COLUMNS + ("has_ans_n", "no_ans_n") if c in frame.columns})
    missing = [c for c, _ in CSV_COLUMNS if c not in frame.columns]
    if missing:
        raise ArtifactError(ArtifactMsg.BAD_SHAPE.format(path=path, expected=f"the columns {', '.join(missing)}"))
    return frame
