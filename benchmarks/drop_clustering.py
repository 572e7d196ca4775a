"""How much wider the drops' intervals are when questions are resampled by article (issue 41, part 3).

An audit's drop intervals come from a paired bootstrap over *questions* (:mod:`mrclens.metrics.bootstrap`);
questions of one article share its text and topic, so they are not independent. For each ablation this
script measures, on audit folders (their ``question-scores.json`` and ``perturbed/`` sets), the variance of
the per-question drop's mean clustered by article (the cluster-robust "sandwich" variance, Liang & Zeger
1986, with the ``G/(G−1)`` small-sample correction) against the per-question variance, and pools them over
the audits: ``factor = sqrt(Σ_audits V_clustered / Σ_audits V_per_question)``, floored at 1 (clustering is
never read as narrowing an interval). Pooling over many audits is what makes the factor usable: one quick
audit evaluates 8 articles, so its own clustered variance rests on 8 sums and moves by a factor of 3
between audits (BENCHMARKS.md, "Clustering factors"); ``k`` audits give ``8k`` clusters.

The per-question value is ``control F1 − ablation F1`` for an ablation with a matched control (its relative
excess drop divides by the baseline F1 taken as fixed) and, for a relative drop ``(Σb − Σp) / Σb``, its
linearised influence ``(b − p) − R·b`` (the delta method for a ratio of means, ``R`` the relative drop as a
fraction), F1 in [0, 1], draw 0. Writes (``--out``)::

    {"method": ..., "audits": [folders], "ablations": {id: {"factor", "clusters", "questions",
                                                            "per_audit": [ratio of SEs, ...]}}}

which ``benchmarks/make_reference.py --cluster-factors FILE`` stores per ablation in the reference
(``ReferenceDrop.cluster_factor``), and every comparison multiplies the audited side's standard error by
(:mod:`mrclens.scoring.against_reference`)::

    .venv/bin/python benchmarks/drop_clustering.py AUDIT_DIR ... --out /tmp/cluster-factors.json
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path

import numpy as np


def _json(path: Path):
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return json.load(fh)


def _variances(x: np.ndarray, clusters: np.ndarray) -> tuple[float, float, int]:
    """``(clustered variance of the mean, per-question variance of the mean, clusters)``."""
    n = len(x)
    resid = x - x.mean()
    sums = np.array([resid[clusters == c].sum() for c in np.unique(clusters)])
    g = len(sums)
    clustered = g / (g - 1) * float((sums ** 2).sum()) / n ** 2 if g > 1 else float("nan")
    return clustered, float(x.var(ddof=1)) / n, g


def audit_variances(audit: Path) -> dict[str, tuple[float, float, int, int]]:
    """Per ablation of one audit folder: ``(clustered variance, per-question variance, clusters, questions)``."""
    manifest = _json(audit / "perturbed" / "manifest.json")
    sets = _json(audit / "question-scores.json")["sets"]
    f1 = {name: dict(zip(s["ids"], s["f1"])) for name, s in sets.items()}
    title = {}
    for name in ("original", "original-truncated"):
        data = _json(audit / "perturbed" / manifest["sets"][name]["file"])
        for art in data["data"]:
            for p in art["paragraphs"]:
                for q in p["qas"]:
                    title[q["id"]] = art["title"]
    controls = {e["control_of"]: aid for aid, e in manifest["ablations"].items() if e.get("control_of")}
    out = {}
    for aid, entry in manifest["ablations"].items():
        if entry.get("control_of") or aid not in f1:
            continue
        other = f1.get(controls[aid]) if aid in controls else f1.get(entry["baseline_set"])
        if other is None:
            continue
        ids = [q for q in f1[aid] if q in other and q in title]
        if len(ids) < 3:
            continue
        x = np.array([other[q] - f1[aid][q] for q in ids])
        if aid not in controls:   # a relative drop, (Σb − Σp) / Σb: its linearised influence (b − p) − R b
            b = np.array([other[q] for q in ids])
            if b.sum() <= 0:
                continue
            x = x - (x.sum() / b.sum()) * b
        clusters = np.array([title[q] for q in ids])
        v_c, v_q, g = _variances(x, clusters)
        out[aid] = (v_c, v_q, g, len(ids))
    return out


def pooled_factors(audits: list[Path]) -> dict[str, dict]:
    """Per ablation: the pooled factor (module docstring), clusters and questions summed, per-audit ratios."""
    per: dict[str, list[tuple[float, float, int, int]]] = {}
    for audit in audits:
        for aid, v in audit_variances(audit).items():
            per.setdefault(aid, []).append(v)
    out = {}
    for aid, rows in per.items():
        ok = [r for r in rows if np.isfinite(r[0]) and r[1] > 0]
        if not ok:
            continue
        factor = float(np.sqrt(sum(r[0] for r in ok) / sum(r[1] for r in ok)))
        out[aid] = {"factor": round(max(factor, 1.0), 4), "unfloored": round(factor, 4),
                    "clusters": sum(r[2] for r in ok), "questions": sum(r[3] for r in ok),
                    "per_audit": [round(float(np.sqrt(r[0] / r[1])), 3) for r in ok]}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("audits", nargs="+", metavar="AUDIT_DIR")
    parser.add_argument("--out", help="write the factors as JSON here (for make_reference.py --cluster-factors)")
    args = parser.parse_args(argv)
    factors = pooled_factors([Path(a) for a in args.audits])
    for aid, f in factors.items():
        per = sorted(f["per_audit"])
        print(f"{aid:>4}: pooled clustered/per-question SE {f['unfloored']:.2f} (used {f['factor']:.2f}); "
              f"{f['clusters']} articles, {f['questions']} questions over {len(per)} audits; "
              f"one audit's ratio {per[0]:.2f} … {per[-1]:.2f} (median {per[len(per) // 2]:.2f})")
    if args.out:
        doc = {"method": "sqrt(sum of article-clustered sandwich variances (G/(G-1)) / sum of per-question "
                         "variances) over the audits, floored at 1", "audits": args.audits, "ablations": factors}
        Path(args.out).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
