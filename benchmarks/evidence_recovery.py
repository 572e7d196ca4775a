"""Does the per-question shortcut evidence find the planted questions? Precision and recall per family (issue 56).

``mrclens selftest``'s span plantings (:func:`mrclens.selftest.plantings.plant_graded`) are built at ``--rates``
from SQuAD v1.1 train articles (never the bundled sample's): the articles are shuffled with ``--seed`` and cut
into ``1 + --splits`` disjoint sets of ``--articles`` each. The first set **fits** each category's threshold (the
one whose smaller figure, precision or recall, at the worse rate is best, ``--fit``; without it the shipped thresholds of
:data:`mrclens.stats.evidence.RULES` are read); each later set **validates** it: its plantings are read with
the threshold, and precision and recall are reported per family, rate and split. Figures are never reported on
the articles a threshold was fitted on.

A planted question is one of the planted share (:func:`~mrclens.selftest.plantings.planted_share`) that its
planting edits (:func:`~mrclens.selftest.plantings.planting_applied`: a question without nouns gets none
inserted, so it carries no planted shortcut and counts with the others). Every other question of the dataset
has the clean side's edit. "Flagged on clean" is the share of questions flagged on the clean counterpart (rate
0): the evidence the articles hold by themselves. The evidence is model-free: no reader is trained::

    PYTHONPATH=. .venv/bin/python benchmarks/evidence_recovery.py --train ../shared/data/squad/train-v1.1.json.gz \\
        --fit
"""

from __future__ import annotations

import argparse
import json
import random
import time


def counts(strengths: dict[str, float], planted: set[str], threshold: float) -> tuple[int, int, int]:
    """``(true positives, false positives, false negatives)`` of the flag ``strength >= threshold``."""
    tp = sum(1 for q, s in strengths.items() if s >= threshold and q in planted)
    fp = sum(1 for q, s in strengths.items() if s >= threshold and q not in planted)
    return tp, fp, len(planted) - tp


def precision_recall(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    """``(precision, recall, F1)``; 0 where undefined."""
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return p, r, 2 * p * r / (p + r) if p + r else 0.0


def fit_threshold(cases: list[tuple[dict[str, float], set[str]]]) -> tuple[float, float]:
    """The threshold (one of the strengths seen) whose worst figure over ``cases`` (the smaller of precision and
    recall, at the rate where it is smallest) is best, and that figure; ties go to the higher threshold (fewer
    flags). The goal is both figures high at every rate, so the worst one is what is fitted."""
    best = (-1.0, 1.0)
    for t in sorted({s for strengths, _ in cases for s in strengths.values() if s > 0}):
        worst = min(min(precision_recall(*counts(s, p, t))[:2]) for s, p in cases)
        if worst >= best[0]:
            best = (worst, t)
    return best[1], best[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", required=True, help="SQuAD v1.1 train (JSON, .gz allowed)")
    parser.add_argument("--articles", type=int, default=20, help="articles per split")
    parser.add_argument("--splits", type=int, default=2, help="validation splits (after the fitting one)")
    parser.add_argument("--seed", type=int, default=56, help="shuffles the articles into splits")
    parser.add_argument("--rates", default="0.25,0.5")
    parser.add_argument("--plantings", default="overlap,marked,keywords,position")
    parser.add_argument("--fit", action="store_true", help="fit the thresholds on the first split (else: shipped)")
    parser.add_argument("--cache-dir", default=None)
    parser.add_argument("--json", dest="json_out", help="also write every figure to this JSON file")
    args = parser.parse_args(argv)

    from mrclens.audit.span import SAMPLE_PATH
    from mrclens.formats import load_dataset
    from mrclens.selftest.plantings import PLANTINGS, plant_graded, planted_share, planting_applied
    from mrclens.squad import Dataset
    from mrclens.stats.evidence import RULES, shortcut_evidence

    rates = tuple(float(r) for r in args.rates.split(","))
    plantings = args.plantings.split(",")
    train = load_dataset(args.train)
    held = {a.title for a in load_dataset(SAMPLE_PATH).articles}
    pool = [a for a in train.articles if a.title not in held]
    random.Random(args.seed).shuffle(pool)
    if (1 + args.splits) * args.articles > len(pool):
        parser.error(f"{1 + args.splits} splits of {args.articles} articles need more than the {len(pool)} there are")
    splits = [Dataset(pool[i * args.articles:(i + 1) * args.articles], train.version) for i in range(1 + args.splits)]

    def read(data: Dataset, planting: str) -> dict:
        """Per rate (0 = the clean counterpart): the family's strength per question, and the planted questions."""
        family = PLANTINGS[planting].family
        t0 = time.perf_counter()
        graded, clean = plant_graded(data, planting, rates, 0, cache_dir=args.cache_dir)
        applied = planting_applied(data, planting, 0, cache_dir=args.cache_dir)
        ids = list(applied)
        out = {}
        for rate, d in [*graded.items(), (0.0, clean)]:
            rows = shortcut_evidence(d, cache_dir=args.cache_dir)
            strengths = {row.id: row.of(family).strength if row.answerable and row.of(family) else 0.0 for row in rows}
            out[rate] = (strengths, {q for q in planted_share(ids, planting, rate, 0) if applied[q]} if rate else set())
        print(f"  {planting}: {len(ids):,} questions, {sum(applied.values()):,} the planting edits "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)
        return out

    shipped = {rule.category: rule.threshold for rule in RULES}
    thresholds = dict(shipped)
    print(f"fitting split: {args.articles} articles, {len(splits[0]):,} questions", flush=True)
    if args.fit:
        for planting in plantings:
            family = PLANTINGS[planting].family
            got = read(splits[0], planting)
            t, f1 = fit_threshold([got[r] for r in rates])
            thresholds[family] = t
            print(f"  {family}: fitted threshold {t:.4g} (worst of precision and recall {f1:.3f} on the fitting split; "
                  f"shipped {shipped[family]})",
                  flush=True)
    figures = []
    for k, data in enumerate(splits[1:], 1):
        print(f"validation split {k}: {args.articles} articles, {len(data):,} questions", flush=True)
        for planting in plantings:
            family = PLANTINGS[planting].family
            got = read(data, planting)
            strengths0, _ = got[0.0]
            clean_flagged = sum(1 for s in strengths0.values() if s >= thresholds[family]) / len(strengths0)
            for rate in rates:
                strengths, planted = got[rate]
                tp, fp, fn = counts(strengths, planted, thresholds[family])
                p, r, f1 = precision_recall(tp, fp, fn)
                best_p = max((precision_recall(*counts(strengths, planted, t))[:2]
                              for t in sorted(set(strengths.values())) if t > 0), default=(0.0, 0.0))
                figures.append({"split": k, "family": family, "planting": planting, "rate": rate,
                                "threshold": thresholds[family], "planted": len(planted), "questions": len(strengths),
                                "precision": p, "recall": r, "f1": f1, "flagged_on_clean": clean_flagged,
                                "best_precision_any_threshold": best_p[0], "its_recall": best_p[1]})
    print("\nfamily      rate  split  planted  precision  recall  flagged on clean  (best precision, its recall)")
    for f in figures:
        print(f"{f['family']:<10} {f['rate']:>5.2f} {f['split']:>6} {f['planted']:>8,} {f['precision']:>10.3f} "
              f"{f['recall']:>7.3f} {100 * f['flagged_on_clean']:>15.1f} %  ({f['best_precision_any_threshold']:.3f}, "
              f"{f['its_recall']:.3f})")
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as out:
            json.dump({"thresholds": thresholds, "fitted": args.fit, "figures": figures}, out, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
