"""The audit route's false flags on clean SQuAD subsets the reference audit never saw (issue 54, part 6).

Each subset is ``--size`` articles of SQuAD v1.1 train drawn as :mod:`benchmarks.false_flags` draws its subsets
(``random.Random(i).sample`` of the train titles without the bundled sample's, ``i`` in ``--subsets``; the default
30–35 are among the subsets the data route's spreads were not fitted on), here also without the 40 articles the
quick reference audit was run on (:func:`make_reference_sample.reference_article_indices`), so that the drops are out
of sample; ``--keep-reference-articles`` draws from :mod:`benchmarks.false_flags`'s pool as it is (the run of
2026-12-01: its subsets 30–35 share 3–7 of their 40 articles with the reference audit's). Each is written to
``OUT/subset-<i>.json`` and audited as ``mrclens audit`` audits one file (split by article title, 20 % evaluation,
``--profile``) into ``OUT/subset-<i>-audit``; finished audits are reused. The data's own figures are read against
the shipped model-free reference as an audit reads them (the false flags of that route alone, each subset removed
from the reference, are :mod:`benchmarks.false_flags`'s).

Prints per subset each category's verdict and basis, the drops-only reading (the categories compared with the
reference audit without the data's figures), then per route the count read "more" or "less" in any category with
its Clopper–Pearson 95 % interval::

    PYTHONPATH=. .venv/bin/python benchmarks/clean_audits.py ../shared/data/squad/train-v1.1.json.gz \\
        --exclude mrclens/data/squad-v1.1-sample.json.gz --out DIR --subsets 30-35
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from false_flags import clopper_pearson  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("train", help="SQuAD v1.1 train (subsets are drawn from it)")
    parser.add_argument("--exclude", help="a file whose articles are left out of the pool (the bundled sample)")
    parser.add_argument("--out", required=True)
    parser.add_argument("--subsets", default="30-35", help="subset indices, FIRST-LAST")
    parser.add_argument("--size", type=int, default=40)
    parser.add_argument("--profile", default="quick")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cache-dir", default=None)
    parser.add_argument("--keep-reference-articles", action="store_true",
                        help="draw from false_flags.py's pool as it is (the reference audit's articles kept in it)")
    args = parser.parse_args(argv)

    from mrclens.artifacts.reference import read_reference
    from mrclens.audit.span import AuditOptions, run_audit
    from mrclens.formats import load_dataset
    from mrclens.scoring.against_reference import compare_with_reference
    from mrclens.scoring.model_free import ContextShape
    from mrclens.squad import Dataset, dataset_bytes
    from mrclens.verdicts import differs

    train = load_dataset(args.train)
    excluded = {a.title for a in load_dataset(args.exclude).articles} if args.exclude else set()
    if not args.keep_reference_articles:  # the quick reference audit's 40 articles: the drops out of sample
        from make_reference_sample import reference_article_indices

        excluded |= {train.articles[i].title for i in reference_article_indices(len(train.articles))}
    pool = sorted(a.title for a in train.articles if a.title not in excluded)
    by_title = {a.title: a for a in train.articles}
    first, _, last = args.subsets.partition("-")
    indices = range(int(first), int(last or first) + 1)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    choice = read_reference().audit_for(args.profile)
    flagged = {"verdict": 0, "drops": 0}
    for i in indices:
        chosen = set(random.Random(i).sample(pool, args.size))
        path = out / f"subset-{i}.json"
        if not path.exists():
            path.write_bytes(dataset_bytes(Dataset([by_title[t] for t in pool if t in chosen], train.version)))
        t0 = time.perf_counter()
        r = run_audit(AuditOptions(train=str(path), out=str(out / f"subset-{i}-audit"), seed=args.seed,
                                   profile=args.profile, cache_dir=args.cache_dir, progress=False),
                      echo=lambda _: None)
        shape = ContextShape(**r.context_shape) if r.context_shape else None
        _, drops = compare_with_reference(r.ablations, r.categories, choice, shape=shape)
        cells, drops_of = [], {d.category: d for d in drops}
        for c in r.categories:
            d = drops_of[c.category]
            cells.append(f"{c.category} {c.reference_bias} ({c.reference_basis}); drops {d.reference_bias}"
                         + (f" {d.reference_difference:+.1f} [{d.reference_difference_ci_low:+.1f}, "
                            f"{d.reference_difference_ci_high:+.1f}]" if d.reference_difference is not None else ""))
        flagged["verdict"] += any(differs(c.reference_bias) for c in r.categories)
        flagged["drops"] += any(differs(d.reference_bias) for d in drops)
        f1 = r.sets["original"].f1
        print(f"subset {i}: F1 {f1:.1f}; " + "; ".join(cells) + f"  [{time.perf_counter() - t0:.0f} s]", flush=True)
    n = len(indices)
    for route, k in flagged.items():
        lo, hi = clopper_pearson(k, n)
        print(f"{route}: {k} of {n} audits read 'more' or 'less' in some category ({100 * k / n:.0f} %, 95 % CI "
              f"{100 * lo:.1f}–{100 * hi:.1f} %)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
