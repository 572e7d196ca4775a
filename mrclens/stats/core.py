"""``compute_stats``: every model-free statistic of one dataset, as one JSON-ready dict.

Per question, then aggregated (mean, median, histogram; counts and shares in percent):

* ``lengths``: question and answer length in whitespace words (Bartolo et al. 2020,
  "Beat the AI", Table 4); the answer is the first gold answer.
* ``question_types``: Beat-the-AI wh-word buckets (:func:`~mrclens.stats.text.question_type`),
  and ``wh_words_anywhere``: the first of the nine wh-words anywhere in the question, or
  ``none`` (:func:`~mrclens.stats.text.first_wh_word`).
* ``answer_position``: index of the first gold answer's sentence unit
  (:func:`mrclens.units.sentence_units`, the ablations' units), its ``answer_start`` as a
  fraction of the context length in characters, and the share of answers in unit 0; the shares
  in sentence 1, 2, 3 and later, the relative sentence position and the share in the last
  sentence (:mod:`mrclens.stats.position`; Ko et al. 2020).
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
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from mrclens.errors import DataError, Msg, Problem
from mrclens.nlp import refuse_long_contexts
from mrclens.progress import progress as progress_bar
from mrclens.metrics.official import evaluate_set as evaluate
from mrclens.parsing import ParsedText, default_cache_dir, parse_texts
from mrclens.squad import Article, Dataset, Paragraph, Question
from mrclens.stats.answer_types import ANSWER_TYPES, coarse_answer_type
from mrclens.diskcache import warn_bad_entries
from mrclens.stats.cache import StatsCache, check_figures, code_fingerprint, figures_key
from mrclens.stats.leakage import find_duplicates, find_leakage
from mrclens.stats.paragraph import PARAGRAPH_KEYS, PRED_KEYS, paragraph_figures
from mrclens.stats.position import position_figures
from mrclens.stats.schema import BASELINES, WH_ANYWHERE_LABELS, check_layout
from mrclens.stats.chance import CHANCE_FIGURES, STRATA, by_sentence_count, chance_share_pct, position_rank
from mrclens.stats.similarity import most_similar_units, similarity_rank_tops
from mrclens.stats.summary import integer_bins, share_pct, shares, summarize
from mrclens.stats.text import (
    QUESTION_TYPES,
    first_wh_word,
    question_type,
    whitespace_words,
)
from mrclens.units import answer_unit_indices, sentence_units

TITLE = "Model-free statistics"
_FRACTION_BINS = [i / 10 for i in range(11)]
_PCT_BINS = [float(i) for i in range(0, 101, 10)]
_TOP_BINS = [float(i) for i in range(-100, 101, 20)]  # a chance-corrected top-1 hit: -100 / (n - 1) ... 100


def default_jobs() -> int:
    """Worker processes used by default: the CPUs this process may run on, at most 4."""
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        n = os.cpu_count() or 1
    return max(1, min(4, n))


def _score(dataset: Dataset, predictions: dict[str, str]) -> dict:
    r = evaluate(dataset, predictions)
    if "HasAns_f1" in r:
        return {"exact_match": r["HasAns_exact"], "f1": r["HasAns_f1"], "n": r["HasAns_total"]}
    return {"exact_match": r["exact_match"], "f1": r["f1"], "n": r["total"]}


#: Each baseline's predictions in a ``preds`` row of :func:`paragraph_figures`: its own, and its upper bound.
_BASELINE_PREDS = {"first_k": ("a", "ua"), "type_matched_sentence": ("b", "ub"), "sliding_window": ("c", "uc")}
_LIST_KEYS = ("longest", "a_len", "a_types", "unit_index", "char_frac", "in_sim", "content_share", "kw_rank",
              "kw_top", "sa_top", "ngram_top", "kwin_top")
_WORK: dict = {}
_N_CHUNKS = 32


def first_answerable_index(paragraphs: list[Paragraph]) -> list[int]:
    """For each paragraph, the index (in file order over all answerable questions) of its
    first answerable question; one more item at the end: the number of answerable questions.

    >>> from mrclens.squad import Answer, Question
    >>> q = lambda answered: Question("q", "Q?", [Answer("a", 0)] if answered else [])
    >>> first_answerable_index([Paragraph("a", [q(True), q(False), q(True)]), Paragraph("b", []), Paragraph("a", [q(True)])])
    [0, 2, 2, 3]
    """
    out, k = [], 0
    for p in paragraphs:
        out.append(k)
        k += sum(1 for q in p.questions if q.answers)
    return out + [k]


def _chunks(paragraphs: list[Paragraph], n: int) -> list[tuple[int, int]]:
    """Split paragraph indices into at most ``n`` contiguous ranges with similar question counts."""
    total = sum(len(p.questions) for p in paragraphs)
    if n <= 1 or total == 0:
        return [(0, len(paragraphs))]
    bounds, acc, lo = [], 0, 0
    for i, p in enumerate(paragraphs):
        acc += len(p.questions)
        if acc >= total * (len(bounds) + 1) / n and len(bounds) < n - 1:
            bounds.append((lo, i + 1))
            lo = i + 1
    bounds.append((lo, len(paragraphs)))
    return [b for b in bounds if b[1] > b[0]]


def _chunk_stats(bounds: tuple[int, int]) -> dict:
    """Per-question figures and baseline scores for paragraphs ``[lo, hi)`` (reads ``_WORK``).

    Paragraph figures found in the statistics cache are reused; the others are computed and
    returned under ``"new_cache_entries"`` for the parent process to store.
    """
    lo, hi = bounds
    w = _WORK
    paragraphs, units, sim_idx, parsed_ans, first_k = w["paragraphs"], w["units"], w["sim_idx"], w["parsed_ans"], w["first_k"]
    out: dict = {key: [] for key in _LIST_KEYS}
    preds: dict[str, dict[str, str]] = {name: {} for name in PRED_KEYS}
    scored: list[Paragraph] = []
    first = w["first_answerable"]  # paragraph pi's answerable questions are first[pi] .. first[pi + 1] - 1
    keys = [
        figures_key(paragraphs[pi], units[pi], sim_idx[first[pi] : first[pi + 1]], first_k) for pi in range(lo, hi)
    ]
    cache = StatsCache(w["cache_dir"], setup=False) if w["cache_dir"] is not None else None  # set up by the parent
    shape = {key: (len(paragraphs[pi].questions), first[pi + 1] - first[pi]) for pi, key in zip(range(lo, hi), keys)}
    found = cache.get_many(keys, check=lambda key, value: check_figures(value, *shape[key])) if cache else {}
    out["bad_cache_entries"] = cache.bad_entries if cache else 0
    if cache:
        cache.close()
    new_entries = []
    for pi, key in zip(range(lo, hi), keys):
        p = paragraphs[pi]
        k = first[pi]
        figures = found.get(key)
        if figures is None:
            figures = paragraph_figures(p, units[pi], sim_idx[k : first[pi + 1]], first_k)
            new_entries.append((key, figures))
        out["longest"].extend(figures["longest"])
        qs = [q for q in p.questions if q.answers]
        if qs:
            scored.append(Paragraph(p.context, qs))
        for name in PARAGRAPH_KEYS:
            out[name].extend(figures[name])
        for i, (q, row) in enumerate(zip(qs, figures["preds"])):
            out["a_types"].append(coarse_answer_type(parsed_ans[k + i]))
            for name, pred in zip(PRED_KEYS, row):
                if pred is not None:
                    preds[name][q.id] = pred
    out["new_cache_entries"] = new_entries
    chunk = Dataset([Article("", scored)])
    out["scores"] = {}
    for name in BASELINES:
        pa, pu = _BASELINE_PREDS[name]
        s, u = _score(chunk, preds[pa]), _score(chunk, preds[pu])
        n = s["n"]  # sums, so that chunks combine into exact means
        out["scores"][name] = {
            "n": n, "exact_match": s["exact_match"] * n, "f1": s["f1"] * n,
            "upper_bound_exact_match": u["exact_match"] * n, "upper_bound_f1": u["f1"] * n,
        }
    return out


def compute_stats(
    dataset: Dataset,
    dev: Dataset | None = None,
    cache_dir: str | Path | None = None,
    progress: bool = True,
    *,
    first_k: int = 3,
    n_process: int | None = None,
) -> dict:
    """Compute every model-free statistic of ``dataset`` (MRCLens issue 7): the result of
    :func:`compute_stats_with_values` without the per-question values (the figures, arguments
    and sections are documented there).

    Returns:
        a JSON-serialisable dict; its sections and figures are declared in :mod:`mrclens.stats.schema`.

    Raises:
        PipelineNotInstalled: no English spaCy pipeline is installed.
        InternalError: the result does not match :mod:`mrclens.stats.schema` (a bug).
    """
    return compute_stats_with_values(dataset, dev, cache_dir, progress, first_k=first_k, n_process=n_process)[0]


#: The per-question values :func:`compute_stats_with_values` returns, by the dotted path of the
#: summary they make up (a :func:`mrclens.stats.summary.summarize` node of the result).
VALUE_PATHS = ("lengths.question_words", "lengths.answer_words", "overlap.longest_shared_ngram",
               "overlap.content_words_in_answer_sentence_pct", "chance_corrected.position_rank",
               "chance_corrected.similarity_rank", "chance_corrected.keyword_rank")


def compute_stats_with_values(
    dataset: Dataset,
    dev: Dataset | None = None,
    cache_dir: str | Path | None = None,
    progress: bool = True,
    *,
    first_k: int = 3,
    n_process: int | None = None,
) -> tuple[dict, dict[str, list[float]]]:
    """Compute every model-free statistic of ``dataset`` (MRCLens issue 7; the figures are listed
    in the module docstring), and the per-question values behind its means (for a bootstrap,
    ``mrclens compare``).

    The figures are those of the dataset's visible text (:meth:`mrclens.squad.QADataset.visible`: invisible
    format characters such as soft hyphens, zero-width spaces and direction marks removed, answer offsets
    moved with them), so that such characters split no word and hide no question type.

    The steps, each timed in ``timings_s``: parse (:func:`parse_for_stats`), sentence units
    (:func:`units_of`), the TF-IDF-most-similar unit (:func:`similar_units`), the per-question
    figures and baseline scores (:func:`per_question_figures`), duplicates and leakage; then the
    baselines' chunk scores are combined (:func:`combine_heuristics`) and every figure is
    aggregated (:func:`assemble_result`).

    Args:
        dataset: the dataset to describe (e.g. the training file).
        dev: a second file (e.g. the dev file) to check for leakage against ``dataset``.
        cache_dir: the cache directory (default: :func:`mrclens.parsing.default_cache_dir`) of
            the parse cache and the statistics cache (:mod:`mrclens.stats.cache`: each
            paragraph's figures, so that a re-run recomputes only edited paragraphs); ``False``
            turns both off.
        progress: show progress bars.
        first_k: the ``k`` of baseline (a), in whitespace tokens.
        n_process: worker processes (forked) for the per-question figures and baselines;
            1 = everything in this process; ``None`` = :func:`default_jobs`. spaCy always parses
            in this process (its own multiprocessing was slower here).

    Returns:
        ``(result, values)``. ``values``: ``{path: [value per question]}`` for each of
        :data:`VALUE_PATHS` (the numbers that path's mean is taken over, ``None`` entries left
        out; question length over every question, the others over the answerable ones, file
        order). ``result``: a JSON-serialisable dict ``{"title": "Model-free statistics", "source",
        "dev_source", "counts", "config", "lengths", "question_types", "wh_words_anywhere",
        "answer_position", "similarity", "overlap", "answer_types", "heuristics", "duplicates",
        "leakage" (``None`` without ``dev``), "timings_s", "statistics_cache"}``
        (``statistics_cache``: paragraphs computed and paragraphs read from the statistics cache).
        Percentages are 0–100; lengths are in words; times in seconds. Its sections and the dotted
        path of every figure are declared in :mod:`mrclens.stats.schema`
        (:data:`~mrclens.stats.schema.METRIC_PATHS`).

    Raises:
        DataError: ``dataset`` or ``dev`` has no questions (``{"data": []}``, a header-only MRQA
            file; the message names the file): there is nothing to describe; or a context is longer than MRCLens
            parses (:func:`mrclens.nlp.refuse_long_contexts`: the file, the article and the paragraph).
        PipelineNotInstalled: no English spaCy pipeline is installed.
        InternalError: the result does not match :mod:`mrclens.stats.schema` (a bug).
    """
    require_questions(dataset, dev)
    for d in (dataset, dev):
        if d is not None:
            refuse_long_contexts(d)  # before any work, naming the file, the article and the paragraph (issue 55)
    dataset, dev = dataset.visible(), dev.visible() if dev is not None else None  # mrclens.invisible
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    n_process = default_jobs() if n_process is None else n_process
    paragraphs = [p for _, p in dataset.iter_paragraphs()]
    answerable = [(pi, q) for pi, p in enumerate(paragraphs) for q in p.questions if q.answers]
    with _timer(timings, "parse"):
        parsed_ctx, parsed_ans = parse_for_stats(paragraphs, answerable, cache_dir, progress)
    with _timer(timings, "units"):
        units = units_of(paragraphs, parsed_ctx)
    with _timer(timings, "similarity"):
        sim_idx, sim_rank, sim_top = similar_units(paragraphs, units, answerable)
    with _timer(timings, "per_question"):
        parts, merged, cache_use = per_question_figures(paragraphs, units, sim_idx, parsed_ans, first_k=first_k,
                                                        cache_dir=cache_dir, n_process=n_process, progress=progress)
    heuristics = combine_heuristics(parts, first_k)
    with _timer(timings, "duplicates_leakage"):
        duplicates = find_duplicates(dataset)
        leakage = find_leakage(dataset, dev) if dev is not None else None
    timings["total"] = time.perf_counter() - t0
    result, values = assemble_result(dataset, dev, paragraphs, units, {**merged, "sim_rank": sim_rank, "sim_top": sim_top}, first_k=first_k)
    result.update(heuristics=heuristics, duplicates=duplicates, leakage=leakage, timings_s=timings,
                  statistics_cache=cache_use)
    check_layout(result)
    return result, values


def require_questions(*datasets: Dataset | None) -> None:
    """Raise :class:`~mrclens.errors.DataError` naming the first dataset without a question (``None``
    entries are left out): model-free statistics need at least one."""
    for d in datasets:
        if d is not None and not any(True for _ in d.iter_questions()):
            raise DataError([Problem(d.source or "<memory>", Msg.NO_QUESTIONS.format(what="model-free statistics"))])


@contextmanager
def _timer(timings: dict[str, float], name: str) -> Iterator[None]:
    """Store the seconds the ``with`` block took in ``timings[name]``."""
    t = time.perf_counter()
    yield
    timings[name] = time.perf_counter() - t


def parse_for_stats(paragraphs: list[Paragraph], answerable: list[tuple[int, Question]], cache_dir,
                    progress: bool) -> tuple[list[ParsedText], list[ParsedText]]:
    """The spaCy parses the statistics need (disk-cached, :func:`mrclens.parsing.parse_texts`):
    ``senter`` sentences of every context, and POS tags + entities of the first gold answer of each
    answerable question, in the order of ``answerable`` (``(paragraph index, question)`` pairs).

    One process: spaCy's ``n_process=2`` doubled the wall time on SQuAD train on 2 cores (senter
    19.8 s -> 39.5 s, tagger+NER on answers 56.1 s -> 99.7 s; BENCHMARKS.md).

    Raises:
        PipelineNotInstalled: no English spaCy pipeline is installed.
    """
    parsed_ctx = parse_texts(
        [p.context for p in paragraphs], sentences=True, cache_dir=cache_dir,
        progress="parsing contexts" if progress else False,
    )
    answer_texts = [q.answers[0].text for _, q in answerable]
    parsed_ans = parse_texts(
        answer_texts, pos=True, entities=True, cache_dir=cache_dir,
        progress="parsing answers" if progress else False,
    )
    return parsed_ctx, parsed_ans


def units_of(paragraphs: list[Paragraph], parsed_ctx: list[ParsedText]) -> list[list[tuple[int, int]]]:
    """Each paragraph's sentence units (:func:`mrclens.units.sentence_units`, the ablations' units):
    ``(start, end)`` character spans, no gold answer split between two units."""
    return [
        sentence_units(p.context, parsed, [(a.answer_start, a.answer_end) for q in p.questions for a in q.answers])
        for p, parsed in zip(paragraphs, parsed_ctx)
    ]


def similar_units(paragraphs: list[Paragraph], units: list[list[tuple[int, int]]],
                  answerable: list[tuple[int, Question]]) -> tuple[list[int], list[float | None], list[float | None]]:
    """For each answerable question (``(paragraph index, question)``): the index of its paragraph's
    unit most similar to it (TF-IDF cosine, :func:`mrclens.stats.similarity.most_similar_units`), and
    the percentile rank of its first gold answer's unit by that similarity
    (:func:`mrclens.stats.similarity.similarity_ranks`; ``None`` for a context of one unit), and its
    chance-corrected top-1 hit by that similarity (percent, :func:`mrclens.stats.chance.top_share`)."""
    questions = [q.question for _, q in answerable]
    which = [pi for pi, _ in answerable]
    texts = [[p.context[s:e] for s, e in us] for p, us in zip(paragraphs, units)]
    sim_idx, _ = most_similar_units(questions, which, texts)
    targets = []
    for pi, q in answerable:
        found = answer_unit_indices(units[pi], [(q.answers[0].answer_start, q.answers[0].answer_end)])
        targets.append(min(found) if found else None)
    return (sim_idx, *similarity_rank_tops(questions, which, texts, targets))


def per_question_figures(paragraphs: list[Paragraph], units: list[list[tuple[int, int]]], sim_idx: list[int],
                         parsed_ans: list[ParsedText], *, first_k: int, cache_dir, n_process: int,
                         progress: bool) -> tuple[list[dict], dict[str, list], dict[str, int]]:
    """The per-question figures and the baselines' summed scores, by chunks of paragraphs (in
    forked worker processes when ``n_process > 1``; figures cached per paragraph).

    A fixed number of chunks (not one per worker), so that the summed scores, and so every
    figure, are the same whatever ``n_process`` is; several chunks per worker feed the progress bar.

    Returns:
        ``(parts, merged, cache_use)``: each chunk's result (its ``"scores"``, see
        :func:`combine_heuristics`); every per-question list (``longest``, ``a_len``, ``a_types``,
        ``unit_index``, ``char_frac``, ``in_sim``, ``content_share``) over all chunks in file order;
        the statistics cache's use (``paragraphs``, ``computed``, ``from_cache``).
    """
    global _WORK
    _WORK = {
        "paragraphs": paragraphs, "units": units, "sim_idx": sim_idx, "parsed_ans": parsed_ans,
        "first_k": first_k, "first_answerable": first_answerable_index(paragraphs),
        "cache_dir": None if cache_dir is False else Path(cache_dir) if cache_dir else default_cache_dir(),
    }
    code_fingerprint()  # of the cache keys: computed once here, inherited by the forked workers
    stats_cache_path = None
    if _WORK["cache_dir"] is not None:
        setup = StatsCache(_WORK["cache_dir"])  # create the file and table before workers read it
        stats_cache_path = setup.path
        setup.close()
    chunks = _chunks(paragraphs, _N_CHUNKS)
    bar = progress_bar(total=sum(len(p.questions) for p in paragraphs), desc="statistics", unit="q",
                       enabled=progress)
    parts = []
    try:
        if n_process > 1 and len(chunks) > 1 and "fork" in mp.get_all_start_methods():
            with mp.get_context("fork").Pool(n_process) as pool:
                for part in pool.imap(_chunk_stats, chunks):
                    parts.append(part)
                    bar.update(len(part["longest"]))
        else:
            for c in chunks:
                parts.append(_chunk_stats(c))
                bar.update(len(parts[-1]["longest"]))
    finally:
        _WORK = {}
        bar.close()
    n_computed = _store_new_entries(parts, cache_dir, stats_cache_path)
    merged: dict[str, list] = {key: [v for part in parts for v in part[key]] for key in _LIST_KEYS}
    cache_use = {"paragraphs": len(paragraphs), "computed": n_computed, "from_cache": len(paragraphs) - n_computed}
    return parts, merged, cache_use


def _store_new_entries(parts: list[dict], cache_dir, stats_cache_path: Path | None) -> int:
    """Store the paragraph figures the chunks computed in the statistics cache (this process is its
    one writer), warn about bad entries the chunks found; returns how many were computed."""
    new_entries = [entry for part in parts for entry in part.pop("new_cache_entries")]
    bad_entries = sum(part.pop("bad_cache_entries") for part in parts)
    if stats_cache_path is not None:
        warn_bad_entries(stats_cache_path, bad_entries)
    if new_entries and cache_dir is not False:
        cache = StatsCache(Path(cache_dir) if cache_dir else default_cache_dir())
        try:
            cache.put_many(new_entries)
        finally:
            cache.close()
    return len(new_entries)


#: What each heuristic baseline predicts, as ``mrclens stats`` describes it.
_BASELINE_DESCRIPTIONS = {
    "first_k": "first {first_k} whitespace tokens of the first sentence unit",
    "type_matched_sentence":
        "span of the expected answer type in the TF-IDF-most-similar sentence unit (Weissenborn et al. 2017)",
    "sliding_window": "sliding-window candidate span (Richardson et al. 2013, MCTest SW)",
}


def combine_heuristics(parts: list[dict], first_k: int) -> dict[str, dict]:
    """The ``heuristics`` section: each baseline's official EM/F1 and upper bounds over all chunks.

    The chunks' ``"scores"`` hold sums (mean × ``n``), so that the combined figure is the exact mean
    over every answerable question (0.0 when there is none).
    """
    heuristics = {}
    for name in BASELINES:
        n = sum(part["scores"][name]["n"] for part in parts)

        def mean(key: str) -> float:
            return sum(part["scores"][name][key] for part in parts) / n if n else 0.0

        heuristics[name] = {
            "description": _BASELINE_DESCRIPTIONS[name].format(first_k=first_k),
            "exact_match": mean("exact_match"),
            "f1": mean("f1"),
            "upper_bound_exact_match": mean("upper_bound_exact_match"),
            "upper_bound_f1": mean("upper_bound_f1"),
            "n": n,
        }
    heuristics["first_k"]["k"] = first_k
    return heuristics


def assemble_result(dataset: Dataset, dev: Dataset | None, paragraphs: list[Paragraph],
                    units: list[list[tuple[int, int]]], merged: dict[str, list], *,
                    first_k: int) -> tuple[dict, dict[str, list[float]]]:
    """The result's sections from ``title`` to ``answer_types`` (the per-question figures aggregated),
    with the sections that follow (``heuristics`` … ``statistics_cache``) as ``None`` placeholders
    that keep the key order; and the per-question values of :data:`VALUE_PATHS`."""
    all_questions = [(pi, q) for pi, p in enumerate(paragraphs) for q in p.questions]
    answerable = [(pi, q) for pi, q in all_questions if q.answers]
    q_len = [len(whitespace_words(q.question)) for _, q in all_questions]
    q_types = [question_type(q.question) for _, q in all_questions]
    longest, a_len, unit_index = merged["longest"], merged["a_len"], merged["unit_index"]
    in_sim, content_share = merged["in_sim"], merged["content_share"]
    n_units = [len(units[pi]) for pi, _ in answerable]
    chance, ranks = chance_corrected_section(unit_index, merged["sim_rank"], merged["kw_rank"], n_units,
                                             sim_top=merged["sim_top"], kw_top=merged["kw_top"],
                                             sa_top=merged["sa_top"], ngram_top=merged["ngram_top"],
                                             kwin_top=merged["kwin_top"])
    counts = dataset.counts()
    counts["answerable"] = len(answerable)
    type_shares = shares(q_types, QUESTION_TYPES)
    largest = max(type_shares["counts"], key=type_shares["counts"].get) if type_shares["n"] else None
    type_shares["largest"] = largest
    type_shares["largest_pct"] = type_shares["shares_pct"][largest] if largest else None
    result = {
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
        "wh_words_anywhere": shares(
            (first_wh_word(q.question) or "none" for _, q in all_questions), WH_ANYWHERE_LABELS
        ),
        "answer_position": {
            "sentence_index": summarize(unit_index, bins=integer_bins(15), unit="sentence units (0 = first)"),
            "char_fraction": summarize(merged["char_frac"], bins=_FRACTION_BINS,
                                       unit="answer_start / context length (characters)"),
            "first_sentence_pct": share_pct(None if u is None else u == 0 for u in unit_index),
            **position_figures(unit_index, n_units),  # Position bias (issue 17)
        },
        "similarity": {
            "answer_in_most_similar_sentence_pct": share_pct(in_sim),
            "n": sum(1 for f in in_sim if f is not None),
            "method": "TF-IDF cosine, IDF of the reference corpus's sentence units (mrclens.stats.idf)",
        },
        "overlap": {
            "longest_shared_ngram": summarize(longest, bins=integer_bins(20), unit="word tokens"),
            "content_words_in_answer_sentence_pct": summarize(content_share, bins=_PCT_BINS, unit="percent"),
        },
        "chance_corrected": chance,
        "answer_types": shares(merged["a_types"], ANSWER_TYPES),
        **dict.fromkeys(("heuristics", "duplicates", "leakage", "timings_s", "statistics_cache")),
    }
    values = dict(zip(VALUE_PATHS, ([v for v in vs if v is not None]
                                    for vs in (q_len, a_len, longest, content_share, *ranks))))
    return result, values


def chance_corrected_section(unit_index: list[int | None], sim_rank: list[float | None],
                             kw_rank: list[float | None], n_units: list[int], *,
                             sim_top: list[float | None] | None = None, kw_top: list[float | None] | None = None,
                             sa_top: list[float | None] | None = None, ngram_top: list[float | None] | None = None,
                             kwin_top: list[float | None] | None = None) -> tuple[dict, tuple[list[float | None], ...]]:
    """The ``chance_corrected`` section (:mod:`mrclens.stats.chance`), one value per answerable question
    in each list: the answer sentence's percentile ranks by position, by similarity to the question and
    by the question's content words (summaries, percent, 50 = chance), each per sentence-count stratum
    (``by_sentence_count``: every stratum of :data:`~mrclens.stats.chance.STRATA`, ``n`` 0 when empty),
    and ``random_sentence_share_pct``: the chance level of the raw shares "answer in the first sentence"
    and "answer in the most similar sentence" (mean of 1/units). Returns ``(section, (position ranks,
    similarity ranks, keyword ranks))``, the lists one value per answerable question (``None``: no rank).
    ``sim_top`` / ``kw_top`` (one value per answerable question, :func:`mrclens.stats.chance.top_share`) add
    the chance-corrected top-1 shares ``similarity_top`` / ``keyword_top`` (percent, 0 = chance) and their
    strata (:data:`~mrclens.stats.chance.TOP_FIGURES`); ``sa_top`` adds ``set_apart_top``, the chance-corrected hit of
    a pick among the spans the context sets apart (:mod:`mrclens.stats.set_apart`; the Question category's figure);
    ``ngram_top`` / ``kwin_top`` likewise add the verdict figures of Similarity and Keyword, ``shared_ngram_top``
    (:func:`mrclens.stats.shared_ngram.shared_ngram_top`) and ``keyword_window_top``
    (:func:`mrclens.stats.keyword_window.keyword_window_top`)."""
    pos_rank = [position_rank(u, n) for u, n in zip(unit_index, n_units)]
    lists = {"position_rank": pos_rank, "similarity_rank": sim_rank, "keyword_rank": kw_rank}
    if sim_top is not None:
        lists["similarity_top"] = sim_top
    if kw_top is not None:
        lists["keyword_top"] = kw_top
    if sa_top is not None:
        lists["set_apart_top"] = sa_top
    if ngram_top is not None:
        lists["shared_ngram_top"] = ngram_top
    if kwin_top is not None:
        lists["keyword_window_top"] = kwin_top
    section: dict = {name: summarize(vs, bins=_TOP_BINS if name.endswith("_top") else _PCT_BINS,
                                     unit=("chance-corrected top-1 share, percent; " if name.endswith("_top") else
                                           "percentile rank of the answer sentence, percent; ") + CHANCE_FIGURES[name])
                     for name, vs in lists.items()}
    section["random_sentence_share_pct"] = chance_share_pct(n_units)
    strata = {}
    for name, vs in lists.items():
        got = by_sentence_count(vs, n_units)
        strata[name] = {s: got.get(s, {"n": 0, "mean": None, "std": None}) for s in STRATA}
    section["by_sentence_count"] = strata
    return section, (pos_rank, sim_rank, kw_rank)


def compute_stats_per_article(dataset: Dataset, cache_dir: str | Path | None = None, **kwargs: Any) -> list[dict]:
    """:func:`compute_stats` of each article of ``dataset`` on its own (no progress bar), in article order:
    the article-level values behind cluster-robust standard errors
    (:func:`mrclens.scoring.model_free.cluster_standard_errors`). Keyword arguments go to
    :func:`compute_stats` (``n_process`` defaults to 1)."""
    kwargs.setdefault("n_process", 1)
    return [compute_stats(Dataset([article], dataset.version), cache_dir=cache_dir, progress=False, **kwargs)
            for article in dataset.articles]
