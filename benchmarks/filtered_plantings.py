"""Does leaving out the flagged questions remove a planted shortcut? The data route before and after `mrclens filter`
(issue 56, done-when: "the filtered subset of each 50 % planting no longer reads 'more' in its family").

For each of ``--splits`` disjoint sets of ``--articles`` SQuAD v1.1 train articles (never the bundled sample's, nor
the sets :mod:`benchmarks.evidence_recovery` fitted the thresholds on: other seed), each span planting of
``mrclens selftest`` (:func:`mrclens.selftest.plantings.plant_graded`) at ``--rate`` is read by the data route
(:func:`mrclens.scoring.data_route.data_route`, as ``mrclens check`` and the audit's preliminary verdict read it),
then the questions the per-question evidence flags in the planting's family are left out
(:func:`mrclens.filtering.flagged`, :func:`mrclens.filtering.subset`: what ``mrclens filter --categories FAMILY``
writes) and the rest is read again. Printed per split and planting: questions before and after, the family's
reading and planted-share difference before and after. No reader is trained::

    PYTHONPATH=. .venv/bin/python benchmarks/filtered_plantings.py --train ../shared/data/squad/train-v1.1.json.gz
"""

from __future__ import annotations

import argparse
import json
import random
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", required=True, help="SQuAD v1.1 train (JSON, .gz allowed)")
    parser.add_argument("--articles", type=int, default=40, help="articles per split")
    parser.add_argument("--splits", type=int, default=2)
    parser.add_argument("--seed", type=int, default=5656, help="shuffles the articles into splits")
    parser.add_argument("--rate", type=float, default=0.5)
    parser.add_argument("--plantings", default="overlap,marked,keywords,position")
    parser.add_argument("--cache-dir", default=None)
    parser.add_argument("--json", dest="json_out", help="also write the figures to this JSON file")
    args = parser.parse_args(argv)

    from mrclens.artifacts.reference import read_reference
    from mrclens.audit.span import SAMPLE_PATH
    from mrclens.filtering import flagged, subset
    from mrclens.formats import load_dataset
    from mrclens.scoring.data_route import data_route
    from mrclens.selftest.plantings import PLANTINGS, plant_graded
    from mrclens.squad import Dataset
    from mrclens.stats import compute_stats, compute_stats_per_article
    from mrclens.stats.evidence import shortcut_evidence

    reference = read_reference()
    train = load_dataset(args.train)
    held = {a.title for a in load_dataset(SAMPLE_PATH).articles}
    pool = [a for a in train.articles if a.title not in held]
    random.Random(args.seed).shuffle(pool)
    splits = [Dataset(pool[i * args.articles:(i + 1) * args.articles], train.version) for i in range(args.splits)]

    def family_reading(data: Dataset, family: str) -> tuple[str | None, float | None, float | None, float | None]:
        stats = compute_stats(data, cache_dir=args.cache_dir, progress=False, n_process=1)
        route = data_route(stats, compute_stats_per_article(data, args.cache_dir), reference)
        v = next(v for v in route.verdicts if v.category == family)
        f = v.figure
        if f is None or f.difference is None:
            return v.reading, None, None, None
        return (v.reading, f.planted(f.difference), f.planted(f.difference_ci_low) if f.difference_ci_low is not None
                else None, f.planted(f.difference_ci_high) if f.difference_ci_high is not None else None)

    rows = []
    for k, data in enumerate(splits):
        for planting in args.plantings.split(","):
            family = PLANTINGS[planting].family
            t0 = time.perf_counter()
            graded, _ = plant_graded(data, planting, (args.rate,), 0, cache_dir=args.cache_dir)
            planted = graded[args.rate]
            before = family_reading(planted, family)
            hits = flagged(shortcut_evidence(planted, cache_dir=args.cache_dir), [family])
            kept = subset(planted, {q.id for _, _, q in planted.iter_questions() if q.id not in hits})
            after = family_reading(kept, family)
            rows.append({"split": k, "planting": planting, "family": family, "rate": args.rate,
                         "questions": len(planted), "kept": len(kept), "before": before, "after": after})
            print(f"split {k} {planting:<9} {family:<10} {len(planted):>6,} -> {len(kept):>6,} questions; "
                  f"before {before[0]} {_pct(before[1:])}; after {after[0]} {_pct(after[1:])} "
                  f"({time.perf_counter() - t0:.0f} s)", flush=True)
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as out:
            json.dump(rows, out, indent=1)
    return 0


def _pct(got: tuple) -> str:
    value, low, high = got
    if value is None:
        return "(no figure of the data)"
    return f"{value:+.0f}% of q. [{low:+.0f}, {high:+.0f}]" if low is not None and high is not None else f"{value:+.0f}%"


if __name__ == "__main__":
    raise SystemExit(main())
