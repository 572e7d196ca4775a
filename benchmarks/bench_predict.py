"""Benchmark: prediction throughput of the reader by prediction batch size (issue 21, part 3).

Tokenises SQuAD v1.1 dev (10,570 questions), builds a reader of the given profile with its initial
(untrained) weights — the network's cost does not depend on its weights — and times
``Reader.predict_encoded`` over the whole dev set once per batch size, 2 torch threads, one process.
``--max-tokens`` sets the token cap of a batch (``mrclens.baseline_model.reader.PREDICT_MAX_TOKENS``,
``none`` for no cap). Prints seconds, questions/s and the peak resident memory so far per batch size
(tokenisation not counted; it is printed apart).

Usage::

    OMP_WAIT_POLICY=PASSIVE .venv/bin/python benchmarks/bench_predict.py --batch-sizes 64,128,256,512 --max-tokens none
    OMP_WAIT_POLICY=PASSIVE .venv/bin/python benchmarks/bench_predict.py --batch-sizes 256   # the shipped cap
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import torch

from mrclens.baseline_model import ReaderConfig
from mrclens.baseline_model import reader as reader_module
from mrclens.baseline_model.model import CoAttentionReader
from mrclens.baseline_model.reader import Reader, encode
from mrclens.baseline_model.tokenize import tokenize_dataset
from mrclens.baseline_model.runtime import peak_rss_mb
from mrclens.baseline_model.vectors import build_vocab
from mrclens.formats import load_dataset

REPO = Path(__file__).resolve().parents[1]
DEV = Path(os.environ.get("MRCLENS_SHARED_DATA", REPO.parent / "shared" / "data")) / "squad" / "dev-v1.1.json.gz"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch-sizes", default="64,128,256,512", help="comma-separated prediction batch sizes")
    parser.add_argument("--profile", default="paper-fast")
    parser.add_argument("--max-tokens", default=None, help="token cap per batch, or none (default: the shipped cap)")
    args = parser.parse_args()
    if args.max_tokens is not None:
        reader_module.PREDICT_MAX_TOKENS = None if args.max_tokens == "none" else int(args.max_tokens)
    print(f"token cap per batch: {reader_module.PREDICT_MAX_TOKENS}", flush=True)
    if not DEV.exists():
        raise SystemExit(f"SQuAD v1.1 dev not found at {DEV} (set MRCLENS_SHARED_DATA); nothing measured")
    torch.set_num_threads(2)
    t = time.perf_counter()
    td = tokenize_dataset(load_dataset(DEV))
    print(f"tokenising {len(td):,} questions: {time.perf_counter() - t:.1f} s", flush=True)
    cfg = ReaderConfig.profile(args.profile)
    vocab, matrix = build_vocab(td.types, cfg.vectors)
    cfg.word_dim = int(matrix.shape[1])
    data = encode(td, vocab, cfg)
    torch.manual_seed(0)
    reader = Reader(cfg, vocab, CoAttentionReader(cfg, torch.from_numpy(matrix), len(vocab.chars) + 2), "cpu")
    for size in (int(s) for s in args.batch_sizes.split(",")):
        t = time.perf_counter()
        reader.predict_encoded(data, progress=False, batch_size=size)
        seconds = time.perf_counter() - t
        print(f"batch {size}: {seconds:.1f} s, {len(td) / seconds:.1f} questions/s, "
              f"peak RSS so far {peak_rss_mb():.0f} MiB", flush=True)


if __name__ == "__main__":
    main()
