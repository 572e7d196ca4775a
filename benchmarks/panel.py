"""The panel of public datasets (issue 32): what MRCLens's model-free verdicts say about each dataset
under ``../shared/data``, beside the bundled SQuAD v1.1 reference::

    .venv/bin/python benchmarks/panel.py [--data-root ../shared/data] [--markdown]

Per dataset: its language (:mod:`mrclens.languages`; a dataset MRCLens cannot parse is reported as
refused, as ``mrclens check`` and ``audit`` refuse it), its questions, mean sentence units per
context, and per bias category the chance-corrected figure (the answer sentence's percentile rank,
50 = chance) beside the reference's weighted to its sentence counts, with the comparison — the
model-free route of an audit's verdict (:func:`mrclens.scoring.model_free.model_free_figures`,
intervals clustered by article) — plus the raw shares beside their chance level. The exit code of
``mrclens check`` with the default rules is run separately (README, "A panel of public datasets").
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

#: ``(name, path under the data root)``: the span datasets of the panel.
PANEL = (
    ("SQuAD v1.1 dev", "squad/dev-v1.1.json.gz"),
    ("SQuAD v1.1 train", "squad/train-v1.1.json.gz"),
    ("SQuAD v2.0 dev (half)", "squad-v2-half/dev-v2.0-cs224n-half.json.gz"),
    ("MRQA SQuAD dev", "mrqa/dev/SQuAD.jsonl.gz"),
    ("MRQA DROP dev", "mrqa/dev-v2-20190529/DROP.jsonl.gz"),
    ("MRQA DuoRC ParaphraseRC dev", "mrqa/dev-v2-20190529/DuoRC.ParaphraseRC.jsonl.gz"),
    ("Natural Questions dev subset", "natural-questions/nq_dev_subset_v2.json.gz"),
    ("XQuAD es", "xquad/xquad.es.json.gz"),
    ("XQuAD ru", "xquad/xquad.ru.json.gz"),
    ("XQuAD ar", "xquad/xquad.ar.json.gz"),
    ("XQuAD th", "xquad/xquad.th.json.gz"),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-root", default=os.environ.get("MRCLENS_SHARED_DATA", "../shared/data"))
    parser.add_argument("--only", default=None, help="comma-separated names")
    parser.add_argument("--extra", action="append", default=[], metavar="NAME=PATH",
                        help="a further dataset (e.g. XQuAD en, cut from SQuAD dev by XQuAD's question ids)")
    args = parser.parse_args(argv)

    from mrclens.artifacts.reference import read_reference
    from mrclens.formats import load_dataset
    from mrclens.languages import file_languages
    from mrclens.scoring.model_free import cluster_standard_errors, model_free_figures
    from mrclens.stats import compute_stats, compute_stats_per_article

    reference = read_reference()
    extra = [tuple(e.split("=", 1)) for e in args.extra]
    for name, rel in (*PANEL, *extra):
        if args.only and name not in args.only.split(","):
            continue
        path = Path(args.data_root) / rel
        if not path.exists():
            print(f"{name}: {path} absent")
            continue
        report = file_languages(path)
        if not report.readable:
            print(f"| {name} | {report.problem()} | refused (exit 2) |", flush=True)
            continue
        data = load_dataset(path, on_invalid="skip")
        stats = compute_stats(data, progress=False)
        clusters = cluster_standard_errors(compute_stats_per_article(data)) if len(data.articles) < 3000 else None
        units = stats["answer_position"]["sentence_index"]
        figs = model_free_figures(stats, reference, clusters=clusters)
        cells = []
        for f in figs:
            short = f.path.split(".")[-1]
            if f.role == "verdict":
                cells.append(f"{f.category} {short} {f.value:.1f} vs {f.reference_value:.1f} "
                             f"[{f.difference_ci_low:+.1f}, {f.difference_ci_high:+.1f}] {f.comparison}")
            elif f.chance is not None:
                cells.append(f"{short} {f.value:.1f} (chance {f.chance:.1f})")
        print(f"| {name} | {stats['counts']['questions']:,} q, {len(data.articles):,} articles, "
              f"answer sentence index mean {units['mean']:.2f} | " + " ; ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
