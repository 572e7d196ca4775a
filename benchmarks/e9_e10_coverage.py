"""Coverage of e9 (move the answer sentence) and e10 (decoy statement) on a dataset.

Runs ``perturb_dataset(DATA, ablations="e9,e10")`` (their controls c9, c10 come along) and prints,
per ablation, the questions of the truncated set it changed and why it left the others unchanged;
for e10 also which rewrite rule applied and which decoy type was used; for e9 where the answer
sentence was and where it went. Writes nothing outside a temporary directory (the parse cache is
``$MRCLENS_CACHE_DIR`` or the default one).

Usage::

    python benchmarks/e9_e10_coverage.py [DATA ...] [--seed S] [--examples N]

DATA defaults to the bundled sample and ../shared/data/squad/dev-v1.1.json.gz.
"""

from __future__ import annotations

import argparse
import collections
import random
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = [REPO / "mrclens" / "data" / "squad-v1.1-sample.json.gz",
                REPO.parent / "shared" / "data" / "squad" / "dev-v1.1.json.gz"]


def _pct(k: int, n: int) -> str:
    return f"{k:,} ({100.0 * k / n:.1f}%)" if n else "0"


def main() -> None:
    from mrclens.perturbations import perturb_dataset

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="*", default=[str(p) for p in DEFAULT_DATA])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--examples", type=int, default=8, help="random e10 statements to print")
    args = ap.parse_args()
    for data in args.data:
        if not Path(data).exists():
            print(f"{data}: absent, skipped")
            continue
        with tempfile.TemporaryDirectory() as tmp:
            t = time.perf_counter()
            m = perturb_dataset(data, tmp, ablations="e9,e10", seed=args.seed, progress=False)
            wall = time.perf_counter() - t
        print(f"== {data} (seed {args.seed}; perturb e9, c9, e10, c10: {wall:.1f} s wall)")
        print(f"truncated set: {m.sets['original-truncated'].n:,} questions of {m.sets['original'].n:,}")
        for aid in ("e9", "c9", "e10", "c10"):
            e = m.ablations[aid]
            reasons = ", ".join(f"{r} {_pct(k, e.n)}" for r, k in sorted(e.unchanged.items(), key=lambda kv: -kv[1]))
            print(f"{aid}: changed {_pct(e.changed, e.n)} of {e.n:,}; unchanged: {reasons or '-'}")
        e9 = [r["detail"] for r in m.ablations["e9"].items.values() if r["changed"]]
        moves = collections.Counter("first->last" if d["from"] == 0 else "last->first" if d["from"] == d["n_units"] - 1
                                    else "middle->end" for d in e9)
        print("e9 moves: " + ", ".join(f"{k} {_pct(v, len(e9))}" for k, v in moves.most_common()))
        c9 = [r["detail"] for r in m.ablations["c9"].items.values() if r["changed"]]
        same = sum(1 for d in c9 if d["displacement"] == d["ablation_displacement"])
        print(f"c9: same displacement as e9 in {_pct(same, len(c9))}; answer sentence shifted by one in "
              f"{_pct(sum(1 for d in c9 if d['answer_shift']), len(c9))}")
        e10 = [r["detail"] for r in m.ablations["e10"].items.values() if r["changed"]]
        rules = collections.Counter(d["rule"] for d in e10)
        types = collections.Counter(d["decoy_type"] for d in e10)
        print("e10 rules: " + ", ".join(f"{k} {_pct(v, len(e10))}" for k, v in rules.most_common()))
        print("e10 decoy types: " + ", ".join(f"{k} {_pct(v, len(e10))}" for k, v in types.most_common(8)))
        for d in random.Random(args.seed).sample(e10, min(args.examples, len(e10))):
            print(f"   [{d['rule']}, {d['decoy_type']}] {d['inserted']}")


if __name__ == "__main__":
    main()
