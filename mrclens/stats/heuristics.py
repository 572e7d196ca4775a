"""Three model-free heuristic baselines, and the best each could do inside its chosen sentence.

Each baseline picks a sentence unit and a span in it without any training; the spans are
scored with the official SQuAD EM/F1 (:func:`mrclens.scoring.official.evaluate_set`), so a reader sees how
much of the dataset can be answered without reading. For each baseline the **upper bound** is
the official score of the best span inside the sentence unit it chose
(:func:`best_span_prediction`): when that is low, the baseline fails at choosing the sentence;
when it is high but the baseline's own score is low, it fails at choosing the span.

(a) **First k tokens** (:func:`first_k_prediction`; a position baseline in the spirit of the
    answer-position analyses of Sugawara et al. 2018): the first ``k`` whitespace tokens of the
    context's first sentence unit (default ``k = 3``, close to SQuAD's mean answer length).
(b) **Type-matched span in the most similar sentence** (:func:`type_matched_prediction`;
    Weissenborn et al. 2017, "Making Neural QA as Simple as Possible but not Simpler", CoNLL:
    the answer has the type the question word asks for, and its surroundings match the
    question): in the TF-IDF-most-similar sentence unit (:mod:`mrclens.stats.similarity`), the
    candidate span of the expected type (:func:`expected_answer_type`) that does not consist
    of question words only and lies closest to a question content word.
(c) **Sliding window** (:func:`SlidingWindow`; Richardson, Burges & Renshaw 2013, "MCTest",
    EMNLP, algorithm SW), adapted to span extraction as in Rajpurkar et al. 2016: every
    candidate span of the context is scored as a multiple-choice answer would be, and the best
    one is the prediction.

Candidate spans for (b) and (c) come from patterns over the raw text
(:func:`typed_candidates`): dates, numbers, capitalised name sequences, reason/manner clauses
and (for (c)) runs of content words. This keeps the baselines free of a full NER pass over
every context; coarse answer types of the *gold* answers use spaCy (see
:mod:`mrclens.stats.answer_types`).
"""

from __future__ import annotations

import bisect
import re
from itertools import islice
import string
from collections import Counter
from typing import Callable, NamedTuple, Sequence

import numpy as np

from mrclens.scoring.official import normalize_answer
from mrclens.stats.text import STOP_WORDS, WH_WORDS, is_content_word, whitespace_spans, word_token_spans, word_tokens

_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan\.|Feb\.|Mar\.|Apr\.|Jun\.|Jul\.|Aug\.|Sept?\.|Oct\.|Nov\.|Dec\.)"
)
_YEAR = r"(?:1[0-9]{3}|20[0-9]{2})"
_ORD = r"\d{1,2}(?:st|nd|rd|th)?"
# decades ("1990s", "the 1960s"), years and year ranges, years with an era
_DATE_RE = re.compile(
    r"(?<![\w$])(?:"
    rf"{_MONTH}\s+{_ORD}(?:,?\s+\d{{3,4}})?"
    rf"|{_ORD}\s+(?:of\s+)?{_MONTH}(?:,?\s+\d{{3,4}})?"
    rf"|{_MONTH}(?:,?\s+\d{{3,4}})?"
    r"|(?:the\s+)?\d{1,2}(?:st|nd|rd|th)(?:\s+(?:and|or|to)\s+\d{1,2}(?:st|nd|rd|th))?\s+centur(?:y|ies)(?:\s+(?:BC|AD|BCE|CE)\b)?"
    r"|(?:the\s+)?(?:early\s+|late\s+|mid-)?(?:1[0-9]|20)[0-9]0s"
    rf"|{_YEAR}(?:\s*(?:–|-|to)\s*{_YEAR})?(?:\s+(?:BC|AD|BCE|CE)\b)?"
    r"|\d{1,4}\s+(?:BC|AD|BCE|CE)\b"
    r"|(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
    r")(?![\w])"
)
_NUMBER_WORDS = (
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
    r"sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|"
    r"hundred|thousand|million|billion|trillion|dozen|half)"
)
_UNIT = (
    r"(?:\s+(?:years?|months?|weeks?|days?|hours?|minutes?|seconds?|centuries|decades?|miles?|"
    r"kilometers?|kilometres?|km|feet|foot|ft|meters?|metres?|inches|pounds?|kilograms?|kg|tons?|"
    r"tonnes?|acres?|percent|per\s+cent|people|times|members|students|votes|dollars?))?"
)
_NUMBER_RE = re.compile(
    r"(?<![\w])(?:"
    rf"[$£€]?\d[\d,]*(?:\.\d+)?(?:\s?(?:%|percent|per\s+cent|million|billion|trillion|thousand|hundred)\b)?{_UNIT}"
    rf"|(?i:{_NUMBER_WORDS}(?:[\s-]+{_NUMBER_WORDS})*){_UNIT}"
    r")(?![\w])"
)
_NAME_LINK = r"(?:of|the|de|da|del|der|di|du|la|le|van|von|and|for|y|al|bin|&)"
_NAME_RE = re.compile(
    rf"(?<![\w])[A-Z][\w'’.\-]*(?:\s+(?:{_NAME_LINK}\s+)*[A-Z][\w'’.\-]*)*"
)
_SENTENCE_END = re.compile(r"(?<=[a-z]{2})\.\s")  # a period after 2+ lower-case letters, then space
_CLAUSE_RE = re.compile(r"(?i)\b(?:because(?:\s+of)?|since|due\s+to|as\s+a\s+result\s+of|in\s+order\s+to|so\s+that|by)\s+([^,;:.()]+)")
_NONSPACE = re.compile(r"\S+")
_LOCATIVE = {"in", "at", "from", "near", "to", "into", "across", "throughout", "outside", "inside"}

_NUMBER_NEXT = {
    "many", "much", "long", "old", "far", "large", "big", "tall", "high", "often", "fast", "deep",
    "wide", "heavy", "few", "short", "late", "early", "percentage", "percent", "number", "amount",
    "proportion", "fraction", "population", "temperature", "age", "length", "distance", "height",
    "speed", "rate", "size", "cost", "price",
}
_DATE_NEXT = {"year", "years", "date", "day", "month", "century", "decade", "time", "period", "era", "season", "dates"}
_PLACE_NEXT = {
    "city", "country", "state", "place", "location", "region", "continent", "area", "town", "island",
    "river", "county", "province", "nation", "street", "village", "mountain", "ocean", "sea", "capital",
}


class Candidate(NamedTuple):
    """A candidate answer span: ``(start, end)`` character offsets (end exclusive) and its type."""

    start: int
    end: int
    type: str


def expected_answer_type(question: str) -> str:
    """The answer type ``question`` asks for, from its wh-word and the word after it.

    Rules (the question-word → answer-type mapping of Weissenborn et al. 2017, made explicit):
    "when", or "what/which" + year/date/century/... → ``date``; "how" + many/much/long/old/... ,
    or "what/which" + percentage/number/population/... → ``number``; "who/whom/whose" →
    ``person``; "where", or "what/which" + city/country/river/... → ``location``; "why" or any
    other "how" → ``clause``; everything else ("what", "which", no wh-word) → ``entity``.

    Returns:
        one of ``date``, ``number``, ``person``, ``location``, ``clause``, ``entity``.

    Examples:
        >>> [expected_answer_type(q) for q in ["When did it end?", "How many died?", "In what year?", "Who won?"]]
        ['date', 'number', 'date', 'person']
    """
    words = word_tokens(question)
    for i, w in enumerate(words):
        if w in WH_WORDS:
            nxt = words[i + 1] if i + 1 < len(words) else ""
            if w == "when":
                return "date"
            if w in ("who", "whom", "whose"):
                return "person"
            if w == "where":
                return "location"
            if w == "why":
                return "clause"
            if w == "how":
                return "number" if nxt in _NUMBER_NEXT else "clause"
            if nxt in _DATE_NEXT:
                return "date"
            if nxt in _NUMBER_NEXT:
                return "number"
            if nxt in _PLACE_NEXT:
                return "location"
            return "entity"
    return "entity"


def typed_candidates(text: str, offset: int = 0, *, content_chunks: bool = False) -> list[Candidate]:
    """Candidate answer spans found by patterns in ``text``, typed.

    Types: ``date`` (month names with day/year, years 1000–2099 and ranges, decades,
    centuries, weekdays), ``number`` (digits, number words, with an optional unit; spans that
    are dates are not repeated as numbers), ``name`` (runs of capitalised words, joined by
    of/the/de/van/...; a leading capitalised stop word such as "The" or "In" is dropped; a
    run stops at a period after a lower-case word, so "France. The Tower" gives "France"),
    ``location`` (a name right after in/at/from/near/...; also listed as ``name``), ``clause``
    (the words after because/since/due to/in order to/by up to the next punctuation) and, with
    ``content_chunks=True``, ``chunk`` (maximal runs of non-stop-word word tokens joined only by
    a space or hyphen).

    Args:
        text: the text to search (a sentence unit or a whole context).
        offset: added to every offset (the position of ``text`` in the context).
        content_chunks: also return ``chunk`` candidates.

    Returns:
        candidates sorted by start, then end; a span may appear with several types.

    Examples:
        >>> [(text[s:e], t) for text in ["It opened in Paris on 3 May 1901 with 40 people."]
        ...  for s, e, t in typed_candidates(text)]
        [('Paris', 'name'), ('Paris', 'location'), ('3 May 1901', 'date'), ('40 people', 'number')]
    """
    out = _pattern_candidates(text, offset)
    if content_chunks:
        words, starts, ends = word_token_spans(text)
        out.extend(Candidate(a + offset, b + offset, "chunk") for a, b in _content_chunks(text, words, starts, ends))
    out.sort(key=lambda c: (c.start, c.end))
    return out


def _pattern_candidates(text: str, offset: int) -> list[Candidate]:
    """The date/number/name/location/clause candidates of :func:`typed_candidates`, unsorted."""
    out: list[Candidate] = []
    date_spans = []
    for m in _DATE_RE.finditer(text):
        out.append(Candidate(m.start() + offset, m.end() + offset, "date"))
        date_spans.append((m.start(), m.end()))
    for m in _NUMBER_RE.finditer(text):
        s, e = m.start(), m.end()
        if any(a <= s and e <= b for a, b in date_spans):
            continue
        out.append(Candidate(s + offset, e + offset, "number"))
    pieces = []
    for m in _NAME_RE.finditer(text):
        s = m.start()
        for stop in _SENTENCE_END.finditer(text, s, m.end()):  # "France. The Tower": two names
            pieces.append((s, stop.start()))
            s = stop.end()
        pieces.append((s, m.end()))
    for s, e in pieces:
        span = text[s:e].rstrip(".")
        e = s + len(span)
        first, _, rest = span.partition(" ")
        while first and first.lower() in STOP_WORDS and rest:
            s += len(first) + 1 + (len(rest) - len(rest.lstrip()))
            span = rest.lstrip()
            first, _, rest = span.partition(" ")
        if not span or span.lower() in STOP_WORDS or not span[0].isupper() or any(a <= s and e <= b for a, b in date_spans):
            continue
        out.append(Candidate(s + offset, e + offset, "name"))
        before = text[max(0, s - 12) : s].split()
        if before and before[-1].lower() in _LOCATIVE:
            out.append(Candidate(s + offset, e + offset, "location"))
    for m in _CLAUSE_RE.finditer(text):
        s, e = m.start(1), m.end(1)
        span = text[s:e].rstrip()
        if span:
            out.append(Candidate(s + offset, s + len(span) + offset, "clause"))
    return out


def _content_chunks(text: str, words: Sequence[str], starts: Sequence[int], ends: Sequence[int]) -> list[tuple[int, int]]:
    """Maximal runs of content words (:func:`~mrclens.stats.text.is_content_word`) joined only
    by one space or hyphen, as ``(start, end)``; ``words``/``starts``/``ends`` are the word
    tokens of ``text`` and their offsets in ``text`` (:func:`~mrclens.stats.text.word_token_spans`)."""
    out: list[tuple[int, int]] = []
    run_start = run_end = -1
    for w, a, b in zip(words, starts, ends):
        if is_content_word(w):
            if run_start >= 0:
                if text[run_end:a] in (" ", "-"):
                    run_end = b
                    continue
                out.append((run_start, run_end))
            run_start, run_end = a, b
        elif run_start >= 0:
            out.append((run_start, run_end))
            run_start = -1
    if run_start >= 0:
        out.append((run_start, run_end))
    return out


def first_k_prediction(context: str, unit: tuple[int, int], k: int = 3) -> str:
    """Baseline (a): the first ``k`` whitespace tokens of the sentence unit ``unit`` (characters
    ``[start, end)`` of ``context``), as the context's text from the first to the k-th token.

    Examples:
        >>> first_k_prediction("Paris is the capital. It is big.", (0, 21), k=3)
        'Paris is the'
    """
    toks = list(islice(_NONSPACE.finditer(context, unit[0], unit[1]), k))
    return context[toks[0].start() : toks[-1].end()] if toks else ""


def type_matched_prediction(
    context: str, unit: tuple[int, int], question: str, k: int = 3, *, candidates: Sequence[Candidate] | None = None
) -> str:
    """Baseline (b): the span of the expected answer type in ``unit`` closest to the question's words.

    Rule: candidates (:func:`typed_candidates`) of the type :func:`expected_answer_type` asks
    for (``person``/``entity`` → ``name``; ``location`` → ``location``, else ``name``); if
    there is none, any ``name``, then any ``date``/``number``; if still none, the first ``k``
    whitespace tokens of the unit. Candidates whose word tokens all occur in the question are
    dropped (an answer rarely repeats the question). Among the rest, the one whose character
    distance to the nearest occurrence of a question content word in the unit is smallest
    wins; ties, and units without question content words, go to the earliest candidate.

    Args:
        context: the paragraph text.
        unit: the chosen sentence unit, ``(start, end)`` characters.
        question: the question text.
        k: tokens for the fallback.
        candidates: ``typed_candidates(context)`` computed once for the whole context (reused
            across the paragraph's questions); only those inside ``unit`` are considered.
            Default: found in the unit's text.

    Returns:
        the predicted answer text (a substring of ``context``).

    Examples:
        >>> ctx = "The tower was built in 1889 by Gustave Eiffel in Paris."
        >>> type_matched_prediction(ctx, (0, len(ctx)), "When was the tower built?")
        '1889'
    """
    start, end = unit
    sentence = context[start:end]
    q_words = set(word_tokens(question))
    if candidates is None:
        cands = typed_candidates(sentence, start)
    else:
        cands = [c for c in candidates if start <= c.start and c.end <= end]
    cand_words = [set(word_tokens(context[c.start : c.end])) for c in cands]
    anchors = [
        (m.start() + start, m.end() + start)
        for m in re.finditer(r"\w+", sentence)
        if m.group().lower() in q_words and is_content_word(m.group().lower())
    ]
    return _choose_typed(context, unit, question, q_words, cands, cand_words, anchors, k)


_TYPE_ORDER = {
    "date": (("date",), ("name",), ("number",)),
    "number": (("number",), ("name",), ("date",)),
    "location": (("location",), ("name",), ("date", "number")),
    "person": (("name",), ("date", "number")),
    "entity": (("name",), ("date", "number")),
    "clause": (("clause",), ("name",), ("date", "number")),
}


def _choose_typed(
    context: str,
    unit: tuple[int, int],
    question: str,
    q_words: set[str],
    cands: Sequence[Candidate],
    cand_words: Sequence[set[str] | frozenset[str]],
    anchors: Sequence[tuple[int, int]],
    k: int,
) -> str:
    """The rule of :func:`type_matched_prediction` on prepared inputs: the unit's candidates and
    their word-token sets, and the spans of the unit's question content words (``anchors``)."""
    cands = [c for c, words in zip(cands, cand_words) if not words <= q_words]
    chosen: list[Candidate] = []
    for types in _TYPE_ORDER[expected_answer_type(question)]:
        chosen = [c for c in cands if c.type in types]
        if chosen:
            break
    if not chosen:
        return first_k_prediction(context, unit, k)
    if not anchors:
        c = chosen[0]
        return context[c.start : c.end]

    def distance(c: Candidate) -> int:
        return min(max(a - c.end, c.start - b, 0) for a, b in anchors)

    c = min(chosen, key=distance)  # min() keeps the first of equal distances
    return context[c.start : c.end]


class SlidingWindow:
    """Baseline (c): the sliding-window score of Richardson et al. 2013 (MCTest, algorithm SW)
    for every candidate span of one passage.

    Definitions (MCTest, §4.1): ``P`` is the passage as a word sequence, ``C(w)`` the count
    of word ``w`` in ``P`` and ``IC(w) = log(1 + 1 / C(w))`` its inverse count. For a
    question ``Q`` and a candidate answer ``A``, the target set is ``S = set(Q) ∪ set(A)``
    and the score is the best sum of ``IC`` over the words of any window of ``|S|`` passage
    words that belong to ``S``:
    ``sw(A) = max_j Σ_{w=1..|S|} IC(P[j+w]) · [P[j+w] ∈ S]`` (windows running past the end
    are cut short). Words are lower-cased ``\\w+`` tokens.

    Extractive adaptation (ours, as the SQuAD paper's sliding-window baseline used candidate
    constituents instead of given choices): the candidates are every span from
    :func:`typed_candidates` over the whole context with ``content_chunks=True``; candidates
    whose words all occur in the question are dropped; the highest score wins, ties to the
    earliest candidate. The computation is vectorised with NumPy per passage.

    Args:
        context: the passage text.
        candidates: ``typed_candidates(context, content_chunks=True)``, if already computed.
        words: ``word_token_spans(context)`` (lower-cased ``\\w+`` tokens, starts, ends), if
            already computed.
    """

    def __init__(
        self,
        context: str,
        candidates: Sequence[Candidate] | None = None,
        words: tuple[Sequence[str], Sequence[int], Sequence[int]] | None = None,
    ):
        self.context = context
        tokens, starts, ends = words if words is not None else word_token_spans(context)
        vocab: dict[str, int] = {}
        ids = [vocab.setdefault(w, len(vocab)) for w in tokens]
        self.vocab = vocab
        self.ids = np.asarray(ids, dtype=np.int64)
        counts = np.bincount(self.ids, minlength=len(vocab)) if len(vocab) else np.zeros(0)
        self.ic = np.log1p(1.0 / counts[self.ids]) if len(ids) else np.zeros(0)
        starts = np.asarray(starts, dtype=np.int64)
        ends = np.asarray(ends, dtype=np.int64)
        if candidates is None:
            candidates = typed_candidates(context, 0, content_chunks=True)
        unique = list({(c.start, c.end): c for c in reversed(candidates)}.values())[::-1]  # first of each span
        c_start = np.asarray([c.start for c in unique], dtype=np.int64)
        c_end = np.asarray([c.end for c in unique], dtype=np.int64)
        lo = np.searchsorted(ends, c_start, side="right")
        hi = np.searchsorted(starts, c_end, side="left")
        has_words = hi > lo
        self.candidates: list[Candidate] = [c for c, ok in zip(unique, has_words) if ok]
        lo, hi = lo[has_words], hi[has_words]
        m = len(self.candidates)
        lengths = hi - lo
        rows = np.repeat(np.arange(m), lengths)
        pos = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths) + np.repeat(lo, lengths)
        self.incidence = np.zeros((m, len(vocab)), dtype=bool)
        self.incidence[rows, self.ids[pos]] = True
        self.sizes = self.incidence.sum(axis=1)
        self.mask = self.incidence[:, self.ids] if len(ids) else np.zeros((m, 0), dtype=bool)

    def _prepare(self, questions: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per question, which passage words are question words, shape ``(nq, n_words)``; per
        (question, candidate), whether the candidate is kept (not all question words) and the
        window size ``min(|S|, n_words)``, both ``(nq, n_candidates)``."""
        nq = len(questions)
        q_vec = np.zeros((nq, len(self.vocab)), dtype=bool)
        q_size = np.zeros(nq, dtype=np.int64)
        for i, question in enumerate(questions):
            q_words = set(word_tokens(question))
            q_size[i] = len(q_words)
            q_vec[i, [self.vocab[w] for w in q_words if w in self.vocab]] = True
        overlap = q_vec.astype(np.int64) @ self.incidence.T.astype(np.int64)  # (nq, m)
        keep = overlap < self.sizes[None, :]
        window = np.minimum(q_size[:, None] + self.sizes[None, :] - overlap, self.ids.size)  # |S|
        return q_vec[:, self.ids], keep, window

    def _exact(self, q_mask: np.ndarray, q_idx: np.ndarray, c_idx: np.ndarray, window: np.ndarray) -> np.ndarray:
        """The SW score of the (question ``q_idx[k]``, candidate ``c_idx[k]``) pairs, shape
        ``(n_pairs,)``; each pair's value depends only on that pair."""
        n = self.ids.size
        in_s = self.mask[c_idx] | q_mask[q_idx]  # (pairs, n)
        cum = np.zeros((len(c_idx), n + 1))
        np.cumsum(np.where(in_s, self.ic, 0.0), axis=1, out=cum[:, 1:])
        # window sums cum[j + W] - cum[j] for j = 0 .. n - W, one slice per distinct window
        # size W: windows cut short by the passage end never score more (cum is
        # non-decreasing), and a window as long as the passage covers all of it
        best = np.empty(len(c_idx))
        for w in np.unique(window):
            rows = np.flatnonzero(window == w)
            sub = cum[rows]
            best[rows] = (sub[:, w:] - sub[:, : n + 1 - w]).max(axis=1)
        return best

    def scores(self, questions: Sequence[str]) -> np.ndarray:
        """The SW score of every candidate for each question, shape ``(n_questions,
        n_candidates)``; ``-inf`` marks candidates dropped for that question."""
        nq, m, n = len(questions), len(self.candidates), self.ids.size
        if m == 0 or n == 0 or nq == 0:
            return np.full((nq, m), -np.inf)
        q_mask, keep, window = self._prepare(questions)
        q_idx, c_idx = np.divmod(np.arange(nq * m), m)
        best = self._exact(q_mask, q_idx, c_idx, window.reshape(-1)).reshape(nq, m)
        best[~keep] = -np.inf
        return best

    def predict(self, questions: Sequence[str]) -> list[Candidate | None]:
        """The best-scoring candidate for each question (``None`` when none is left): the
        argmax of :meth:`scores`, ties to the earliest candidate."""
        s = self.scores(questions)
        return [self.candidates[int(np.argmax(row))] if row.size and np.isfinite(row).any() else None for row in s]


_PUNCT_TABLE = str.maketrans("", "", string.punctuation)


def normalized_tokens(context: str, start: int = 0, end: int | None = None) -> list[tuple[int, int, list[str]]]:
    """The whitespace tokens of ``context[start:end]`` as ``(start, end, words)`` (offsets in
    ``context``), where ``words`` is the token normalised by the official rule
    (:func:`mrclens.scoring.official.normalize_answer`, split): usually one word, none for punctuation
    or an article."""
    out = []
    end = len(context) if end is None else end
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
    tokens: Sequence[tuple[int, int, list[str]]] | Callable[[], Sequence] | None = None,
) -> str:
    """The span inside ``unit`` with the highest official F1 against any gold answer (the
    baselines' upper bound).

    Rule: when a gold answer lies wholly inside the unit it is the best span (EM and F1 100).
    Otherwise the unit's whitespace tokens are normalised as the official script normalises
    answers (:func:`mrclens.scoring.official.normalize_answer`), and every span that starts and ends on
    a token found in the gold answer is scored (a best span can always be trimmed to such
    ends without losing F1); the best span over all golds wins, ties to the first.

    Args:
        context: the paragraph text.
        unit: ``(start, end)`` characters of the chosen sentence unit.
        golds: the gold answers as ``(answer_start, text)``.
        tokens: :func:`normalized_tokens` of the context or of the unit, if already computed
            (or a function returning them, called only when needed).

    Returns:
        the span's text (a substring of ``context``), or ``""`` when no token is shared.

    Examples:
        >>> best_span_prediction("Tom met Ann in Rome. They wed.", (0, 20), [(8, "Ann in Rome")])
        'Ann in Rome'
        >>> best_span_prediction("Tom met Ann in Rome. They wed.", (0, 20), [(15, "Rome. They")])
        'Rome.'
    """
    u_start, u_end = unit
    for start, text in golds:
        if u_start <= start and start + len(text) <= u_end:
            return text
    if tokens is None:
        tokens = normalized_tokens(context, u_start, u_end)
    elif callable(tokens):
        tokens = tokens()
    lo = bisect.bisect_left(tokens, (u_start,))
    inside = [t for t in tokens[lo:bisect.bisect_left(tokens, (u_end,))] if t[1] <= u_end]
    toks = [(a, b) for a, b, _ in inside]
    norm = [ws for _, _, ws in inside]
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


class PassageIndex:
    """What the three baselines need about one context, computed once for all its questions.

    The results are those of the public functions (:func:`typed_candidates` per sentence unit
    with ``content_chunks=True``, :func:`type_matched_prediction`, :class:`SlidingWindow`,
    :func:`normalized_tokens`); only the shared work (word tokens of the context, candidate
    spans and their word sets, normalised tokens of a unit) is done once per context.

    Args:
        context: the paragraph text.
        units: its sentence units, ``(start, end)`` characters (:func:`mrclens.units.sentence_units`).

    Attributes:
        words, starts, ends: the context's word tokens (:func:`~mrclens.stats.text.word_token_spans`).
        word_ranges: per unit, the ``[lo, hi)`` indices of the word tokens inside it.
        candidates: every unit's candidates in context order (sorted by start, then end).
        unit_slices: per unit, the ``[lo, hi)`` indices of its candidates in :attr:`candidates`.
    """

    def __init__(self, context: str, units: Sequence[tuple[int, int]]):
        self.context = context
        self.units = list(units)
        self.words, self.starts, self.ends = word_token_spans(context)
        self.word_ranges = [
            (bisect.bisect_left(self.starts, s), bisect.bisect_right(self.ends, e)) for s, e in self.units
        ]
        candidates: list[Candidate] = []
        self.unit_slices: list[tuple[int, int]] = []
        for (s, e), (lo, hi) in zip(self.units, self.word_ranges):
            found = _pattern_candidates(context[s:e], s)
            found.extend(
                Candidate(a, b, "chunk")
                for a, b in _content_chunks(context, self.words[lo:hi], self.starts[lo:hi], self.ends[lo:hi])
            )
            found.sort(key=lambda c: (c.start, c.end))
            self.unit_slices.append((len(candidates), len(candidates) + len(found)))
            candidates.extend(found)
        self.candidates = candidates
        self._cand_words: list[frozenset[str]] | None = None
        self._unit_tokens: dict[int, list] = {}
        self._unit_word_sets: dict[int, set[str]] = {}

    def unit_word_set(self, u: int) -> set[str]:
        """The set of word tokens of unit ``u``."""
        if u not in self._unit_word_sets:
            lo, hi = self.word_ranges[u]
            self._unit_word_sets[u] = set(self.words[lo:hi])
        return self._unit_word_sets[u]

    def unit_tokens(self, u: int) -> list[tuple[int, int, list[str]]]:
        """:func:`normalized_tokens` of unit ``u`` (computed on first use)."""
        if u not in self._unit_tokens:
            self._unit_tokens[u] = normalized_tokens(self.context, *self.units[u])
        return self._unit_tokens[u]

    def sliding_window(self) -> SlidingWindow:
        """Baseline (c) over this context's candidates."""
        return SlidingWindow(self.context, self.candidates, words=(self.words, self.starts, self.ends))

    def type_matched(self, u: int, question: str, q_words: set[str], k: int = 3) -> str:
        """:func:`type_matched_prediction` in unit ``u`` for ``question`` (``q_words``: its
        word-token set)."""
        if self._cand_words is None:
            ctx = self.context
            self._cand_words = [frozenset(word_tokens(ctx[c.start : c.end])) for c in self.candidates]
        lo, hi = self.unit_slices[u]
        wlo, whi = self.word_ranges[u]
        words, starts, ends = self.words, self.starts, self.ends
        anchors = [
            (starts[i], ends[i]) for i in range(wlo, whi) if words[i] in q_words and is_content_word(words[i])
        ]
        return _choose_typed(
            self.context, self.units[u], question, q_words, self.candidates[lo:hi], self._cand_words[lo:hi], anchors, k
        )
