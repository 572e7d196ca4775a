"""A demo-like audit's results, built from the bundled SQuAD v1.1 reference's own ``quick`` audit.

The bundled reference (``mrclens/data/reference-squad-v1.1.json``) holds what the quick reader
measured on SQuAD v1.1: each ablation's relative drop (or relative excess drop over its control)
with its CI, and the model-free figures. :func:`demo_results` turns those figures back into
ablation entries (F1 points at the reference's baseline F1, 46.2), reads them with the project's
readings and compares them with the same reference through the one comparison path
(:func:`mrclens.scoring.against_reference.compare_with_reference`): the verdicts the demo audit
shows (every category in line with SQuAD v1.1; e4's drop 27.8 points, under the old fixed rule's 40).
``scale`` shrinks one category's figures towards the bias, to get a category read as ``more``.
"""

from __future__ import annotations

from mrclens.artifacts.reference import read_reference
from mrclens.artifacts.results import (AblationResult, AuditRecord, BootstrapSettings, CategoryResult, ModelRecord,
                                       Results, SetResult)
from mrclens.categories import CATEGORIES
from mrclens.perturbations.registry import ABLATIONS
from mrclens.scoring.against_reference import compare_with_reference
from mrclens.scoring.model_free import model_free_figures
from mrclens.scoring.readings import read_all

PROFILE = "quick"


def _stats_of(reference) -> dict:
    """The reference's model-free figures as a :func:`mrclens.stats.compute_stats`-shaped dict."""
    stats: dict = {}
    for path, fig in reference.figures.items():
        *parents, leaf = path.split(".")
        node = stats
        for p in parents:
            node = node.setdefault(p, {})
        if fig.std is None:  # a share: its value and n beside it
            node[leaf] = fig.value
            n_node = stats
            n_path = {"similarity.answer_in_most_similar_sentence_pct": "similarity.n",
                      "answer_position.first_sentence_pct": "answer_position.sentence_index.n",
                      "heuristics.type_matched_sentence.exact_match": "heuristics.type_matched_sentence.n"}[path]
            *n_parents, n_leaf = n_path.split(".")
            for p in n_parents:
                n_node = n_node.setdefault(p, {})
            n_node[n_leaf] = fig.n
        else:
            node[leaf] = {"mean": fig.value, "n": fig.n, "std": fig.std}
    return stats


def _ablation(aid: str, drop, base: float, factor: float) -> AblationResult:
    reg = ABLATIONS[aid]
    value = drop.value * factor   # the figure moves by the factor; its interval moves with it, as wide as before
    low, high = drop.ci_low + value - drop.value, drop.ci_high + value - drop.value
    to_points = base / 100.0
    common = dict(id=aid, name=reg.name, category=reg.category, eval_set=reg.eval_set,
                  baseline_set="original" if reg.eval_set == "full" else "original-truncated",
                  bias_signal=reg.bias_signal, evaluated=True, n=drop.n, baseline_f1=base)
    if drop.figure == "relative_excess_drop":
        control = drop.f1_drop - drop.excess_drop
        excess = value * to_points
        half = (high - low) * to_points / 2
        return AblationResult(**common, f1=base - control - excess, f1_drop=control + excess,
                              ci_low=control + excess - half, ci_high=control + excess + half,
                              relative_drop=100.0 * (control + excess) / base, control=f"c{aid[1:]}",
                              control_f1_drop=control, excess_drop=excess, excess_ci_low=low * to_points,
                              excess_ci_high=high * to_points, excess_n=drop.n)
    return AblationResult(**common, f1=base - value * to_points, f1_drop=value * to_points, ci_low=low * to_points,
                          ci_high=high * to_points, relative_drop=value, relative_ci_low=low, relative_ci_high=high)


def settled_reference():
    """The bundled reference with its ``quick`` audit's run-to-run SDs and structure terms removed: a test device for
    tests of how a reading is *signed and worded*, not of the drop route's power (issue 54's Q-profile terms read with
    t on few degrees of freedom leave even a reader that needs no question short of "more" on the quick profile)."""
    from dataclasses import replace

    reference = read_reference()
    audit = reference.audits[PROFILE]
    settled = replace(audit, structure_sd={}, structure_sd_other_shape={},
                      ablations={k: replace(d, run_sd=None, structure_sd=None, structure_sd_other_shape=None)
                                 for k, d in audit.ablations.items()})
    return replace(reference, audits={**reference.audits, PROFILE: settled})


def demo_results(scale: dict[str, float] | None = None, model: ModelRecord | None = None,
                 reference=None) -> Results:
    """The demo-like audit results (module docstring); ``scale``: ``{category: factor}`` applied to the
    category's relative figures, their intervals shifted with them and as wide as the reference's (a removal
    ablation with a factor under 1 drops less: more of the bias; an insertion ablation with a factor over 1 is
    pulled more: more of the bias); ``reference``: the reference read against (default: the bundled one;
    :func:`settled_reference` for tests of signs and words). The reference's e9 costs its readers about 1 % of F1 (a random question
    per paragraph, issue 41), so a Position factor has to be large to move it by tens of points."""
    reference = reference or read_reference()
    audit = reference.audits[PROFILE]
    base = audit.baseline_f1
    ablations = [_ablation(aid, drop, base, (scale or {}).get(ABLATIONS[aid].category, 1.0))
                 for aid, drop in audit.ablations.items()]
    categories = []
    for name, ids in ((c.name, list(c.ablations)) for c in CATEGORIES.values()):
        members = [a for a in ablations if a.id in ids]
        mean = sum(a.f1_drop for a in members) / len(members)
        half = max((a.ci_high - a.ci_low) / 2 for a in members)
        categories.append(CategoryResult(name, ids, [a.id for a in members], mean, mean - half, mean + half))
    ablations, categories = read_all(ablations, categories)
    figures = model_free_figures(_stats_of(reference), reference)
    ablations, categories = compare_with_reference(ablations, categories, reference.audit_for(PROFILE), model_free=figures)
    return Results("0.1.0", "2026-01-01T00:00:00Z", 0, model or ModelRecord("baseline", "co-attention BiLSTM"),
                   BootstrapSettings(1000, 0.95, 0), sets={"original": SetResult("original.json", 1786, 36.0, base)},
                   ablations=ablations, categories=categories, model_free=figures,
                   audit=AuditRecord({"profile": PROFILE, "seed": 0}, None, "model", None))
