"""The co-attention BiLSTM reader network and its span decoder (PyTorch).

Architecture (issue 4; after the SQuAD model of Clark, Yatskar & Zettlemoyer 2019 and BiDAF,
Seo et al. 2017):

1. Embedding: frozen word vectors (a trainable vector for out-of-vocabulary words) concatenated
   with a character CNN (``char_filters`` filters of width ``char_width``, max-pooled per word),
   plus two exact-match features when ``exact_match_features`` is on.
2. A shared BiLSTM (``hidden`` units per direction) encodes context and question.
3. Co-attention: trilinear similarity ``S_ij = w·[c_i; q_j; c_i∘q_j]``, context-to-question
   attention ``a_i = Σ_j softmax_j(S_ij) q_j``, question-to-context attention
   ``b = Σ_i softmax_i(max_j S_ij) c_i``, then ``[c; a; c∘a; c∘b]`` through a learned projection
   (linear + ReLU, ``2·hidden`` units).
4. Pooling: a BiLSTM over the projection gives ``m1`` and the start logits; a second BiLSTM over
   ``[projection; m1]`` (the start representation) gives the end logits (Clark et al.'s
   "ChainBiMapper").
5. No-answer option (only when built with ``no_answer=True``, i.e. trained on data with
   unanswerable questions, SQuAD v2.0): a learned no-answer logit ``z`` per question, computed as
   in Clark & Gardner's (2018, "Simple and Effective Multi-Paragraph Reading Comprehension",
   §4.3 / DocumentQA's SQuAD 2.0 model, Rajpurkar, Jia & Liang 2018) from the start and end
   representations pooled with the start and end distributions:
   ``z = w_2·ReLU(W_1[Σ_i p_s(i)·[g_i; m1_i]; Σ_i p_e(i)·[g_i; m2_i]])``. ``z`` is a "null"
   option scored against every span: ``P(no answer) = e^z / (e^z + Σ_ij e^{s_i + e_j})``, the
   joint softmax of Levy et al. (2017, "Zero-Shot Relation Extraction via Reading Comprehension")
   and Clark & Gardner (2018). Training and decoding live in :mod:`mrclens.baseline_model.no_answer`;
   without the option the network, its parameters and its outputs are exactly those of a v1.1 reader.

Bidirectional LSTMs keep two unidirectional ``nn.LSTM`` (``fw``, ``bw``) and run in one of two
ways (``ReaderConfig.lstm_impl``, :func:`uses_packed_lstm`), with the same weights and the same
outputs at real positions up to float rounding:

* ``"padded"`` (the default): the two LSTMs on *padded* batches (faster than packed sequences on
  the CPU and, measured, on an H100 with cuDNN). Padding sits after each sequence, so the forward direction is exact; the backward
  direction runs on each sequence reversed within its own length
  (:func:`~mrclens.baseline_model.layers.reverse_index`), so
  padding never enters the real positions' states either.
* ``"packed"``: one bidirectional LSTM call on packed sequences
  (``torch.nn.utils.rnn.pack_padded_sequence``), which cuDNN runs as one call for both
  directions; context and question go through the shared encoder in one call. Fewer launches,
  yet 2.4× slower per training step than ``"padded"`` on an H100 (BENCHMARKS.md).
"""

from __future__ import annotations

import torch
from torch import nn
import torch.nn.functional as F

from mrclens.baseline_model.config import ReaderConfig
from mrclens.baseline_model.layers import BiLSTM, neg_fill, reverse_index

LSTM_IMPLS = ("auto", "padded", "packed")


def uses_packed_lstm(config: ReaderConfig, device: torch.device) -> bool:
    """Whether the BiLSTMs run packed: ``config.lstm_impl == "packed"`` (``"auto"`` means padded on
    every device: the packed call was measured slower on an H100, see BENCHMARKS.md). ``device`` is
    where the batch lies (kept so that ``"auto"`` can depend on it).

    Raises:
        ValueError: an unknown ``lstm_impl``.
    """
    impl = config.lstm_impl
    if impl not in LSTM_IMPLS:
        raise ValueError(f"lstm_impl must be one of {', '.join(LSTM_IMPLS)}, got {impl!r}")
    return impl == "packed"


class CoAttentionReader(nn.Module):
    """The reader network.

    Args:
        config: hyper-parameters (:class:`ReaderConfig`).
        word_vectors: float32 ``(n_words, word_dim)`` frozen matrix (rows 0/1: padding/OOV).
        n_chars: size of the character vocabulary including the two reserved ids.
        no_answer: add the no-answer logit (module docstring, item 5); ``forward`` then returns
            three tensors. Off: the v1.1 network, unchanged (same parameters, same initialisation).
    """

    def __init__(self, config: ReaderConfig, word_vectors: torch.Tensor, n_chars: int, no_answer: bool = False):
        super().__init__()
        h, c = config.hidden, config.char_filters
        self.config = config
        self.register_buffer("word_vectors", word_vectors.float(), persistent=True)
        self.oov = nn.Parameter(torch.zeros(word_vectors.size(1)))
        self.char_emb = nn.Embedding(n_chars, config.char_dim, padding_idx=0)
        self.char_cnn = nn.Conv1d(config.char_dim, c, config.char_width)
        n_feat = 2 if config.exact_match_features else 0
        self.encoder = BiLSTM(word_vectors.size(1) + c + n_feat, h)
        self.att_w = nn.Linear(6 * h, 1)  # trilinear weights for [c; q; c∘q]
        self.project = nn.Linear(8 * h, 2 * h)
        self.start_lstm = BiLSTM(2 * h, h)
        self.end_lstm = BiLSTM(4 * h, h)
        self.start_out = nn.Linear(4 * h, 1)
        self.end_out = nn.Linear(4 * h, 1)
        self.drop = nn.Dropout(config.dropout)
        self.no_answer = bool(no_answer)
        if self.no_answer:  # created last, so a v1.1 reader draws the same initial weights as before
            self.null_hidden = nn.Linear(8 * h, h)
            self.null_out = nn.Linear(h, 1)

    def embed_types(self, type_chars: torch.Tensor) -> torch.Tensor:
        """Character-CNN vectors of distinct token strings: ``(n_types, max_word_chars)`` → ``(n_types, char_filters)``."""
        width = self.config.char_width
        if type_chars.size(1) < width:
            type_chars = F.pad(type_chars, (0, width - type_chars.size(1)))
        x = self.drop(self.char_emb(type_chars)).transpose(1, 2)  # (n, char_dim, chars)
        return F.relu(self.char_cnn(x)).max(dim=2).values

    def _embed(self, words, types, char_vecs, feats):
        w = self.word_vectors[words]
        w = torch.where((words == 1).unsqueeze(-1), self.oov.expand_as(w), w)
        parts = [w, char_vecs[types]]
        if feats is not None:
            parts.append(feats)
        return self.drop(torch.cat(parts, dim=-1))

    def forward(self, batch: dict[str, torch.Tensor]) -> tuple[torch.Tensor, ...]:
        """Span logits for a batch.

        ``batch`` holds: ``c_words``/``c_types`` ``(B, Lc)`` word ids and indices into
        ``type_chars``; ``q_words``/``q_types`` ``(B, Lq)``; ``c_len``/``q_len`` ``(B,)``;
        ``type_chars`` ``(U, max_word_chars)`` char ids of the batch's distinct tokens; and,
        with exact-match features, ``c_feats`` ``(B, Lc, 2)`` / ``q_feats`` ``(B, Lq, 2)``.
        Optional ``c_len_host``/``q_len_host``: CPU copies of the lengths for the packed LSTMs
        (:func:`uses_packed_lstm`); without them the lengths are copied to the host.

        Returns:
            ``(start_logits, end_logits)``, each ``(B, Lc)``, with ``-1e30`` at padded positions
            (the dtype's lowest value under float16 autocast, :func:`neg_fill`); with the
            no-answer option also ``null_logits`` ``(B,)`` (``z`` of the module docstring).
        """
        c_len, q_len = batch["c_len"], batch["q_len"]
        Lc, Lq = batch["c_words"].size(1), batch["q_words"].size(1)
        c_mask = torch.arange(Lc, device=c_len.device).unsqueeze(0) < c_len.unsqueeze(1)
        q_mask = torch.arange(Lq, device=q_len.device).unsqueeze(0) < q_len.unsqueeze(1)
        char_vecs = self.embed_types(batch["type_chars"])
        c_in = self._embed(batch["c_words"], batch["c_types"], char_vecs, batch.get("c_feats"))
        q_in = self._embed(batch["q_words"], batch["q_types"], char_vecs, batch.get("q_feats"))
        if uses_packed_lstm(self.config, c_len.device):
            c_host = batch.get("c_len_host", c_len).cpu()
            q_host = batch.get("q_len_host", q_len).cpu()
            B, L = c_in.size(0), max(Lc, Lq)
            both = torch.cat([F.pad(c_in, (0, 0, 0, L - Lc)), F.pad(q_in, (0, 0, 0, L - Lq))])
            enc = self.encoder.forward_packed(both, torch.cat([c_host, q_host]))
            c, q = enc[:B, :Lc], enc[B:, :Lq]

            def start_lstm(x):
                return self.start_lstm.forward_packed(x, c_host)

            def end_lstm(x):
                return self.end_lstm.forward_packed(x, c_host)
        else:
            c_rev, q_rev = reverse_index(c_len, Lc), reverse_index(q_len, Lq)
            c, q = self.encoder(c_in, c_rev), self.encoder(q_in, q_rev)

            def start_lstm(x):
                return self.start_lstm(x, c_rev)

            def end_lstm(x):
                return self.end_lstm(x, c_rev)
        # trilinear similarity S (B, Lc, Lq)
        d = c.size(-1)
        w_c, w_q, w_cq = self.att_w.weight[0, :d], self.att_w.weight[0, d:2 * d], self.att_w.weight[0, 2 * d:]
        s = torch.bmm(c * w_cq, q.transpose(1, 2)) + (c @ w_c).unsqueeze(2) + (q @ w_q).unsqueeze(1) + self.att_w.bias
        s = s.masked_fill(~q_mask.unsqueeze(1), neg_fill(s))
        a = torch.bmm(torch.softmax(s, dim=2), q)  # context-to-question (B, Lc, d)
        s_max = s.max(dim=2).values
        s_max = s_max.masked_fill(~c_mask, neg_fill(s_max))
        b = torch.bmm(torch.softmax(s_max, dim=1).unsqueeze(1), c)  # question-to-context (B, 1, d)
        g = torch.cat([c, a, c * a, c * b.expand_as(c)], dim=-1)
        g = F.relu(self.project(self.drop(g)))
        m1 = start_lstm(self.drop(g))
        m2 = end_lstm(self.drop(torch.cat([g, m1], dim=-1)))
        h_start, h_end = torch.cat([g, m1], dim=-1), torch.cat([g, m2], dim=-1)
        start = self.start_out(h_start).squeeze(-1)
        end = self.end_out(h_end).squeeze(-1)
        start, end = start.masked_fill(~c_mask, neg_fill(start)), end.masked_fill(~c_mask, neg_fill(end))
        if not self.no_answer:
            return start, end
        # Clark & Gardner (2018): pool the start/end representations with the start/end distributions
        p_s = torch.softmax(start.float(), dim=1).to(h_start.dtype).unsqueeze(1)
        p_e = torch.softmax(end.float(), dim=1).to(h_end.dtype).unsqueeze(1)
        pooled = torch.cat([torch.bmm(p_s, h_start), torch.bmm(p_e, h_end)], dim=-1).squeeze(1)
        null = self.null_out(F.relu(self.null_hidden(self.drop(pooled)))).squeeze(-1)
        return start, end, null


def decode_spans(start_logits: torch.Tensor, end_logits: torch.Tensor, max_answer_tokens: int) -> torch.Tensor:
    """Best span per row: ``argmax p_start(i)·p_end(j)`` subject to ``i <= j < i + max_answer_tokens``.

    Rule from BiDAF (Seo et al. 2017) with the span-length cap of Clark & Gardner's SQuAD decoder.
    Padded positions must carry very negative logits (as :meth:`CoAttentionReader.forward` gives).

    Args:
        start_logits, end_logits: ``(B, L)``.
        max_answer_tokens: longest allowed span, in tokens (``>= 1``).

    Returns:
        long tensor ``(B, 2)`` of inclusive token indices ``(i, j)``.

    Raises:
        ValueError: ``max_answer_tokens < 1``.
    """
    return best_spans(start_logits, end_logits, max_answer_tokens)[0]


def best_spans(start_logits: torch.Tensor, end_logits: torch.Tensor,
               max_answer_tokens: int) -> tuple[torch.Tensor, torch.Tensor]:
    """:func:`decode_spans` plus the chosen span's raw score ``s_i + e_j`` (float32 ``(B,)``).

    Raises:
        ValueError: ``max_answer_tokens < 1``.
    """
    if max_answer_tokens < 1:
        raise ValueError(f"max_answer_tokens must be at least 1, got {max_answer_tokens}")
    ls = torch.log_softmax(start_logits.float(), dim=1)
    le = torch.log_softmax(end_logits.float(), dim=1)
    B, L = ls.shape
    k_max = min(max_answer_tokens, L)
    scores = torch.full((B, k_max, L), float("-inf"), device=ls.device)
    for k in range(k_max):  # span length k + 1 starting at i: score ls[i] + le[i + k]
        scores[:, k, : L - k] = ls[:, : L - k] + le[:, k:]
    flat = scores.view(B, -1).argmax(dim=1)
    k, i = flat // L, flat % L
    spans = torch.stack([i, i + k], dim=1)
    raw = start_logits.float().gather(1, spans[:, :1]) + end_logits.float().gather(1, spans[:, 1:])
    return spans, raw.squeeze(1)
