"""Benchmark of ``mrclens perturb`` against spaCy alone on the same texts (MRCLens issue 3).

Targets: a cold ``mrclens perturb DATA --out X`` (empty parse cache) costs at most 1.2 × the time
spaCy alone needs to parse the same distinct contexts (``senter``) and questions (tok2vec +
tagger + attribute_ruler) with the same pipelines; a second run with a warm cache takes at most
5 s. Every measurement runs in a fresh Python process and is wall-clock time of the whole
process (interpreter start, imports, model loading, reading the file, …), so both sides pay the
same fixed costs; each is repeated and the minimum is reported (the machine is shared).

Usage::

    python benchmarks/bench_perturb.py [DATA] [--repeats N] [--n-process K]

DATA defaults to ../shared/data/squad/dev-v1.1.json.gz. Prints one line per measurement and a
summary; writes nothing outside a temporary directory.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data" / "squad" / "dev-v1.1.json.gz"

LIBRARY = r"""
import sys
from mrclens.perturbations import perturb_dataset
perturb_dataset(sys.argv[1], sys.argv[2], n_process=int(sys.argv[3]), progress=False)
"""

SPACY_ALONE = r"""
import gzip, json, sys
from mrclens.nlp import load_pipeline
raw = json.loads(gzip.open(sys.argv[1], "rt", encoding="utf-8").read())
contexts = list(dict.fromkeys(p["context"] for a in raw["data"] for p in a["paragraphs"]))
questions = list(dict.fromkeys(q["question"] for a in raw["data"] for p in a["paragraphs"] for q in p["qas"]))
n = int(sys.argv[2])
tokens = 0
for doc in load_pipeline(sentences=True).pipe(contexts, batch_size=256, n_process=n):
    tokens += len(doc) + sum(1 for _ in doc.sents) * 0
for doc in load_pipeline(pos=True).pipe(questions, batch_size=256, n_process=n):
    tokens += len(doc)
print(len(contexts), len(questions), tokens)
"""


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run(cmd: list[str], env: dict) -> tuple[float, float, str]:
    """Run ``cmd``; return (wall seconds, CPU seconds user+sys of the process and its children, stdout)."""
    cpu0 = _children_cpu()
    t = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=REPO)
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        sys.exit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr[-3000:]}")
    return wall, _children_cpu() - cpu0, proc.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="?", default=str(DEFAULT_DATA))
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--n-process", type=int, default=1)
    args = ap.parse_args()
    py = sys.executable
    # Two ways to run perturb: the library call (what the `perturb` command wraps) and the full
    # `mrclens perturb` CLI, which also imports every other command registered in mrclens/cli.
    library = [py, "-c", LIBRARY]
    cli = [py, "-c", "import sys; from mrclens.cli import main; sys.argv[0] = 'mrclens'; main()", "perturb"]
    _, cli_import, _ = run([py, "-c", "import mrclens.cli"], dict(os.environ))
    _, lib_import, _ = run([py, "-c", "import mrclens.perturbations"], dict(os.environ))
    print(f"CPU to import: mrclens.cli (all commands) {cli_import:.2f} s; mrclens.perturbations {lib_import:.2f} s", flush=True)
    spacy_times, cold_times, warm_times, cli_cold, cli_warm = [], [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.repeats):
            env = dict(os.environ, MRCLENS_CACHE_DIR=str(Path(tmp) / f"cache{r}"))
            wall, cpu, out = run([py, "-c", SPACY_ALONE, args.data, str(args.n_process)], env)
            spacy_times.append((wall, cpu))
            print(f"spaCy alone      run {r + 1}: {wall:6.2f} s wall, {cpu:6.2f} s CPU  (distinct contexts, questions, tokens: {out.strip()})", flush=True)
            out_dir = str(Path(tmp) / f"out{r}")
            cmd = library + [args.data, out_dir, str(args.n_process)]
            wall, cpu, out = run(cmd, env)
            cold_times.append((wall, cpu))
            print(f"perturb (cold)   run {r + 1}: {wall:6.2f} s wall, {cpu:6.2f} s CPU", flush=True)
            wall, cpu, out = run(cmd, env)
            warm_times.append((wall, cpu))
            print(f"perturb (warm)   run {r + 1}: {wall:6.2f} s wall, {cpu:6.2f} s CPU", flush=True)
            env_cli = dict(os.environ, MRCLENS_CACHE_DIR=str(Path(tmp) / f"cli-cache{r}"))
            cmd = cli + [args.data, "--out", str(Path(tmp) / f"cli{r}"), "--quiet", "--jobs", str(args.n_process)]
            wall, cpu, out = run(cmd, env_cli)
            cli_cold.append((wall, cpu))
            print(f"mrclens perturb CLI (cold) run {r + 1}: {wall:6.2f} s wall, {cpu:6.2f} s CPU", flush=True)
            wall, cpu, out = run(cmd, env_cli)
            cli_warm.append((wall, cpu))
            print(f"mrclens perturb CLI (warm) run {r + 1}: {wall:6.2f} s wall, {cpu:6.2f} s CPU", flush=True)
            for name in os.listdir(out_dir):
                if Path(out_dir, name).read_bytes() != Path(tmp, f"cli{r}", name).read_bytes():
                    sys.exit(f"library and CLI outputs differ: {name}")
        print(out)
    print(f"data: {args.data}; n_process={args.n_process}; repeats={args.repeats}; CPU cores: {os.cpu_count()}; "
          f"load average now: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for i, kind in enumerate(["wall", "CPU"]):
        s = min(t[i] for t in spacy_times)
        c = min(t[i] for t in cold_times)
        w = min(t[i] for t in warm_times)
        print(f"[{kind:4}] spaCy alone {s:6.2f} s | perturb cold {c:6.2f} s = {c / s:.2f} x spaCy alone (target <= 1.20) "
              f"| perturb warm {w:5.2f} s (target <= 5 s)")
        c = min(t[i] for t in cli_cold)
        w = min(t[i] for t in cli_warm)
        print(f"[{kind:4}] mrclens perturb CLI: cold {c:6.2f} s = {c / s:.2f} x spaCy alone | warm {w:5.2f} s")


if __name__ == "__main__":
    main()
