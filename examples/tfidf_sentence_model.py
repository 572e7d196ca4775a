"""A stand-in for "your model": a rule-based reader that writes one official prediction file per set.

Usage::

    python examples/tfidf_sentence_model.py PERTURBED_DIR PREDICTIONS_DIR

For every SQuAD file in PERTURBED_DIR (``original.json``, ``original-truncated.json``,
``e1.json`` … as written by ``mrclens perturb``) it writes ``PREDICTIONS_DIR/<same name>``
holding ``{"question id": "answer text"}``, the format of the official SQuAD evaluation script.
Replace :func:`predict_file` with a call to your own reader (a ``transformers``
question-answering pipeline, a web service …); the loop around it stays the same.

The rule (the sliding-window / most-similar-sentence baseline idea of Rajpurkar et al. 2016):

1. split the context into sentences (a full stop, question or exclamation mark, then space);
2. pick the sentence most similar to the question by TF-IDF cosine (scikit-learn
   ``TfidfVectorizer``, English stop words removed, fitted on the file's sentences and questions);
3. answer with the longest run of that sentence's words that are not in the question
   (stop words may sit inside the run but not at its ends) - the answer is usually the part of
   the sentence the question does not already say.

It reads the files with the standard ``json`` module only, to show that nothing in the loop
depends on MRCLens.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, TfidfVectorizer

SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
WORD = re.compile(r"\w+(?:[-'’.]\w+)*")


def split_sentences(context: str) -> list[tuple[int, int]]:
    """Character spans ``(start, end)`` of the context's sentences."""
    spans, start = [], 0
    for m in SENTENCE_END.finditer(context):
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(context)))
    return [(s, e) for s, e in spans if context[s:e].strip()]


def answer_span(sentence: str, question: str) -> str:
    """The longest run of the sentence's words not in the question, without stop words at its ends."""
    asked = {w.lower() for w in WORD.findall(question)}
    words = list(WORD.finditer(sentence))
    runs, run = [], []
    for m in words:
        if m.group().lower() in asked:
            runs.append(run)
            run = []
        else:
            run.append(m)
    runs.append(run)
    best: list[re.Match] = []
    for run in runs:
        while run and run[0].group().lower() in ENGLISH_STOP_WORDS:
            run = run[1:]
        while run and run[-1].group().lower() in ENGLISH_STOP_WORDS:
            run = run[:-1]
        if len(run) > len(best):
            best = run
    if not best:
        return sentence.strip()
    return sentence[best[0].start() : best[-1].end()]


def predict_file(squad: dict) -> dict[str, str]:
    """``{question id: answer text}`` for every question of one SQuAD-format object."""
    paragraphs = [p for article in squad["data"] for p in article["paragraphs"]]
    sentence_spans = [split_sentences(p["context"]) for p in paragraphs]
    texts = [p["context"][s:e] for p, spans in zip(paragraphs, sentence_spans) for s, e in spans]
    texts += [qa["question"] for p in paragraphs for qa in p["qas"]]
    vectorizer = TfidfVectorizer(stop_words="english", sublinear_tf=True).fit(texts)
    predictions = {}
    for p, spans in zip(paragraphs, sentence_spans):
        if not p["qas"]:
            continue
        sentences = [p["context"][s:e] for s, e in spans]
        similarity = vectorizer.transform([qa["question"] for qa in p["qas"]]) @ vectorizer.transform(sentences).T
        best = similarity.toarray().argmax(axis=1)
        for qa, b in zip(p["qas"], best):
            predictions[str(qa["id"])] = answer_span(sentences[b], qa["question"])
    return predictions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("perturbed_dir", type=Path, help="the output directory of `mrclens perturb`")
    parser.add_argument("predictions_dir", type=Path, help="where to write one prediction file per set")
    args = parser.parse_args(argv)
    files = sorted(f for f in args.perturbed_dir.glob("*.json") if f.name != "manifest.json")
    if not files:
        print(f"error: no SQuAD files in {args.perturbed_dir}", file=sys.stderr)
        return 2
    args.predictions_dir.mkdir(parents=True, exist_ok=True)
    for f in files:
        predictions = predict_file(json.loads(f.read_text(encoding="utf-8")))
        (args.predictions_dir / f.name).write_text(json.dumps(predictions, ensure_ascii=False), encoding="utf-8")
        print(f"{f.name}: {len(predictions):,} predictions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
