"""A miniature `mrclens perturb` output and prediction files, shared by the scoring, artifacts and report tests."""

from __future__ import annotations

import json
from pathlib import Path

from mrclens.squad import Answer, Article, Dataset, Paragraph, Question, write_dataset

CONTEXT = "Paris is in France. Berlin is in Germany."
GOLD = {"q1": ("France", 12), "q2": ("Germany", 33), "q3": ("Paris", 0), "q4": ("Berlin", 20)}
ALL = ["q1", "q2", "q3", "q4"]
TRUNC = ["q1", "q3"]


def fixture_dataset(ids):
    return Dataset([Article("T", [Paragraph(CONTEXT, [Question(i, f"question {i}?", [Answer(*GOLD[i])]) for i in ids])])], "1.1")


def manifest_entry(name, category, eval_set, signal, ids, changed):
    base = "original" if eval_set == "full" else "original-truncated"
    return {
        "name": name, "category": category, "eval_set": eval_set, "baseline_set": base, "description": f"{name}.",
        "bias_signal": signal, "n": len(ids), "changed": len(changed), "unchanged": {"no room": len(ids) - len(changed)} if len(ids) > len(changed) else {},
        "items": {q: {"changed": q in changed, "reason": None if q in changed else "no room", "detail": {}} for q in ids},
    }


def make_perturbed_dir(root: Path) -> Path:
    """A miniature `mrclens perturb` output: full set of 4 questions, truncated set of 2, e1 (truncated), e3, e4 (full)."""
    d = root / "perturbed"
    d.mkdir(parents=True)
    write_dataset(fixture_dataset(ALL), d / "original.json")
    write_dataset(fixture_dataset(TRUNC), d / "original-truncated.json")
    ablations = {
        "e1": manifest_entry("insert question", "Similarity", "truncated", "large_drop", TRUNC, {"q1", "q3"}),
        "e3": manifest_entry("shuffle sentences", "Similarity", "full", "small_drop", ALL, {"q1", "q2", "q3"}),
        "e4": manifest_entry("interrogative words only", "Question", "full", "small_drop", ALL, set(ALL)),
    }
    for aid, entry in ablations.items():
        entry["file"] = f"{aid}.json"
        write_dataset(fixture_dataset(TRUNC if entry["eval_set"] == "truncated" else list(reversed(ALL))), d / f"{aid}.json")
    manifest = {
        "mrclens_version": "0.1.0", "seed": 0, "source": {"file": "hand-made", "sha256": "0" * 64}, "pipeline": "none",
        "sets": {"original": {"file": "original.json", "n": 4}, "original-truncated": {"file": "original-truncated.json", "n": 2}},
        "ablations": ablations,
    }
    (d / "manifest.json").write_text(json.dumps(manifest))
    return d


#: Every registered set id in report order: the ten ablations, each controlled ablation followed by its control
#: (c4, the question-removed reference of e4, included).
ALL_ABLATION_IDS = ["e1", "c1", "e2", "c2", "e3", "e4", "c4", "e5", "e6", "c6", "e7", "c7", "e8", "c8", "e9", "c9", "e10", "c10"]

GOLD_ANSWERS = {q: a for q, (a, _) in GOLD.items()}
PREDICTIONS = {
    "original": dict(GOLD_ANSWERS),                               # F1 100
    "original-truncated": {"q1": "France", "q3": "Paris"},        # F1 100
    "e1": {"q1": "Germany", "q3": "Paris"},                       # F1 50 -> drop 50
    "e3": {"q1": "France", "q2": "Germany", "q3": "Paris", "q4": "Berlin"},  # drop 0
    "e4": {"q1": "in France", "q2": "Berlin", "q3": "Paris", "q4": "Berlin"},  # q1 F1 2/3, q2 0 -> F1 (2/3+0+1+1)/4
}


def write_predictions(root: Path, preds=PREDICTIONS) -> Path:
    p = root / "predictions"
    p.mkdir(parents=True, exist_ok=True)
    for name, obj in preds.items():
        (p / f"{name}.json").write_text(json.dumps(obj))
    return p


def score_and_publish(perturbed_dir, predictions_dir, out_dir, **kwargs):
    """Score with the one scoring path and write every output into ``out_dir``, as `mrclens evaluate --out` does."""
    from mrclens.publish import write_outputs
    from mrclens.scoring.evaluate import evaluate_perturbed

    evaluation = evaluate_perturbed(perturbed_dir, predictions_dir, results_dir=out_dir, **kwargs)
    write_outputs(evaluation, out_dir)
    return evaluation
