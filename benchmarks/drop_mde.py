"""The drop route's minimum detectable effect per bias category and reader profile, from a reference file
(issue 41, part 3: "before and after, measured the same way").

For an audit the size of one reference run, each category's MDE at 80 % power at the family-wise level of an
audit (eight tests: four categories' drops and four model-free verdict figures,
:func:`mrclens.metrics.power.family_confidence`), by
:func:`mrclens.scoring.against_reference.expected_mde` — the formula of the audit's own comparison
(:func:`~mrclens.scoring.against_reference.category_comparison`), with the audited run's error taken as one
reference run's within-run error (the training seed's share counted once, as ``run_sd``), with the structure
term of data of the reference's context length (the audit of a run of the reference is such data); where the
reference measured a term for data of another length, its MDE is printed below, and last, for the last
reference, the MDE with no structure term at all (the floor that no term can go below). Points of relative drop
(percent of the baseline F1), read beyond each category's band (:func:`mrclens.scoring.drop_scale.drop_band`), and
as a planted share where the profile's drops have one::

    .venv/bin/python benchmarks/drop_mde.py --reference OLD.json --reference mrclens/data/reference-squad-v1.1.json \\
        --profiles quick,paper-parallel [--digits 4]
"""

from __future__ import annotations

import argparse


def category_mdes(audit, family: int = 8, other_shape: bool = False) -> dict[str, float]:
    """``{category: MDE}`` for an audit like one run of the reference ``audit`` (module docstring); with
    ``other_shape``, the same audit read with the structure term of data of another context length."""
    from mrclens.categories import CATEGORIES
    from mrclens.scoring.against_reference import DROP_BAND, expected_mde
    from mrclens.scoring.drop_scale import drop_band

    got = {name: expected_mde(audit, name, family, other_shape=other_shape,
                              band=drop_band(audit.profile, name, DROP_BAND).band) for name in CATEGORIES}
    return {name: mde for name, mde in got.items() if mde is not None}


def as_share(profile: str, category: str, mde: float, digits: int) -> str:
    """``mde`` (points) with its planted share where the profile's drops have a scale (issue 54)."""
    from mrclens.scoring.against_reference import DROP_BAND
    from mrclens.scoring.drop_scale import drop_band

    scale = drop_band(profile, category, DROP_BAND).per_planted_pct
    return f"{mde:.{digits}f}" + (f" = {mde / scale:.0f} % of q." if scale else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", action="append", required=True, metavar="FILE",
                        help="a reference file (repeat: one column each, e.g. before and after)")
    parser.add_argument("--profiles", default="quick,paper-parallel")
    parser.add_argument("--digits", type=int, default=1, help="decimals of the printed MDEs (default 1)")
    args = parser.parse_args(argv)

    from mrclens.artifacts.reference import read_reference

    refs = [read_reference(p) for p in args.reference]
    for profile in args.profiles.split(","):
        print(f"\n{profile}: MDE of the drop route, points of relative drop (" + " | ".join(args.reference) + ")")
        columns = [category_mdes(r.audits[profile]) if profile in r.audits else {} for r in refs]
        for cat in columns[0] or columns[-1]:
            cells = [as_share(profile, cat, c[cat], args.digits) if cat in c else "–" for c in columns]
            terms = [f"τ {r.audits[profile].structure_term(cat):.1f}" if profile in r.audits else "" for r in refs]
            print(f"  {cat:<11} " + " | ".join(f"{x} ({t})" for x, t in zip(cells, terms)))
        strat = [r for r in refs if profile in r.audits and r.audits[profile].structure_sd_other_shape]
        if strat:  # the stratum of data of another context length (ReferenceAudit.for_shape)
            print(f"  with the structure term of data of another context length (" + " | ".join(
                a for a, r in zip(args.reference, refs) if r in strat) + "):")
            for cat, mde in category_mdes(strat[-1].audits[profile], other_shape=True).items():
                term = strat[-1].audits[profile].for_shape(True).structure_term(cat)
                print(f"  {cat:<11} {as_share(profile, cat, mde, args.digits)} (τ {term:.1f})")
        if profile in refs[-1].audits:  # what no structure term can go below: every term 0
            floor = category_mdes(without_structure(refs[-1].audits[profile]))
            print(f"  with no structure term at all ({args.reference[-1]}): "
                  + ", ".join(f"{cat} {mde:.{args.digits}f}" for cat, mde in floor.items()))
    return 0


def without_structure(audit):
    """``audit`` with every structure term (both strata, per category and per ablation) set to none."""
    from dataclasses import replace

    return replace(audit, structure_sd={}, structure_sd_other_shape={},
                   ablations={k: replace(d, structure_sd=None, structure_sd_other_shape=None)
                              for k, d in audit.ablations.items()})


if __name__ == "__main__":
    raise SystemExit(main())
