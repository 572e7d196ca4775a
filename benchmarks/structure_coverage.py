"""How often the drop route's interval holds a clean dataset's true difference (issue 54, item 4), by how the
structure term is estimated from ``m`` clean counterparts and which quantile reads it::

    PYTHONPATH=. python benchmarks/structure_coverage.py [--draws 20000] [--level 0.99375]

Simulated: ``m`` counterparts' differences ``d_j ~ N(0, s² + τ²)`` with a known own error ``s``; a new clean
dataset's difference ``d ~ N(0, s² + τ²)``; its interval ``±q · sqrt(s² + τ̂²)``. Four rules: ``τ̂`` the
method-of-moments estimate around 0 (:func:`mrclens.metrics.estimate.excess_spread`) or the 80 % Q-profile upper
bound (:func:`mrclens.scoring.structure_term.heterogeneity_upper_bound`); ``q`` the normal quantile or Student's t
on Welch–Satterthwaite degrees of freedom with ``m − 1`` for ``τ̂²`` (:func:`mrclens.metrics.estimate.satterthwaite_df`).
Prints each rule's coverage (nominal: ``--level``, the family-wise level of 8 tests at 95 % by default) and mean
half-width, per ``m`` (6: the quick profile's strata; 3: paper-parallel's) and true ``τ``. MRCLens ships the rule
whose coverage stays at or above nominal at every ``τ`` (BENCHMARKS.md, "The structure term").
"""

from __future__ import annotations

import argparse
import math


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=20000)
    parser.add_argument("--level", type=float, default=0.99375)
    parser.add_argument("--own-se", type=float, default=3.0, help="each dataset's own standard error (points)")
    parser.add_argument("--seed", type=int, default=54)
    args = parser.parse_args(argv)

    import numpy as np

    from mrclens.metrics.estimate import excess_spread, satterthwaite_df
    from mrclens.metrics.power import critical_value
    from mrclens.scoring.structure_term import STRUCTURE_UPPER_LEVEL, heterogeneity_upper_bound

    rng = np.random.default_rng(args.seed)
    s = args.own_se
    print(f"nominal coverage {args.level:.5f}; own se {s:g} points; {args.draws:,} draws per cell")
    print("m  tau | " + " | ".join(f"{r:<22}" for r in ("moments + z", "moments + t", "Q-profile + z",
                                                          "Q-profile + t (shipped)")))
    for m in (6, 3):
        for tau in (0.0, 1.0, 2.0, 4.0, 8.0):
            hits = {k: [0, 0.0] for k in range(4)}
            for _ in range(args.draws):
                d = rng.normal(0.0, math.sqrt(s * s + tau * tau), m)
                new = rng.normal(0.0, math.sqrt(s * s + tau * tau))
                pairs = [(float(x), s) for x in d]
                estimates = (excess_spread([x for x, _ in pairs], [s] * m, centre=0.0).excess_sd,
                             heterogeneity_upper_bound(pairs, STRUCTURE_UPPER_LEVEL))
                for i, est in enumerate(estimates):
                    se = math.sqrt(s * s + est * est)
                    for j, df in enumerate((None, satterthwaite_df([(s * s, None), (est * est, m - 1)]))):
                        half = critical_value(args.level, df) * se
                        hits[2 * i + j][0] += abs(new) <= half
                        hits[2 * i + j][1] += half
            print(f"{m}  {tau:>3g} | " + " | ".join(
                f"{hits[k][0] / args.draws:.4f}, ±{hits[k][1] / args.draws:5.1f}{'':>7}" for k in range(4)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
