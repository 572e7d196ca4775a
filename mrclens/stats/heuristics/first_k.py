"""Baseline (a): the first ``k`` whitespace tokens of the context's first sentence unit.

A position baseline in the spirit of the answer-position analyses of Sugawara et al. 2018
("What Makes Reading Comprehension Questions Easier?", EMNLP); the default ``k = 3`` is close
to SQuAD's mean answer length in words.
"""

from __future__ import annotations

import re
from itertools import islice

_NONSPACE = re.compile(r"\S+")


def first_k_prediction(context: str, unit: tuple[int, int], k: int = 3) -> str:
    """The first ``k`` whitespace tokens of the sentence unit ``unit`` (characters ``[start,
    end)`` of ``context``), as the context's text from the first to the k-th token (so the
    spaces between them are the context's own).

    Returns:
        a substring of ``context``; ``""`` when the unit holds no token.

    Examples:
        >>> first_k_prediction("Paris is the capital. It is big.", (0, 21), k=3)
        'Paris is the'
    """
    start, end = first_k_span(context, unit, k)
    return context[start:end]


def first_k_span(context: str, unit: tuple[int, int], k: int = 3) -> tuple[int, int]:
    """Where :func:`first_k_prediction` lies: ``(start, end)`` characters of ``context`` (``(unit[0], unit[0])``
    when the unit holds no token).

    >>> first_k_span("Paris is the capital. It is big.", (0, 21), k=2)
    (0, 8)
    """
    toks = list(islice(_NONSPACE.finditer(context, unit[0], unit[1]), k))
    return (toks[0].start(), toks[-1].end()) if toks else (unit[0], unit[0])
