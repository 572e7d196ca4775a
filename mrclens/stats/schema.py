"""The layout of :func:`mrclens.stats.compute_stats`'s result: its sections and every figure's dotted path.

One definition for the code that builds the result and the code that reads it:
:func:`~mrclens.stats.compute_stats` checks each result against it (:func:`check_layout`), and
``mrclens check`` accepts a rule's metric only if it is listed in :data:`METRIC_PATHS`
(:mod:`mrclens.checks`), so a figure cannot be produced without being checkable, nor a rule
written on a figure that is not produced.

A *figure* is a number (or ``null`` when there is nothing to measure, e.g. a mean over no
answerable question) under one of :data:`FIGURE_SECTIONS`; lists (histograms, example ids)
and strings (descriptions, units) are not figures. Dict keys are joined with dots:
``heuristics.sliding_window.f1``, ``wh_words_anywhere.shares_pct.none``.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Sequence

from mrclens.errors import InternalError
from mrclens.squad import Dataset
from mrclens.stats.answer_types import ANSWER_TYPES
from mrclens.stats.chance import CHANCE_FIGURES, STRATA
from mrclens.stats.position import POSITION_LABELS
from mrclens.stats.text import QUESTION_TYPES
from mrclens.vocabulary import WH_WORDS

#: Sections that describe the data, in output order; each figure lies in one of them.
FIGURE_SECTIONS = (
    "counts", "lengths", "question_types", "wh_words_anywhere", "answer_position", "similarity",
    "overlap", "chance_corrected", "answer_types", "heuristics", "duplicates", "leakage",
)
#: Sections that describe the run (input paths, settings, times, cache use): not figures.
RUN_SECTIONS = ("title", "source", "dev_source", "config", "timings_s", "statistics_cache")
#: The section that is ``null`` without a second (dev) file.
DEV_SECTION = "leakage"

#: The labels of ``wh_words_anywhere``: the nine wh-words and ``none``.
WH_ANYWHERE_LABELS = WH_WORDS + ("none",)
#: The heuristic baselines, in report order (the keys of the ``heuristics`` section).
BASELINES = ("first_k", "type_matched_sentence", "sliding_window")

#: The numbers of :func:`mrclens.stats.summary.summarize` (means etc. are ``null`` when ``n`` is 0).
_SUMMARY = ("n", "missing", "mean", "median", "std", "min", "max")
_BASELINE = ("exact_match", "f1", "upper_bound_exact_match", "upper_bound_f1", "n")
_DUPLICATES = ("duplicate_questions", "duplicate_questions_pct", "identical_duplicate_questions", "groups")
_LEAKAGE = (
    "dev_contexts", "contexts_identical", "contexts_identical_pct", "contexts_near_identical",
    "contexts_near_identical_pct", "dev_questions", "questions_identical", "questions_identical_pct",
    "questions_near_identical", "questions_near_identical_pct", "pairs_near_identical", "pairs_near_identical_pct",
    "dev_questions_with_leaked_context", "dev_questions_with_leaked_context_pct",
)


def _under(prefix: str, names: Sequence[str]) -> list[str]:
    return [f"{prefix}.{name}" for name in names]


def _shares(prefix: str, labels: Sequence[str]) -> list[str]:
    """The figures of :func:`mrclens.stats.summary.shares` over ``labels``."""
    return [f"{prefix}.n"] + _under(f"{prefix}.counts", labels) + _under(f"{prefix}.shares_pct", labels)


#: Every figure :func:`~mrclens.stats.compute_stats` produces, as a dotted path, in output order
#: (the ``leakage`` ones only with a dev file).
METRIC_PATHS: tuple[str, ...] = tuple(
    _under("counts", [*Dataset([]).counts(), "answerable"])  # the dataset's counts, and the answerable questions
    + _under("lengths.question_words", _SUMMARY)
    + _under("lengths.answer_words", _SUMMARY)
    + _shares("question_types", QUESTION_TYPES) + ["question_types.largest_pct"]
    + _shares("wh_words_anywhere", WH_ANYWHERE_LABELS)
    + _under("answer_position.sentence_index", _SUMMARY)
    + _under("answer_position.char_fraction", _SUMMARY)
    + ["answer_position.first_sentence_pct"]
    + _shares("answer_position.sentence_shares", POSITION_LABELS)  # Position bias (issue 17)
    + _under("answer_position.relative_sentence_position", _SUMMARY)
    + ["answer_position.last_sentence_pct"]
    + ["similarity.answer_in_most_similar_sentence_pct", "similarity.n"]
    + _under("overlap.longest_shared_ngram", _SUMMARY)
    + _under("overlap.content_words_in_answer_sentence_pct", _SUMMARY)
    + [path for name in CHANCE_FIGURES for path in _under(f"chance_corrected.{name}", _SUMMARY)]
    + ["chance_corrected.random_sentence_share_pct"]
    + [f"chance_corrected.by_sentence_count.{name}.{s}.{k}" for name in CHANCE_FIGURES for s in STRATA
       for k in ("n", "mean", "std")]
    + _shares("answer_types", ANSWER_TYPES)
    + [path for name in BASELINES
       for path in _under(f"heuristics.{name}", _BASELINE + (("k",) if name == "first_k" else ()))]
    + _under("duplicates", _DUPLICATES)
    + _under(DEV_SECTION, _LEAKAGE)
)


def figure_paths(result: dict, sections: Iterable[str] | None = None) -> Iterator[str]:
    """The dotted path of every figure in ``result`` (a :func:`~mrclens.stats.compute_stats`
    dict), in its order: each number or ``null`` under ``sections`` (default :data:`FIGURE_SECTIONS`;
    the multiple-choice statistics pass theirs), lists and strings skipped; a section that is
    ``null`` has none."""

    def walk(prefix: str, node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            for key, value in node.items():
                yield from walk(f"{prefix}.{key}", value)
        elif node is None or (isinstance(node, (int, float)) and not isinstance(node, bool)):
            yield prefix

    for section in FIGURE_SECTIONS if sections is None else sections:
        if result.get(section) is not None:
            yield from walk(section, result[section])


def check_layout(result: dict) -> None:
    """Check that ``result`` has exactly the sections and the figures declared here.

    Raises:
        InternalError: a section or figure is missing or not declared (a bug in MRCLens: the
            statistics code and this layout disagree); the message lists the differences.
    """
    problems = []
    sections = set(FIGURE_SECTIONS + RUN_SECTIONS)
    if set(result) != sections:
        problems.append(f"sections not declared: {sorted(set(result) - sections)}, "
                        f"missing: {sorted(sections - set(result))}")
    expected = {p for p in METRIC_PATHS if result.get(DEV_SECTION) is not None or not p.startswith(DEV_SECTION + ".")}
    found = set(figure_paths(result))
    if found != expected:
        problems.append(f"figures not declared: {sorted(found - expected)}, missing: {sorted(expected - found)}")
    if problems:
        raise InternalError("compute_stats result does not match mrclens.stats.schema: " + "; ".join(problems))


def is_metric(path: str) -> bool:
    """Whether ``path`` names a figure of ``mrclens stats`` (one of :data:`METRIC_PATHS`), the metrics a
    ``mrclens check`` rule may test on span data (span extraction's entry in :data:`mrclens.checks.IS_METRIC`).

    A plug-in figure's declared keys (``plugins.<name>.<key>``, :mod:`mrclens.stats.plugins`) are metrics too.

    >>> is_metric("lengths.question_words.mean"), is_metric("lengths.nothing")
    (True, False)
    """
    from mrclens.stats.plugins import is_plugin_metric

    return path in METRIC_PATHS or is_plugin_metric(path)
