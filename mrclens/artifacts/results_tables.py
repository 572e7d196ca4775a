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
figure could not be computed. Each column's dtype comes from the type of its field in
:mod:`mrclens.artifacts.results` (:func:`column_dtypes`), not from the values, so a figure that no row
computed is still a number column: ``float`` fields are ``float64`` (``NaN`` where missing), ``int``
fields ``Int64`` and ``bool`` fields ``boolean`` (pandas' nullable types, ``<NA>`` where missing); text
stays text. Replicate lists (``replicates``) are left out; read them from the typed results. pandas is
imported inside :func:`results_table`.
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import asdict
from typing import Any

from mrclens.artifacts.results_csv import csv_columns, results_frame
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


#: The pandas dtype of a field's type (``X | None`` counts as ``X``); other types keep pandas' own.
_DTYPES = {float: "float64", int: "Int64", bool: "boolean"}


def _unoptional(tp: Any) -> Any:
    args = [a for a in typing.get_args(tp) if a is not type(None)]
    return args[0] if typing.get_origin(tp) in (typing.Union, getattr(__import__("types"), "UnionType", None)) \
        and len(args) == 1 else tp


def _field_type(cls: type, dotted: str) -> Any:
    """The type of the field at ``dotted`` (``"changed_only.f1_drop"``, ``"subsets.HasAns.n"``: a dict's key
    is any key) of the dataclass ``cls``; ``None`` when the path leaves the dataclasses."""
    tp: Any = cls
    parts = dotted.split(".")
    while parts:
        if typing.get_origin(tp) is dict:
            tp, parts = _unoptional(typing.get_args(tp)[1]), parts[1:]
        elif dataclasses.is_dataclass(tp):
            tp, parts = _unoptional(typing.get_type_hints(tp).get(parts[0])), parts[1:]
        else:
            return None
    return tp


def column_dtypes(cls: type, columns: dict[str, str]) -> dict[str, str]:
    """``{column: pandas dtype}`` for the number and flag columns among ``columns`` (``{column: dotted
    field path in cls}``), from the fields' types (:data:`_DTYPES`)."""
    out = {}
    for column, dotted in columns.items():
        dtype = _DTYPES.get(_field_type(cls, dotted))
        if dtype is not None:
            out[column] = dtype
    return out


def _flat_columns(cls: type) -> dict[str, str]:
    """The columns :func:`_flat` makes of an entry of ``cls``, each with its field path."""
    out = {}
    for f in dataclasses.fields(cls):
        if f.name == "subsets":
            inner = _field_type(cls, "subsets.x")
            for subset, prefix in _PREFIX.items():
                out.update({f"{prefix}_{g.name}": f"subsets.{subset}.{g.name}" for g in dataclasses.fields(inner)})
        elif f.name != "replicates":
            out[f.name] = f.name
    return out


def _entry_class(results: Any, name: str) -> type:
    """The dataclass of the entries of ``results.<name>`` (a list, or a dict's values), read from the
    results' own type (:mod:`mrclens.artifacts.results` imports this module: hence no import of it here)."""
    tp = _unoptional(typing.get_type_hints(type(results))[name])
    return _unoptional(typing.get_args(tp)[-1])


def _typed(frame, cls: type, columns: dict[str, str]):
    dtypes = column_dtypes(cls, {c: p for c, p in columns.items() if c in frame.columns})
    return frame.astype(dtypes) if dtypes else frame


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
        return _typed(results_frame(results), _entry_class(results, "ablations"), dict(csv_columns(results)))
    if table == "categories":
        rows = [_flat(c) for c in results.categories]
    elif table == "model_free":
        rows = [_flat(m) for m in results.model_free]
    else:
        rows = [_flat(s, {"set": name}) for name, s in results.sets.items()]
    cls = _entry_class(results, "sets" if table == "sets" else table)
    return _typed(pd.DataFrame(rows), cls, _flat_columns(cls))
