"""Time of the language check (MRCLens issue 32): ``mrclens.languages.file_languages`` on real files.

Prints, per file, the detected language, the cold time (load the file, sample 200 paragraphs,
Lingua's low-accuracy detector on their contexts and joined questions; no cache) as the minimum
of three runs, and the time of a cached look-up (hash the file, read one row).

    python benchmarks/bench_languages.py [FILE ...]    # default: SQuAD v1.1 dev and train, XQuAD es and th
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from mrclens.languages import file_languages

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
DEFAULT = ["squad/dev-v1.1.json.gz", "xquad/xquad.es.json.gz", "xquad/xquad.th.json.gz", "squad/train-v1.1.json.gz"]


def main(files: list[str]) -> None:
    cache = tempfile.mkdtemp(prefix="mrclens-lang-bench-")
    for f in files:
        cold = []
        for _ in range(3):
            t = time.perf_counter()
            report = file_languages(f, cache_dir=False)
            cold.append(time.perf_counter() - t)
        file_languages(f, cache_dir=cache)
        warm = []
        for _ in range(3):
            t = time.perf_counter()
            file_languages(f, cache_dir=cache)
            warm.append(time.perf_counter() - t)
        print(f"{f}: {report.summary()}; cold {min(cold):.2f} s (min of 3), cached {1000 * min(warm):.0f} ms")


if __name__ == "__main__":
    main(sys.argv[1:] or [str(DATA / f) for f in DEFAULT])
