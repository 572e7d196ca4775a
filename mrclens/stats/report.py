"""A readable plain-text summary of the statistics dict (``mrclens stats``)."""

from __future__ import annotations

import pandas as pd


def _f(x, digits: int = 1) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}"


def format_stats(stats: dict) -> str:
    """Format :func:`mrclens.stats.compute_stats` output as text tables for a terminal.

    Args:
        stats: the dict returned by ``compute_stats``.

    Returns:
        several lines of text (no trailing newline).
    """
    c = stats["counts"]
    lines = [
        f"{stats['title']}: {stats.get('source') or '<memory>'}",
        f"{c['articles']:,} articles, {c['paragraphs']:,} paragraphs, {c['questions']:,} questions "
        f"({c['answerable']:,} answerable, {c['unanswerable']:,} unanswerable = "
        f"{100.0 * c['unanswerable'] / c['questions'] if c['questions'] else 0.0:.1f}%)",
        "",
    ]
    L = stats["lengths"]
    pos = stats["answer_position"]
    ov = stats["overlap"]
    rows = [
        ("question length (words)", L["question_words"]["mean"], L["question_words"]["median"]),
        ("answer length (words)", L["answer_words"]["mean"], L["answer_words"]["median"]),
        ("answer sentence index (0 = first)", pos["sentence_index"]["mean"], pos["sentence_index"]["median"]),
        ("answer start / context length", pos["char_fraction"]["mean"], pos["char_fraction"]["median"]),
        ("longest shared n-gram (words)", ov["longest_shared_ngram"]["mean"], ov["longest_shared_ngram"]["median"]),
        ("question content words in answer sentence (%)",
         ov["content_words_in_answer_sentence_pct"]["mean"], ov["content_words_in_answer_sentence_pct"]["median"]),
    ]
    table = pd.DataFrame(rows, columns=["per question", "mean", "median"]).set_index("per question")
    lines.append(table.to_string(float_format=lambda v: f"{v:.2f}"))
    lines += [
        "",
        f"answers in the first sentence unit: {_f(pos['first_sentence_pct'])} %",
        "answer sentence: " + ", ".join(f"{k.replace('_', ' ')} {v:.1f}%" for k, v in pos["sentence_shares"]["shares_pct"].items())
        + f"; in the last sentence: {_f(pos['last_sentence_pct'])} %",
        f"answers in the TF-IDF-most-similar sentence: {_f(stats['similarity']['answer_in_most_similar_sentence_pct'])} %",
        "",
    ]
    qt = stats["question_types"]
    at = stats["answer_types"]
    lines.append("question type (first word): " + ", ".join(f"{k} {v:.1f}%" for k, v in qt["shares_pct"].items()))
    lines.append("answer type: " + ", ".join(f"{k} {v:.1f}%" for k, v in at["shares_pct"].items()))
    lines.append("")
    h = stats["heuristics"]
    hrows = [
        (name, r["exact_match"], r["f1"], r["upper_bound_exact_match"], r["upper_bound_f1"])
        for name, r in h.items()
    ]
    ht = pd.DataFrame(hrows, columns=["heuristic baseline", "EM", "F1", "best-in-sentence EM", "best-in-sentence F1"])
    lines.append(ht.set_index("heuristic baseline").to_string(float_format=lambda v: f"{v:.1f}"))
    lines.append("")
    d = stats["duplicates"]
    lines.append(
        f"duplicate questions (same question, same context): {d['duplicate_questions']:,} "
        f"({d['duplicate_questions_pct']:.2f} %)"
    )
    lk = stats.get("leakage")
    if lk is not None:
        lines.append(
            f"leakage into {stats.get('dev_source') or 'dev'}: {lk['contexts_near_identical']:,} of {lk['dev_contexts']:,} "
            f"contexts, {lk['questions_near_identical']:,} of {lk['dev_questions']:,} questions "
            f"({lk['pairs_near_identical']:,} same question on the same context) also in "
            f"{stats.get('source') or 'train'}"
        )
    cache = stats.get("statistics_cache")
    if cache and cache["from_cache"]:
        lines.append(
            f"(figures of {cache['from_cache']:,} of {cache['paragraphs']:,} paragraphs read from the statistics "
            f"cache; {cache['computed']:,} computed)"
        )
    return "\n".join(lines)
