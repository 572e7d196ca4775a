"""Write the shipped IDF table (issue 54, part 1): the word weights of every similarity figure.

The document frequencies of the words of the distinct sentence units (:func:`mrclens.stats.core.units_of`, the
units the figures compare) of SQuAD v1.1 dev and train but the bundled sample's articles, the data of the
shipped reference (:mod:`mrclens.stats.idf`)::

    .venv/bin/python benchmarks/make_idf.py ../shared/data/squad/dev-v1.1.json.gz \\
        ../shared/data/squad/train-v1.1.json.gz --exclude mrclens/data/squad-v1.1-sample.json.gz \\
        --out mrclens/data/idf-squad-v1.1.json.gz

Rebuild the reference's figures after it (``benchmarks/make_reference.py``, first step): they are computed
with these weights.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+", help="the corpus's dataset files")
    parser.add_argument("--exclude", help="a dataset whose articles (by title) are left out")
    parser.add_argument("--out", required=True)
    parser.add_argument("--name", default="SQuAD v1.1")
    parser.add_argument("--cache-dir", default=None)
    args = parser.parse_args(argv)

    from mrclens import __version__
    from mrclens.formats import load_dataset
    from mrclens.io_utils import sha256_file
    from mrclens.parsing import parse_texts
    from mrclens.stats.core import units_of
    from mrclens.stats.idf import write_idf_table
    from mrclens.artifacts.results import utc_now

    articles = [a for path in args.data for a in load_dataset(path).articles]
    excluded = {a.title for a in load_dataset(args.exclude).articles} if args.exclude else set()
    kept = [a for a in articles if a.title not in excluded]
    paragraphs = [p for a in kept for p in a.paragraphs]
    parsed = parse_texts([p.context for p in paragraphs], sentences=True, cache_dir=args.cache_dir,
                         progress="parsing contexts")
    texts = [p.context[s:e] for p, us in zip(paragraphs, units_of(paragraphs, parsed)) for s, e in us]
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = None
    provenance = {"source": " + ".join(Path(p).name for p in args.data),
                  "sha256": " + ".join(sha256_file(p) for p in args.data),
                  "excluded": ({"source": Path(args.exclude).name, "sha256": sha256_file(args.exclude),
                                "articles": len(articles) - len(kept)} if args.exclude else None),
                  "articles": len(kept), "paragraphs": len(paragraphs),
                  "command": "benchmarks/make_idf.py " + " ".join(argv if argv is not None else sys.argv[1:]),
                  "commit": commit, "date": utc_now(), "mrclens_version": __version__}
    table = write_idf_table(args.name, texts, args.out, provenance)
    print(f"{args.out}: {table.documents:,} distinct sentence units, {len(table.df):,} words "
          f"({len(kept)} articles, {len(paragraphs):,} paragraphs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
