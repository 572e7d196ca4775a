"""Compare two ``results.json`` files, ignoring timestamps, timings and output locations (issue 16).

Prints every differing value as ``path: A != B`` and exits 1 when there is one, 0 when the two
results are identical apart from the ignored fields:

* time: ``created``, ``step_seconds``, and in each training-log record ``minutes``, ``seconds``,
  ``examples_per_s``, ``eval_seconds``, ``peak_rss_mb``, ``peak_gpu_mb``;
* where the runs wrote: ``audit.options.out``, ``audit.model_dir`` and ``paths`` (two audits into
  two directories), and the directory of each ``results.json`` inside any string (input file
  names such as ``OUT/perturbed/e1.json``; their sha256 are still compared).

Everything else — every EM/F1, drop, CI bound, reading, the training log's losses, steps and dev
scores, the training record, the options — must be equal (floats compared exactly).

Usage::

    .venv/bin/python benchmarks/compare_results.py /tmp/wtH-a1/results.json /tmp/wtH-a2/results.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

TIME_KEYS = {"created", "step_seconds", "minutes", "seconds", "examples_per_s", "eval_seconds",
             "peak_rss_mb", "peak_gpu_mb"}
LOCATION_PATHS = {"audit.options.out", "audit.model_dir", "paths"}


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """The differing leaves of two JSON values, as ``"path: a != b"`` lines (ignored keys skipped)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for key in sorted(set(a) | set(b)):
            sub = f"{path}.{key}" if path else str(key)
            if key in TIME_KEYS or sub in LOCATION_PATHS:
                continue
            if key not in a or key not in b:
                out.append(f"{sub}: {'absent' if key not in a else json.dumps(a[key])[:80]} != "
                           f"{'absent' if key not in b else json.dumps(b[key])[:80]}")
            else:
                out += differences(a[key], b[key], sub)
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: list of {len(a)} != list of {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}[{i}]")]
    if type(a) is not type(b) or a != b:
        return [f"{path}: {json.dumps(a)[:80]} != {json.dumps(b)[:80]}"]
    return []


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="first results.json")
    ap.add_argument("b", help="second results.json")
    args = ap.parse_args(argv)
    texts = []
    for name in (args.a, args.b):
        with open(name, encoding="utf-8") as fh:
            # the output directory, as JSON writes it inside strings, becomes one placeholder
            out_dir = json.dumps(os.path.dirname(os.path.abspath(name)))[1:-1]
            texts.append(fh.read().replace(out_dir, "<OUT>"))
    a, b = (json.loads(t) for t in texts)
    diffs = differences(a, b)
    for line in diffs:
        print(line)
    n_ablations = len(a.get("ablations", []))
    print(f"{len(diffs)} difference(s) (ignoring time fields and output locations); "
          f"{n_ablations} ablations, {len(a.get('sets', {}))} sets compared")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
