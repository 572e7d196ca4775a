"""Benchmark: what one more draw (``mrclens audit --perturb-seeds K``, issue 16) costs on SQuAD v1.1 dev.

Measures, in one process on the machine it runs on:

1. ``perturb_dataset(dev, draw=0)`` (cold or warm parse cache, as found) and ``draw=1`` (the
   parses are then cached, as in an audit: draw 0 always runs first);
2. the sets of draw 1 whose files differ from draw 0's (the ones an audit predicts again), and
   their question count;
3. prediction of those sets with a reader of the chosen profile (default ``paper``). The weights
   are untrained (randomly initialised; vocabulary from dev): prediction costs the same
   arithmetic whatever the weights, so the time per question is that of a trained reader.
4. the same prediction of every draw-0 set (what a single-draw audit predicts).

Prints one line per measurement with wall seconds, CPU seconds (user+sys of the process),
questions/s and the 1-minute load average (the machine is shared; the load is reported so
that figures can be compared).

Usage::

    .venv/bin/python benchmarks/bench_draws.py --out /tmp/bench-draws [--profile paper] [--cache-dir DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from pathlib import Path

import torch

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("MRCLENS_SHARED_DATA", REPO.parent / "shared" / "data")) / "squad"


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _line(what: str, wall: float, cpu: float, n: int | None = None) -> None:
    rate = f" | {n:,} questions, {n / wall:.0f} questions/s" if n else ""
    print(f"{what}: wall {wall:.1f} s | CPU {cpu:.1f} s{rate} | load {os.getloadavg()[0]:.1f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dev", default=str(DATA / "dev-v1.1.json.gz"))
    ap.add_argument("--out", required=True, help="scratch directory for the perturbed sets")
    ap.add_argument("--profile", default="paper")
    ap.add_argument("--cache-dir", default=None)
    ap.add_argument("--skip-draw0-predict", action="store_true", help="do not time the draw-0 prediction")
    ap.add_argument("--sets", default=None, help="predict only these of draw 1's re-predicted sets (comma-separated)")
    args = ap.parse_args()

    from mrclens.artifacts.manifest import read_manifest
    from mrclens.baseline_model import ReaderConfig
    from mrclens.baseline_model.model import CoAttentionReader
    from mrclens.baseline_model.reader import Reader
    from mrclens.baseline_model.tokenize import tokenize_dataset
    from mrclens.baseline_model.vectors import build_vocab
    from mrclens.io_utils import sha256_file
    from mrclens.perturbations import perturb_dataset
    from mrclens.formats import load_dataset

    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, {os.cpu_count()} CPUs", flush=True)
    out = Path(args.out)
    dev = load_dataset(args.dev)
    for draw in (0, 1):
        t0, c0 = time.perf_counter(), _cpu()
        perturb_dataset(dev, out / f"draw-{draw}", draw=draw, cache_dir=args.cache_dir, progress=False)
        _line(f"perturb draw {draw}", time.perf_counter() - t0, _cpu() - c0)
    files0 = read_manifest(out / "draw-0").set_files()
    files1 = read_manifest(out / "draw-1").set_files()
    again = [n for n, f in files1.items() if sha256_file(out / "draw-1" / f) != sha256_file(out / "draw-0" / files0[n])]
    print(f"sets predicted again for draw 1: {', '.join(again)}", flush=True)
    if args.sets:
        again = [n for n in again if n in args.sets.split(",")]

    torch.manual_seed(0)
    config = ReaderConfig.profile(args.profile)
    td = tokenize_dataset(dev, progress=False)
    vocab, matrix = build_vocab(td.types, config.vectors)
    config.word_dim = int(matrix.shape[1])
    model = CoAttentionReader(config, torch.from_numpy(matrix), len(vocab.chars) + 2)
    reader = Reader(config, vocab, model, "cpu")

    def predict(draw_dir: Path, names: list[str], files: dict[str, str], label: str) -> None:
        n = 0
        t0, c0 = time.perf_counter(), _cpu()
        for name in names:
            ds = load_dataset(draw_dir / files[name])
            n += ds.counts()["questions"]
            reader.predict(ds, progress=False)
        _line(label, time.perf_counter() - t0, _cpu() - c0, n)

    predict(out / "draw-1", again, files1, f"predict draw 1 ({len(again)} sets, profile {args.profile})")
    if not args.skip_draw0_predict:
        predict(out / "draw-0", list(files0), files0, f"predict draw 0 ({len(files0)} sets, profile {args.profile})")


if __name__ == "__main__":
    main()
