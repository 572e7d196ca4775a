"""Print an audit's results as the Markdown tables of BENCHMARKS.md (issues 16, 17).

Usage::

    .venv/bin/python benchmarks/audit_table.py AUDIT_DIR [AUDIT_DIR ...]

Per ablation: F1 drop with its CI, the matched control's drop, the excess drop with its CI, the
relative drop (% of the baseline F1) with its CI, the spread over draws (min to max, SD), the
evidence level and the comparison with the reference audit; per category the mean drop, level and
comparison; then the wall time per step (``results.json`` → ``step_seconds``) and the training
record. With two or more audits, a last table puts their evidence levels and reference verdicts side
by side (seed stability).
"""

from __future__ import annotations

import sys


def _n(x, fmt="{:.1f}"):
    return "–" if x is None else fmt.format(x)


def _ci(lo, hi):
    return "" if lo is None else f" [{lo:.1f}, {hi:.1f}]"


def _vs(e):
    if e.reference_bias is None:
        return "–"
    if getattr(e, "reference_basis", None) == "model-free":
        return f"{e.reference_bias} (data)"
    if e.reference_difference is None:
        return e.reference_bias
    return f"{e.reference_bias} ({e.reference_difference:+.1f}{_ci(e.reference_difference_ci_low, e.reference_difference_ci_high)})"


def table(results) -> str:
    out = []
    orig = results.sets.get("original")
    trunc = results.sets.get("original-truncated")
    training = results.audit.training if results.audit is not None else None
    out.append(f"Reader: original F1 {_n(orig.f1 if orig else None, '{:.2f}')} (EM {_n(orig.exact_match if orig else None, '{:.2f}')}, "
               f"{orig.n if orig else 0:,} questions); truncated-set F1 {_n(trunc.f1 if trunc else None, '{:.2f}')}"
               + (f"; training: {training.summary()}" if training is not None else ""))
    out.append("")
    out.append("| ablation | changed / n | F1 drop [CI] | control drop | excess [CI] | relative % [CI] | spread over draws | evidence | vs reference |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for a in results.ablations:
        if a.control_of is not None:
            continue
        if not a.evaluated:
            out.append(f"| {a.id} {a.name} | | not evaluated | | | | | | |")
            continue
        control = f"{a.control}: {_n(a.control_f1_drop)}" if a.control else "–"
        excess = f"{_n(a.excess_drop)}{_ci(a.excess_ci_low, a.excess_ci_high)}" if a.excess_drop is not None else (
            f"recovers {_n(a.recovered_share)}% of {a.control}" if a.recovered_share is not None else "–")
        spread = (f"{_n(a.f1_drop_min)} to {_n(a.f1_drop_max)} (SD {_n(a.f1_drop_sd)})" if a.f1_drop_sd is not None else "–")
        level = a.evidence or "–"
        if a.unstable:
            level += " (unstable)"
        cover = f"{a.changed:,} / {a.n:,}" if a.changed is not None and a.n else "–"
        out.append(f"| {a.id} {a.name} | {cover} | {_n(a.f1_drop)}{_ci(a.ci_low, a.ci_high)} | {control} | {excess} | "
                   f"{_n(a.relative_drop)}{_ci(a.relative_ci_low, a.relative_ci_high)} | {spread} | {level} | {_vs(a)} |")
    out.append("")
    out.append("| category | mean F1 drop [CI] | evidence | vs reference |")
    out.append("|---|---|---|---|")
    for c in results.categories:
        level = (c.evidence or "–") + (" (unstable)" if c.unstable else "")
        out.append(f"| {c.category} | {_n(c.f1_drop)}{_ci(c.ci_low, c.ci_high)} | {level} | {_vs(c)} |")
    out.append("")
    out.append("Wall time per step (s): " + ", ".join(f"{k} {v:,.1f}" for k, v in results.step_seconds.items()))
    return "\n".join(out)


def stability(runs) -> str:
    names = [f"run {i}" for i in range(len(runs))]
    out = ["| ablation / category | " + " | ".join(f"{n} evidence | {n} vs reference" for n in names) + " | same? |",
           "|---|" + "---|---|" * len(runs) + "---|"]
    entries = [(a.id, [r.ablation(a.id) for r in runs]) for a in runs[0].ablations if a.control_of is None]
    entries += [(c.category, [next((x for x in r.categories if x.category == c.category), None) for r in runs])
                for c in runs[0].categories]
    for key, es in entries:
        cells = " | ".join(f"{(e.evidence if e else '–')} | {(e.reference_bias if e and e.reference_bias else '–')}" for e in es)
        same = len({(e.evidence, e.reference_bias) for e in es if e}) == 1
        out.append(f"| {key} | {cells} | {'yes' if same else '**no**'} |")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    from mrclens.artifacts.results import read_results

    if not argv:
        print(__doc__)
        return 2
    runs = [read_results(d) for d in argv]
    for d, r in zip(argv, runs):
        print(f"## {d}\n")
        print(table(r))
        print()
    if len(runs) > 1:
        print("## Seed stability\n")
        print(stability(runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
