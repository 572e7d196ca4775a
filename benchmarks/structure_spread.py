"""How the structure term of the drop comparison is measured, and checked out of sample (issue 32).

Reads audits of clean structural counterparts (``mrclens selftest``'s ``short``/``long``/``grouped``
audits and its plantings' ``clean-audit`` folders) and, optionally, planted audits, and prints:

* the structure term per bias category, estimated from all counterparts
  (:func:`mrclens.scoring.against_reference.structure_spread`);
* every counterpart's category verdicts against the reference **leave-one-out**: with the term
  estimated from the *other* counterparts only, so no counterpart is judged with a term it helped
  measure, and with the term from all;
* every planted audit's verdicts with the term from all counterparts (a planting must still read
  "more" in its family).

    .venv/bin/python benchmarks/structure_spread.py --counterpart DIR ... [--planted DIR ...] \\
        [--reference FILE]    # default: the bundled reference, its structure terms ignored

The reference's own ``structure_sd`` values are ignored: the terms are recomputed here.
"""

from __future__ import annotations

import argparse
from dataclasses import replace


def _verdicts(results, reference, profile):
    from mrclens.scoring.against_reference import compare_with_reference

    _, cats = compare_with_reference(results.ablations, results.categories, reference, profile,
                                     model_free=results.model_free)
    return {c.category: (c.reference_bias, c.reference_difference, c.reference_difference_ci_low,
                         c.reference_difference_ci_high, c.reference_basis) for c in cats}


def _fmt(v) -> str:
    bias, d, low, high, basis = v
    if d is None:
        return f"{bias} ({basis})"
    return f"{bias} {d:+.1f} [{low:+.1f}, {high:+.1f}]" + ("" if basis == "drops" else f" ({basis})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counterpart", action="append", default=[], required=True, metavar="AUDIT_DIR")
    parser.add_argument("--planted", action="append", default=[], metavar="AUDIT_DIR")
    parser.add_argument("--reference", default=None, help="reference file (default: the bundled one)")
    args = parser.parse_args(argv)

    from mrclens.artifacts.reference import read_reference
    from mrclens.artifacts.results import read_results
    from mrclens.scoring.against_reference import structure_spread

    reference = read_reference(args.reference)
    counterparts = [read_results(d) for d in args.counterpart]
    profile = counterparts[0].audit.options["profile"]
    bare = replace(reference.audits[profile], structure_sd={},
                   ablations={k: replace(d, structure_sd=None) for k, d in reference.audits[profile].ablations.items()})
    with_all, details = structure_spread(counterparts, bare)
    print(f"structure term ({profile}, {len(counterparts)} counterparts, percentage points of relative drop):")
    for cat, d in details["categories"].items():
        print(f"  {cat:<11} {d['structure_sd']:5.1f}   differences {', '.join(f'{x:+.1f}' for x in d['differences'])}")
    print("  ablations: " + ", ".join(f"{k} {v['structure_sd']:.1f}" for k, v in details["ablations"].items()))
    ref_all = replace(reference, audits={**reference.audits, profile: with_all})
    ref_none = replace(reference, audits={**reference.audits, profile: bare})
    failures = 0
    print("\ncounterpart verdicts: no term | term from the others (leave-one-out) | term from all")
    for i, (d, res) in enumerate(zip(args.counterpart, counterparts)):
        others = counterparts[:i] + counterparts[i + 1:]
        loo = structure_spread(others, bare)[0] if others else bare
        ref_loo = replace(reference, audits={**reference.audits, profile: loo})
        v0, v1, v2 = (_verdicts(res, r, profile) for r in (ref_none, ref_loo, ref_all))
        off = [c for c, v in v1.items() if v[0] not in ("in line", None)]
        failures += bool(off)
        print(f"{d}: {'in line everywhere' if not off else 'NOT in line: ' + ', '.join(off)} (leave-one-out)")
        for cat in v1:
            print(f"  {cat:<11} {_fmt(v0[cat]):<38} | {_fmt(v1[cat]):<38} | {_fmt(v2[cat])}")
    if args.planted:
        print("\nplanted audits, term from all counterparts:")
    for d in args.planted:
        v = _verdicts(read_results(d), ref_all, profile)
        print(f"{d}: " + "; ".join(f"{c} {_fmt(x)}" for c, x in v.items()))
    print(f"\n{failures} of {len(counterparts)} counterparts read more or less than the reference (leave-one-out)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
