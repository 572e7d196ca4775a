"""Which questions carry a shortcut: per question and bias category, the evidence and its strength (issue 56).

The data route's figures (``mrclens stats``) say how much of a dataset offers each shortcut; this module says
which questions do, from the data alone (no reader), so that a dataset's builders can rewrite, drop or hold
them out (``shortcut-questions.jsonl``, :mod:`mrclens.artifacts.shortcut_questions`, which defines every
field). Per answerable question, on its first gold answer:

* **Similarity** — the answer sentence is the most TF-IDF-similar sentence unit (Sugawara et al. 2018), by a
  margin over the runner-up, and repeats the question word for word: strength = the longest word n-gram it
  shares with the question (Bartolo et al. 2020), as a share of the question's words, when it is the most
  similar (else 0).
* **Question** — a rule that reads no more of the question than its wh-word finds the answer (Weissenborn et
  al. 2017): the type-matched heuristic answers it exactly, or marks (quotes, brackets, guillemets) single the
  answer span out; strength = ``1 / k``, ``k`` the candidates that rule leaves.
* **Keyword** — the question's content words sit right next to the answer span (the cue ablations e6–e8
  test): strength = the share of its content words in the run of question words touching the span.
* **Position** — the answer is in the first sentence (Ko et al. 2020): strength = ``1 − 1/n`` for a context of
  ``n`` sentence units (how unlikely the first sentence is by chance), else 0.

**Flags.** Generic evidence is weak on clean data (about 79 % of SQuAD's answers sit in the most similar
sentence, about 30 % in the first), so a question is flagged only when its strength reaches its category's
threshold (:data:`RULES`). The thresholds were fitted on ``mrclens selftest``'s graded plantings
(:func:`mrclens.selftest.plantings.plant_graded`, 25 % and 50 %) built from SQuAD v1.1 train articles, and
their precision and recall were measured on plantings of other articles (``benchmarks/evidence_recovery.py``;
BENCHMARKS.md, "Which questions carry a shortcut"). Position cannot be read per question the way the others
are: an answer sentence moved to the front looks like a natural first sentence, and the planting's clean side
moves a question's own answer sentence to the front one time in ``n``. The odds that an answer-first question
of ``n`` sentence units was planted are ``r / (r + (1 − r) / n)`` at planted share ``r``, so the strength
``1 − 1/n`` ranks the questions as well as any rule read on the data can, and the best precision any flag reaches
(the planting's *ceiling*) is about ``r / (r + (1 − r) · E[1/n])``: about 0.6 at 25 %, 0.8 at 50 % (0.64 and
0.84 at a recall of 0.8). The threshold is therefore fitted on the rates whose ceiling allows a precision and
recall of 0.8 (50 %); at 25 % the flag's precision is the ceiling's (about 0.6, at a recall above 0.9).

Examples:
    >>> from mrclens.squad import Answer, Article, Dataset, Paragraph, Question
    >>> ctx = "The tower is tall. Built in 1889, the Eiffel Tower in Paris was designed by engineer Gustave Eiffel."
    >>> q = Question("q1", "Which engineer designed the Eiffel Tower?", [Answer("Gustave Eiffel", ctx.index("Gustave"))])
    >>> row = shortcut_evidence(Dataset([Article("Eiffel", [Paragraph(ctx, [q])])]), cache_dir=False)[0]
    >>> row.similarity.most_similar, row.similarity.shared_ngram, row.position.sentence_index
    (True, 3, 1)
    >>> row.keyword.next_to_answer, row.keyword.strength, row.flagged_categories()
    (['engineer'], 0.25, [])
    >>> row.similarity.ordered_run, row.similarity.question_words, row.similarity.strength
    (3, 5, 0.6)
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from mrclens.artifacts.shortcut_questions import (KeywordEvidence, PositionEvidence, QuestionEvidence,
                                                  ShortcutQuestion, SimilarityEvidence)
from mrclens.errors import InternalError
from mrclens.metrics.intervals import wilson_interval
from mrclens.metrics.official import exact_match_score, normalize_answer
from mrclens.parsing import parse_texts
from mrclens.squad import Dataset, Paragraph, Question
from mrclens.stats.heuristics import PassageIndex
from mrclens.stats.heuristics.answer_type import expected_answer_type
from mrclens.stats.heuristics.type_matched import TYPE_ORDER
from mrclens.stats.overlap import PassageNgrams, longest_shared_ngram
from mrclens.stats.similarity import unit_cosines
from mrclens.stats.text import is_content_word, word_tokens
from mrclens.units import answer_unit_indices, sentence_units
from mrclens.vocabulary import WH_WORDS


@dataclass(frozen=True)
class EvidenceRule:
    """How one category's evidence is flagged.

    Attributes:
        category: the bias category (a name of :data:`mrclens.categories.CATEGORIES`).
        threshold: a question is flagged when its strength (0–1) is at or above it.
        meaning: what a strength at the threshold says, in words (the docs' table).
    """

    category: str
    threshold: float
    meaning: str


#: The categories' flags, in report order. Thresholds fitted by ``benchmarks/evidence_recovery.py --fit`` on the
#: graded plantings (25 % and 50 %) of 20 SQuAD v1.1 train articles: the threshold whose smaller figure, precision
#: or recall, at the worse rate is best, over the rates whose ceiling (the best precision any flag reaches at a
#: recall of 0.8, given what the data shows) is at least 0.8 (Similarity, Question, Keyword: both rates;
#: Position: 50 %, its ceiling at 25 % is about 0.64); written to four decimals, rounded down, so that the fitted
#: strength itself is flagged. Their precision and recall were measured on plantings of other articles
#: (BENCHMARKS.md, "Which questions carry a shortcut").
RULES: tuple[EvidenceRule, ...] = (
    EvidenceRule("Similarity", 0.8571, "the answer sentence is the most similar to the question and repeats 86 % of "
                                       "its words (wh-words aside) in one run, in the question's order"),
    EvidenceRule("Question", 1.0, "a rule that reads no more of the question than its wh-word leaves the answer as "
                                  "its single candidate"),
    EvidenceRule("Keyword", 0.4444, "44 % of the question's content words touch the answer span"),
    EvidenceRule("Position", 0.6666, "the answer is in the first of at least three sentence units"),
)

#: The pairs of marks that can single an answer span out (opening, closing).
MARKS = ('""', "“”", "«»", "()", "[]", "‘’")


def default_thresholds() -> dict[str, float]:
    """Each category's threshold (:data:`RULES`), by category name."""
    return {rule.category: rule.threshold for rule in RULES}


@dataclass(frozen=True)
class FlagCount:
    """How many answerable questions one category flags.

    Attributes:
        category: the bias category.
        flagged: questions flagged.
        answerable: answerable questions (the evidence reads the answer).
        pct: ``flagged / answerable`` in percent (0 without answerable questions).
        interval: its Wilson interval (percent, the results' confidence level; questions taken as independent,
            :func:`mrclens.metrics.intervals.wilson_interval`); ``None`` without answerable questions.
    """

    category: str
    flagged: int
    answerable: int
    pct: float
    interval: tuple[float, float] | None


def flag_counts(rows: Sequence[ShortcutQuestion]) -> list[FlagCount]:
    """Per category (report order), how many of ``rows``' answerable questions it flags.

    >>> from mrclens.artifacts.shortcut_questions import ShortcutQuestion
    >>> flag_counts([ShortcutQuestion("q", "T", False)])[0]
    FlagCount(category='Similarity', flagged=0, answerable=0, pct=0.0, interval=None)
    """
    answerable = [row for row in rows if row.answerable and row.evidence()]
    out = []
    for rule in RULES:
        n = len(answerable)
        k = sum(1 for row in answerable if row.of(rule.category).flagged)
        pct = 100.0 * k / n if n else 0.0
        out.append(FlagCount(rule.category, k, n, pct, wilson_interval(pct, n) if n else None))
    return out


def format_flag_counts(rows: Sequence[ShortcutQuestion]) -> str:
    """One line: each category's flagged questions, share and interval (``mrclens stats --evidence``'s message)."""
    parts = []
    for c in flag_counts(rows):
        where = f" ({c.pct:.1f} %, {c.interval[0]:.1f}-{c.interval[1]:.1f} %)" if c.interval else ""
        parts.append(f"{c.category} {c.flagged:,}{where}")
    n = flag_counts(rows)[0].answerable if rows else 0
    return f"questions flagged among {n:,} answerable: " + ", ".join(parts)


def shortcut_evidence(dataset: Dataset, *, cache_dir: str | Path | bool | None = None, progress: bool = False,
                      thresholds: Mapping[str, float] | None = None) -> list[ShortcutQuestion]:
    """The shortcut evidence of every question of ``dataset``, in file order (the module docstring's rules).

    The text read is the dataset's visible text (:meth:`mrclens.squad.QADataset.visible`, as ``mrclens stats``
    reads it); contexts are split into sentence units with spaCy's ``senter`` (parses disk-cached,
    :func:`mrclens.parsing.parse_texts`, shared with ``mrclens stats``).

    Args:
        cache_dir: the parse cache (default: :func:`mrclens.parsing.default_cache_dir`; ``False``: none).
        progress: show progress while parsing.
        thresholds: category name → threshold, replacing :data:`RULES`' (e.g. to fit them).

    Returns:
        one :class:`~mrclens.artifacts.shortcut_questions.ShortcutQuestion` per question (unanswerable ones
        without evidence).

    Raises:
        PipelineNotInstalled: no English spaCy pipeline is installed.
    """
    limits = {**default_thresholds(), **(thresholds or {})}
    dataset = dataset.visible()
    pairs = list(dataset.iter_paragraphs())
    parsed = parse_texts([p.context for _, p in pairs], sentences=True, cache_dir=cache_dir,
                         progress="parsing contexts" if progress else False)
    units = [sentence_units(p.context, parse, [(a.answer_start, a.answer_end) for q in p.questions for a in q.answers])
             for (_, p), parse in zip(pairs, parsed)]
    answerable = [(pi, q) for pi, (_, p) in enumerate(pairs) for q in p.questions if q.answers]
    cosines = unit_cosines([q.question for _, q in answerable], [pi for pi, _ in answerable],
                           [[p.context[s:e] for s, e in us] for (_, p), us in zip(pairs, units)])
    by_question = {id(q): cos for (_, q), cos in zip(answerable, cosines)}
    rows: list[ShortcutQuestion] = []
    for (article, p), us in zip(pairs, units):
        index = PassageIndex(p.context, us) if us and any(q.answers for q in p.questions) else None
        for q in p.questions:
            found = answer_unit_indices(us, [(q.answers[0].answer_start, q.answers[0].answer_end)]) if q.answers else ()
            if index is None or not found:  # unanswerable, or an empty answer no unit holds
                rows.append(ShortcutQuestion(q.id, article.title, bool(q.answers)))
                continue
            rows.append(question_evidence(article.title, p, q, index, min(found), by_question[id(q)], limits))
    return rows


def question_evidence(title: str, p: Paragraph, q: Question, index: PassageIndex, unit: int,
                      cosines: Sequence[float], limits: Mapping[str, float]) -> ShortcutQuestion:
    """One answerable question's evidence.

    Args:
        title: its article's title.
        p: its paragraph; ``q``: the question (its first gold answer is read).
        index: the paragraph's :class:`~mrclens.stats.heuristics.PassageIndex` (its sentence units, word tokens
            and candidates).
        unit: the index of the answer's sentence unit.
        cosines: the TF-IDF cosine of each unit with the question (:func:`mrclens.stats.similarity.unit_cosines`).
        limits: category name → threshold.
    """
    q_words = word_tokens(q.question)
    sim = similarity_evidence(q_words, index, unit, cosines, limits["Similarity"])
    best = min(range(len(cosines)), key=lambda u: (-cosines[u], u))
    return ShortcutQuestion(
        q.id, title, True, sim,
        type_evidence(p, q, q_words, index, best, limits["Question"]),
        keyword_evidence(q, q_words, index, unit, limits["Keyword"]),
        position_evidence(unit, len(index.units), limits["Position"]))


def similarity_evidence(q_words: list[str], index: PassageIndex, unit: int, cosines: Sequence[float],
                        threshold: float) -> SimilarityEvidence:
    """Similarity: the answer unit's cosine, its margin over the runner-up and how much of the question it repeats
    (``q_words``: the question's word tokens; :class:`~mrclens.artifacts.shortcut_questions.SimilarityEvidence`)."""
    mine = cosines[unit]
    others = [c for u, c in enumerate(cosines) if u != unit]
    most = all(mine > c for c in cosines[:unit]) and all(mine >= c for c in cosines[unit + 1:])  # ties: earliest
    lo, hi = index.word_ranges[unit]
    sentence = index.words[lo:hi]
    asked = [w for w in q_words if w not in WH_WORDS]
    run = longest_ordered_run(asked, sentence)
    strength = run / len(asked) if most and asked else 0.0
    return SimilarityEvidence(strength >= threshold, round(strength, 6), most,
                              round(mine - max(others), 6) if others else None, round(mine, 6),
                              longest_shared_ngram(q_words, PassageNgrams(sentence)), run, len(asked))


def longest_ordered_run(question_words: Sequence[str], sentence_words: Sequence[str]) -> int:
    """The longest run of consecutive ``sentence_words`` that repeats words of the question in the question's
    order (question words may be skipped; no other word may come between), in word tokens.

    Unlike the longest shared n-gram (:func:`mrclens.stats.overlap.longest_shared_ngram`), a question word
    the sentence leaves out (a wh-word, an auxiliary) does not break the run.

    >>> longest_ordered_run("the war ended in what year".split(), "in 1945 the war ended in year".split())
    5
    >>> longest_ordered_run("when did the war end".split(), "the end of the war".split())
    2
    """
    return ordered_run_at(question_words, sentence_words)[1]


def ordered_run_at(question_words: Sequence[str], sentence_words: Sequence[str]) -> tuple[int, int]:
    """``(start, length)``: where in ``sentence_words`` the run of :func:`longest_ordered_run` starts (the
    earliest of the longest; 0 when there is none) and its length, in word tokens.

    >>> ordered_run_at("the war ended in what year".split(), "in 1945 the war ended in year".split())
    (2, 5)
    """
    positions = _positions(question_words)
    best, best_start = 0, 0
    for start in range(len(sentence_words)):
        length = len(_run_from(positions, sentence_words, start))
        if length > best:
            best, best_start = length, start
        if best >= len(sentence_words) - start:
            break
    return best_start, best


def ordered_run_pairs(question_words: Sequence[str], sentence_words: Sequence[str]) -> list[tuple[int, int]]:
    """The run of :func:`ordered_run_at` as ``(sentence position, question position)`` pairs, one per word of the
    run (the question position: the earliest one after the previous word's, as the run is matched).

    >>> ordered_run_pairs("when did the war end".split(), "the end of the war".split())
    [(0, 2), (1, 4)]
    """
    start, length = ordered_run_at(question_words, sentence_words)
    return list(zip(range(start, start + length), _run_from(_positions(question_words), sentence_words, start)))


def _positions(question_words: Sequence[str]) -> dict[str, list[int]]:
    positions: dict[str, list[int]] = {}
    for i, w in enumerate(question_words):
        positions.setdefault(w, []).append(i)
    return positions


def _run_from(positions: Mapping[str, list[int]], sentence_words: Sequence[str], start: int) -> list[int]:
    """The question positions the run of ``sentence_words`` from ``start`` matches, greedily (the earliest question
    position after the previous one)."""
    k, matched = -1, []  # the question position matched last
    for w in sentence_words[start:]:
        found = positions.get(w)
        nxt = bisect.bisect_right(found, k) if found else 0
        if not found or nxt == len(found):
            break
        k = found[nxt]
        matched.append(k)
    return matched


def type_evidence(p: Paragraph, q: Question, q_words: list[str], index: PassageIndex, best: int,
                  threshold: float) -> QuestionEvidence:
    """Question: the type-matched heuristic in the most similar unit ``best`` and the marks around the answer
    (:class:`~mrclens.artifacts.shortcut_questions.QuestionEvidence`)."""
    asked = expected_answer_type(q.question)
    q_set = set(q_words)
    prediction = index.type_matched(best, q.question, q_set)
    exact = any(exact_match_score(prediction, a.text) for a in q.answers)
    group = answered_group(index, best, asked, q_set)
    context = p.context
    candidates = 0 if group is None else len({
        normalize_answer(context[c.start:c.end]) for c in index.candidates
        if c.type in group and not set(word_tokens(context[c.start:c.end])) <= q_set})
    a = q.answers[0]
    marks = marks_around(context, a.answer_start, a.answer_end)
    spans = marked_spans(context, marks) if marks else 0
    strength = max(1.0 / candidates if exact and candidates else 0.0, 1.0 / spans if spans else 0.0)
    return QuestionEvidence(strength >= threshold, round(strength, 6), asked, prediction, exact, candidates, marks, spans)


def answered_group(index: PassageIndex, unit: int, asked: str, q_set: set[str]) -> tuple[str, ...] | None:
    """The candidate types the type-matched heuristic answers from in ``unit`` for a question asking for
    ``asked``: the first group of :data:`~mrclens.stats.heuristics.type_matched.TYPE_ORDER` with a candidate
    there whose words are not all the question's; ``None`` when it falls back to the unit's first words."""
    lo, hi = index.unit_slices[unit]
    context = index.context
    usable = [c for c in index.candidates[lo:hi] if not set(word_tokens(context[c.start:c.end])) <= q_set]
    for group in TYPE_ORDER[asked]:
        if any(c.type in group for c in usable):
            return group
    return None


def marks_around(context: str, start: int, end: int) -> str | None:
    """The pair of :data:`MARKS` right around ``context[start:end]`` (spaces between allowed), or ``None``.

    >>> marks_around("It is « Paris » now", 8, 13), marks_around("It is Paris now", 6, 11)
    ('«»', None)
    """
    before = context[:start].rstrip()
    after = context[end:].lstrip()
    pair = (before[-1:] + after[:1]) if before and after else ""
    return pair if pair in MARKS else None


def marked_spans(context: str, marks: str) -> int:
    """How many spans of ``context`` lie between the pair ``marks`` (an opening mark and the next closing one).

    >>> marked_spans('a "b" c "d" e', '""'), marked_spans("x (y) (z (w)) v", "()")
    (2, 3)
    """
    opening, closing = marks
    if opening == closing:
        return context.count(opening) // 2
    return min(context.count(opening), context.count(closing))


def keyword_evidence(q: Question, q_words: list[str], index: PassageIndex, unit: int,
                     threshold: float) -> KeywordEvidence:
    """Keyword: where the question's content words occur around the answer
    (:class:`~mrclens.artifacts.shortcut_questions.KeywordEvidence`)."""
    content = list(dict.fromkeys(w for w in q_words if is_content_word(w)))
    mine = index.unit_word_set(unit)
    elsewhere: set[str] = set()
    for u in range(len(index.units)):
        if u != unit:
            elsewhere |= index.unit_word_set(u)
    a = q.answers[0]
    run = keyword_run(q_words, index, unit, a.answer_start, a.answer_start + len(a.text))
    near = list(dict.fromkeys(index.words[k] for k in run))
    strength = len(near) / len(content) if content else 0.0
    return KeywordEvidence(strength >= threshold, round(strength, 6), len(content),
                           sum(1 for w in content if w in mine), [w for w in content if w in mine and w not in elsewhere],
                           near)


def keyword_run(q_words: Sequence[str], index: PassageIndex, unit: int, start: int, end: int) -> list[int]:
    """The word tokens of the context (indices into ``index.words``) in the runs of the question's content words
    right before and right after the answer span ``[start, end)`` (characters) inside sentence unit ``unit``: every
    word token of a run is one of them (any other word ends it), in context order
    (:class:`~mrclens.artifacts.shortcut_questions.KeywordEvidence`'s ``next_to_answer``)."""
    lo, hi = index.word_ranges[unit]
    words, starts, ends = index.words, index.starts, index.ends
    q_set = {w for w in q_words if is_content_word(w)}
    run: list[int] = []
    i = bisect.bisect_right(ends, start) - 1  # the last word token that ends before the answer
    while i >= lo and words[i] in q_set:
        run.insert(0, i)
        i -= 1
    j = bisect.bisect_left(starts, end)  # the first that starts after it
    while j < hi and words[j] in q_set:
        run.append(j)
        j += 1
    return run


def position_evidence(unit: int, n_units: int, threshold: float) -> PositionEvidence:
    """Position: the answer's sentence index among ``n_units`` (:class:`~mrclens.artifacts.shortcut_questions.PositionEvidence`).

    >>> position_evidence(0, 5, 0.75).strength, position_evidence(0, 3, 0.75).flagged, position_evidence(2, 5, 0.75).strength
    (0.8, False, 0.0)
    """
    if not 0 <= unit < n_units:
        raise InternalError(f"answer unit {unit} is not one of {n_units} units")
    strength = 1.0 - 1.0 / n_units if unit == 0 else 0.0
    return PositionEvidence(strength >= threshold, round(strength, 6), unit, n_units, unit == 0)
