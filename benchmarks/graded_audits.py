"""The audit route on graded plantings (issue 41, part 4): quick-profile audits of the bundled sample with a
shortcut planted in a share of its questions, read against the bundled reference.

Each planting of :data:`mrclens.selftest.plantings.PLANTINGS` (``--plantings``) at each rate (``--rates``) is
built by :func:`mrclens.selftest.plantings.plant_graded` (seed ``--seed``; the other questions get the clean
side's edit), written to ``OUT/<planting>-<rate>.json`` and audited as ``mrclens audit`` audits one file
(split by article title, 20 % evaluation, the ``quick`` profile) into ``OUT/<planting>-<rate>-audit``;
``--clean`` also audits the clean counterpart (rate 0) of the first planting. Prints one line per audit:
each category's verdict, the route that decided it and its figure. Finished audits are reused::

    PYTHONPATH=. python benchmarks/graded_audits.py --out /tmp/graded --plantings overlap,marked,keywords,position \\
        --rates 0.5 --clean          # about 6 min per audit on 2 idle cores
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--plantings", default="overlap,marked,keywords,position")
    parser.add_argument("--rates", default="0.5")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--clean", action="store_true", help="also audit the clean counterpart of the first planting")
    parser.add_argument("--cache-dir", default=None)
    args = parser.parse_args(argv)

    from mrclens.audit.span import SAMPLE_PATH, AuditOptions, run_audit
    from mrclens.formats import load_dataset
    from mrclens.reports.glance import reading_figure
    from mrclens.selftest.plantings import plant_graded
    from mrclens.squad import dataset_bytes

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    sample = load_dataset(SAMPLE_PATH)
    rates = tuple(float(r) for r in args.rates.split(","))
    jobs = []
    for i, name in enumerate(filter(None, args.plantings.split(","))):
        graded, clean = plant_graded(sample, name, rates, args.seed, cache_dir=args.cache_dir)
        jobs += [(f"{name}-{rate:g}", data) for rate, data in graded.items()]
        if args.clean and i == 0:
            jobs.append((f"{name}-clean", clean))
    for label, data in jobs:
        path = out / f"{label}.json"
        path.write_bytes(dataset_bytes(data))
        t0 = time.perf_counter()
        results = run_audit(AuditOptions(train=str(path), out=str(out / f"{label}-audit"), seed=args.seed,
                                         profile="quick", cache_dir=args.cache_dir, progress=False),
                            echo=lambda _: None)
        cells = []
        for c in results.categories:
            one = reading_figure(c, results.ablations, results.metric, results.model_free)
            cells.append(f"{c.category} {c.reference_bias} ({c.reference_basis}{'; ' + str(one) if one else ''})")
        f1 = results.sets["original"].f1
        print(f"{label}: F1 {f1:.1f}; " + "; ".join(cells) + f"  [{time.perf_counter() - t0:.0f} s]", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
