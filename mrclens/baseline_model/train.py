"""Training the co-attention BiLSTM reader.

Optimisation (issue 4, after the MRCLens paper's baseline): Adam, learning rate ``lr`` multiplied
by ``lr_decay`` every ``lr_decay_steps`` steps (staircase), gradient-norm clipping at
``grad_clip``, loss = negative log-likelihood of the gold start token + that of the gold end token
(first gold answer; answers not on token boundaries map to the covering tokens). Batches hold
questions of similar context length (pools of 50 batches sorted by length, then shuffled) to cut
padding. Training contexts are cut to ``max_train_context_tokens``; questions whose answer lies
beyond are skipped. With ``config.ema_decay`` set, a moving average of the weights
(:mod:`mrclens.baseline_model.averaging`) is kept beside them and scored at every held-out
evaluation; the better of the averaged and the current weights is what best-F1 selection sees.

SQuAD v2.0: when the training data has unanswerable questions, the reader gets the no-answer
option and they are trained on too (joint no-answer NLL, threshold chosen on ``dev`` at every
evaluation; :mod:`mrclens.baseline_model.no_answer`). On v1.1 data nothing changes.

GPU path (``device="cuda"``, or ``"auto"`` with a GPU): the same network on cuDNN LSTMs, batches
built on the host and copied once per step, Adam's fused CUDA kernel, and no host
synchronisation per step (losses stay on the device and are read back every 10 steps). Optional,
off by default because they were measured slower on an H100 for this model (BENCHMARKS.md):
bf16/fp16 autocast (``config.amp``), one packed bidirectional cuDNN call per BiLSTM
(``config.lstm_impl``), length buckets (``config.bucket_width``, :func:`training_batches`).
With the defaults, the CPU path is exactly what it was before these options existed.

Memory on the CPU: every :data:`~mrclens.baseline_model.memory.TRIM_EVERY_STEPS` optimizer steps the
heap pages that freed batch tensors leave behind go back to the operating system
(:func:`~mrclens.baseline_model.memory.release_free_memory`, glibc ``malloc_trim``); values unchanged.

Multi-process training: when a ``torch.distributed`` process group is initialised (``torchrun``;
see :mod:`mrclens.baseline_model.distributed`), the model is wrapped in
``DistributedDataParallel`` and each global batch is split across the processes.

Reproducibility (issue 16): the same seed, data, config and device (CPU) give bitwise identical
weights and predictions under any machine load. What would otherwise vary, and how it is fixed:

* **When training stops.** Budgets count optimizer steps (``config.max_steps``) and epochs; dev
  evaluations happen at the end of each epoch, at optional step marks (``eval_at_steps``) and when
  the step budget ends, so the kept best-dev-F1 weights never depend on time. A wall-clock cap
  (``max_minutes``) and time marks (``eval_at_minutes``, for benchmarks) remain explicit options;
  when they decide anything, the training record says so (``stopped_by == "time_limit"``,
  ``time_dependent``; :class:`~mrclens.artifacts.training_record.TrainingRecord`).
* **Thread count.** The number of torch intra-op threads changes how float sums are split, so
  1 and 2 threads give different weights (measured). Training on the CPU runs with
  ``config.cpu_threads`` threads (2 in every shipped profile; ``None`` keeps torch's current
  count, which depends on the machine) and records the count; torch's setting is restored after.
* **Accumulation order with several threads.** Index accumulation in backward passes (the
  character vectors gathered per token) adds in a thread-dependent order: two runs with 2 threads
  gave different weights. CPU training therefore runs under
  ``torch.use_deterministic_algorithms(True)`` (restored after).
* **Randomness.** ``torch.manual_seed`` (initialisation, dropout) and a NumPy generator (batch
  order); vocabularies are sorted and token types numbered by first occurrence, so nothing
  depends on Python's hash seed or set order.

The same holds for multi-process CPU training with a given number of processes and threads. On
CUDA, some kernels (index accumulation in the embedding backward, cuDNN) are not bitwise
deterministic, so runs agree only up to float rounding, which grows over training.
"""

from __future__ import annotations

import copy
import logging
import math
import time
import warnings
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import torch

from mrclens.artifacts.training_record import TrainingRecord
from mrclens.baseline_model import distributed as ddp
from mrclens.baseline_model import memory
from mrclens.baseline_model import no_answer as na
from mrclens.baseline_model.averaging import WeightAverage
from mrclens.baseline_model.config import LR_SCHEDULES, ReaderConfig
from mrclens.baseline_model.model import CoAttentionReader, uses_packed_lstm
from mrclens.baseline_model.reader import EncodedData, Reader, amp_dtype, autocast, encode, make_batch
from mrclens.baseline_model.runtime import cpu_capability, cpu_determinism, cpu_model, peak_rss_mb, resolve_device
from mrclens.baseline_model.time_left import format_run_left, run_seconds_left
from mrclens.baseline_model.tokenize import tokenize_dataset
from mrclens.baseline_model.vectors import Vocab, build_vocab
from mrclens.defaults import resolve_profile
from mrclens.errors import MRCLensError
from mrclens.metrics.no_answer import apply_threshold
from mrclens.metrics.official import evaluate_set
from mrclens.progress import ETA_MIN_SECONDS, RateMeter, progress as progress_bar
from mrclens.squad import Dataset

_logger = logging.getLogger(__name__)

POOL_BATCHES = 50


def heldout_scores(reader: Reader, dataset: Dataset, data: EncodedData,
                   progress: bool = False) -> tuple[dict[str, float | int], dict[str, Any] | None]:
    """Official scores of ``reader`` on held-out data (used to pick the best epoch).

    Without the no-answer option: :func:`~mrclens.metrics.official.evaluate_set` of its
    predictions, and ``None``. With it: the scores at the threshold chosen on this data
    (:func:`~mrclens.baseline_model.no_answer.choose_threshold`), and that choice.
    """
    if not reader.abstains:
        return evaluate_set(dataset, reader.predict_encoded(data, progress=progress)), None
    texts, na_scores = reader.span_predictions_encoded(data, progress=progress)
    probs = {q: float(p) for q, p in zip(na_scores, na.no_answer_probs(np.array(list(na_scores.values()))))}
    choice = na.choose_threshold(dataset, texts, probs)
    scores = evaluate_set(dataset, apply_threshold(texts, probs, choice["threshold"]))
    return scores, choice


def _weights(model: torch.nn.Module) -> dict[str, torch.Tensor]:
    """A copy of the model's state without the frozen word vectors (what best-F1 selection keeps)."""
    return {k: v.detach().clone() for k, v in model.state_dict().items() if k != "word_vectors"}


def _averaged(model: torch.nn.Module, average: WeightAverage) -> dict[str, torch.Tensor]:
    """The averaged weights as a state dict (without the frozen word vectors)."""
    with average.applied():
        return _weights(model)


def lr_factor(config: ReaderConfig, max_steps: int | None, epochs: int, n_questions: int) -> Callable[[int], float]:
    """The learning-rate multiplier at optimizer step ``t`` (0 = the first update) of ``config.lr_schedule``.

    ``"step"``: ``lr_decay ** (t // lr_decay_steps)`` (the paper's staircase). ``"linear"``:
    ``max(0, 1 - t / T)`` with ``T = max_steps``, or without a step budget ``epochs`` times the
    batches of an epoch (``ceil(n_questions / batch_size)``), so the last update still has a
    learning rate above zero (Li, Yumer & Ramanan, ICLR 2020: linear decay to zero is the best
    schedule for a budget fixed in advance).

    Raises:
        MRCLensError: an unknown ``lr_schedule``.
    """
    check_lr_schedule(config)
    if config.lr_schedule == "step":
        return lambda t: config.lr_decay ** (t // config.lr_decay_steps)
    total = max_steps if max_steps is not None else epochs * max(1, -(-n_questions // config.batch_size))
    return lambda t: max(0.0, 1.0 - t / total)


def check_lr_schedule(config: ReaderConfig) -> None:
    """Refuse an unknown ``config.lr_schedule`` (one of :data:`~mrclens.baseline_model.config.LR_SCHEDULES`).

    Raises:
        MRCLensError: the schedule is not one of ``LR_SCHEDULES``.
    """
    if config.lr_schedule not in LR_SCHEDULES:
        raise MRCLensError(f"lr_schedule must be one of {', '.join(LR_SCHEDULES)}, got {config.lr_schedule!r}")


def resolve_bucket_width(config: ReaderConfig, device: torch.device) -> int:
    """``config.bucket_width`` as an int: ``None`` ("auto") is 0 (sorted pools) on every device.

    ``device`` is where training runs (kept so that "auto" can depend on it).

    Raises:
        MRCLensError: a negative width.
    """
    w = config.bucket_width
    if w is None:
        return 0
    if w < 0:
        raise MRCLensError(f"bucket_width must be >= 0 (0 = sorted pools), got {w}")
    return int(w)


def training_batches(ctx_len: np.ndarray, usable: np.ndarray, batch_size: int,
                     rng: np.random.Generator, bucket_width: int = 0) -> list[np.ndarray]:
    """One epoch's batches of question indices.

    Args:
        ctx_len: ``(n_questions,)`` context length (tokens) of every question.
        usable: indices of the questions to train on.
        batch_size: questions per batch (the last batch of a pool or bucket may be smaller).
        rng: the NumPy generator of the run (the only source of randomness here).
        bucket_width: 0: shuffle ``usable``, sort pools of 50 batches by context length, cut them
            into batches, shuffle the batches (the CPU default). ``w > 0``: shuffle ``usable``,
            group the questions by ``ceil(ctx_len / w)`` (random order kept inside a bucket), cut
            each bucket into batches, shuffle the batches; every batch then pads to the same
            ``w``-multiple, so an epoch has at most ``max_len / w`` context shapes.

    Returns:
        the batches, each an ``int64`` array of indices into ``ctx_len``.
    """
    order = rng.permutation(usable)
    batches: list[np.ndarray] = []
    if bucket_width > 0:
        keys = -(-ctx_len[order] // bucket_width)
        perm = np.argsort(keys, kind="stable")
        order, keys = order[perm], keys[perm]
        bounds = np.flatnonzero(np.diff(keys)) + 1
        for bucket in np.split(order, bounds):
            batches.extend(bucket[k: k + batch_size] for k in range(0, len(bucket), batch_size))
        rng.shuffle(batches)
        return batches
    pool = POOL_BATCHES * batch_size
    for s in range(0, len(order), pool):
        chunk = order[s: s + pool]
        chunk = chunk[np.argsort(ctx_len[chunk], kind="stable")]
        batches.extend(chunk[k: k + batch_size] for k in range(0, len(chunk), batch_size))
    rng.shuffle(batches)
    return batches


def train(train_dataset: Dataset, config: ReaderConfig | None = None, *, dev: Dataset | None = None,
          max_minutes: float | None = None, epochs: int | None = None, seed: int = 0, device: str = "auto",
          progress: bool = True, log: Callable[[str], None] | None = None,
          eval_at_minutes: list[float] | None = None, on_eval: Callable[[dict[str, Any]], None] | None = None,
          on_step: Callable[[int, float], None] | None = None, max_steps: int | None = None,
          eval_at_steps: list[int] | None = None) -> Reader:
    """Train a reader on ``train_dataset``.

    Args:
        train_dataset: SQuAD-format training data. When it has unanswerable (v2.0) questions, the
            reader learns to abstain and they are trained on; otherwise questions without
            answers are skipped.
        config: hyper-parameters; default: the default profile for a dataset the user gives
            (:func:`mrclens.defaults.resolve_profile`, the rule of ``mrclens train`` and ``mrclens audit``:
            ``"paper-parallel"``). Its ``amp``,
            ``lstm_impl`` and ``bucket_width`` choose the execution path (see the module docstring).
        dev: held-out data scored (official EM/F1, :mod:`mrclens.metrics.official`) after each epoch,
            at the ``eval_at_steps`` (and ``eval_at_minutes``) marks and when a budget ends; the
            weights with the best dev F1 are kept. Its words also select rows of the frozen word
            vectors. Without ``dev`` the last weights are kept.
        max_minutes: wall-clock cap: stop after this many minutes of training (evaluation not
            counted); default ``config.max_minutes`` (``None`` in every profile). When it stops
            training the result depends on machine speed and load (``stopped_by == "time_limit"``).
        epochs: number of passes over the data; default ``config.epochs``.
        max_steps: stop after this many optimizer steps; default ``config.max_steps``. Skipped
            batches (fewer questions than processes) are not steps.
        seed: random seed (initialisation, dropout, batch order).
        device: ``"auto"`` (CUDA when available), ``"cpu"`` or ``"cuda"``; under a process group
            on CUDA each process uses ``cuda:LOCAL_RANK``.
        progress: show progress (loss, questions per second over the last minute and the time left in the
            epoch, and beside it the time left in the whole run, every epoch and dev evaluation to come:
            :func:`~mrclens.baseline_model.time_left.run_seconds_left`; :mod:`mrclens.progress`).
        log: called with one line of text per evaluation (default: an INFO record on the
            ``mrclens.baseline_model.train`` logger, :mod:`mrclens.logs`).
        eval_at_minutes: extra dev evaluations at these training-time marks (minutes). For
            benchmarks only: with ``dev``, which weights are kept then depends on machine speed
            and load (recorded as ``time_dependent``).
        eval_at_steps: extra dev evaluations after these optimizer steps (deterministic).
        on_eval: called with each evaluation record as it is made (e.g. to print a benchmark table).
        on_step: called after every optimizer step with ``(step, loss)``: the step number from 1
            and the mean loss over the (global) batch. Reading the loss synchronises a CUDA
            device every step, so leave it ``None`` when timing.

    Under an initialised ``torch.distributed`` process group (:mod:`~mrclens.baseline_model.distributed`)
    every process must call this with the same arguments; ``config.batch_size`` is the global
    batch; only rank 0 evaluates on ``dev``, logs, calls ``on_eval`` and keeps the best weights.

    Training runs on the CPU with ``config.cpu_threads`` torch threads and deterministic
    algorithms (:func:`cpu_determinism`; see the module docstring). With ``config.processes > 1``
    on the CPU and no process group, this call forks that many processes and trains with them
    (:func:`~mrclens.baseline_model.distributed.fork_training`); ``on_eval``/``on_step``/``log``
    then run in rank 0's process. On a GPU ``processes`` is ignored (one process).

    Returns:
        the trained :class:`Reader`; ``reader.training`` is its
        :class:`~mrclens.artifacts.training_record.TrainingRecord` (``stopped_by`` ``"epochs"``,
        ``"steps"`` or ``"time_limit"``, steps, thread count, ...) and ``reader.training_log``
        lists a record per evaluation with ``event`` (``"epoch"``, ``"step_mark"``,
        ``"step_limit"``, ``"time_mark"`` or ``"time_limit"``), ``step`` (optimizer steps so far),
        ``epoch`` (fractional when mid-epoch), ``minutes`` and ``seconds`` (training time so far), ``examples_per_s``,
        ``loss`` (mean over the steps since the previous record), ``dev_em``/``dev_f1`` (percent,
        ``None`` without dev; for a reader that abstains, at the no-answer threshold chosen on dev at that
        evaluation, recorded as ``na_threshold``), ``peak_rss_mb``, ``peak_gpu_mb`` (CUDA only) and ``best`` (whether
        these weights were kept). On ranks other than 0 the log has no dev scores. A reader trained on
        data with unanswerable questions abstains (``reader.abstains``); ``reader.no_answer`` holds the
        threshold chosen with the kept weights (:mod:`mrclens.baseline_model.no_answer`).

    Raises:
        MRCLensError: no trainable question (none has an answer span), a bad device name, an
            unknown ``amp``/``bucket_width``/``lr_schedule`` value, ``processes < 1``, a global batch
            smaller than the number of processes, or a training process that failed.
        ValueError: an unknown ``lstm_impl``.
    """
    config = copy.deepcopy(config) if config is not None else ReaderConfig.profile(resolve_profile(None, train_dataset))
    check_lr_schedule(config)  # before any work
    info = ddp.current()
    dev_device = resolve_device(device)
    if config.processes < 1:
        raise MRCLensError(f"processes must be at least 1, got {config.processes}")
    if config.processes > 1 and info.world_size == 1 and dev_device.type == "cpu" and not ddp.launched_by_torchrun():
        # CPU data parallelism without a launcher: fork the processes here; rank 0's reader comes back
        def run() -> Reader:
            return train(train_dataset, config, dev=dev, max_minutes=max_minutes, epochs=epochs, seed=seed,
                         device="cpu", progress=progress, log=log, eval_at_minutes=eval_at_minutes,
                         on_eval=on_eval, on_step=on_step, max_steps=max_steps, eval_at_steps=eval_at_steps)

        return ddp.fork_training(config.processes, run, save=lambda reader, d: reader.save(d),
                                 load=lambda d: Reader.load(d, device="cpu"), threads=config.cpu_threads)
    if info.world_size > 1 and dev_device.type == "cuda":
        dev_device = torch.device("cuda", info.local_rank)
    with cpu_determinism(config.cpu_threads, dev_device) as threads:
        return _train(train_dataset, config, dev=dev, max_minutes=max_minutes, epochs=epochs, seed=seed,
                      device=device, progress=progress, log=log, eval_at_minutes=eval_at_minutes, on_eval=on_eval,
                      on_step=on_step, max_steps=max_steps, eval_at_steps=eval_at_steps, threads=threads)


def _train(train_dataset: Dataset, config: ReaderConfig, *, dev: Dataset | None, max_minutes: float | None,
           epochs: int | None, seed: int, device: str, progress: bool, log: Callable[[str], None] | None,
           eval_at_minutes: list[float] | None, on_eval: Callable[[dict[str, Any]], None] | None,
           on_step: Callable[[int, float], None] | None, max_steps: int | None, eval_at_steps: list[int] | None,
           threads: int | None) -> Reader:
    """:func:`train` with ``config`` already copied, inside :func:`cpu_determinism` (``threads`` in
    effect): check the budgets and the device, prepare the data, build the optimisation
    (:class:`_TrainingRun`), run the epochs, keep the best weights."""
    budget = _resolve_budget(config, epochs, max_minutes, max_steps)
    info = ddp.current()
    dev_device, bucket_width = _training_device(config, device, info)
    main = info.is_main
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    data = _prepare_data(train_dataset, dev, config, show=progress and main, main=main)
    run = _TrainingRun(dev=dev, config=config, budget=budget, data=data,
                       device=dev_device, info=info, seed=seed, rng=rng, bucket_width=bucket_width,
                       show=progress and main, say=(log or _logger.info) if main else (lambda s: None),
                       on_eval=on_eval, on_step=on_step, eval_at_minutes=eval_at_minutes, eval_at_steps=eval_at_steps)
    run.run_epochs()
    return run.finish(threads)


@dataclass(frozen=True)
class _Budget:
    """How long training runs: ``epochs``, ``max_minutes`` (wall-clock cap) and ``max_steps`` (``None``: none)."""

    epochs: int
    max_minutes: float | None
    max_steps: int | None


def _resolve_budget(config: ReaderConfig, epochs: int | None, max_minutes: float | None,
                    max_steps: int | None) -> _Budget:
    """The budgets given to :func:`train`, defaulting to ``config``'s.

    Raises:
        MRCLensError: ``max_steps`` below 1.
    """
    epochs = config.epochs if epochs is None else epochs
    max_minutes = config.max_minutes if max_minutes is None else max_minutes
    max_steps = config.max_steps if max_steps is None else max_steps
    if max_steps is not None and max_steps < 1:
        raise MRCLensError(f"max_steps must be at least 1, got {max_steps}")
    return _Budget(epochs, max_minutes, max_steps)


def _training_device(config: ReaderConfig, device: str, info: ddp.DistInfo) -> tuple[torch.device, int]:
    """The device this process trains on (``cuda:LOCAL_RANK`` under a CUDA process group) and the
    bucket width (:func:`resolve_bucket_width`), after checking the execution options.

    Raises:
        MRCLensError: a bad device name, a global batch smaller than the number of processes, an
            unknown ``amp`` or a negative ``bucket_width``.
        ValueError: an unknown ``lstm_impl``.
    """
    dev_device = resolve_device(device)
    if info.world_size > 1 and dev_device.type == "cuda":
        dev_device = torch.device("cuda", info.local_rank)
    if info.world_size > config.batch_size:
        raise MRCLensError(f"{info.world_size} processes need a batch of at least as many questions "
                           f"(batch_size {config.batch_size})")
    amp_dtype(config, dev_device)  # validates amp early
    uses_packed_lstm(config, dev_device)  # validates lstm_impl early
    return dev_device, resolve_bucket_width(config, dev_device)


@dataclass
class _TrainingData:
    """The encoded training (and dev) data of one run.

    Attributes:
        encoded: the training questions encoded for the vocabulary.
        dev_data: the dev questions encoded (``None`` without dev, and on processes other than rank 0).
        vocab: the vocabulary of train + dev; ``matrix`` its frozen word vectors ``(n_words, word_dim)``.
        usable: indices of the questions trained on (:func:`~mrclens.baseline_model.no_answer.usable_questions`).
        ctx_len: ``(n_questions,)`` context lengths cut to ``config.max_train_context_tokens``.
        abstains: whether the data has unanswerable questions (the reader gets the no-answer option).
    """

    encoded: EncodedData
    dev_data: EncodedData | None
    vocab: Vocab
    matrix: np.ndarray
    usable: np.ndarray
    ctx_len: np.ndarray
    abstains: bool


def _prepare_data(train_dataset: Dataset, dev: Dataset | None, config: ReaderConfig, *, show: bool,
                  main: bool) -> _TrainingData:
    """Tokenise and encode the data, build the vocabulary (sets ``config.word_dim``), choose the usable questions.

    Raises:
        MRCLensError: no training question has an answer span inside the first
            ``max_train_context_tokens`` tokens.
        VectorsError: the word vectors cannot be read.
    """
    td = tokenize_dataset(train_dataset, progress=show)
    dev_td = tokenize_dataset(dev, progress=show) if dev is not None else None
    types = td.types + (dev_td.types if dev_td is not None else [])
    vocab, matrix = build_vocab(types, config.vectors)
    config.word_dim = int(matrix.shape[1])
    data = encode(td, vocab, config)
    dev_data = encode(dev_td, vocab, config) if dev_td is not None and main else None
    max_ctx = config.max_train_context_tokens
    unanswerable = na.unanswerable_mask(train_dataset)
    abstains = bool(unanswerable.any())
    usable = na.usable_questions(td.spans, unanswerable, max_ctx, abstains)
    if len(usable) == 0:
        raise MRCLensError("no training question has an answer span inside the first "
                           f"{max_ctx} context tokens; nothing to train on")
    return _TrainingData(data, dev_data, vocab, matrix, usable, np.minimum(data.ctx_len, max_ctx), abstains)


class _TrainingRun:
    """One training run: the network, its optimiser and the counters, stepped through the epochs.

    Built by :func:`_train` after the data is prepared; :meth:`run_epochs` trains (evaluating on dev
    at the marks, after each epoch and when a budget ends) and :meth:`finish` keeps the best weights
    and returns the reader. The attributes mirror the quantities of :func:`train`'s training log.
    """

    def __init__(self, *, dev: Dataset | None, config: ReaderConfig, budget: _Budget,
                 data: _TrainingData, device: torch.device, info: ddp.DistInfo, seed: int,
                 rng: np.random.Generator, bucket_width: int, show: bool, say: Callable[[str], None],
                 on_eval: Callable[[dict[str, Any]], None] | None, on_step: Callable[[int, float], None] | None,
                 eval_at_minutes: list[float] | None, eval_at_steps: list[int] | None):
        self.dev, self.config, self.budget, self.data = dev, config, budget, data
        self.device, self.info, self.rng, self.bucket_width = device, info, rng, bucket_width
        self.show, self.say, self.on_eval, self.on_step = show, say, on_eval, on_step
        self.seed = seed
        self.main = info.is_main
        self.cuda = device.type == "cuda"
        self._build_optimisation(seed)
        max_minutes, max_steps = budget.max_minutes, budget.max_steps
        self.marks = sorted(m for m in (eval_at_minutes or []) if max_minutes is None or m < max_minutes)
        self.step_marks = sorted({int(m) for m in (eval_at_steps or [])
                                  if m >= 1 and (max_steps is None or m < max_steps)})
        self.time_marks_used = False
        self.best_f1 = -math.inf
        self.best_state: dict[str, torch.Tensor] | None = None
        self.best_no_answer: dict[str, Any] | None = None
        self.train_seconds = 0.0
        self.seen_total = 0
        self.loss_sum, self.loss_steps, self.seen_since = 0.0, 0, 0
        self.time_since = 0.0
        # training questions per second over the last minute of training time (evaluations excluded): the run's time left
        self.meter = RateMeter(clock=lambda: self.train_seconds)
        self.eval_seconds = 0.0  # the last dev evaluation's seconds
        self.pending: list[torch.Tensor] = []  # losses not yet read back from the device
        self.step = 0
        self.stopped: str | None = None  # "steps" or "time_limit" when a budget ended training mid-way
        self.epoch_pos = 0.0

    def _build_optimisation(self, seed: int) -> None:
        """The network, the reader, Adam, the learning-rate schedule, the gradient scaler (float16
        only), the weight average (``ema_decay``) and, under a process group, the DDP wrapper."""
        config, device, data = self.config, self.device, self.data
        self.model = CoAttentionReader(config, torch.from_numpy(data.matrix), len(data.vocab.chars) + 2,
                                       no_answer=data.abstains).to(device)
        self.reader = Reader(config, data.vocab, self.model, device)
        self.params = [p for p in self.model.parameters() if p.requires_grad]
        self.opt = (torch.optim.Adam(self.params, lr=config.lr, fused=True) if self.cuda
                    else torch.optim.Adam(self.params, lr=config.lr))
        self.sched = torch.optim.lr_scheduler.LambdaLR(
            self.opt, lr_factor(config, self.budget.max_steps, self.budget.epochs, len(data.usable)))
        self.scaler = torch.amp.GradScaler(device.type) if amp_dtype(config, device) == torch.float16 else None
        self.average = WeightAverage(self.model, config.ema_decay) if config.ema_decay else None
        self.net: torch.nn.Module = self.model
        self.comm_device = torch.device("cpu")
        if self.info.world_size > 1:
            from torch.nn.parallel import DistributedDataParallel

            # buffers (the frozen word vectors) are identical on every process: no broadcast per step
            # (torch 2.13 calls broadcast_buffers deprecated but says to keep it for exactly this case)
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message=".*broadcast_buffers.*", category=FutureWarning)
                self.net = DistributedDataParallel(self.model, device_ids=None, broadcast_buffers=False)
            self.comm_device = device if torch.distributed.get_backend() == "nccl" else torch.device("cpu")
            torch.manual_seed(seed * 7919 + self.info.rank + 1)  # each process draws its own dropout masks

    # ------------------------------------------------------------------ evaluation
    def flush(self) -> float | None:
        """Read the pending losses back (into the running mean); the last one, or ``None``."""
        last = None
        for t in self.pending:
            last = float(t)
            self.loss_sum += last
            self.loss_steps += 1
        self.pending.clear()
        return last

    def evaluate(self, event: str, epoch_pos: float) -> None:
        """Append one training-log record (``event`` at ``epoch_pos``; dev scores on rank 0), log it,
        call ``on_eval``; under a process group every process waits for the others here."""
        self.flush()
        seconds = self.train_seconds
        record: dict[str, Any] = {
            "event": event, "step": self.step, "epoch": round(epoch_pos, 4), "minutes": round(seconds / 60, 3),
            "seconds": round(seconds, 1),
            "examples_per_s": round(self.seen_since / self.time_since, 2) if self.time_since > 0 else None,
            "loss": round(self.loss_sum / self.loss_steps, 4) if self.loss_steps else None,
            "dev_em": None, "dev_f1": None, "best": False,
        }
        self.loss_sum, self.loss_steps, self.seen_since, self.time_since = 0.0, 0, 0, 0.0
        if self.data.dev_data is not None:
            self._score_dev(record)
        record["peak_rss_mb"] = round(peak_rss_mb(), 1)
        if self.cuda:
            record["peak_gpu_mb"] = round(torch.cuda.max_memory_allocated(self.device) / 2**20, 1)
        self.reader.training_log.append(record)
        dev_txt = (f"dev EM {record['dev_em']:.2f} F1 {record['dev_f1']:.2f}" if record["dev_f1"] is not None
                   else "no dev set")
        if "dev_f1_average" in record:
            dev_txt += f" (current weights {record['dev_f1_current']:.2f}, averaged {record['dev_f1_average']:.2f})"
        self.say(f"[{event}] epoch {record['epoch']:.2f}, {record['minutes']:.1f} min of training, "
                 f"{record['examples_per_s'] or 0:.1f} examples/s, loss {record['loss'] or 0:.3f}, {dev_txt}")
        if self.on_eval is not None and self.main:
            self.on_eval(record)
        if self.info.world_size > 1:
            torch.distributed.barrier()

    def _score_dev(self, record: dict[str, Any]) -> None:
        """Score the current (and the averaged) weights on dev into ``record``; keep them when best."""
        t0 = time.perf_counter()
        dev_data, average = self.data.dev_data, self.average
        scores, na_choice = heldout_scores(self.reader, self.dev, dev_data, progress=self.show)
        state = None
        if average is not None:  # the averaged weights compete with the current ones
            record["dev_f1_current"] = round(scores["f1"], 2)
            with average.applied():
                avg_scores, avg_na = heldout_scores(self.reader, self.dev, dev_data, progress=self.show)
                if avg_scores["f1"] > scores["f1"]:
                    scores, na_choice = avg_scores, avg_na
                    state = _weights(self.model)
            record["dev_f1_average"] = round(avg_scores["f1"], 2)
        record["dev_em"], record["dev_f1"] = round(scores["exact_match"], 2), round(scores["f1"], 2)
        if na_choice is not None:
            record["na_threshold"] = na_choice["threshold"]
        record["eval_seconds"] = round(time.perf_counter() - t0, 1)
        self.eval_seconds = record["eval_seconds"]
        if scores["f1"] > self.best_f1:
            self.best_f1 = scores["f1"]
            self.best_state = state if state is not None else _weights(self.model)
            self.best_no_answer = na_choice
            record["best"] = True

    # ------------------------------------------------------------------ training
    def run_epochs(self) -> None:
        """Train for the epochs of the budget, or until the step budget or the wall-clock cap ends it."""
        self.model.train()
        for epoch in range(self.budget.epochs):
            self._run_epoch(epoch)
            if self.stopped:
                self.evaluate("step_limit" if self.stopped == "steps" else "time_limit", self.epoch_pos)
                break
            self.epoch_pos = float(epoch + 1)
            self.evaluate("epoch", epoch + 1)

    def _run_epoch(self, epoch: int) -> None:
        """One epoch's batches (:func:`training_batches`), with the evaluations at the marks it passes;
        sets :attr:`stopped` when a budget ends it."""
        usable, info = self.data.usable, self.info
        batches = training_batches(self.data.ctx_len, usable, self.config.batch_size, self.rng, self.bucket_width)
        bar = progress_bar(total=len(usable), desc=f"epoch {epoch + 1}/{self.budget.epochs}", unit="q",
                           enabled=self.show, leave=True)
        done = 0
        for bi, idx in enumerate(batches):
            t0 = time.perf_counter()
            if len(idx) < info.world_size:  # too small to give every process a question: skipped by all
                done += len(idx)
                bar.update(len(idx))
                continue
            loss, local = self._optimizer_step(idx)
            mark_due, stop_due, steps_due, step_mark_due = self._decisions(loss, local, idx, t0)
            del loss
            lv = self.flush() if (bi % 10 == 0 or self.on_step is not None) else None
            if self.on_step is not None:
                self.on_step(self.step, lv)
            dt = time.perf_counter() - t0
            self.train_seconds += dt
            self.time_since += dt
            self.seen_since += len(idx)
            self.seen_total += len(idx)
            done += len(idx)
            bar.update(len(idx))
            self.meter.update(epoch * len(usable) + done)
            if lv is not None and bi % 10 == 0:  # the bar measures the epoch's rate and time left itself
                bar.set_postfix(self._postfix(lv, epoch, done))
            self.epoch_pos = epoch + done / len(usable)
            if steps_due or stop_due:  # the step budget wins when both end at this step
                self.stopped = "steps" if steps_due else "time_limit"
                break
            if step_mark_due:
                self.step_marks.pop(0)
                if bi < len(batches) - 1:  # at an epoch's last batch the epoch evaluation follows
                    self.evaluate("step_mark", self.epoch_pos)
            if mark_due:
                self.marks.pop(0)
                self.time_marks_used = True
                self.evaluate("time_mark", self.epoch_pos)
        bar.close()

    def _postfix(self, loss: float, epoch: int, done: int) -> dict[str, str]:
        """The progress line's postfix: the loss and, once :data:`~mrclens.progress.ETA_MIN_SECONDS` of training
        have passed, the time left in the whole run (:func:`~mrclens.baseline_model.time_left.run_seconds_left`),
        e.g. ``loss 3.210, all epochs 1 h 05 min left``; the bar itself gives the epoch's."""
        postfix = {"loss": f"{loss:.3f}"}
        if self.train_seconds < ETA_MIN_SECONDS:
            return postfix
        budget = self.budget
        per_step = self.seen_total / self.step if self.step else None
        questions_allowed = ((budget.max_steps - self.step) * per_step
                             if budget.max_steps is not None and per_step is not None else None)
        seconds_allowed = budget.max_minutes * 60 - self.train_seconds if budget.max_minutes is not None else None
        left = format_run_left(run_seconds_left(
            self.meter.rate(), done, len(self.data.usable), epoch, budget.epochs, eval_seconds=self.eval_seconds,
            questions_allowed=questions_allowed, seconds_allowed=seconds_allowed))
        if left is not None:
            postfix["all epochs"] = left
        return postfix

    def _optimizer_step(self, idx: np.ndarray) -> tuple[torch.Tensor, np.ndarray]:
        """Forward, backward and one optimizer step on this process's share of the batch ``idx``.

        Returns:
            the (unscaled) loss of this process's questions and their indices.
        """
        config, device, info = self.config, self.device, self.info
        local = ddp.shard(idx, info)
        batch = make_batch(self.data.encoded, local, config, device, max_ctx=config.max_train_context_tokens,
                           pad_multiple=self.bucket_width or None)
        with autocast(config, device):
            outputs = self.net(batch)
            loss = na.span_loss(outputs, batch["spans"])
        scaled = loss if info.world_size == 1 else loss * ddp.loss_weight(len(local), len(idx), info)
        self.opt.zero_grad(set_to_none=True)
        if self.scaler is not None:
            self.scaler.scale(scaled).backward()
            self.scaler.unscale_(self.opt)
        else:
            scaled.backward()
        torch.nn.utils.clip_grad_norm_(self.params, config.grad_clip)
        if self.scaler is not None:
            self.scaler.step(self.opt)
            self.scaler.update()
        else:
            self.opt.step()
        self.sched.step()
        self.step += 1
        if self.average is not None:
            self.average.update(self.step)
        if device.type == "cpu" and self.step % memory.TRIM_EVERY_STEPS == 0:
            memory.release_free_memory()  # freed batch tensors back to the OS: memory, not values
        return loss, local

    def _decisions(self, loss: torch.Tensor, local: np.ndarray, idx: np.ndarray,
                   t0: float) -> tuple[bool, bool, bool, bool]:
        """After a step begun at ``t0``: whether a time mark, the wall-clock cap, the step budget and a
        step mark are due. Queues the batch's loss; under a process group one all-reduce gives the
        global batch's loss and rank 0's time decisions to every process."""
        budget = self.budget
        elapsed = self.train_seconds + (time.perf_counter() - t0)  # training time including this step
        mark_due = bool(self.marks) and elapsed >= self.marks[0] * 60
        stop_due = budget.max_minutes is not None and elapsed >= budget.max_minutes * 60
        steps_due = budget.max_steps is not None and self.step >= budget.max_steps  # the same on every process
        step_mark_due = bool(self.step_marks) and self.step >= self.step_marks[0]
        if self.info.world_size > 1:
            ctl = torch.tensor([float(loss.detach()) * len(local), float(mark_due and self.main),
                                float(stop_due and self.main)], dtype=torch.float64, device=self.comm_device)
            torch.distributed.all_reduce(ctl)
            loss_sum_global, mark_flag, stop_flag = ctl.tolist()
            self.pending.append(torch.tensor(loss_sum_global / len(idx)))
            mark_due, stop_due = mark_flag > 0, stop_flag > 0
        else:
            self.pending.append(loss.detach())
        return mark_due, stop_due, steps_due, step_mark_due

    # ------------------------------------------------------------------ the result
    def finish(self, threads: int | None) -> Reader:
        """Load the kept weights (best on dev; without dev the averaged ones when averaging, else the
        last) and the no-answer threshold chosen with them; record how training ended (``threads``:
        the CPU thread count in effect)."""
        model, reader, budget = self.model, self.reader, self.budget
        if self.best_state is not None:
            model.load_state_dict(self.best_state, strict=False)
        elif self.average is not None:  # no dev set to choose on: keep the averaged weights
            model.load_state_dict(_averaged(model, self.average), strict=False)
        if self.best_no_answer is not None:
            reader.no_answer = {**self.best_no_answer, "chosen_on": "held-out training data (best F1)"}
        model.eval()
        stopped = self.stopped
        time_dependent = stopped == "time_limit" or (self.time_marks_used and self.data.dev_data is not None)
        reader.training = TrainingRecord(
            stopped_by=stopped or "epochs", steps=self.step, epoch=round(self.epoch_pos, 4), epochs=budget.epochs,
            max_steps=budget.max_steps, max_minutes=budget.max_minutes, seed=self.seed, device=self.device.type,
            processes=self.info.world_size, cpu_threads=threads, deterministic_algorithms=threads is not None,
            time_dependent=time_dependent, reproducible=self.device.type == "cpu" and not time_dependent,
            cpu=cpu_model(), cpu_capability=cpu_capability(), torch=torch.__version__)
        if self.main and stopped == "time_limit":
            _logger.warning(reader.training.notice())
        return reader
