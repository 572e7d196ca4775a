"""Invisible format characters (Unicode Cf) are removed in one place before language detection, parsing and the
model-free figures, with the answer offsets of the file kept exact (issue 55, item 13): real SQuAD text with soft
hyphens, zero-width spaces, joiners, direction marks and byte order marks inserted reads as the clean text does."""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

import pytest

from mrclens import invisible
from mrclens.squad import Answer, Article, Paragraph, QADataset, Question

SAMPLE = Path(__file__).resolve().parents[1] / "mrclens" / "data" / "squad-v1.1-sample.json.gz"
#: What is inserted, in turn: soft hyphen, zero-width space, ZWNJ, ZWJ, LRM, RLM, BOM.
CF = ("\u00ad", "\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\ufeff")


def test_the_planes_scanned_hold_every_format_character():
    everywhere = {c for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"}
    assert everywhere and all(any(c in block for block in invisible._CF_PLANES) for c in everywhere)
    assert set(invisible._pattern().pattern) >= {chr(c) for c in everywhere}


def _dirty(text: str, every: int, at_start: str = "") -> tuple[str, list[int]]:
    """``text`` with a Cf character inside every ``every``-th word (after its first letter) and between words,
    ``at_start`` before it; and where each original offset went (``len(text) + 1`` entries)."""
    out, where, k = [at_start], [], 0
    for i, ch in enumerate(text):
        if i > 0 and text[i - 1].isalpha() and ch.isalpha() and (i - 1 == 0 or not text[i - 2].isalpha()):
            k += 1
            if k % every == 0:
                out.append(CF[k % len(CF)])  # inside a word: "S\u00aduper"
        if ch == " " and k % 2:
            out.append(CF[(k + 3) % len(CF)])  # before a space
        where.append(sum(map(len, out)))
        out.append(ch)
    where.append(sum(map(len, out)))
    return "".join(out), where


def _with_invisible(dataset: QADataset) -> QADataset:
    """``dataset`` with Cf characters inserted in contexts and questions (a BOM or a mark before some questions),
    each answer moved with them so that ``context[answer_start:answer_end] == text`` still holds."""
    articles = []
    for article in dataset.articles:
        paragraphs = []
        for p in article.paragraphs:
            context, where = _dirty(p.context, 3)
            questions = []
            for n, q in enumerate(p.questions):
                question, _ = _dirty(q.question, 2, at_start=("\ufeff", "\u200e", "\u200b", "")[n % 4])
                answers = [Answer(context[where[a.answer_start]:where[a.answer_end - 1] + 1], where[a.answer_start])
                           for a in q.answers]
                questions.append(Question(q.id, question, answers, q.is_impossible))
            paragraphs.append(Paragraph(context, questions))
        articles.append(Article(article.title, paragraphs))
    return QADataset(articles, dataset.version, dataset.source)


@pytest.fixture(scope="module")
def clean_and_dirty():
    from mrclens.formats import load_dataset

    sample = load_dataset(SAMPLE)
    clean = QADataset([Article(a.title, a.paragraphs[:3]) for a in sample.articles[:4]], sample.version)
    dirty = _with_invisible(clean)
    n_cf = sum(invisible.has_invisible(q.question) for _, _, q in dirty.iter_questions())
    assert n_cf == len(dirty) and all(invisible.has_invisible(p.context) for _, p in dirty.iter_paragraphs())
    for _, p, q in dirty.iter_questions():  # the file's offsets are exact, Cf characters inside the answers too
        for a in q.answers:
            assert p.context[a.answer_start:a.answer_end] == a.text and invisible.visible(a.text)
    return clean, dirty


def test_the_visible_view_is_the_clean_text_with_exact_offsets(clean_and_dirty):
    clean, dirty = clean_and_dirty
    view = dirty.visible()
    assert view.to_json() == clean.to_json()
    assert dirty.to_json() != clean.to_json()  # the data itself is never changed
    assert clean.visible() is clean


def test_languages_read_the_clean_text(clean_and_dirty):
    """Before: questions with soft hyphens and zero-width characters read as Yoruba or "unknown"."""
    pytest.importorskip("lingua")
    from mrclens.languages import sample_paragraphs, text_shares

    clean, dirty = clean_and_dirty
    for data in (clean, dirty):
        contexts, questions, _ = sample_paragraphs(data)
        shares = [text_shares(contexts), text_shares(questions)]
        if data is clean:
            expected = shares
    assert shares == expected and max(shares[1], key=shares[1].get) == "English"


def test_parses_are_of_the_visible_text_with_offsets_into_the_original(clean_and_dirty, tmp_path):
    pytest.importorskip("spacy")
    from mrclens.parsing import parse_texts

    clean, dirty = clean_and_dirty
    texts = [(p.context, d.context) for (_, p), (_, d) in zip(clean.iter_paragraphs(), dirty.iter_paragraphs())]
    texts += [(q.question, d.question) for (_, _, q), (_, _, d) in zip(clean.iter_questions(), dirty.iter_questions())]
    for cache_dir in (tmp_path, tmp_path, False):  # parsed, read back from the cache, and without a cache
        parsed_clean = parse_texts([c for c, _ in texts], sentences=True, pos=True, cache_dir=cache_dir)
        parsed_dirty = parse_texts([d for _, d in texts], sentences=True, pos=True, cache_dir=cache_dir)
        for c, d in zip(parsed_clean, parsed_dirty):
            assert [invisible.visible(t) for t in d.token_texts()] == c.token_texts()
            assert d.pos == c.pos and len(d.sent_starts) == len(c.sent_starts)
            assert [invisible.visible(d.text[s:]) for s in d.sent_starts] == [c.text[s:] for s in c.sent_starts]
            assert all(d.text[s] not in CF for s in d.starts if s < len(d.text))


def test_figures_and_question_types_are_those_of_the_clean_text(clean_and_dirty, tmp_path):
    """Before: a BOM or a direction mark before "What" made every question "other" (question-type balance 100 %
    where the clean text reads 37.5 %), and soft hyphens split words for every overlap figure."""
    pytest.importorskip("spacy")
    from mrclens.stats import compute_stats

    clean, dirty = clean_and_dirty
    figures = [compute_stats(d, cache_dir=tmp_path, progress=False, n_process=1) for d in (clean, dirty)]
    for f in figures:
        for volatile in ("timings_s", "statistics_cache", "source"):
            f.pop(volatile, None)
    assert figures[1]["question_types"] == figures[0]["question_types"]
    assert figures[0]["question_types"]["largest_pct"] < 100
    assert figures[1] == figures[0]
