"""Benchmark of `mrclens stats` and `mrclens check` (MRCLens issue 7 speed bars).

Bars: `mrclens stats` on SQuAD v1.1 train (87,599 questions) <= 2 min cold and <= 15 s with
the parse cache warm, on 2 cores; `mrclens check` on SQuAD v1.1 dev <= 30 s cold.

"Warm" is a second run on the same file: parses and each paragraph's figures are cached. A
third train run deletes the statistics cache first, so that the cost of recomputing every
figure from cached parses is on record too.

Each step runs the real CLI in a subprocess and reports its wall time, the CPU time it used
(user + system of the child processes, spaCy workers included) and the 1-minute load average
before and after (other jobs on the machine slow the wall time down, not the CPU time).
"Cold" means a new, empty parse cache directory. The script also prints the dev figures the
issue's closing note asks for.

Usage:
    .venv/bin/python benchmarks/bench_stats.py [--train PATH] [--dev PATH] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("MRCLENS_SHARED_DATA", ROOT.parent / "shared" / "data"))


def run(args: list[str], label: str) -> dict:
    before = os.getloadavg()[0]
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run([str(Path(sys.executable).parent / "mrclens"), *args],
                          capture_output=True, text=True)
    wall = time.perf_counter() - t0
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    after = os.getloadavg()[0]
    if proc.returncode not in (0, 1):
        print(proc.stdout, proc.stderr, file=sys.stderr)
        raise SystemExit(f"{label}: exit status {proc.returncode}")
    row = {"step": label, "wall_s": wall, "cpu_s": cpu, "load_before": before, "load_after": after, "exit": proc.returncode}
    print(f"{label:40s} wall {wall:7.1f} s   cpu {cpu:7.1f} s   load {before:.1f} -> {after:.1f}   exit {proc.returncode}", flush=True)
    return {**row, "stdout": proc.stdout}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--train", default=str(SHARED / "squad" / "train-v1.1.json.gz"))
    ap.add_argument("--dev", default=str(SHARED / "squad" / "dev-v1.1.json.gz"))
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (--jobs of the CLI)")
    ap.add_argument("--skip-train", action="store_true", help="only the dev steps")
    a = ap.parse_args()
    print(f"cpus {os.cpu_count()}, jobs {a.jobs}, python {sys.version.split()[0]}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        jobs = ["--jobs", str(a.jobs)]
        if not a.skip_train:
            cache = tmp / "cache-train"
            args = ["stats", a.train, "--quiet", "--cache-dir", str(cache), "--json", str(tmp / "train.json"), *jobs]
            rows.append(run(args, "stats train (cold cache)"))
            rows.append(run(args, "stats train (warm cache)"))
            timings = json.loads((tmp / "train.json").read_text())["timings_s"]
            print("  warm run, seconds per step:", {k: round(v, 1) for k, v in timings.items()})
            # parses cached, per-paragraph figures not (e.g. the first run after an MRCLens upgrade)
            (cache / "stats-v2.sqlite").unlink()
            for extra in ("stats-v2.sqlite-wal", "stats-v2.sqlite-shm"):
                (cache / extra).unlink(missing_ok=True)
            rows.append(run(args, "stats train (parses cached only)"))
        cache = tmp / "cache-dev"
        rows.append(run(["check", a.dev, "--quiet", "--cache-dir", str(cache)], "check dev (cold cache)"))
        rows.append(run(["stats", a.dev, "--quiet", "--cache-dir", str(cache), "--json", str(tmp / "dev.json"), *jobs],
                        "stats dev (warm cache)"))
        s = json.loads((tmp / "dev.json").read_text())
    print("\nSQuAD v1.1 dev, closing figures:")
    print(f"  questions {s['counts']['questions']:,}")
    print(f"  answer in TF-IDF-most-similar sentence: {s['similarity']['answer_in_most_similar_sentence_pct']:.1f} %")
    print(f"  mean question length {s['lengths']['question_words']['mean']:.2f} words, "
          f"mean answer length {s['lengths']['answer_words']['mean']:.2f} words")
    print(f"  mean longest shared n-gram {s['overlap']['longest_shared_ngram']['mean']:.2f} words")
    print("  question types: " + ", ".join(f"{k} {v:.1f}%" for k, v in s["question_types"]["shares_pct"].items()))
    print(f"  answers in first sentence {s['answer_position']['first_sentence_pct']:.1f} %")
    for name, h in s["heuristics"].items():
        print(f"  {name:22s} EM {h['exact_match']:5.1f}  F1 {h['f1']:5.1f}   upper bound EM {h['upper_bound_exact_match']:5.1f}  F1 {h['upper_bound_f1']:5.1f}")
    print("\n| step | wall (s) | CPU (s) | load avg before → after |")
    print("|---|---|---|---|")
    for r in rows:
        print(f"| {r['step']} | {r['wall_s']:.1f} | {r['cpu_s']:.1f} | {r['load_before']:.1f} → {r['load_after']:.1f} |")


if __name__ == "__main__":
    main()
