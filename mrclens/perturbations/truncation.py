"""The truncated evaluation set used by e1, e2, e6–e10 (and their controls).

Rule (MRCLens issue 3, following Zhong, Wang & Xing, DataPerf@ICML 2022, whose truncated SQuAD
v1.1 dev set had 1,943 entries): inserting text built from one question into a passage shared
by several questions would confuse the others, so for each paragraph one question whose context
has at least one non-answer sentence unit (a *qualifying* question) is kept (under ``"every"``, each
qualifying question), and each kept question gets its own paragraph (a copy of its context). Sentence
units of a kept question are computed from its own gold answers (it is alone in its paragraph).
Articles left without paragraphs are dropped.

Which qualifying questions are kept (``rule``, :data:`mrclens.artifacts.manifest.TRUNCATION_RULES`; issue 41,
part 3):

* ``"random"`` (the default, :data:`DEFAULT_RULE`): one drawn uniformly with a generator seeded from
  ``(seed, paragraph id = id of the paragraph's first question)``, so the choice does not depend on
  the order in which the dataset's builders asked their questions, and every paragraph's draw is
  reproducible on its own. Why: SQuAD's annotators asked first about the first sentence (75 % of the
  first questions of the quick reference's evaluation paragraphs are answered in the first sentence
  unit, 16–48 % on one-question-per-paragraph data), so keeping the first question made e9 (which
  moves the answer sentence) measure the question order of the file as much as the reader
  (BENCHMARKS.md, "The truncated set").
* ``"every"``: every qualifying question, each alone in its own copy of its paragraph (the rule of the
  ``quick`` reference profile, issue 41). The insertion rule is kept — no inserted text is ever read
  by another question — but the set holds all the evaluation set's qualifying questions instead of one
  per paragraph (1,970 questions against 376 on the evaluation part of the quick reference's run of
  seed 0), so e1, e2 and e6–e10 are measured on about five times as many questions. The copies of one
  paragraph share its article, the cluster by which a comparison widens the drops' per-question errors
  (``cluster_factor``, :mod:`mrclens.scoring.against_reference`), so their correlation is counted. No
  draw: the set does not depend on ``seed``. Data with one question per paragraph gets the same set
  under ``"random"`` and ``"every"``.
* ``"first"``: the first qualifying question in file order (MRCLens before issue 41; the rule of a
  reference file written before it, :attr:`mrclens.artifacts.reference.ReferenceAudit.truncation`).

Unanswerable questions (SQuAD v2.0): a question without gold answers has no answer sentence, so
every sentence unit of its context is a non-answer unit and it always qualifies (a one-sentence
context included). The rule is unchanged, answerable or not: under ``"random"`` the truncated set
keeps answerable and unanswerable questions in about the shares the qualifying questions have;
under ``"first"``, since SQuAD v2.0 files usually list a paragraph's answerable questions first,
mostly answerable ones. Its HasAns/NoAns counts are in ``results.json``.

Drop reasons (per paragraph):

* ``no_questions`` — the paragraph has no question;
* ``single_sentence`` — the context is one sentence unit even before merging across answers;
* ``answers_in_every_unit`` — several sentences, but for every question each unit (after
  merging across that question's answers) holds one of its gold answers.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from mrclens.artifacts.manifest import TRUNCATION_RULES
from mrclens.parsing import ParsedText
from mrclens.perturbations.base import answer_spans, non_answer_units
from mrclens.squad import Article, Dataset, Paragraph
from mrclens.units import sentence_units

#: The rule of ``mrclens perturb`` and of an audit whose reference profile does not name another.
DEFAULT_RULE = "random"


@dataclass
class TruncatedSet:
    """The truncated set and how it was made.

    Attributes:
        dataset: one paragraph per kept question (same titles, contexts and question ids; under ``"every"``
            a paragraph of the input appears once per qualifying question).
        units: question id → the sentence units of its paragraph (character spans).
        paragraphs_total: paragraphs in the input.
        dropped: drop reason → number of paragraphs dropped for it.
    """

    dataset: Dataset
    units: dict[str, list[tuple[int, int]]]
    paragraphs_total: int
    dropped: dict[str, int] = field(default_factory=dict)


def truncate_dataset(dataset: Dataset, context_parses: dict[str, ParsedText], rule: str = DEFAULT_RULE,
                     seed: int = 0) -> TruncatedSet:
    """Build the truncated set of ``dataset`` (rules in the module docstring).

    Args:
        dataset: the full evaluation set.
        context_parses: context text → its parse with sentences.
        rule: ``"random"``, ``"every"`` or ``"first"`` (:data:`mrclens.artifacts.manifest.TRUNCATION_RULES`).
        seed: the seed of the ``"random"`` rule (the perturbation's seed, not a draw's: every draw
            perturbs the same truncated set).

    Returns:
        a :class:`TruncatedSet`; the paragraphs that kept a question plus the dropped ones equal
        ``paragraphs_total`` (under ``"random"`` and ``"first"``: its questions plus the dropped paragraphs).

    Raises:
        ValueError: an unknown ``rule``.
    """
    if rule not in TRUNCATION_RULES:
        raise ValueError(f"unknown truncation rule {rule!r}; expected one of {', '.join(TRUNCATION_RULES)}")
    articles: list[Article] = []
    units_by_q: dict[str, list[tuple[int, int]]] = {}
    dropped: dict[str, int] = {}
    total = 0
    for article in dataset.articles:
        kept: list[Paragraph] = []
        for paragraph in article.paragraphs:
            total += 1
            if not paragraph.questions:
                dropped["no_questions"] = dropped.get("no_questions", 0) + 1
                continue
            parse = context_parses[paragraph.context]
            qualifying = []
            for q in paragraph.questions:
                units = sentence_units(paragraph.context, parse, answer_spans(q))
                if non_answer_units(units, q):
                    qualifying.append((q, units))
                    if rule == "first":
                        break
            if qualifying:
                if rule != "every":
                    pick = 0 if rule == "first" else _draw(seed, paragraph.questions[0].id, len(qualifying))
                    qualifying = [qualifying[pick]]
                for q, units in qualifying:
                    kept.append(Paragraph(paragraph.context, [q]))
                    units_by_q[q.id] = units
            else:
                bare = sentence_units(paragraph.context, parse, [])
                reason = "single_sentence" if len(bare) <= 1 else "answers_in_every_unit"
                dropped[reason] = dropped.get(reason, 0) + 1
        if kept:
            articles.append(Article(article.title, kept))
    return TruncatedSet(Dataset(articles, dataset.version, dataset.source), units_by_q, total, dict(sorted(dropped.items())))


def _draw(seed: int, paragraph_id: str, n: int) -> int:
    """Index of the question kept among ``n`` qualifying ones: a generator seeded from ``(seed, paragraph
    id)`` (a string seed: the same draw on any machine and Python 3 version, :class:`random.Random`)."""
    return random.Random(f"truncated:{seed}:{paragraph_id}").randrange(n) if n > 1 else 0
