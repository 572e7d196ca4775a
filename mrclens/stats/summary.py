"""Aggregation of per-question values: mean, median, histogram; counts and shares.

Every function returns plain Python numbers, lists and dicts, so the result can be written
as JSON as it is. Shares are percentages (0–100), like the official SQuAD scores.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np


def summarize(values: Sequence[float], *, bins: Sequence[float] | None = None, unit: str = "") -> dict:
    """Mean, median, standard deviation, min, max and a histogram of ``values``.

    Args:
        values: one number per item (``None`` values are skipped and counted as missing).
        bins: histogram bin edges (increasing); values below the first edge are counted in the
            first bin and values above the last edge in the last bin, so the counts add up to
            ``n``. Default: 10 equal-width bins between min and max.
        unit: a label stored with the result (e.g. ``"words"``, ``"fraction of characters"``).

    Returns:
        ``{"n", "missing", "mean", "median", "std", "min", "max", "unit", "histogram":
        {"edges": [...], "counts": [...]}}``; the statistics are ``None`` when ``n == 0``.
        Bin ``i`` covers ``[edges[i], edges[i+1])``; the last bin is closed on the right.

    Examples:
        >>> s = summarize([1, 2, 2, 10], bins=[0, 2, 4])
        >>> s["mean"], s["median"], s["histogram"]["counts"]
        (3.75, 2.0, [1, 3])
    """
    present = [v for v in values if v is not None]
    arr = np.asarray(present, dtype=float)
    out: dict = {"n": int(arr.size), "missing": len(values) - int(arr.size), "unit": unit}
    if arr.size == 0:
        out.update(mean=None, median=None, std=None, min=None, max=None, histogram={"edges": [], "counts": []})
        return out
    if bins is None:
        lo, hi = float(arr.min()), float(arr.max())
        edges = np.linspace(lo, hi if hi > lo else lo + 1.0, 11)
    else:
        edges = np.asarray(bins, dtype=float)
    counts, _ = np.histogram(np.clip(arr, edges[0], edges[-1]), bins=edges)
    out.update(
        mean=float(arr.mean()),
        median=float(np.median(arr)),
        std=float(arr.std()),
        min=float(arr.min()),
        max=float(arr.max()),
        histogram={"edges": [float(e) for e in edges], "counts": [int(c) for c in counts]},
    )
    return out


def shares(labels: Iterable[str], order: Sequence[str] = ()) -> dict:
    """Counts and percentage shares of categorical ``labels``.

    Args:
        labels: one label per item.
        order: labels to list first and always (with 0 when absent); others follow by count.

    Returns:
        ``{"n": total, "counts": {label: int}, "shares_pct": {label: percent}}``.

    Examples:
        >>> shares(["what", "what", "who"], order=["what", "who", "why"])["shares_pct"]
        {'what': 66.66666666666667, 'who': 33.333333333333336, 'why': 0.0}
    """
    counts: dict[str, int] = {k: 0 for k in order}
    for label in labels:
        counts[label] = counts.get(label, 0) + 1
    extra = sorted((k for k in counts if k not in order), key=lambda k: (-counts[k], k))
    ordered = {k: counts[k] for k in list(order) + extra}
    total = sum(ordered.values())
    return {
        "n": total,
        "counts": ordered,
        "shares_pct": {k: (100.0 * v / total if total else 0.0) for k, v in ordered.items()},
    }


def share_pct(flags: Iterable[bool | None]) -> float | None:
    """Percentage of true values among the non-``None`` ``flags`` (``None`` when there are none)."""
    vals = [bool(f) for f in flags if f is not None]
    return 100.0 * sum(vals) / len(vals) if vals else None


def integer_bins(upper: int) -> list[float]:
    """Edges ``0, 1, …, upper + 1`` for a histogram of non-negative integers, one bin per value;
    values above ``upper`` fall in the last bin."""
    return [float(i) for i in range(upper + 2)]
