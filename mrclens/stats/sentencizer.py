"""Chance-corrected ranks of data that is not English, read with spaCy's rule-based sentencizer (issue 32).

MRCLens has no pipeline for other languages (:mod:`mrclens.languages`), but where a language's
script ends sentences with punctuation and separates words by spaces (Spanish, Russian, Arabic;
not Thai, Chinese, Japanese), spaCy's ``spacy.blank(lang)`` tokenizer with the rule-based
``sentencizer`` (a sentence ends at ``. ! ?`` and their kin, no model download) gives what the
chance-corrected figures of :mod:`mrclens.stats.chance` need:

* **sentence units**: the sentencizer's sentences, merged where a gold answer crosses a boundary
  (:func:`mrclens.units.sentence_units`, the same rule as English);
* **tokens**: the tokenizer's tokens holding a word character, lower-cased (punctuation dropped);
* **stop words**: the language's spaCy list (``spacy.lang.<lang>.stop_words``, interrogatives included).

:func:`sentencizer_ranks` computes all three ranks the English way (position; TF-IDF similarity
:func:`mrclens.stats.similarity.similarity_ranks` over these tokens; share of the question's
content words, :func:`mrclens.stats.overlap.content_word_share`). Only the ranks in :data:`FIGURES`
enter the statistics (:func:`sentencizer_section`): a rank is kept when on XQuAD Spanish, Russian
and Arabic it agrees with the same figure of the English originals within
:data:`mrclens.scoring.model_free.RANK_MARGIN` points (``benchmarks/bench_sentencizer_ranks.py``,
BENCHMARKS.md); the others stay "not computed", so ``mrclens check`` skips their rules.
"""

from __future__ import annotations

import functools
import importlib

from mrclens.nlp import refuse_too_long
from mrclens.parsing import ParsedText
from mrclens.squad import Dataset
from mrclens.stats.chance import CHANCE_FIGURES, RANK_FIGURES, percentile_rank, top_share
from mrclens.stats.overlap import content_word_share
from mrclens.stats.similarity import similarity_rank_tops
from mrclens.units import answer_unit_indices, sentence_units
from mrclens.vocabulary import WORD_PATTERN

#: The spaCy language codes read with the sentencizer (``spacy.blank`` languages whose script marks
#: sentence ends with punctuation and separates words by spaces), measured on XQuAD.
LANGUAGES = ("es", "ru", "ar")
#: The ranks of :data:`~mrclens.stats.chance.RANK_FIGURES` that agree with English within
#: ``RANK_MARGIN`` on XQuAD es, ru and ar (BENCHMARKS.md), so that they are computed and their rules run.
FIGURES: tuple[str, ...] = ("position_rank",)


@functools.lru_cache(maxsize=8)
def pipeline(lang: str):
    """``spacy.blank(lang)`` with the rule-based ``sentencizer`` (built once per language).

    Raises:
        ValueError: ``lang`` is not in :data:`LANGUAGES`.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"no sentencizer path for language {lang!r} (known: {', '.join(LANGUAGES)})")
    import spacy

    nlp = spacy.blank(lang)
    nlp.add_pipe("sentencizer")
    return nlp


def stop_words(lang: str) -> frozenset[str]:
    """spaCy's stop words of ``lang`` (``spacy.lang.<lang>.stop_words.STOP_WORDS``), lower-cased."""
    return frozenset(w.lower() for w in importlib.import_module(f"spacy.lang.{lang}.stop_words").STOP_WORDS)


def _tokens(doc) -> tuple[list[str], list[int]]:
    """The lower-cased tokens of ``doc`` that hold a word character, and their character starts."""
    kept = [t for t in doc if WORD_PATTERN.search(t.text)]
    return [t.lower_ for t in kept], [t.idx for t in kept]


def sentencizer_ranks(dataset: Dataset, lang: str) -> tuple[dict, tuple[list[float | None], ...]]:
    """All three chance-corrected ranks of ``dataset``'s answerable questions, read with the sentencizer.

    Args:
        dataset: span data in the language ``lang``.
        lang: a spaCy language code of :data:`LANGUAGES`.

    Returns:
        ``(section, (position ranks, similarity ranks, keyword ranks))``: the ``chance_corrected``
        section of :func:`mrclens.stats.core.chance_corrected_section` (percentile ranks in percent,
        100 = the answer sentence ranks first, 50 = chance; per sentence-count stratum), and the
        per-question lists (one value per answerable question, file order; ``None``: no rank).

    Raises:
        ValueError: ``lang`` is not in :data:`LANGUAGES`.
    """
    from mrclens.stats.core import chance_corrected_section

    nlp = pipeline(lang)
    stops = stop_words(lang)
    paragraphs = [p for _, p in dataset.iter_paragraphs()]
    answerable = [(pi, q) for pi, p in enumerate(paragraphs) for q in p.questions if q.answers]
    units, unit_tokens = [], []
    refuse_too_long([p.context for p in paragraphs])
    for p, doc in zip(paragraphs, nlp.pipe(p.context for p in paragraphs)):
        parsed = ParsedText(p.context, [t.idx for t in doc], [t.idx + len(t) for t in doc],
                            sent_starts=[s.start_char for s in doc.sents])
        us = sentence_units(p.context, parsed, [(a.answer_start, a.answer_end) for q in p.questions for a in q.answers])
        words, starts = _tokens(doc)
        units.append(us)
        unit_tokens.append([[w for w, i in zip(words, starts) if s <= i < e] for s, e in us])
    q_tokens = [_tokens(doc)[0] for doc in nlp.tokenizer.pipe(q.question for _, q in answerable)]
    unit_index, kw_rank, kw_top = [], [], []
    for (pi, q), words in zip(answerable, q_tokens):
        found = answer_unit_indices(units[pi], [(q.answers[0].answer_start, q.answers[0].answer_end)])
        u0 = min(found) if found else None
        unit_index.append(u0)
        sets = [set(ts) for ts in unit_tokens[pi]]
        kw_shares = None if u0 is None or len(sets) < 2 else [content_word_share(words, s, stops) for s in sets]
        kw_rank.append(None if kw_shares is None else percentile_rank(kw_shares, u0))
        kw_top.append(None if kw_shares is None else top_share(kw_shares, u0))
    sim_rank, sim_top = similarity_rank_tops([" ".join(ws) for ws in q_tokens], [pi for pi, _ in answerable],
                                [[" ".join(ts) for ts in uts] for uts in unit_tokens], unit_index, analyzer=str.split)
    return chance_corrected_section(unit_index, sim_rank, kw_rank, [len(units[pi]) for pi, _ in answerable],
                                    sim_top=sim_top, kw_top=kw_top)


def sentencizer_section(dataset: Dataset, lang: str, figures: tuple[str, ...] = FIGURES) -> dict:
    """The ``chance_corrected`` section of :func:`sentencizer_ranks` with only the ranks in ``figures``
    (default :data:`FIGURES`) and ``random_sentence_share_pct``: the statistics of ``mrclens stats
    --language-ok`` on data in ``lang``.

    Raises:
        ValueError: ``lang`` is not in :data:`LANGUAGES`, or ``figures`` names no rank of
            :data:`~mrclens.stats.chance.RANK_FIGURES`.
    """
    if not set(figures) <= set(RANK_FIGURES):
        raise ValueError(f"unknown ranks {sorted(set(figures) - set(RANK_FIGURES))}; known: {', '.join(RANK_FIGURES)}")
    section, _ = sentencizer_ranks(dataset, lang)
    dropped = [name for name in CHANCE_FIGURES if name not in figures]
    for name in dropped:  # a figure this reading does not compute (Question's set-apart share: English patterns)
        section.pop(name, None)
        section["by_sentence_count"].pop(name, None)
    return section
