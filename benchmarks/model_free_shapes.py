"""Model-free verdict figures of the selftest's datasets against the reference (issue 32): do they hold on shape?

For the bundled sample's structural counterparts (:data:`mrclens.selftest.plantings.SHAPES`) and each
planting's planted and clean sides, prints every verdict figure (chance-corrected percentile ranks)
and the raw shares, beside the bundled reference (standardised to the data's sentence counts), with
intervals clustered by article — the model-free half of a selftest verdict, in seconds instead of
audits::

    .venv/bin/python benchmarks/model_free_shapes.py [--seed 0] [--articles eval|all]

``--articles eval`` keeps the evaluation articles of the audit's title split for that seed (what an
audit reads); ``all`` keeps all 40 (narrower intervals, a stricter test).
"""

from __future__ import annotations

import argparse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--articles", choices=("eval", "all"), default="eval")
    parser.add_argument("--only", default=None, help="comma-separated dataset names")
    args = parser.parse_args(argv)

    from mrclens.artifacts.reference import read_reference
    from mrclens.audit.span import SAMPLE_PATH
    from mrclens.formats import load_squad_file
    from mrclens.scoring.model_free import cluster_standard_errors, model_free_figures
    from mrclens.selftest.plantings import PLANTINGS, SHAPES, plant, plant_shape
    from mrclens.split import split_by_title
    from mrclens.squad import Dataset
    from mrclens.stats import compute_stats, compute_stats_per_article

    sample = load_squad_file(SAMPLE_PATH)
    reference = read_reference()
    datasets = {}
    for name in SHAPES:
        datasets[f"shape:{name}"] = plant_shape(sample, name, args.seed)[0]
    for name in PLANTINGS:
        pair = plant(sample, name, args.seed)
        datasets[f"{name}:planted"], datasets[f"{name}:clean"] = pair.planted, pair.clean
    if args.only:
        datasets = {k: v for k, v in datasets.items() if k in args.only.split(",")}
    print(f"{'dataset':<18} {'figure':<50} {'value':>6} {'ref':>6} {'diff [CI]':>22}  comparison")
    for name, data in datasets.items():
        if args.articles == "eval":
            data = split_by_title(data, seed=args.seed)[1]
        stats = compute_stats(data, progress=False, n_process=1)
        clusters = cluster_standard_errors(compute_stats_per_article(data))
        for f in model_free_figures(stats, reference, clusters=clusters):
            tag = f.path.split(".")[-1][:48] + (" *" if f.role == "verdict" else "")
            print(f"{name:<18} {tag:<50} {f.value:6.1f} {f.reference_value:6.1f} "
                  f"{f.difference:+6.1f} [{f.difference_ci_low:+6.1f},{f.difference_ci_high:+6.1f}]  {f.comparison}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
