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

**Detection.** What is read is the *prose* of each text (:func:`prose`): markup (HTML and XML
tags and entities, wiki templates and links, LaTeX commands, Markdown links), URLs, e-mail
addresses and DOIs are removed, words written in phonetic symbols (IPA, as in "Newcastle upon Tyne
(RP: /ˌnjuːkɑːsəl/)") are dropped, and of a text of several lines only the lines of at least
:data:`MIN_LINE_WORDS` words are kept and fewer than :data:`MAX_CAPITALISED_PCT` % capitalised
words (title, author, URL, licence and date lines of a scientific article's header are not prose). Each text is then read in up to :data:`MAX_WINDOWS` windows of
:data:`WINDOW_CHARS` characters spread evenly from its start to its end (:func:`windows`), so a
header, a list of foreign names or a quotation decides only its own share. The language of each
window is detected with Lingua (``lingua-language-detector`` 2.1.1, Peter M. Stahl,
https://github.com/pemistahl/lingua-py; all 75 languages, low-accuracy mode: n-grams of length 3
only); a window Lingua calls another language reads as English when at least
:data:`FUNCTION_WORD_PCT` % of its words other than names are English function words (:data:`FUNCTION_WORDS`:
the, and, which, …; :func:`function_word_pct`), because Lingua's low-accuracy mode takes English prose dense with foreign names or
diacritics (Pāṇini, Sūtra) for Tagalog, Latin or German. Each window stands for its share of its
text's characters, and data is judged by the **share of its text** in English, not by a count of
contexts: data is read as English when at least :data:`MIN_CONTEXT_PCT` % of the sampled contexts'
prose and :data:`MIN_QUESTION_PCT` % of the question pieces' text are English. The sample: up to
:data:`SAMPLE_SIZE` distinct paragraphs drawn with ``random.Random(seed)`` (all of them in a smaller
file). Contexts and question groups (one paragraph's questions) shorter than :data:`MIN_CHARS`
characters are joined with the next ones into pieces (:func:`pieces`: one question alone is often
too short to tell: Lingua calls "Who won the Nobel Prize in 1903?" Sotho). Text too short for one
piece is not judged. Measured (``benchmarks/language_detection.py``, BENCHMARKS.md
"Languages"): every SQuAD v1.1 dev and train article, each on its own, reads as English.

**Declared English.** ``--language en`` of ``mrclens audit``, ``perturb``, ``stats`` and ``check``
declares the data English: every step runs as on English data whatever the detection read, and
the run records a note saying so with what the detection read (:meth:`LanguageCheck.notes`).

**Cache.** A file's report is kept in ``languages-v1.sqlite`` in the cache directory
(:func:`mrclens.parsing.default_cache_dir`), keyed by the sha256 of the file's bytes, the
``--on-invalid`` choice, the sample size, the seed and the Lingua version, so a warm run
hashes the file and reads one row.
"""

from __future__ import annotations

import functools
import hashlib
import html
import importlib.metadata
import logging
import os
import random
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Protocol

from mrclens.diskcache import DiskCache, warn_bad_entries
from mrclens.errors import LanguageError, LanguageMsg
from mrclens.invisible import visible
from mrclens.io_utils import sha256_file
from mrclens.parsing import default_cache_dir
from mrclens.squad import Dataset
from mrclens.formats import detect_task
from mrclens.tasks import SPAN, TaskTable

log = logging.getLogger(__name__)

#: The one language MRCLens parses.
ENGLISH = "English"
#: Paragraphs sampled per file (contexts and their joined questions).
SAMPLE_SIZE = 200
#: The shortest piece of text whose language is detected (characters; shorter texts are joined).
MIN_CHARS = 100
#: Characters of one window whose language is detected (:func:`windows`).
WINDOW_CHARS = 400
#: The most windows read per text, spread from its start to its end (:func:`windows`).
MAX_WINDOWS = 4
#: In a text of several lines, the fewest words a line needs to count as prose (:func:`prose`).
MIN_LINE_WORDS = 6
#: ... and fewer than this share (%) of its words capitalised (English prose: about 15-25 %; German, which
#: capitalises its nouns: about 30-40 %; a title in title case or a list of names: 60 % or more).
MAX_CAPITALISED_PCT = 60.0
#: English function words: a window holding at least :data:`FUNCTION_WORD_PCT` % of them reads as
#: English whatever Lingua says. Words that are also common in other languages written in Latin script
#: ("a", "in", "is", "was", "an", "at", "of", "on", "also", "over"; Portuguese "do") are left out.
FUNCTION_WORDS = frozenset("""
the and to that with for which this from are were by has have had their its it be been who not or but they
these would there than after into such when between during many other more most some only can could first all
what how why where did does whom whose""".split())
#: The share (%) of a window's words (names left out: :func:`function_word_pct`) that are :data:`FUNCTION_WORDS`
#: from which it reads as English. Measured: in SQuAD v1.1 dev's windows the 1st percentile is 14.8 % and the
#: median 29.8 %; in XQuAD Spanish's (SQuAD translated) the median is 0, the 99th percentile 2.1 % and the largest
#: 17.4 %, one window of 626 quoting English titles ("Doctor Who and the Daleks in the Seven Keys to Doomsday";
#: BENCHMARKS.md, "Languages").
FUNCTION_WORD_PCT = 15.0
#: Data is English when at least this share (%) of the sampled contexts' prose is English ...
MIN_CONTEXT_PCT = 80.0
#: ... and at least this share (%) of the question pieces' text.
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

_SCHEMA_VERSION = 2


@dataclass(frozen=True)
class LanguageReport:
    """The languages detected in a sample of one dataset.

    Attributes:
        source: the file (as given) or the dataset's name, for messages.
        contexts: language name (``"English"``, ``"Spanish"``, :data:`UNKNOWN`) → characters of the sampled
            contexts' prose read in it (:func:`text_shares`; module docstring).
        questions: language name → characters of the sampled question groups read in it.
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
        """The share (%, 0-100) of the ``kind``'s (``"contexts"`` or ``"questions"``) text read in ``language``
        (characters); 100 when there is none (too little text to tell)."""
        counts = getattr(self, kind)
        n = sum(counts.values())
        return 100.0 * counts.get(language, 0) / n if n else 100.0

    @property
    def language(self) -> str:
        """The language of most of the sampled contexts' text (:data:`ENGLISH` for an empty sample)."""
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
        """What makes the data unreadable, e.g. ``"100 % of the contexts' text is in Spanish (200 paragraphs sampled;
        English: 0 %)"``; ``""`` when it is readable."""
        if self.readable:
            return ""
        kind = "contexts" if self.share("contexts") < MIN_CONTEXT_PCT else "questions"
        counts = getattr(self, kind)
        other = _most_common({k: v for k, v in counts.items() if k != ENGLISH}) or UNKNOWN
        what = f"{_pct(self.share(kind, other))} of the {kind}' text is in {other}"
        if kind == "questions":
            return f"{what} ({self.sampled} paragraphs sampled; contexts: {_pct(self.share('contexts'))} English)"
        return f"{what} ({self.sampled} paragraphs sampled; English: {_pct(self.share('contexts'))})"

    def summary(self) -> str:
        """One line: ``"English (100 % of the contexts' text in 200 sampled paragraphs, 99 % of their questions')"``."""
        lang = self.language
        return (f"{lang} ({_pct(self.share('contexts', lang))} of the contexts' text in {self.sampled} sampled paragraphs, "
                f"{_pct(self.share('questions', lang))} of their questions')")

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
    """Lingua's language of each text (its first :data:`WINDOW_CHARS` characters): its English name in title
    case (``"Spanish"``), or :data:`UNKNOWN`.

    Lingua's low-accuracy detector over all its languages (built once per process), texts in
    parallel threads. The same texts give the same names. This is the detector alone: what MRCLens
    decides for a window adds the function-word reading (:func:`read_windows`).
    """
    found = _detector().detect_languages_in_parallel_of([t[:WINDOW_CHARS] for t in texts]) if texts else []
    return [lang.name.title() if lang is not None else UNKNOWN for lang in found]


_BLOCKS = re.compile(r"<(script|style)\b.*?</\1\s*>", re.I | re.S)
_MARKUP = re.compile(
    r"<!--.*?-->"                       # HTML comments
    r"|</?[A-Za-z][^<>]{0,300}>"        # HTML / XML tags
    r"|\{\{[^{}]{0,500}\}\}"            # wiki templates
    r"|\[\[(?:[^\[\]|]*\|)?|\]\]"        # wiki links: keep the shown text
    r"|!?\[([^\[\]]*)\]\([^()\s]*\)"    # Markdown links and images: keep the text
    r"|\\[A-Za-z]+\*?(?:\[[^\]]*\])?(?:\{[^{}]*\})?"  # LaTeX commands and their first argument
    r"|(?:https?|ftp)://\S+|www\.\S+"      # URLs
    r"|\S+@\S+\.\S+"                      # e-mail addresses
    r"|\bdoi:?\s*10\.\S+|\b10\.\d{4,}/\S+",  # DOIs
    re.S | re.I)
#: Characters of phonetic transcriptions (IPA extensions, spacing modifier letters, phonetic extensions).
_PHONETIC = re.compile(r"[\u0250-\u02FF\u1D00-\u1DBF]")
_WORDS = re.compile(r"[^\W\d_]+")


def prose(text: str) -> str:
    """The prose of ``text`` whose language is read: invisible format characters (Unicode Cf: soft hyphen,
    zero-width space, direction marks, BOM; :func:`mrclens.invisible.visible`) removed, markup, URLs, e-mail addresses and DOIs removed
    (a link's shown text kept), words in phonetic symbols dropped and, when ``text`` has several
    lines, only the lines that read as prose kept (at least :data:`MIN_LINE_WORDS` words, fewer than
    :data:`MAX_CAPITALISED_PCT` % of them capitalised; all lines when none does);
    whitespace collapsed to single spaces.

    >>> prose("Newcastle upon Tyne (RP: i/ˌnjuːkɑːsəl əˌpɒn ˈtaɪn/) is a city in England.")
    'Newcastle upon Tyne (RP: is a city in England.'
    >>> prose("Functional Variants\\nhttps://www.ncbi.nlm.nih.gov/pmc/articles/PMC1/\\nBoniface et al. 2009\\n"
    ...       "Abstract: the virus spreads from mother to child during birth.")
    'Abstract: the virus spreads from mother to child during birth.'
    >>> prose('<p>The <a href="x">river</a> flows &amp; the [[Sea|sea]] waits.</p>')
    'The river flows & the sea waits.'
    """
    text = _MARKUP.sub(lambda m: f" {m.group(1) or ''} ", _BLOCKS.sub(" ", visible(text)))
    text = html.unescape(text)
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > 1:
        kept = [line for line in lines if _is_prose_line(line)]
        lines = kept or lines
    return " ".join(w for line in lines for w in line.split() if not _PHONETIC.search(w))


def _is_prose_line(line: str) -> bool:
    """Whether a line of a text of several lines reads as prose: at least :data:`MIN_LINE_WORDS` words, and
    fewer than :data:`MAX_CAPITALISED_PCT` % of its words capitalised (a title in title case, a list of
    authors' names or a journal line are not prose; a script without case is never capitalised)."""
    words = _WORDS.findall(line)
    return len(words) >= MIN_LINE_WORDS and 100.0 * sum(w[0].isupper() for w in words) / len(words) < MAX_CAPITALISED_PCT


def windows(text: str, size: int = WINDOW_CHARS, most: int = MAX_WINDOWS) -> list[str]:
    """``text`` cut into up to ``most`` windows of ``size`` characters spread evenly from its start
    to its end (``ceil(len / size)`` windows, at most ``most``; the first starts at 0, the last ends
    at the end); a text of at most ``size`` characters is its own window.

    >>> [len(w) for w in windows("x" * 1000, 400)]
    [400, 400, 400]
    >>> windows("abcdefghij", 4, 2)
    ['abcd', 'ghij']
    """
    if len(text) <= size:
        return [text]
    n = min(most, -(-len(text) // size))
    return [text[s:s + size] for s in (round(i * (len(text) - size) / (n - 1)) for i in range(n))]


def function_word_pct(text: str) -> float:
    """The share (%, 0-100) of ``text``'s words that are English function words (:data:`FUNCTION_WORDS`;
    a word: a run of letters, compared lower-cased), among its words that are not names: a capitalised word
    that is no function word ("Pelé", "São", "Aṣṭādhyāyī") counts in neither part, so English prose dense with
    foreign names reads by its own words (issue 55: such prose read as Portuguese); 0 for a text without them.

    >>> function_word_pct("The Mahābhāṣya is the commentary on the Aṣṭādhyāyī and Vārtikas")
    57.142857142857146
    >>> function_word_pct("El río atraviesa el casco antiguo")
    0.0
    """
    words = [w.lower() for w in _WORDS.findall(text) if not w[0].isupper() or w.lower() in FUNCTION_WORDS]
    return 100.0 * sum(w in FUNCTION_WORDS for w in words) / len(words) if words else 0.0


def read_windows(texts: list[str]) -> list[str]:
    """The language MRCLens reads in each window: Lingua's (:func:`detect`), except that a window with at
    least :data:`FUNCTION_WORD_PCT` % English function words reads as :data:`ENGLISH`."""
    return [ENGLISH if lang != ENGLISH and function_word_pct(text) >= FUNCTION_WORD_PCT else lang
            for lang, text in zip(detect(texts), texts)]


def text_shares(texts: list[str]) -> dict[str, int]:
    """Characters of prose per language read in ``texts`` (language name → characters): each text's
    prose (:func:`prose`) is read in windows (:func:`windows`, :func:`read_windows`), and each window
    stands for an equal part of its text's characters. Texts are joined into pieces of at least
    :data:`MIN_CHARS` characters first (:func:`pieces`); nothing when they are too short for one.

    >>> text_shares(["The river flows through the old town before it reaches the sea, and the market "
    ...              "near the bridge still sells the catch of the fishermen every morning."])
    {'English': 148}
    """
    cleaned = pieces([t for t in (prose(text) for text in texts) if t])
    cut = [windows(t) for t in cleaned]
    read = iter(read_windows([w for ws in cut for w in ws]))
    shares: Counter[str] = Counter()
    for text, ws in zip(cleaned, cut):
        for i, _ in enumerate(ws):
            # the text's characters shared out over its windows, to the unit (remainders to the first ones)
            shares[next(read)] += len(text) // len(ws) + (1 if i < len(text) % len(ws) else 0)
    return dict(shares)


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
    """Detect the languages of a sample of ``dataset``'s contexts and questions (not cached): the
    characters of prose read in each language (:func:`text_shares`).

    Args:
        dataset: the span dataset.
        source: its name for messages (default: ``dataset.source``).
        size: paragraphs sampled (:func:`sample_paragraphs`).
        seed: the sample's seed.
    """
    contexts, questions, n = sample_paragraphs(dataset, size, seed)
    return LanguageReport(source if source is not None else (dataset.source or "data"),
                          text_shares(contexts), text_shares(questions), n, len(contexts), detector_name())


def detector_name() -> str:
    """The detector and how it reads, recorded in every report."""
    return (f"lingua-language-detector {lingua_version()}, low accuracy, on prose in windows of {WINDOW_CHARS} "
            f"characters; English function words >= {FUNCTION_WORD_PCT:g} %")


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
                                      f"low;{MIN_CHARS};{WINDOW_CHARS};{MAX_WINDOWS};{MIN_LINE_WORDS};{MAX_CAPITALISED_PCT};{FUNCTION_WORD_PCT};cf-removed;names-out"]).encode()).digest()
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


class LanguageReader(Protocol):
    """Role ``"languages"`` (:mod:`mrclens.tasks`): the languages of a task's data file (:func:`file_languages`).

    Raises:
        DataError: the file is not valid data.
    """

    def __call__(self, path: str | os.PathLike, *, cache_dir: str | Path | None = None,
                 on_invalid: str = "refuse") -> LanguageReport: ...


#: The tasks whose data the language check reads (multiple-choice data is not checked).
LANGUAGES: TaskTable[LanguageReader] = TaskTable("languages", LanguageReader, {SPAN: file_languages}, optional=True)


@dataclass(frozen=True)
class LanguageCheck:
    """What :func:`require_readable_language` found: the reports, and whether the run is restricted
    to the figures that read no words (``--language-ok`` on data that is not English).

    Attributes:
        reports: one per checked file that the language check applies to (span data).
        language_free: the command runs only what reads no words (:data:`LANGUAGE_FREE_FIGURES`).
        sentencizer: with ``language_free``, the spaCy code of the data file's language when it is read
            with spaCy's sentencizer (:data:`SENTENCIZER`; ``reports[0]`` is then the data file's), else ``None``.
        declared: ``"en"`` when ``--language en`` declared the data English (every step then runs as on
            English text, whatever the reports read), else ``None``.
    """

    reports: tuple[LanguageReport, ...] = ()
    language_free: bool = False
    sentencizer: str | None = None
    declared: str | None = None

    @property
    def language(self) -> str:
        """The language named in messages: that of the first report that is not readable (else English)."""
        return next((r.language for r in self.reports if not r.readable), ENGLISH)

    def to_json(self) -> list[dict]:
        """The ``"language"`` block of ``mrclens stats`` JSON: one :meth:`LanguageReport.to_json` per file,
        with ``"declared": "en"`` under ``--language en``."""
        return [{**r.to_json(), **({"declared": self.declared} if self.declared else {})} for r in self.reports]

    @property
    def recorded(self) -> bool:
        """Whether the run records the language block (a file is not English, or ``--language en``)."""
        return self.language_free or self.declared is not None

    @property
    def stats_options(self) -> dict:
        """Keyword arguments for the task's ``"file_stats"``: ``{"language": "Spanish", "sentencizer": "es"}``
        when only what reads no words runs (``sentencizer`` only on that path), else nothing."""
        if not self.language_free:
            return {}
        return {"language": self.language, **({"sentencizer": self.sentencizer} if self.sentencizer else {})}

    def notes(self) -> list[str]:
        """One line per file that is not English, saying what runs (empty when all are English); the
        data file's names the sentencizer's ranks where it is on that path. Under ``--language en``, one
        line per file saying that it is read as English as declared, and what the detection read."""
        if self.declared:
            return [LanguageMsg.DECLARED.format(path=r.source, read=r.summary() if r.readable else r.problem())
                    for r in self.reports]
        lines = []
        for i, r in enumerate(self.reports):
            if not r.readable:
                runs = LANGUAGE_FREE_WORDS
                if i == 0 and self.sentencizer:
                    runs += ", and " + SENTENCIZER_WORDS.format(language=r.language)
                lines.append(LanguageMsg.LANGUAGE_FREE.format(path=r.source, what=r.problem(), runs=runs))
        return lines


def require_readable_language(command: str, paths: Iterable[str | os.PathLike | None], *, allow: bool = False,
                              cache_dir: str | Path | None = None, on_invalid: str = "refuse",
                              declared: str | None = None) -> LanguageCheck:
    """The pre-flight language check of ``mrclens <command>`` on its data files (MRCLens issue 32).

    Files of tasks without an entry in :data:`LANGUAGES` (multiple choice) and ``None`` (no file) are
    passed over. Logs each file's language at DEBUG level.

    Args:
        command: ``"audit"``, ``"perturb"``, ``"stats"`` or ``"check"`` (:data:`OVERRIDE`).
        paths: the data files (e.g. TRAIN and --dev).
        allow: ``--language-ok`` was given (only the commands with ``OVERRIDE[command]`` have it).
        cache_dir: the cache directory (:func:`file_languages`).
        on_invalid: as the command reads the data.
        declared: ``"en"`` (``--language en``): the data is English as its user declares; nothing is
            refused, every step runs as on English text, and :meth:`LanguageCheck.notes` says what the
            detection read. ``None`` (``--language auto``): the detection decides.

    Returns:
        a :class:`LanguageCheck`; ``language_free`` is true when a file is not English and ``allow``;
        ``sentencizer`` is then the spaCy code of the first path's language where it is on the
        sentencizer path (:attr:`LanguageReport.path`).

    Raises:
        LanguageError: a file is not English, ``allow`` is false (or the command has no override) and
            nothing was declared; the message is one line: the file, the language and its share, what
            runs, and ``--language en``.
        ValueError: ``declared`` is neither ``None`` nor ``"en"``.
        DataError: a file is not valid data.
    """
    if declared not in (None, "en"):
        raise ValueError(f"declared language {declared!r}: MRCLens reads English only ('en')")
    reports = []
    data_report = None
    for i, path in enumerate(paths):
        read = LANGUAGES.get(detect_task(path, role="sniff_input")) if path is not None else None
        if read is None:
            continue
        report = read(path, cache_dir=cache_dir, on_invalid=on_invalid)
        if i == 0:
            data_report = report
        log.debug(f"{path}: {report.summary()}")
        reports.append(report)
        if not report.readable and declared is None and not (allow and OVERRIDE[command]):
            what_runs = LANGUAGE_FREE_WORDS
            if i == 0 and report.path == "sentencizer":  # the data file's language has the sentencizer path
                what_runs += ", and " + SENTENCIZER_WORDS.format(language=report.language)
            runs = (LanguageMsg.OVERRIDE.format(command=command, what_runs=what_runs) if OVERRIDE[command]
                    else LanguageMsg.NOTHING_RUNS.format(command=command))
            raise LanguageError(LanguageMsg.NOT_READABLE.format(path=path, what=report.problem(), runs=runs))
    if declared is not None:
        return LanguageCheck(tuple(reports), declared=declared)
    language_free = any(not r.readable for r in reports)
    sentencizer = (SENTENCIZER[data_report.language]
                   if language_free and data_report is not None and data_report.path == "sentencizer" else None)
    return LanguageCheck(tuple(reports), language_free=language_free, sentencizer=sentencizer)


def describe_languages(paths: Iterable[str | os.PathLike], *, cache_dir: str | Path | None = None,
                       on_invalid: str = "refuse") -> list[tuple[str, bool]]:
    """``(line, readable)`` per input of ``mrclens compare`` that is a span data file: its language
    (``"dev.json: English (100 % of the contexts' text in 200 sampled paragraphs, 100 % of their questions')"``), and for data
    that is not English a warning that its figures that read words are not valid. Inputs that are
    not span data files (audit directories, ``mrclens stats`` JSON, multiple-choice data) are passed over.
    """
    from mrclens.errors import MRCLensError

    lines = []
    for path in paths:
        read = LANGUAGES.get(detect_task(path, role="sniff_input"))
        if read is None or not Path(path).is_file():
            continue
        try:
            report = read(path, cache_dir=cache_dir, on_invalid=on_invalid)
        except MRCLensError:  # not a dataset (a statistics JSON file) or invalid: compare itself says which
            continue
        line = f"{path}: {report.summary()}"
        if not report.readable:
            line += ("; MRCLens parses English only, so its figures that read words (lengths, question types, "
                     "sentences, similarity, heuristics) are not valid for it")
        lines.append((line, report.readable))
    return lines
