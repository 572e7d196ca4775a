"""Benchmark: train the baseline reader on SQuAD v1.1 train, score on dev as training goes.

Prints one table row per evaluation (at fixed training-time marks and after each epoch):
training minutes, epoch, examples/s, dev EM/F1 (official metrics, full dev set), peak resident
memory (``resource.getrusage``) and the 1-minute load average (``os.getloadavg``: the machine's
2 cores are shared with other jobs, so throughput depends on the load). Writes the rows as JSON
lines to ``--out`` as well.

Usage::

    .venv/bin/python benchmarks/bench_train.py --profile paper --max-steps 0 --max-minutes 50 \
        --marks 10,20,30,45 --out bench-paper.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import torch

from mrclens.baseline_model import ReaderConfig, train
from mrclens.baseline_model.runtime import peak_rss_mb
from mrclens.formats import load_dataset

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("MRCLENS_SHARED_DATA", REPO.parent / "shared" / "data")) / "squad"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--train", default=str(DATA / "train-v1.1.json.gz"))
    ap.add_argument("--dev", default=str(DATA / "dev-v1.1.json.gz"))
    ap.add_argument("--profile", default="paper", choices=ReaderConfig.PROFILES)
    ap.add_argument("--exact-match-features", choices=["on", "off"], default=None,
                    help="override the profile's exact-match features")
    ap.add_argument("--max-minutes", type=float, default=50.0, help="training-time cap (evaluation not counted)")
    ap.add_argument("--epochs", type=int, default=None)
    ap.add_argument("--marks", default="10,20,30,45", help="extra dev evaluations at these training minutes")
    ap.add_argument("--step-marks", default="", help="extra dev evaluations after these optimizer steps (deterministic)")
    ap.add_argument("--batch-size", type=int, default=None, help="override config.batch_size (questions)")
    ap.add_argument("--lr", type=float, default=None, help="override config.lr")
    ap.add_argument("--hidden", type=int, default=None, help="override config.hidden (LSTM units per direction)")
    ap.add_argument("--char-filters", type=int, default=None, help="override config.char_filters")
    ap.add_argument("--ema-decay", type=float, default=None,
                    help="override config.ema_decay (moving average of the weights; 0 = off)")
    ap.add_argument("--threads", type=int, default=None, help="torch threads (default: CPUs available)")
    ap.add_argument("--max-steps", type=int, default=None,
                    help="step budget (default: the profile's; 0 = none, to let --max-minutes decide)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--device", default="auto")
    ap.add_argument("--amp", default=None, choices=["auto", "off", "bf16", "fp16"], help="override config.amp")
    ap.add_argument("--lstm", default=None, choices=["auto", "padded", "packed"], help="override config.lstm_impl")
    ap.add_argument("--bucket-width", type=int, default=None, help="override config.bucket_width")
    ap.add_argument("--out", default=None, help="also write rows as JSON lines here")
    ap.add_argument("--save", default=None, help="save the final reader into this directory")
    args = ap.parse_args()

    threads = args.threads or len(os.sched_getaffinity(0))
    torch.set_num_threads(threads)
    cfg = ReaderConfig.profile(args.profile)
    cfg.cpu_threads = threads  # training sets torch's thread count from the config (issue 16)
    if args.max_steps is not None:
        cfg.max_steps = args.max_steps or None
    if args.exact_match_features is not None:
        cfg.exact_match_features = args.exact_match_features == "on"
    if args.amp is not None:
        cfg.amp = args.amp
    if args.lstm is not None:
        cfg.lstm_impl = args.lstm
    if args.bucket_width is not None:
        cfg.bucket_width = args.bucket_width
    if args.ema_decay is not None:
        cfg.ema_decay = args.ema_decay or None
    for name in ("batch_size", "lr", "hidden", "char_filters"):
        if getattr(args, name) is not None:
            setattr(cfg, name, getattr(args, name))
    print(f"# machine: {platform.node()} {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} CPUs, torch {torch.__version__} with {threads} threads, "
          f"cuda={torch.cuda.is_available()}; python {sys.version.split()[0]}")
    print(f"# command: {' '.join(sys.argv)}")
    print(f"# config: {cfg.to_json()}")
    t0 = time.perf_counter()
    train_ds, dev_ds = load_dataset(args.train), load_dataset(args.dev)
    print(f"# loaded data in {time.perf_counter() - t0:.1f} s; load average {os.getloadavg()[0]:.2f}", flush=True)
    out = open(args.out, "a", encoding="utf-8") if args.out else None
    print(f"{'event':>10} {'step':>6} {'train_min':>9} {'epoch':>6} {'ex/s':>7} {'loss':>7} {'dev_EM':>7} {'dev_F1':>7} "
          f"{'peak_MiB':>9} {'load1':>6} {'wall_min':>8}", flush=True)
    started = time.perf_counter()

    def row(r: dict) -> None:
        r = dict(r, batch_size=cfg.batch_size, lr=cfg.lr, hidden=cfg.hidden, ema_decay=cfg.ema_decay, load1=round(os.getloadavg()[0], 2), wall_minutes=round((time.perf_counter() - started) / 60, 2),
                 profile=args.profile, exact_match_features=cfg.exact_match_features, threads=threads)
        print(f"{r['event']:>10} {r['step']:6d} {r['minutes']:9.1f} {r['epoch']:6.2f} {r['examples_per_s'] or 0:7.1f} "
              f"{r['loss'] or 0:7.3f} {r['dev_em']:7.2f} {r['dev_f1']:7.2f} {r['peak_rss_mb']:9.0f} "
              f"{r['load1']:6.2f} {r['wall_minutes']:8.1f}"
              + (f"  (current weights {r['dev_f1_current']:.2f}, average {r['dev_f1_average']:.2f})"
                 if "dev_f1_average" in r else ""), flush=True)
        if out:
            out.write(json.dumps(r) + "\n")
            out.flush()

    marks = [float(m) for m in args.marks.split(",") if m.strip()]
    step_marks = [int(m) for m in args.step_marks.split(",") if m.strip()]
    reader = train(train_ds, cfg, dev=dev_ds, max_minutes=args.max_minutes, epochs=args.epochs, seed=args.seed,
                   device=args.device, progress=False, eval_at_minutes=marks, eval_at_steps=step_marks, on_eval=row)
    epoch_rows = [r for r in reader.training_log if r["event"] == "epoch"]
    for r in epoch_rows:
        print(f"# epoch {r['epoch']:.0f}: {r['examples_per_s']} examples/s")
    print(f"# best dev F1 {max(r['dev_f1'] for r in reader.training_log):.2f}; "
          f"peak RSS {peak_rss_mb():.0f} MiB; total wall {(time.perf_counter() - t0) / 60:.1f} min", flush=True)
    if args.save:
        reader.save(args.save)


if __name__ == "__main__":
    main()
