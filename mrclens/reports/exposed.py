"""The report's most exposed questions (issue 56, item 2): per bias category, the questions whose shortcut evidence
is strongest, with that evidence marked in their context, and how many questions each category flags.

Sources: the audit folder's ``shortcut-questions.jsonl`` (:mod:`mrclens.artifacts.shortcut_questions`: per question
and category, ``flagged`` and ``strength``, which ``mrclens audit`` computes over its training and evaluation parts,
:func:`mrclens.stats.evidence.shortcut_evidence`) and the evaluation set the audit perturbed
(``perturbed/original.json``: the texts). Nothing is scored; the reader's answers are those of the prediction files.

**The choice.** Every category with per-question evidence (:data:`mrclens.stats.evidence.RULES`) gets a block:
those the audit read "more" against the reference first, then "slightly more", then the others in report order.
In each, up to :data:`EXPOSED_PER_CATEGORY` questions of the evaluation part: flagged ones first, then by strength
(highest first), then in file order; a question of a paragraph already shown comes after those of other paragraphs;
a strength of 0 is never shown. The block also counts the flagged questions of the whole file with a Wilson interval
(:func:`mrclens.stats.evidence.flag_counts`).

**The marks.** The file holds no offsets, so each question shown has its evidence computed again on the folder's
text by the functions that wrote it (:func:`mrclens.stats.evidence.question_evidence`: the same sentence units, word
tokens, shipped TF-IDF weights and heuristic); it is shown only where that agrees with the file's line (a question
whose text changed since is passed over, and a note says how many were). Then, in characters of the visible text
(:meth:`mrclens.squad.QADataset.visible`), each evidence span with a *role*:

* Similarity — the answer sentence (``sentence``) and the words of its longest run that repeats the question's words
  in order (``word``; :func:`mrclens.stats.evidence.ordered_run_pairs`), and those words in the question;
* Keyword — the question's content words right next to the answer span (``word``;
  :func:`mrclens.stats.evidence.keyword_run`), and the same words in the question;
* Question — the type-matched heuristic's answer where it matches a gold answer (``candidate``;
  :meth:`mrclens.stats.heuristics.PassageIndex.type_matched_span`), the marks right around the answer span
  (``mark``), and the question's wh-words (``word``: all of the question that rule reads);
* Position — the first sentence unit (``sentence``), which holds the answer.

Every gold answer span is marked as the answer besides. The excerpt is the answer's sentence unit with one unit on
each side, widened to every unit that holds a mark.

Examples:
    >>> [(p.text, p.css_class) for p in pieces("He won in 1901 .", [Span(0, 14, "sentence"), Span(3, 6, "word")],
    ...                                          [(10, 14)], "Similarity", 0, 16)]  # doctest: +NORMALIZE_WHITESPACE
    [('He ', 'ev ev-similarity ev-sentence'), ('won', 'ev ev-similarity ev-sentence ev-word'),
     (' in ', 'ev ev-similarity ev-sentence'), ('1901', 'ev ev-similarity ev-sentence ans'), (' .', '')]
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from mrclens.artifacts.layout import SHORTCUT_QUESTIONS
from mrclens.artifacts.results import Results
from mrclens.artifacts.shortcut_questions import Evidence, ShortcutQuestion, read_shortcut_questions
from mrclens.categories import colour_of
from mrclens.errors import ArtifactError, MRCLensError
from mrclens.metrics.bootstrap import CONFIDENCE, confidence_label
from mrclens.reports.examples import Outcome
from mrclens.squad import Paragraph, Question
from mrclens.verdicts import MORE, READING_NAMES, SLIGHTLY_MORE, reading
from mrclens.vocabulary import WH_WORDS

#: Questions shown per category at most.
EXPOSED_PER_CATEGORY = 4
#: Questions tried per category at most (a question whose text no longer gives the file's evidence is passed over).
TRIED_PER_CATEGORY = 4 * EXPOSED_PER_CATEGORY
#: Difference up to which a strength, cosine or margin recomputed agrees with the file's (written to 6 decimals).
AGREEMENT = 2e-6


@dataclass(frozen=True)
class Span:
    """A stretch of text that carries evidence: ``[start, end)`` characters and its role (``"sentence"``,
    ``"word"``, ``"candidate"`` or ``"mark"``; the module docstring)."""

    start: int
    end: int
    role: str


@dataclass(frozen=True)
class EvidenceSpans:
    """Where one category's evidence lies in one question and its context.

    Attributes:
        category: the bias category.
        context: the spans in the context (characters of its visible text).
        question: the spans in the question.
        units: the context's sentence units, ``(start, end)`` characters (:func:`mrclens.units.sentence_units`).
        answer_unit: the index of the first gold answer's unit.
    """

    category: str
    context: tuple[Span, ...]
    question: tuple[Span, ...]
    units: tuple[tuple[int, int], ...]
    answer_unit: int


@dataclass(frozen=True)
class Piece:
    """A run of characters shown alike: its evidence roles (empty: none) and whether it is in a gold answer span."""

    text: str
    roles: frozenset[str] = frozenset()
    answer: bool = False
    category: str = ""

    @property
    def css_class(self) -> str:
        """The classes of its ``<mark>`` (``ev ev-<category> ev-<role>…``, ``ans`` inside an answer span), or
        ``"ans"`` for answer text without evidence, ``""`` for plain text."""
        names = [f"ev ev-{slug(self.category)}", *(f"ev-{r}" for r in sorted(self.roles))] if self.roles else []
        return " ".join(names + (["ans"] if self.answer else []))


@dataclass
class ExposedQuestion:
    """One question shown: its texts cut into :class:`Piece` runs, its evidence and the reader's answers.

    Attributes:
        qid, title: the question id and its article's title.
        evidence: the category's record from ``shortcut-questions.jsonl``.
        question: the question's pieces; ``excerpt``: the context excerpt's (``cut_before`` / ``cut_after``: the
            context goes on before / after it).
        said: the evidence in words.
        golds: the gold answer texts.
        original: the reader's answer on the original set (``None``: no prediction file or scores).
        ablations: ``(ablation id, outcome)`` of the reader on each evaluated ablation of the category whose set
            holds the question.
    """

    qid: str
    title: str
    evidence: Evidence
    question: list[Piece]
    excerpt: list[Piece]
    cut_before: bool
    cut_after: bool
    said: str
    golds: list[str]
    original: Outcome | None = None
    ablations: list[tuple[str, Outcome]] = field(default_factory=list)


@dataclass
class ExposedCategory:
    """One category's block: its reading, its count of flagged questions and its most exposed questions."""

    category: str
    colour: str
    verdict: str | None
    badge: str | None
    count_text: str
    questions: list[ExposedQuestion]
    note: str | None = None

    @property
    def anchor(self) -> str:
        """The block's element id."""
        return f"exposed-{slug(self.category)}"


@dataclass
class ExposedSection:
    """The section: ``line`` (one line shown instead of it: no evidence file, or an unreadable one) or its
    ``categories``; ``notes`` say what could not be shown."""

    line: str | None = None
    categories: list[ExposedCategory] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    evaluation_questions: int = 0


def slug(category: str) -> str:
    """A category's name as a class or id part (``"Similarity"`` → ``"similarity"``)."""
    return re.sub(r"[^a-z0-9]+", "-", category.lower()).strip("-")


def pieces(text: str, spans: Sequence[Span], answers: Sequence[tuple[int, int]], category: str, lo: int,
           hi: int) -> list[Piece]:
    """``text[lo:hi]`` cut into :class:`Piece` runs: each character with the roles of the ``spans`` over it and
    whether an answer span (``answers``, ``(start, end)`` characters) holds it."""
    roles: list[frozenset[str]] = [frozenset()] * (hi - lo)
    for s in spans:
        for i in range(max(s.start, lo), min(s.end, hi)):
            roles[i - lo] = roles[i - lo] | {s.role}
    answer = [False] * (hi - lo)
    for a, b in answers:
        for i in range(max(a, lo), min(b, hi)):
            answer[i - lo] = True
    out: list[Piece] = []
    start = 0
    for i in range(1, hi - lo + 1):
        if i == hi - lo or roles[i] != roles[start] or answer[i] != answer[start]:
            out.append(Piece(text[lo + start:lo + i], roles[start], answer[start], category))
            start = i
    return out


@dataclass(frozen=True)
class Located:
    """One answerable question's evidence computed again on its paragraph, with what its marks need: the row
    (:func:`mrclens.stats.evidence.question_evidence`), the paragraph's passage index, the answer's unit and the
    TF-IDF-most-similar unit."""

    row: ShortcutQuestion
    index: Any
    unit: int
    best: int


def locate(title: str, p: Paragraph, q: Question, parsed: Any) -> Located | None:
    """The evidence of question ``q`` of paragraph ``p`` (visible text), as :func:`mrclens.stats.evidence.shortcut_evidence`
    computes it, from the context's parse with sentences (``parsed``); ``None`` for a question without an answer a
    sentence unit holds."""
    from mrclens.stats.evidence import default_thresholds, question_evidence
    from mrclens.stats.heuristics import PassageIndex
    from mrclens.stats.similarity import unit_cosines
    from mrclens.units import answer_unit_indices, sentence_units

    if not q.answers:
        return None
    units = sentence_units(p.context, parsed, [(a.answer_start, a.answer_end) for x in p.questions for a in x.answers])
    found = answer_unit_indices(units, [(q.answers[0].answer_start, q.answers[0].answer_end)])
    if not units or not found:
        return None
    index = PassageIndex(p.context, units)
    cosines = unit_cosines([q.question], [0], [[p.context[s:e] for s, e in units]])[0]
    unit = min(found)
    row = question_evidence(title, p, q, index, unit, cosines, default_thresholds())
    return Located(row, index, unit, min(range(len(cosines)), key=lambda u: (-cosines[u], u)))


def agrees(written: Evidence | None, computed: Evidence | None) -> bool:
    """The file's record and the one computed again say the same (``flagged`` aside: the file's thresholds may be
    others; numbers within :data:`AGREEMENT`)."""
    if written is None or computed is None or type(written) is not type(computed):
        return False
    for f in dataclasses.fields(written):
        a, b = getattr(written, f.name), getattr(computed, f.name)
        if f.name == "flagged":
            continue
        if isinstance(a, float) and isinstance(b, float):
            if not math.isclose(a, b, rel_tol=0.0, abs_tol=AGREEMENT):
                return False
        elif a != b:
            return False
    return True


def evidence_spans(category: str, p: Paragraph, q: Question, located: Located) -> EvidenceSpans:
    """Where ``category``'s evidence lies in question ``q`` and its context (the module docstring's roles).

    Raises:
        KeyError: ``category`` has no per-question evidence.
    """
    from mrclens.stats.evidence import keyword_run, ordered_run_pairs
    from mrclens.stats.text import is_content_word, word_token_spans, word_tokens

    index, unit = located.index, located.unit
    q_words, q_starts, q_ends = word_token_spans(q.question)
    context: list[Span] = []
    question: list[Span] = []
    a = q.answers[0]
    if category == "Similarity":
        lo, hi = index.word_ranges[unit]
        asked = [i for i, w in enumerate(q_words) if w not in WH_WORDS]
        pairs = ordered_run_pairs([q_words[i] for i in asked], index.words[lo:hi])
        context.append(Span(*index.units[unit], "sentence"))
        context += token_runs([lo + s for s, _ in pairs], index.starts, index.ends, "word", p.context)
        question += token_runs([asked[k] for _, k in pairs], q_starts, q_ends, "word", q.question)
    elif category == "Keyword":
        run = keyword_run(q_words, index, unit, a.answer_start, a.answer_end)
        context += token_runs(run, index.starts, index.ends, "word", p.context)
        near = {index.words[i] for i in run}
        question += token_runs([i for i, w in enumerate(q_words) if w in near and is_content_word(w)], q_starts, q_ends,
                               "word", q.question)
    elif category == "Question":
        e = located.row.question
        if e is not None and e.typed_exact:
            context.append(Span(*index.type_matched_span(located.best, q.question, set(word_tokens(q.question))),
                                    "candidate"))
        if e is not None and e.marks:
            before = len(p.context[:a.answer_start].rstrip()) - 1
            after = a.answer_end + len(p.context[a.answer_end:]) - len(p.context[a.answer_end:].lstrip())
            context += [Span(before, before + 1, "mark"), Span(after, after + 1, "mark")]
        question += [Span(s, e_, "word") for w, s, e_ in zip(q_words, q_starts, q_ends) if w in WH_WORDS]
    elif category == "Position":
        context.append(Span(*index.units[0], "sentence"))
    else:
        raise KeyError(f"no per-question evidence for the category {category!r}")
    return EvidenceSpans(category, tuple(context), tuple(question), tuple(index.units), unit)


def token_runs(tokens: Sequence[int], starts: Sequence[int], ends: Sequence[int], role: str, text: str) -> list[Span]:
    """Spans over word tokens of ``text`` (indices into ``starts`` / ``ends``, characters), one per run of consecutive
    indices with only whitespace between them: from the first token's start to the last one's end.

    >>> token_runs([0, 1, 2, 4], [0, 4, 9, 13, 17], [3, 7, 12, 16, 20], "word", "one two (six ten two")
    [Span(start=0, end=7, role='word'), Span(start=9, end=12, role='word'), Span(start=17, end=20, role='word')]
    """
    out: list[Span] = []
    chosen = set(tokens)
    for i in sorted(chosen):
        if out and i - 1 in chosen and out[-1].end == ends[i - 1] and not text[ends[i - 1]:starts[i]].strip():
            out[-1] = Span(out[-1].start, ends[i], role)
        else:
            out.append(Span(starts[i], ends[i], role))
    return out


def excerpt_bounds(spans: EvidenceSpans, length: int) -> tuple[int, int]:
    """``(start, end)`` characters of the excerpt: the answer's unit with one unit on each side, widened to every
    unit a context span touches (``length``: the context's)."""
    units = spans.units
    touched = [spans.answer_unit] + [u for u, (s, e) in enumerate(units) for x in spans.context if x.start < e and s < x.end]
    lo = max(0, min(min(touched), spans.answer_unit - 1))
    hi = min(len(units) - 1, max(max(touched), spans.answer_unit + 1))
    return (0 if lo == 0 else units[lo][0]), (length if hi == len(units) - 1 else units[hi][1])


def said(e: Evidence) -> str:
    """A category's evidence of one question in words (its fields: :mod:`mrclens.artifacts.shortcut_questions`)."""
    from mrclens.artifacts.shortcut_questions import KeywordEvidence, PositionEvidence, SimilarityEvidence

    if isinstance(e, SimilarityEvidence):
        most = ("is the most similar to the question" + (f" (by {e.margin:.2f} of TF-IDF cosine)" if e.margin is not None else "")
                if e.most_similar else "is not the most similar to the question")
        return (f"The answer sentence {most} and repeats {e.ordered_run} of its {e.question_words} words (wh-words "
                f"aside) in one run, in order.")
    if isinstance(e, KeywordEvidence):
        near = ", ".join(f"“{w}”" for w in e.next_to_answer) or "none"
        return f"{len(e.next_to_answer)} of its {e.content_words} content words touch the answer span: {near}."
    if isinstance(e, PositionEvidence):
        return f"The answer is in sentence {e.sentence_index + 1} of {e.sentences}."
    article = "an" if e.asked_type[:1] in "aeiou" else "a"
    parts = [f"It asks for {article} {e.asked_type}."]
    if e.typed_exact:
        parts.append("The type-matched rule answers it exactly: " + (
            "the only candidate of that type in the context." if e.typed_candidates == 1 else
            f"one of {e.typed_candidates} candidates of that type in the context."))
    elif e.typed_answer is not None:
        parts.append(f"The type-matched rule answers “{e.typed_answer}”, not the gold answer.")
    if e.marks:
        parts.append(f"The marks {e.marks} around the answer single it out: " + (
            "the only span between such marks in the context." if e.marked_spans == 1 else
            f"one of {e.marked_spans} spans between such marks in the context."))
    return " ".join(parts)


def exposed_question(category: str, title: str, p: Paragraph, q: Question, located: Located,
                     written: Evidence) -> ExposedQuestion:
    """One question's block (``written``: the category's record of the file; ``p``, ``q`` of the visible text)."""
    spans = evidence_spans(category, p, q, located)
    lo, hi = excerpt_bounds(spans, len(p.context))
    answers = [(a.answer_start, a.answer_end) for a in q.answers]
    return ExposedQuestion(
        q.id, title, written,
        pieces(q.question, spans.question, [], category, 0, len(q.question)),
        pieces(p.context, spans.context, answers, category, lo, hi),
        lo > 0, bool(p.context[hi:].strip()), said(written), list(dict.fromkeys(a.text for a in q.answers)))


def ranked(rows: Sequence[ShortcutQuestion], category: str, where: dict[str, tuple[Any, Any, Any]]) -> list[ShortcutQuestion]:
    """The rows of ``category`` to try, in the module docstring's order (``where``: id → (title, paragraph,
    question) of the questions whose text the folder holds)."""
    chosen = [r for r in rows if r.id in where and (e := r.of(category)) is not None and e.strength > 0]
    chosen.sort(key=lambda r: (not r.of(category).flagged, -r.of(category).strength))  # stable: file order
    seen: set[int] = set()
    first, later = [], []
    for r in chosen:
        paragraph = id(where[r.id][1])
        (later if paragraph in seen else first).append(r)
        seen.add(paragraph)
    return (first + later)[:TRIED_PER_CATEGORY]


def _order(results: Results) -> tuple[list[str], dict[str, Any]]:
    """The categories with evidence, "more" then "slightly more" first, and each one's result."""
    from mrclens.stats.evidence import RULES

    by_name = {c.category: c for c in results.categories}

    def rank(name: str) -> int:
        c = by_name.get(name)
        read = reading(c.reference_bias) if c is not None and c.reference_bias in READING_NAMES else None
        return 0 if read is MORE else 1 if read is SLIGHTLY_MORE else 2

    return sorted((r.category for r in RULES), key=rank), by_name


def count_text(count: Any) -> str:
    """A category's :class:`~mrclens.stats.evidence.FlagCount` in words."""
    if count.interval is None:
        return "no answerable question carries evidence"
    lo, hi = count.interval
    return (f"{count.flagged:,} of {count.answerable:,} answerable questions flagged ({count.pct:.1f} %, Wilson "
            f"{confidence_label(CONFIDENCE)} {lo:.1f}–{hi:.1f} %)")


def exposed_section(results_dir: str | Path, results: Results, sources: Any, *, k: int = EXPOSED_PER_CATEGORY,
                    cache_dir: str | Path | None = None) -> ExposedSection:
    """The report's section of most exposed questions (module docstring): span extraction's entry of the report's
    role ``"report_exposed"`` (:data:`mrclens.reports.report.REPORT_EXPOSED`).

    Args:
        results_dir: the audit folder (its ``shortcut-questions.jsonl``).
        results: its results (the categories' readings, the ablations of each category).
        sources: the report's access to the folder's sets and predictions (``sources.task``,
            ``sources.dataset(name)``, ``sources.predictions(name)``, ``sources.scores(name)``).
        k: questions per category at most.
        cache_dir: the spaCy parse cache (default :func:`mrclens.diskcache.default_cache_dir`).

    A missing or unreadable file, a missing evaluation set or a missing spaCy pipeline is said on the page, never
    raised.
    """
    path = Path(results_dir) / SHORTCUT_QUESTIONS
    if not path.is_file():
        return ExposedSection(line=f"This folder holds no {SHORTCUT_QUESTIONS} (an audit of an earlier MRCLens, or an "
                                   f"evaluation), so the questions that carry each shortcut are not shown: "
                                   f"`mrclens stats DATA --evidence` writes the file, `mrclens report` then shows them.")
    try:
        rows = read_shortcut_questions(path)
    except ArtifactError as err:
        return ExposedSection(line=f"{err}; the questions that carry each shortcut are not shown.")
    from mrclens.stats.evidence import flag_counts

    counts = {c.category: c for c in flag_counts(rows)}
    order, by_name = _order(results)
    section = ExposedSection()
    original = sources.dataset("original")
    where: dict[str, tuple[Any, Any, Any]] = {}
    if original is None:
        section.notes.append("the evaluation set is not in this folder: no question is shown, only the counts")
    else:
        where = {q.id: (a.title, p, q) for a, p, q in original.visible().iter_questions()}
        section.evaluation_questions = len(where)
    tries = {c: ranked(rows, c, where) for c in order}
    parses = _parses([where[r.id][1].context for rs in tries.values() for r in rs], cache_dir, section)
    passed = 0
    for category in order:
        c = by_name.get(category)
        verdict = c.reference_bias if c is not None and c.reference_bias in READING_NAMES else None
        block = ExposedCategory(category, colour_of(category), verdict,
                                f"{reading(verdict).than} {c.reference or 'the reference'}" if verdict else None,
                                count_text(counts[category]), [])
        for r in tries[category] if parses is not None else []:
            if len(block.questions) >= k:
                break
            title, p, q = where[r.id]
            located = locate(title, p, q, parses[p.context])
            if located is None or not agrees(r.of(category), located.row.of(category)):
                passed += 1
                continue
            shown = exposed_question(category, title, p, q, located, r.of(category))
            shown.original, shown.ablations = _outcomes(q.id, category, results, sources)
            block.questions.append(shown)
        if not block.questions and parses is not None:
            block.note = "no question of the evaluation part shows this evidence"
        section.categories.append(block)
    if passed:
        section.notes.append(f"{passed} question(s) passed over: the folder's text no longer gives the evidence "
                             f"{SHORTCUT_QUESTIONS} holds for them")
    return section


def _parses(contexts: list[str], cache_dir: str | Path | None, section: ExposedSection) -> dict[str, Any] | None:
    """Each context's parse with sentences (cached), or ``None`` with a note when spaCy cannot parse."""
    from mrclens.parsing import parse_texts

    if not contexts:
        return {}
    try:
        parsed = parse_texts(contexts, sentences=True, cache_dir=cache_dir)
    except MRCLensError as err:
        section.notes.append(f"the evidence cannot be marked: {err}")
        return None
    return {t.text: t for t in parsed}


def _outcomes(qid: str, category: str, results: Results,
              sources: Any) -> tuple[Outcome | None, list[tuple[str, Outcome]]]:
    """The reader's answer to ``qid`` on the original set, and on each evaluated ablation of ``category`` whose set
    holds it (official EM/F1 as scoring computed them; a set without predictions or scores is left out)."""
    found: list[tuple[str, Outcome]] = []
    names = ["original"] + [a.id for a in results.ablations
                            if a.category == category and a.evaluated and a.control_of is None]
    for name in names:
        preds = sources.predictions(name)
        scores = sources.scores(name) if preds is not None else None
        if scores is not None and qid in scores:
            em, f1 = scores[qid]
            found.append((name, Outcome(preds.get(qid), em, f1)))
    original = next((o for name, o in found if name == "original"), None)
    return original, [(name, o) for name, o in found if name != "original"]
