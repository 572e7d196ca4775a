"""SQuAD v2.0 figures for the terminal table and the HTML report: HasAns / NoAns scores and drops.

Shown only when the evaluation data has unanswerable questions (the results then carry
``subsets``, :mod:`mrclens.artifacts.results`). ``HasAns`` are the questions with a gold answer,
``NoAns`` those without (official ``evaluate-v2.0.py`` subsets). When the model never answered
"no answer" on the original set (e.g. a reader trained on data without unanswerable questions),
its NoAns F1 is 0 everywhere and NoAns drops say nothing about the model: :func:`v2_view` then
carries a note that says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mrclens.artifacts.results import SUBSETS, Results

#: The note shown when the model never abstains on the original set.
NEVER_ABSTAINS = ("The model never answered \"no answer\" on the original set{why}: every NoAns question "
                  "scores 0, NoAns F1 is 0 on every set and the drops on NoAns questions are meaningless. "
                  "Read the HasAns figures; the total F1 mixes in the {n_noans:,} NoAns questions at 0.")


#: The note shown when the model abstains on every question of the original set.
ALWAYS_ABSTAINS = ("The model answered \"no answer\" to every question of the original set: NoAns F1 is 100, "
                   "HasAns F1 is 0, and no perturbation can move either; the drops say nothing about shortcuts. "
                   "A baseline reader does this when, on its held-out training data, abstaining everywhere beat "
                   "every other threshold (too little training for its span and no-answer scores to be informative).")


@dataclass
class V2View:
    """What the table and the report show for v2.0 data (numbers as formatted strings).

    Attributes:
        sets: per set ``{"name", "HasAns": {...}, "NoAns": {...}}`` with ``n``, ``em``, ``f1``,
            ``abstained`` (formatted).
        ablations: per ablation ``{"id", "name", "HasAns": {...}, "NoAns": {...}}`` with ``n``,
            ``f1``, ``baseline_f1``, ``drop``, ``ci`` (formatted; ``-`` where not computed).
        categories: per bias category ``{"category", "HasAns": {...}, "NoAns": {...}}`` with ``drop``, ``ci``.
        threshold: the baseline reader's no-answer threshold line, or ``None``.
        notes: caveats (a model that never abstains).
        noans_meaningless: True when NoAns drops are meaningless (the model never abstains).
    """

    sets: list[dict[str, Any]] = field(default_factory=list)
    ablations: list[dict[str, Any]] = field(default_factory=list)
    categories: list[dict[str, Any]] = field(default_factory=list)
    threshold: str | None = None
    notes: list[str] = field(default_factory=list)
    noans_meaningless: bool = False


def _num(x: Any, fmt: str = "{:.1f}") -> str:
    return "-" if x is None else fmt.format(x)


def v2_view(results: Results) -> V2View | None:
    """The HasAns/NoAns view of ``results``, or ``None`` when the data has no unanswerable question."""
    if not any(s.subsets for s in results.sets.values()) and not any(a.subsets for a in results.ablations):
        return None
    view = V2View()
    for name, s in results.sets.items():
        if not s.subsets:
            continue
        row: dict[str, Any] = {"name": name}
        for sub in SUBSETS:
            e = s.subsets.get(sub)
            row[sub] = {"n": _num(e.n if e else None, "{:,}"), "em": _num(e.exact_match if e else None),
                        "f1": _num(e.f1 if e else None), "abstained": _num(e.abstained if e else None, "{:,}")}
        view.sets.append(row)
    for a in results.ablations:
        if not a.subsets:
            continue
        row = {"id": a.id, "name": a.name}
        for sub in SUBSETS:
            e = a.subsets.get(sub)
            row[sub] = {"n": _num(e.n if e else None, "{:,}"), "f1": _num(e.f1 if e else None),
                        "baseline_f1": _num(e.baseline_f1 if e else None),
                        "drop": _num(e.f1_drop if e else None, "{:+.1f}"),
                        "ci": f"[{_num(e.ci_low)}, {_num(e.ci_high)}]" if e and e.f1_drop is not None else ""}
        view.ablations.append(row)
    for c in results.categories:
        if not c.subsets:
            continue
        row = {"category": c.category}
        for sub in SUBSETS:
            e = c.subsets.get(sub)
            row[sub] = {"drop": _num(e.f1_drop if e else None, "{:+.1f}"),
                        "ci": f"[{_num(e.ci_low)}, {_num(e.ci_high)}]" if e and e.f1_drop is not None else ""}
        view.categories.append(row)
    na = results.model.no_answer
    if na and na.get("threshold") is not None:
        score = na.get("threshold_score")
        view.threshold = (f"The reader abstains when its no-answer probability exceeds {na['threshold']:.4f}"
                          + (f" (no-answer score {score:+.2f})" if score is not None else "")
                          + f", chosen on {na.get('chosen_on') or 'held-out data'}"
                          + (f": F1 {na['f1']:.1f} on {na.get('n', 0):,} held-out questions" if na.get("f1") is not None else "")
                          + ".")
    original = results.sets.get("original")
    if original is not None and original.evaluated and original.subsets:
        abstained = sum((e.abstained or 0) for e in original.subsets.values())
        n_noans = original.subsets["NoAns"].n if "NoAns" in original.subsets else 0
        if abstained == 0 and n_noans:
            why = ""
            if results.model.kind == "baseline" and not na:
                why = " (the baseline reader was trained on data without unanswerable questions, so it never abstains)"
            view.notes.append(NEVER_ABSTAINS.format(why=why, n_noans=n_noans))
            view.noans_meaningless = True
        elif original.n and abstained == original.n:
            view.notes.append(ALWAYS_ABSTAINS)
    return view


def format_v2_lines(results: Results) -> list[str]:
    """The terminal lines of the v2.0 view (empty for data without unanswerable questions)."""
    import pandas as pd

    view = v2_view(results)
    if view is None:
        return []
    lines = ["", "SQuAD v2.0 subsets (HasAns: questions with an answer; NoAns: without)"]
    if view.threshold:
        lines.append(f"  {view.threshold}")
    for s in view.sets:
        h, z = s["HasAns"], s["NoAns"]
        lines.append(f"  {s['name']}: HasAns {h['n']} questions, EM {h['em']} F1 {h['f1']}; "
                     f"NoAns {z['n']} questions, EM {z['em']} F1 {z['f1']}; answered \"\" on {z['abstained']} NoAns "
                     f"and {h['abstained']} HasAns questions")
    rows = [{"id": a["id"], "HasAns n": a["HasAns"]["n"], "HasAns F1": a["HasAns"]["f1"],
             "HasAns drop": a["HasAns"]["drop"], "HasAns CI": a["HasAns"]["ci"],
             "NoAns n": a["NoAns"]["n"], "NoAns F1": a["NoAns"]["f1"],
             "NoAns drop": a["NoAns"]["drop"] + (" (meaningless)" if view.noans_meaningless else ""),
             "NoAns CI": a["NoAns"]["ci"]} for a in view.ablations]
    if rows:
        lines += ["", pd.DataFrame(rows).to_string(index=False)]
    cats = [{"category": c["category"], "HasAns mean drop": c["HasAns"]["drop"], "HasAns CI": c["HasAns"]["ci"],
             "NoAns mean drop": c["NoAns"]["drop"], "NoAns CI": c["NoAns"]["ci"]} for c in view.categories]
    if cats:
        lines += ["", pd.DataFrame(cats).to_string(index=False)]
    lines += [f"  Note: {n}" for n in view.notes]
    return lines
