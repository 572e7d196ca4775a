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
import re
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
    #: answers given in the file but left out of :attr:`answers` because they are invalid
    #: (counted by :meth:`Dataset.counts`, so that validation counts what the file holds).
    invalid_answers: int = field(default=0, compare=False, repr=False)


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
    #: what ``on_invalid="skip"``/``"repair"`` did when loading: one :class:`~mrclens.errors.Problem`
    #: per skipped question (severity ``"skipped"``) and per moved answer (``"repaired"``).
    notes: list[Problem] = field(default_factory=list, compare=False, repr=False)

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


ON_INVALID = ("refuse", "skip", "repair")
#: ``on_invalid="repair"`` moves an answer only when its exact text occurs at most this many
#: characters from ``answer_start`` (and at exactly one nearest place).
REPAIR_WINDOW = 5


def _read_json(path: str) -> tuple[Any, list[Problem]]:
    try:
        raw = read_bytes(path)
    except (gzip.BadGzipFile, OSError) as err:
        if isinstance(err, FileNotFoundError):
            raise
        if not isinstance(err, gzip.BadGzipFile):
            raise DataError([Problem(path, f"cannot be read: {err.strerror or err}")]) from None
        return None, [Problem(path, Msg.NOT_GZIP.format(err=err))]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        return None, [Problem(path, Msg.NOT_UTF8.format(err=err))]
    try:
        return json.loads(text), []
    except json.JSONDecodeError as err:
        return None, [Problem(path, Msg.NOT_JSON.format(err=err.msg, line=err.lineno, col=err.colno))]
    except RecursionError:
        return None, [Problem(path, Msg.NOT_JSON.format(err="nested too deeply", line="?", col="?"))]


def _surrogate(text: str) -> tuple[int, str] | None:
    """Position and escape of the first lone surrogate in ``text`` (which UTF-8 cannot encode)."""
    if text.isascii():
        return None
    m = _SURROGATES.search(text)
    return (m.start(), f"\\u{ord(m.group()):04x}") if m else None


_SURROGATES = re.compile("[\ud800-\udfff]")


def _nearest_occurrence(context: str, text: str, start: int) -> int | None:
    """The start of the one occurrence of ``text`` nearest ``start`` within :data:`REPAIR_WINDOW`
    characters (``None`` when there is none, or two are equally near)."""
    lo = max(0, start - REPAIR_WINDOW)
    hi = min(len(context), start + REPAIR_WINDOW + len(text))
    found, i = [], context.find(text, lo, hi)
    while i != -1:
        found.append(i)
        i = context.find(text, i + 1, hi)
    if not found:
        return None
    found.sort(key=lambda j: abs(j - start))
    if len(found) > 1 and abs(found[0] - start) == abs(found[1] - start):
        return None
    return found[0]


def parse_squad(obj: Any, file: str = "<memory>", on_invalid: str = "refuse") -> tuple[Dataset, list[Problem]]:
    """Build a :class:`Dataset` from a decoded SQuAD JSON object, collecting every problem.

    With ``on_invalid="refuse"`` items with problems are still included where possible, so
    that counts can be reported; callers that need valid data must check that the problem
    list is empty (see :func:`load_dataset`).

    With ``"skip"`` every question with an error (or in a paragraph with an error, e.g. a
    missing context) is left out and listed in :attr:`Dataset.notes` with its reason; the
    errors it had are not returned as problems. ``"repair"`` first moves an answer whose
    exact text occurs within :data:`REPAIR_WINDOW` characters of its ``answer_start`` (each
    move listed in the notes), then skips what is still invalid. Errors about the file as a
    whole (not JSON, no ``data`` list) and above the paragraph (an article or paragraph that
    is not an object, an article without a paragraph list, a title that is not valid Unicode)
    are returned in every mode.

    Args:
        obj: the decoded JSON value.
        file: the file name to put in problem messages.
        on_invalid: ``"refuse"``, ``"skip"`` or ``"repair"``.

    Returns:
        ``(dataset, problems)``.
    """
    if on_invalid not in ON_INVALID:
        raise ValueError(f"on_invalid must be one of {ON_INVALID}, got {on_invalid!r}")
    problems: list[Problem] = []
    if not isinstance(obj, dict):
        return Dataset([], None, file), [Problem(file, Msg.NOT_OBJECT.format(kind=type(obj).__name__))]
    data = obj.get("data")
    if not isinstance(data, list):
        return Dataset([], None, file), [Problem(file, Msg.NO_DATA)]
    version = obj.get("version")
    seen: dict[str, str] = {}
    articles: list[Article] = []
    notes: list[Problem] = []
    repair = on_invalid == "repair"
    for ai, raw_article in enumerate(data):
        if not isinstance(raw_article, dict):
            problems.append(Problem(file, Msg.ARTICLE_NOT_OBJECT.format(index=ai)))
            continue
        title = str(raw_article.get("title", f"#{ai}"))
        article = Article(title)
        where = _surrogate(title)
        if where:
            problems.append(Problem(file, Msg.SURROGATE.format(what="the title", pos=where[0], char=where[1]), title))
        raw_pars = raw_article.get("paragraphs")
        if not isinstance(raw_pars, list):
            problems.append(Problem(file, Msg.NO_PARAGRAPHS, title))
            continue
        for pi, raw_par in enumerate(raw_pars):
            if not isinstance(raw_par, dict):
                problems.append(Problem(file, Msg.PARAGRAPH_NOT_OBJECT.format(index=pi), title))
                continue
            n_before = len(problems)
            context = raw_par.get("context")
            if not isinstance(context, str):
                problems.append(Problem(file, Msg.BAD_CONTEXT.format(index=pi), title))
                context = None  # its answers cannot be checked: no follow-on error per answer
            elif not context.strip():
                problems.append(Problem(file, Msg.EMPTY_CONTEXT.format(index=pi), title))
                context = None
            else:
                where = _surrogate(context)
                if where:
                    problems.append(Problem(file, Msg.SURROGATE.format(what=f"paragraph #{pi}: the context",
                                                                       pos=where[0], char=where[1]), title))
            paragraph = Paragraph(context if context is not None else "")
            qas = raw_par.get("qas")
            if not isinstance(qas, list):
                problems.append(Problem(file, Msg.NO_QAS.format(index=pi), title))
                qas = []
            paragraph_errors = problems[n_before:]
            for qi, raw_q in enumerate(qas):
                q_before = len(problems)
                question = _parse_question(raw_q, context, file, title, pi, qi, seen, problems, notes if repair else None)
                errors = [p for p in problems[q_before:] if p.severity == "error"]
                if on_invalid != "refuse" and (errors or paragraph_errors):
                    if question is None:  # not even an object: nothing to name but its place
                        qid = f"<paragraph {pi}, question {qi}>"
                    else:
                        qid = question.id
                    reasons = "; ".join(p.message for p in (paragraph_errors + errors))
                    notes.append(Problem(file, f"skipped: {reasons}", title, qid, severity="skipped"))
                    del problems[q_before:]
                    continue
                if question is not None:
                    paragraph.questions.append(question)
            if on_invalid != "refuse" and paragraph_errors:
                del problems[n_before:n_before + len(paragraph_errors)]
                if not qas:
                    notes.append(Problem(file, "skipped: " + "; ".join(p.message for p in paragraph_errors), title,
                                         severity="skipped"))
                continue
            article.paragraphs.append(paragraph)
        articles.append(article)
    dataset = Dataset(articles, version if isinstance(version, str) else None, file, notes)
    return dataset, problems


def _parse_question(raw_q, context, file, title, pi, qi, seen, problems, repairs=None) -> Question | None:
    """One question; ``context`` is ``None`` when the paragraph's context is unusable (answers
    are then not checked). With ``repairs`` (a list), misplaced answers are moved when possible
    and each move is appended there."""
    if not isinstance(raw_q, dict):
        problems.append(Problem(file, Msg.QA_NOT_OBJECT.format(index=pi, q_index=qi), title))
        return None
    raw_id = raw_q.get("id")
    if isinstance(raw_id, bool) or not isinstance(raw_id, (str, int)):
        problems.append(Problem(file, Msg.BAD_ID, title, f"<paragraph {pi}, question {qi}>"))
        qid = f"<paragraph {pi}, question {qi}>"
    elif isinstance(raw_id, str) and not raw_id.strip():
        qid = f"<paragraph {pi}, question {qi}>"
        problems.append(Problem(file, Msg.EMPTY_ID, title, qid))
    else:
        qid = str(raw_id)
        if qid in seen:
            problems.append(Problem(file, Msg.DUPLICATE_ID.format(first_title=seen[qid]), title, qid))
        else:
            seen[qid] = title

    def bad(msg: str) -> None:
        problems.append(Problem(file, msg, title, qid))

    where = _surrogate(qid)
    if where:
        bad(Msg.SURROGATE.format(what="the id", pos=where[0], char=where[1]))
    text = raw_q.get("question")
    if not isinstance(text, str):
        bad(Msg.BAD_QUESTION)
        text = ""
    elif not text.strip():
        bad(Msg.EMPTY_QUESTION)
    elif _surrogate(text):
        where = _surrogate(text)
        bad(Msg.SURROGATE.format(what="the question", pos=where[0], char=where[1]))
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
        if not a_text.strip():
            bad(Msg.EMPTY_ANSWER_TEXT.format(a_index=ai))
            continue
        if isinstance(start, bool) or not isinstance(start, int):
            bad(Msg.BAD_ANSWER_START.format(a_index=ai, value=start))
            continue
        if context is None:
            continue
        where = _surrogate(a_text)
        if where:
            bad(Msg.SURROGATE.format(what=f"answer #{ai}", pos=where[0], char=where[1]))
            continue
        outside = start < 0 or start + len(a_text) > len(context)
        if outside or context[start : start + len(a_text)] != a_text:
            moved = _nearest_occurrence(context, a_text, start) if repairs is not None else None
            if moved is not None:
                shift = moved - start
                repairs.append(Problem(file, (
                    f"repaired: answer #{ai}: moved answer_start {start} -> {moved} (text {a_text!r} found "
                    f"{abs(shift)} character{'s' if abs(shift) != 1 else ''} {'later' if shift > 0 else 'earlier'})"),
                    title, qid, severity="repaired"))
                answers.append(Answer(a_text, moved))
                continue
            if outside:
                bad(Msg.ANSWER_OUTSIDE.format(a_index=ai, start=start, length=len(a_text), ctx_len=len(context)))
            else:
                found = context[start : start + len(a_text)]
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
    invalid = len(raw_answers) - len(answers) if not impossible else 0
    return Question(qid, text, answers, impossible, extra, invalid_answers=invalid)


def read_dataset(path: str | os.PathLike, on_invalid: str = "refuse") -> tuple[Dataset, list[Problem]]:
    """Read a SQuAD ``.json`` or ``.json.gz`` file without raising on schema problems.

    Args:
        on_invalid: ``"refuse"``, ``"skip"`` or ``"repair"`` (see :func:`parse_squad`).

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
        return parse_squad(obj, file, on_invalid)


def load_dataset(path: str | os.PathLike, on_invalid: str = "refuse") -> Dataset:
    """Load and validate a SQuAD v1.1/v2.0 file (``.json`` or ``.json.gz``).

    Warnings (see :class:`~mrclens.errors.Problem`) are not raised.

    Args:
        on_invalid: ``"refuse"`` (default): any error raises :class:`DataError`; ``"skip"``:
            invalid questions are left out; ``"repair"``: misplaced answers are moved where
            possible, the rest is skipped. What was skipped or repaired is listed in
            :attr:`Dataset.notes`.

    Raises:
        DataError: the file is not valid JSON or breaks the schema (with ``"skip"``/``"repair"``:
            only problems about the whole file, or no question left); the error lists each
            problem with the file, article title and question id.
        FileNotFoundError: the file does not exist.
    """
    dataset, problems = read_dataset(path, on_invalid)
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        raise DataError(errors)
    if on_invalid != "refuse" and dataset.notes and not any(True for _ in dataset.iter_questions()):
        raise DataError([Problem(str(path), f"no valid question left after --on-invalid {on_invalid} "
                                            f"({len(dataset.notes):,} skipped)")])
    return dataset


def write_dataset(dataset: Dataset, path: str | os.PathLike) -> Path:
    """Write ``dataset`` in the SQuAD schema, atomically; ``.gz`` names are gzip-compressed.

    Raises:
        MRCLensError: ``path`` is the file the dataset was loaded from.
    """
    text = json.dumps(dataset.to_json(), ensure_ascii=False)
    protect = (dataset.source,) if dataset.source else ()
    return atomic_write_bytes(path, text.encode("utf-8"), protect=protect)
