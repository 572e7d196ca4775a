"""SQuAD-format data: the typed objects (answer, question, paragraph, article, dataset) and atomic writing.

The objects mirror the schema of the official SQuAD files (Rajpurkar et al. 2016, v1.1;
Rajpurkar, Jia & Liang 2018, v2.0), which :mod:`mrclens.formats.squad_schema` spells out.
``answer_start`` is a character offset into ``context`` (Python ``str`` indices,
i.e. Unicode code points); question ids are strings. Reading and validating a file, in this or
any other format, is :func:`mrclens.formats.load_dataset` (the SQuAD schema check:
:mod:`mrclens.formats.squad_schema`); :func:`write_dataset` writes the SQuAD JSON back.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterator, overload

from mrclens.errors import Problem
from mrclens.invisible import VisibleText, has_invisible, visible
from mrclens.io_utils import atomic_write_bytes


@dataclass
class Answer:
    """A gold answer span: ``context[answer_start : answer_start + len(text)] == text`` (characters).

    Attributes:
        text: the answer text, as in the file.
        answer_start: the offset of its first character in the paragraph's ``context``, in characters (Python
            ``str`` indices, i.e. Unicode code points; SQuAD's ``answer_start``).
    """

    text: str
    answer_start: int

    @property
    def answer_end(self) -> int:
        """Exclusive end offset of the span, in characters."""
        return self.answer_start + len(self.text)


@dataclass
class Question:
    """One question on a paragraph.

    Attributes:
        id: question id (always a string; integer ids are converted).
        question: the question text.
        answers: gold answers (empty for an unanswerable SQuAD v2.0 question).
        is_impossible: ``True`` for an unanswerable question; ``None`` when the
            file has no such field (SQuAD v1.1).
        extra: any other keys of the item (e.g. ``plausible_answers``), kept so
            that writing the file back loses nothing.
    """

    id: str
    question: str
    answers: list[Answer] = field(default_factory=list)
    is_impossible: bool | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: answers given in the file but left out of :attr:`answers` because they are invalid
    #: (counted by :meth:`Dataset.counts`, so that validation counts what the file holds).
    invalid_answers: int = field(default=0, compare=False, repr=False)


@dataclass
class Paragraph:
    """A context passage with its questions.

    Attributes:
        context: the passage the questions are asked on; every answer span is a slice of it.
        questions: its questions, in file order.
    """

    context: str
    questions: list[Question] = field(default_factory=list)


@dataclass
class Article:
    """A titled article (one Wikipedia page in SQuAD) with its paragraphs.

    Attributes:
        title: the article's title (in SQuAD, the Wikipedia page's).
        paragraphs: its paragraphs, in file order.
    """

    title: str
    paragraphs: list[Paragraph] = field(default_factory=list)


#: The columns of a flat SQuAD record on the Hugging Face Hub (``datasets.load_dataset("squad")``), in order.
HUB_COLUMNS = ("id", "title", "context", "question", "answers")


def question_record(article: Article, paragraph: Paragraph, q: Question, extra_columns: bool = False) -> dict[str, Any]:
    """One question as a flat Hugging Face SQuAD record: ``{"id", "title", "context", "question", "answers": {"text":
    [str, ...], "answer_start": [int, ...]}}`` (:data:`HUB_COLUMNS`; ``answer_start`` in characters of ``context``);
    ``extra_columns``: also ``is_impossible`` (where the file gives it) and every other field of the question
    (``Question.extra``, e.g. ``plausible_answers``). The one place this record is built
    (:func:`mrclens.formats.hf_flat.to_records`, :meth:`QADataset.__getitem__`)."""
    rec: dict[str, Any] = {
        "id": q.id,
        "title": article.title,
        "context": paragraph.context,
        "question": q.question,
        "answers": {"text": [a.text for a in q.answers], "answer_start": [a.answer_start for a in q.answers]},
    }
    if extra_columns:
        if q.is_impossible is not None:
            rec["is_impossible"] = q.is_impossible
        rec.update(q.extra)
    return rec


@dataclass
class QADataset:
    """A whole SQuAD-format file (``mrclens.QADataset``; :data:`Dataset` is the same class).

    ``repr`` is one line (``QADataset(5 articles, 245 paragraphs, 1,234 questions, source 'dev.json')``,
    never the data) and ``len`` is the number of questions, so a notebook cell that ends with a dataset
    prints a line, not the file. It reads like the Hub's flat SQuAD: ``ds[0]``, ``ds[-5:]`` and ``for record in
    ds`` give flat records (:meth:`__getitem__`), :meth:`to_pandas` a table. Load one with
    :func:`mrclens.load_qa_dataset`, write one with :func:`mrclens.write_dataset`.

    Attributes:
        articles: the articles in file order.
        version: the file's ``version`` field (``None`` if absent).
        source: the path the dataset was loaded from, if any (``"<memory>"`` for a Python object).
        notes: what ``on_invalid="skip"``/``"repair"`` did when loading: one :class:`~mrclens.errors.Problem`
            per skipped question (severity ``"skipped"``) and per moved answer (``"repaired"``).
    """

    articles: list[Article]
    version: str | None = None
    source: str | None = None
    notes: list[Problem] = field(default_factory=list, compare=False, repr=False)

    def __len__(self) -> int:
        """The number of questions."""
        return sum(len(p.questions) for a in self.articles for p in a.paragraphs)

    def __repr__(self) -> str:
        n_paragraphs = sum(len(a.paragraphs) for a in self.articles)
        source = repr(str(self.source)) if self.source is not None else "None"
        return (f"{type(self).__name__}({len(self.articles):,} articles, {n_paragraphs:,} paragraphs, "
                f"{len(self):,} questions, source {source})")

    @property
    def is_v2(self) -> bool:
        """True when any question carries ``is_impossible`` (SQuAD v2.0 rules apply)."""
        return any(q.is_impossible is not None for _, _, q in self.iter_questions())

    def iter_paragraphs(self) -> Iterator[tuple[Article, Paragraph]]:
        """Yield ``(article, paragraph)`` for every paragraph, in file order."""
        for article in self.articles:
            for paragraph in article.paragraphs:
                yield article, paragraph

    def iter_questions(self) -> Iterator[tuple[Article, Paragraph, Question]]:
        """Yield ``(article, paragraph, question)`` for every question, in file order."""
        for article in self.articles:
            for paragraph in article.paragraphs:
                for question in paragraph.questions:
                    yield article, paragraph, question

    def questions_by_id(self) -> dict[str, Question]:
        """Every question by its id (a string); of two questions with one id (invalid data), the later one."""
        return {q.id: q for _, _, q in self.iter_questions()}

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        """The ``index``-th question (file order; negative and slices as for a list) as a flat Hugging Face SQuAD
        record (:func:`question_record`), the form ``datasets`` gives: ``{"id", "title", "context", "question",
        "answers": {"text": [...], "answer_start": [...]}}``, ``answer_start`` in characters.

        Args:
            index: a question number (0 = the first question of the file; negative counts from the end) or a slice.

        Returns:
            one record for an integer, a list of records for a slice.

        Raises:
            IndexError: no question at ``index``.
            TypeError: ``index`` is no integer or slice.
        """
        if not isinstance(index, (int, slice)):
            raise TypeError(f"a dataset is indexed by question number or slice, not {type(index).__name__}")
        picked = list(self.iter_questions())[index]
        return [question_record(*t) for t in picked] if isinstance(index, slice) else question_record(*picked)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        """Every question as a flat record (:meth:`__getitem__`), in file order."""
        return (question_record(*t) for t in self.iter_questions())

    def to_pandas(self, extra_columns: bool = False) -> Any:
        """A ``pandas.DataFrame``, one row per question in file order, with the columns of :func:`question_record`:
        ``id``, ``title``, ``context``, ``question``, ``answers`` (``{"text": [...], "answer_start": [...]}``,
        ``answer_start`` in characters).

        Args:
            extra_columns: also ``is_impossible`` and every other question field (e.g. ``plausible_answers``).

        >>> QADataset([Article("T", [Paragraph("Paris is in France.", [Question("q1", "Where is Paris?",
        ...     [Answer("France", 12)])])])]).to_pandas()[["id", "question"]].to_dict("records")
        [{'id': 'q1', 'question': 'Where is Paris?'}]
        """
        import pandas as pd

        return pd.DataFrame([question_record(*t, extra_columns=extra_columns) for t in self.iter_questions()],
                            columns=None if extra_columns else list(HUB_COLUMNS))

    def counts(self) -> dict[str, int]:
        """Counts of articles, paragraphs, questions, gold answers and unanswerable questions: ``{"articles",
        "paragraphs", "questions", "answers", "unanswerable"}``.

        A question is unanswerable when the file gives it no answer (``is_impossible``, or an
        empty answer list in a v2.0 file); answers that are in the file but invalid count as
        answers (see :attr:`Question.invalid_answers`).
        """
        n_par = sum(len(a.paragraphs) for a in self.articles)
        qs = [q for _, _, q in self.iter_questions()]
        return {
            "articles": len(self.articles),
            "paragraphs": n_par,
            "questions": len(qs),
            "answers": sum(len(q.answers) + q.invalid_answers for q in qs),
            "unanswerable": sum(1 for q in qs if not q.answers and not q.invalid_answers),
        }

    def visible(self) -> QADataset:
        """The view of the dataset the analysers read (:mod:`mrclens.invisible`): every context, question, title
        and answer without its invisible format characters (Unicode Cf), each ``answer_start`` moved back by
        those before it, so that ``context[answer_start:answer_end] == text`` holds in the view as in the file.
        ``self`` when no text holds one; the dataset itself is never changed.

        >>> view = QADataset([Article("t", [Paragraph("The Super\u00adBowl was won by Denver.", [Question(
        ...     "q1", "\ufeffWho won the Super\u200bBowl?", [Answer("Denver", 26)])])])]).visible()
        >>> p = view.articles[0].paragraphs[0]; a = p.questions[0].answers[0]
        >>> p.questions[0].question, a.answer_start, p.context[a.answer_start:a.answer_end]
        ('Who won the SuperBowl?', 25, 'Denver')
        """
        if not any(has_invisible(p.context) or any(has_invisible(q.question) or any(has_invisible(a.text) for a in q.answers)
                                                   for q in p.questions) for _, p in self.iter_paragraphs()):
            return self
        articles = []
        for article in self.articles:
            paragraphs = []
            for p in article.paragraphs:
                view = VisibleText(p.context)
                questions = [replace(q, question=visible(q.question), answers=[
                    Answer(visible(a.text), view.to_visible(a.answer_start)) for a in q.answers]) for q in p.questions]
                paragraphs.append(Paragraph(view.text, questions))
            articles.append(Article(visible(article.title), paragraphs))
        return replace(self, articles=articles)

    def to_json(self) -> dict[str, Any]:
        """The dataset as the SQuAD JSON object (same schema as the input)."""
        data = []
        for article in self.articles:
            paragraphs = []
            for p in article.paragraphs:
                qas = []
                for q in p.questions:
                    item: dict[str, Any] = {
                        "answers": [{"answer_start": a.answer_start, "text": a.text} for a in q.answers],
                        "question": q.question,
                        "id": q.id,
                    }
                    if q.is_impossible is not None:
                        item["is_impossible"] = q.is_impossible
                    item.update(q.extra)
                    qas.append(item)
                paragraphs.append({"context": p.context, "qas": qas})
            data.append({"title": article.title, "paragraphs": paragraphs})
        out: dict[str, Any] = {"data": data}
        if self.version is not None:
            out["version"] = self.version
        return out


#: The name the package used before (and still uses inside): the same class as :class:`QADataset`.
Dataset = QADataset


def dataset_bytes(dataset: Dataset) -> bytes:
    """The bytes :func:`write_dataset` writes for ``dataset`` (UTF-8 SQuAD JSON, before any gzip)."""
    return json.dumps(dataset.to_json(), ensure_ascii=False).encode("utf-8")


def write_dataset(dataset: Dataset, path: str | os.PathLike) -> Path:
    """Write ``dataset`` as SQuAD JSON (``mrclens.write_dataset``): the schema of the official SQuAD v1.1 / v2.0
    files (:meth:`QADataset.to_json`, UTF-8; :func:`dataset_bytes`), atomically (a temporary file renamed into
    place: a reader never sees half a file); a name ending in ``.gz`` is gzip-compressed (with a fixed
    timestamp, so the same dataset gives the same bytes). Every format MRCLens
    reads, and ``mrclens`` itself, read the file back.

    Args:
        dataset: the dataset to write.
        path: the file to write; its folder is created when missing.

    Returns:
        the path written.

    Raises:
        MRCLensError: ``path`` is the file the dataset was loaded from (the input is never overwritten).
        OutputError: ``path`` or its folder cannot be written (read-only, a parent is a file, ``path`` is a
            folder, the disk is full).
    """
    protect = (dataset.source,) if dataset.source else ()
    return atomic_write_bytes(path, dataset_bytes(dataset), protect=protect)
