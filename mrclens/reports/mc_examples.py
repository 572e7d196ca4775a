"""Real items per ablation for the report of a multiple-choice audit (issue 20).

For each ablation, up to ``k`` questions the ablation changed, chosen with a generator seeded from
(seed, ablation id) (:func:`mrclens.metrics.bootstrap.stable_rng`): the prompt and endings before and
after, the gold ending, and the ending the model chose on each version (right or wrong). Nothing is
scored here: correctness is the gold label against the prediction file.
"""

from __future__ import annotations

from typing import Any, Mapping

from mrclens.formats.multiple_choice import MCDataset
from mrclens.metrics.bootstrap import stable_rng
from mrclens.reports.formatting import fmt_int, label


def _choice(predictions: Mapping[str, str] | None, qid: str, label: int) -> dict[str, Any] | None:
    if predictions is None:
        return None
    value = predictions.get(qid)
    if value is None:
        return {"index": None, "verdict": "missing"}
    index = int(value) if str(value).strip().isdigit() else None
    return {"index": index, "letter": "ABCDEFGH"[index] if index is not None and index < 8 else str(value),
            "verdict": "right" if index == label else "wrong"}


def build_mc_examples(baseline: MCDataset, ablated: MCDataset, *, ablation_id: str, seed: int, k: int,
                      changed_ids: set[str] | None, items: Mapping[str, Any] | None,
                      baseline_predictions: Mapping[str, str] | None,
                      ablated_predictions: Mapping[str, str] | None) -> list[dict[str, Any]]:
    """Up to ``k`` examples (dicts for the template), changed items first, in a seeded random order."""
    before = baseline.by_id()
    pool = [q for q in ablated.questions if q.id in before and (changed_ids is None or q.id in changed_ids)]
    if not pool:
        pool = [q for q in ablated.questions if q.id in before]
    rng = stable_rng(seed, f"examples:{ablation_id}")
    picked = sorted(rng.choice(len(pool), size=min(k, len(pool)), replace=False).tolist()) if pool else []
    out = []
    for i in picked:
        after = pool[i]
        orig = before[after.id]
        record = (items or {}).get(after.id) or {}
        out.append({
            "qid": after.id,
            "categories": ", ".join(after.categories) or "–",
            "changed": changed_ids is None or after.id in changed_ids,
            "reason": record.get("reason"),
            "prompt_before": orig.prompt, "prompt_after": after.prompt,
            "endings": [{"letter": "ABCDEFGH"[j] if j < 8 else str(j), "before": e,
                         "after": after.endings[j] if j < len(after.endings) else "",
                         "changed": j >= len(after.endings) or after.endings[j] != e, "gold": j == orig.label}
                        for j, e in enumerate(orig.endings)],
            "before": _choice(baseline_predictions, after.id, orig.label),
            "after": _choice(ablated_predictions, after.id, after.label),
            "detail": record.get("detail") or {},
        })
    return out


def mc_report_facts(original: MCDataset, manifest: Mapping[str, Any]) -> dict[str, Any]:
    """The report's "the data" card for multiple-choice sets (the task's entry in :data:`mrclens.reports.report.REPORT_FACTS`): counts
    and questions per category; multiple-choice data has no paragraphs and no truncated set."""
    counts = {**original.counts(), **{f"category {k}": v for k, v in original.category_counts().items()}}
    return {"counts": [(label(k), fmt_int(v)) for k, v in counts.items()], "qpp": [], "truncated": None}


def mc_example_block(block: dict[str, Any], baseline: MCDataset, ablated: MCDataset, sources: Any, baseline_name: str, *,
                     ablation_id: str, seed: int, k: int, changed_ids: set[str] | None,
                     items: Mapping[str, Any] | None) -> None:
    """Fill one ablation's block of the report viewer (the task's entry in :data:`mrclens.reports.report.REPORT_EXAMPLES`) with
    :func:`build_mc_examples`, the predictions read through ``sources.predictions(set name)``."""
    block["mc_examples"] = build_mc_examples(
        baseline, ablated, ablation_id=ablation_id, seed=seed, k=k, changed_ids=changed_ids, items=items,
        baseline_predictions=sources.predictions(baseline_name), ablated_predictions=sources.predictions(ablation_id))
