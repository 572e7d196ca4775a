"""The SQuAD schema check: a decoded SQuAD JSON object → :class:`~mrclens.squad.Dataset` and every problem.

The schema is the one of the official SQuAD files (Rajpurkar et al. 2016, v1.1;
Rajpurkar, Jia & Liang 2018, v2.0)::

    {"version": "1.1", "data": [{"title": str, "paragraphs": [
        {"context": str, "qas": [
            {"id": str, "question": str, "is_impossible": bool (v2.0 only),
             "answers": [{"text": str, "answer_start": int}]}]}]}]}

``answer_start`` is a character offset into ``context`` (Python ``str`` indices,
i.e. Unicode code points). Integer question ids (as in some converted datasets)
are accepted and normalised to strings. Every format reader of :mod:`mrclens.formats` builds this
object and checks it here (:func:`parse_squad`), so that problems read the same in every format:
file, article title, question id, what is wrong (the :class:`~mrclens.errors.Msg` templates).

Examples:
    >>> ds, problems = parse_squad({"data": [{"title": "T", "paragraphs": [{"context": "Abc def.",
    ...     "qas": [{"id": 1, "question": "What?", "answers": [{"text": "def", "answer_start": 3}]}]}]}]},
    ...     on_invalid="repair")
    >>> [str(p) for p in ds.notes]
    ["<memory>: article 'T': question 1: repaired: answer #0: moved answer_start 3 -> 4 (text 'def' found 1 character later)"]
    >>> problems, ds.counts()["answers"]
    ([], 1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from mrclens.errors import Msg, Problem
from mrclens.squad import Answer, Article, Dataset, Paragraph, Question

#: What to do with invalid questions (``--on-invalid``): refuse the file, skip them, or repair
#: misplaced answers and skip the rest.
ON_INVALID = ("refuse", "skip", "repair")
#: ``on_invalid="repair"`` moves an answer only when its exact text occurs at most this many
#: characters from ``answer_start`` (and at exactly one nearest place).
REPAIR_WINDOW = 5

_SURROGATES = re.compile("[\ud800-\udfff]")
#: The keys of a question item that :class:`~mrclens.squad.Question` has fields for; any other
#: key goes to :attr:`~mrclens.squad.Question.extra`.
_QUESTION_KEYS = {"id", "question", "answers", "is_impossible"}


def _surrogate(text: str) -> tuple[int, str] | None:
    """Position and escape of the first lone surrogate in ``text`` (which UTF-8 cannot encode)."""
    if text.isascii():
        return None
    m = _SURROGATES.search(text)
    return (m.start(), f"\\u{ord(m.group()):04x}") if m else None


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


@dataclass(frozen=True)
class RecordCounts:
    """What became of every record of one input (the record contract of :mod:`mrclens.formats.base`).

    Attributes:
        read: records in the input.
        kept: questions in the dataset.
        skipped: records left out under ``on_invalid="skip"``/``"repair"``, each with a note.
        dropped: records left out by a conversion rule of the format, counted by reason in
            :attr:`mrclens.formats.base.Loaded.counts`.
        refused: records with an error (the file is refused when there is any).
    """

    read: int
    kept: int
    skipped: int = 0
    dropped: int = 0
    refused: int = 0

    @property
    def balanced(self) -> bool:
        """``read == kept + skipped + dropped``: no record lost without a count (files without errors)."""
        return self.read == self.kept + self.skipped + self.dropped


def parse_squad(obj: Any, file: str = "<memory>", on_invalid: str = "refuse") -> tuple[Dataset, list[Problem]]:
    """Build a :class:`~mrclens.squad.Dataset` from a decoded SQuAD JSON object, collecting every problem.

    With ``on_invalid="refuse"`` items with problems are still included where possible, so
    that counts can be reported; callers that need valid data must check that the problem
    list is empty (see :func:`mrclens.formats.load_dataset`).

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
        on_invalid: ``"refuse"``, ``"skip"`` or ``"repair"`` (:data:`ON_INVALID`).

    Returns:
        ``(dataset, problems)``.

    Raises:
        ValueError: an unknown ``on_invalid``.
    """
    dataset, problems, _ = parse_squad_counted(obj, file, on_invalid)
    return dataset, problems


def parse_squad_counted(obj: Any, file: str = "<memory>",
                        on_invalid: str = "refuse") -> tuple[Dataset, list[Problem], RecordCounts]:
    """:func:`parse_squad`, with how its records were accounted for (:class:`RecordCounts`).

    A record is an element of a ``qas`` list, or a ``qas`` that is not a list (one record). ``kept``
    is the number of questions in the dataset (with ``"refuse"``, invalid ones included where
    possible), ``skipped`` the records left out with a note (``"skip"``/``"repair"``), ``refused``
    the records left out with an error (a question that is not an object, a ``qas`` that is not a
    list). Records under an article or paragraph that is refused as a whole are not counted.

    Raises:
        ValueError: an unknown ``on_invalid``.
    """
    if on_invalid not in ON_INVALID:
        raise ValueError(f"on_invalid must be one of {ON_INVALID}, got {on_invalid!r}")
    if not isinstance(obj, dict):
        return Dataset([], None, file), [Problem(file, Msg.NOT_OBJECT.format(kind=type(obj).__name__))], RecordCounts(0, 0)
    data = obj.get("data")
    if not isinstance(data, list):
        return Dataset([], None, file), [Problem(file, Msg.NO_DATA)], RecordCounts(0, 0)
    version = obj.get("version")
    parser = _SchemaParser(file, on_invalid)
    articles = [a for a in (parser.article(ai, raw) for ai, raw in enumerate(data)) if a is not None]
    dataset = Dataset(articles, version if isinstance(version, str) else None, file, parser.notes)
    kept = sum(len(p.questions) for a in articles for p in a.paragraphs)
    return dataset, parser.problems, RecordCounts(parser.read, kept, parser.skipped, refused=parser.refused)


@dataclass
class _SchemaParser:
    """The state of one :func:`parse_squad` pass: problems and notes so far, question ids seen."""

    file: str
    on_invalid: str
    problems: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)
    #: question id → title of the article it first appeared in (for duplicate-id messages).
    seen: dict[str, str] = field(default_factory=dict)
    #: records read, skipped with a note, refused with an error (:func:`parse_squad_counted`).
    read: int = 0
    skipped: int = 0
    refused: int = 0

    def article(self, ai: int, raw_article: Any) -> Article | None:
        """Article number ``ai``; ``None`` (left out, with its problem) when it is not an object
        or has no paragraph list."""
        if not isinstance(raw_article, dict):
            self.problems.append(Problem(self.file, Msg.ARTICLE_NOT_OBJECT.format(index=ai)))
            return None
        title = str(raw_article.get("title", f"#{ai}"))
        article = Article(title)
        where = _surrogate(title)
        if where:
            self.problems.append(Problem(self.file, Msg.SURROGATE.format(what="the title", pos=where[0], char=where[1]),
                                         title))
        raw_pars = raw_article.get("paragraphs")
        if not isinstance(raw_pars, list):
            self.problems.append(Problem(self.file, Msg.NO_PARAGRAPHS, title))
            return None
        for pi, raw_par in enumerate(raw_pars):
            paragraph = self.paragraph(title, pi, raw_par)
            if paragraph is not None:
                article.paragraphs.append(paragraph)
        return article

    def context(self, title: str, pi: int, raw_par: dict) -> str | None:
        """The paragraph's context, or ``None`` when it is unusable (its answers are then not
        checked: no follow-on error per answer)."""
        context = raw_par.get("context")
        if not isinstance(context, str):
            self.problems.append(Problem(self.file, Msg.BAD_CONTEXT.format(index=pi), title))
            return None
        if not context.strip():
            self.problems.append(Problem(self.file, Msg.EMPTY_CONTEXT.format(index=pi), title))
            return None
        where = _surrogate(context)
        if where:
            self.problems.append(Problem(self.file, Msg.SURROGATE.format(what=f"paragraph #{pi}: the context",
                                                                         pos=where[0], char=where[1]), title))
        return context

    def paragraph(self, title: str, pi: int, raw_par: Any) -> Paragraph | None:
        """Paragraph number ``pi`` of the article ``title``; ``None`` when it is left out (not an
        object; or, with ``"skip"``/``"repair"``, a paragraph error: its questions become notes)."""
        if not isinstance(raw_par, dict):
            self.problems.append(Problem(self.file, Msg.PARAGRAPH_NOT_OBJECT.format(index=pi), title))
            return None
        problems, refuse = self.problems, self.on_invalid == "refuse"
        n_before = len(problems)
        context = self.context(title, pi, raw_par)
        paragraph = Paragraph(context if context is not None else "")
        qas = raw_par.get("qas")
        qas_unreadable = not isinstance(qas, list)
        if qas_unreadable:
            problems.append(Problem(self.file, Msg.NO_QAS.format(index=pi), title))
            qas = []
        self.read += len(qas) + qas_unreadable
        paragraph_errors = problems[n_before:]
        for qi, raw_q in enumerate(qas):
            q_before = len(problems)
            question = self.question(raw_q, context, title, pi, qi)
            errors = [p for p in problems[q_before:] if p.severity == "error"]
            if not refuse and (errors or paragraph_errors):
                # not even an object: nothing to name but its place
                qid = f"<paragraph {pi}, question {qi}>" if question is None else question.id
                reasons = "; ".join(p.message for p in (paragraph_errors + errors))
                self.notes.append(Problem(self.file, f"skipped: {reasons}", title, qid, severity="skipped"))
                self.skipped += 1
                del problems[q_before:]
                continue
            if question is not None:
                paragraph.questions.append(question)
            else:
                self.refused += 1
        if not refuse and paragraph_errors:
            del problems[n_before:n_before + len(paragraph_errors)]
            if not qas:
                self.notes.append(Problem(self.file, "skipped: " + "; ".join(p.message for p in paragraph_errors),
                                          title, severity="skipped"))
                self.skipped += qas_unreadable
            return None
        self.refused += qas_unreadable
        return paragraph

    def question_id(self, raw_q: dict, title: str, pi: int, qi: int) -> str:
        """The question's id as a string (its place when the id is missing or empty)."""
        raw_id = raw_q.get("id")
        if isinstance(raw_id, bool) or not isinstance(raw_id, (str, int)):
            self.problems.append(Problem(self.file, Msg.BAD_ID, title, f"<paragraph {pi}, question {qi}>"))
            return f"<paragraph {pi}, question {qi}>"
        if isinstance(raw_id, str) and not raw_id.strip():
            qid = f"<paragraph {pi}, question {qi}>"
            self.problems.append(Problem(self.file, Msg.EMPTY_ID, title, qid))
            return qid
        qid = str(raw_id)
        if qid in self.seen:
            self.problems.append(Problem(self.file, Msg.DUPLICATE_ID.format(first_title=self.seen[qid]), title, qid))
        else:
            self.seen[qid] = title
        return qid

    def question(self, raw_q: Any, context: str | None, title: str, pi: int, qi: int) -> Question | None:
        """One question; ``context`` is ``None`` when the paragraph's context is unusable (answers
        are then not checked). With ``"repair"``, misplaced answers are moved when possible and
        each move is noted."""
        if not isinstance(raw_q, dict):
            self.problems.append(Problem(self.file, Msg.QA_NOT_OBJECT.format(index=pi, q_index=qi), title))
            return None
        qid = self.question_id(raw_q, title, pi, qi)

        def bad(msg: str) -> None:
            self.problems.append(Problem(self.file, msg, title, qid))

        where = _surrogate(qid)
        if where:
            bad(Msg.SURROGATE.format(what="the id", pos=where[0], char=where[1]))
        text = _question_text(raw_q, bad)
        impossible = raw_q.get("is_impossible")
        if impossible is not None and not isinstance(impossible, bool):
            bad(Msg.BAD_IMPOSSIBLE.format(value=impossible))
            impossible = bool(impossible)
        raw_answers = raw_q.get("answers", [])
        if not isinstance(raw_answers, list):
            bad(Msg.BAD_ANSWERS)
            raw_answers = []
        repaired = (lambda msg: self.notes.append(Problem(self.file, msg, title, qid, severity="repaired"))
                    ) if self.on_invalid == "repair" else None
        answers = _answers(raw_answers, context, bad, repaired)
        if impossible:
            if raw_answers:
                bad(Msg.IMPOSSIBLE_WITH_ANSWERS.format(n=len(raw_answers)))
        elif not raw_answers:
            if impossible is None:
                bad(Msg.NO_ANSWERS)
            else:  # SQuAD v2.0 file: the official script treats an empty answer list as "no answer"
                self.problems.append(Problem(self.file, Msg.V2_NO_ANSWERS, title, qid, severity="warning"))
        extra = {k: v for k, v in raw_q.items() if k not in _QUESTION_KEYS}
        invalid = len(raw_answers) - len(answers) if not impossible else 0
        return Question(qid, text, answers, impossible, extra, invalid_answers=invalid)


def _question_text(raw_q: dict, bad: Callable[[str], None]) -> str:
    """The question text (``""`` when it is not a string); problems go to ``bad``."""
    text = raw_q.get("question")
    if not isinstance(text, str):
        bad(Msg.BAD_QUESTION)
        return ""
    if not text.strip():
        bad(Msg.EMPTY_QUESTION)
    elif _surrogate(text):
        where = _surrogate(text)
        bad(Msg.SURROGATE.format(what="the question", pos=where[0], char=where[1]))
    return text


def _answers(raw_answers: list, context: str | None, bad: Callable[[str], None],
             repaired: Callable[[str], None] | None) -> list[Answer]:
    """The valid answers of one question (moved ones included); each invalid answer is reported to
    ``bad``, each move to ``repaired`` (moves are made only when it is given)."""
    answers: list[Answer] = []
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
            moved = _nearest_occurrence(context, a_text, start) if repaired is not None else None
            if moved is not None:
                shift = moved - start
                repaired(f"repaired: answer #{ai}: moved answer_start {start} -> {moved} (text {a_text!r} found "
                         f"{abs(shift)} character{'s' if abs(shift) != 1 else ''} {'later' if shift > 0 else 'earlier'})")
                answers.append(Answer(a_text, moved))
                continue
            if outside:
                bad(Msg.ANSWER_OUTSIDE.format(a_index=ai, start=start, length=len(a_text), ctx_len=len(context)))
            else:
                found = context[start : start + len(a_text)]
                bad(Msg.ANSWER_MISMATCH.format(a_index=ai, text=a_text, start=start, found=found))
            continue
        answers.append(Answer(a_text, start))
    return answers
