"""Seeds of repeated draws and repeated trainings, derived from the one ``--seed``.

Rule (issue 16, parts 4–5): replicate ``k`` of a kind (``"draw"``: the random choices of every
ablation and control; ``"reader"``: the training run of the baseline reader) uses

* ``seed`` itself for ``k = 0`` (so one draw / one reader is exactly the single-run audit), and
* ``int.from_bytes(sha256(f"{seed}\\x1f{kind}\\x1f{k}")[:8], "big") >> 1`` for ``k >= 1``
  (a non-negative 63-bit integer; sha256, never Python's salted ``hash()``, so the seeds are
  the same on every machine and in every process).

Examples:
    >>> derived_seed(0, "draw", 0)
    0
    >>> derived_seed(0, "draw", 1) == derived_seed(0, "draw", 1) != derived_seed(0, "reader", 1)
    True
    >>> [derived_seed(7, "draw", k) for k in range(2)][0]
    7
"""

from __future__ import annotations

import hashlib

#: The kinds of replicate a seed can be derived for.
KINDS = ("draw", "reader")


def derived_seed(seed: int, kind: str, k: int) -> int:
    """The seed of replicate ``k`` (0-based) of ``kind`` (rule in the module docstring).

    Raises:
        ValueError: ``kind`` is not one of :data:`KINDS`, or ``k`` < 0.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    if k < 0:
        raise ValueError(f"replicate index must be >= 0, got {k}")
    if k == 0:
        return int(seed)
    digest = hashlib.sha256(f"{int(seed)}\x1f{kind}\x1f{k}".encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> 1
