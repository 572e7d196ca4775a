"""The model-free verdict figures on clean data and graded plantings, beside the reference (issue 41, part 2).

Prints, for each dataset, every verdict figure's difference from the bundled SQuAD v1.1 reference (standardised
to the data's sentence counts), its interval at the family-wise level an audit uses, and its reading. Clean
data: the bundled sample (40 SQuAD v1.1 train articles, the data the margins were chosen on) and random
40-article subsets of SQuAD v1.1 train that leave the sample's articles out (``--subsets``: the data that
validates them); graded plantings of the sample (``--plantings``, ``--rates``)::

    PYTHONPATH=. python benchmarks/model_free_margins.py --train ../shared/data/squad/train-v1.1.json.gz \\
        --subsets 4 --plantings overlap,keywords --rates 0.25,0.5

``--fit-subsets K`` (issue 41, part 3) measures the between-dataset spread of each top-1 share
(:data:`mrclens.scoring.model_free.TOP_SPREAD`) on the sample, the first ``K`` subsets and the shapes
(DerSimonian-Laird around 0, its Q-profile upper bound at 80 % where it is 0), and reads the other subsets —
articles the fit never saw — with that spread in their error, at the audit's family-wise level (``--family``
tests: 7 = four categories' drops and three model-free verdict figures).
"""

from __future__ import annotations

import argparse
import random
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", help="SQuAD v1.1 train (for the clean subsets)")
    parser.add_argument("--subsets", type=int, default=0, help="how many random 40-article subsets of --train")
    parser.add_argument("--plantings", default="", help="span plantings of the sample, comma-separated")
    parser.add_argument("--rates", default="0.25,0.5", help="planting rates")
    parser.add_argument("--planting-seeds", default="0", help="seeds of the graded plantings, comma-separated")
    parser.add_argument("--shapes", default="", help="shape counterparts of the sample, comma-separated")
    parser.add_argument("--fit-subsets", type=int, default=None,
                        help="fit the top-1 shares' spread on the sample, the shapes and the first K subsets")
    parser.add_argument("--family", type=int, default=None, help="family-wise tests (default: the figures' own)")
    parser.add_argument("--cache-dir", default=None)
    args = parser.parse_args(argv)

    from mrclens.artifacts.reference import read_reference
    from mrclens.audit.span import SAMPLE_PATH
    from mrclens.formats import load_dataset
    from mrclens.metrics.bootstrap import CONFIDENCE
    from mrclens.metrics.power import family_confidence
    from mrclens.scoring.against_reference import model_free_reading, verdict_family
    from mrclens.scoring.model_free import cluster_standard_errors, judge_figure, model_free_figures
    from mrclens.selftest.plantings import plant_graded, plant_shape
    from mrclens.squad import Dataset
    from mrclens.stats import compute_stats, compute_stats_per_article

    import math

    from mrclens.metrics.power import critical_value, read_interval
    from mrclens.scoring.structure_term import STRUCTURE_UPPER_LEVEL, heterogeneity_upper_bound
    from mrclens.scoring.model_free import TOP_SPREAD

    reference = read_reference()
    sample = load_dataset(SAMPLE_PATH)
    seen: dict[str, dict[str, tuple[float, float, int]]] = {}   # dataset → top figure → (difference, se, articles)

    def read(name: str, data: Dataset) -> None:
        t0 = time.perf_counter()
        figures = model_free_figures(compute_stats(data, cache_dir=args.cache_dir, progress=False, n_process=1),
                                     reference, CONFIDENCE,
                                     clusters=cluster_standard_errors(compute_stats_per_article(data, args.cache_dir)))
        level = family_confidence(CONFIDENCE, args.family or verdict_family([], [], None, figures))
        cells = []
        for f in figures:
            if f.path in TOP_SPREAD and f.difference is not None:
                held = critical_value(CONFIDENCE, None)
                se = (f.difference_ci_high - f.difference_ci_low) / (2 * held)
                own = math.sqrt(max(se ** 2 - TOP_SPREAD[f.path] ** 2, 0.0))   # without the shipped spread
                seen.setdefault(name, {})[f.path] = (f.difference, own, f.articles or 0)
            if f.role == "verdict" and f.difference is not None:
                judge_figure(f, CONFIDENCE, level)
                cells.append(f"{f.path.split('.')[-1]} {f.difference:+.1f} [{f.difference_ci_low:+.1f}, "
                             f"{f.difference_ci_high:+.1f}] {f.comparison}")
        readings = {c: model_free_reading(figures, c) for c in ("Similarity", "Question", "Keyword", "Position")}
        print(f"{name} ({data.counts()['questions']:,} q, {time.perf_counter() - t0:.0f} s): " + "; ".join(cells)
              + " || " + ", ".join(f"{c} {v}" for c, v in readings.items()), flush=True)

    read("sample", sample)
    if args.train and args.subsets:
        train = load_dataset(args.train)
        held = {a.title for a in sample.articles}
        pool = [a for a in train.articles if a.title not in held]
        for i in range(args.subsets):
            arts = random.Random(i).sample(pool, 40)
            read(f"train-subset-{i}", Dataset(arts, train.version))
    for shape in filter(None, args.shapes.split(",")):
        read(f"shape-{shape}", plant_shape(sample, shape, 0, cache_dir=args.cache_dir)[0])
    if args.fit_subsets is not None:
        fit = [n for n in seen if not n.startswith("train-subset-") or int(n.rsplit("-", 1)[1]) < args.fit_subsets]
        rest = [n for n in seen if n not in fit]
        level = family_confidence(CONFIDENCE, args.family or 7)
        print(f"\nspread of the top-1 shares, fitted on {', '.join(fit)}:")
        spread = {}
        for path in TOP_SPREAD:
            pairs = [(seen[n][path][0], seen[n][path][1]) for n in fit if path in seen[n]]
            estimate = math.sqrt(max(sum(d * d - e * e for d, e in pairs) / len(pairs), 0.0))
            spread[path] = estimate if estimate > 0 else heterogeneity_upper_bound(pairs, STRUCTURE_UPPER_LEVEL)
            print(f"  {path}: {spread[path]:.2f} (method of moments {estimate:.2f}; differences "
                  + ", ".join(f"{d:+.1f}±{e:.1f}" for d, e in pairs) + ")")
        print(f"validation ({', '.join(rest) or 'none'}), spread in the error, margin 0, {100 * level:.2f} % each:")
        for n in rest:
            cells = []
            for path, (d, e, k) in seen[n].items():
                q = critical_value(level, k - 1 if k > 1 else None)
                half = q * math.sqrt(e * e + spread[path] ** 2)
                cells.append(f"{path.split('.')[-1]} {d:+.1f} [{d - half:+.1f}, {d + half:+.1f}] "
                             f"{read_interval(d, d - half, d + half, band=10.0)}")
            print(f"  {n}: " + "; ".join(cells))
    rates = tuple(float(r) for r in args.rates.split(","))
    for seed in (int(x) for x in args.planting_seeds.split(",")):
        for name in filter(None, args.plantings.split(",")):
            graded, clean = plant_graded(sample, name, rates, seed, cache_dir=args.cache_dir)
            read(f"{name}@0 (clean side, seed {seed})", clean)
            for rate, data in graded.items():
                read(f"{name}@{rate:g} (seed {seed})", data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
