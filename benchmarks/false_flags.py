"""The data route's false-flag rate on clean SQuAD subsets the reference never saw (issue 54, part 6).

Each of ``--subsets`` random sets of ``--size`` articles of SQuAD v1.1 train (the bundled sample's articles left
out) is read as an audit's data route reads it (:func:`mrclens.scoring.model_free.model_free_figures`, judged at the
family-wise level of a data-route audit, :func:`mrclens.scoring.against_reference.model_free_reading`), against a
reference made of the corpus **without that subset** (SQuAD v1.1 dev and train but the sample's articles and the
subset's: the reference's natural paragraphs, without its joined long strata). Every figure is per question or per
paragraph (the IDF is shipped, :mod:`mrclens.stats.idf`), so a set's figures are pooled exactly from its articles'
(:func:`pooled_stats`), and the corpus is computed once, article by article::

    PYTHONPATH=. .venv/bin/python benchmarks/false_flags.py ../shared/data/squad/dev-v1.1.json.gz \\
        ../shared/data/squad/train-v1.1.json.gz --exclude mrclens/data/squad-v1.1-sample.json.gz --subsets 80 --fit 30

Prints each subset's verdict figures and readings, then per category the share read "more" or "less" with its
Clopper-Pearson 95 % interval, the share with any, and the mean and SD of each verdict figure's difference.

``--detect PLANTING --detect-subsets 30,31`` also plants ``mrclens selftest``'s ``PLANTING`` in ``--rates`` of the
questions of those subsets (:func:`mrclens.selftest.plantings.plant_graded`, seeded with the subset's number) and reads
each graded set and its clean counterpart the same way, against the reference without the subset's articles: the
detection curve on article splits the reference never saw (issue 54, item 5: Question's ``marked``)::

    PYTHONPATH=. .venv/bin/python benchmarks/false_flags.py ../shared/data/squad/dev-v1.1.json.gz \\
        ../shared/data/squad/train-v1.1.json.gz --exclude mrclens/data/squad-v1.1-sample.json.gz --subsets 80 \\
        --detect marked --detect-subsets 30,31
"""

from __future__ import annotations

import argparse
import math
import random
import time
from typing import Any, Mapping, Sequence


def pooled_stats(per_article: Sequence[Mapping[str, Any]]) -> dict:
    """The model-free figures (:data:`mrclens.scoring.model_free.FIGURES`, their ``n``, strata and chance levels)
    of the articles together, pooled from each article's :func:`mrclens.stats.compute_stats` (question-weighted
    means; population SDs pooled through the second moments)."""
    from mrclens.scoring.model_free import FIGURES, dotted_get, strata_path

    out: dict = {}

    def put(path: str, value: Any) -> None:
        node = out
        *heads, last = path.split(".")
        for h in heads:
            node = node.setdefault(h, {})
        node[last] = value

    def pool(nodes: list[Mapping[str, Any]]) -> dict | None:
        nodes = [x for x in nodes if isinstance(x, Mapping) and x.get("n") and x.get("mean") is not None]
        n = sum(int(x["n"]) for x in nodes)
        if not n:
            return None
        mean = sum(x["n"] * x["mean"] for x in nodes) / n
        second = sum(x["n"] * ((x.get("std") or 0.0) ** 2 + x["mean"] ** 2) for x in nodes) / n
        return {"n": n, "mean": mean, "std": math.sqrt(max(second - mean * mean, 0.0))}

    for spec in FIGURES:
        if spec.kind == "share":
            pairs = [(dotted_get(s, spec.path), dotted_get(s, spec.n_path)) for s in per_article]
            pairs = [(v, n) for v, n in pairs if v is not None and n]
            n = sum(n for _, n in pairs)
            if n:
                put(spec.path, sum(v * n for v, n in pairs) / n)
                put(spec.n_path, n)
            if spec.chance_path:
                weights = [(dotted_get(s, spec.chance_path), dotted_get(s, spec.n_path)) for s in per_article]
                weights = [(v, n) for v, n in weights if v is not None and n]
                if weights:
                    put(spec.chance_path, sum(v * n for v, n in weights) / sum(n for _, n in weights))
        else:
            got = pool([dotted_get(s, spec.path) for s in per_article])
            if got is not None:
                put(spec.path, got)
        where = strata_path(spec.path)
        if where:
            strata: dict = {}
            for s in per_article:
                for label, node in (dotted_get(s, where) or {}).items():
                    strata.setdefault(label, []).append(node)
            pooled = {label: got for label, nodes in strata.items() for got in [pool(nodes)] if got is not None}
            if pooled:
                put(where, pooled)
    return out


def clopper_pearson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """The exact binomial interval of ``k`` successes in ``n`` (proportions)."""
    from scipy.stats import beta

    a = (1 - level) / 2
    return (0.0 if k == 0 else float(beta.ppf(a, k, n - k + 1)),
            1.0 if k == n else float(beta.ppf(1 - a, k + 1, n - k)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+", help="SQuAD v1.1 dev and train (the corpus; subsets are drawn from train)")
    parser.add_argument("--exclude", help="a dataset whose articles are left out of everything (the bundled sample)")
    parser.add_argument("--subsets", type=int, default=30)
    parser.add_argument("--size", type=int, default=40, help="articles per subset")
    parser.add_argument("--fit", type=int, default=0,
                        help="fit the spread of the verdict figures with a spread term on the first N subsets and read "
                             "the others with it")
    parser.add_argument("--detect", default=None, metavar="PLANTING",
                        help="plant this selftest planting in --rates of the questions of --detect-subsets and read them")
    parser.add_argument("--detect-subsets", default="30,31", help="comma-separated subset numbers for --detect")
    parser.add_argument("--rates", default="0.1,0.25,0.5,1", help="planting rates for --detect (shares of the questions)")
    parser.add_argument("--cache-dir", default=None)
    args = parser.parse_args(argv)

    from mrclens.artifacts.reference import read_reference
    from mrclens.categories import CATEGORY_NAMES
    from mrclens.formats import load_dataset
    from mrclens.metrics.bootstrap import CONFIDENCE
    from mrclens.metrics.power import family_confidence
    from mrclens.scoring.against_reference import model_free_reading, verdict_family
    from mrclens.metrics.estimate import excess_spread
    from mrclens.scoring import model_free
    from mrclens.scoring.model_free import cluster_standard_errors, judge_figure, reference_from_stats
    from mrclens.scoring.structure_term import STRUCTURE_UPPER_LEVEL, heterogeneity_upper_bound
    from mrclens.squad import Dataset
    from mrclens.stats import compute_stats_per_article
    from mrclens.verdicts import differs

    parts = [load_dataset(p) for p in args.data]
    parts_version = parts[0].version
    excluded = {a.title for a in load_dataset(args.exclude).articles} if args.exclude else set()
    corpus = [a for part in parts for a in part.articles if a.title not in excluded]
    train_titles = {a.title for a in parts[-1].articles} - excluded
    t0 = time.perf_counter()
    per_article = compute_stats_per_article(Dataset(corpus, parts[0].version), args.cache_dir)
    print(f"{len(corpus)} articles computed in {time.perf_counter() - t0:.0f} s", flush=True)
    by_title = {a.title: s for a, s in zip(corpus, per_article)}
    shipped = read_reference()
    pool = sorted(train_titles)
    subsets = [set(random.Random(i).sample(pool, args.size)) for i in range(args.subsets)]
    parts = [([by_title[t] for t in pool if t in chosen], [by_title[a.title] for a in corpus if a.title not in chosen])
             for chosen in subsets]
    references = [reference_from_stats(pooled_stats(rest), f"{shipped.name} without subset {i}", {},
                                       cluster_standard_errors(rest)) for i, (_, rest) in enumerate(parts)]
    mine_stats = [(pooled_stats(mine), cluster_standard_errors(mine)) for mine, _ in parts]

    def read(indices: Sequence[int], title: str) -> dict[str, list[tuple[float, float, int]]]:
        """Read the subsets ``indices`` with ``model_free.FIGURES`` as they stand; print; return per verdict
        figure ``(difference, its own standard error without the spread term, articles)``."""
        flags: dict[str, list[str]] = {c: [] for c in CATEGORY_NAMES}
        any_flag = 0
        seen: dict[str, list[tuple[float, float, int]]] = {}
        spread = {spec.path: spec.spread or 0.0 for spec in model_free.FIGURES}
        print(f"\n{title}", flush=True)
        for i in indices:
            stats, clusters = mine_stats[i]
            figures = model_free.model_free_figures(stats, references[i], CONFIDENCE, clusters=clusters)
            level = family_confidence(CONFIDENCE, verdict_family([], [], None, figures))
            cells = []
            for f in figures:
                if f.role == "verdict" and f.difference is not None:
                    judge_figure(f, CONFIDENCE, level)
                    own = math.sqrt(max(f.difference_se ** 2 - spread[f.path] ** 2, 0.0))
                    seen.setdefault(f.path, []).append((f.difference, own, f.articles or 0))
                    cells.append(f"{f.path.split('.')[-1]} {f.difference:+.1f} [{f.difference_ci_low:+.1f}, "
                                 f"{f.difference_ci_high:+.1f}] {f.comparison}")
            readings = {c: model_free_reading(figures, c) for c in CATEGORY_NAMES}
            flagged = [c for c, r in readings.items() if differs(r)]
            for c in flagged:
                flags[c].append(readings[c])
            any_flag += bool(flagged)
            print(f"  subset {i:2d}: " + "; ".join(cells) + " || " + ", ".join(f"{c} {r}" for c, r in readings.items()),
                  flush=True)
        n = len(indices)
        for c, got in flags.items():
            low, high = clopper_pearson(len(got), n)
            print(f"  {c}: {len(got)}/{n} read more or less ({100 * len(got) / n:.1f} %, 95 % CI {100 * low:.1f}–"
                  f"{100 * high:.1f} %)" + (f": {', '.join(got)}" if got else ""))
        low, high = clopper_pearson(any_flag, n)
        print(f"  any category: {any_flag}/{n} ({100 * any_flag / n:.1f} %, 95 % CI {100 * low:.1f}–{100 * high:.1f} %)")
        for path, rows in seen.items():
            ds = [d for d, _, _ in rows]
            mean = sum(ds) / len(ds)
            sd = math.sqrt(sum((d - mean) ** 2 for d in ds) / (len(ds) - 1)) if len(ds) > 1 else 0.0
            print(f"  {path}: difference mean {mean:+.2f} (se {sd / math.sqrt(len(ds)):.2f}), SD {sd:.2f}, "
                  f"mean own se {sum(e for _, e, _ in rows) / len(rows):.2f}")
        return seen

    seen = read(range(args.subsets), f"{args.subsets} subsets of {args.size} articles, the shipped figures and spreads:")
    if args.fit:
        fitted = {}
        for path, rows in seen.items():
            pairs = [(d, e) for d, e, _ in rows[:args.fit]]
            moments = excess_spread([d for d, _ in pairs], [e for _, e in pairs], centre=0.0).excess_sd
            fitted[path] = max(moments, heterogeneity_upper_bound(pairs, STRUCTURE_UPPER_LEVEL))
            print(f"spread of {path} on subsets 0–{args.fit - 1}: method of moments {moments:.2f}, "
                  f"{100 * STRUCTURE_UPPER_LEVEL:.0f} % Q-profile upper bound "
                  f"{heterogeneity_upper_bound(pairs, STRUCTURE_UPPER_LEVEL):.2f}")
        model_free.FIGURES = tuple(spec._replace(spread=fitted[spec.path]) if spec.path in fitted and spec.spread
                                   is not None else spec for spec in model_free.FIGURES)
        read(range(args.fit, args.subsets), f"subsets {args.fit}–{args.subsets - 1} (not fitted on), the spreads "
             f"fitted on subsets 0–{args.fit - 1} (the larger of the two estimates):")
    if args.detect:
        chosen = [int(s) for s in args.detect_subsets.split(",") if s]
        if any(not 0 <= i < args.subsets for i in chosen):
            parser.error(f"--detect-subsets: subsets are numbered 0–{args.subsets - 1}")
        detect(args.detect, [(i, Dataset([a for a in corpus if a.title in subsets[i]], parts_version), references[i])
                             for i in chosen], tuple(float(r) for r in args.rates.split(",")), args.cache_dir)
    return 0


def detect(planting: str, splits: Sequence[tuple[int, Any, Any]], rates: tuple[float, ...], cache_dir) -> None:
    """Read ``planting`` at ``rates`` and its clean counterpart on each split ``(subset number, its articles, the
    reference without them)`` as the data route reads them (module docstring); print each reading, the family's
    verdict figure as a difference and as a planted share, and the categories read "more" or "less" besides."""
    from mrclens.categories import CATEGORY_NAMES
    from mrclens.metrics.bootstrap import CONFIDENCE
    from mrclens.metrics.power import family_confidence
    from mrclens.scoring.against_reference import model_free_reading, verdict_family
    from mrclens.scoring.model_free import cluster_standard_errors, judge_figure, model_free_figures
    from mrclens.selftest.plantings import PLANTINGS, plant_graded
    from mrclens.stats import compute_stats_per_article
    from mrclens.verdicts import MORE, differs

    family = PLANTINGS[planting].family
    print(f"\n{planting} ({family}) planted in {', '.join(f'{r:.0%}' for r in rates)} of the questions, each split "
          f"read against the reference without its articles:", flush=True)
    hits: dict[float, int] = {}
    for i, data, reference in splits:
        t0 = time.perf_counter()
        graded, clean = plant_graded(data, planting, rates, i, cache_dir=cache_dir)
        for rate, planted in [(0.0, clean), *graded.items()]:
            per_article = compute_stats_per_article(planted, cache_dir)
            figures = model_free_figures(pooled_stats(per_article), reference, CONFIDENCE,
                                         clusters=cluster_standard_errors(per_article))
            level = family_confidence(CONFIDENCE, verdict_family([], [], None, figures))
            for f in figures:
                if f.role == "verdict" and f.difference is not None:
                    judge_figure(f, CONFIDENCE, level)
            readings = {c: model_free_reading(figures, c) for c in CATEGORY_NAMES}
            f = next(f for f in figures if f.category == family and f.role == "verdict")
            share = (f"; as planted shares {f.planted(f.difference):+.1f} % [{f.planted(f.difference_ci_low):+.1f}, "
                     f"{f.planted(f.difference_ci_high):+.1f}], band ±{f.planted(f.band):g} %" if f.per_planted_pct else "")
            others = [c for c, r in readings.items() if c != family and differs(r)]
            if rate:
                hits[rate] = hits.get(rate, 0) + (readings[family] == MORE.name)
            print(f"  subset {i} {'clean' if not rate else f'{rate:.0%}'}: {family} {readings[family]} ({f.path} "
                  f"{f.value:.2f}, difference {f.difference:+.2f} [{f.difference_ci_low:+.2f}, {f.difference_ci_high:+.2f}]"
                  f"{share}); other categories read more or less: {', '.join(others) or 'none'}", flush=True)
        print(f"  subset {i}: {time.perf_counter() - t0:.0f} s", flush=True)
    print(f"  {family} read \"more\": " + ", ".join(f"{r:.0%} {hits[r]}/{len(splits)}" for r in rates))


if __name__ == "__main__":
    raise SystemExit(main())
