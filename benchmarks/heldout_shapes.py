"""Clean counterparts of shapes no structure term was measured on (issue 41: the term of another context length
is validated on data it was not fitted to).

Built from the bundled sample by the rules of :func:`mrclens.selftest.plantings.plant_shape` (one gold answer,
exact offsets, one paragraph copy per question, draws seeded by question id) and audited with the quick
profile; the audit's category verdicts are printed (a clean counterpart must read none "more" or "less"):

* ``short2``: each context cut to 2 consecutive sentence units holding the answer (``short`` keeps 3), the
  window drawn among those that hold it; a context of at most 2 units is kept whole;
* ``long3``: each context joined with two other paragraphs of its article, drawn at random, the question's own
  paragraph placed first, second or third at random (``long`` joins one: about 9 units; this about 10–14);
  a question of an article with fewer than three paragraphs keeps its context.

Seed 3 (the default) is an article split no counterpart of the shipped reference used::

    .venv/bin/python benchmarks/heldout_shapes.py short2 --out /tmp/heldout [--seed 3] [--build-only]

Writes ``OUT/SHAPE.json`` (the dataset) and ``OUT/SHAPE-audit/`` (the audit; about 6 min for ``short2``, 21 min
for ``long3`` on 2 cores).
"""

from __future__ import annotations

import argparse
from pathlib import Path


def _short2(item, rng, _contexts):
    from mrclens.perturbations.base import copy_question
    from mrclens.squad import Answer, Paragraph

    n, k = len(item.units), 2
    starts = list(range(max(0, item.answer_unit - k + 1), min(item.answer_unit, n - k) + 1))
    start = rng.choice(starts) if n > k else 0  # drawn always: the same draws whatever the context
    if n <= k:
        return item.paragraph, "already_short"
    s, e = item.units[start][0], item.units[start + k - 1][1]
    cut = Answer(item.answer.text, item.answer.answer_start - s)
    return Paragraph(item.paragraph.context[s:e], [copy_question(item.question, answers=[cut])]), None


def _long3(item, rng, contexts):
    from mrclens.perturbations.base import copy_question
    from mrclens.squad import Answer, Paragraph

    others = [c for c in contexts.get(item.title, []) if c != item.paragraph.context]
    if len(others) < 2:
        return item.paragraph, "fewer_than_three_paragraphs"
    parts = rng.sample(others, 2)
    slot = rng.randrange(3)  # where the question's own paragraph goes among the three
    parts.insert(slot, item.paragraph.context)
    offset = sum(len(p) + 1 for p in parts[:slot])
    moved = Answer(item.answer.text, item.answer.answer_start + offset)
    return Paragraph(" ".join(parts), [copy_question(item.question, answers=[moved])]), None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shape", choices=["short2", "long3"])
    parser.add_argument("--out", required=True, help="folder for the dataset and its audit")
    parser.add_argument("--seed", type=int, default=3, help="the shape's draws and the audit's split (default 3)")
    parser.add_argument("--build-only", action="store_true", help="write the dataset, do not audit it")
    args = parser.parse_args(argv)

    from mrclens.audit.span import SAMPLE_PATH, AuditOptions, run_audit
    from mrclens.formats import load_dataset
    from mrclens.selftest import plantings
    from mrclens.squad import dataset_bytes

    shapes = {"short2": plantings.Shape("short2", "2 sentence units holding the answer", _short2),
              "long3": plantings.Shape("long3", "joined with two other paragraphs of its article", _long3)}
    plantings.SHAPES.setdefault(args.shape, shapes[args.shape])  # plant_shape reads its shapes from SHAPES
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    data, unchanged = plantings.plant_shape(load_dataset(SAMPLE_PATH), args.shape, seed=args.seed)
    print(f"{args.shape}: questions that kept their context, by reason: {unchanged or 'none'}", flush=True)
    (out / f"{args.shape}.json").write_bytes(dataset_bytes(data))
    if args.build_only:
        return 0
    results = run_audit(AuditOptions(train=str(out / f"{args.shape}.json"), out=str(out / f"{args.shape}-audit"),
                                     seed=args.seed, profile="quick", progress=False), echo=lambda _: None)
    print(f"context length {results.context_shape}")
    for c in results.categories:
        print(f"  {c.category:<11} {c.reference_bias}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
