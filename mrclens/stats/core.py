"""``compute_stats``: every model-free statistic of one dataset, as one JSON-ready dict."""

from __future__ import annotations

import bisect
import time
from pathlib import Path

from tqdm import tqdm

from mrclens.metrics import evaluate
from mrclens.parsing import parse_texts
from mrclens.squad import Article, Dataset, Paragraph
from mrclens.stats.answer_types import ANSWER_TYPES, coarse_answer_type
from mrclens.stats.heuristics import (
    SlidingWindow,
    best_span_prediction,
    first_k_prediction,
    normalized_tokens,
    type_matched_prediction,
    typed_candidates,
)
from mrclens.stats.leakage import find_duplicates, find_leakage
from mrclens.stats.overlap import PassageNgrams, content_word_share, longest_shared_ngram
from mrclens.stats.similarity import most_similar_units
from mrclens.stats.summary import integer_bins, share_pct, shares, summarize
from mrclens.stats.text import QUESTION_TYPES, question_type, whitespace_words, word_token_spans, word_tokens
from mrclens.units import answer_unit_indices, sentence_units

TITLE = "Model-free statistics"
_FRACTION_BINS = [i / 10 for i in range(11)]
_PCT_BINS = [float(i) for i in range(0, 101, 10)]


def _answerable_subset(dataset: Dataset, ids: set[str]) -> Dataset:
    """A dataset with only the questions in ``ids`` (same articles/paragraphs, same rules)."""
    articles = []
    for article in dataset.articles:
        paragraphs = []
        for p in article.paragraphs:
            qs = [q for q in p.questions if q.id in ids]
            if qs:
                paragraphs.append(Paragraph(p.context, qs))
        if paragraphs:
            articles.append(Article(article.title, paragraphs))
    return Dataset(articles, dataset.version, dataset.source)


def _score(dataset: Dataset, predictions: dict[str, str]) -> dict:
    r = evaluate(dataset, predictions)
    if "HasAns_f1" in r:
        return {"exact_match": r["HasAns_exact"], "f1": r["HasAns_f1"], "n": r["HasAns_total"]}
    return {"exact_match": r["exact_match"], "f1": r["f1"], "n": r["total"]}


def compute_stats(
    dataset: Dataset,
    dev: Dataset | None = None,
    cache_dir: str | Path | None = None,
    progress: bool = True,
    *,
    first_k: int = 3,
    n_process: int = 1,
) -> dict:
    """Compute every model-free statistic of ``dataset`` (MRCLens issue 7).

    Per question, then aggregated (mean, median, histogram; counts and shares in percent):

    * ``lengths``: question and answer length in whitespace words (Bartolo et al. 2020,
      "Beat the AI", Table 4); the answer is the first gold answer.
    * ``question_types``: Beat-the-AI wh-word buckets (:func:`~mrclens.stats.text.question_type`).
    * ``answer_position``: index of the first gold answer's sentence unit
      (:func:`mrclens.units.sentence_units`, the ablations' units), its ``answer_start`` as a
      fraction of the context length in characters, and the share of answers in unit 0.
    * ``similarity``: share of questions with a gold answer in the TF-IDF-most-similar unit
      (Sugawara et al. 2018; :mod:`mrclens.stats.similarity`).
    * ``overlap``: longest n-gram shared by question and passage in word tokens (Beat the AI)
      and the share of question content words in the answer unit (:mod:`mrclens.stats.overlap`).
    * ``answer_types``: coarse type of the first gold answer from spaCy tags and entities
      (:mod:`mrclens.stats.answer_types`).
    * ``heuristics``: baselines (a) first k tokens, (b) type-matched span in the most similar
      unit (Weissenborn et al. 2017), (c) sliding window (Richardson et al. 2013), each with
      official EM/F1 and the upper bound inside its chosen unit (:mod:`mrclens.stats.heuristics`).
    * ``duplicates``: same question on the same context; ``leakage`` (only with ``dev``): dev
      contexts/questions also in ``dataset`` (:mod:`mrclens.stats.leakage`).

    Unanswerable questions (SQuAD v2.0) count for lengths, question types, n-gram overlap,
    duplicates and leakage only; every answer-based figure and every baseline is computed on
    the answerable questions (``counts["answerable"]``). spaCy runs through
    :func:`mrclens.parsing.parse_texts` (disk-cached): ``senter`` over the contexts, tagger + NER
    over the distinct first gold answer texts only.

    Args:
        dataset: the dataset to describe (e.g. the training file).
        dev: a second file (e.g. the dev file) to check for leakage against ``dataset``.
        cache_dir: the parse cache directory (default: :func:`mrclens.parsing.default_cache_dir`).
        progress: show progress bars.
        first_k: the ``k`` of baseline (a), in whitespace tokens.
        n_process: spaCy worker processes for parsing.

    Returns:
        a JSON-serialisable dict ``{"title": "Model-free statistics", "source", "counts",
        "config", "lengths", "question_types", "answer_position", "similarity", "overlap",
        "answer_types", "heuristics", "duplicates", "leakage" (``None`` without ``dev``),
        "timings_s"}``. Percentages are 0–100; lengths are in words; times in seconds.

    Raises:
        PipelineNotInstalled: no English spaCy pipeline is installed.
    """
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    paragraphs = [p for _, p in dataset.iter_paragraphs()]
    all_questions = [(pi, q) for pi, p in enumerate(paragraphs) for q in p.questions]
    answerable = [(pi, q) for pi, q in all_questions if q.answers]

    # -- parsing (cached): sentences of contexts, POS + entities of first gold answers
    t = time.perf_counter()
    parsed_ctx = parse_texts(
        [p.context for p in paragraphs], sentences=True, cache_dir=cache_dir,
        progress="parsing contexts" if progress else False, n_process=n_process,
    )
    answer_texts = [q.answers[0].text for _, q in answerable]
    parsed_ans = parse_texts(
        answer_texts, pos=True, entities=True, cache_dir=cache_dir,
        progress="parsing answers" if progress else False, n_process=n_process,
    )
    timings["parse"] = time.perf_counter() - t

    # -- sentence units and word tokens per paragraph
    t = time.perf_counter()
    units: list[list[tuple[int, int]]] = []
    unit_words: list[list[set[str]]] = []
    for p, parsed in zip(paragraphs, parsed_ctx):
        spans = [(a.answer_start, a.answer_end) for q in p.questions for a in q.answers]
        us = sentence_units(p.context, parsed, spans)
        units.append(us)
        words, starts, _ = word_token_spans(p.context)
        unit_starts = [s for s, _ in us]
        sets: list[set[str]] = [set() for _ in us]
        for w, s in zip(words, starts):
            i = bisect.bisect_right(unit_starts, s) - 1
            if i >= 0 and s < us[i][1]:
                sets[i].add(w)
        unit_words.append(sets)
    timings["units"] = time.perf_counter() - t

    # -- TF-IDF most similar unit
    t = time.perf_counter()
    sim_idx, _ = most_similar_units(
        [q.question for _, q in answerable],
        [pi for pi, _ in answerable],
        [[p.context[s:e] for s, e in us] for p, us in zip(paragraphs, units)],
    )
    timings["similarity"] = time.perf_counter() - t

    # -- per-question figures
    t = time.perf_counter()
    q_len = [len(whitespace_words(q.question)) for _, q in all_questions]
    q_types = [question_type(q.question) for _, q in all_questions]
    ngram_cache: dict[int, PassageNgrams] = {}
    longest = []
    for pi, q in all_questions:
        if pi not in ngram_cache:
            ngram_cache = {pi: PassageNgrams(word_tokens(paragraphs[pi].context))}
        longest.append(longest_shared_ngram(word_tokens(q.question), ngram_cache[pi]))

    a_len, unit_index, char_frac, in_sim, content_share, a_types = [], [], [], [], [], []
    pred_a, pred_b, pred_c, ub_a, ub_b, ub_c = {}, {}, {}, {}, {}, {}
    by_paragraph: dict[int, list[int]] = {}
    for k, (pi, _) in enumerate(answerable):
        by_paragraph.setdefault(pi, []).append(k)
    bar = tqdm(total=len(answerable), desc="statistics", unit="q", disable=not progress, leave=False)
    for pi, ks in by_paragraph.items():
        p = paragraphs[pi]
        us = units[pi]
        unit_starts = [s for s, _ in us]
        candidates = [c for us_s, us_e in us for c in typed_candidates(p.context[us_s:us_e], us_s, content_chunks=True)]
        tokens = normalized_tokens(p.context)
        window_choice = SlidingWindow(p.context, candidates).predict([answerable[k][1].question for k in ks])
        for k, cand in zip(ks, window_choice):
            q = answerable[k][1]
            first = q.answers[0]
            a_len.append(len(whitespace_words(first.text)))
            a_types.append(coarse_answer_type(parsed_ans[k]))
            first_units = answer_unit_indices(us, [(first.answer_start, first.answer_end)])
            u0 = min(first_units) if first_units else None
            unit_index.append(u0)
            char_frac.append(first.answer_start / len(p.context))
            gold_units = answer_unit_indices(us, [(a.answer_start, a.answer_end) for a in q.answers])
            best = sim_idx[k]
            in_sim.append(best in gold_units if best >= 0 else None)
            content_share.append(
                content_word_share(word_tokens(q.question), unit_words[pi][u0]) if u0 is not None else None
            )
            golds = [(a.answer_start, a.text) for a in q.answers]
            if us:
                pred_a[q.id] = first_k_prediction(p.context, us[0], first_k)
                ub_a[q.id] = best_span_prediction(p.context, us[0], golds, tokens)
                pred_b[q.id] = type_matched_prediction(p.context, us[best], q.question, first_k, candidates=candidates)
                ub_b[q.id] = best_span_prediction(p.context, us[best], golds, tokens)
            if cand is not None:
                pred_c[q.id] = p.context[cand.start : cand.end]
                cu = max(bisect.bisect_right(unit_starts, cand.start) - 1, 0)
                if us:
                    ub_c[q.id] = best_span_prediction(p.context, us[cu], golds, tokens)
        bar.update(len(ks))
    bar.close()
    timings["per_question"] = time.perf_counter() - t

    t = time.perf_counter()
    scored = _answerable_subset(dataset, {q.id for _, q in answerable})
    heuristics = {}
    for name, pred, ub, desc in (
        ("first_k", pred_a, ub_a, f"first {first_k} whitespace tokens of the first sentence unit"),
        ("type_matched_sentence", pred_b, ub_b,
         "span of the expected answer type in the TF-IDF-most-similar sentence unit (Weissenborn et al. 2017)"),
        ("sliding_window", pred_c, ub_c, "sliding-window candidate span (Richardson et al. 2013, MCTest SW)"),
    ):
        s = _score(scored, pred)
        u = _score(scored, ub)
        heuristics[name] = {
            "description": desc,
            "exact_match": s["exact_match"],
            "f1": s["f1"],
            "upper_bound_exact_match": u["exact_match"],
            "upper_bound_f1": u["f1"],
            "n": s["n"],
        }
    heuristics["first_k"]["k"] = first_k
    timings["scoring"] = time.perf_counter() - t

    t = time.perf_counter()
    duplicates = find_duplicates(dataset)
    leakage = find_leakage(dataset, dev) if dev is not None else None
    timings["duplicates_leakage"] = time.perf_counter() - t
    timings["total"] = time.perf_counter() - t0

    counts = dataset.counts()
    counts["answerable"] = len(answerable)
    type_shares = shares(q_types, QUESTION_TYPES)
    largest = max(type_shares["counts"], key=type_shares["counts"].get) if type_shares["n"] else None
    type_shares["largest"] = largest
    type_shares["largest_pct"] = type_shares["shares_pct"][largest] if largest else None
    return {
        "title": TITLE,
        "source": dataset.source,
        "dev_source": dev.source if dev is not None else None,
        "counts": counts,
        "config": {"first_k": first_k, "answer": "first gold answer of each question"},
        "lengths": {
            "question_words": summarize(q_len, bins=integer_bins(40), unit="whitespace words"),
            "answer_words": summarize(a_len, bins=integer_bins(30), unit="whitespace words"),
        },
        "question_types": type_shares,
        "answer_position": {
            "sentence_index": summarize(unit_index, bins=integer_bins(15), unit="sentence units (0 = first)"),
            "char_fraction": summarize(char_frac, bins=_FRACTION_BINS, unit="answer_start / context length (characters)"),
            "first_sentence_pct": share_pct(None if u is None else u == 0 for u in unit_index),
        },
        "similarity": {
            "answer_in_most_similar_sentence_pct": share_pct(in_sim),
            "n": sum(1 for f in in_sim if f is not None),
            "method": "TF-IDF cosine (scikit-learn TfidfVectorizer fitted on the dataset's sentence units)",
        },
        "overlap": {
            "longest_shared_ngram": summarize(longest, bins=integer_bins(20), unit="word tokens"),
            "content_words_in_answer_sentence_pct": summarize(content_share, bins=_PCT_BINS, unit="percent"),
        },
        "answer_types": shares(a_types, ANSWER_TYPES),
        "heuristics": heuristics,
        "duplicates": duplicates,
        "leakage": leakage,
        "timings_s": timings,
    }
