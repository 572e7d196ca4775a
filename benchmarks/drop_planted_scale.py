"""The drop route's planted-share scale (issue 54, item 3): how many points of relative drop a shortcut planted in
1 % of the questions adds to its category's difference from the reference, measured on quick audits of graded
plantings and their clean counterparts (:mod:`mrclens.scoring.drop_scale` ships the figures)::

    PYTHONPATH=. python benchmarks/graded_audits.py --out DIR --plantings P --rates 0.5 --clean --seed S  # per planting
    PYTHONPATH=. python benchmarks/drop_planted_scale.py DIR [DIR ...] [--json OUT]

Per planting found in a folder (``DIR/<planting>-<rate>-audit`` beside its clean counterpart
``DIR/<planting>-clean-audit``, both audited with the same seed): every category's difference from the shipped
reference (points of relative drop, signed towards the bias; :func:`mrclens.scoring.against_reference.category_comparison`),
planted minus clean, and for the planting's family that difference per planted percent with its standard error
(the two audits' own per-question errors and the reference's run-to-run SD once per audit: each is one training
run; the reference's own error cancels). With several folders, the family's scale is the inverse-variance mean
of its plantings' (a slope through 0: the clean counterpart is the planting at 0 %), with each folder's value
beside it, so a folder can be read against a scale fitted without it (``--fit DIR``).
"""

from __future__ import annotations

import argparse
import json
import math
import re
from pathlib import Path


def category_figures(audit_dir: Path, reference, profile: str) -> dict[str, tuple[float, float]]:
    """Per category: ``(difference from the reference towards the bias, its standard error without the reference's
    error and the structure term, with one run-to-run SD)``, points of relative drop."""
    from mrclens.artifacts.results import read_results
    from mrclens.metrics.estimate import Estimate
    from mrclens.scoring.against_reference import compare_with_reference, relative_figure

    r = read_results(audit_dir)
    choice = reference.audit_for(profile)
    audit = choice.audit
    ablations, cats = compare_with_reference(r.ablations, r.categories, choice, model_free=r.model_free)
    by_id = {a.id: a for a in ablations}
    out = {}
    for c in cats:
        members = [by_id[i] for i in c.ablations if i in by_id and by_id[i].reference_bias is not None]
        if not members or c.reference_difference is None:
            continue
        own = []
        for a in members:
            fig = relative_figure(a)
            ref = audit.ablations[a.id]
            se = Estimate.from_interval(fig.ci_low, fig.ci_high, r.bootstrap.confidence).inflated(ref.cluster_factor).se
            own.append(se * se + (ref.run_sd or 0.0) ** 2)
        out[c.category] = (c.reference_difference, math.sqrt(sum(own)) / len(members))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", metavar="DIR")
    parser.add_argument("--profile", default="quick")
    parser.add_argument("--fit", action="append", default=[], metavar="DIR",
                        help="fit the scale on these folders only and read the others against it")
    parser.add_argument("--without-clean", action="store_true",
                        help="read a planting without its clean counterpart against the reference alone (clean = 0)")
    parser.add_argument("--json", dest="json_out")
    args = parser.parse_args(argv)

    from mrclens.artifacts.reference import read_reference
    from mrclens.selftest.plantings import PLANTINGS

    reference = read_reference()
    rows = []
    for folder in map(Path, args.folders):
        for planted in sorted(folder.glob("*-audit")):
            m = re.fullmatch(r"(.+)-([0-9.]+)-audit", planted.name)
            clean = folder / f"{m.group(1)}-clean-audit" if m else None
            if m is None or m.group(1) not in PLANTINGS or not (planted / "results.json").exists():
                continue
            name, rate = m.group(1), float(m.group(2))
            family = PLANTINGS[name].family
            p = category_figures(planted, reference, args.profile)
            if (clean / "results.json").exists():
                c = category_figures(clean, reference, args.profile)
            elif args.without_clean:  # the reference stands for the clean side (a clean audit differs by about ±5)
                c = {k: (0.0, 0.0) for k in p}
            else:
                continue
            diffs = {cat: round(p[cat][0] - c[cat][0], 2) for cat in p if cat in c}
            d, se = p[family][0] - c[family][0], math.hypot(p[family][1], c[family][1])
            rows.append({"folder": str(folder), "planting": name, "family": family, "rate": rate,
                         "clean_audited": (clean / "results.json").exists(),
                         "planted": round(p[family][0], 2), "clean": round(c[family][0], 2),
                         "difference": round(d, 2), "se": round(se, 2),
                         "per_planted_pct": round(d / (100 * rate), 4), "se_per_pct": round(se / (100 * rate), 4),
                         "all_categories": diffs})
            print(f"{folder.name} {name} {100 * rate:g} %: {family} planted {p[family][0]:+.1f}, clean "
                  f"{c[family][0]:+.1f}{'' if rows[-1]['clean_audited'] else ' (not audited: the reference)'}, difference {d:+.1f} (se {se:.1f}) = {d / (100 * rate):.3f} points per % "
                  f"(se {se / (100 * rate):.3f}); every category planted − clean: "
                  + ", ".join(f"{k} {v:+.1f}" for k, v in diffs.items()), flush=True)
    fit_rows = [r for r in rows if not args.fit or r["folder"] in {str(Path(f)) for f in args.fit}]
    scales = {}
    for family in sorted({r["family"] for r in fit_rows}):
        mine = [r for r in fit_rows if r["family"] == family]
        w = [1.0 / r["se_per_pct"] ** 2 for r in mine]
        scale = sum(wi * r["per_planted_pct"] for wi, r in zip(w, mine)) / sum(w)
        scales[family] = {"per_planted_pct": round(scale, 4), "se": round(1.0 / math.sqrt(sum(w)), 4),
                          "plantings": len(mine)}
        print(f"{family}: {scale:.3f} points of relative drop per planted % (se {1.0 / math.sqrt(sum(w)):.3f}, "
              f"{len(mine)} planted audit(s)); band ±10 % = ±{10 * scale:.1f} points", flush=True)
    for r in rows:
        if not args.fit or r in fit_rows:  # only folders the scale was not fitted on
            continue
        if r["family"] in scales:
            s = scales[r["family"]]["per_planted_pct"]
            print(f"  read against the fitted scale: {r['folder']} {r['planting']} planted {100 * r['rate']:g} % reads "
                  f"{r['difference'] / s:.0f} % [{(r['difference'] - 1.96 * r['se']) / s:.0f}, "
                  f"{(r['difference'] + 1.96 * r['se']) / s:.0f}]", flush=True)
    if args.json_out:
        Path(args.json_out).write_text(json.dumps({"rows": rows, "scales": scales}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
