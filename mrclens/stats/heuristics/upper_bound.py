"""The upper bound of a baseline: the best span inside the sentence unit it chose.

For each baseline, the upper bound is the official SQuAD score (:func:`mrclens.metrics.official.evaluate_set`)
of the span inside its chosen unit with the highest official F1 (:func:`best_span_prediction`):
when it is low, the baseline fails at choosing the sentence; when it is high but the
baseline's own score is low, it fails at choosing the span.
"""

from __future__ import annotations

import string
from collections import Counter
from typing import Callable, Sequence

from mrclens.metrics.official import normalize_answer
from mrclens.stats.text import whitespace_spans

_PUNCT_TABLE = str.maketrans("", "", string.punctuation)

#: A whitespace token ``(start, end, words)``: character offsets in the context and the
#: token's words after the official normalisation.
NormalizedToken = tuple[int, int, list[str]]


def normalized_tokens(context: str, start: int, end: int) -> list[NormalizedToken]:
    """The whitespace tokens of ``context[start:end]`` as ``(start, end, words)`` (offsets in
    ``context``), where ``words`` is the token normalised by the official rule
    (:func:`mrclens.metrics.official.normalize_answer`, split): usually one word, none for punctuation
    or an article.

    Examples:
        >>> [w for _, _, w in normalized_tokens("The U.S. army's–men, a (b)", 0, 26)]
        [[], ['us'], ['armys–men'], [], ['b']]
    """
    out = []
    for s, e in whitespace_spans(context[start:end], start):
        tok = context[s:e]
        low = tok.lower().translate(_PUNCT_TABLE)
        if low.isalnum():  # fast path, same result as normalize_answer(tok).split()
            out.append((s, e, [] if low in ("a", "an", "the") else [low]))
        else:
            out.append((s, e, normalize_answer(tok).split()))
    return out


def best_span_prediction(
    context: str,
    unit: tuple[int, int],
    golds: Sequence[tuple[int, str]],
    unit_tokens: Callable[[], Sequence[NormalizedToken]],
) -> str:
    """The span inside ``unit`` with the highest official F1 against any gold answer (the
    baselines' upper bound).

    Rule: when a gold answer lies wholly inside the unit it is the best span (EM and F1 100).
    Otherwise every span of the unit's whitespace tokens is a candidate, scored with the
    official F1 (:func:`mrclens.metrics.official.f1_score`); only spans that start and end on a token
    found in the gold answer are tried (a best span can always be trimmed to such ends without
    losing F1); the best span over all golds wins, ties to the first (golds in order, then
    start, then end).

    Args:
        context: the paragraph text.
        unit: ``(start, end)`` characters of the chosen sentence unit.
        golds: the gold answers as ``(answer_start, text)``.
        unit_tokens: returns :func:`normalized_tokens` of the unit; called only when no gold
            answer lies inside the unit.

    Returns:
        the span's text (a substring of ``context``), or ``""`` when no token is shared.

    Examples:
        >>> ctx = "Tom met Ann in Rome. They wed."
        >>> best_span_prediction(ctx, (0, 20), [(8, "Ann in Rome")], lambda: normalized_tokens(ctx, 0, 20))
        'Ann in Rome'
        >>> best_span_prediction(ctx, (0, 20), [(15, "Rome. They")], lambda: normalized_tokens(ctx, 0, 20))
        'Rome.'
    """
    u_start, u_end = unit
    for start, text in golds:
        if u_start <= start and start + len(text) <= u_end:
            return text
    tokens = unit_tokens()
    toks = [(a, b) for a, b, _ in tokens]
    norm = [ws for _, _, ws in tokens]
    best_f1, best = 0.0, ""
    for _, text in golds:
        gold = Counter(normalize_answer(text).split())
        g_len = sum(gold.values())
        if not g_len:
            continue
        hits = [i for i, ws in enumerate(norm) if any(w in gold for w in ws)]
        for a_pos, i in enumerate(hits):
            have: Counter = Counter()
            common = length = 0
            next_t = i
            for j in hits[a_pos:]:
                for t in range(next_t, j + 1):  # extend the span [i, j] token by token
                    for w in norm[t]:
                        length += 1
                        if have[w] < gold[w]:
                            common += 1
                        have[w] += 1
                next_t = j + 1
                if common:
                    p, r = common / length, common / g_len
                    f1 = 2 * p * r / (p + r)
                    if f1 > best_f1 + 1e-12:
                        best_f1, best = f1, context[toks[i][0] : toks[j][1]]
    return best
