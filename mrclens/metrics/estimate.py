"""Estimates: a figure with its standard error, and how figures are stored.

* :func:`round_stored`: a figure as files and readings store it (4 decimals, never ``-0.0``).

Examples:
    >>> round_stored(1.23456789), round_stored(-0.00001)
    (1.2346, 0.0)
"""

from __future__ import annotations

#: Decimals of a figure stored in ``results.json``, the reference file and the readings' figures.
STORED_DECIMALS = 4


def round_stored(x: float) -> float:
    """``x`` rounded to :data:`STORED_DECIMALS` decimals, ``-0.0`` written as ``0.0`` (``+ 0.0``)."""
    return round(float(x), STORED_DECIMALS) + 0.0


def se_from_interval(low: float, high: float, z: float) -> float:
    """The standard error a normal interval ``[low, high]`` was drawn with at quantile ``z``:
    ``max(high − low, 0) / (2 z)`` (the unit of the bounds)."""
    return max(high - low, 0.0) / (2.0 * z)
