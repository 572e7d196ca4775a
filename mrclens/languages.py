"""Which language a span dataset is in, and whether MRCLens can read it (MRCLens issue 32).

Every figure, ablation and verdict of MRCLens reads English: the spaCy pipeline
(``en_core_web_sm``: sentences, POS, entities), the English wh-words and stop words, the
GloVe vectors of the reader and the SQuAD reference. On other languages they give confident
false findings (XQuAD Chinese: one "sentence" per paragraph, every question of type "other").
So ``mrclens audit``, ``perturb``, ``stats`` and ``check`` ask :func:`require_readable_language`
first, before any work; data that is not English stops them with exit code 2 and one line
naming the language and its share. ``stats`` and ``check`` accept ``--language-ok``: then only
the figures that read no words run (:data:`LANGUAGE_FREE_FIGURES`; the README's "Languages"
table, :data:`SUPPORT`), and for data in a language of :data:`SENTENCIZER` (Spanish, Russian,
Arabic: scripts that end sentences with punctuation and separate words by spaces) the
chance-corrected ranks measured to agree with English when read with spaCy's rule-based
sentencizer (:data:`SENTENCIZER_FIGURES`; :mod:`mrclens.stats.sentencizer`).

**Detection.** The language of each text is detected with Lingua (``lingua-language-detector``
2.1.1, Peter M. Stahl, https://github.com/pemistahl/lingua-py; all 75 languages, low-accuracy
mode: n-grams of length 3 only, which is reliable on paragraph-long texts and builds in well
under a second). The sample: up to :data:`SAMPLE_SIZE` distinct paragraphs drawn with
``random.Random(seed)`` (all of them in a smaller file). Their contexts, and their questions, are
read in *pieces* of at least :data:`MIN_CHARS` characters: a context, or a question group (one
paragraph's questions), joined with the next ones until the piece is that long (one question
alone is often too short to tell: Lingua calls "Who won the Nobel Prize in 1903?" Sotho); of each
piece the first :data:`MAX_CHARS` characters are read. Text too short for one piece is not judged.
Data is read as English when at least :data:`MIN_CONTEXT_PCT` % of the context pieces and
:data:`MIN_QUESTION_PCT` % of the question pieces are English (questions are short, so detection
is noisier there: one question at a time, 91 % of SQuAD v1.1 dev's are called English).

**Cache.** A file's report is kept in ``languages-v1.sqlite`` in the cache directory
(:func:`mrclens.parsing.default_cache_dir`), keyed by the sha256 of the file's bytes, the
``--on-invalid`` choice, the sample size, the seed and the Lingua version, so a warm run
hashes the file and reads one row.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import logging
import os
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from mrclens.diskcache import DiskCache, warn_bad_entries
from mrclens.errors import LanguageError, LanguageMsg
from mrclens.io_utils import sha256_file
from mrclens.parsing import default_cache_dir
from mrclens.squad import Dataset
from mrclens.tasks import detect_task

log = logging.getLogger(__name__)

#: The one language MRCLens parses.
ENGLISH = "English"
#: Paragraphs sampled per file (contexts and their joined questions).
SAMPLE_SIZE = 200
#: The shortest piece of text whose language is detected (characters; shorter texts are joined).
MIN_CHARS = 100
#: Characters of each piece that are read (the start; detection time grows with the length).
MAX_CHARS = 400
#: Data is English when at least this share (%) of the sampled contexts is English ...
MIN_CONTEXT_PCT = 80.0
#: ... and at least this share (%) of the question pieces.
MIN_QUESTION_PCT = 50.0
#: What a text whose language Lingua cannot tell (digits, symbols) is counted as.
UNKNOWN = "unknown"
#: The commands that check the language, and whether ``--language-ok`` lets them run what reads no words.
OVERRIDE = {"stats": True, "check": True, "audit": False, "perturb": False}
#: The figures of ``mrclens stats`` that read no words (dotted paths or sections), computed with ``--language-ok``.
LANGUAGE_FREE_FIGURES = ("counts", "answer_position.char_fraction", "duplicates", "leakage")
#: In words, for messages.
LANGUAGE_FREE_WORDS = "counts, duplicates, train/dev leakage, answer position in characters"
#: The languages whose sentences spaCy's rule-based sentencizer finds under ``--language-ok``
#: (detected name → spaCy language code; :data:`mrclens.stats.sentencizer.LANGUAGES`).
SENTENCIZER = {"Spanish": "es", "Russian": "ru", "Arabic": "ar"}
#: The figures computed for them besides :data:`LANGUAGE_FREE_FIGURES` (dotted paths;
#: :data:`mrclens.stats.sentencizer.FIGURES`: measured to agree with English, BENCHMARKS.md).
SENTENCIZER_FIGURES = ("chance_corrected.position_rank",)
#: In words, for messages (``{language}``: the detected language).
SENTENCIZER_WORDS = "the answer sentence's rank by position (sentences from spaCy's rule-based sentencizer for {language})"
#: The ``path`` of :meth:`LanguageReport.to_json`: how MRCLens reads text in the report's language.
PATHS = {"english": "every figure (en_core_web_sm)",
         "sentencizer": "with --language-ok: what reads no words, and the answer sentence's rank by position "
                        "(sentences from spaCy's rule-based sentencizer)",
         "none": "with --language-ok: only what reads no words"}

#: What runs on data in each language (the README's "Languages" table is tested against it):
#: what → (English, other languages, es/ru/ar with --language-ok, other languages with --language-ok).
SUPPORT = {
    "mrclens audit (every ablation e1-e10, the reader, the verdicts)":
        ("runs", "stops (exit 2)", "no such option", "no such option"),
    "mrclens perturb (e1-e10 and their controls)": ("runs", "stops (exit 2)", "no such option", "no such option"),
    "mrclens stats: counts, duplicates, leakage, answer position in characters":
        ("runs", "stops (exit 2)", "runs", "runs"),
    "mrclens stats: answer sentence's rank by position (chance_corrected.position_rank)":
        ("runs", "stops (exit 2)", "runs (spaCy sentencizer)", "not computed"),
    "mrclens stats: answer sentence's rank by similarity and by keywords (chance_corrected.similarity_rank, keyword_rank)":
        ("runs", "stops (exit 2)", "not computed (off by over 5 points on ru or ar)", "not computed"),
    "mrclens stats: every other figure (words, sentences, wh-words, TF-IDF, answer types, heuristics)":
        ("runs", "stops (exit 2)", "not computed", "not computed"),
    "mrclens check: rules duplicates, leakage-contexts, leakage-questions": ("runs", "stops (exit 2)", "runs", "runs"),
    "mrclens check: rule answer-position": ("runs", "stops (exit 2)", "runs", "skipped"),
    "mrclens check: every other rule": ("runs", "stops (exit 2)", "skipped", "skipped"),
    "mrclens compare": ("runs", "runs; prints the language of each input", "no such option", "no such option"),
}

_SCHEMA_VERSION = 1


@dataclass(frozen=True)
class LanguageReport:
    """The languages detected in a sample of one dataset.

    Attributes:
        source: the file (as given) or the dataset's name, for messages.
        contexts: language name (``"English"``, ``"Spanish"``, :data:`UNKNOWN`) → number of context pieces
            (module docstring).
        questions: language name → number of question pieces.
        paragraphs: the distinct paragraphs (contexts) in the dataset.
        sampled: the paragraphs sampled (``min(paragraphs, sample size)``).
        detector: the detector and its settings (``"lingua-language-detector 2.1.1, low accuracy"``).
    """

    source: str
    contexts: dict[str, int]
    questions: dict[str, int]
    paragraphs: int
    sampled: int
    detector: str

    def share(self, kind: str, language: str = ENGLISH) -> float:
        """The share (%, 0-100) of the ``kind`` (``"contexts"`` or ``"questions"``) pieces in ``language``;
        100 when there is none (too little text to tell)."""
        counts = getattr(self, kind)
        n = sum(counts.values())
        return 100.0 * counts.get(language, 0) / n if n else 100.0

    @property
    def language(self) -> str:
        """The most common language of the sampled contexts (:data:`ENGLISH` for an empty sample)."""
        return _most_common(self.contexts) or ENGLISH

    @property
    def readable(self) -> bool:
        """Whether MRCLens reads this data: English contexts and questions (see the module docstring)."""
        return self.share("contexts") >= MIN_CONTEXT_PCT and self.share("questions") >= MIN_QUESTION_PCT

    @property
    def path(self) -> str:
        """How MRCLens reads text in this data's language (:data:`PATHS`): ``"english"`` (readable),
        ``"sentencizer"`` (a language of :data:`SENTENCIZER`) or ``"none"``."""
        if self.readable:
            return "english"
        return "sentencizer" if self.language in SENTENCIZER else "none"

    def problem(self) -> str:
        """What makes the data unreadable, e.g. ``"100 % of contexts are in Spanish (200 paragraphs sampled; English: 0 %)"``;
        ``""`` when it is readable."""
        if self.readable:
            return ""
        kind = "contexts" if self.share("contexts") < MIN_CONTEXT_PCT else "questions"
        counts = getattr(self, kind)
        other = _most_common({k: v for k, v in counts.items() if k != ENGLISH}) or UNKNOWN
        what = f"{_pct(self.share(kind, other))} of {kind} are in {other}"
        if kind == "questions":
            return f"{what} ({self.sampled} paragraphs sampled; contexts: {_pct(self.share('contexts'))} English)"
        return f"{what} ({self.sampled} paragraphs sampled; English: {_pct(self.share('contexts'))})"

    def summary(self) -> str:
        """One line: ``"English (100 % of the contexts of 200 sampled paragraphs, 99 % of their questions)"``."""
        lang = self.language
        return (f"{lang} ({_pct(self.share('contexts', lang))} of the contexts of {self.sampled} sampled paragraphs, "
                f"{_pct(self.share('questions', lang))} of their questions)")

    def to_json(self) -> dict:
        """The JSON form (the ``"language"`` block of ``mrclens stats --language-ok``; the cache): the
        counts, and ``path`` (:attr:`path`), ``path_reads`` (what that path computes, :data:`PATHS`)
        and ``spacy_language`` (the sentencizer's spaCy code, else ``None``)."""
        return {"source": self.source, "language": self.language, "readable": self.readable, "path": self.path,
                "path_reads": PATHS[self.path],
                "spacy_language": SENTENCIZER[self.language] if self.path == "sentencizer" else None,
                "contexts": dict(self.contexts), "questions": dict(self.questions),
                "paragraphs": self.paragraphs, "sampled": self.sampled, "detector": self.detector}


def _most_common(counts: dict[str, int]) -> str | None:
    """The key with the largest count (ties: the first in alphabetical order), or ``None``."""
    return min(counts, key=lambda k: (-counts[k], k)) if counts else None


def _pct(x: float) -> str:
    return f"{x:.0f} %"


def lingua_version() -> str:
    """The installed version of ``lingua-language-detector`` (part of every cache key)."""
    return importlib.metadata.version("lingua-language-detector")


@functools.lru_cache(maxsize=1)
def _detector():
    from lingua import LanguageDetectorBuilder

    return LanguageDetectorBuilder.from_all_languages().with_low_accuracy_mode().build()


def detect(texts: list[str]) -> list[str]:
    """The language of each text (its first :data:`MAX_CHARS` characters): its English name in title case
    (``"Spanish"``), or :data:`UNKNOWN`.

    Lingua's low-accuracy detector over all its languages (built once per process), texts in
    parallel threads. The same texts give the same names.
    """
    found = _detector().detect_languages_in_parallel_of([t[:MAX_CHARS] for t in texts]) if texts else []
    return [lang.name.title() if lang is not None else UNKNOWN for lang in found]


def sample_paragraphs(dataset: Dataset, size: int = SAMPLE_SIZE, seed: int = 0) -> tuple[list[str], list[str], int]:
    """A seeded sample of ``dataset``'s distinct paragraphs: ``(contexts, question groups, paragraphs)``.

    A question group is the paragraph's questions joined by one space. Paragraphs with the same
    context count once (their questions joined together); the sample is
    ``random.Random(seed).sample`` of them in file order, all of them when there are at most ``size``.
    """
    groups: dict[str, list[str]] = {}
    for _, paragraph, question in dataset.iter_questions():
        groups.setdefault(paragraph.context, []).append(question.question)
    contexts = list(groups)
    chosen = contexts if len(contexts) <= size else random.Random(seed).sample(contexts, size)
    return chosen, [" ".join(groups[c]) for c in chosen], len(contexts)


def detect_languages(dataset: Dataset, source: str | None = None, *, size: int = SAMPLE_SIZE,
                     seed: int = 0) -> LanguageReport:
    """Detect the languages of a sample of ``dataset``'s contexts and questions (not cached).

    Args:
        dataset: the span dataset.
        source: its name for messages (default: ``dataset.source``).
        size: paragraphs sampled (:func:`sample_paragraphs`).
        seed: the sample's seed.
    """
    contexts, questions, n = sample_paragraphs(dataset, size, seed)
    return LanguageReport(source if source is not None else (dataset.source or "data"),
                          dict(Counter(detect(pieces(contexts)))), dict(Counter(detect(pieces(questions)))), n,
                          len(contexts), f"lingua-language-detector {lingua_version()}, low accuracy")


def pieces(texts: list[str], min_chars: int = MIN_CHARS) -> list[str]:
    """``texts`` joined in order (by spaces) into pieces of at least ``min_chars`` characters; what is
    left at the end joins the last piece; no piece when all of them together are shorter.

    >>> [len(p) for p in pieces(["a" * 120, "b" * 40, "c" * 70, "d"], 100)]  # a | b c d
    [120, 113]
    >>> pieces(["Who won?"], 100)
    []
    """
    out: list[str] = []
    current: list[str] = []
    length = 0
    for text in texts:
        current.append(text)
        length += len(text) + 1
        if length > min_chars:
            out.append(" ".join(current))
            current, length = [], 0
    if current and out:
        out[-1] = " ".join([out[-1], *current])
    return out


def _check_cached(source: str):
    def check(key: bytes, value: Any) -> LanguageReport:
        counts = [value["contexts"], value["questions"]]
        for c in counts:
            if type(c) is not dict or not all(type(k) is str and type(v) is int and v >= 0 for k, v in c.items()):
                raise ValueError("not a count per language")
        if type(value["paragraphs"]) is not int or type(value["sampled"]) is not int or type(value["detector"]) is not str:
            raise ValueError("not a language report")
        return LanguageReport(source, *counts, value["paragraphs"], value["sampled"], value["detector"])
    return check


def file_languages(path: str | os.PathLike, *, cache_dir: str | Path | None | bool = None,
                   on_invalid: str = "refuse", size: int = SAMPLE_SIZE, seed: int = 0) -> LanguageReport:
    """:func:`detect_languages` of the span data file ``path`` (any format :func:`mrclens.formats.load_dataset`
    reads), cached by the file's checksum (module docstring); ``cache_dir=False`` turns the cache off.

    Raises:
        DataError: the file is not valid span data (as the command itself would say).
        FileNotFoundError: the file does not exist.
        CacheError: the cache directory cannot be used.
    """
    from mrclens.formats import load_dataset

    key = hashlib.sha256("\x1f".join([sha256_file(path), on_invalid, str(size), str(seed), lingua_version(),
                                      f"low;{MIN_CHARS};{MAX_CHARS}"]).encode()).digest()
    file = None if cache_dir is False else Path(cache_dir or default_cache_dir()) / f"languages-v{_SCHEMA_VERSION}.sqlite"
    if file is not None and file.exists():  # a cache is read where there is one; created only for a result
        cache = DiskCache(file, tables=("reports",))
        try:
            found = cache.get_many([key], table="reports", check=_check_cached(str(path))).get(key)
            warn_bad_entries(cache.path, cache.bad_entries)
        finally:
            cache.close()
        if found is not None:
            return found
    # read before any cache is created: a file the command refuses leaves nothing behind
    report = detect_languages(load_dataset(path, on_invalid=on_invalid), str(path), size=size, seed=seed)
    if file is not None:
        cache = DiskCache(file, tables=("reports",))
        try:
            cache.put_many([(key, report.to_json())], table="reports")
        finally:
            cache.close()
    return report


@dataclass(frozen=True)
class LanguageCheck:
    """What :func:`require_readable_language` found: the reports, and whether the run is restricted
    to the figures that read no words (``--language-ok`` on data that is not English).

    Attributes:
        reports: one per checked file that the language check applies to (span data).
        language_free: the command runs only what reads no words (:data:`LANGUAGE_FREE_FIGURES`).
        sentencizer: with ``language_free``, the spaCy code of the data file's language when it is read
            with spaCy's sentencizer (:data:`SENTENCIZER`; ``reports[0]`` is then the data file's), else ``None``.
    """

    reports: tuple[LanguageReport, ...] = ()
    language_free: bool = False
    sentencizer: str | None = None

    @property
    def language(self) -> str:
        """The language named in messages: that of the first report that is not readable (else English)."""
        return next((r.language for r in self.reports if not r.readable), ENGLISH)

    @property
    def stats_options(self) -> dict:
        """Keyword arguments for the task's ``"file_stats"``: ``{"language": "Spanish", "sentencizer": "es"}``
        when only what reads no words runs (``sentencizer`` only on that path), else nothing."""
        if not self.language_free:
            return {}
        return {"language": self.language, **({"sentencizer": self.sentencizer} if self.sentencizer else {})}

    def notes(self) -> list[str]:
        """One line per file that is not English, saying what runs (empty when all are English); the
        data file's names the sentencizer's ranks where it is on that path."""
        lines = []
        for i, r in enumerate(self.reports):
            if not r.readable:
                runs = LANGUAGE_FREE_WORDS
                if i == 0 and self.sentencizer:
                    runs += ", and " + SENTENCIZER_WORDS.format(language=r.language)
                lines.append(LanguageMsg.LANGUAGE_FREE.format(path=r.source, what=r.problem(), runs=runs))
        return lines


def require_readable_language(command: str, paths: Iterable[str | os.PathLike | None], *, allow: bool = False,
                              cache_dir: str | Path | None = None, on_invalid: str = "refuse") -> LanguageCheck:
    """The pre-flight language check of ``mrclens <command>`` on its data files (MRCLens issue 32).

    Files of tasks that register no ``"languages"`` entry point (multiple choice) and ``None``
    (no file) are passed over. Logs each file's language at DEBUG level.

    Args:
        command: ``"audit"``, ``"perturb"``, ``"stats"`` or ``"check"`` (:data:`OVERRIDE`).
        paths: the data files (e.g. TRAIN and --dev).
        allow: ``--language-ok`` was given (only the commands with ``OVERRIDE[command]`` have it).
        cache_dir: the cache directory (:func:`file_languages`).
        on_invalid: as the command reads the data.

    Returns:
        a :class:`LanguageCheck`; ``language_free`` is true when a file is not English and ``allow``;
        ``sentencizer`` is then the spaCy code of the first path's language where it is on the
        sentencizer path (:attr:`LanguageReport.path`).

    Raises:
        LanguageError: a file is not English and ``allow`` is false (or the command has no
            override); the message is one line: the file, the language and its share, what runs.
        DataError: a file is not valid data.
    """
    reports = []
    data_report = None
    for i, path in enumerate(paths):
        task = detect_task(path, role="sniff_input") if path is not None else None
        if task is None or not task.has("languages"):
            continue
        report = task.entry("languages")(path, cache_dir=cache_dir, on_invalid=on_invalid)
        if i == 0:
            data_report = report
        log.debug(f"{path}: {report.summary()}")
        reports.append(report)
        if not report.readable and not (allow and OVERRIDE[command]):
            what_runs = LANGUAGE_FREE_WORDS
            if i == 0 and report.path == "sentencizer":  # the data file's language has the sentencizer path
                what_runs += ", and " + SENTENCIZER_WORDS.format(language=report.language)
            runs = (LanguageMsg.OVERRIDE.format(command=command, what_runs=what_runs) if OVERRIDE[command]
                    else LanguageMsg.NOTHING_RUNS.format(command=command))
            raise LanguageError(LanguageMsg.NOT_READABLE.format(path=path, what=report.problem(), runs=runs))
    language_free = any(not r.readable for r in reports)
    sentencizer = (SENTENCIZER[data_report.language]
                   if language_free and data_report is not None and data_report.path == "sentencizer" else None)
    return LanguageCheck(tuple(reports), language_free=language_free, sentencizer=sentencizer)


def describe_languages(paths: Iterable[str | os.PathLike], *, cache_dir: str | Path | None = None,
                       on_invalid: str = "refuse") -> list[tuple[str, bool]]:
    """``(line, readable)`` per input of ``mrclens compare`` that is a span data file: its language
    (``"dev.json: English (100 % of the contexts of 200 sampled paragraphs, 100 % of their questions)"``), and for data
    that is not English a warning that its figures that read words are not valid. Inputs that are
    not span data files (audit directories, ``mrclens stats`` JSON, multiple-choice data) are passed over.
    """
    from mrclens.errors import MRCLensError

    lines = []
    for path in paths:
        task = detect_task(path, role="sniff_input")
        if not task.has("languages") or not Path(path).is_file():
            continue
        try:
            report = task.entry("languages")(path, cache_dir=cache_dir, on_invalid=on_invalid)
        except MRCLensError:  # not a dataset (a statistics JSON file) or invalid: compare itself says which
            continue
        line = f"{path}: {report.summary()}"
        if not report.readable:
            line += ("; MRCLens parses English only, so its figures that read words (lengths, question types, "
                     "sentences, similarity, heuristics) are not valid for it")
        lines.append((line, report.readable))
    return lines
