"""The typed results (:class:`~mrclens.artifacts.results.Results`) as pandas tables, one row per entry.

:func:`results_table` backs :meth:`Results.to_pandas` (and ``mrclens.load_results(DIR).to_pandas(…)``):

* ``"ablations"``: one row per ablation, the columns of ``results.csv``
  (:func:`mrclens.artifacts.results_csv.results_frame`: ``id``, ``name``, ``category``, ``set``, ``n``,
  ``exact_match``, ``f1``, ``baseline_f1``, ``f1_drop``, ``ci_low``, ``ci_high``, … and
  ``has_ans_*`` / ``no_ans_*`` for SQuAD v2.0 data);
* ``"categories"``: one row per bias category: ``category``, ``ablations`` and ``evaluated`` (ids
  joined by commas), ``f1_drop``, ``ci_low``, ``ci_high``, ``reading``, ``evidence`` and the
  other scalar fields of :class:`~mrclens.artifacts.results.CategoryResult`, v2.0 subsets flattened
  as ``has_ans_f1_drop``, …;
* ``"model_free"``: one row per model-free figure (the fields of
  :class:`~mrclens.artifacts.results.ModelFreeFigure`: ``category``, ``path``, ``label``,
  ``value``, ``ci_low``, ``ci_high``, ``reference_value``, ``difference``, ``comparison``, …);
* ``"sets"``: one row per scored set: ``set`` and the fields of
  :class:`~mrclens.artifacts.results.SetResult` (subsets flattened as ``has_ans_exact_match``, …).

EM, F1 are percentages (0–100); drops and CI bounds percentage points; ``<NA>``/``NaN`` where a
figure could not be computed. Replicate lists (``replicates``) are left out; read them from the
typed results. pandas is imported inside :func:`results_table`.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from mrclens.artifacts.results_csv import results_frame
from mrclens.errors import MRCLensError

#: The tables :func:`results_table` makes.
TABLES = ("ablations", "categories", "model_free", "sets")
_PREFIX = {"HasAns": "has_ans", "NoAns": "no_ans"}


def _flat(entry: Any, first: dict[str, Any] | None = None) -> dict[str, Any]:
    row = dict(first or {})
    for key, value in asdict(entry).items():
        if key == "replicates":
            continue
        if key == "subsets":
            for subset, figures in (value or {}).items():
                row.update({f"{_PREFIX.get(subset, subset)}_{k}": v for k, v in figures.items()})
        elif isinstance(value, list):
            row[key] = ",".join(str(v) for v in value)
        else:
            row[key] = value
    return row


def results_table(results: Any, table: str = "ablations"):
    """One of :data:`TABLES` of ``results`` (a :class:`~mrclens.artifacts.results.Results`) as a
    :class:`pandas.DataFrame` (columns in the module docstring).

    Raises:
        MRCLensError: ``table`` is not one of :data:`TABLES`.
    """
    import pandas as pd

    if table not in TABLES:
        raise MRCLensError(f"unknown results table {table!r}; choose one of {', '.join(TABLES)}")
    if table == "ablations":
        return results_frame(results)
    if table == "categories":
        rows = [_flat(c) for c in results.categories]
    elif table == "model_free":
        rows = [_flat(m) for m in results.model_free]
    else:
        rows = [_flat(s, {"set": name}) for name, s in results.sets.items()]
    frame = pd.DataFrame(rows)
    ints = [c for c in frame.columns if c == "n" or c.endswith("_n") or c.endswith("_total") or c in ("missing", "unknown")]
    return frame.astype({c: "Int64" for c in ints})
