"""SQuAD-format data: typed objects, loading with validation, atomic writing.

The schema is the one of the official SQuAD files (Rajpurkar et al. 2016, v1.1;
Rajpurkar, Jia & Liang 2018, v2.0)::

    {"version": "1.1", "data": [{"title": str, "paragraphs": [
        {"context": str, "qas": [
            {"id": str, "question": str, "is_impossible": bool (v2.0 only),
             "answers": [{"text": str, "answer_start": int}]}]}]}]}

``answer_start`` is a character offset into ``context`` (Python ``str`` indices,
i.e. Unicode code points). Integer question ids (as in some converted datasets)
are accepted and normalised to strings.
"""

from __future__ import annotations

import gzip
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from mrclens.errors import DataError, Msg, Problem
from mrclens.io_utils import atomic_write_bytes, gc_paused, read_bytes


@dataclass
class Answer:
    """A gold answer span: ``context[answer_start : answer_start + len(text)] == text`` (characters)."""

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


@dataclass
class Paragraph:
    """A context passage with its questions."""

    context: str
    questions: list[Question] = field(default_factory=list)


@dataclass
class Article:
    """A titled article (one Wikipedia page in SQuAD) with its paragraphs."""

    title: str
    paragraphs: list[Paragraph] = field(default_factory=list)


@dataclass
class Dataset:
    """A whole SQuAD-format file.

    Attributes:
        articles: the articles in file order.
        version: the file's ``version`` field (``None`` if absent).
        source: the path the dataset was loaded from, if any.
    """

    articles: list[Article]
    version: str | None = None
    source: str | None = None

    @property
    def is_v2(self) -> bool:
        """True when any question carries ``is_impossible`` (SQuAD v2.0 rules apply)."""
        return any(q.is_impossible is not None for _, _, q in self.iter_questions())

    def iter_paragraphs(self) -> Iterator[tuple[Article, Paragraph]]:
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
        return {q.id: q for _, _, q in self.iter_questions()}

    def counts(self) -> dict[str, int]:
        """Counts of articles, paragraphs, questions, gold answers and unanswerable questions.

        A question is unanswerable when it has no gold answer (``is_impossible``, or an
        empty answer list in a v2.0 file).
        """
        n_par = sum(len(a.paragraphs) for a in self.articles)
        qs = [q for _, _, q in self.iter_questions()]
        return {
            "articles": len(self.articles),
            "paragraphs": n_par,
            "questions": len(qs),
            "answers": sum(len(q.answers) for q in qs),
            "unanswerable": sum(1 for q in qs if not q.answers),
        }

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


# --------------------------------------------------------------------------- parsing


def _read_json(path: str) -> tuple[Any, list[Problem]]:
    try:
        raw = read_bytes(path)
    except (gzip.BadGzipFile, OSError) as err:
        if isinstance(err, FileNotFoundError):
            raise
        return None, [Problem(path, Msg.NOT_GZIP.format(err=err))]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        return None, [Problem(path, Msg.NOT_UTF8.format(err=err))]
    try:
        return json.loads(text), []
    except json.JSONDecodeError as err:
        return None, [Problem(path, Msg.NOT_JSON.format(err=err.msg, line=err.lineno, col=err.colno))]


def parse_squad(obj: Any, file: str = "<memory>") -> tuple[Dataset, list[Problem]]:
    """Build a :class:`Dataset` from a decoded SQuAD JSON object, collecting every problem.

    Items with problems are still included where possible, so that counts can be
    reported; callers that need valid data must check that the problem list is empty
    (see :func:`load_dataset`).

    Args:
        obj: the decoded JSON value.
        file: the file name to put in problem messages.

    Returns:
        ``(dataset, problems)``.
    """
    problems: list[Problem] = []
    if not isinstance(obj, dict):
        return Dataset([], None, file), [Problem(file, Msg.NOT_OBJECT.format(kind=type(obj).__name__))]
    data = obj.get("data")
    if not isinstance(data, list):
        return Dataset([], None, file), [Problem(file, Msg.NO_DATA)]
    version = obj.get("version")
    seen: dict[str, str] = {}
    articles: list[Article] = []
    for ai, raw_article in enumerate(data):
        if not isinstance(raw_article, dict):
            problems.append(Problem(file, Msg.ARTICLE_NOT_OBJECT.format(index=ai)))
            continue
        title = str(raw_article.get("title", f"#{ai}"))
        article = Article(title)
        raw_pars = raw_article.get("paragraphs")
        if not isinstance(raw_pars, list):
            problems.append(Problem(file, Msg.NO_PARAGRAPHS, title))
            continue
        for pi, raw_par in enumerate(raw_pars):
            if not isinstance(raw_par, dict):
                problems.append(Problem(file, Msg.PARAGRAPH_NOT_OBJECT.format(index=pi), title))
                continue
            context = raw_par.get("context")
            if not isinstance(context, str):
                problems.append(Problem(file, Msg.BAD_CONTEXT.format(index=pi), title))
                context = ""
            elif not context.strip():
                problems.append(Problem(file, Msg.EMPTY_CONTEXT.format(index=pi), title))
            paragraph = Paragraph(context)
            qas = raw_par.get("qas")
            if not isinstance(qas, list):
                problems.append(Problem(file, Msg.NO_QAS.format(index=pi), title))
                qas = []
            for qi, raw_q in enumerate(qas):
                question = _parse_question(raw_q, context, file, title, pi, qi, seen, problems)
                if question is not None:
                    paragraph.questions.append(question)
            article.paragraphs.append(paragraph)
        articles.append(article)
    return Dataset(articles, version if isinstance(version, str) else None, file), problems


def _parse_question(raw_q, context, file, title, pi, qi, seen, problems) -> Question | None:
    if not isinstance(raw_q, dict):
        problems.append(Problem(file, Msg.QA_NOT_OBJECT.format(index=pi, q_index=qi), title))
        return None
    raw_id = raw_q.get("id")
    if isinstance(raw_id, bool) or not isinstance(raw_id, (str, int)):
        problems.append(Problem(file, Msg.BAD_ID, title, f"<paragraph {pi}, question {qi}>"))
        qid = f"<paragraph {pi}, question {qi}>"
    else:
        qid = str(raw_id)
        if qid in seen:
            problems.append(Problem(file, Msg.DUPLICATE_ID.format(first_title=seen[qid]), title, qid))
        else:
            seen[qid] = title

    def bad(msg: str) -> None:
        problems.append(Problem(file, msg, title, qid))

    text = raw_q.get("question")
    if not isinstance(text, str):
        bad(Msg.BAD_QUESTION)
        text = ""
    elif not text.strip():
        bad(Msg.EMPTY_QUESTION)
    impossible = raw_q.get("is_impossible")
    if impossible is not None and not isinstance(impossible, bool):
        bad(Msg.BAD_IMPOSSIBLE.format(value=impossible))
        impossible = bool(impossible)
    raw_answers = raw_q.get("answers", [])
    answers: list[Answer] = []
    if not isinstance(raw_answers, list):
        bad(Msg.BAD_ANSWERS)
        raw_answers = []
    for ai, raw_a in enumerate(raw_answers):
        if not isinstance(raw_a, dict):
            bad(Msg.ANSWER_NOT_OBJECT.format(a_index=ai))
            continue
        a_text = raw_a.get("text")
        start = raw_a.get("answer_start")
        if not isinstance(a_text, str):
            bad(Msg.BAD_ANSWER_TEXT.format(a_index=ai))
            continue
        if isinstance(start, bool) or not isinstance(start, int):
            bad(Msg.BAD_ANSWER_START.format(a_index=ai, value=start))
            continue
        if start < 0 or start + len(a_text) > len(context):
            bad(Msg.ANSWER_OUTSIDE.format(a_index=ai, start=start, length=len(a_text), ctx_len=len(context)))
            continue
        found = context[start : start + len(a_text)]
        if found != a_text:
            bad(Msg.ANSWER_MISMATCH.format(a_index=ai, text=a_text, start=start, found=found))
            continue
        answers.append(Answer(a_text, start))
    if impossible:
        if raw_answers:
            bad(Msg.IMPOSSIBLE_WITH_ANSWERS.format(n=len(raw_answers)))
    elif not raw_answers:
        if impossible is None:
            bad(Msg.NO_ANSWERS)
        else:  # SQuAD v2.0 file: the official script treats an empty answer list as "no answer"
            problems.append(Problem(file, Msg.V2_NO_ANSWERS, title, qid, severity="warning"))
    known = {"id", "question", "answers", "is_impossible"}
    extra = {k: v for k, v in raw_q.items() if k not in known}
    return Question(qid, text, answers, impossible, extra)


def read_dataset(path: str | os.PathLike) -> tuple[Dataset, list[Problem]]:
    """Read a SQuAD ``.json`` or ``.json.gz`` file without raising on schema problems.

    Returns:
        ``(dataset, problems)``; see :func:`parse_squad`. Problems include warnings
        (``severity == "warning"``), which do not make the file invalid.

    Raises:
        FileNotFoundError: the file does not exist.
    """
    file = str(path)
    with gc_paused():
        obj, problems = _read_json(file)
        if problems:
            return Dataset([], None, file), problems
        return parse_squad(obj, file)


def load_dataset(path: str | os.PathLike) -> Dataset:
    """Load and validate a SQuAD v1.1/v2.0 file (``.json`` or ``.json.gz``).

    Warnings (see :class:`~mrclens.errors.Problem`) are not raised.

    Raises:
        DataError: the file is not valid JSON or breaks the schema; the error lists
            each problem with the file, article title and question id.
        FileNotFoundError: the file does not exist.
    """
    dataset, problems = read_dataset(path)
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        raise DataError(errors)
    return dataset


def write_dataset(dataset: Dataset, path: str | os.PathLike) -> Path:
    """Write ``dataset`` in the SQuAD schema, atomically; ``.gz`` names are gzip-compressed.

    Raises:
        MRCLensError: ``path`` is the file the dataset was loaded from.
    """
    text = json.dumps(dataset.to_json(), ensure_ascii=False)
    protect = (dataset.source,) if dataset.source else ()
    return atomic_write_bytes(path, text.encode("utf-8"), protect=protect)
