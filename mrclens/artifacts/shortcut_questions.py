"""``shortcut-questions.jsonl``: per question, the evidence that it carries each bias category's shortcut.

Written by ``mrclens stats --evidence FILE`` and by ``mrclens audit`` into its output folder (the evidence is
computed by :func:`mrclens.stats.evidence.shortcut_evidence`, from the data alone: no reader); read back by
:func:`read_shortcut_questions` (e.g. to drop or keep the flagged questions). JSON Lines, UTF-8, one object per
question of the data, in file order (format version :data:`FORMAT_VERSION`, on every line, so that the file is
one flat table: ``datasets.load_dataset("json", data_files=...)`` reads it as it is)::

    {"format_version": 1, "id": "5733be28…", "title": "University_of_Notre_Dame", "answerable": true,
     "Similarity": {"flagged": false, "strength": 0.18, "most_similar": true, "margin": 0.21, …},
     "Question":   {"flagged": false, "strength": 0.0, "asked_type": "date", …},
     "Keyword":    {"flagged": false, "strength": 0.0, "content_words": 5, …},
     "Position":   {"flagged": false, "strength": 0.0, "sentence_index": 3, "sentences": 7, …}}

Each category's object has ``flagged`` (the evidence is strong enough to say the question carries the
shortcut: ``strength`` at or above the category's fitted threshold, :data:`mrclens.stats.evidence.RULES`),
``strength`` (0–1) and the evidence fields of its record class here (:class:`SimilarityEvidence`,
:class:`QuestionEvidence`, :class:`KeywordEvidence`, :class:`PositionEvidence`; each field's definition is in
its class's docstring and in ``docs/stats-and-check.md``, "Which questions carry a shortcut"). An unanswerable
question (SQuAD v2.0) has ``"answerable": false`` and ``null`` for every category: the evidence reads the
answer. Offsets and sentence indices are those of the answer's first gold answer, on the context's visible
text (:meth:`mrclens.squad.QADataset.visible`).

Examples:
    >>> import tempfile, os
    >>> rows = [ShortcutQuestion("q1", "T", True,
    ...     SimilarityEvidence(True, 0.9, True, 0.4, 0.8, 7, 9, 10),
    ...     QuestionEvidence(False, 0.0, "date", "1901", False, 3, None, 0),
    ...     KeywordEvidence(False, 0.25, 4, 3, ["tower"], ["tower"]),
    ...     PositionEvidence(False, 0.0, 2, 5, False)), ShortcutQuestion("q2", "T", False)]
    >>> path = write_shortcut_questions(os.path.join(tempfile.mkdtemp(), "shortcut-questions.jsonl"), rows)
    >>> read_shortcut_questions(path) == rows
    True
    >>> rows[0].flagged_categories()
    ['Similarity']
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Iterable

from mrclens.artifacts import _files
from mrclens.artifacts.layout import SHORTCUT_QUESTIONS
from mrclens.errors import ArtifactError, ArtifactMsg, DuplicateKeyError
from mrclens.io_utils import atomic_write_bytes, json_text, loads_unique, read_bytes

#: The format this MRCLens writes and the newest it reads.
FORMAT_VERSION = 1


@dataclass(frozen=True)
class SimilarityEvidence:
    """Similarity: the answer sentence is the one most like the question (Sugawara et al. 2018), by TF-IDF
    cosine, and repeats the question's words in their order.

    Attributes:
        flagged: ``strength`` is at or above the Similarity threshold.
        strength: ``ordered_run / question_words`` (0–1) when the answer sentence is the most similar, else 0:
            how much of the question the answer sentence repeats in one run.
        most_similar: the answer sentence is the sentence unit of the context most TF-IDF-similar to the
            question (ties go to the earliest unit; :mod:`mrclens.stats.similarity`, the weighting of
            ``mrclens stats``).
        margin: the answer sentence's cosine minus the highest cosine of any other sentence unit (negative when
            another unit is more similar); ``None`` for a context of one unit.
        cosine: the answer sentence's TF-IDF cosine with the question (0–1).
        shared_ngram: the longest run of consecutive word tokens shared by the question and the answer sentence
            (word tokens: lower-cased ``\\w+``; :func:`mrclens.stats.overlap.longest_shared_ngram`, after Bartolo
            et al. 2020, "Beat the AI").
        ordered_run: the longest run of consecutive word tokens of the answer sentence that repeats words of the
            question in the question's order, question words skipped allowed, wh-words left out
            (:func:`mrclens.stats.evidence.longest_ordered_run`).
        question_words: the question's word tokens other than wh-words.
    """

    category: ClassVar[str] = "Similarity"
    flagged: bool
    strength: float
    most_similar: bool
    margin: float | None
    cosine: float
    shared_ngram: int
    ordered_run: int
    question_words: int


@dataclass(frozen=True)
class QuestionEvidence:
    """Question: the answer can be found without reading the question beyond its wh-word (Weissenborn et al.
    2017): its type leaves a single candidate, or marks around it single it out.

    Attributes:
        flagged: ``strength`` is at or above the Question threshold.
        strength: ``1 / k`` (0–1), ``k`` the candidates a question-free rule leaves when it finds the answer:
            the larger of ``1 / typed_candidates`` (when ``typed_exact``) and ``1 / marked_spans`` (when
            ``marks``); 0 when neither finds it.
        asked_type: the answer type the question's wh-word asks for (``date``, ``number``, ``person``,
            ``location``, ``clause``, ``entity``; :func:`mrclens.stats.heuristics.answer_type.expected_answer_type`).
        typed_answer: the type-matched heuristic's answer (baseline (b) of ``mrclens stats``: the span of the
            asked type in the most similar sentence unit; :mod:`mrclens.stats.heuristics.type_matched`).
        typed_exact: ``typed_answer`` matches a gold answer exactly (official SQuAD normalisation).
        typed_candidates: the distinct candidate spans (normalised text) in the whole context of the type
            group the heuristic answered from (0 when it fell back to the first words of the sentence).
        marks: the pair of marks right around the answer span (``""``, ``“”``, ``«»``, ``()``, ``[]``, ``''``,
            ``‘’``; spaces inside allowed), or ``None``.
        marked_spans: the spans of the context between that pair of marks (0 without ``marks``).
    """

    category: ClassVar[str] = "Question"
    flagged: bool
    strength: float
    asked_type: str
    typed_answer: str | None
    typed_exact: bool
    typed_candidates: int
    marks: str | None
    marked_spans: int


@dataclass(frozen=True)
class KeywordEvidence:
    """Keyword: the question's content words sit right next to the answer span (Zhong, Wang & Xing 2022, e6–e8).

    Attributes:
        flagged: ``strength`` is at or above the Keyword threshold.
        strength: ``len(next_to_answer) / content_words`` (0–1; 0 for a question without content words).
        content_words: the question's distinct content words (word tokens that are no stop word, wh-word or
            one-character number; :func:`mrclens.stats.text.is_content_word`).
        in_answer_sentence: how many of them occur in the answer sentence.
        only_in_answer_sentence: those that occur in the answer sentence and in no other sentence unit.
        next_to_answer: those in the runs of the question's content words right before and right after the
            answer span (every word token of a run is one of them: any other word, a stop word included, ends
            the run; inside the answer sentence), in context order.
    """

    category: ClassVar[str] = "Keyword"
    flagged: bool
    strength: float
    content_words: int
    in_answer_sentence: int
    only_in_answer_sentence: list[str]
    next_to_answer: list[str]


@dataclass(frozen=True)
class PositionEvidence:
    """Position: the answer sits in the context's first sentence (Ko et al. 2020, "Look at the First Sentence").

    Attributes:
        flagged: ``strength`` is at or above the Position threshold.
        strength: ``1 − 1 / sentences`` when the answer is in the first sentence unit, else 0: how unlikely the
            first sentence is by chance (0 for a context of one unit).
        sentence_index: the index of the answer's sentence unit (0 = first; :func:`mrclens.units.sentence_units`).
        sentences: the context's sentence units.
        in_first_sentence: ``sentence_index == 0``.
    """

    category: ClassVar[str] = "Position"
    flagged: bool
    strength: float
    sentence_index: int
    sentences: int
    in_first_sentence: bool


#: The record class of each category, in report order (:data:`mrclens.categories.CATEGORIES`).
EVIDENCE_CLASSES: tuple[type, ...] = (SimilarityEvidence, QuestionEvidence, KeywordEvidence, PositionEvidence)
Evidence = SimilarityEvidence | QuestionEvidence | KeywordEvidence | PositionEvidence


@dataclass
class ShortcutQuestion:
    """One line of ``shortcut-questions.jsonl``: a question and its evidence per bias category.

    Attributes:
        id: the question id, as in the data.
        title: its article's title.
        answerable: it has a gold answer (the evidence reads the first one); ``False``: every category is ``None``.
        similarity / question / keyword / position: the evidence of each category; ``None`` when unanswerable, or
            when no sentence unit holds the first gold answer (an empty answer text).
    """

    id: str
    title: str
    answerable: bool
    similarity: SimilarityEvidence | None = None
    question: QuestionEvidence | None = None
    keyword: KeywordEvidence | None = None
    position: PositionEvidence | None = None
    _fields: ClassVar[tuple[str, ...]] = ("similarity", "question", "keyword", "position")

    def evidence(self) -> list[Evidence]:
        """The categories' evidence, in report order (empty for an unanswerable question)."""
        return [e for e in (getattr(self, f) for f in self._fields) if e is not None]

    def of(self, category: str) -> Evidence | None:
        """The evidence of ``category`` (a name of :data:`mrclens.categories.CATEGORIES`), or ``None``.

        Raises:
            KeyError: ``category`` has no evidence record (:data:`EVIDENCE_CLASSES`).
        """
        for name, cls in zip(self._fields, EVIDENCE_CLASSES):
            if cls.category == category:
                return getattr(self, name)
        raise KeyError(f"no per-question evidence for the category {category!r}")

    def flagged_categories(self) -> list[str]:
        """The categories whose evidence is flagged, in report order."""
        return [e.category for e in self.evidence() if e.flagged]

    def to_json(self) -> dict[str, Any]:
        """The line's object (the module docstring's layout)."""
        obj: dict[str, Any] = {"format_version": FORMAT_VERSION, "id": self.id, "title": self.title,
                               "answerable": self.answerable}
        for name, cls in zip(self._fields, EVIDENCE_CLASSES):
            e = getattr(self, name)
            obj[cls.category] = None if e is None else dataclasses.asdict(e)
        return obj


def evidence_fields(cls: type) -> list[str]:
    """The JSON fields of a category's evidence object, in file order (``flagged``, ``strength``, then its own).

    >>> evidence_fields(PositionEvidence)
    ['flagged', 'strength', 'sentence_index', 'sentences', 'in_first_sentence']
    """
    return [f.name for f in dataclasses.fields(cls)]


def write_shortcut_questions(path: str | os.PathLike, rows: Iterable[ShortcutQuestion], *,
                             protect: tuple[str | os.PathLike, ...] = ()) -> Path:
    """Write ``rows`` to ``path`` as JSON Lines, atomically (one object per line, keys in the documented order).

    Args:
        protect: input files that must never be overwritten (:func:`mrclens.io_utils.atomic_write_bytes`).

    Raises:
        InternalError: a strength or cosine is not finite (a bug; nothing is written).
        MRCLensError, OutputError: as :func:`mrclens.io_utils.atomic_write_bytes`.
    """
    text = "".join(json_text(row.to_json(), what=path, ensure_ascii=False) + "\n" for row in rows)
    return atomic_write_bytes(path, text.encode("utf-8"), protect=protect)


#: A field's annotation (a string: ``from __future__ import annotations``) → the JSON types it accepts.
_TYPES: dict[str, tuple[type, ...]] = {"bool": (bool,), "float": (float,), "int": (int,), "str": (str,),
                                       "float | None": (float, type(None)), "str | None": (str, type(None)),
                                       "list[str]": (list,)}


def _evidence(cls: type, obj: Any, path: Path, where: str) -> Any:
    if obj is None:
        return None
    values = {}
    for f in dataclasses.fields(cls):
        value = _files.field(obj, f.name, _TYPES[f.type], path, where)
        if f.type == "list[str]" and not all(isinstance(w, str) for w in value):
            raise ArtifactError(ArtifactMsg.BAD_FIELD.format(path=path, where=where, field=f.name,
                                                             expected="a list of strings"))
        values[f.name] = value
    return cls(**values)


def read_shortcut_questions(path: str | os.PathLike) -> list[ShortcutQuestion]:
    """Read a ``shortcut-questions.jsonl`` file (every line checked: version, types, no key twice).

    Raises:
        ArtifactError: the file is missing, not UTF-8, a line is not a JSON object, holds a key twice, is of a
            newer format version, or a field is missing or of the wrong type (named with its line and field).
    """
    path = Path(path)
    if not path.is_file():
        raise ArtifactError(ArtifactMsg.MISSING.format(
            path=path, hint="run `mrclens stats DATA --evidence FILE` or `mrclens audit` to write it"))
    try:
        lines = read_bytes(path).decode("utf-8").splitlines()
    except (UnicodeDecodeError, OSError) as err:
        raise ArtifactError(ArtifactMsg.NOT_JSON.format(path=path, err=err)) from None
    rows = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"line {n}: "
        try:
            obj = loads_unique(line)
        except DuplicateKeyError as err:
            raise ArtifactError(ArtifactMsg.DUPLICATE_KEY.format(path=path, key=err.key, where=f" on line {n}")) from None
        except json.JSONDecodeError as err:
            raise ArtifactError(ArtifactMsg.NOT_JSON.format(path=path, err=f"line {n}: {err}")) from None
        if not isinstance(obj, dict):
            raise ArtifactError(ArtifactMsg.BAD_SHAPE.format(path=path, expected=f"{where}a JSON object"))
        _files.check_version(obj, path, FORMAT_VERSION)
        row = ShortcutQuestion(_files.field(obj, "id", str, path, where), _files.field(obj, "title", str, path, where),
                               _files.field(obj, "answerable", bool, path, where))
        for name, cls in zip(ShortcutQuestion._fields, EVIDENCE_CLASSES):
            sub = _files.field(obj, cls.category, (dict, type(None)), path, where)
            setattr(row, name, _evidence(cls, sub, path, f"{where}{cls.category}: "))
        rows.append(row)
    return rows


__all__ = ["EVIDENCE_CLASSES", "FORMAT_VERSION", "SHORTCUT_QUESTIONS", "KeywordEvidence", "PositionEvidence",
           "QuestionEvidence", "ShortcutQuestion", "SimilarityEvidence", "evidence_fields",
           "read_shortcut_questions", "write_shortcut_questions"]
