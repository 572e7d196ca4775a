"""Read finished audit folders against a reference file, without re-running them (issue 41: a reference's own
runs and clean counterparts read against the reference they make or validate).

Per folder, one line: each category's verdict, its difference from the reference towards the bias with the
family-wise interval, and its minimum detectable effect (points of relative drop;
:func:`mrclens.scoring.against_reference.compare_with_reference`), with the structure term of the folder's own
context length (``context_shape`` in its ``results.json``; where it records none, the larger of the two strata,
as an audit of unknown length is read)::

    .venv/bin/python benchmarks/read_audits.py --profile quick [--reference FILE] AUDIT_DIR ...
"""

from __future__ import annotations

import argparse


def read_line(audit_dir: str, reference, profile: str) -> str:
    """The folder's category readings against ``reference`` under reader ``profile``, as one line (differences,
    intervals and MDEs in percentage points of relative drop). Raises what
    :func:`mrclens.artifacts.results.read_results` raises for a folder without a readable ``results.json``."""
    from mrclens.artifacts.results import read_results
    from mrclens.scoring.against_reference import compare_with_reference
    from mrclens.scoring.model_free import ContextShape

    r = read_results(audit_dir)
    shape = ContextShape(**r.context_shape) if r.context_shape else None
    _, cats = compare_with_reference(r.ablations, r.categories, reference.audit_for(profile), model_free=r.model_free,
                                     shape=shape)
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

    from mrclens.errors import MRCLensError
    from mrclens.scoring.reference_builder import read_any_reference

    try:
        reference, _ = read_any_reference(args.reference)
        for audit_dir in args.audits:
            print(read_line(audit_dir, reference, args.profile))
    except MRCLensError as exc:  # a folder or file that cannot be read: named, no traceback
        parser.exit(2, f"read_audits.py: {exc}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
