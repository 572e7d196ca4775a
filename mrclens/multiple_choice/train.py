"""Training, prediction, saving and loading of the multiple-choice baseline (issue 20).

Public API::

    from mrclens.multiple_choice.train import MCReader, train_mc
    reader = train_mc(fold.train, dev=fold.dev, seed=0)      # MCReaderConfig() by default
    reader.predict(fold.test)                                # {question id: 0-based ending index}
    reader.probabilities(fold.test)                          # {question id: [p_0, ..., p_K-1]}
    reader.save("model/"); reader = MCReader.load("model/")

Training (:func:`train_mc`): Adam at a constant learning rate, gradient-norm clipping, dropout,
cross-entropy of the gold ending under the softmax over the question's endings; batches of
``batch_size`` questions in a seeded random order (NumPy ``default_rng(seed)``). It runs exactly
``config.epochs`` epochs — never a wall-clock budget; time is recorded in the training log, and
nothing depends on it. After every epoch the model is scored on ``dev`` (accuracy) and the weights
of the best epoch are kept (the first on ties); without ``dev`` the last epoch's weights are kept.

Reproducibility: as for the span reader (:mod:`mrclens.baseline_model.train`, issue 16), CPU training
runs under :func:`~mrclens.baseline_model.runtime.cpu_determinism` (``config.cpu_threads`` torch threads,
deterministic algorithms; both restored after), ``torch.manual_seed(seed)`` fixes initialisation and
dropout, and vocabularies and token tables are ordered deterministically. The same data, config, seed
and thread count therefore give bitwise identical weights and predictions on the CPU. On a CUDA
device (``device="auto"`` with a GPU, or ``"cuda"``) cuDNN kernels are not bitwise deterministic, so
runs agree only up to float rounding.

Vocabulary: as the span reader does, the frozen GloVe rows kept are those of the words of the
training data and ``dev`` (token as is, lower-cased, capitalised). Words met only at prediction time
(a test fold, a perturbed set) map to the shared out-of-vocabulary vector; they are not looked up.

Prediction: questions are batched by length (``batch_size`` questions per batch). A question's scores
can differ in the last float bits with the batch it is in (other padding lengths), so for bit-identical
results predict the same dataset with the same ``batch_size``. The chosen ending is the index of the
highest probability; ties go to the lowest index.

Measured (default :class:`~mrclens.multiple_choice.model.MCReaderConfig`, seed 0, CPU, 2 threads, on a
shared 2-core machine with load average 2.6–3.2): trained on CODAH ``cv_split/fold_k/train`` (1,665
questions) with ``dev`` (556), test accuracy on ``fold_k/test`` (555) of 41.98 / 40.18 / 42.52 / 45.41 /
43.17 % for folds 0–4 (mean 42.65 %; chance 25 %, BERT-large 69.5 % in Chen et al. 2019), best dev
accuracy 46.0–47.3 %; 20–21 s of training per fold (8 epochs, ≈ 700 questions/s), 24–25 s with
tokenising and reading the vectors; predicting 555 questions 0.25 s. Seeds 1 and 2 on fold 0: 40.36 and
42.70 %.

Checkpoint directory (:meth:`MCReader.save`; every file written atomically; the files of every reader
checkpoint, :mod:`mrclens.baseline_model.checkpoint`)::

    config.json        {"task": "multiple_choice", **MCReaderConfig.to_dict()}
    vocab.json         {"words": [...], "chars": [...]} (mrclens.baseline_model.vectors.Vocab)
    weights.pt         {"format": "mrclens-mc-reader-1", "architecture", "vocab_sha256", "state_dict"}
                       (torch.save of plain tensors; read back with torch.load(weights_only=True))
    training_log.json  one record per epoch (see train_mc)
    training.json      how training ended (mrclens.artifacts.training_record.TrainingRecord)
"""

from __future__ import annotations

import copy
import json
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np
import torch
import torch.nn.functional as F

from mrclens.artifacts.training_record import TrainingRecord
from mrclens.baseline_model.checkpoint import (CONFIG_FILE, VOCAB_FILE, WEIGHTS_FILE, check_architecture,
                                               check_task_marker, load_weights, read_training_log,
                                               read_training_record, read_weights, require_files,
                                               write_checkpoint)
from mrclens.baseline_model.runtime import (TrainedModel, cpu_capability, cpu_determinism, cpu_model, peak_rss_mb,
                                            resolve_device)
from mrclens.baseline_model.tokenize import tokenize_texts
from mrclens.baseline_model.vectors import Vocab, build_vocab
from mrclens.errors import CheckpointError, MRCLensError
from mrclens.formats.multiple_choice import MCDataset
from mrclens.multiple_choice.model import MCReaderConfig, PairScorer
from mrclens.progress import progress as progress_bar
from mrclens.tasks import MULTIPLE_CHOICE

__all__ = ["MCReader", "MCReaderConfig", "MCEncoded", "train_mc", "encode_datasets", "make_batch", "pair_tokens",
           "MC_CHECKPOINT_FORMAT"]  # MCReaderConfig is re-exported from mrclens.multiple_choice.model

_logger = logging.getLogger(__name__)

#: ``weights.pt``'s ``format`` value.
MC_CHECKPOINT_FORMAT = "mrclens-mc-reader-1"
#: What a checkpoint is called in messages.
_CHECKPOINT_KIND = f"{MULTIPLE_CHOICE.data_label} reader"


# ---------------------------------------------------------------------------------------- encoding
@dataclass
class MCEncoded:
    """A multiple-choice dataset tokenised and mapped onto one reader's vocabulary.

    Attributes:
        qids: question ids, in dataset order.
        labels: ``int64 (n,)`` gold labels.
        prompts: per question, ``int64`` array of token-type indices of the prompt.
        endings: per question, a list of ``int64`` arrays (one per ending) of token-type indices.
        type_word: ``int64 (n_types,)`` word id of each distinct token string (0 for the padding type 0).
        type_lower: ``int64 (n_types,)`` an id shared by all types with the same lower-cased form.
        type_chars: ``int64 (n_types, max_word_chars)`` character ids, or ``None`` without the char CNN.
    """

    qids: list[str]
    labels: np.ndarray
    prompts: list[np.ndarray]
    endings: list[list[np.ndarray]]
    type_word: np.ndarray
    type_lower: np.ndarray
    type_chars: np.ndarray | None

    def __len__(self) -> int:
        return len(self.qids)

    def pair_lengths(self, max_tokens: int) -> np.ndarray:
        """``int64 (n,)``: each question's longest pair length after truncation [tokens]."""
        return np.array([max((min(len(p) + len(e), max_tokens) for e in ends), default=1)
                         for p, ends in zip(self.prompts, self.endings)], dtype=np.int64)


_Parts = tuple[list[np.ndarray], list[list[np.ndarray]]]  # per dataset: prompt types, ending types


def _tokenize(datasets: list[MCDataset], progress: bool) -> tuple[list[str], list[_Parts]]:
    """Token types of the prompts and endings of ``datasets`` (type 0 is the padding type ``""``;
    other types numbered by first occurrence, so nothing depends on hashing). Every distinct text is
    tokenised once."""
    texts: dict[str, int] = {}
    for ds in datasets:
        for q in ds.questions:
            texts.setdefault(q.prompt, len(texts))
            for e in q.endings:
                texts.setdefault(e, len(texts))
    type_index: dict[str, int] = {"": 0}
    tokenized = [np.fromiter((type_index.setdefault(t, len(type_index)) for t in toks), dtype=np.int64, count=len(toks))
                 for toks, _ in tokenize_texts(list(texts), progress=progress, desc="tokenising prompts and endings")]
    per_dataset = []
    for ds in datasets:
        prompts = [tokenized[texts[q.prompt]] for q in ds.questions]
        endings = [[tokenized[texts[e]] for e in q.endings] for q in ds.questions]
        per_dataset.append((prompts, endings))
    types = [""] * len(type_index)
    for t, i in type_index.items():
        types[i] = t
    return types, per_dataset


def _encode(dataset: MCDataset, prompts, endings, types: list[str], vocab: Vocab, config: MCReaderConfig) -> MCEncoded:
    type_word = np.array([vocab.word_id(t) for t in types], dtype=np.int64)
    type_word[0] = 0
    lower: dict[str, int] = {}
    type_lower = np.array([lower.setdefault(t.lower(), len(lower)) for t in types], dtype=np.int64)
    type_chars = (np.stack([vocab.char_ids(t, config.max_word_chars) for t in types]).astype(np.int64)
                  if config.char_filters > 0 else None)
    return MCEncoded(dataset.ids(), dataset.labels(), prompts, endings, type_word, type_lower, type_chars)


def encode_datasets(datasets: list[MCDataset], vocab: Vocab, config: MCReaderConfig, *,
                    progress: bool = False) -> list[MCEncoded]:
    """Tokenise ``datasets`` (together: shared texts are tokenised once) and map them onto ``vocab``."""
    types, parts = _tokenize(datasets, progress)
    return [_encode(ds, p, e, types, vocab, config) for ds, (p, e) in zip(datasets, parts)]


def pair_tokens(prompt: np.ndarray, ending: np.ndarray, max_tokens: int) -> tuple[np.ndarray, int]:
    """The pair's token types and the index where the ending starts, cut to ``max_tokens``: the ending
    is kept (its first ``max_tokens`` tokens if it alone is longer) and only the prompt's last tokens
    fill the rest.

    >>> pair_tokens(np.array([1, 2, 3]), np.array([7, 8]), 4)
    (array([2, 3, 7, 8]), 2)
    """
    ending = ending[:max_tokens]
    keep = max_tokens - len(ending)
    prompt = prompt[len(prompt) - keep:] if keep < len(prompt) else prompt
    return np.concatenate([prompt, ending]), len(prompt)


def make_batch(data: MCEncoded, idx: np.ndarray, config: MCReaderConfig,
               device: torch.device) -> dict[str, torch.Tensor]:
    """Pad the questions ``idx`` into one batch for :meth:`PairScorer.forward` (its docstring lists the
    keys), plus ``labels`` ``(Q,)``. Pair lengths are rounded up to a multiple of ``config.pad_multiple``."""
    Q = len(idx)
    K = max(len(data.endings[i]) for i in idx)
    seqs: list[np.ndarray] = []
    starts: list[int] = []
    slot_mask = np.zeros((Q, K), dtype=bool)
    for b, i in enumerate(idx):
        ends = data.endings[i]
        slot_mask[b, : len(ends)] = True
        for k in range(K):
            if k < len(ends):
                s, start = pair_tokens(data.prompts[i], ends[k], config.max_tokens)
            else:
                s, start = np.zeros(0, dtype=np.int64), 0
            seqs.append(s)
            starts.append(start)
    lengths = np.array([max(len(s), 1) for s in seqs], dtype=np.int64)  # an empty pair reads one padding token
    m = max(config.pad_multiple, 1)
    L = -(-int(lengths.max()) // m) * m
    types = np.zeros((len(seqs), L), dtype=np.int64)
    segment = np.zeros((len(seqs), L), dtype=np.float32)
    for n, (s, start) in enumerate(zip(seqs, starts)):
        types[n, : len(s)] = s
        segment[n, start: len(s)] = 1.0
    batch: dict[str, np.ndarray] = {"words": data.type_word[types], "lengths": lengths, "segment": segment,
                                    "slot_mask": slot_mask, "labels": data.labels[idx]}
    if config.exact_match_feature:
        exact = np.zeros((len(seqs), L), dtype=np.float32)
        for n, (s, start) in enumerate(zip(seqs, starts)):
            low = data.type_lower[s]
            p, e = low[:start], low[start:]
            exact[n, :start] = np.isin(p, e)
            exact[n, start: len(s)] = np.isin(e, p)
        batch["exact"] = exact
    if data.type_chars is not None:
        uniq, inv = np.unique(types, return_inverse=True)
        batch["types"] = inv.reshape(types.shape)
        batch["type_chars"] = data.type_chars[uniq]
    return {k: torch.from_numpy(v).to(device, non_blocking=True) for k, v in batch.items()}


def _length_batches(lengths: np.ndarray, batch_size: int) -> Iterator[np.ndarray]:
    order = np.argsort(lengths, kind="stable")
    for s in range(0, len(order), batch_size):
        yield order[s: s + batch_size]


def _softmax64(scores: np.ndarray, n: int) -> np.ndarray:
    x = scores[:n].astype(np.float64)
    x = np.exp(x - x.max())
    return x / x.sum()


# ---------------------------------------------------------------------------------------- the reader
class MCReader(TrainedModel):
    """A trained multiple-choice baseline.

    Attributes:
        config: its :class:`~mrclens.multiple_choice.model.MCReaderConfig`.
        vocab: its :class:`~mrclens.baseline_model.vectors.Vocab` (the GloVe words of train + dev).
        model: the :class:`~mrclens.multiple_choice.model.PairScorer` network.
        device: the torch device it runs on.
        training_log: one record per epoch written by :func:`train_mc`.
        training: how training ended (:class:`~mrclens.artifacts.training_record.TrainingRecord`), or
            ``None`` when unknown.
    """

    task = MULTIPLE_CHOICE.name

    def __init__(self, config: MCReaderConfig, vocab: Vocab, model: PairScorer, device: torch.device | str = "cpu",
                 training_log: list[dict[str, Any]] | None = None, training: TrainingRecord | None = None):
        super().__init__(config, vocab, model, device, training_log, training)

    # ------------------------------------------------------------------ prediction
    def encode(self, dataset: MCDataset, progress: bool = False) -> MCEncoded:
        """``dataset`` tokenised and mapped onto this reader's vocabulary."""
        return encode_datasets([dataset], self.vocab, self.config, progress=progress)[0]

    @torch.no_grad()
    def probabilities_encoded(self, data: MCEncoded, batch_size: int = 64,
                              progress: bool = False) -> dict[str, list[float]]:
        """:meth:`probabilities` on already encoded data (used for dev evaluation in training)."""
        if batch_size < 1:
            raise MRCLensError(f"batch_size must be at least 1, got {batch_size}")
        was_training = self.model.training
        self.model.eval()
        out: dict[str, list[float]] = {}
        try:
            bar = progress_bar(total=len(data), desc="predicting", unit="q", enabled=progress)
            for idx in _length_batches(data.pair_lengths(self.config.max_tokens), batch_size):
                scores = self.model(make_batch(data, idx, self.config, self.device)).float().cpu().numpy()
                for row, i in zip(scores, idx):
                    out[data.qids[i]] = _softmax64(row, len(data.endings[i])).tolist()
                bar.update(len(idx))
            bar.close()
        finally:
            self.model.train(was_training)
        return {q: out[q] for q in data.qids}

    def probabilities(self, dataset: MCDataset, batch_size: int = 64, progress: bool = False) -> dict[str, list[float]]:
        """Each question's probability for each of its endings (softmax of the pair scores; floats that
        sum to 1 up to rounding), ``{question id: [p_0, ..., p_{K-1}]}`` in dataset order."""
        return self.probabilities_encoded(self.encode(dataset, progress), batch_size, progress)

    def predict_encoded(self, data: MCEncoded, batch_size: int = 64, progress: bool = False) -> dict[str, int]:
        """:meth:`predict` on already encoded data."""
        return {q: int(np.argmax(p)) for q, p in self.probabilities_encoded(data, batch_size, progress).items()}

    def predict(self, dataset: MCDataset, batch_size: int = 64, progress: bool = False) -> dict[str, int]:
        """The chosen ending of every question: ``{question id: 0-based ending index}`` (the most probable
        ending; ties go to the lowest index)."""
        return self.predict_encoded(self.encode(dataset, progress), batch_size, progress)

    def accuracy(self, dataset: MCDataset, batch_size: int = 64) -> float:
        """The fraction of ``dataset``'s questions whose gold ending is predicted (0–1)."""
        return _accuracy(self.predict(dataset, batch_size), dataset)

    # ------------------------------------------------------------------ persistence
    def save(self, directory: str | os.PathLike) -> Path:
        """Write config, vocabulary, weights, training log and training record into ``directory``
        (created; every file written atomically; layout in the module docstring).

        Raises:
            OutputError: a file cannot be written.
        """
        return write_checkpoint(directory, config={"task": MULTIPLE_CHOICE.name, **self.config.to_dict()},
                                vocab=self.vocab, model=self.model, weights_format=MC_CHECKPOINT_FORMAT,
                                architecture=self.config.architecture(), training_log=self.training_log,
                                training=self.training)

    @classmethod
    def load(cls, directory: str | os.PathLike, device: str = "auto") -> "MCReader":
        """Load a reader written by :meth:`save`. Weights are read with ``torch.load(weights_only=True)``:
        nothing read executes code.

        Raises:
            CheckpointError: a file is missing, unreadable or corrupt (the message names it), the
                directory holds a span (SQuAD) reader or anything else that is not a multiple-choice
                reader, or config, vocabulary and weights do not match.
            MRCLensError: a bad device name, or CUDA asked for without a GPU.
        """
        d = Path(directory)
        cfg_path = d / CONFIG_FILE
        require_files(d, _CHECKPOINT_KIND, (CONFIG_FILE,))
        try:
            obj = json.loads(cfg_path.read_text("utf-8"))
        except (ValueError, UnicodeDecodeError, OSError) as err:
            raise CheckpointError(f"{cfg_path}: unreadable config: {err}") from None
        if not isinstance(obj, dict):
            raise CheckpointError(f"{cfg_path}: expected a JSON object")
        check_task_marker(d, obj, MULTIPLE_CHOICE, "train one with mrclens.multiple_choice.train.train_mc")
        require_files(d, _CHECKPOINT_KIND)
        try:
            config = MCReaderConfig.from_dict({k: v for k, v in obj.items() if k != "task"})
        except (MRCLensError, TypeError) as err:
            raise CheckpointError(f"{cfg_path}: {err}") from None
        try:
            vocab = Vocab.from_json((d / VOCAB_FILE).read_text("utf-8"))
        except (ValueError, UnicodeDecodeError, KeyError, TypeError, OSError) as err:
            raise CheckpointError(f"{d / VOCAB_FILE}: unreadable vocabulary: {err}") from None
        wpath = d / WEIGHTS_FILE
        ckpt = read_weights(d, MC_CHECKPOINT_FORMAT)
        if ckpt.get("vocab_sha256") != vocab.fingerprint():
            raise CheckpointError(f"{d}: vocab.json does not match the vocabulary the weights were trained with; "
                                  "refusing to load")
        check_architecture(d, ckpt, config.architecture())
        state = ckpt.get("state_dict")
        vectors = state.get("word_vectors") if isinstance(state, dict) else None
        if not isinstance(vectors, torch.Tensor) or vectors.dim() != 2 or vectors.shape[0] != len(vocab.words) + 2:
            raise CheckpointError(f"{wpath}: the word-vector rows do not match vocab.json "
                                  f"({len(vocab.words) + 2} rows expected); refusing to load")
        model = PairScorer(config, vectors, len(vocab.chars) + 2)
        load_weights(model, state, wpath)
        return cls(config, vocab, model, device, read_training_log(d) or [], training=read_training_record(d))


def _accuracy(predictions: dict[str, int], dataset: MCDataset) -> float:
    if not dataset.questions:
        return 0.0
    return sum(predictions[q.id] == q.label for q in dataset.questions) / len(dataset.questions)


# ---------------------------------------------------------------------------------------- training
def train_mc(train: MCDataset, config: MCReaderConfig | None = None, *, dev: MCDataset | None = None, seed: int = 0,
             device: str = "auto", progress: bool = False, log: Callable[[str], None] | None = None) -> MCReader:
    """Train the multiple-choice baseline on ``train``.

    Args:
        train: the training questions.
        config: hyper-parameters; default ``MCReaderConfig()`` (copied, never changed; the copy's
            ``word_dim`` is set from the vectors).
        dev: held-out questions scored (accuracy) after every epoch; the weights of the best epoch are
            kept (the first on ties). Its words also select rows of the frozen word vectors. Without
            ``dev`` the last epoch's weights are kept.
        seed: random seed (initialisation, dropout: ``torch.manual_seed``; batch order: NumPy).
        device: ``"auto"`` (CUDA when available), ``"cpu"`` or ``"cuda"``.
        progress: show progress bars (:mod:`mrclens.progress`).
        log: called with one line of text per epoch (default: an INFO record on this module's logger).

    Returns:
        the trained :class:`MCReader`. ``reader.training_log`` has one record per epoch: ``epoch``
        (1-based), ``seconds`` (training time so far, evaluation excluded), ``epoch_seconds``,
        ``examples_per_s`` (training questions per second in that epoch), ``loss`` (mean cross-entropy
        over the epoch's batches), ``dev_accuracy`` (percent, ``None`` without dev), ``eval_seconds``,
        ``peak_rss_mb`` and ``best`` (whether these weights were kept). Times are recorded only; they
        decide nothing. ``reader.training`` is the :class:`TrainingRecord`.

    Raises:
        MRCLensError: ``train`` has no question, or a bad device name.
        VectorsError: the word vectors cannot be read.
    """
    if len(train.questions) == 0:
        raise MRCLensError(f"{train.source or 'the training set'}: no question to train on")
    config = copy.deepcopy(config) if config is not None else MCReaderConfig()
    dev_device = resolve_device(device)
    with cpu_determinism(config.cpu_threads, dev_device) as threads:
        return _train(train, config, dev, seed, dev_device, progress, log or _logger.info, threads)


def _train(train: MCDataset, config: MCReaderConfig, dev: MCDataset | None, seed: int, device: torch.device,
           progress: bool, say: Callable[[str], None], threads: int | None) -> MCReader:
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    sets = [train] + ([dev] if dev is not None and dev.questions else [])
    types, parts = _tokenize(sets, progress)
    # like the span reader: the GloVe rows of the words of train + dev (only those are tokenised here)
    vocab, matrix = build_vocab(types[1:], config.vectors)
    config.word_dim = int(matrix.shape[1])
    encoded = [_encode(ds, p, e, types, vocab, config) for ds, (p, e) in zip(sets, parts)]
    data, dev_data = encoded[0], (encoded[1] if len(encoded) > 1 else None)

    model = PairScorer(config, torch.from_numpy(matrix), len(vocab.chars) + 2).to(device)
    reader = MCReader(config, vocab, model, device)
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.Adam(params, lr=config.lr)
    n = len(data)
    best_acc = -1.0
    best_state: dict[str, torch.Tensor] | None = None
    train_seconds = 0.0
    step = 0
    for epoch in range(1, config.epochs + 1):
        model.train()
        order = rng.permutation(n)
        batches = [order[s: s + config.batch_size] for s in range(0, n, config.batch_size)]
        losses: list[torch.Tensor] = []
        bar = progress_bar(total=n, desc=f"epoch {epoch}/{config.epochs}", unit="q", enabled=progress)
        t0 = time.perf_counter()
        for idx in batches:
            batch = make_batch(data, idx, config, device)
            scores = model(batch)
            loss = F.cross_entropy(scores, batch["labels"])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, config.grad_clip)
            opt.step()
            step += 1
            losses.append(loss.detach())
            bar.update(len(idx))
        mean_loss = float(torch.stack(losses).mean())  # read back once per epoch (no per-step sync on a GPU)
        bar.close()
        epoch_seconds = time.perf_counter() - t0
        train_seconds += epoch_seconds
        record: dict[str, Any] = {
            "epoch": epoch, "seconds": round(train_seconds, 2), "epoch_seconds": round(epoch_seconds, 2),
            "examples_per_s": round(n / epoch_seconds, 1) if epoch_seconds > 0 else None,
            "loss": round(mean_loss, 4), "dev_accuracy": None, "eval_seconds": None, "best": False,
        }
        if dev_data is not None:
            t1 = time.perf_counter()
            acc = _accuracy(reader.predict_encoded(dev_data), dev)
            record["dev_accuracy"] = round(100.0 * acc, 2)
            record["eval_seconds"] = round(time.perf_counter() - t1, 2)
            if acc > best_acc:  # strictly better: the first best epoch wins ties
                best_acc = acc
                best_state = {k: v.detach().clone() for k, v in model.state_dict().items() if k != "word_vectors"}
                record["best"] = True
        elif epoch == config.epochs:
            record["best"] = True  # without dev the last weights are kept
        record["peak_rss_mb"] = round(peak_rss_mb(), 1)
        reader.training_log.append(record)
        dev_txt = f"dev accuracy {record['dev_accuracy']:.2f}%" if record["dev_accuracy"] is not None else "no dev set"
        say(f"[multiple choice] epoch {epoch}/{config.epochs}, {train_seconds:.1f} s of training, "
            f"{record['examples_per_s'] or 0:.0f} questions/s, loss {mean_loss:.4f}, {dev_txt}"
            + (" (best)" if record["best"] and dev_data is not None else ""))
    if best_state is not None:
        model.load_state_dict(best_state, strict=False)
    model.eval()
    reader.training = TrainingRecord(
        stopped_by="epochs", steps=step, epoch=float(config.epochs), epochs=config.epochs, max_steps=None,
        max_minutes=None, seed=seed, device=device.type, processes=1, cpu_threads=threads,
        deterministic_algorithms=threads is not None, time_dependent=False, reproducible=device.type == "cpu",
        cpu=cpu_model(), cpu_capability=cpu_capability(), torch=torch.__version__)
    return reader
