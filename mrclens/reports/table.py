"""The drop table for the terminal (``mrclens audit`` / ``mrclens evaluate`` print it).

Drops are in F1 points; ``[low, high]`` is the paired bootstrap CI at the results' confidence
level; ``rel. %`` is the drop as a percentage of the baseline F1; ``excess`` is an insertion
ablation's drop minus its matched control's (``control`` marks the control rows); ``-`` marks
what was not evaluated. For SQuAD v2.0 data (unanswerable questions), HasAns/NoAns scores and
drops follow (:mod:`mrclens.reports.no_answer`).
"""

from __future__ import annotations

from typing import Any

from mrclens.artifacts.results import Results
from mrclens.scoring.bootstrap import confidence_label


def _num(x: Any, fmt: str = "{:.1f}") -> str:
    return "-" if x is None else fmt.format(x)


def format_table(results: Results) -> str:
    """The baseline scores, one row per ablation and one per bias category, as aligned text."""
    import pandas as pd

    model = results.model
    lines = [f"Model: {model.name} ({model.kind})"]
    for name in ("original", "original-truncated"):
        s = results.sets.get(name)
        if s is not None:
            state = f"EM {_num(s.exact_match)}  F1 {_num(s.f1)}" if s.evaluated else "not evaluated"
            lines.append(f"  {name}: {s.n:,} questions, {state}")
    ci = confidence_label(results.bootstrap.confidence)
    rows = []
    for a in results.ablations:
        co = a.changed_only
        rows.append(
            {
                "id": a.id,
                "ablation": a.name,
                "category": a.category,
                "set": a.eval_set,
                "n": a.n,
                "changed": "-" if a.changed is None else a.changed,
                "F1": _num(a.f1),
                "F1 drop": _num(a.f1_drop, "{:+.1f}") if a.evaluated else "not evaluated",
                ci: f"[{_num(a.ci_low)}, {_num(a.ci_high)}]" if a.evaluated else "",
                "rel. %": _num(a.relative_drop, "{:+.0f}"),
                "drop (changed)": _num(co.f1_drop if co else None, "{:+.1f}"),
                "excess": (f"{_num(a.excess_drop, '{:+.1f}')} [{_num(a.excess_ci_low)}, {_num(a.excess_ci_high)}]"
                           if a.excess_drop is not None else ("control" if a.control_of else "-")),
                "evidence": a.evidence or "-",
            }
        )
    if rows:
        lines += ["", pd.DataFrame(rows).to_string(index=False)]
    cats = [
        {
            "category": c.category,
            "ablations": ",".join(c.ablations),
            "mean F1 drop": _num(c.f1_drop, "{:+.1f}"),
            ci: f"[{_num(c.ci_low)}, {_num(c.ci_high)}]" if c.f1_drop is not None else "",
            "evidence": c.evidence or "-",
        }
        for c in results.categories
    ]
    if cats:
        lines += ["", pd.DataFrame(cats).to_string(index=False)]
    # --- SQuAD v2.0: HasAns / NoAns (nothing for data without unanswerable questions) ---
    from mrclens.reports.no_answer import format_v2_lines

    lines += format_v2_lines(results)
    # --- end SQuAD v2.0 ---
    return "\n".join(lines)
