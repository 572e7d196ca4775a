"""Spans a context sets apart, and whether the answer is one of them beyond chance: the Question category's figure
of the data (MRCLens issue 54, item 5).

A question is a shortcut when its answer can be found **without reading the question** (beyond knowing that one is
asked; Weissenborn et al. 2017, "Making Neural QA as Simple as Possible but not Simpler", CoNLL: a reader that
knows only the answer type and the context's candidate spans; Sugawara et al. 2018, "What Makes Reading
Comprehension Questions Easier?", EMNLP: questions answerable from the context's surface alone). The cue measured
here is question-agnostic: **the answer is a span the context sets apart** — between quotation marks (``"…"``,
``“…”``, ``„…“``, ``‘…’``), guillemets (``«…»``, ``‹…›``), corner brackets (``「…」``, ``『…』``), brackets
(``(…)``, ``[…]``, ``{…}``) or emphasis markup (``**…**``, ``__…__``, ```…```, ``<b>…</b>``, ``<i>``, ``<em>``,
``<strong>``, ``<u>``, ``<mark>``): :func:`set_apart_spans`. A reader that picks one of those spans at random,
without reading the question, finds the answer when it is one of them.

The figure is that reader's hit, **chance-corrected by the number of candidates** (:meth:`SetApart.top`), per
answerable question, in percent: the context's candidate answers are the distinct normalised texts of its typed
candidate spans (:mod:`mrclens.stats.heuristics.candidates`: dates, numbers, names, places, clauses, content-word
chunks) and of its set-apart spans; the reader picks uniformly among the set-apart ones (or, where the context sets
none apart, among all candidates), and chance is a pick among all candidates. In the form of the chance-corrected
top-1 share (:func:`mrclens.stats.chance.top_share`, Cohen's kappa for one pick among ``n``):
``100 × (h − 1/n) / (1 − 1/n)`` where ``h = 1/k`` when the answer is one of ``k`` set-apart spans, 0 when the
context sets others apart, ``1/n`` when it sets none apart (so a context without marks gives exactly 0). An answer
that is no candidate at all gives 0 (neither the cue nor chance finds it); a context with fewer than two candidates
gives none (nothing to choose from). So 100 = the answer is always the one span set apart, 0 = the marks say
nothing of the answer, below 0 = they point elsewhere. Texts are compared as the official SQuAD scoring compares
them (:func:`mrclens.metrics.official.normalize_answer`, quotation marks of every script removed first), the first
gold answer of each question as for every other figure.

The figure depends only on the context and the question's answer, so it is the same whatever file, article or
paragraph a question sits in (``benchmarks/grouping_invariance.py``).

Examples:
    >>> ctx = 'The song « Halo » was a hit in 2009, and "Sweet Dreams" followed.'
    >>> [ctx[s:e] for s, e in set_apart_spans(ctx)]
    ['Sweet Dreams', 'Halo']
    >>> cue = SetApart(ctx, ["Halo", "2009", "Sweet Dreams", "hit"])
    >>> cue.top("Halo"), cue.top("2009"), cue.top("nothing")    # 2 of 4 candidates set apart
    (33.3333333333, -33.3333333333, 0.0)
    >>> SetApart("A hit in 2009 and 2010.", ["hit", "2009", "2010"]).top("2009")    # nothing set apart: chance
    0.0
"""

from __future__ import annotations

import re
from typing import Iterable

from mrclens.metrics.official import normalize_answer
from mrclens.stats.chance import top_share

#: The longest span (characters, marks excluded) read as set apart: longer "quotations" are unpaired marks.
MAX_SPAN = 200

#: The pairs of marks that set a span apart (opening, closing), as regular expressions.
MARK_PAIRS: tuple[tuple[str, str], ...] = (
    ('"', '"'), ("\u201c", "\u201d"), ("\u201e", "\u201c"), ("\u2018", "\u2019"),  # quotation marks
    ("\u00ab", "\u00bb"), ("\u2039", "\u203a"), ("\u300c", "\u300d"), ("\u300e", "\u300f"),  # guillemets, corners
    ("(", ")"), ("[", "]"), ("{", "}"),  # brackets
    ("**", "**"), ("__", "__"), ("`", "`"),  # emphasis markup
)
_PAIR_RES = tuple(re.compile(f"{re.escape(o)}([^\n{re.escape(o + c)}]{{1,{MAX_SPAN}}}){re.escape(c)}")
                  for o, c in MARK_PAIRS)
_TAG_RE = re.compile(r"<(b|i|em|strong|u|mark)>([^<\n]{1,%d})</\1>" % MAX_SPAN, re.IGNORECASE)
#: Quotation marks outside ASCII, removed before the official normalisation (which removes ASCII punctuation only).
_QUOTES = str.maketrans({ch: " " for ch in "\u201c\u201d\u201e\u2018\u2019\u00ab\u00bb\u2039\u203a\u300c\u300d\u300e\u300f"})


def set_apart_spans(context: str) -> list[tuple[int, int]]:
    """The spans ``context`` sets apart (module docstring): ``(start, end)`` characters of the text between each
    pair of :data:`MARK_PAIRS` (and emphasis tags), surrounding whitespace left out, at most :data:`MAX_SPAN`
    characters and on one line; in the order of :data:`MARK_PAIRS`, then by position. Marks of one kind pair from
    left to right (``"a" b "c"`` gives ``a`` and ``c``)."""
    out = []
    found = [m.span(1) for pattern in _PAIR_RES for m in pattern.finditer(context)]
    found += [m.span(2) for m in _TAG_RE.finditer(context)]
    for s, e in found:
        text = context[s:e]
        s, e = s + len(text) - len(text.lstrip()), e - (len(text) - len(text.rstrip()))
        if e > s:
            out.append((s, e))
    return out


def answer_key(text: str) -> str:
    """How answers and candidates are compared: the official SQuAD normalisation
    (:func:`mrclens.metrics.official.normalize_answer`) after quotation marks of every script are removed.

    >>> answer_key("“The Beatles”"), answer_key("« the Beatles »")
    ('beatles', 'beatles')
    """
    return normalize_answer(text.translate(_QUOTES))


class SetApart:
    """One context's candidate answers and the ones it sets apart (module docstring), shared by its questions.

    Args:
        context: the paragraph text.
        candidates: the texts of its candidate answer spans (:attr:`mrclens.stats.heuristics.PassageIndex.candidates`);
            the set-apart spans (:func:`set_apart_spans`) join them.

    Attributes:
        pool: the distinct candidate answers (:func:`answer_key`), sorted.
        marked: those the context sets apart.
    """

    def __init__(self, context: str, candidates: Iterable[str]):
        self.marked = frozenset(answer_key(context[s:e]) for s, e in set_apart_spans(context)) - {""}
        self.pool = sorted(({answer_key(c) for c in candidates} | self.marked) - {""})
        self._scores = [1.0 if c in self.marked else 0.0 for c in self.pool]
        self._index = {c: i for i, c in enumerate(self.pool)}

    def top(self, answer: str) -> float | None:
        """The chance-corrected hit (percent) of a pick among the set-apart spans for ``answer`` (the first gold
        answer's text): −100–100 (0 = chance; an answer that is no candidate: 0), or ``None`` when the context has
        fewer than two distinct candidates or the answer normalises to nothing (module docstring)."""
        target = answer_key(answer)
        if len(self.pool) < 2 or not target:
            return None
        if target not in self._index:
            return 0.0
        return top_share(self._scores, self._index[target])
