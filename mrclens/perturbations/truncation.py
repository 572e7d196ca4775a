"""The truncated evaluation set used by e1, e2, e6–e10 (and their controls).

Rule (MRCLens issue 3, following Zhong, Wang & Xing, DataPerf@ICML 2022, whose truncated SQuAD
v1.1 dev set had 1,943 entries): inserting text built from one question into a passage shared
by several questions would confuse the others, so for each paragraph only the first question
(file order) whose context has at least one non-answer sentence unit is kept, and each kept
question gets its own paragraph. Sentence units of a kept question are computed from its own
gold answers (it is alone in its paragraph). Articles left without paragraphs are dropped.

Unanswerable questions (SQuAD v2.0): a question without gold answers has no answer sentence, so
every sentence unit of its context is a non-answer unit and it always qualifies (a one-sentence
context included). The rule is unchanged: the paragraph's first qualifying question in file
order is kept, answerable or not; SQuAD v2.0 files usually list a paragraph's answerable
questions first, so the truncated set keeps mostly answerable ones, plus the unanswerable first
questions of paragraphs whose answerable questions all have an answer in every unit (or of
paragraphs with no answerable question). Its HasAns/NoAns counts are in ``results.json``.

Drop reasons (per paragraph):

* ``no_questions`` — the paragraph has no question;
* ``single_sentence`` — the context is one sentence unit even before merging across answers;
* ``answers_in_every_unit`` — several sentences, but for every question each unit (after
  merging across that question's answers) holds one of its gold answers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mrclens.parsing import ParsedText
from mrclens.perturbations.base import answer_spans, non_answer_units
from mrclens.squad import Article, Dataset, Paragraph
from mrclens.units import sentence_units


@dataclass
class TruncatedSet:
    """The truncated set and how it was made.

    Attributes:
        dataset: one paragraph per kept question (same titles, contexts and question ids).
        units: question id → the sentence units of its paragraph (character spans).
        paragraphs_total: paragraphs in the input.
        dropped: drop reason → number of paragraphs dropped for it.
    """

    dataset: Dataset
    units: dict[str, list[tuple[int, int]]]
    paragraphs_total: int
    dropped: dict[str, int] = field(default_factory=dict)


def truncate_dataset(dataset: Dataset, context_parses: dict[str, ParsedText]) -> TruncatedSet:
    """Build the truncated set of ``dataset`` (rule in the module docstring).

    Args:
        dataset: the full evaluation set.
        context_parses: context text → its parse with sentences.

    Returns:
        a :class:`TruncatedSet`; ``len`` of its questions plus the dropped paragraphs equals
        ``paragraphs_total``.
    """
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
            for q in paragraph.questions:
                units = sentence_units(paragraph.context, parse, answer_spans(q))
                if non_answer_units(units, q):
                    kept.append(Paragraph(paragraph.context, [q]))
                    units_by_q[q.id] = units
                    break
            else:
                bare = sentence_units(paragraph.context, parse, [])
                reason = "single_sentence" if len(bare) <= 1 else "answers_in_every_unit"
                dropped[reason] = dropped.get(reason, 0) + 1
        if kept:
            articles.append(Article(article.title, kept))
    return TruncatedSet(Dataset(articles, dataset.version, dataset.source), units_by_q, total, dict(sorted(dropped.items())))
