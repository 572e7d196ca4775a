"""Benchmark: resident memory of one CPU training process, with and without freed-memory trimming (issue 21).

Trains the ``paper-fast`` recipe with 1 thread for STEPS optimizer steps on every 4th article of
SQuAD v1.1 train (22k questions) while a thread samples the process's RSS every 2 s, and prints one
JSON line: examples/s are in the ``[step_limit]`` log line above it, RSS samples (GiB) every 30 s,
the largest sample and the RSS/PSS at the end. Run two variants side by side (same machine load),
e.g. the shipped trimming (every ``TRIM_EVERY_STEPS`` steps) against none::

    OMP_WAIT_POLICY=PASSIVE .venv/bin/python benchmarks/bench_train_memory.py 400 &
    OMP_WAIT_POLICY=PASSIVE .venv/bin/python benchmarks/bench_train_memory.py 400 0 notrim &

Arguments: STEPS [TRIM_SECONDS [notrim]]: TRIM_SECONDS > 0 also calls ``malloc_trim`` from the
sampling thread every that many seconds; ``notrim`` turns the training loop's trimming off. glibc
variables such as ``MALLOC_MMAP_THRESHOLD_`` are read from the environment (and printed).
"""

from __future__ import annotations

import ctypes
import json
import os
import sys
import threading
import time
from pathlib import Path

from mrclens.baseline_model import ReaderConfig, memory, train
from mrclens.formats import load_dataset
from mrclens.squad import Dataset

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("MRCLENS_SHARED_DATA", REPO.parent / "shared" / "data")) / "squad" / "train-v1.1.json.gz"


def _rss_pss() -> dict[str, float]:
    out = {}
    for line in Path("/proc/self/smaps_rollup").read_text().splitlines():
        key, *value = line.split()
        if key in ("Rss:", "Pss:"):
            out[key[:-1]] = int(value[0]) / 2**20
    return out


def main() -> None:
    steps = int(sys.argv[1])
    trim_seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
    if len(sys.argv) > 3 and sys.argv[3] == "notrim":
        memory.TRIM_EVERY_STEPS = 10**9
    libc = ctypes.CDLL("libc.so.6")
    samples: list[tuple[float, float]] = []
    stop = threading.Event()

    def sampler() -> None:
        t0 = last = time.time()
        while not stop.is_set():
            if trim_seconds and time.time() - last >= trim_seconds:
                libc.malloc_trim(0)
                last = time.time()
            samples.append((round(time.time() - t0, 1), _rss_pss()["Rss"]))
            time.sleep(2)

    full = load_dataset(DATA)
    data = Dataset(full.articles[::4], full.version)
    config = ReaderConfig.profile("paper-fast")
    config.cpu_threads, config.max_steps = 1, steps
    thread = threading.Thread(target=sampler, daemon=True)
    thread.start()
    start = time.time()
    train(data, config, seed=0, device="cpu", progress=False, log=lambda line: print(line, flush=True))
    stop.set()
    thread.join()
    print(json.dumps({"steps": steps, "trim_every_s": trim_seconds, "trim_every_steps": memory.TRIM_EVERY_STEPS,
                      "env": {k: v for k, v in os.environ.items() if k.startswith("MALLOC")},
                      "wall_s": round(time.time() - start, 1),
                      "rss_GiB_at": [(t, round(r, 2)) for t, r in samples[::15]],
                      "max_rss_GiB": round(max(r for _, r in samples), 2), "end": _rss_pss()}))


if __name__ == "__main__":
    main()
