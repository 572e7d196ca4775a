"""Numbers and keys as the HTML report and the terminal table show them.

Percentages (EM, F1, drops, CI bounds; 0-100 percentage points) with :data:`PCT_DECIMALS`
decimals, other floats with :data:`FLOAT_DECIMALS`, counts with thousands separators, ``"–"``
for a missing value.

>>> fmt_pct(74.2849), fmt_ci(-1.0, 2.25), fmt_int(10570), fmt_value(None), label("answer_start")
('74.3', '[-1.0, 2.2]', '10,570', '–', 'answer start')
"""

from __future__ import annotations

import json
import math
from typing import Any

#: Decimals for every percentage (EM, F1, drops, CI bounds) shown in the page.
PCT_DECIMALS = 1
#: Decimals for seconds and other non-percentage floats.
FLOAT_DECIMALS = 2
#: Longest text shown for one value of a generic section or a ``detail`` record (characters).
MAX_VALUE_CHARS = 400


def fmt_pct(value: Any) -> str:
    """A percentage (EM, F1, drop, CI bound) with :data:`PCT_DECIMALS` decimals; ``"–"`` when missing."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value:.{PCT_DECIMALS}f}"


def fmt_ci(low: Any, high: Any) -> str:
    """A confidence interval as ``[low, high]`` (percentage points), or ``""`` when missing."""
    if fmt_pct(low) == "–" or fmt_pct(high) == "–":
        return ""
    return f"[{fmt_pct(low)}, {fmt_pct(high)}]"


def fmt_value(value: Any) -> str:
    """Any JSON scalar as text: ints with thousands separators, floats with :data:`FLOAT_DECIMALS` decimals."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if math.isnan(value):
            return "–"
        return f"{value:,.{FLOAT_DECIMALS}f}"
    if isinstance(value, (list, tuple)) and all(not isinstance(v, (dict, list)) for v in value):
        text = ", ".join(fmt_value(v) for v in value)
    elif isinstance(value, (dict, list)):
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    else:
        text = str(value)
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 1] + "…"


def fmt_int(value: Any) -> str:
    """A count with thousands separators (``10,570``); ``"–"`` when missing."""
    if isinstance(value, bool) or not isinstance(value, int):
        return "–" if value is None else str(value)
    return f"{value:,}"


def label(key: Any) -> str:
    """A JSON key as a label: underscores become spaces."""
    return str(key).replace("_", " ")
