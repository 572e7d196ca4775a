"""``results.json`` and ``results.csv``: building, writing (atomically) and printing the drop table.

``results.json`` holds every number of an audit or of ``mrclens evaluate --predictions-dir``::

    {"mrclens_version", "created" (ISO 8601 UTC), "seed",
     "model": {"kind": "baseline" | "external", "name", "config" | null},
     "inputs": [{"role", "file", "sha256"}], "versions": {package: version},
     "step_seconds": {step: seconds}, "bootstrap": {"n_resamples", "confidence", "seed"},
     "sets": {set name: {"file", "n", "exact_match", "f1", "missing", "unknown", "evaluated", ...}},
     "ablations": [{"id", "name", "category", "eval_set", "baseline_set", "bias_signal", "description",
                    "evaluated", "reason_not_evaluated", "n", "changed", "unchanged_by_reason", "unpaired",
                    "exact_match", "f1", "baseline_exact_match", "baseline_f1", "em_drop", "f1_drop",
                    "ci_low", "ci_high", "changed_only": {...} | null, "reading", "evidence"}],
     "categories": [{"category", "ablations", "evaluated", "f1_drop", "ci_low", "ci_high", "reading", "evidence"}],
     "paths": {"perturbed_dir", "predictions_dir"}, "warnings": [str], "sections": {}}

EM, F1 are percentages (0–100); drops and CI bounds are percentage points; ``null`` marks a
number that could not be computed (the set or ablation was not evaluated). An ablation's ``n``
counts the questions it shares with its baseline set (the paired items the drop is computed on);
``unpaired`` counts ablation-set questions that are not in the baseline set (normally 0).
``evidence`` is the reading's evidence level (:mod:`mrclens.readings`). Relative ``paths``
are relative to the directory that holds ``results.json``.

``results.csv`` has one row per ablation (:data:`CSV_COLUMNS`).
"""

from __future__ import annotations

import datetime as _dt
import importlib.metadata
import io
import platform
from pathlib import Path
from typing import Any, Mapping, Sequence

import pandas as pd

from mrclens import __version__
from mrclens.io_utils import atomic_write_json, atomic_write_text

RESULTS_JSON = "results.json"
RESULTS_CSV = "results.csv"

#: Columns of ``results.csv``: (column, key in the ablation entry, or a dotted path into it).
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
)

_INT_COLUMNS = ("n", "changed")
_PACKAGES = ("spacy", "torch", "numpy", "pandas", "scikit-learn")


def package_versions() -> dict[str, str]:
    """Versions of Python, MRCLens and the packages that shape the numbers (installed ones only).

    Read from package metadata (:mod:`importlib.metadata`), so nothing heavy is imported.
    """
    out = {"python": platform.python_version(), "mrclens": __version__}
    for name in _PACKAGES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return out


def utc_now() -> str:
    """The current time as ISO 8601 UTC, to the second (``2026-01-31T12:00:00Z``)."""
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def build_results(
    scores: Mapping[str, Any],
    *,
    model: Mapping[str, Any],
    seed: int,
    n_resamples: int,
    confidence: float,
    inputs: Sequence[Mapping[str, Any]] = (),
    step_seconds: Mapping[str, float] | None = None,
    paths: Mapping[str, str] | None = None,
    warnings: Sequence[str] = (),
    sections: Mapping[str, Any] | None = None,
    created: str | None = None,
) -> dict[str, Any]:
    """Assemble the ``results.json`` object (schema in the module docstring).

    Args:
        scores: ``{"sets", "ablations", "categories"}`` with readings
            (:func:`mrclens.evaluation.score_predictions`).
        model: ``{"kind": "baseline" | "external", "name": str, "config": dict | None}``.
        seed, n_resamples, confidence: the bootstrap settings used.
        inputs: ``[{"role", "file", "sha256"}]`` for every input file.
        step_seconds: wall time per step, in seconds.
        paths: ``{"perturbed_dir", "predictions_dir"}`` (relative to the results directory, or absolute).
        warnings: messages for the user (unknown ids, missing predictions …).
        sections: extra report sections (open dict).
        created: timestamp; now (UTC) when omitted.

    Raises:
        ValueError: ``model["kind"]`` is not ``"baseline"`` or ``"external"``.
    """
    if model.get("kind") not in ("baseline", "external"):
        raise ValueError(f"model kind must be 'baseline' or 'external', got {model.get('kind')!r}")
    return {
        "mrclens_version": __version__,
        "created": created or utc_now(),
        "seed": seed,
        "model": {"kind": model["kind"], "name": model.get("name"), "config": model.get("config")},
        "inputs": [dict(i) for i in inputs],
        "versions": package_versions(),
        "step_seconds": {k: round(float(v), 3) for k, v in (step_seconds or {}).items()},
        "bootstrap": {"n_resamples": n_resamples, "confidence": confidence, "seed": seed},
        "sets": dict(scores["sets"]),
        "ablations": list(scores["ablations"]),
        "categories": list(scores["categories"]),
        "paths": dict(paths or {}),
        "warnings": list(warnings),
        "sections": dict(sections or {}),
    }


def _get(entry: Mapping[str, Any], dotted: str) -> Any:
    value: Any = entry
    for part in dotted.split("."):
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value


def results_frame(results: Mapping[str, Any]) -> pd.DataFrame:
    """One row per ablation with the :data:`CSV_COLUMNS` (``NaN``/``None`` where not computed)."""
    rows = [{col: _get(a, key) for col, key in CSV_COLUMNS} for a in results["ablations"]]
    frame = pd.DataFrame(rows, columns=[c for c, _ in CSV_COLUMNS])
    return frame.astype({c: "Int64" for c in _INT_COLUMNS})


def write_results(results: Mapping[str, Any], out_dir: str | Path) -> tuple[Path, Path]:
    """Write ``out_dir/results.json`` (indented) and ``out_dir/results.csv``, each atomically.

    Returns:
        the two paths. The directory is created if missing.
    """
    out_dir = Path(out_dir)
    json_path = atomic_write_json(out_dir / RESULTS_JSON, results, indent=2)
    buf = io.StringIO()
    results_frame(results).to_csv(buf, index=False, lineterminator="\n")
    csv_path = atomic_write_text(out_dir / RESULTS_CSV, buf.getvalue())
    return json_path, csv_path


def _num(x: Any, fmt: str = "{:.1f}") -> str:
    return "-" if x is None else fmt.format(x)


def format_table(results: Mapping[str, Any]) -> str:
    """The drop table for the terminal: baseline scores, one row per ablation, one per category.

    Drops are in F1 points; ``[low, high]`` is the paired bootstrap CI; ``-`` marks what was not evaluated.
    """
    model = results.get("model") or {}
    lines = [f"Model: {model.get('name')} ({model.get('kind')})"]
    for name in ("original", "original-truncated"):
        s = results["sets"].get(name)
        if s is not None:
            state = f"EM {_num(s['exact_match'])}  F1 {_num(s['f1'])}" if s.get("evaluated") else "not evaluated"
            lines.append(f"  {name}: {s['n']:,} questions, {state}")
    conf = int(round(100 * results.get("bootstrap", {}).get("confidence", 0.95)))
    rows = []
    for a in results["ablations"]:
        ci = f"[{_num(a['ci_low'])}, {_num(a['ci_high'])}]" if a["evaluated"] else ""
        co = a.get("changed_only") or {}
        rows.append(
            {
                "id": a["id"],
                "ablation": a["name"],
                "category": a["category"],
                "set": a["eval_set"],
                "n": a["n"],
                "changed": "-" if a.get("changed") is None else a["changed"],
                "F1": _num(a["f1"]),
                "F1 drop": _num(a["f1_drop"], "{:+.1f}") if a["evaluated"] else "not evaluated",
                f"{conf}% CI": ci,
                "drop (changed)": _num(co.get("f1_drop"), "{:+.1f}"),
                "evidence": a.get("evidence") or "-",
            }
        )
    if rows:
        lines += ["", pd.DataFrame(rows).to_string(index=False)]
    cats = [
        {
            "category": c["category"],
            "ablations": ",".join(c["ablations"]),
            "mean F1 drop": _num(c["f1_drop"], "{:+.1f}"),
            f"{conf}% CI": f"[{_num(c['ci_low'])}, {_num(c['ci_high'])}]" if c["f1_drop"] is not None else "",
            "evidence": c.get("evidence") or "-",
        }
        for c in results["categories"]
    ]
    if cats:
        lines += ["", pd.DataFrame(cats).to_string(index=False)]
    return "\n".join(lines)
