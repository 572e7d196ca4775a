"""Read finished audit folders against a reference file, without re-running them (issue 41: a reference's own
runs and clean counterparts read against the reference they make or validate).

Per folder, one line: each category's verdict, its difference from the reference towards the bias with the
family-wise interval, and its minimum detectable effect (points of relative drop;
:func:`mrclens.scoring.against_reference.compare_with_reference`), with the structure term of the folder's own
context length (``context_shape`` in its ``results.json``; data of the reference's length when it records none)::

    .venv/bin/python benchmarks/read_audits.py --profile quick [--reference FILE] AUDIT_DIR ...
"""

from __future__ import annotations

import argparse


def read_line(audit_dir: str, reference, profile: str) -> str:
    """The folder's category readings against ``reference`` under reader ``profile``, as one line."""
    from mrclens.artifacts.results import read_results
    from mrclens.scoring.against_reference import compare_with_reference
    from mrclens.scoring.model_free import ContextShape

    r = read_results(audit_dir)
    shape = ContextShape(**r.context_shape) if r.context_shape else None
    _, cats = compare_with_reference(r.ablations, r.categories, reference, profile, model_free=r.model_free,
                                     shape=shape or ContextShape("5", "5"))
    cells = [f"{c.category} {c.reference_bias}" + (
        f" {c.reference_difference:+.1f} [{c.reference_difference_ci_low:+.1f}, {c.reference_difference_ci_high:+.1f}]"
        f" MDE {c.reference_mde:.1f}" if c.reference_difference is not None and c.reference_mde is not None else "")
        for c in cats]
    return f"{audit_dir} ({shape.sentences if shape else '?'} units): " + "; ".join(cells)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("audits", nargs="+", metavar="AUDIT_DIR")
    parser.add_argument("--profile", required=True, help="the reader profile whose reference audit to read against")
    parser.add_argument("--reference", help="a reference file (default: the bundled SQuAD v1.1 reference)")
    args = parser.parse_args(argv)

    from mrclens.scoring.against_reference import read_any_reference

    reference, _ = read_any_reference(args.reference)
    for audit_dir in args.audits:
        print(read_line(audit_dir, reference, args.profile))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
