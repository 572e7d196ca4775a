"""The network's building blocks: exact BiLSTM on padded batches, masking, span decoding."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch

from mrclens.baseline_model import ReaderConfig, decode_spans
from mrclens.baseline_model.layers import BiLSTM, reverse_index
from mrclens.baseline_model.model import CoAttentionReader


def test_reverse_index_reverses_within_each_length_and_keeps_padding():
    idx = reverse_index(torch.tensor([3, 5, 1]), 5)
    assert idx.tolist() == [[2, 1, 0, 3, 4], [4, 3, 2, 1, 0], [0, 1, 2, 3, 4]]


def test_bilstm_padded_equals_unpadded_on_real_positions():
    torch.manual_seed(0)
    lstm = BiLSTM(6, 4).eval()
    short = torch.randn(1, 5, 6)
    long_ = torch.randn(1, 9, 6)
    padded = torch.cat([torch.cat([short, torch.randn(1, 4, 6)], dim=1), long_])  # junk in the padding
    lengths = torch.tensor([5, 9])
    out = lstm(padded, reverse_index(lengths, 9))
    alone = lstm(short, reverse_index(torch.tensor([5]), 5))
    torch.testing.assert_close(out[0, :5], alone[0], rtol=0, atol=1e-6)
    torch.testing.assert_close(out[1], lstm(long_, reverse_index(torch.tensor([9]), 9))[0], rtol=0, atol=1e-6)
    # the backward states really are backward: position 0 of the backward half depends on the last real token
    changed = short.clone()
    changed[0, 4] += 1.0
    moved = lstm(changed, reverse_index(torch.tensor([5]), 5))
    assert not torch.allclose(moved[0, 0, 4:], alone[0, 0, 4:])
    assert torch.allclose(moved[0, 0, :4], alone[0, 0, :4])


def test_plain_bidirectional_lstm_on_padding_is_not_exact():
    """Why BiLSTM exists: torch's bidirectional LSTM on a right-padded batch lets padding into the backward states."""
    torch.manual_seed(0)
    plain = torch.nn.LSTM(6, 4, batch_first=True, bidirectional=True)
    short = torch.randn(1, 5, 6)
    padded = torch.cat([short, torch.randn(1, 4, 6)], dim=1)
    assert not torch.allclose(plain(padded)[0][0, :5, 4:], plain(short)[0][0, :, 4:], atol=1e-4)


def _batch(c_words, q_words, vocab_chars=7):
    """A batch in the format of CoAttentionReader.forward from lists of word ids (types = words)."""
    B = len(c_words)
    Lc, Lq = max(map(len, c_words)), max(map(len, q_words))
    cw = torch.zeros(B, Lc, dtype=torch.long)
    qw = torch.zeros(B, Lq, dtype=torch.long)
    for b in range(B):
        cw[b, : len(c_words[b])] = torch.tensor(c_words[b])
        qw[b, : len(q_words[b])] = torch.tensor(q_words[b])
    gen = torch.Generator().manual_seed(1)
    type_chars = torch.randint(2, vocab_chars, (20, 6), generator=gen)
    type_chars[0] = 0
    return {"c_words": cw, "q_words": qw, "c_types": cw.clone(), "q_types": qw.clone(), "type_chars": type_chars,
            "c_len": torch.tensor([len(c) for c in c_words]), "q_len": torch.tensor([len(q) for q in q_words])}


def test_reader_logits_of_an_example_do_not_depend_on_its_batch():
    torch.manual_seed(0)
    cfg = ReaderConfig(hidden=8, char_filters=6, char_dim=5, max_word_chars=6)
    model = CoAttentionReader(cfg, torch.randn(20, 50), 7).eval()
    c, q = [3, 4, 5, 1, 6, 7], [4, 9, 1]
    alone = model(_batch([c], [q]))
    together = model(_batch([c, [8, 9, 10, 11, 12, 13, 14, 15, 16]], [q, [2, 3, 4, 5, 6]]))
    for a, t in zip(alone, together):
        torch.testing.assert_close(t[0, : len(c)], a[0], rtol=0, atol=1e-5)
        assert (t[0, len(c):] <= -1e29).all()  # padding gets no probability


def _brute_force(ls, le, max_len):
    best, arg = -np.inf, None
    for i, j in itertools.product(range(len(ls)), repeat=2):
        if i <= j < i + max_len and ls[i] + le[j] > best:
            best, arg = ls[i] + le[j], (i, j)
    return arg


def test_decode_respects_span_limit_on_hand_made_logits():
    L = 25
    start = torch.zeros(1, L)
    end = torch.zeros(1, L)
    start[0, 0] = 6.0
    end[0, 20] = 8.0  # the best end is 21 tokens after the best start: not allowed with 17
    end[0, 3] = 3.0  # (0, 3) scores 6 + 3 = 9, beating (20, 20) at 0 + 8
    assert decode_spans(start, end, 17).tolist() == [[0, 3]]
    assert decode_spans(start, end, 21).tolist() == [[0, 20]]
    # an end before the start is never chosen
    start2, end2 = torch.zeros(1, 6), torch.zeros(1, 6)
    start2[0, :4] = -20.0
    start2[0, 4], end2[0, 1], end2[0, 5] = 5.0, 9.0, 1.0  # (4, 1) would score 14 but ends before it starts
    assert decode_spans(start2, end2, 17).tolist() == [[4, 5]]
    assert decode_spans(start2, end2, 1).tolist() == [[4, 4]]


def test_decode_matches_brute_force_and_ignores_padding():
    gen = torch.Generator().manual_seed(3)
    start, end = torch.randn(8, 30, generator=gen) * 3, torch.randn(8, 30, generator=gen) * 3
    lengths = [30, 12, 5, 1, 30, 17, 18, 2]
    for b, n in enumerate(lengths):
        start[b, n:] = -1e30
        end[b, n:] = -1e30
    spans = decode_spans(start, end, 4).tolist()
    for b, n in enumerate(lengths):
        ls = torch.log_softmax(start[b, :n], 0).numpy()
        le = torch.log_softmax(end[b, :n], 0).numpy()
        assert tuple(spans[b]) == _brute_force(ls, le, 4)
        assert 0 <= spans[b][0] <= spans[b][1] < min(n, spans[b][0] + 4)


@pytest.mark.parametrize("max_len", [0, -1])
def test_decode_rejects_a_non_positive_span_limit(max_len):
    with pytest.raises(ValueError):
        decode_spans(torch.zeros(1, 3), torch.zeros(1, 3), max_len)
