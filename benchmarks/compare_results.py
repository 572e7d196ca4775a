"""Compare two ``results.json`` files, ignoring timestamps, timings and output locations (issue 16).

A thin wrapper of :func:`mrclens.diff_results` (:mod:`mrclens.artifacts.results_diff`, which says what
is ignored), kept for the commands recorded in BENCHMARKS.md; ``mrclens diff-results A B`` does the same.
Prints every differing value as ``path: A != B`` and exits 1 when there is one, 0 when the two
results are identical apart from the ignored fields.

Usage::

    .venv/bin/python benchmarks/compare_results.py /tmp/wtH-a1/results.json /tmp/wtH-a2/results.json
"""

from __future__ import annotations

import argparse
import sys

from mrclens.artifacts.results_diff import diff_results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="first results.json")
    ap.add_argument("b", help="second results.json")
    args = ap.parse_args(argv)
    diff = diff_results(args.a, args.b)
    for line in diff.differences:
        print(line)
    print(diff.summary())
    return 0 if diff.identical else 1


if __name__ == "__main__":
    sys.exit(main())
