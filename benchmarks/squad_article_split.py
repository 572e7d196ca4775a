"""A clean counterpart of SQuAD v1.1 for the ``paper-parallel`` profile's structure term (issue 41): the same
length, layout and source, another article split.

``--articles`` train articles drawn with ``random.Random(SEED)`` become the evaluation file; the other train
articles plus all dev articles are the training file (442 articles, as train-v1.1). Articles are written
unmodified. The shipped reference's three counterparts are seeds 2041, 2042 and 2043 (48 articles each),
audited with ``--seed`` 0, 1 and 2::

    .venv/bin/python benchmarks/squad_article_split.py ../shared/data/squad/train-v1.1.json.gz \\
        ../shared/data/squad/dev-v1.1.json.gz --seed 2042 --out /tmp/ppcp2
    mrclens audit /tmp/ppcp2/train.json --dev /tmp/ppcp2/dev.json --out /tmp/ppcp2/audit --profile paper-parallel --seed 1

(about 45 min per audit on 2 cores; BENCHMARKS.md, "The structure term").
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("train", help="SQuAD v1.1 train (JSON, .gz allowed)")
    parser.add_argument("dev", help="SQuAD v1.1 dev (JSON, .gz allowed)")
    parser.add_argument("--seed", type=int, required=True, help="draws the evaluation articles")
    parser.add_argument("--articles", type=int, default=48, help="train articles that become the evaluation file")
    parser.add_argument("--out", required=True, help="folder for train.json and dev.json (must not hold them)")
    args = parser.parse_args(argv)

    def load(path: str) -> dict:
        with (gzip.open if path.endswith(".gz") else open)(path, "rt", encoding="utf-8") as f:
            return json.load(f)

    train, dev = load(args.train), load(args.dev)
    if not 0 < args.articles < len(train["data"]):
        parser.error(f"--articles must lie between 1 and {len(train['data']) - 1}")
    out = Path(args.out)
    if (out / "train.json").exists() or (out / "dev.json").exists():
        parser.error(f"{out} already holds train.json or dev.json (nothing is overwritten)")
    held = set(random.Random(args.seed).sample(range(len(train["data"])), args.articles))
    evaluation = [a for i, a in enumerate(train["data"]) if i in held]
    training = [a for i, a in enumerate(train["data"]) if i not in held] + dev["data"]
    from mrclens.io_utils import atomic_write_bytes

    out.mkdir(parents=True, exist_ok=True)
    for name, data in (("train.json", training), ("dev.json", evaluation)):
        atomic_write_bytes(out / name, json.dumps({"version": train["version"], "data": data}).encode("utf-8"))
    questions = lambda d: sum(len(p["qas"]) for a in d for p in a["paragraphs"])  # noqa: E731
    print(f"training: {len(training)} articles, {questions(training):,} questions; "
          f"evaluation: {len(evaluation)} articles, {questions(evaluation):,} questions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
