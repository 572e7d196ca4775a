"""Datasets with a known shortcut planted on purpose, and their clean counterparts (issue 17, part 6).

``mrclens selftest`` audits each planted dataset and its clean counterpart and checks that the
readings flag the planted shortcut in the bias category it belongs to, and nothing on the clean
counterpart. A planted dataset and its counterpart are built by the same code from the same data,
with the same random draws: they differ only in the one property that makes the shortcut.

Common rules (every planting):

* **One question per paragraph copy, one gold answer.** Every answerable question is kept, with its
  first gold answer only, in its own copy of its paragraph (so that an edit made for one question
  cannot cut or move another question's answer); unanswerable questions are dropped. Both sides keep
  exactly the same questions. Keeping every question (not one per paragraph) gives the audits as
  many training questions as the unplanted data: a reader trained on a fifth of them is too weak for
  its drops to be read against the quick-profile reference, which was trained on all of them.
* **Sentence units** are those of :func:`mrclens.units.sentence_units` (spaCy ``senter``, merged over
  the kept answer); the *answer unit* holds the answer.
* **Exact offsets.** Every edit goes through :func:`mrclens.perturbations.base.insert_text` or a
  reordering that recomputes ``answer_start``; :func:`mrclens.perturbations.base.check_answers` runs on
  every built paragraph (``context[answer_start:answer_start + len(text)] == text``).
* **Randomness** comes from :func:`mrclens.perturbations.base.make_rng` seeded with (seed,
  ``"selftest-" + planting``, question id): the same seed gives byte-identical datasets. The planted
  and the clean side draw from the same generator state, so they make the same choices wherever
  the planting does not decide.
* **Unrelated text** for the clean side comes from
  :class:`mrclens.perturbations.controls.InsertionPool` (words of other articles that share no
  content word with the question), as for the audit's matched controls.

The plantings (:data:`PLANTINGS`; what MRCLens should and should not report is in each entry):

``overlap`` (Similarity): the answer sentence starts with the question's words (the question without
its interrogative words and punctuation), so "the sentence that repeats the question holds the
answer" is always right. Clean: as many words of an unrelated sentence, at the start of a random
sentence unit.

``marked`` (Question): the answer span is put between « and », so the answer can be found without
reading the question at all (beyond knowing that one is asked). Clean: a random span of as many
whitespace-separated words in a non-answer sentence gets the marks.

``keywords`` (Keyword): the question's nouns and proper nouns are inserted right before the answer,
so "the span after the question's nouns" is always right. Clean: as many nouns of other articles'
questions (none in this question), at a random word boundary of a random non-answer sentence.

``position`` (Position): the answer sentence is moved to the front of the context (Ko et al. 2020,
"Look at the First Sentence", EMNLP: readers trained where answers sit in the first sentence
learn the position). Clean: a random sentence unit (of any kind) is moved to the front.

Structural counterparts (issue 32; :data:`SHAPES`, built by :func:`plant_shape` by the same rules): clean
data that differs from the bundled sample only in shape — ``short`` (contexts cut to three sentence
units around the answer, the window drawn at random), ``long`` (each context joined with another
paragraph of its article, before or after it at random) and ``grouped`` (SQuAD's layout, the
questions of a context in one paragraph). Nothing is planted, so an audit must read every category
**in line** with the reference: a verdict that moves with the number of sentences, the context
length or the questions per paragraph is a verdict about shape, not bias.

Multiple-choice plantings (issue 20; :data:`MC_PLANTINGS`, built by :func:`plant_mc` from CODAH-style
data, :mod:`mrclens.formats.multiple_choice`). Their own rules:

* **Same questions, same gold.** Both sides keep every question of the (sub)set with its id, prompt,
  label and categories; only endings change, and the gold ending keeps its text (a planting adds an
  artefact to it, it never makes another ending correct).
* **Subset.** ``n_questions`` (the runner: :data:`mrclens.selftest.runner.MC_QUESTIONS`) keeps the
  first questions in an order fixed by the seed (sha256 of seed and question id), so the subset does
  not follow the file's order.
* **Randomness** as above: :func:`~mrclens.perturbations.base.make_rng` seeded with (seed,
  ``"selftest-" + planting``, question id); the planted side makes the clean side's draw and
  ignores it.

``mc-length`` (Question): the fixed tail :data:`MC_TAIL` (six words that say nothing about any
prompt) is added to the correct ending, before its final punctuation: "I will fail." becomes
"I will fail as far as anyone could tell." Every question's answer can then be found from the
endings alone — the longest ending, or the one with the tail — so a reader needs no prompt (an
answer-only shortcut, the annotation artefact of Gururangan et al. 2018, planted). Clean: the same
tail on an ending drawn uniformly at random, so that the tail and the length it adds say nothing
about the label.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Callable

from mrclens.errors import InvariantError
from mrclens.formats.multiple_choice import MCDataset, MCQuestion
from mrclens.parsing import ParsedText, parse_texts
from mrclens.perturbations.ablations.e4_interrogative_only import INTERROGATIVES
from mrclens.perturbations.base import check_answers, copy_question, insert_text, make_rng
from mrclens.perturbations.controls import InsertionPool
from mrclens.squad import Answer, Article, Dataset, Paragraph, Question
from mrclens.units import answer_unit_indices, sentence_units
from mrclens.vocabulary import WORD_PATTERN as _WORD

#: Coarse POS tags whose words the ``keywords`` planting inserts (spaCy Universal POS).
NOUN_TAGS = frozenset({"NOUN", "PROPN"})
OPEN_MARK, CLOSE_MARK = "«", "»"


@dataclass(frozen=True)
class Item:
    """What a planting sees of one kept question.

    Attributes:
        title: the article title.
        paragraph: the paragraph with just this question and its first gold answer.
        question_parse: the question's parse with coarse POS tags.
        units: the context's sentence units, ``(start, end)`` characters.
        answer_unit: the index in ``units`` of the unit holding the answer.
        context_parse: the context's parse (tokens, sentences).
        pool: unrelated text from the whole dataset.
    """

    title: str
    paragraph: Paragraph
    question_parse: ParsedText
    units: list[tuple[int, int]]
    answer_unit: int
    context_parse: ParsedText
    pool: InsertionPool

    @property
    def question(self) -> Question:
        return self.paragraph.questions[0]

    @property
    def answer(self) -> Answer:
        return self.question.answers[0]


#: A planting side: ``(item, rng) -> (new paragraph, reason)``; reason ``None`` when changed,
#: else a short snake_case code why the item stays as it was.
Side = Callable[[Item, object], tuple[Paragraph, str | None]]


@dataclass(frozen=True)
class Planting:
    """One planted shortcut.

    Attributes:
        name: e.g. ``"overlap"``.
        family: the bias category the readings must flag on the planted dataset.
        description: what is planted (one line).
        should_report: what the audit of the planted dataset should say.
        should_not_report: what the audit of the clean counterpart should not say.
        planted: the planted side.
        clean: the clean side.
    """

    name: str
    family: str
    description: str
    should_report: str
    should_not_report: str
    planted: Side
    clean: Side


@dataclass
class PlantedPair:
    """A planted dataset and its clean counterpart, with what each side did.

    Attributes:
        planting: the planting's name.
        planted / clean: the datasets (same question ids, in the same order): SQuAD-format
            :class:`~mrclens.squad.Dataset` for :data:`PLANTINGS`, :class:`~mrclens.formats.multiple_choice.MCDataset`
            for :data:`MC_PLANTINGS`.
        changed: number of questions each side changed (``{"planted": n, "clean": m}``).
        unchanged: per side, reason → number of questions left as they were.
    """

    planting: str
    planted: Dataset | MCDataset
    clean: Dataset | MCDataset
    changed: dict[str, int] = field(default_factory=dict)
    unchanged: dict[str, dict[str, int]] = field(default_factory=dict)


# ----------------------------------------------------------------------------------------------- sides
def _content_words_of_question(item: Item) -> str | None:
    qp = item.question_parse
    words = [w for w in qp.token_texts() if _WORD.fullmatch(w) and w.lower() not in INTERROGATIVES]
    return " ".join(words) or None


def _mid_word(item: Item, offset: int) -> bool:
    """A unit that starts inside a word (spaCy sometimes splits "Anti-aircraft" after "Anti")."""
    return offset > 0 and not item.paragraph.context[offset - 1].isspace()


def _overlap_planted(item: Item, rng) -> tuple[Paragraph, str | None]:
    text = _content_words_of_question(item)
    at = item.units[item.answer_unit][0]
    if text is None:
        return item.paragraph, "no_question_words"
    if _mid_word(item, at):
        return item.paragraph, "unit_starts_mid_word"
    return insert_text(item.paragraph, at, text), None


def _overlap_clean(item: Item, rng) -> tuple[Paragraph, str | None]:
    text = _content_words_of_question(item)
    unit = rng.randrange(len(item.units))
    if text is None:
        return item.paragraph, "no_question_words"
    if _mid_word(item, item.units[unit][0]):
        return item.paragraph, "unit_starts_mid_word"
    other = item.pool.sentence_words(len(text.split()), item.question.question, item.title, rng)
    if other is None:
        return item.paragraph, "no_unrelated_text"
    return insert_text(item.paragraph, item.units[unit][0], other), None


def _mark(paragraph: Paragraph, start: int, end: int) -> Paragraph:
    """``context[start:end]`` becomes ``"« " + span + " »"``; answers after a mark move by its 2 characters.

    Raises:
        InvariantError: a gold answer crosses ``start`` or ``end`` (the caller never marks such a span).
    """
    ctx = paragraph.context
    questions = []
    for q in paragraph.questions:
        answers = []
        for a in q.answers:
            if a.answer_start < start < a.answer_end or a.answer_start < end < a.answer_end:
                raise InvariantError(f"question {q.id}: marking [{start}, {end}) would cut the answer {a.text!r}")
            shift = (2 if a.answer_start >= start else 0) + (2 if a.answer_start >= end and end > start else 0)
            answers.append(Answer(a.text, a.answer_start + shift))
        questions.append(copy_question(q, answers=answers))
    return Paragraph(f"{ctx[:start]}{OPEN_MARK} {ctx[start:end]} {CLOSE_MARK}{ctx[end:]}", questions)


def _marked_planted(item: Item, rng) -> tuple[Paragraph, str | None]:
    rng.random()  # the same number of draws as the clean side's first choice
    a = item.answer
    return _mark(item.paragraph, a.answer_start, a.answer_end), None


def _word_starts(item: Item, unit: int) -> list[tuple[int, int]]:
    """``(start, end)`` of the word tokens inside ``unit`` (characters)."""
    s, e = item.units[unit]
    cp = item.context_parse
    return [(a, b) for a, b in zip(cp.starts, cp.ends) if s <= a and b <= e and _WORD.fullmatch(cp.text[a:b])]


def _non_answer_units(item: Item) -> list[int]:
    hit = answer_unit_indices(item.units, [(item.answer.answer_start, item.answer.answer_end)])
    return [i for i in range(len(item.units)) if i not in hit]


def _marked_clean(item: Item, rng) -> tuple[Paragraph, str | None]:
    others = _non_answer_units(item)
    x = rng.random()
    if not others:
        return item.paragraph, "single_sentence"
    unit = others[int(x * len(others))]
    s, e = item.units[unit]
    words = [(s + m.start(), s + m.end()) for m in re.finditer(r"\S+", item.paragraph.context[s:e])]
    n = max(1, len(item.answer.text.split()))
    if len(words) < n:
        return item.paragraph, "sentence_too_short"
    k = rng.randrange(len(words) - n + 1)
    return _mark(item.paragraph, words[k][0], words[k + n - 1][1]), None


def _nouns(item: Item) -> str | None:
    qp = item.question_parse
    words = [qp.text[s:e] for s, e, t in zip(qp.starts, qp.ends, qp.pos or []) if t in NOUN_TAGS and _WORD.fullmatch(qp.text[s:e])]
    return " ".join(words) or None


def _keywords_planted(item: Item, rng) -> tuple[Paragraph, str | None]:
    nouns = _nouns(item)
    if nouns is None:
        return item.paragraph, "no_question_nouns"
    return insert_text(item.paragraph, item.answer.answer_start, nouns), None


def _keywords_clean(item: Item, rng) -> tuple[Paragraph, str | None]:
    nouns = _nouns(item)
    others = _non_answer_units(item)
    if nouns is None:
        return item.paragraph, "no_question_nouns"
    if not others:
        return item.paragraph, "single_sentence"
    unit = others[rng.randrange(len(others))]
    words = _word_starts(item, unit)
    if not words:
        return item.paragraph, "sentence_too_short"
    at = words[rng.randrange(len(words))][0]
    text = item.pool.pos_words(len(nouns.split()), NOUN_TAGS, item.question.question, item.title, rng)
    if text is None:
        return item.paragraph, "no_unrelated_text"
    return insert_text(item.paragraph, at, text), None


def _move_to_front(item: Item, unit: int) -> Paragraph:
    """The context with ``unit`` first and the other units after it in their order, joined by one space."""
    ctx = item.paragraph.context
    order = [unit] + [i for i in range(len(item.units)) if i != unit]
    pieces, new_start, pos = [], {}, 0
    for i in order:
        s, e = item.units[i]
        new_start[i] = pos
        pieces.append(ctx[s:e])
        pos += e - s + 1
    a = item.answer
    s0 = item.units[item.answer_unit][0]
    moved = Answer(a.text, new_start[item.answer_unit] + a.answer_start - s0)
    return Paragraph(" ".join(pieces), [copy_question(item.question, answers=[moved])])


def _position_planted(item: Item, rng) -> tuple[Paragraph, str | None]:
    rng.randrange(len(item.units))  # the clean side's draw
    if len(item.units) < 2:
        return item.paragraph, "single_sentence"
    return _move_to_front(item, item.answer_unit), None


def _position_clean(item: Item, rng) -> tuple[Paragraph, str | None]:
    unit = rng.randrange(len(item.units))
    if len(item.units) < 2:
        return item.paragraph, "single_sentence"
    return _move_to_front(item, unit), None


#: The plantings, one per bias family MRCLens claims to detect.
PLANTINGS: dict[str, Planting] = {p.name: p for p in (
    Planting("overlap", "Similarity", "the answer sentence starts with the question's words",
             "Similarity flagged: inserting the question before another sentence (e1, e2) pulls the reader "
             "far more than inserting unrelated words there (c1, c2)",
             "the clean counterpart: no category flagged beyond what SQuAD itself shows",
             _overlap_planted, _overlap_clean),
    Planting("marked", "Question", "the answer span is put between « and »",
             "Question flagged: keeping only the interrogative words (e4) or shuffling the question (e5) costs little",
             "the clean counterpart (marks on a random non-answer span): no category flagged",
             _marked_planted, _marked_clean),
    Planting("keywords", "Keyword", "the question's nouns are inserted right before the answer",
             "Keyword flagged: inserting the question's nouns into another sentence (e6) pulls the reader "
             "far more than inserting other nouns there (c6)",
             "the clean counterpart (other nouns at a random place): no category flagged",
             _keywords_planted, _keywords_clean),
    Planting("position", "Position", "the answer sentence is moved to the front of the context",
             "Position flagged: moving the answer sentence elsewhere (e9) or shuffling sentences (e3) costs much more "
             "than on the clean counterpart",
             "the clean counterpart (a random sentence moved to the front): no category flagged",
             _position_planted, _position_clean),
)}


# ----------------------------------------------------------------------------------------------- build
def _items(dataset: Dataset, seed: int, cache_dir, progress: bool) -> list[Item]:
    kept: list[tuple[str, Paragraph]] = []
    for article in dataset.articles:
        for p in article.paragraphs:
            for q in p.questions:
                if q.answers:
                    kept.append((article.title, Paragraph(p.context, [Question(q.id, q.question, [q.answers[0]])])))
    contexts = list(dict.fromkeys(p.context for _, p in kept))  # each paragraph parsed once
    questions = [p.questions[0].question for _, p in kept]
    by_ctx = dict(zip(contexts, parse_texts(contexts, sentences=True, cache_dir=cache_dir,
                                            progress=progress and "selftest: sentences")))
    ctx_parses = [by_ctx[p.context] for _, p in kept]
    q_parses = parse_texts(questions, pos=True, cache_dir=cache_dir, progress=progress and "selftest: questions")
    by_qid = {p.questions[0].id: qp for (_, p), qp in zip(kept, q_parses)}
    pool = InsertionPool.build(dataset, by_ctx, by_qid, seed)  # each paragraph's sentences once
    items = []
    for (title, p), cp, qp in zip(kept, ctx_parses, q_parses):
        a = p.questions[0].answers[0]
        units = sentence_units(p.context, cp, [(a.answer_start, a.answer_end)])
        hit = sorted(answer_unit_indices(units, [(a.answer_start, a.answer_end)]))
        if not hit:  # an empty answer text: no unit holds it; such a question cannot carry a planting
            continue
        items.append(Item(title, p, qp, units, hit[0], cp, pool))
    return items


def plant(dataset: Dataset, planting: str, seed: int = 0, *, cache_dir=None, progress: bool = False) -> PlantedPair:
    """Build the planted dataset and its clean counterpart from ``dataset``.

    Args:
        dataset: SQuAD-format data (e.g. the bundled sample); unanswerable questions are dropped.
        planting: a key of :data:`PLANTINGS`.
        seed: seeds every random choice (same seed, same datasets).
        cache_dir: spaCy parse cache (:func:`mrclens.parsing.parse_texts`).
        progress: show progress while parsing.

    Returns:
        the :class:`PlantedPair`; both datasets keep the titles, one question per paragraph (a copy of
        its original paragraph per answerable question).

    Raises:
        KeyError: an unknown planting name.
        InvariantError: an edit broke an answer offset (a bug).
    """
    spec = PLANTINGS[planting]
    sides = {"planted": spec.planted, "clean": spec.clean}
    out: dict[str, list[Article]] = {k: [] for k in sides}
    changed = dict.fromkeys(sides, 0)
    unchanged: dict[str, dict[str, int]] = {k: {} for k in sides}
    for item in _items(dataset, seed, cache_dir, progress):
        for side, fn in sides.items():
            paragraph, reason = fn(item, make_rng(seed, f"selftest-{planting}", item.question.id))
            check_answers(paragraph, f"selftest {planting} ({side})")
            if reason is None:
                changed[side] += 1
            else:
                unchanged[side][reason] = unchanged[side].get(reason, 0) + 1
            articles = out[side]
            if not articles or articles[-1].title != item.title:
                articles.append(Article(item.title, []))
            articles[-1].paragraphs.append(paragraph)
    return PlantedPair(planting, Dataset(out["planted"], dataset.version), Dataset(out["clean"], dataset.version),
                       changed, unchanged)


# ----------------------------------------------------------------------------------------------- graded
#: The planting rates of the detection curve (issue 41): the share of questions that carry the shortcut.
GRADED_RATES = (0.10, 0.25, 0.50, 1.00)


def planted_share(question_ids: list[str], planting: str, rate: float, seed: int) -> frozenset[str]:
    """The question ids that carry the shortcut at ``rate``: the first ``round(rate × n)`` ids in an order
    fixed by the seed (sha256 of seed, planting and id), so each rate's share holds the smaller rates' shares.

    >>> ids = [f"q{i}" for i in range(10)]
    >>> len(planted_share(ids, "overlap", 0.25, 0)), planted_share(ids, "overlap", 0.1, 0) <= planted_share(ids, "overlap", 0.5, 0)
    (2, True)

    Raises:
        ValueError: ``rate`` is not in [0, 1].
    """
    if not 0.0 <= rate <= 1.0:
        raise ValueError(f"a planting rate is a share of the questions in [0, 1], got {rate}")
    order = sorted(question_ids, key=lambda q: hashlib.sha256(f"{seed}\x1f{planting}\x1f{q}".encode()).hexdigest())
    return frozenset(order[: round(rate * len(order))])


def plant_graded(dataset: Dataset, planting: str, rates: tuple[float, ...] = GRADED_RATES, seed: int = 0, *,
                 cache_dir=None, progress: bool = False) -> tuple[dict[float, Dataset], Dataset]:
    """Graded plantings (issue 41): for each rate, ``dataset`` with the shortcut planted in that share of its
    questions (:func:`planted_share`) and the clean side's edit on every other question; and the clean
    counterpart (rate 0). Built by :func:`plant`'s rules with the same draws, so a rate's dataset differs
    from the clean one only in its planted share.

    Returns:
        ``({rate: dataset}, clean dataset)`` (same question ids, in the same order).

    Raises:
        KeyError: an unknown planting name.
        ValueError: a rate outside [0, 1].
        InvariantError: an edit broke an answer offset (a bug).
    """
    spec = PLANTINGS[planting]
    items = _items(dataset, seed, cache_dir, progress)
    sides = []
    for item in items:
        pair = {}
        for side, fn in (("planted", spec.planted), ("clean", spec.clean)):
            paragraph, _ = fn(item, make_rng(seed, f"selftest-{planting}", item.question.id))
            check_answers(paragraph, f"selftest {planting} ({side})")
            pair[side] = paragraph
        sides.append((item.title, item.question.id, pair))
    ids = [qid for _, qid, _ in sides]

    def build(share: frozenset[str]) -> Dataset:
        articles: list[Article] = []
        for title, qid, pair in sides:
            if not articles or articles[-1].title != title:
                articles.append(Article(title, []))
            articles[-1].paragraphs.append(pair["planted" if qid in share else "clean"])
        return Dataset(articles, dataset.version)

    return {rate: build(planted_share(ids, planting, rate, seed)) for rate in rates}, build(frozenset())


def planting_applied(dataset: Dataset, planting: str, seed: int = 0, *, cache_dir=None) -> dict[str, bool]:
    """Per kept question id (the ids of :func:`plant_graded`'s datasets), whether the planted side edits it: ``False``
    where the planting leaves the question as it was (no question words or nouns to insert, a one-sentence
    context, ...: the reasons :class:`PlantedPair` counts), so that its planted copy carries no planted shortcut.

    Raises:
        KeyError: an unknown planting name.
    """
    spec = PLANTINGS[planting]
    return {item.question.id: spec.planted(item, make_rng(seed, f"selftest-{planting}", item.question.id))[1] is None
            for item in _items(dataset, seed, cache_dir, False)}


# ----------------------------------------------------------------------------------------------- shapes
#: Sentence units a ``short`` context keeps.
SHORT_UNITS = 3


@dataclass(frozen=True)
class Shape:
    """A structural counterpart (issue 32): clean data that differs from the bundled sample only in shape.

    Attributes:
        name: e.g. ``"short"``.
        description: the shape (one line).
        build: ``(item, rng, contexts_of_title) -> (paragraph, reason or None)``; ``contexts_of_title``
            maps an article title to its distinct contexts in file order.
        grouped: the questions of one context share one paragraph (SQuAD's layout) instead of one
            paragraph copy each.
    """

    name: str
    description: str
    build: Callable[[Item, object, dict[str, list[str]]], tuple[Paragraph, str | None]]
    grouped: bool = False


def _short(item: Item, rng, _contexts) -> tuple[Paragraph, str | None]:
    n = len(item.units)
    starts = list(range(max(0, item.answer_unit - SHORT_UNITS + 1), min(item.answer_unit, n - SHORT_UNITS) + 1))
    start = rng.choice(starts) if n > SHORT_UNITS else 0  # drawn always: the same draws whatever the context
    if n <= SHORT_UNITS:
        return item.paragraph, "already_short"
    s, e = item.units[start][0], item.units[start + SHORT_UNITS - 1][1]
    a = item.answer
    cut = Answer(a.text, a.answer_start - s)
    return Paragraph(item.paragraph.context[s:e], [copy_question(item.question, answers=[cut])]), None


def _long(item: Item, rng, contexts: dict[str, list[str]]) -> tuple[Paragraph, str | None]:
    others = [c for c in contexts.get(item.title, []) if c != item.paragraph.context]
    before = rng.random() < 0.5
    if not others:
        return item.paragraph, "single_paragraph_article"
    other = rng.choice(others)
    if before:
        ctx = other + " " + item.paragraph.context
        a = Answer(item.answer.text, item.answer.answer_start + len(other) + 1)
    else:
        ctx, a = item.paragraph.context + " " + other, item.answer
    return Paragraph(ctx, [copy_question(item.question, answers=[a])]), None


def _same(item: Item, rng, _contexts) -> tuple[Paragraph, str | None]:
    return item.paragraph, None


#: The structural counterparts of ``mrclens selftest`` (issue 32): each must read **in line** with the
#: reference in every category (neither more nor less), since only its shape differs from SQuAD's.
SHAPES: dict[str, Shape] = {s.name: s for s in (
    Shape("short", f"contexts cut to {SHORT_UNITS} consecutive sentence units holding the answer, the window "
                   "drawn at random among those that hold it (an answer in the first sentence stays first)", _short),
    Shape("long", "each context joined with another paragraph of its article, drawn at random, placed before or "
                  "after it at random (twice the sentences)", _long),
    Shape("grouped", "the questions of a context share one paragraph (SQuAD's layout: about five questions a "
                     "paragraph instead of one)", _same, grouped=True),
)}


def plant_shape(dataset: Dataset, shape: str, seed: int = 0, *, cache_dir=None, progress: bool = False
                ) -> tuple[Dataset, dict[str, int]]:
    """Build a structural counterpart of ``dataset`` (:data:`SHAPES`), by the plantings' common rules
    (one gold answer, exact offsets, seeded draws; one paragraph copy per question unless grouped).

    Returns:
        ``(dataset, unchanged)``: the counterpart (same question ids and order) and how many questions
        kept their context, by reason.

    Raises:
        KeyError: an unknown shape name.
        InvariantError: an edit broke an answer offset (a bug).
    """
    spec = SHAPES[shape]
    contexts: dict[str, list[str]] = {}
    for article in dataset.articles:
        seen = contexts.setdefault(article.title, [])
        for p in article.paragraphs:
            if p.context not in seen:
                seen.append(p.context)
    articles: list[Article] = []
    unchanged: dict[str, int] = {}
    for item in _items(dataset, seed, cache_dir, progress):
        paragraph, reason = spec.build(item, make_rng(seed, f"selftest-{shape}", item.question.id), contexts)
        check_answers(paragraph, f"selftest {shape}")
        if reason is not None:
            unchanged[reason] = unchanged.get(reason, 0) + 1
        if not articles or articles[-1].title != item.title:
            articles.append(Article(item.title, []))
        last = articles[-1].paragraphs
        if spec.grouped and last and last[-1].context == paragraph.context:
            last[-1] = Paragraph(paragraph.context, last[-1].questions + paragraph.questions)
        else:
            last.append(paragraph)
    return Dataset(articles, dataset.version), unchanged


# ----------------------------------------------------------------------------------------------- multiple choice
#: The words ``mc-length`` adds to an ending: six common words that answer no prompt.
MC_TAIL = "as far as anyone could tell"
_END_PUNCT = re.compile(r"[.!?]*\s*$")

#: A multiple-choice planting side: ``(question, rng) -> (new question, reason)``, as :data:`Side`.
MCSide = Callable[[MCQuestion, object], tuple[MCQuestion, str | None]]


@dataclass(frozen=True)
class MCPlanting:
    """One shortcut planted into multiple-choice data (fields as :class:`Planting`).

    Attributes:
        check_rule: the id of the ``mrclens check`` rule on multiple-choice data
            (``mrclens/data/default_rules_mc.toml``) whose model-free figure the planted artefact
            moves: it must fail on the planted dataset and pass on the clean counterpart
            (:func:`mrclens.selftest.runner.judge_mc`).
    """

    name: str
    family: str
    description: str
    should_report: str
    should_not_report: str
    planted: MCSide
    clean: MCSide
    check_rule: str


def add_tail(ending: str, tail: str = MC_TAIL) -> str:
    """``ending`` with ``tail`` put before its final run of ``.``/``!``/``?`` (trailing spaces dropped).

    >>> add_tail("I will fail.")
    'I will fail as far as anyone could tell.'
    >>> add_tail("a kitten")
    'a kitten as far as anyone could tell'
    """
    m = _END_PUNCT.search(ending)
    body, punct = ending[:m.start()], ending[m.start():].strip()
    return f"{body.rstrip()} {tail}{punct}"


def _with_tail_on(question: MCQuestion, index: int) -> MCQuestion:
    endings = tuple(add_tail(e) if i == index else e for i, e in enumerate(question.endings))
    return MCQuestion(question.id, question.prompt, endings, question.label, question.categories)


def _length_planted(question: MCQuestion, rng) -> tuple[MCQuestion, str | None]:
    rng.randrange(len(question.endings))  # the clean side's draw
    return _with_tail_on(question, question.label), None


def _length_clean(question: MCQuestion, rng) -> tuple[MCQuestion, str | None]:
    return _with_tail_on(question, rng.randrange(len(question.endings))), None


#: The multiple-choice plantings (issue 20). Kept apart from :data:`PLANTINGS` (span data): they are
#: built from other data by :func:`plant_mc`, and ``mrclens selftest`` runs them only when named.
MC_PLANTINGS: dict[str, MCPlanting] = {p.name: p for p in (
    MCPlanting("mc-length", "Question", f"the correct ending gets the tail \"{MC_TAIL}\"",
               "Question flagged (removing the prompt, m1-m3, costs the reader little: it needs no prompt), its "
               "answer-only accuracy above the clean counterpart's, and the check rule mc-longest-ending failed "
               "('pick the longest ending' far above chance)",
               "the clean counterpart (the tail on a random ending): mc-longest-ending passes (the longest ending "
               "is right about as often as chance)",
               _length_planted, _length_clean, "mc-longest-ending"),
)}


def mc_subset(dataset: MCDataset, n_questions: int | None, seed: int) -> MCDataset:
    """The first ``n_questions`` questions of ``dataset`` in an order fixed by ``seed`` (sha256 of seed
    and question id), kept in file order; all of them when ``n_questions`` is ``None`` or not smaller."""
    if n_questions is None or n_questions >= len(dataset.questions):
        return MCDataset(list(dataset.questions), dataset.source, dataset.format)
    rank = sorted(dataset.questions, key=lambda q: hashlib.sha256(f"{seed}\x1fselftest\x1f{q.id}".encode()).digest())
    keep = {q.id for q in rank[:n_questions]}
    return MCDataset([q for q in dataset.questions if q.id in keep], dataset.source, dataset.format)


def plant_mc(dataset: MCDataset, planting: str, seed: int = 0, *, n_questions: int | None = None) -> PlantedPair:
    """Build a multiple-choice planted dataset and its clean counterpart (rules in the module docstring).

    Args:
        dataset: multiple-choice data (:func:`mrclens.formats.multiple_choice.load_mc_dataset`).
        planting: a key of :data:`MC_PLANTINGS`.
        seed: seeds the subset and every random choice (same seed, same datasets).
        n_questions: keep this many questions (:func:`mc_subset`; ``None``: all).

    Returns:
        the :class:`PlantedPair` (its ``planted`` and ``clean`` are :class:`~mrclens.formats.multiple_choice.MCDataset`).

    Raises:
        KeyError: an unknown planting name.
        InvariantError: a side changed a question's id, prompt, label or gold ending text beyond the
            planting (a bug).
    """
    spec = MC_PLANTINGS[planting]
    sides = {"planted": spec.planted, "clean": spec.clean}
    out: dict[str, list[MCQuestion]] = {k: [] for k in sides}
    changed = dict.fromkeys(sides, 0)
    unchanged: dict[str, dict[str, int]] = {k: {} for k in sides}
    subset = mc_subset(dataset, n_questions, seed)
    for q in subset.questions:
        for side, fn in sides.items():
            new, reason = fn(q, make_rng(seed, f"selftest-{planting}", q.id))
            if (new.id, new.prompt, new.label, new.categories, len(new.endings)) != (
                    q.id, q.prompt, q.label, q.categories, len(q.endings)):
                raise InvariantError(f"selftest {planting} ({side}): question {q.id} changed beyond its endings")
            if reason is None:
                changed[side] += 1
            else:
                unchanged[side][reason] = unchanged[side].get(reason, 0) + 1
            out[side].append(new)
    return PlantedPair(planting, MCDataset(out["planted"], subset.source, "mc-jsonl"),
                       MCDataset(out["clean"], subset.source, "mc-jsonl"), changed, unchanged)
