"""Write the out-of-sample SQuAD v1.1 sample the quick-profile reference is audited on (issue 32, part 5).

The bundled sample (``mrclens/data/squad-v1.1-sample.json.gz``) holds 40 articles of SQuAD v1.1
train chosen with ``random.Random(2022).sample(range(442), 40)``. The quick profile's reference
drops must not come from the data they judge, so they are audited on 40 *other* articles of the
same file: ``random.Random(2032).sample`` over the 402 articles the sample does not hold, kept in
file order, unmodified::

    .venv/bin/python benchmarks/make_reference_sample.py ../shared/data/squad/train-v1.1.json.gz \\
        --out /tmp/oos/squad-v1.1-reference-sample.json.gz

Raises SystemExit (2) when the input is not SQuAD v1.1 train (442 articles).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from pathlib import Path

BUNDLED_SEED, REFERENCE_SEED, N_ARTICLES = 2022, 2032, 40


def reference_article_indices(n_total: int = 442) -> list[int]:
    """The article indices of the reference sample: 40 of those the bundled sample does not hold, sorted."""
    bundled = set(random.Random(BUNDLED_SEED).sample(range(n_total), N_ARTICLES))
    rest = [i for i in range(n_total) if i not in bundled]
    return sorted(random.Random(REFERENCE_SEED).sample(rest, N_ARTICLES))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("train", help="SQuAD v1.1 train-v1.1.json(.gz)")
    parser.add_argument("--out", required=True, help="the sample to write (.json or .json.gz); never overwritten")
    args = parser.parse_args(argv)
    opener = gzip.open if args.train.endswith(".gz") else open
    with opener(args.train, "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    if len(data.get("data", [])) != 442:
        print(f"{args.train}: expected the 442 articles of SQuAD v1.1 train, found {len(data.get('data', []))}",
              file=sys.stderr)
        return 2
    out = Path(args.out)
    if out.exists():
        print(f"{out}: exists; not overwritten", file=sys.stderr)
        return 2
    articles = [data["data"][i] for i in reference_article_indices()]
    sample = {"version": data.get("version", "1.1"), "data": articles}
    tmp = out.with_name(out.name + ".tmp")
    with (gzip.open if out.suffix == ".gz" else open)(tmp, "wt", encoding="utf-8") as fh:
        json.dump(sample, fh, ensure_ascii=False)
    tmp.replace(out)
    n_q = sum(len(p["qas"]) for a in articles for p in a["paragraphs"])
    print(f"{out}: {len(articles)} articles, {n_q:,} questions: {', '.join(a['title'] for a in articles)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
