"""Helpers for the baseline-reader tests: a slice of real data and a tiny config."""

from __future__ import annotations

from mrclens.baseline_model import ReaderConfig
from mrclens.squad import Article, Dataset, Paragraph


def first_questions(dataset: Dataset, n: int, shortest: bool = True) -> Dataset:
    """The first ``n`` questions of the paragraphs with the shortest contexts (real SQuAD data, fast to train on)."""
    paragraphs = [p for a in dataset.articles for p in a.paragraphs]
    if shortest:
        paragraphs = sorted(paragraphs, key=lambda p: len(p.context))
    out, count = [], 0
    for p in paragraphs:
        if count >= n:
            break
        qs = p.questions[: n - count]
        count += len(qs)
        out.append(Paragraph(p.context, qs))
    return Dataset([Article("sample", out)], "1.1")


def tiny_config(**over) -> ReaderConfig:
    """A tiny reader (32 LSTM units, 32 char filters, no dropout) for fast tests."""
    cfg = ReaderConfig(hidden=32, char_filters=32, dropout=0.0, batch_size=8, lr=0.01, profile_name="test-tiny")
    for k, v in over.items():
        setattr(cfg, k, v)
    return cfg
