"""Parse texts with spaCy once, in batches, and cache the parses on disk.

Every distinct text is parsed at most once per pipeline and set of annotations: duplicates
in the input are parsed once, and parses are kept in a SQLite file under the cache directory
(:func:`default_cache_dir`; at most :func:`parse_cache_limit`, 2 GiB by default, the oldest parses
removed past it), keyed by the sha256 of the text, the requested annotations and
:func:`mrclens.nlp.pipeline_fingerprint` (spaCy version, pipeline name/version and active
components), so a new spaCy or model version never reads an old parse. Values are compact
JSON lists of offsets and labels (never pickles, never spaCy objects), checked for shape when
read (:func:`check_parse`; a bad entry is parsed again); a warm lookup of ~12,000 texts takes a
fraction of a second.

spaCy: Honnibal et al., https://spacy.io; pipeline ``en_core_web_sm`` 3.8 loaded with only the
components needed (:func:`mrclens.nlp.load_pipeline`).
"""

from __future__ import annotations

import hashlib
from array import array
import importlib.metadata
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence


from mrclens import nlp as _nlp_module
from mrclens.diskcache import DiskCache, default_cache_dir, parse_size, warn_bad_entries
from mrclens.errors import CacheError
from mrclens.invisible import VisibleText
from mrclens.io_utils import gc_paused
from mrclens.nlp import installed_pipeline_name, load_pipeline, pipeline_fingerprint, refuse_too_long
from mrclens.progress import progress as progress_bar

_SCHEMA_VERSION = 2  # 2: values are JSON (1 was pickle and is never read)


@dataclass
class ParsedText:
    """A compact parse of one text (no spaCy objects; picklable).

    All offsets are character offsets into :attr:`text` (Python ``str`` indices).

    Attributes:
        text: the parsed text.
        starts: token start offsets, one per token (spaCy tokens, whitespace tokens included).
        ends: token end offsets (exclusive), same length as ``starts``.
        pos: coarse Universal POS tag per token (``NOUN``, ``VERB``, ``PUNCT``, …), or ``None``
            when POS was not requested.
        tags: fine-grained (Penn Treebank) tag per token, or ``None``.
        sent_starts: character offsets where sentences start (the first is the first token's
            start), or ``None`` when sentences were not requested.
        ents: named entities as ``(start_char, end_char, label)``, or ``None``.
    """

    text: str
    starts: list[int]
    ends: list[int]
    pos: list[str] | None = None
    tags: list[str] | None = None
    sent_starts: list[int] | None = None
    ents: list[tuple[int, int, str]] | None = None

    def __len__(self) -> int:
        return len(self.starts)

    def token_texts(self) -> list[str]:
        """The text of each token."""
        return [self.text[s:e] for s, e in zip(self.starts, self.ends)]


#: Environment variable capping the parse cache's size (:func:`parse_cache_limit`).
PARSE_CACHE_MAX_ENV = "MRCLENS_PARSE_CACHE_MAX"
#: The parse cache's default cap: 2 GiB (full SQuAD v1.1 train and dev take about 0.3 GiB).
DEFAULT_PARSE_CACHE_MAX = 2 * 2**30


def parse_cache_limit() -> int | None:
    """The parse cache's size cap in bytes: ``$MRCLENS_PARSE_CACHE_MAX`` (``"500MB"``, ``"4GiB"``,
    ``"unlimited"``: :func:`mrclens.diskcache.parse_size`) or :data:`DEFAULT_PARSE_CACHE_MAX`. Past it, the
    oldest parses are removed after each write (:meth:`mrclens.diskcache.DiskCache.trim`).

    Raises:
        CacheError: the variable is not a size.
    """
    value = os.environ.get(PARSE_CACHE_MAX_ENV)
    if value is None or not value.strip():
        return DEFAULT_PARSE_CACHE_MAX
    try:
        return parse_size(value)
    except ValueError as err:
        raise CacheError(f"${PARSE_CACHE_MAX_ENV}: {err}") from None


def _from_doc(doc, *, sentences: bool, pos: bool, entities: bool) -> tuple:
    """The compact tuple stored for one ``Doc`` (read with ``Doc.to_array``, not token by token)."""
    from spacy.attrs import IDX, LENGTH, POS, SENT_START, TAG

    cols = [IDX, LENGTH] + ([SENT_START] if sentences else [])
    arr = doc.to_array(cols).reshape(len(doc), len(cols)).astype("int64")
    starts = arr[:, 0].tolist()
    ends = (arr[:, 0] + arr[:, 1]).tolist()
    sent_starts = None
    if sentences:
        first = arr[:, 2] == 1
        if len(doc):
            first[0] = True
        sent_starts = arr[first, 0].tolist()
    pos_list = tags = None
    if pos:  # POS / TAG values are uint64 string hashes: read them apart from the int64 offsets
        strings = doc.vocab.strings
        pos_list = [strings[int(i)] if i else "" for i in doc.to_array([POS]).tolist()]
        tags = [strings[int(i)] if i else "" for i in doc.to_array([TAG]).tolist()]
    ents = [(e.start_char, e.end_char, e.label_) for e in doc.ents] if entities else None
    return (starts, ends, pos_list, tags, sent_starts, ents)


#: Added to the cache key of a text holding invisible (Cf) characters, parsed without them.
_VISIBLE_KEY = b"visible|"


def _to_original(value: tuple, view: VisibleText) -> tuple:
    """A parse of ``view.text`` (:func:`_from_doc`) with its offsets mapped back to ``view.original``
    (:class:`mrclens.invisible.VisibleText`: a token or entity never starts or ends on a removed character)."""
    if not view.changed:
        return value
    starts, ends, pos_list, tags, sent_starts, ents = value
    return ([view.start(s) for s in starts], [view.end(e) for e in ends], pos_list, tags,
            None if sent_starts is None else [view.start(s) for s in sent_starts],
            None if ents is None else [(view.start(s), view.end(e), label) for s, e, label in ents])


class _Cache(DiskCache):
    """The parse cache: table ``parses`` (text hash → compact parse, JSON) and table
    ``fingerprints`` (installed package versions → pipeline fingerprint)."""

    def __init__(self, directory: Path):
        self.limit = parse_cache_limit()  # a bad $MRCLENS_PARSE_CACHE_MAX stops before any parsing
        super().__init__(directory / f"parses-v{_SCHEMA_VERSION}.sqlite", tables=("parses",), extra_sql=(
            "CREATE TABLE IF NOT EXISTS fingerprints (key TEXT PRIMARY KEY, value TEXT NOT NULL)",))

    def get_fingerprint(self, key: str) -> str | None:
        value = self.get_value("SELECT value FROM fingerprints WHERE key = ?", (key,))
        return value if isinstance(value, str) else None

    def put_fingerprint(self, key: str, value: str) -> None:
        self.execute_write("INSERT OR REPLACE INTO fingerprints (key, value) VALUES (?, ?)", (key, value))

    def get_many(self, keys: list[bytes], check=None) -> dict[bytes, tuple]:  # type: ignore[override]
        return super().get_many(keys, table="parses", check=check)

    def put_many(self, items: list[tuple[bytes, tuple]]) -> None:  # type: ignore[override]
        super().put_many(items, table="parses")
        self.trim("parses", self.limit)


def _ints(value, n: int | None = None, low: int = 0, high: int | None = None) -> list[int]:
    if type(value) is not list or (n is not None and len(value) != n):
        raise ValueError("not a list of the expected length")
    if value:
        array("q", value)  # TypeError unless every item is an integer (checked at C speed)
        if min(value) < low or (high is not None and max(value) > high):
            raise ValueError("not offsets inside the text")
    return value


def _strs(value, n: int) -> list[str]:
    if type(value) is not list or len(value) != n:
        raise ValueError("not a list of labels of the expected length")
    "".join(value)  # TypeError unless every item is a string
    return value


def check_parse(value, text: str, *, sentences: bool, pos: bool, entities: bool) -> tuple:
    """Verify a parse read from the cache and return it as :func:`_from_doc` builds it.

    ``value`` is ``[starts, ends, pos, tags, sent_starts, ents]`` as decoded from JSON; every
    offset must lie inside ``text`` and every annotation must be present exactly when requested.

    Raises:
        ValueError: the value has the wrong shape (the caller treats it as a cache miss).
    """
    if type(value) is not list or len(value) != 6:
        raise ValueError("not a 6-item parse")
    starts, ends, pos_list, tags, sent_starts, ents = value
    n = len(_ints(starts, None, 0, len(text)))
    _ints(ends, n, 0, len(text))
    if pos:
        _strs(pos_list, n)
        _strs(tags, n)
    elif pos_list is not None or tags is not None:
        raise ValueError("unexpected POS tags")
    if sentences:
        _ints(sent_starts, None, 0, len(text))
    elif sent_starts is not None:
        raise ValueError("unexpected sentences")
    if entities:
        if type(ents) is not list:
            raise ValueError("entities are not a list")
        checked = []
        for ent in ents:
            if type(ent) is not list or len(ent) != 3 or type(ent[2]) is not str:
                raise ValueError("not an entity")
            _ints(ent[:2], 2, 0, len(text))
            checked.append((ent[0], ent[1], ent[2]))
        ents = checked
    elif ents is not None:
        raise ValueError("unexpected entities")
    return (starts, ends, pos_list, tags, sent_starts, ents)


def _install_key(sentences: bool, pos: bool, entities: bool) -> str:
    """What determines the loaded pipeline, read without importing spaCy (which takes ~2 s)."""
    name = installed_pipeline_name()
    versions = []
    for dist in ("spacy", name):
        try:
            versions.append(f"{dist}={importlib.metadata.version(dist)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{dist}=?")
    loader = hashlib.sha256(Path(_nlp_module.__file__).read_bytes()).hexdigest()[:16]
    return f"{';'.join(versions)};loader={loader};s{int(sentences)}p{int(pos)}e{int(entities)}"


def pipeline_fingerprint_for(*, sentences: bool = False, pos: bool = False, entities: bool = False,
                             cache_dir: str | Path | None | bool = None) -> str:
    """:func:`mrclens.nlp.pipeline_fingerprint` of ``load_pipeline(sentences=, pos=, entities=)``.

    The value is remembered in the cache, keyed by the installed spaCy and pipeline package
    versions and the loader's source, so that a warm run neither imports spaCy nor loads a model.

    Raises:
        PipelineNotInstalled: no English spaCy pipeline is installed.
    """
    cache = None if cache_dir is False else _Cache(Path(cache_dir) if cache_dir else default_cache_dir())
    try:
        key = _install_key(sentences, pos, entities)
        found = cache.get_fingerprint(key) if cache else None
        if found is None:
            found = pipeline_fingerprint(load_pipeline(sentences=sentences, pos=pos, entities=entities))
            if cache:
                cache.put_fingerprint(key, found)
        return found
    finally:
        if cache:
            cache.close()


def parse_texts(
    texts: Sequence[str],
    *,
    sentences: bool = False,
    pos: bool = False,
    entities: bool = False,
    cache_dir: str | Path | None = None,
    progress: bool | str = False,
    n_process: int = 1,
    batch_size: int = 256,
) -> list[ParsedText]:
    """Parse ``texts`` with ``en_core_web_sm``, each distinct text once, using the disk cache.

    spaCy reads each text without its invisible format characters (Unicode Cf: soft hyphen, zero-width
    space, direction marks, BOM; :mod:`mrclens.invisible`), and every offset of the parse is mapped back
    to the text as given: the tokens and sentences are those of the visible text, the offsets those of
    ``texts``.

    The pipeline is :func:`mrclens.nlp.load_pipeline` with the same flags (only the needed
    components: ``senter`` for sentences; tok2vec + tagger + attribute_ruler for POS; tok2vec +
    ner for entities; the tokenizer alone when every flag is off). Texts not in the cache are
    parsed with ``nlp.pipe`` in batches and added to it.

    Args:
        texts: the texts, in any order, duplicates allowed.
        sentences: fill :attr:`ParsedText.sent_starts`.
        pos: fill :attr:`ParsedText.pos` and :attr:`ParsedText.tags`.
        entities: fill :attr:`ParsedText.ents`.
        cache_dir: the cache directory (default :func:`default_cache_dir`); ``False`` turns the
            disk cache off.
        progress: show progress (:mod:`mrclens.progress`) while parsing; a string is used as the bar's label.
        n_process: spaCy worker processes (``nlp.pipe(n_process=...)``).
        batch_size: texts per ``nlp.pipe`` batch.

    Returns:
        one :class:`ParsedText` per input text, in input order (equal texts share one object).

    Raises:
        PipelineNotInstalled: no English spaCy pipeline is installed.
        MRCLensError: a text is longer than :data:`mrclens.nlp.MAX_TEXT_CHARS` characters (exit 2).
    """
    flags = f"s{int(sentences)}p{int(pos)}e{int(entities)}"
    distinct = list(dict.fromkeys(texts))
    refuse_too_long(distinct)  # cached or not: the figures of such a text are not computed either
    cache = None if cache_dir is False else _Cache(Path(cache_dir) if cache_dir else default_cache_dir())
    try:
        if cache:
            install = _install_key(sentences, pos, entities)
            fingerprint = cache.get_fingerprint(install)
            if fingerprint is None:
                fingerprint = pipeline_fingerprint(load_pipeline(sentences=sentences, pos=pos, entities=entities))
                cache.put_fingerprint(install, fingerprint)
        else:
            fingerprint = pipeline_fingerprint(load_pipeline(sentences=sentences, pos=pos, entities=entities))
        prefix = f"{fingerprint}|{flags}|".encode("utf-8")
        views = [VisibleText(t) for t in distinct]
        # a text with invisible characters is parsed without them (its own key: its parse is not the raw text's)
        keys = [hashlib.sha256(prefix + (_VISIBLE_KEY if v.changed else b"")
                               + t.encode("utf-8", "surrogatepass")).digest() for t, v in zip(distinct, views)]
        if cache:
            by_key = dict(zip(keys, distinct))

            def check(key: bytes, value) -> tuple:
                return check_parse(value, by_key[key], sentences=sentences, pos=pos, entities=entities)

            with gc_paused():
                values = cache.get_many(keys, check=check)
            warn_bad_entries(cache.path, cache.bad_entries)
        else:
            values = {}
        todo = [i for i, k in enumerate(keys) if k not in values]
        if todo:
            nlp = load_pipeline(sentences=sentences, pos=pos, entities=entities)
            label = progress if isinstance(progress, str) else "parsing"
            docs = nlp.pipe((views[i].text for i in todo), batch_size=batch_size, n_process=n_process)
            bar = progress_bar(docs, total=len(todo), desc=label, unit="text", enabled=bool(progress))
            new: list[tuple[bytes, tuple]] = []
            for doc, i in zip(bar, todo):  # the bar first: it counts the last text before todo ends the zip
                value = _to_original(_from_doc(doc, sentences=sentences, pos=pos, entities=entities), views[i])
                values[keys[i]] = value
                new.append((keys[i], value))
            bar.close()
            if cache:
                cache.put_many(new)
    finally:
        if cache:
            cache.close()

    with gc_paused():
        by_text = {t: ParsedText(t, *values[k]) for t, k in zip(distinct, keys)}
        return [by_text[t] for t in texts]
