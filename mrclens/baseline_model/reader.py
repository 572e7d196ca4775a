"""The trained reader: batching, prediction, saving and loading.

A :class:`Reader` bundles a :class:`~mrclens.baseline_model.config.ReaderConfig`, the
vocabularies (:class:`~mrclens.baseline_model.vectors.Vocab`) and the network
(:class:`~mrclens.baseline_model.model.CoAttentionReader`). ``Reader.predict`` returns the
official prediction format ``{question id: answer text}``, each answer an exact substring of its
context (``context[start_of_first_token : end_of_last_token]``).

Checkpoint directory layout (:meth:`Reader.save`; the first five files are those of every reader
checkpoint, :mod:`mrclens.baseline_model.checkpoint`)::

    config.json        ReaderConfig.to_dict()
    vocab.json         {"words": [...], "chars": [...]}
    weights.pt         {"format": "mrclens-coattention-reader-1", "architecture", "vocab_sha256",
                       "state_dict"} (torch.save; read back with torch.load(weights_only=True))
    training_log.json  per-evaluation records (see mrclens.baseline_model.train)
    training.json      how training ended: TrainingRecord (mrclens.artifacts.training_record);
                       absent for readers saved before issue 16
    no_answer.json     only for a reader with the no-answer option (SQuAD v2.0,
                       mrclens.baseline_model.no_answer): {"format_version": 1, "threshold",
                       "threshold_score", "chosen_on", and the held-out EM/F1 at it}

A reader trained on data with unanswerable questions abstains: it answers ``""`` when its
no-answer probability exceeds its threshold (:mod:`mrclens.baseline_model.no_answer`).
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import torch

from mrclens.artifacts.training_record import TrainingRecord
from mrclens.baseline_model import memory
from mrclens.baseline_model.checkpoint import (CONFIG_FILE, VOCAB_FILE, check_architecture, load_weights,
                                               read_training_log, read_training_record, read_weights,
                                               require_files, write_checkpoint)
from mrclens.baseline_model.config import ReaderConfig
from mrclens.baseline_model.model import CoAttentionReader, best_spans
from mrclens.baseline_model.no_answer import DEFAULT_THRESHOLD, no_answer_probs, threshold_score
from mrclens.baseline_model.runtime import TrainedModel
from mrclens.baseline_model.tokenize import TokenizedData, tokenize_dataset
from mrclens.baseline_model.vectors import Vocab
from mrclens.errors import MRCLensError, CheckpointError
from mrclens.metrics.no_answer import apply_threshold
from mrclens.io_utils import atomic_write_json
from mrclens.progress import progress as progress_bar
from mrclens.squad import Dataset

#: ``weights.pt``'s ``format`` value.
CHECKPOINT_FORMAT = "mrclens-coattention-reader-1"
NO_ANSWER_FILE = "no_answer.json"


AMP_MODES = ("auto", "off", "bf16", "fp16")


def amp_dtype(config: ReaderConfig, device: torch.device) -> torch.dtype | None:
    """The autocast dtype of ``config.amp`` on ``device``: ``None`` (float32), bfloat16 or float16.

    Mixed precision is a GPU feature: ``"bf16"`` is bfloat16 and ``"fp16"`` float16 on a CUDA
    device; ``"off"`` and ``"auto"`` are float32 there (bf16 was measured slower for this model
    on an H100). On the CPU every mode runs float32 (``None``): oneDNN's LSTM has no
    reduced-precision kernel on the CPUs tried (torch 2.13: "could not create a primitive
    descriptor for the LSTM forward propagation primitive" under CPU autocast), so a reader
    trained with ``amp="bf16"`` on a GPU predicts in float32 on the CPU.

    Raises:
        MRCLensError: an unknown ``amp`` value.
    """
    mode = config.amp
    if mode not in AMP_MODES:
        raise MRCLensError(f"amp must be one of {', '.join(AMP_MODES)}, got {mode!r}")
    if device.type != "cuda" or mode in ("off", "auto"):
        return None
    return torch.float16 if mode == "fp16" else torch.bfloat16


def autocast(config: ReaderConfig, device: torch.device):
    """``torch.autocast`` for :func:`amp_dtype`, or a no-op context when it is ``None``."""
    dtype = amp_dtype(config, device)
    return torch.autocast(device.type, dtype=dtype) if dtype is not None else contextlib.nullcontext()


@dataclass
class EncodedData:
    """Tokenised data plus per-token-type lookup tables for one reader's vocabulary.

    Attributes:
        td: the tokens (:class:`TokenizedData`).
        type_word: ``int64 (n_types,)`` word id of each distinct token (0 for the padding type).
        type_chars: ``int64 (n_types, max_word_chars)`` character ids of each distinct token.
        type_lower: ``int64 (n_types,)`` an id shared by all types with the same lower-cased form.
        ctx_len: ``int64 (n_questions,)`` context length in tokens of each question's paragraph.
    """

    td: TokenizedData
    type_word: np.ndarray
    type_chars: np.ndarray
    type_lower: np.ndarray
    ctx_len: np.ndarray


def encode(td: TokenizedData, vocab: Vocab, config: ReaderConfig) -> EncodedData:
    """Map a tokenised dataset onto ``vocab`` (see :class:`EncodedData`)."""
    type_word = np.array([vocab.word_id(t) for t in td.types], dtype=np.int64)
    type_word[0] = 0
    type_chars = np.stack([vocab.char_ids(t, config.max_word_chars) for t in td.types]).astype(np.int64)
    lower: dict[str, int] = {}
    type_lower = np.array([lower.setdefault(t.lower(), len(lower)) for t in td.types], dtype=np.int64)
    ctx_len = np.array([len(td.ctx_types[p]) for p in td.q_para], dtype=np.int64)
    return EncodedData(td, type_word, type_chars, type_lower, ctx_len)


def make_batch(data: EncodedData, idx: np.ndarray, config: ReaderConfig, device: torch.device,
               max_ctx: int | None = None, pad_multiple: int | None = None) -> dict[str, torch.Tensor]:
    """Pad the questions ``idx`` into one batch for :meth:`CoAttentionReader.forward`.

    Contexts are cut to ``max_ctx`` tokens when given. Padded lengths are rounded up to a multiple
    of ``pad_multiple`` (default ``config.pad_multiple``; exact: padding never reaches real positions). Adds ``spans`` ``(B, 2)`` (gold token span,
    ``-1`` if none) for training, and ``c_len_host``/``q_len_host``: the lengths as CPU tensors
    (for the packed LSTMs, which read lengths on the host). On a CUDA device the copies are
    asynchronous (``non_blocking``).
    """
    td = data.td
    ctxs = [td.ctx_types[p][:max_ctx] for p in td.q_para[idx]]
    qs = [td.q_types[i] for i in idx]
    B = len(idx)
    c_len = np.array([len(c) for c in ctxs], dtype=np.int64)
    q_len = np.array([max(len(q), 1) for q in qs], dtype=np.int64)
    m = max(pad_multiple or config.pad_multiple, 1)  # few distinct shapes: oneDNN caches one LSTM primitive per shape
    c_t = np.zeros((B, -(-int(c_len.max()) // m) * m), dtype=np.int64)
    q_t = np.zeros((B, -(-int(q_len.max()) // m) * m), dtype=np.int64)
    for b in range(B):
        c_t[b, : c_len[b]] = ctxs[b]
        q_t[b, : len(qs[b])] = qs[b]
    uniq, inv = np.unique(np.concatenate([c_t.ravel(), q_t.ravel()]), return_inverse=True)
    inv = inv.reshape(-1)
    batch = {
        "c_words": data.type_word[c_t], "q_words": data.type_word[q_t],
        "c_types": inv[: c_t.size].reshape(c_t.shape), "q_types": inv[c_t.size:].reshape(q_t.shape),
        "type_chars": data.type_chars[uniq], "c_len": c_len, "q_len": q_len,
        "spans": td.spans[idx].astype(np.int64),
    }
    if config.exact_match_features:
        c_f = np.zeros(c_t.shape + (2,), dtype=np.float32)
        q_f = np.zeros(q_t.shape + (2,), dtype=np.float32)
        for b in range(B):
            c, q = c_t[b, : c_len[b]], q_t[b, : len(qs[b])]
            c_f[b, : len(c), 0] = np.isin(c, q)
            c_f[b, : len(c), 1] = np.isin(data.type_lower[c], data.type_lower[q])
            q_f[b, : len(q), 0] = np.isin(q, c)
            q_f[b, : len(q), 1] = np.isin(data.type_lower[q], data.type_lower[c])
        batch["c_feats"], batch["q_feats"] = c_f, q_f
    out = {k: torch.from_numpy(v).to(device, non_blocking=True) for k, v in batch.items()}
    out["c_len_host"], out["q_len_host"] = torch.from_numpy(c_len), torch.from_numpy(q_len)
    return out


#: Prediction batches (sorted by context length) hold at most this many questions ...
PREDICT_BATCH_SIZE = 256
#: ... and at most this many context tokens (questions × the batch's longest context), so that a
#: batch of long contexts is no larger in memory than 64 contexts of 512 tokens. Measured on 2 CPU
#: cores (SQuAD v1.1 dev, 10,570 questions, paper-fast network, ``benchmarks/bench_predict.py``):
#: 200 questions/s with batches of 64 (the former setting), 266 with 256 questions and no token cap
#: (but 0.6 GiB more peak memory in a full audit); BENCHMARKS.md, "Training and prediction speed on the CPU".
PREDICT_MAX_TOKENS = 64 * 512


def length_batches(lengths: np.ndarray, batch_size: int, max_tokens: int | None = None) -> Iterator[np.ndarray]:
    """Indices grouped into batches of similar length, for prediction.

    Args:
        lengths: ``(n,)`` context lengths (tokens).
        batch_size: most questions per batch.
        max_tokens: most context tokens per batch, counted as questions × the batch's longest
            context (its padded size); ``None`` for no cap. A batch always holds at least one question.

    Yields:
        index arrays into ``lengths``: every index once, in ascending order of length (stable).
    """
    order = np.argsort(lengths, kind="stable")
    start, n = 0, len(order)
    while start < n:
        end = min(start + batch_size, n)
        if max_tokens is not None:  # ascending: the batch's longest context is its last
            while end - start > 1 and (end - start) * int(lengths[order[end - 1]]) > max_tokens:
                end -= 1
        yield order[start:end]
        start = end


class Reader(TrainedModel):
    """A trained co-attention BiLSTM reader.

    Attributes:
        config: the :class:`ReaderConfig` it was built with.
        vocab: its :class:`Vocab`.
        model: the :class:`CoAttentionReader` network.
        device: the torch device it runs on.
        training_log: per-evaluation records written by :func:`mrclens.baseline_model.train`
            (``epoch``, ``seconds``, ``examples_per_s``, ``loss``, ``dev_em``, ``dev_f1``, ...).
        training: how training ended (:class:`~mrclens.artifacts.training_record.TrainingRecord`:
            ``stopped_by``, steps, threads, ...); ``None`` for a reader saved before issue 16.
        no_answer: for a reader with the no-answer option, how its threshold was chosen
            (``{"threshold", "threshold_score", "chosen_on", "exact_match", "f1", "n", "abstained"}``,
            :func:`mrclens.baseline_model.no_answer.choose_threshold`); ``None`` otherwise.
    """

    def __init__(self, config: ReaderConfig, vocab: Vocab, model: CoAttentionReader,
                 device: torch.device | str = "cpu", training_log: list[dict[str, Any]] | None = None,
                 training: TrainingRecord | None = None, no_answer: dict[str, Any] | None = None):
        super().__init__(config, vocab, model, device, training_log, training)
        self.no_answer = dict(no_answer) if no_answer is not None else None
        if self.abstains and self.no_answer is None:
            self.no_answer = {"threshold": DEFAULT_THRESHOLD, "threshold_score": threshold_score(DEFAULT_THRESHOLD),
                              "chosen_on": "default (no held-out data)"}

    @property
    def abstains(self) -> bool:
        """Whether the reader has the no-answer option (trained on data with unanswerable questions)."""
        return bool(getattr(self.model, "no_answer", False))

    @property
    def na_threshold(self) -> float | None:
        """The no-answer probability above which the reader answers ``""`` (``None``: it never abstains)."""
        return None if self.no_answer is None else float(self.no_answer["threshold"])

    # ------------------------------------------------------------------ prediction
    def predict(self, dataset: Dataset, progress: bool = True, batch_size: int = PREDICT_BATCH_SIZE) -> dict[str, str]:
        """Answer every question of ``dataset``.

        Whole contexts are read (no truncation); the span is chosen by
        :func:`~mrclens.baseline_model.model.decode_spans`. The network runs with the config's
        mixed precision and LSTM implementation on this reader's device (:func:`amp_dtype`; on
        the CPU by default float32 and padded LSTMs).

        Returns:
            ``{question id: answer text}`` (official SQuAD prediction format); every answer is an
            exact substring of its context. A question on a context without tokens gets ``""``;
            so does one the reader abstains on (:attr:`abstains`, :attr:`na_threshold`).
        """
        td = tokenize_dataset(dataset, progress=progress)
        return self.predict_encoded(encode(td, self.vocab, self.config), progress=progress, batch_size=batch_size)

    def predict_with_no_answer(self, dataset: Dataset, progress: bool = True, batch_size: int = PREDICT_BATCH_SIZE
                               ) -> tuple[dict[str, str], dict[str, float] | None, dict[str, float] | None]:
        """:meth:`predict` plus, for a reader that abstains, each question's no-answer probability and score.

        Returns:
            ``(answers, na_probs, na_scores)``: the answers as :meth:`predict` gives them;
            ``{question id: no-answer probability in [0, 1]}`` and ``{question id: no-answer score}``
            (log-odds of "no answer" against the best span, :mod:`mrclens.baseline_model.no_answer`;
            ``inf`` for a context without tokens), or ``None, None`` for a reader that never abstains.
        """
        data = encode(tokenize_dataset(dataset, progress=progress), self.vocab, self.config)
        if not self.abstains:
            return self.predict_encoded(data, progress=progress, batch_size=batch_size), None, None
        texts, scores = self.span_predictions_encoded(data, progress=progress, batch_size=batch_size)
        probs = {q: float(p) for q, p in zip(scores, no_answer_probs(np.array(list(scores.values()))))}
        return apply_threshold(texts, probs, self.na_threshold), probs, scores

    @torch.no_grad()
    def predict_encoded(self, data: EncodedData, progress: bool = True, batch_size: int = PREDICT_BATCH_SIZE) -> dict[str, str]:
        """:meth:`predict` on already tokenised and encoded data (used for dev evaluation in training)."""
        texts, scores = self.span_predictions_encoded(data, progress=progress, batch_size=batch_size)
        if scores is None:
            return texts
        probs = dict(zip(scores, no_answer_probs(np.array(list(scores.values())))))
        return apply_threshold(texts, probs, self.na_threshold)  # "" where p > threshold (official rule)

    @torch.no_grad()
    def span_predictions_encoded(self, data: EncodedData, progress: bool = True, batch_size: int = PREDICT_BATCH_SIZE
                                 ) -> tuple[dict[str, str], dict[str, float] | None]:
        """Each question's best span text (before any abstention) and, for a reader with the no-answer
        option, its no-answer score ``z - (s_i + e_j)`` (log-odds; ``inf`` for a context without
        tokens, whose text is ``""``). The second item is ``None`` for a reader without the option."""
        td = data.td
        was_training = self.model.training
        self.model.eval()
        answers: dict[str, str] = {}
        na: dict[str, float] = {}
        has_ctx = np.flatnonzero(data.ctx_len > 0)
        try:
            bar = progress_bar(total=len(td), desc="predicting", unit="q", enabled=progress)
            for sub in length_batches(data.ctx_len[has_ctx], batch_size, PREDICT_MAX_TOKENS):
                idx = has_ctx[sub]
                with autocast(self.config, self.device):
                    out = self.model(make_batch(data, idx, self.config, self.device))
                spans, raw = best_spans(out[0], out[1], self.config.max_answer_tokens)
                spans = spans.cpu().numpy()
                if len(out) == 3:
                    for q, s in zip(idx, (out[2].float() - raw).cpu().numpy()):
                        na[td.qids[q]] = float(s)
                for q, (i, j) in zip(idx, spans):
                    p = td.q_para[q]
                    off = td.ctx_offsets[p]
                    answers[td.qids[q]] = td.contexts[p][off[i, 0]: off[j, 1]]
                bar.update(len(idx))
            bar.close()
        finally:
            self.model.train(was_training)
            if self.device.type == "cpu":
                memory.release_free_memory()  # the batches' freed tensors back to the OS
        texts = {qid: answers.get(qid, "") for qid in td.qids}
        if not self.abstains:
            return texts, None
        return texts, {qid: na.get(qid, float("inf")) for qid in td.qids}

    # ------------------------------------------------------------------ persistence
    def save(self, directory: str | os.PathLike) -> Path:
        """Write config, vocabulary, weights, training log and training record into ``directory``
        (created; files written atomically by :func:`~mrclens.baseline_model.checkpoint.write_checkpoint`;
        ``training.json`` only when :attr:`training` is set, ``no_answer.json`` only for a reader that abstains)."""
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        write_checkpoint(d, config=self.config.to_dict(), vocab=self.vocab, model=self.model,
                         weights_format=CHECKPOINT_FORMAT, architecture=self.config.architecture(),
                         training_log=self.training_log, training=self.training)
        if self.no_answer is not None:
            atomic_write_json(d / NO_ANSWER_FILE, {"format_version": 1, **self.no_answer}, indent=2)
        elif (d / NO_ANSWER_FILE).exists():
            (d / NO_ANSWER_FILE).unlink()
        return d

    @classmethod
    def load(cls, directory: str | os.PathLike, device: str = "auto") -> "Reader":
        """Load a reader written by :meth:`save`.

        Weights are read with ``torch.load(weights_only=True)`` (no code execution).

        Raises:
            CheckpointError: a file is missing or unreadable, or ``config.json``/``vocab.json`` do not
                match the weights (different vocabulary, architecture or tensor shapes).
        """
        d = Path(directory)
        require_files(d, "reader")
        try:
            config = ReaderConfig.from_dict(json.loads((d / CONFIG_FILE).read_text("utf-8")))
            vocab = Vocab.from_json((d / VOCAB_FILE).read_text("utf-8"))
        except (ValueError, KeyError, TypeError, MRCLensError) as err:
            raise CheckpointError(f"{d}: unreadable config.json or vocab.json: {err}") from None
        ckpt = read_weights(d, CHECKPOINT_FORMAT)
        if ckpt["vocab_sha256"] != vocab.fingerprint():
            raise CheckpointError(
                f"{d}: vocab.json does not match the vocabulary the weights were trained with "
                f"(sha256 {vocab.fingerprint()[:12]}… vs {ckpt['vocab_sha256'][:12]}…); refusing to load")
        check_architecture(d, ckpt, config.architecture())
        state = ckpt["state_dict"]
        vectors = state.get("word_vectors")
        if vectors is None or vectors.shape[0] != len(vocab.words) + 2:
            raise CheckpointError(f"{d}: weights have {None if vectors is None else vectors.shape[0]} word rows, "
                                  f"vocab.json has {len(vocab.words) + 2}; refusing to load")
        model = CoAttentionReader(config, vectors, len(vocab.chars) + 2, no_answer="null_out.weight" in state)
        load_weights(model, state, d)
        return cls(config, vocab, model, device, read_training_log(d) or [], training=read_training_record(d),
                   no_answer=read_no_answer_settings(d) if model.no_answer else None)


def read_no_answer_settings(directory: str | os.PathLike) -> dict[str, Any] | None:
    """``no_answer.json`` of a saved reader, without its format key, and without loading the weights
    (``None`` when absent: the reader never abstains).

    Raises:
        CheckpointError: unreadable, or the threshold is not a number in [0, 1].
    """
    path = Path(directory) / NO_ANSWER_FILE
    if not path.is_file():
        return None
    try:
        obj = json.loads(path.read_text("utf-8"))
        t = obj["threshold"]
    except (ValueError, UnicodeDecodeError, KeyError, TypeError) as err:
        raise CheckpointError(f"{path}: unreadable no-answer settings: {err}") from None
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0.0 <= t <= 1.0:
        raise CheckpointError(f"{path}: threshold must be a number in [0, 1], got {t!r}")
    return {k: v for k, v in obj.items() if k != "format_version"}
