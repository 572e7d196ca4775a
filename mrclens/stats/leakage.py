"""Duplicates inside one file and train/dev leakage between two files.

Texts are compared by hashing after normalisation (:mod:`mrclens.stats.text`):

* **identical**: equal after Unicode NFC and whitespace collapsing (:func:`exact_key`);
* **near-identical**: equal after case-folding and removing accents, punctuation, the articles
  a/an/the and spacing (:func:`near_key`). Near-identical counts include identical ones.

A **duplicate question** is a question whose (context, question) pair, both near-identical,
already occurred earlier in the same file (the first occurrence is not counted). **Leakage**
counts dev items whose context, question, or (context, question) pair also occurs in train.
"""

from __future__ import annotations

from collections import defaultdict

from mrclens.squad import Dataset
from mrclens.stats.text import exact_key, near_key

#: How many example groups/ids each section lists at most.
MAX_EXAMPLES = 20


def find_duplicates(dataset: Dataset) -> dict:
    """Questions asked twice on the same context inside ``dataset``.

    Returns:
        ``{"duplicate_questions": n, "duplicate_questions_pct": % of all questions,
        "identical_duplicate_questions": n (both texts identical, not only near-identical),
        "groups": n groups of ≥ 2 copies, "examples": [[question id, ...], ...] (at most
        :data:`MAX_EXAMPLES` groups)}``.

    Examples:
        >>> from mrclens.formats.squad_schema import parse_squad
        >>> ds, _ = parse_squad({"data": [{"title": "t", "paragraphs": [{"context": "A b.", "qas": [
        ...     {"id": "1", "question": "What is A?", "answers": [{"text": "b", "answer_start": 2}]},
        ...     {"id": "2", "question": "what is a", "answers": [{"text": "b", "answer_start": 2}]}]}]}]})
        >>> find_duplicates(ds)["duplicate_questions"], find_duplicates(ds)["identical_duplicate_questions"]
        (1, 0)
    """
    near: dict[tuple[str, str], list[str]] = defaultdict(list)
    exact: dict[tuple[str, str], int] = defaultdict(int)
    ctx_keys: dict[str, tuple[str, str]] = {}
    n = 0
    for _, paragraph, q in dataset.iter_questions():
        n += 1
        if paragraph.context not in ctx_keys:
            ctx_keys[paragraph.context] = (exact_key(paragraph.context), near_key(paragraph.context))
        c_exact, c_near = ctx_keys[paragraph.context]
        near[(c_near, near_key(q.question))].append(q.id)
        exact[(c_exact, exact_key(q.question))] += 1
    groups = [ids for ids in near.values() if len(ids) > 1]
    dup = sum(len(g) - 1 for g in groups)
    return {
        "duplicate_questions": dup,
        "duplicate_questions_pct": 100.0 * dup / n if n else 0.0,
        "identical_duplicate_questions": sum(c - 1 for c in exact.values() if c > 1),
        "groups": len(groups),
        "examples": groups[:MAX_EXAMPLES],
    }


def find_leakage(train: Dataset, dev: Dataset) -> dict:
    """Contexts and questions of ``dev`` that also occur in ``train``.

    Returns:
        a dict with, for dev: ``dev_contexts`` (distinct contexts), ``contexts_identical`` /
        ``contexts_near_identical`` (distinct dev contexts also in train), ``dev_questions``,
        ``questions_identical`` / ``questions_near_identical`` (dev questions whose text also
        occurs in train, on any context), ``pairs_near_identical`` (dev questions whose
        (context, question) pair occurs in train), ``dev_questions_with_leaked_context`` (dev
        questions whose context is near-identical to a train context) and the same as
        percentages (``*_pct``), plus ``examples`` (dev question ids of leaked pairs, or else of
        leaked contexts, at most :data:`MAX_EXAMPLES`).
    """
    train_ctx_exact, train_ctx_near, train_q_exact, train_q_near, train_pairs = set(), set(), set(), set(), set()
    for _, paragraph in train.iter_paragraphs():  # contexts without questions count too
        c_near = near_key(paragraph.context)
        train_ctx_exact.add(exact_key(paragraph.context))
        train_ctx_near.add(c_near)
        for q in paragraph.questions:
            q_near = near_key(q.question)
            train_q_exact.add(exact_key(q.question))
            train_q_near.add(q_near)
            train_pairs.add((c_near, q_near))

    dev_contexts: dict[str, tuple[str, str]] = {}
    for _, paragraph in dev.iter_paragraphs():
        if paragraph.context not in dev_contexts:
            dev_contexts[paragraph.context] = (exact_key(paragraph.context), near_key(paragraph.context))
    n_ctx = len(dev_contexts)
    ctx_identical = sum(1 for e, _ in dev_contexts.values() if e in train_ctx_exact)
    ctx_near = sum(1 for _, k in dev_contexts.values() if k in train_ctx_near)

    n_q = q_identical = q_near = pairs = leaked_ctx_q = 0
    pair_examples: list[str] = []
    ctx_examples: list[str] = []
    for _, paragraph, q in dev.iter_questions():
        n_q += 1
        c_near = dev_contexts[paragraph.context][1]
        qn = near_key(q.question)
        q_identical += exact_key(q.question) in train_q_exact
        q_near += qn in train_q_near
        if (c_near, qn) in train_pairs:
            pairs += 1
            if len(pair_examples) < MAX_EXAMPLES:
                pair_examples.append(q.id)
        if c_near in train_ctx_near:
            leaked_ctx_q += 1
            if len(ctx_examples) < MAX_EXAMPLES:
                ctx_examples.append(q.id)

    def pct(k: int, n: int) -> float:
        return 100.0 * k / n if n else 0.0

    return {
        "dev_contexts": n_ctx,
        "contexts_identical": ctx_identical,
        "contexts_identical_pct": pct(ctx_identical, n_ctx),
        "contexts_near_identical": ctx_near,
        "contexts_near_identical_pct": pct(ctx_near, n_ctx),
        "dev_questions": n_q,
        "questions_identical": q_identical,
        "questions_identical_pct": pct(q_identical, n_q),
        "questions_near_identical": q_near,
        "questions_near_identical_pct": pct(q_near, n_q),
        "pairs_near_identical": pairs,
        "pairs_near_identical_pct": pct(pairs, n_q),
        "dev_questions_with_leaked_context": leaked_ctx_q,
        "dev_questions_with_leaked_context_pct": pct(leaked_ctx_q, n_q),
        "examples": pair_examples or ctx_examples,
    }
