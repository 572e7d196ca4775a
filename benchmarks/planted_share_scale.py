"""How far each data-route verdict figure moves per percent of questions planted with its family's shortcut
(issue 54, part 3): the scale that states a difference as "as much as a shortcut in N % of the questions".

For each of ``--subsets`` random sets of 40 SQuAD v1.1 train articles (not the bundled sample's; ``--first``
numbers them), each span planting of ``--plantings`` (``mrclens selftest``'s, :func:`mrclens.selftest.plantings.plant_graded`)
is built at ``--rates`` beside its clean counterpart (the same edit with the planting off), and the family's verdict
figure (:data:`mrclens.scoring.model_free.FIGURES`) is compared: the slope through the origin of the paired
difference (planted − clean, points) on the planted share (percent), ``Σ r·d / Σ r²``. The fit subsets give the
shipped scale (their mean); ``--validate`` reads the bundled sample's plantings with it (data the scale never saw),
``--validate-subsets`` the plantings of other subsets (their seeds)::

    PYTHONPATH=. .venv/bin/python benchmarks/planted_share_scale.py --train ../shared/data/squad/train-v1.1.json.gz \\
        --subsets 2 --validate
    PYTHONPATH=. .venv/bin/python benchmarks/planted_share_scale.py --train ../shared/data/squad/train-v1.1.json.gz \\
        --plantings marked --subsets 1 --validate --validate-subsets 101     # Question (issue 54, item 5)

Issue 54's Similarity and Keyword figures (``chance_corrected.shared_ngram_top``, ``chance_corrected.keyword_window_top``)
were scaled with ``--plantings overlap,keywords`` (Position's scale, measured before, stays as it was).
"""

from __future__ import annotations

import argparse
import random
import time



def family_figures() -> dict[str, str]:
    """Each bias category's verdict figure on the planted-share scale (:data:`mrclens.scoring.model_free.FIGURES`)."""
    from mrclens.scoring.model_free import FIGURES

    return {spec.category: spec.path for spec in FIGURES if spec.role == "verdict" and spec.per_planted_pct is not None}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", required=True)
    parser.add_argument("--subsets", type=int, default=2)
    parser.add_argument("--first", type=int, default=100, help="the seed of the first subset")
    parser.add_argument("--plantings", default="overlap,keywords,position")
    parser.add_argument("--rates", default="0.25,0.5,1.0")
    parser.add_argument("--validate", action="store_true", help="read the bundled sample's plantings with the scale")
    parser.add_argument("--validate-subsets", default="",
                        help="comma-separated seeds of other 40-article subsets whose plantings to read with the scale")
    parser.add_argument("--cache-dir", default=None)
    args = parser.parse_args(argv)

    from mrclens.audit.span import SAMPLE_PATH
    from mrclens.formats import load_dataset
    from mrclens.scoring.model_free import dotted_get
    from mrclens.selftest.plantings import PLANTINGS, plant_graded
    from mrclens.squad import Dataset
    from mrclens.stats import compute_stats

    rates = tuple(float(r) for r in args.rates.split(","))
    sample = load_dataset(SAMPLE_PATH)
    held = {a.title for a in sample.articles}
    train = load_dataset(args.train)
    pool = [a for a in train.articles if a.title not in held]

    def value(data: Dataset, path: str) -> float:
        return float(dotted_get(compute_stats(data, cache_dir=args.cache_dir, progress=False, n_process=1), path)["mean"])

    def slope(data: Dataset, planting: str, seed: int) -> tuple[float, list[tuple[float, float]]]:
        path = family_figures()[PLANTINGS[planting].family]
        graded, clean = plant_graded(data, planting, rates, seed, cache_dir=args.cache_dir)
        base = value(clean, path)
        points = [(100 * r, value(d, path) - base) for r, d in graded.items()]
        return sum(r * d for r, d in points) / sum(r * r for r, _ in points), points

    fitted: dict[str, list[float]] = {}
    for i in range(args.first, args.first + args.subsets):
        data = Dataset(random.Random(i).sample(pool, 40), train.version)
        for planting in args.plantings.split(","):
            t0 = time.perf_counter()
            b, points = slope(data, planting, i)
            fitted.setdefault(planting, []).append(b)
            print(f"subset {i} {planting} ({PLANTINGS[planting].family}): {b:.4f} points per planted % "
                  f"(" + ", ".join(f"{r:g} % → {d:+.2f}" for r, d in points) + f"; {time.perf_counter() - t0:.0f} s)",
                  flush=True)
    scale = {p: sum(v) / len(v) for p, v in fitted.items()}
    print("\nscale (mean of the fit subsets), points per planted %: "
          + ", ".join(f"{PLANTINGS[p].family} ({p}) {b:.3f}" for p, b in scale.items()))
    held_out = [("bundled sample", sample, 0)] if args.validate else []
    for seed in (int(s) for s in args.validate_subsets.split(",") if s):
        if args.first <= seed < args.first + args.subsets:
            parser.error(f"--validate-subsets: subset {seed} is one the scale was fitted on")
        held_out.append((f"subset {seed}", Dataset(random.Random(seed).sample(pool, 40), train.version), seed))
    for name, data, seed in held_out:
        for planting, b in scale.items():
            got, points = slope(data, planting, seed)
            print(f"{name} {planting}: {got:.4f} against the scale's {b:.4f}; as planted shares: "
                  + ", ".join(f"{r:g} % reads {d / b:.1f} %" for r, d in points), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
