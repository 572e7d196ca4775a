"""Training the co-attention BiLSTM reader.

Optimisation (issue 4, after the MRCLens paper's baseline): Adam, learning rate ``lr`` multiplied
by ``lr_decay`` every ``lr_decay_steps`` steps (staircase), gradient-norm clipping at
``grad_clip``, loss = negative log-likelihood of the gold start token + that of the gold end token
(first gold answer; answers not on token boundaries map to the covering tokens). Batches hold
questions of similar context length (pools of 50 batches sorted by length, then shuffled) to cut
padding. Training contexts are cut to ``max_train_context_tokens``; questions whose answer lies
beyond are skipped.

Reproducibility: the same seed, data, config and device (CPU) give the same weights and
predictions (``torch.manual_seed`` + a NumPy generator for the batch order).
"""

from __future__ import annotations

import copy
import logging
import math
import resource
import time
from typing import Any, Callable

import numpy as np
import torch
import torch.nn.functional as F

from mrclens.baseline_model.config import ReaderConfig
from mrclens.baseline_model.model import CoAttentionReader
from mrclens.baseline_model.reader import Reader, encode, make_batch, resolve_device
from mrclens.baseline_model.tokenize import tokenize_dataset
from mrclens.baseline_model.vectors import build_vocab
from mrclens.errors import MRCLensError
from mrclens.progress import progress as progress_bar
from mrclens.scoring.official import evaluate_set as evaluate
from mrclens.squad import Dataset

_logger = logging.getLogger(__name__)

POOL_BATCHES = 50


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MiB (``resource.getrusage``; Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def training_batches(ctx_len: np.ndarray, usable: np.ndarray, batch_size: int,
                     rng: np.random.Generator) -> list[np.ndarray]:
    """One epoch's batches: shuffle ``usable`` indices, sort pools of 50 batches by context length, shuffle batches."""
    order = rng.permutation(usable)
    batches: list[np.ndarray] = []
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
          eval_at_minutes: list[float] | None = None, on_eval: Callable[[dict[str, Any]], None] | None = None) -> Reader:
    """Train a reader on ``train_dataset``.

    Args:
        train_dataset: SQuAD-format training data (questions without answers are skipped).
        config: hyper-parameters; default ``ReaderConfig.profile("paper")``.
        dev: held-out data scored (official EM/F1, :mod:`mrclens.scoring.official`) after each epoch and
            at the ``eval_at_minutes`` marks; the weights with the best dev F1 are kept. Its
            words also select rows of the frozen word vectors. Without ``dev`` the last weights are kept.
        max_minutes: stop after this many minutes of training (evaluation not counted); default
            ``config.max_minutes``.
        epochs: number of passes over the data; default ``config.epochs``.
        seed: random seed (initialisation, dropout, batch order).
        device: ``"auto"``, ``"cpu"`` or ``"cuda"``.
        progress: show progress (loss, examples/s; :mod:`mrclens.progress`).
        log: called with one line of text per evaluation (default: an INFO record on the
            ``mrclens.baseline_model.train`` logger, :mod:`mrclens.logs`).
        eval_at_minutes: extra dev evaluations at these training-time marks (minutes).
        on_eval: called with each evaluation record as it is made (e.g. to print a benchmark table).

    Returns:
        the trained :class:`Reader`; ``reader.training_log`` lists a record per evaluation with
        ``event`` (``"epoch"``, ``"time_mark"`` or ``"time_limit"``), ``epoch`` (fractional when
        mid-epoch), ``minutes`` and ``seconds`` (training time so far), ``examples_per_s``,
        ``loss`` (mean over the steps since the previous record), ``dev_em``/``dev_f1`` (percent,
        ``None`` without dev), ``peak_rss_mb`` and ``best`` (whether these weights were kept).

    Raises:
        MRCLensError: no trainable question (none has an answer span), or a bad device name.
    """
    config = copy.deepcopy(config) if config is not None else ReaderConfig.profile("paper")
    epochs = config.epochs if epochs is None else epochs
    max_minutes = config.max_minutes if max_minutes is None else max_minutes
    dev_device = resolve_device(device)
    say = log or _logger.info
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)

    td = tokenize_dataset(train_dataset, progress=progress)
    dev_td = tokenize_dataset(dev, progress=progress) if dev is not None else None
    types = td.types + (dev_td.types if dev_td is not None else [])
    vocab, matrix = build_vocab(types, config.vectors)
    config.word_dim = int(matrix.shape[1])
    data = encode(td, vocab, config)
    dev_data = encode(dev_td, vocab, config) if dev_td is not None else None
    max_ctx = config.max_train_context_tokens
    usable = np.flatnonzero((td.spans[:, 0] >= 0) & (td.spans[:, 1] < max_ctx))
    if len(usable) == 0:
        raise MRCLensError("no training question has an answer span inside the first "
                           f"{max_ctx} context tokens; nothing to train on")
    ctx_len = np.minimum(data.ctx_len, max_ctx)

    model = CoAttentionReader(config, torch.from_numpy(matrix), len(vocab.chars) + 2).to(dev_device)
    reader = Reader(config, vocab, model, dev_device)
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.Adam(params, lr=config.lr)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda step: config.lr_decay ** (step // config.lr_decay_steps))

    marks = sorted(m for m in (eval_at_minutes or []) if max_minutes is None or m < max_minutes)
    best_f1 = -math.inf
    best_state: dict[str, torch.Tensor] | None = None
    train_seconds = 0.0
    seen_total = 0
    loss_sum, loss_steps, seen_since = 0.0, 0, 0
    time_since = 0.0

    def evaluate_now(event: str, epoch_pos: float) -> None:
        nonlocal best_f1, best_state, loss_sum, loss_steps, seen_since, time_since
        record: dict[str, Any] = {
            "event": event, "epoch": round(epoch_pos, 4), "minutes": round(train_seconds / 60, 3),
            "seconds": round(train_seconds, 1),
            "examples_per_s": round(seen_since / time_since, 2) if time_since > 0 else None,
            "loss": round(loss_sum / loss_steps, 4) if loss_steps else None,
            "dev_em": None, "dev_f1": None, "best": False,
        }
        loss_sum, loss_steps, seen_since, time_since = 0.0, 0, 0, 0.0
        if dev_data is not None:
            t0 = time.perf_counter()
            preds = reader.predict_encoded(dev_data, progress=progress)
            scores = evaluate(dev, preds)
            record["dev_em"], record["dev_f1"] = round(scores["exact_match"], 2), round(scores["f1"], 2)
            record["eval_seconds"] = round(time.perf_counter() - t0, 1)
            if scores["f1"] > best_f1:
                best_f1 = scores["f1"]
                best_state = {k: v.detach().clone() for k, v in model.state_dict().items() if k != "word_vectors"}
                record["best"] = True
        record["peak_rss_mb"] = round(peak_rss_mb(), 1)
        reader.training_log.append(record)
        dev_txt = (f"dev EM {record['dev_em']:.2f} F1 {record['dev_f1']:.2f}" if record["dev_f1"] is not None
                   else "no dev set")
        say(f"[{event}] epoch {record['epoch']:.2f}, {record['minutes']:.1f} min of training, "
            f"{record['examples_per_s'] or 0:.1f} examples/s, loss {record['loss'] or 0:.3f}, {dev_txt}")
        if on_eval is not None:
            on_eval(record)

    model.train()
    step = 0
    stopped = False
    for epoch in range(epochs):
        batches = training_batches(ctx_len, usable, config.batch_size, rng)
        bar = progress_bar(total=len(usable), desc=f"epoch {epoch + 1}/{epochs}", unit="q", enabled=progress, leave=True)
        done = 0
        for bi, idx in enumerate(batches):
            t0 = time.perf_counter()
            batch = make_batch(data, idx, config, dev_device, max_ctx=max_ctx)
            start, end = model(batch)
            spans = batch["spans"]
            loss = F.cross_entropy(start, spans[:, 0]) + F.cross_entropy(end, spans[:, 1])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, config.grad_clip)
            opt.step()
            sched.step()
            step += 1
            lv = float(loss.detach())
            del batch, start, end, loss
            dt = time.perf_counter() - t0
            train_seconds += dt
            time_since += dt
            loss_sum += lv
            loss_steps += 1
            seen_since += len(idx)
            seen_total += len(idx)
            done += len(idx)
            bar.update(len(idx))
            if bi % 10 == 0:
                bar.set_postfix(loss=f"{lv:.3f}", ex_s=f"{seen_total / train_seconds:.1f}")
            if marks and train_seconds >= marks[0] * 60:
                marks.pop(0)
                evaluate_now("time_mark", epoch + done / len(usable))
            if max_minutes is not None and train_seconds >= max_minutes * 60:
                stopped = True
                break
        bar.close()
        if stopped:
            evaluate_now("time_limit", epoch + done / len(usable))
            break
        evaluate_now("epoch", epoch + 1)
    if best_state is not None:
        model.load_state_dict(best_state, strict=False)
    model.eval()
    return reader
