"""The verdict figures of the same questions filed differently (issue 54, done-when 2).

``--articles`` random SQuAD v1.1 train articles (not the bundled sample's; seed ``--seed``) are read against the
shipped reference as one file, as files of 40 and of 10 articles (the question-weighted mean of the files'
differences), and as one file with one question per paragraph (each paragraph copied once per question). Prints each
verdict figure's difference from the reference per grouping beside the one file's standard error::

    PYTHONPATH=. .venv/bin/python benchmarks/grouping_invariance.py --train ../shared/data/squad/train-v1.1.json.gz
"""

from __future__ import annotations

import argparse
import random


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", required=True)
    parser.add_argument("--articles", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--cache-dir", default=None)
    args = parser.parse_args(argv)

    from mrclens.artifacts.reference import read_reference
    from mrclens.audit.span import SAMPLE_PATH
    from mrclens.formats import load_dataset
    from mrclens.scoring.model_free import cluster_standard_errors, model_free_figures
    from mrclens.squad import Article, Dataset, Paragraph
    from mrclens.stats import compute_stats, compute_stats_per_article

    held = {a.title for a in load_dataset(SAMPLE_PATH).articles}
    train = load_dataset(args.train)
    chosen = random.Random(args.seed).sample([a for a in train.articles if a.title not in held], args.articles)
    reference = read_reference()

    def read(data: Dataset) -> dict[str, tuple[float, float, int]]:
        stats = compute_stats(data, cache_dir=args.cache_dir, progress=False, n_process=1)
        clusters = cluster_standard_errors(compute_stats_per_article(data, args.cache_dir))
        return {f.path: (f.difference, f.difference_se, f.n) for f in model_free_figures(stats, reference, clusters=clusters)
                if f.role == "verdict" and f.difference is not None}

    whole = read(Dataset(chosen, train.version))
    rows = {"one file": {p: d for p, (d, _, _) in whole.items()}}
    for size in (40, 10):
        parts = [read(Dataset(chosen[i:i + size], train.version)) for i in range(0, len(chosen), size)]
        rows[f"files of {size}"] = {p: sum(part[p][0] * part[p][2] for part in parts) / sum(part[p][2] for part in parts)
                                    for p in whole}
    single = Dataset([Article(a.title, [Paragraph(p.context, [q]) for p in a.paragraphs for q in p.questions])
                      for a in chosen], train.version)
    rows["one question per paragraph"] = {p: d for p, (d, _, _) in read(single).items()}
    print(f"{args.articles} SQuAD v1.1 train articles (seed {args.seed}), difference from the reference (points):")
    print("| grouping | " + " | ".join(p.split(".")[-1] for p in whole) + " |")
    print("|---|" + "---|" * len(whole))
    for name, row in rows.items():
        print(f"| {name} | " + " | ".join(f"{row[p]:+.2f}" for p in whole) + " |")
    print("| the one file's standard error | " + " | ".join(f"{whole[p][1]:.2f}" for p in whole) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
