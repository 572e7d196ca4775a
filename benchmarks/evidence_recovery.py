"""Does the per-question shortcut evidence find the planted questions? Precision and recall per family (issue 56).

``mrclens selftest``'s span plantings (:func:`mrclens.selftest.plantings.plant_graded`) are built at ``--rates``
from SQuAD v1.1 train articles (never the bundled sample's): the articles are shuffled with ``--seed`` and cut
into ``1 + --splits`` disjoint sets of ``--articles`` each. The first set **fits** each category's threshold
(``--fit``, :func:`fit_threshold`; without it the shipped thresholds of :data:`mrclens.stats.evidence.RULES` are
read); each later set **validates** it: its plantings are read with the threshold, and precision and recall are
reported per family, rate and split. Figures are never reported on the articles a threshold was fitted on, and
nothing read on a validation split feeds the fit.

**The ceiling.** A planting can leave a question its flag cannot tell from a planted one: the clean side's edit of
an unplanted question may produce the very context the planting would (``position``: the clean side moves a random
sentence unit to the front, and one time in ``n`` that is the answer's own). Such a question and a planted one come
from the same edit of the same kind of context, so no rule read on the data tells them apart; they are found from
the plantings themselves (the clean copy equals the copy planted at rate 1), not from the evidence. The **ceiling**
of a planting at a rate is the precision of the best flag that finds every planted question, about ``planted /
(planted + those unplanted questions)``; the **ceiling at recall 0.8** the best precision a flag reaches while it
finds 0.8 of them, ranking them by what the data shows (:func:`ceiling`). For ``position`` the odds that an
answer-first question of ``n`` sentence units was planted are ``r / (r + (1 − r) / n)`` at planted share ``r``:
they depend on ``n`` alone, so the Position strength ``1 − 1/n`` already ranks the questions as well as any rule
can, and only its threshold is fitted.

**The fitting rule** (:func:`fit_threshold`): among the strengths seen on the fitting split, the threshold whose
smaller figure, precision or recall, at the rate where it is smallest is best, over the rates whose ceiling at
recall :data:`TARGET` (on the fitting split) reaches :data:`TARGET`; where no rate's does, over every rate. Ties go
to the higher threshold (fewer flags). At a rate whose ceiling is below :data:`TARGET` no threshold shows both
figures at :data:`TARGET`, so that rate would only pull the fit towards fewer flags for a precision no rule
reaches; it is still reported.

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


#: The precision and recall a flag should reach (issue 56); a rate whose ceiling is below it does not steer the fit.
TARGET = 0.8


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


def ceiling(strengths: dict[str, float], planted: set[str], alike: set[str], recall: float = 1.0) -> float:
    """The best precision a flag reaches at ``recall`` (0–1) of the ``planted`` questions when the ``alike``
    (unplanted) questions cannot be told from planted ones but by what the data shows of them, their ``strengths``:
    the questions of ``planted | alike`` are taken by strength, highest first, a tie group in the share needed
    (a flag cannot split a tie); 1 with nothing planted. At ``recall`` 1 it is about
    ``planted / (planted + alike)``.

    >>> ceiling({"a": 0.5, "b": 0.8, "c": 0.8, "d": 0.5}, {"a", "b"}, {"c", "d"}), ceiling({"b": 0.8}, {"b"}, set())
    (0.5, 1.0)
    >>> ceiling({"a": 0.5, "b": 0.8, "c": 0.9, "d": 0.5}, {"a", "b", "c"}, {"d"}, recall=0.6)
    1.0
    """
    if not planted:
        return 1.0
    need, tp, fp = recall * len(planted), 0, 0
    for s in sorted({strengths.get(q, 0.0) for q in planted | alike}, reverse=True):
        gp = sum(1 for q in planted if strengths.get(q, 0.0) == s)
        ga = sum(1 for q in alike if strengths.get(q, 0.0) == s)
        if gp and tp + gp >= need:
            share = (need - tp) / gp
            return (tp + share * gp) / (tp + fp + share * (gp + ga))
        tp, fp = tp + gp, fp + ga
    return tp / (tp + fp)


def fit_threshold(cases: list[tuple[dict[str, float], set[str]]],
                  ceilings: list[float] | None = None) -> tuple[float, float]:
    """The threshold (one of the strengths seen) whose worst figure over the fitted ``cases`` (the smaller of
    precision and recall, at the rate where it is smallest) is best, and that figure; ties go to the higher
    threshold (fewer flags). The fitted cases are those whose ceiling (``ceilings``, one per case) reaches
    :data:`TARGET`, or every case where none does (or without ``ceilings``). The goal is both figures high at every
    rate where the planting allows it, so the worst one there is what is fitted.

    >>> fit_threshold([({"a": 0.5, "b": 0.8}, {"b"}), ({"a": 0.5, "b": 0.8}, {"a", "b"})], [0.5, 1.0])
    (0.5, 1.0)
    >>> fit_threshold([({"a": 0.5, "b": 0.8}, {"b"}), ({"a": 0.5, "b": 0.8}, {"a", "b"})])
    (0.8, 0.5)
    """
    fitted = [c for c, top in zip(cases, ceilings or [1.0] * len(cases)) if top >= TARGET] or cases
    best = (-1.0, 1.0)
    for t in sorted({s for strengths, _ in fitted for s in strengths.values() if s > 0}):
        worst = min(min(precision_recall(*counts(s, p, t))[:2]) for s, p in fitted)
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

    def copies(d: Dataset) -> dict[str, tuple[str, int]]:
        """Per question id: its context and first answer_start (one paragraph per question in a planting)."""
        return {q.id: (p.context, q.answers[0].answer_start) for _, p in d.iter_paragraphs() for q in p.questions}

    def read(data: Dataset, planting: str) -> dict:
        """Per rate (0 = the clean counterpart): the family's strength per question, the planted questions and the
        unplanted ones whose clean copy is the planted one (the ceiling's, :func:`ceiling`)."""
        family = PLANTINGS[planting].family
        t0 = time.perf_counter()
        graded, clean = plant_graded(data, planting, tuple(sorted({*rates, 1.0})), 0, cache_dir=args.cache_dir)
        applied = planting_applied(data, planting, 0, cache_dir=args.cache_dir)
        ids = list(applied)
        on_clean, on_planted = copies(clean), copies(graded[1.0])
        same = {q for q in ids if applied[q] and on_clean[q] == on_planted[q]}
        out = {}
        for rate, d in [*((r, graded[r]) for r in rates), (0.0, clean)]:
            rows = shortcut_evidence(d, cache_dir=args.cache_dir)
            strengths = {row.id: row.of(family).strength if row.answerable and row.of(family) else 0.0 for row in rows}
            share = planted_share(ids, planting, rate, 0)
            out[rate] = (strengths, {q for q in share if applied[q]} if rate else set(), same - share)
        print(f"  {planting}: {len(ids):,} questions, {sum(applied.values()):,} the planting edits, {len(same):,} "
              f"whose clean copy is the planted one ({time.perf_counter() - t0:.0f} s)", flush=True)
        return out

    shipped = {rule.category: rule.threshold for rule in RULES}
    thresholds = dict(shipped)
    fitting = []
    print(f"fitting split: {args.articles} articles, {len(splits[0]):,} questions", flush=True)
    if args.fit:
        for planting in plantings:
            family = PLANTINGS[planting].family
            got = read(splits[0], planting)
            tops = [ceiling(*got[r], recall=TARGET) for r in rates]
            t, worst = fit_threshold([got[r][:2] for r in rates], tops)
            steering = [r for r, top in zip(rates, tops) if top >= TARGET] or list(rates)
            thresholds[family] = t
            print(f"  {family}: fitted threshold {t:.6g} (worst of precision and recall {worst:.3f} at "
                  f"{', '.join(f'{100 * r:g} %' for r in steering)} on the fitting split; shipped {shipped[family]})",
                  flush=True)
            for rate, top in zip(rates, tops):
                strengths, planted, _ = got[rate]
                curve = [dict(zip(("threshold", "precision", "recall"), (u, *precision_recall(
                    *counts(strengths, planted, u))[:2]))) for u in sorted(set(strengths.values())) if u > 0]
                read_at = [f"{name} {u:.6g}: precision {p:.3f}, recall {r:.3f}"
                           for name, u in (("fitted", t), ("shipped", shipped[family]))
                           for p, r in [precision_recall(*counts(strengths, planted, u))[:2]]]
                print(f"    {100 * rate:g} %: ceiling {ceiling(*got[rate]):.3f} (at recall {TARGET}: {top:.3f}); "
                      + "; ".join(read_at), flush=True)
                fitting.append({"family": family, "planting": planting, "rate": rate,
                                "ceiling": ceiling(*got[rate]), "ceiling_at_target_recall": top,
                                "steers_fit": rate in steering, "planted": len(planted), "curve": curve})
    figures = []
    for k, data in enumerate(splits[1:], 1):
        print(f"validation split {k}: {args.articles} articles, {len(data):,} questions", flush=True)
        for planting in plantings:
            family = PLANTINGS[planting].family
            got = read(data, planting)
            strengths0 = got[0.0][0]
            clean_flagged = sum(1 for s in strengths0.values() if s >= thresholds[family]) / len(strengths0)
            for rate in rates:
                strengths, planted, alike = got[rate]
                tp, fp, fn = counts(strengths, planted, thresholds[family])
                p, r, f1 = precision_recall(tp, fp, fn)
                best_p = max((precision_recall(*counts(strengths, planted, t))[:2]
                              for t in sorted(set(strengths.values())) if t > 0), default=(0.0, 0.0))
                figures.append({"split": k, "family": family, "planting": planting, "rate": rate,
                                "threshold": thresholds[family], "planted": len(planted), "questions": len(strengths),
                                "precision": p, "recall": r, "f1": f1, "flagged_on_clean": clean_flagged,
                                "ceiling": ceiling(strengths, planted, alike), "alike": len(alike),
                                "ceiling_at_target_recall": ceiling(strengths, planted, alike, TARGET),
                                "best_precision_any_threshold": best_p[0], "its_recall": best_p[1]})
    print(f"\nfamily      rate  split  planted  precision  recall  ceiling (at recall {TARGET})  flagged on clean  "
          "(best precision, its recall)")
    for f in figures:
        print(f"{f['family']:<10} {f['rate']:>5.2f} {f['split']:>6} {f['planted']:>8,} {f['precision']:>10.3f} "
              f"{f['recall']:>7.3f} {f['ceiling']:>8.3f} ({f['ceiling_at_target_recall']:.3f}) "
              f"{100 * f['flagged_on_clean']:>15.1f} %  "
              f"({f['best_precision_any_threshold']:.3f}, {f['its_recall']:.3f})")
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as out:
            json.dump({"thresholds": thresholds, "fitted": args.fit, "target": TARGET, "fitting": fitting,
                       "figures": figures}, out, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
