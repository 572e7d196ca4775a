"""The drop table for the terminal (``mrclens audit`` / ``mrclens evaluate`` print it).

Drops are in F1 points (accuracy points for multiple-choice results, issue 20, which also get
their per-fold, per-category and heuristic lines, :func:`format_mc_lines`); ``[low, high]`` is the paired bootstrap CI at the results' confidence
level; ``rel. %`` is the drop as a percentage of the baseline F1; ``excess`` is an insertion
ablation's drop minus its matched control's (``control`` marks the control rows); for e4 it
says how much of the loss without any question (its reference c4) the wh-words recover; ``-`` marks
what was not evaluated. With several draws or readers (issue 16) the drop and CI are the
combined ones, a ``spread over K draws`` column gives min to max (SD) of the per-draw drops,
and an evidence level that differs between draws reads ``level/level: unstable``. When the
drops were read against a reference audit (issue 17, :mod:`mrclens.scoring.against_reference`), a
``vs reference`` column gives the comparison (more / in line / less of the bias than the reference)
and the difference of the relative figures in percent of the baseline F1, with its CI, signed towards
the bias as the report's forest plot draws it (``+`` = more of the bias: a larger drop for most
ablations, a *smaller* one for e3–e5; for a category the mean of those; ``(data)`` when the
model-free figures decided the category's verdict). Each category row ends with its ``figure``: the one figure
of its reading, with the label and rounding that the terminal summary, the report and the card give it
(:func:`mrclens.reports.glance.reading_figure`: the difference from the reference, or without one the drop or
excess drop of the ablation its evidence level is read from). For SQuAD
v2.0 data (unanswerable questions), HasAns/NoAns scores and drops follow
(:mod:`mrclens.reports.no_answer`).
"""

from __future__ import annotations

from typing import Any

from mrclens.artifacts.results import Results
from mrclens.categories import toward_bias
from mrclens.metrics.bootstrap import confidence_label
from mrclens.reports.glance import reading_figure
from mrclens.verdicts import INCONCLUSIVE


def _num(x: Any, fmt: str = "{:.1f}") -> str:
    return "-" if x is None else fmt.format(x)


def _spread(entry: Any) -> str:
    """``min to max (SD sd)`` of an entry's per-replicate drops, ``-`` when there is none."""
    if entry.f1_drop_sd is None:
        return "-"
    return f"{_num(entry.f1_drop_min)} to {_num(entry.f1_drop_max)} (SD {_num(entry.f1_drop_sd)})"


def _evidence(entry: Any) -> str:
    """The evidence level; ``strong/none: unstable`` when the replicates' levels differ."""
    if entry.unstable:
        levels = list(dict.fromkeys(r.evidence for r in entry.replicates))
        return f"{'/'.join(levels)}: unstable"
    return entry.evidence or "-"


def _versus(entry: Any) -> str:
    """``more (+30.2 [+21.0, +39.4])``: the comparison with the reference audit and the difference of the
    relative figures signed towards the bias (an ablation's, :func:`mrclens.categories.toward_bias`: ``+`` is more
    of the bias, as the forest plot draws it; a category's mean already is); ``-`` when not compared."""
    if entry.reference_bias is None:
        return "-"
    basis = getattr(entry, "reference_basis", None)
    tag = " (data)" if basis == "model-free" else ""
    if entry.reference_difference is None or entry.reference_bias == INCONCLUSIVE.name:
        return entry.reference_bias + tag
    d, low, high = toward_bias(entry.reference_difference, entry.reference_difference_ci_low,
                               entry.reference_difference_ci_high, getattr(entry, "bias_signal", None))
    return f"{entry.reference_bias}{tag} ({d:+.1f} [{low:+.1f}, {high:+.1f}])"


def _category_versus(c: Any, model_free: Any = ()) -> str:
    """A category's comparison with the reference: the verdict (``(data)`` when the model-free figures decided it);
    its numbers are in the ``figure`` column, the category's one figure (:func:`mrclens.reports.glance.reading_figure`:
    the drops' difference, or the deciding model-free figure's), else the drops' difference follows here."""
    if c.reference_bias is None:
        return "-"
    if reading_figure(c, (), model_free=model_free) is not None:
        return c.reference_bias + (" (data)" if c.reference_basis == "model-free" else "")
    return _versus(c)


def format_table(results: Results) -> str:
    """The baseline scores, one row per ablation and one per bias category, as aligned text."""
    import pandas as pd

    model = results.model
    lines = [f"Model: {model.name} ({model.kind})"]
    training = results.audit.training if results.audit is not None else None
    if training is not None:  # issue 16: say prominently when a wall clock shaped the result
        notice = training.notice()
        lines += [f"  {training.summary()}"] + ([f"  WARNING: {notice}"] if notice else [])
    metric = results.metric  # "F1", or "accuracy" for multiple-choice results (issue 20)
    for name in ("original", "original-truncated"):
        s = results.sets.get(name)
        if s is not None:
            scores = f"EM {_num(s.exact_match)}  F1 {_num(s.f1)}" if metric == "F1" else f"accuracy {_num(s.f1)}"
            state = scores if s.evaluated else "not evaluated"
            lines.append(f"  {name}: {s.n:,} questions, {state}")
    ci = confidence_label(results.bootstrap.confidence)
    n_rep = len(results.replicates)
    kinds = [k for k in ("draw", "reader") if len({getattr(r, k) for r in results.replicates}) > 1] or ["draw"]
    spread_col = f"spread over {n_rep} {' x '.join(k + 's' for k in kinds)}"
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
                metric: _num(a.f1),
                f"{metric} drop": _num(a.f1_drop, "{:+.1f}") if a.evaluated else "not evaluated",
                ci: f"[{_num(a.ci_low)}, {_num(a.ci_high)}]" if a.evaluated else "",
                "rel. %": _num(a.relative_drop, "{:+.0f}"),
                "drop (changed)": _num(co.f1_drop if co else None, "{:+.1f}"),
                "excess": (f"{_num(a.excess_drop, '{:+.1f}')} [{_num(a.excess_ci_low)}, {_num(a.excess_ci_high)}]"
                           if a.excess_drop is not None else
                           (f"recovers {_num(a.recovered_share)}% [{_num(a.recovered_ci_low)}, {_num(a.recovered_ci_high)}]"
                            if a.recovered_share is not None else ("control" if a.control_of else "-"))),
                "evidence": _evidence(a),
            }
        )
        if n_rep > 1:
            rows[-1][spread_col] = _spread(a)
        if any(x.reference_bias is not None for x in results.ablations):
            rows[-1]["vs reference"] = _versus(a)
    if rows:
        lines += ["", pd.DataFrame(rows).to_string(index=False)]
    cats = [
        {
            "category": c.category,
            "ablations": ",".join(c.ablations),
            f"mean {metric} drop": _num(c.f1_drop, "{:+.1f}"),
            ci: f"[{_num(c.ci_low)}, {_num(c.ci_high)}]" if c.f1_drop is not None else "",
            "evidence": _evidence(c),
            **({spread_col: _spread(c)} if n_rep > 1 else {}),
            **({"vs reference": _category_versus(c, results.model_free)} if any(x.reference_bias for x in results.categories) else {}),
            "figure": str(reading_figure(c, results.ablations, metric, results.model_free) or "-"),
        }
        for c in results.categories
    ]
    if cats:
        lines += ["", pd.DataFrame(cats).to_string(index=False)]
    # --- SQuAD v2.0: HasAns / NoAns (nothing for data without unanswerable questions) ---
    from mrclens.reports.no_answer import format_v2_lines

    lines += format_v2_lines(results)
    # --- end SQuAD v2.0 ---
    lines += format_mc_lines(results)
    return "\n".join(lines)


def format_mc_lines(results: Results) -> list[str]:
    """Multiple-choice results (issue 20): accuracy per fold, per question category (original and
    answer-only) and the heuristic baselines; nothing for span results."""
    mc = results.sections.get("multiple_choice") or {}
    if not mc:
        return []
    import pandas as pd

    lines = ["", f"Cross-validation: accuracy {_num(mc.get('accuracy_mean'))} (SD {_num(mc.get('accuracy_sd'))}) over "
                 f"{len(mc.get('folds', []))} folds; chance {_num(mc.get('chance'))}"]
    ao = mc.get("answer_only") or {}
    if ao.get("accuracy") is not None:
        lines.append(f"Answer-only (m1, prompt removed): accuracy {_num(ao['accuracy'])} "
                     f"[{_num(ao['ci_low'])}, {_num(ao['ci_high'])}] on {ao['n']:,} questions")
    folds = [{"fold": f["name"], "train": f["train"], "test": f["n"], "accuracy": _num(f["accuracy"]),
              "95% CI": f"[{_num(f['ci_low'])}, {_num(f['ci_high'])}]"} for f in mc.get("folds", [])]
    if folds:
        lines += [pd.DataFrame(folds).to_string(index=False)]
    cats = []
    for name, entry in (mc.get("categories") or {}).items():
        o, ao = entry.get("original") or {}, entry.get("answer_only") or {}
        cats.append({"category": name, "n": o.get("n"), "accuracy": _num(o.get("accuracy")),
                     "95% CI": f"[{_num(o.get('ci_low'))}, {_num(o.get('ci_high'))}]",
                     "answer-only": _num(ao.get("accuracy")),
                     "answer-only CI": f"[{_num(ao.get('ci_low'))}, {_num(ao.get('ci_high'))}]" if ao else "-"})
    if cats:
        lines += ["", pd.DataFrame(cats).to_string(index=False)]
    heur = ((mc.get("stats") or {}).get("heuristics")) or {}
    rows = [{"heuristic": name, "accuracy": _num(h.get("accuracy")),
             "95% CI": f"[{_num(h.get('ci_low'))}, {_num(h.get('ci_high'))}]"}
            for name, h in heur.items() if isinstance(h, dict) and "accuracy" in h]
    if rows:
        lines += ["", "Heuristic baselines (no model):", pd.DataFrame(rows).to_string(index=False)]
    return lines
