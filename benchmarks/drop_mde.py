"""The drop route's minimum detectable effect per bias category and reader profile, from a reference file
(issue 41, part 3: "before and after, measured the same way").

For an audit the size of one reference run, each category's MDE at 80 % power at the family-wise level of an
audit (seven tests: four categories' drops and three model-free verdict figures,
:func:`mrclens.metrics.power.family_confidence`) is ``(z_{1−α/2} + z_{0.8}) × se`` with
``se = sqrt(Σ_i se_i² / k² + τ_c²)`` over the category's ``k`` ablations, where ``se_i² = (f_i × s_i)² +
ref_i² + run_sd_i²``: ``s_i`` the audited run's own standard error, taken as one reference run's
(``ref_i × sqrt(runs)``), ``f_i`` the ablation's article-clustering factor (1 where the file has none),
``ref_i`` the reference's combined standard error, ``run_sd_i`` its between-run SD and ``τ_c`` the category's
structure term (:func:`mrclens.scoring.against_reference.category_comparison`, the same formula). Points of
relative drop (percent of the baseline F1)::

    .venv/bin/python benchmarks/drop_mde.py --reference OLD.json --reference mrclens/data/reference-squad-v1.1.json \\
        --profiles quick,paper-parallel
"""

from __future__ import annotations

import argparse
import math


def category_mdes(audit, family: int = 7) -> dict[str, float]:
    """``{category: MDE}`` for an audit like one run of the reference ``audit`` (module docstring)."""
    from mrclens.categories import CATEGORIES, get_category
    from mrclens.metrics.bootstrap import CONFIDENCE
    from mrclens.metrics.power import family_confidence, minimum_detectable_effect, z_value

    z = z_value(CONFIDENCE)
    out = {}
    for name in CATEGORIES:
        ses = []
        for aid in get_category(name).ablations:
            d = audit.ablations.get(aid)
            if d is None:
                continue
            ref = (d.ci_high - d.ci_low) / (2 * z)
            own = ref * math.sqrt(d.runs) * (d.cluster_factor or 1.0)
            ses.append(own ** 2 + ref ** 2 + (d.run_sd or 0.0) ** 2)
        if not ses:
            continue
        tau = audit.structure_term(name)
        se = math.sqrt(sum(ses) / len(ses) ** 2 + tau ** 2)
        level = family_confidence(CONFIDENCE, family)
        out[name] = minimum_detectable_effect(se, level)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", action="append", required=True, metavar="FILE",
                        help="a reference file (repeat: one column each, e.g. before and after)")
    parser.add_argument("--profiles", default="quick,paper-parallel")
    args = parser.parse_args(argv)

    from mrclens.artifacts.reference import read_reference

    refs = [read_reference(p) for p in args.reference]
    for profile in args.profiles.split(","):
        print(f"\n{profile}: MDE of the drop route, points of relative drop (" + " | ".join(args.reference) + ")")
        columns = [category_mdes(r.audits[profile]) if profile in r.audits else {} for r in refs]
        for cat in columns[0] or columns[-1]:
            cells = [f"{c[cat]:.1f}" if cat in c else "–" for c in columns]
            terms = [f"τ {r.audits[profile].structure_term(cat):.1f}" if profile in r.audits else "" for r in refs]
            print(f"  {cat:<11} " + " | ".join(f"{x} ({t})" for x, t in zip(cells, terms)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
