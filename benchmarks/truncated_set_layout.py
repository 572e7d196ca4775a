"""Why e9 (and the other truncated-set drops) read differently on data of another layout (issue 32).

For each audit folder (its ``perturbed/original-truncated.json`` and ``question-scores.json``) prints:

* where the truncated set's answers sit: the share of questions whose answer is in the context's
  first sentence unit, elsewhere in its first half, or in its second half
  (:func:`mrclens.units.sentence_units`, as e9 uses them);
* an ablation's relative excess drop (``100 × mean(control F1 − ablation F1) / mean(baseline F1)``,
  per question, unrounded, draw 0) in each of those strata, overall, and re-weighted to the answer-unit
  shares of the ``--reference-audit`` folders (direct standardisation);
* with ``--first-questions DATA``: the same figure on the questions that are their paragraph's first
  in ``DATA`` (e.g. the bundled sample), and on the others;
* the article-clustered standard error of the per-question excess over the per-question one
  (cluster-robust "sandwich" SE, Liang & Zeger 1986, with the G/(G−1) correction).

    .venv/bin/python benchmarks/truncated_set_layout.py --ablation e9 \\
        --reference-audit /tmp/oos/q0 --reference-audit /tmp/oos/q1 --reference-audit /tmp/oos/q2 \\
        --first-questions mrclens/data/squad-v1.1-sample.json.gz AUDIT_DIR ...

Figures in percent of the baseline F1 (relative excess drop) and percent of questions (shares).
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path

import numpy as np

STRATA = ("first unit", "first half", "second half")


def _json(path: Path):
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return json.load(fh)


def _rows(audit: Path, ablation: str, cache_dir: str | None):
    """Per question of the truncated set: ``(id, stratum, article, baseline F1, ablation F1, control F1)``."""
    from mrclens.parsing import parse_texts
    from mrclens.units import answer_unit_indices, sentence_units

    sets = _json(audit / "question-scores.json")["sets"]
    data = _json(audit / "perturbed" / "original-truncated.json")
    items = [(q["id"], art["title"], p["context"], q["answers"][0]) for art in data["data"] for p in art["paragraphs"]
             for q in p["qas"] if q.get("answers")]
    parses = parse_texts([c for _, _, c, _ in items], sentences=True, cache_dir=cache_dir)
    f1 = {name: dict(zip(sets[name]["ids"], sets[name]["f1"])) for name in
          ("original-truncated", ablation, "c" + ablation[1:])}
    base, abl, ctl = f1["original-truncated"], f1[ablation], f1["c" + ablation[1:]]
    rows = []
    for (qid, title, context, a), parsed in zip(items, parses):
        span = (a["answer_start"], a["answer_start"] + len(a["text"]))
        units = sentence_units(context, parsed, [span])
        hit = sorted(answer_unit_indices(units, [span]))
        if not hit or qid not in abl or qid not in ctl:
            continue
        i, n = hit[0], len(units)
        stratum = 0 if i == 0 else (1 if i < (n - 1) / 2 else 2)
        rows.append((qid, stratum, title, base[qid], abl[qid], ctl[qid]))
    return rows


@np.errstate(invalid="ignore", divide="ignore")
def _relative(rows, weights=None) -> float:
    if not rows:
        return float("nan")
    if weights is None:
        return 100.0 * np.mean([c - a for *_, a, c in rows]) / np.mean([b for *_, b, _, _ in rows])
    num = den = 0.0
    for s, w in enumerate(weights):
        part = [r for r in rows if r[1] == s]
        if part and w > 0:
            num += w * np.mean([c - a for *_, a, c in part])
            den += w * np.mean([b for *_, b, _, _ in part])
    return 100.0 * num / den if den else float("nan")


def _design_effect(rows) -> float:
    x = np.array([c - a for *_, a, c in rows])
    articles = np.array([r[2] for r in rows])
    resid = x - x.mean()
    sums = np.array([resid[articles == t].sum() for t in np.unique(articles)])
    g = len(sums)
    se_cluster = np.sqrt(g / (g - 1) * (sums ** 2).sum()) / len(x)
    return float(se_cluster / (x.std(ddof=1) / np.sqrt(len(x))))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("audits", nargs="+", metavar="AUDIT_DIR")
    parser.add_argument("--ablation", default="e9", help="an ablation with a matched control on the truncated set")
    parser.add_argument("--reference-audit", action="append", default=[], metavar="AUDIT_DIR",
                        help="audits whose answer-unit shares the re-weighted figure uses")
    parser.add_argument("--first-questions", metavar="DATA", help="SQuAD JSON whose paragraphs' first questions to split by")
    parser.add_argument("--cache-dir", default=None)
    args = parser.parse_args(argv)

    weights = None
    if args.reference_audit:
        strata = [r[1] for d in args.reference_audit for r in _rows(Path(d), args.ablation, args.cache_dir)]
        weights = np.bincount(strata, minlength=3) / len(strata)
        print(f"reference answer-unit shares ({', '.join(STRATA)}): " + " / ".join(f"{100 * w:.0f}" for w in weights))
    first = None
    if args.first_questions:
        data = _json(Path(args.first_questions))
        first = {p["qas"][0]["id"] for art in data["data"] for p in art["paragraphs"] if p["qas"]}
    for d in args.audits:
        rows = _rows(Path(d), args.ablation, args.cache_dir)
        shares = np.bincount([r[1] for r in rows], minlength=3) / len(rows)
        per = " / ".join(f"{_relative([r for r in rows if r[1] == s]):.1f}" if shares[s] else "–" for s in range(3))
        line = (f"{d}: n {len(rows)}, shares {' / '.join(f'{100 * x:.0f}' for x in shares)} %; {args.ablation} "
                f"{_relative(rows):.1f} (by stratum {per})")
        if weights is not None:
            line += f", re-weighted {_relative(rows, weights):.1f}"
        if first is not None:
            mine = [r for r in rows if r[0] in first]
            rest = [r for r in rows if r[0] not in first]
            line += f", first questions {_relative(mine):.1f} (n {len(mine)}), others {_relative(rest):.1f} (n {len(rest)})"
        line += f"; article-clustered SE / per-question SE {_design_effect(rows):.2f}"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
