"""Rule-based stand-ins for "any model": a reader that attends to one sentence and answers within it.

Each reader picks one sentence of the context by a rule (the first sentence; the sentence sharing the most
words with the question) and answers with the best span inside it
(:func:`mrclens.stats.heuristics.upper_bound.best_span_prediction`, the upper bound of the model-free
baselines): it reads perfectly, but only where its shortcut points. So its drops under the ablations show
its shortcut, as a trained reader's would, in seconds and with no training.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from mrclens.stats.heuristics.upper_bound import best_span_prediction, normalized_tokens

SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
WORD = re.compile(r"\w+")


def sentences(context: str) -> list[tuple[int, int]]:
    """Character spans of the context's sentences (a full stop, question or exclamation mark, then space)."""
    spans, start = [], 0
    for m in SENTENCE_END.finditer(context):
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(context)))
    return [(s, e) for s, e in spans if context[s:e].strip()] or [(0, len(context))]


def first_sentence(context: str, spans: list[tuple[int, int]], question: str) -> int:
    return 0


def most_similar_sentence(context: str, spans: list[tuple[int, int]], question: str) -> int:
    asked = {w.lower() for w in WORD.findall(question)}
    overlap = [len(asked & {w.lower() for w in WORD.findall(context[s:e])}) for s, e in spans]
    return overlap.index(max(overlap))


READERS = {"first": first_sentence, "similar": most_similar_sentence}


def predict_dir(perturbed_dir: Path, out_dir: Path, reader: str) -> Path:
    """Write ``out_dir/<set>.json`` = ``{question id: answer}`` for every set file of ``perturbed_dir``."""
    choose = READERS[reader]
    out_dir.mkdir(parents=True, exist_ok=True)
    for file in sorted(Path(perturbed_dir).glob("*.json")):
        if file.name == "manifest.json":
            continue
        preds = {}
        for article in json.loads(file.read_text())["data"]:
            for p in article["paragraphs"]:
                ctx = p["context"]
                spans = sentences(ctx)
                for qa in p["qas"]:
                    s, e = spans[choose(ctx, spans, qa["question"])]
                    golds = [(a["answer_start"], a["text"]) for a in qa["answers"]]
                    preds[qa["id"]] = best_span_prediction(ctx, (s, e), golds, lambda: normalized_tokens(ctx, s, e))
        (out_dir / file.name).write_text(json.dumps(preds))
    return out_dir
