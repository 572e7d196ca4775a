"""Network building blocks shared by the span reader and the multiple-choice baseline (PyTorch).

:class:`BiLSTM` is an exact bidirectional LSTM on right-padded batches: two unidirectional
``nn.LSTM`` (``fw``, ``bw``); padding sits after each sequence, so the forward direction is exact,
and the backward direction runs on each sequence reversed within its own length
(:func:`reverse_index`), so padding never enters the real positions' states either.
:meth:`BiLSTM.forward_packed` runs the same weights as one bidirectional call on packed sequences
(``torch.nn.utils.rnn.pack_padded_sequence``). :data:`NEG_INF` and :func:`neg_fill` are the "minus
infinity" written at masked positions.

Used by :class:`mrclens.baseline_model.model.CoAttentionReader` (span extraction) and
:class:`mrclens.multiple_choice.model.PairScorer` (multiple choice).
"""

from __future__ import annotations

import warnings

import torch
from torch import nn
from torch.nn.utils.rnn import PackedSequence, pack_padded_sequence, pad_packed_sequence

#: The value written at masked positions of float32 scores (logits).
NEG_INF = -1e30

# The packed path hands cuDNN the fw/bw weights as separate tensors; cuDNN then copies them into
# one buffer per call (4·hidden·(in + hidden + 2) floats per direction: about 0.5 MB here) and warns.
_NOT_CONTIGUOUS = "RNN module weights are not part of single contiguous chunk"


def neg_fill(t: torch.Tensor) -> float:
    """The "minus infinity" written at masked positions: ``-1e30``, or the dtype's lowest finite
    value where ``-1e30`` does not fit (float16 under autocast)."""
    return NEG_INF if t.dtype != torch.float16 else float(torch.finfo(t.dtype).min)


def reverse_index(lengths: torch.Tensor, max_len: int) -> torch.Tensor:
    """Index that reverses each sequence within its own length and leaves padding in place.

    Args:
        lengths: ``(batch,)`` sequence lengths (tokens).
        max_len: padded length ``L``.

    Returns:
        ``(batch, L)`` long tensor ``idx`` with ``idx[b, t] = lengths[b] - 1 - t`` for
        ``t < lengths[b]`` and ``t`` otherwise; applying it twice is the identity.
    """
    t = torch.arange(max_len, device=lengths.device).unsqueeze(0)
    lens = lengths.unsqueeze(1)
    return torch.where(t < lens, lens - 1 - t, t)


def _gather_time(x: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    return x.gather(1, idx.unsqueeze(-1).expand(-1, -1, x.size(-1)))


class BiLSTM(nn.Module):
    """Exact bidirectional LSTM on right-padded batches.

    ``forward(x, rev)``: ``x`` ``(batch, L, in_dim)``, ``rev`` from :func:`reverse_index`;
    returns ``(batch, L, 2·hidden)`` (forward states then backward states). Outputs at real
    positions do not depend on the padding; outputs at padded positions are meaningless.
    """

    def __init__(self, in_dim: int, hidden: int):
        super().__init__()
        self.fw = nn.LSTM(in_dim, hidden, batch_first=True)
        self.bw = nn.LSTM(in_dim, hidden, batch_first=True)

    def forward(self, x: torch.Tensor, rev: torch.Tensor) -> torch.Tensor:
        out_f, _ = self.fw(x)
        out_b, _ = self.bw(_gather_time(x, rev))
        return torch.cat([out_f, _gather_time(out_b, rev)], dim=-1)

    def forward_packed(self, x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """The same function as :meth:`forward`, as one bidirectional call on packed sequences.

        Args:
            x: ``(batch, L, in_dim)`` right-padded inputs.
            lengths: ``(batch,)`` int64 lengths (tokens, each ``>= 1``) **on the CPU** (packing
                reads them on the host; a CPU tensor avoids a device synchronisation).

        Returns:
            ``(batch, L, 2·hidden)``: forward then backward states; zeros at padded positions.
        """
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        h0 = x.new_zeros(2, x.size(0), self.fw.hidden_size)
        weights = [self.fw.weight_ih_l0, self.fw.weight_hh_l0, self.fw.bias_ih_l0, self.fw.bias_hh_l0,
                   self.bw.weight_ih_l0, self.bw.weight_hh_l0, self.bw.bias_ih_l0, self.bw.bias_hh_l0]
        # what nn.LSTM(bidirectional=True) runs, with fw/bw as the two directions' weights
        with warnings.catch_warnings():  # silenced here only: importing the module changes no global state
            warnings.filterwarnings("ignore", message=_NOT_CONTIGUOUS)
            data, _, _ = torch._VF.lstm(packed.data, packed.batch_sizes, (h0, h0), weights, True, 1, 0.0,
                                        self.training, True)
        out = PackedSequence(data, packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
        return pad_packed_sequence(out, batch_first=True, total_length=x.size(1))[0]
