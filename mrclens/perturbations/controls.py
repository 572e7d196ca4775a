"""Matched controls for the insertion ablations: the same number of unrelated words at the same place.

An insertion ablation (e1, e2, e6–e8) repeats words of the question before or inside a sentence
that holds no answer. Any insertion costs a reader something — a longer passage, a shifted answer
position, one more candidate span — so a drop alone cannot be put down to lexical overlap with
the question. Its control inserts text that does **not** overlap the question, of the same
length in words, at **exactly the same character offset** (the control re-runs its ablation with
the ablation's own random generator to obtain the position, then replaces the inserted text).
The pair differs only in what is inserted, so the *excess drop* (ablation drop − control drop,
paired by question; :mod:`mrclens.scoring.drops`) measures what the overlap itself costs
(the matched-control design of adversarial-distractor studies, e.g. Jia & Liang 2017's
AddAny/AddSent contrast).

Rules (issue 16):

* **c1 / c2** (controls of e1 / e2, "words"): the first ``n`` words (``n`` = the number of
  word tokens, ``\\w+`` runs, of the text the ablation inserted) of a sentence of another article
  (another title) that has at least ``n`` words and shares no content word (a lower-cased word
  that is not a spaCy English stop word) with the question; the sentence's own characters from
  its first word to its ``n``-th word are inserted.
* **c6 / c7 / c8** (controls of e6 / e7 / e8, "keywords"): ``n`` words (``n`` = the number of
  words the ablation inserted) with the ablation's coarse POS tags, drawn from the questions of
  other articles, absent from the question (lower-cased), no word twice, joined by single spaces.

The text draw uses its own generator, seeded from (seed, control id, question id), so the
position draws are exactly the ablation's. A question the ablation leaves unchanged is left
unchanged with the same reason; ``no_control_text`` when no unrelated text can be found.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

from mrclens.parsing import ParsedText
from mrclens.perturbations.base import Change, ExampleParse, changed, insert_text, make_rng, unchanged
from mrclens.squad import Dataset, Paragraph
from mrclens.vocabulary import STOP_WORDS, WORD_PATTERN

#: Random candidates tried before a full deterministic scan (bounded work per question).
_TRIES = 64


def content_words(text: str, stop_words: frozenset[str]) -> set[str]:
    """Lower-cased ``\\w+`` words of ``text`` that are not stop words.

    >>> sorted(content_words("Where is the Eiffel Tower?", frozenset({"where", "is", "the"})))
    ['eiffel', 'tower']
    """
    return {w for w in (m.group().lower() for m in WORD_PATTERN.finditer(text)) if w not in stop_words}


def word_count(text: str) -> int:
    """Number of ``\\w+`` word runs in ``text`` (``"in 1889, Paris"`` → 3)."""
    return sum(1 for _ in WORD_PATTERN.finditer(text))


@dataclass
class InsertionPool:
    """Unrelated text for the controls, drawn from the whole evaluation set.

    Attributes:
        seed: the perturbation seed (each question's text draw is seeded from it).
        sentences: ``(title, sentence text, word end offsets)`` for every context sentence.
        words_by_pos: coarse POS tag → ``[(title, word)]`` from every question's tokens.
        title_of: context text → article title (the article a paragraph belongs to).
    """

    seed: int
    sentences: list[tuple[str, str, list[int]]] = field(default_factory=list)
    words_by_pos: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    title_of: dict[str, str] = field(default_factory=dict)
    stop_words: frozenset[str] = STOP_WORDS

    @classmethod
    def build(cls, dataset: Dataset, ctx_parses: dict[str, ParsedText], q_parses: dict[str, ParsedText], seed: int) -> "InsertionPool":
        """Collect the sentences of every context and the POS-tagged words of every question."""
        pool = cls(seed)
        for article in dataset.articles:
            for p in article.paragraphs:
                pool.title_of.setdefault(p.context, article.title)
                parse = ctx_parses.get(p.context)
                if parse is not None and parse.sent_starts:
                    bounds = list(parse.sent_starts) + [len(p.context)]
                    for s, e in zip(bounds, bounds[1:]):
                        sentence = p.context[s:e].strip()
                        if sentence:
                            pool.sentences.append((article.title, sentence, [m.end() for m in WORD_PATTERN.finditer(sentence)]))
                for q in p.questions:
                    qp = q_parses.get(q.id)
                    if qp is None or qp.pos is None:
                        continue
                    for s, e, tag in zip(qp.starts, qp.ends, qp.pos):
                        word = qp.text[s:e]
                        if WORD_PATTERN.fullmatch(word):
                            pool.words_by_pos.setdefault(tag, []).append((article.title, word))
        return pool

    def _candidates(self, n_items: int, rng) -> Iterable[int]:
        for _ in range(_TRIES):
            yield rng.randrange(n_items)
        start = rng.randrange(n_items)
        yield from ((start + i) % n_items for i in range(n_items))

    def sentence_words(self, n: int, question: str, title: str, rng) -> str | None:
        """The first ``n`` words of an unrelated sentence of another article, or ``None``."""
        if not self.sentences or n <= 0:
            return None
        avoid = content_words(question, self.stop_words)
        for i in self._candidates(len(self.sentences), rng):
            other, sentence, ends = self.sentences[i]
            if other == title or len(ends) < n:
                continue
            text = sentence[: ends[n - 1]]
            text = text[WORD_PATTERN.search(text).start():]
            if not content_words(text, self.stop_words) & avoid:
                return text
        return None

    def pos_words(self, n: int, tags: Iterable[str], question: str, title: str, rng) -> str | None:
        """``n`` distinct words with one of the coarse POS ``tags`` from other articles' questions, or ``None``."""
        pool = [w for t in sorted(tags) for w in self.words_by_pos.get(t, [])]
        if not pool or n <= 0:
            return None
        avoid = {w.lower() for w in WORD_PATTERN.findall(question)}
        chosen: list[str] = []
        for i in self._candidates(len(pool), rng):
            other, word = pool[i]
            if other != title and word.lower() not in avoid and word.lower() not in {c.lower() for c in chosen}:
                chosen.append(word)
                if len(chosen) == n:
                    return " ".join(chosen)
        return None


def follow_ablation(example: Paragraph, records: dict[str, Change], edit, *, seed: int,
                    control_id: str) -> tuple[Paragraph, dict[str, Change]]:
    """The loop every control shares: its ablation's records, question by question in order, decide.

    A question the ablation left unchanged is left unchanged with the same reason; for one it changed,
    ``edit(current paragraph, question, the ablation's detail, rng)`` returns ``(new paragraph, change
    record)`` (an unchanged record with the paragraph as it was when the control finds nothing to do),
    ``rng`` being the control's own generator, seeded from ``(seed, control_id, question id)``
    (:func:`~mrclens.perturbations.base.make_rng`).

    Returns:
        ``(new paragraph, {question id: change record})``.
    """
    current = example
    out: dict[str, Change] = {}
    for q in example.questions:
        rec = records[q.id]
        if not rec["changed"]:
            out[q.id] = unchanged(rec["reason"])
            continue
        current, out[q.id] = edit(current, q, rec["detail"], make_rng(seed, control_id, q.id))
    return current, out


def control_apply(control_id: str, ablation_apply: Callable, text: Callable[[InsertionPool, str, str, str, object], str | None]):
    """The ``apply`` function of a control: run the ablation for its positions, insert unrelated text there.

    Args:
        control_id: e.g. ``"c1"`` (seeds the text draw).
        ablation_apply: the ablation's ``apply``; called with the generator the driver seeded
            with the *ablation's* id, so it draws the same positions as the ablation itself.
        text: ``text(pool, inserted_by_ablation, question, title, rng)`` → control text or ``None``.
    """

    def apply(example: Paragraph, parsed: ExampleParse, rng) -> tuple[Paragraph, dict[str, Change]]:
        if parsed.pool is None:
            raise ValueError(f"control {control_id} needs an InsertionPool in ExampleParse.pool")
        _, records = ablation_apply(example, parsed, rng)
        title = parsed.pool.title_of.get(example.context, "")

        def insert(current: Paragraph, q, detail: dict, q_rng) -> tuple[Paragraph, Change]:
            chosen = text(parsed.pool, detail["inserted"], q.question, title, q_rng)
            if chosen is None:
                return current, unchanged("no_control_text")
            return insert_text(current, detail["offset"], chosen), changed(
                inserted=chosen, offset=detail["offset"], unit=detail["unit"], replaces=detail["inserted"])

        return follow_ablation(example, records, insert, seed=parsed.pool.seed, control_id=control_id)

    apply.__doc__ = (f"Apply control {control_id} to one paragraph: the ablation's positions, unrelated text "
                     "(rules in mrclens.perturbations.controls); returns (new paragraph, {question id: change record}).")
    apply.__name__ = apply.__qualname__ = f"control_{control_id}"
    return apply


def sentence_text(pool: InsertionPool, inserted: str, question: str, title: str, rng) -> str | None:
    """c1/c2: as many words of an unrelated sentence as the ablation inserted."""
    return pool.sentence_words(word_count(inserted), question, title, rng)


def keyword_text(tags: set[str]) -> Callable[[InsertionPool, str, str, str, object], str | None]:
    """c6–c8: as many unrelated words with the ablation's POS ``tags`` as it inserted."""

    def text(pool: InsertionPool, inserted: str, question: str, title: str, rng) -> str | None:
        return pool.pos_words(len(inserted.split()), tags, question, title, rng)

    return text
