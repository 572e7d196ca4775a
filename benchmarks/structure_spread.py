"""How the structure term of the drop comparison is measured, and checked out of sample (issue 32).

Reads audits of clean structural counterparts (``mrclens selftest``'s ``short``/``long``/``grouped``
audits and its plantings' ``clean-audit`` folders) and, optionally, planted audits, and prints:

* the structure term per bias category, estimated from all counterparts
  (:func:`mrclens.scoring.structure_term.structure_spread`), in two strata where every counterpart's
  context length is known (the reference's length, another length: ``ContextShape.differs``);
* every counterpart's category verdicts against the reference **leaving out its shape and its split**
  (issue 41, part 3): with the term estimated only from counterparts of *another* shape *and* another
  article split (evaluation articles), so no counterpart is judged with a term measured on its shape or
  on its evaluation articles — in strata, each counterpart with its own stratum's term (a stratum with no
  counterpart left takes the term from all that are left); and with the term from all. A counterpart's shape is ``SHAPE=`` before its
  folder when given (``--counterpart short=DIR``), else the folder's name without ``-audit``/``audit``
  (``…/short/audit`` → ``short``; a planting's ``clean-audit`` → the planting's name, all of them
  ``clean``: one shape, one-question-per-paragraph copies); its split is its audit's ``--seed``;
* every planted audit's verdicts with the term from all counterparts (a planting must still read
  "more" in its family).

    .venv/bin/python benchmarks/structure_spread.py --counterpart DIR ... [--planted DIR ...] \\
        [--reference FILE] [--one-stratum]    # default: the bundled reference, its structure terms ignored

The reference's own ``structure_sd`` values are ignored: the terms are recomputed here.
"""

from __future__ import annotations

import argparse
from dataclasses import replace


def _verdicts(results, reference, profile, shape=None):
    from mrclens.scoring.against_reference import compare_with_reference

    _, cats = compare_with_reference(results.ablations, results.categories, reference.audit_for(profile),
                                     model_free=results.model_free, shape=shape)
    return {c.category: (c.reference_bias, c.reference_difference, c.reference_difference_ci_low,
                         c.reference_difference_ci_high, c.reference_basis) for c in cats}


def _fmt(v) -> str:
    bias, d, low, high, basis = v
    if d is None:
        return f"{bias} ({basis})"
    return f"{bias} {d:+.1f} [{low:+.1f}, {high:+.1f}]" + ("" if basis == "drops" else f" ({basis})")


def _label(arg: str) -> tuple[str, str]:
    """``(shape, folder)`` of a ``--counterpart`` argument (module docstring)."""
    from pathlib import Path

    if "=" in arg and not Path(arg).exists():
        shape, folder = arg.split("=", 1)
        return shape, folder
    path = Path(arg)
    name = path.name if path.name not in ("audit", "clean-audit") else path.parent.name
    if path.name == "clean-audit" or name.endswith("-clean-audit") or name.endswith("-clean"):
        return "clean", arg
    return name.removesuffix("-audit"), arg


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counterpart", action="append", default=[], required=True, metavar="AUDIT_DIR")
    parser.add_argument("--planted", action="append", default=[], metavar="AUDIT_DIR")
    parser.add_argument("--reference", default=None, help="reference file (default: the bundled one)")
    parser.add_argument("--one-stratum", action="store_true",
                        help="one term from all counterparts, whatever their context length (as before the strata)")
    args = parser.parse_args(argv)

    from mrclens.artifacts.reference import read_reference
    from mrclens.artifacts.results import read_results
    from mrclens.scoring.structure_term import structure_spread
    from make_reference import counterpart_shapes  # this folder's script: the same rule the reference is built by

    reference = read_reference(args.reference)
    labelled = [_label(c) for c in args.counterpart]
    counterparts = [read_results(d) for _, d in labelled]
    keys = [(shape, r.seed) for (shape, _), r in zip(labelled, counterparts)]
    profile = counterparts[0].audit.options["profile"]
    bare = replace(reference.audits[profile], structure_sd={}, structure_sd_other_shape={},
                   ablations={k: replace(d, structure_sd=None, structure_sd_other_shape=None)
                              for k, d in reference.audits[profile].ablations.items()})
    shapes = counterpart_shapes(counterparts, [d for _, d in labelled], reference)
    flags = None if args.one_stratum or any(s is None for s in shapes) else [s.differs for s in shapes]
    with_all, details = structure_spread(counterparts, bare, other_shape=flags)
    print(f"structure term ({profile}, {len(counterparts)} counterparts, percentage points of relative drop):")
    strata = ([("", details)] if flags is None else
              [("the reference's context length", details["like_shape"]), ("another length", details["other_shape"])])
    for label, part in strata:
        if label:
            print(f" {label} ({part['counterparts']} counterparts{', none: from all' if part.get('pooled') else ''}):")
        for cat, d in part["categories"].items():
            print(f"  {cat:<11} {d['structure_sd']:5.1f}   differences {', '.join(f'{x:+.1f}' for x in d['differences'])}")
        print("  ablations: " + ", ".join(f"{k} {v['structure_sd']:.1f}" for k, v in part["ablations"].items()))
    ref_all = replace(reference, audits={**reference.audits, profile: with_all})
    ref_none = replace(reference, audits={**reference.audits, profile: bare})
    failures = 0
    print("\ncounterpart verdicts: no term | term from other shapes and splits | term from all"
          + ("" if flags is None else " (each with its stratum's term)"))
    for i, (d, res) in enumerate(zip(args.counterpart, counterparts)):
        keep = [j for j, k in enumerate(keys) if k[0] != keys[i][0] and k[1] != keys[i][1]]
        if not keep:
            print(f"{d}: no counterpart of another shape and split to measure its term on")
            continue
        loo = structure_spread([counterparts[j] for j in keep], bare,
                               other_shape=None if flags is None else [flags[j] for j in keep])
        used = loo[0].for_shape(flags is not None and flags[i])
        same = None if flags is None else sum(flags[j] == flags[i] for j in keep)
        ref_loo = replace(reference, audits={**reference.audits, profile: loo[0]})
        v0, v1, v2 = (_verdicts(res, r, profile, shapes[i]) for r in (ref_none, ref_loo, ref_all))
        off = [c for c, v in v1.items() if v[0] in ("more", "less")]
        failures += bool(off)
        print(f"{d} (shape {keys[i][0]}, split {keys[i][1]}, {shapes[i]}; term from {len(keep)}"
              + ("" if same is None else f", {same} of its stratum") + ": "
              + ", ".join(f"{c} {v:.1f}" for c, v in used.structure_sd.items()) + "): "
              + ("no category more or less" if not off else "NOT: " + ", ".join(f"{c} {v1[c][0]}" for c in off)))
        for cat in v1:
            print(f"  {cat:<11} {_fmt(v0[cat]):<38} | {_fmt(v1[cat]):<38} | {_fmt(v2[cat])}")
    if args.planted:
        print("\nplanted audits, term from all counterparts (each with its stratum's term):")
    for d in args.planted:
        res = read_results(d)
        v = _verdicts(res, ref_all, profile, counterpart_shapes([res], [d], reference)[0])
        print(f"{d}: " + "; ".join(f"{c} {_fmt(x)}" for c, x in v.items()))
    print(f"\n{failures} of {len(counterparts)} counterparts read more or less than the reference (term from other "
          "shapes and splits)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
