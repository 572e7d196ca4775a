"""Compare two ``results.json`` files, ignoring timestamps, timings and output locations.

A thin wrapper of :func:`mrclens.diff_results` (:mod:`mrclens.artifacts.results_diff`, which says what
is ignored); ``mrclens diff-results A B`` does the same. Prints every differing value as ``path: A != B`` and
exits 1 when there is one, 0 when the two results are identical apart from the ignored fields.

``--added KEY`` (repeatable): a field that the second file has and the first lacks (``path.KEY: absent != …``)
is counted as *added*, not as a difference: how a refactoring that only adds fields (the standard errors and
degrees of freedom beside each interval) is shown to change no figure and no verdict.

Usage::

    .venv/bin/python benchmarks/compare_results.py BEFORE/results.json AFTER/results.json \\
        --added reference_difference_se --added reference_difference_df --added difference_se --added difference_df
"""

from __future__ import annotations

import argparse
import sys

from mrclens.artifacts.results_diff import diff_results


def split_added(lines: list[str], added: set[str]) -> tuple[list[str], list[str]]:
    """``(added, other)``: the lines of fields in ``added`` that only the second file has, and the rest.

    >>> split_added(["a.x_se: absent != 1.2", "a.f1: 1 != 2"], {"x_se"})
    (['a.x_se: absent != 1.2'], ['a.f1: 1 != 2'])
    """
    new, other = [], []
    for line in lines:
        path, _, change = line.partition(": ")
        key = path.rsplit(".", 1)[-1].split("[", 1)[0]
        (new if key in added and change.startswith("absent != ") else other).append(line)
    return new, other


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="first results.json (before)")
    ap.add_argument("b", help="second results.json (after)")
    ap.add_argument("--added", action="append", default=[], metavar="KEY",
                    help="a field only the second file may have (repeatable)")
    args = ap.parse_args(argv)
    diff = diff_results(args.a, args.b)
    new, other = split_added(diff.differences, set(args.added))
    for line in other:
        print(line)
    if args.added:
        print(f"{len(new)} added fields ({', '.join(sorted(args.added))}); {len(other)} other differences")
    else:
        print(diff.summary())
    return 0 if not other else 1


if __name__ == "__main__":
    sys.exit(main())
