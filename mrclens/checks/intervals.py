"""The interval of each figure a ``mrclens check`` rule tests (MRCLens issue 44, item 2: rules that do not flap).

A point threshold flips on sampling noise: a 2-article slice of SQuAD v1.1 dev read 43.3 > 40 for
the type-matching heuristic and 1.04 % > 1 % for duplicates while its 5-article slice passed. So a
rule on a share, an F1 or a mean carries the figure's confidence interval (95 %,
:data:`~mrclens.metrics.bootstrap.CONFIDENCE`), and :func:`decide` reads it against the threshold:
**pass** when the whole interval is on the rule's side, **fail** when the whole interval is beyond it,
**unsure** ("too small to tell") when it holds the threshold. The methods (:mod:`mrclens.metrics.intervals`):

* a **share** of ``n`` items (percent): the Wilson score interval with the ``n`` the statistics
  record beside it (:data:`SHARE_N`; ``shares_pct.<label>`` with its section's ``n``; a ``*_pct``
  beside an ``n``);
* a heuristic's **F1 or EM** (percent, a mean of per-question scores in 0–100 whose spread is not
  recorded): the Wilson interval of its mean with ``heuristics.<name>.n``, conservative (such a
  mean has at most a share's variance);
* a **mean** of a :func:`mrclens.stats.summary.summarize` node (``….mean`` beside ``n`` and
  ``std``): Student's t over its ``n`` values; for a mean of values in 0–100 (the percentile ranks),
  widened to the Wilson interval of such a mean where that is wider (a few questions that agree have
  no spread, and their t interval no width);
* span figures, whose questions cluster in articles, are also computed **per article**
  (:func:`per_article_figures`) and the interval is widened to the cluster-robust one by article
  (Student's t on articles − 1 degrees of freedom) wherever that is wider: questions of one article
  share its passages, topic and annotators, so two articles hold far less information than their
  1,000 questions suggest. Leakage figures are not clustered (they count the dev file's items);
* an interval the figures **record** beside the figure (multiple-choice heuristics'
  ``above_chance_ci_low``/``_high``, an audit ablation's ``ci_low``/``ci_high``, ``relative_ci_*``,
  ``excess_ci_*``; :func:`recorded_interval`) is used as it is;
* multiple choice: Cohen's ``d_z`` of the ending lengths (and its absolute value) with its
  large-sample interval; the largest deviation of a label's share from chance from Bonferroni-joint
  Wilson intervals; the majority label's share above chance from its Wilson interval.

Any other figure (counts, ``==`` rules, ``compare.`` fields, which are interval ends already) has no
interval and its rule is a point threshold, as before; a rule's ``interval = "none"`` asks for that.

Examples:
    >>> figs = {"counts": {"questions": 1057}, "duplicates": {"duplicate_questions_pct": 1.04}}
    >>> iv = figure_interval("duplicates.duplicate_questions_pct", lookup_in(figs))
    >>> round(iv.low, 2), round(iv.high, 2), iv.method
    (0.58, 1.85, 'Wilson score interval, n = 1,057')
    >>> decide("<=", 1.0, iv.low, iv.high), decide("<=", 2.0, iv.low, iv.high), decide("<=", 0.5, iv.low, iv.high)
    ('unsure', 'pass', 'fail')
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from mrclens.scoring.model_free import dotted_get
from mrclens.metrics.bootstrap import CONFIDENCE
from mrclens.metrics.intervals import (abs_interval, cluster_robust_interval, effect_size_interval,
                                       max_deviation_interval, mean_interval, wilson_interval)

#: The operators whose rules read an interval (``==`` and ``!=`` stay point comparisons).
ORDER_OPERATORS = ("<=", "<", ">=", ">")
#: The values of a rule's ``interval`` key: ``"auto"`` the figure's interval where one is known, ``"none"`` a point threshold.
INTERVAL_CHOICES = ("auto", "none")

Lookup = Callable[[str], Any]

#: Shares (percent) and the path of the number of items they are a share of (``{1}`` … the regex's groups).
SHARE_N: tuple[tuple[str, str], ...] = (
    (r"question_types\.largest_pct", "question_types.n"),
    (r"answer_position\.first_sentence_pct", "answer_position.sentence_index.n"),
    (r"answer_position\.last_sentence_pct", "answer_position.relative_sentence_position.n"),
    (r"similarity\.answer_in_most_similar_sentence_pct", "similarity.n"),
    (r"duplicates\.duplicate_questions_pct", "counts.questions"),
    (r"leakage\.contexts_\w+_pct", "leakage.dev_contexts"),
    (r"leakage\.\w+_pct", "leakage.dev_questions|leakage.questions"),  # span | multiple choice
    (r"labels\.(largest_pct|smallest_pct|shares_pct\.\w+)", "counts.questions"),
    (r"categories\.shares_pct\.\w+", "counts.questions"),
    (r"duplicates\.\w+\.(questions_pct|as_wrong_ending_pct)", "counts.questions"),
    (r"(.+)\.shares_pct\.[^.]+", "{1}.n"),
)
#: Means of per-question scores in 0–100 without a recorded spread (the span heuristics' EM and F1).
BOUNDED_N: tuple[tuple[str, str], ...] = (
    (r"heuristics\.(first_k|type_matched_sentence|sliding_window)\.(exact_match|f1|upper_bound_exact_match|"
     r"upper_bound_f1)", "heuristics.{1}.n"),
)
#: How a clustered figure's interval of a one-article file is described: unbounded, as ``k → 1`` gives t on 0 df.
ONE_ARTICLE = ("one article: its questions are not independent (they share its passages, topic and annotators), "
               "and one article says nothing of how the figure varies between articles: the interval is unbounded")
#: How the interval of a mean whose values all agree (standard deviation 0, ``n`` > 1) is described.
AGREE = "its values all agree, which says nothing of their spread: the interval is unbounded"
#: Figures that are not clustered by article (they count the dev file's items).
NOT_CLUSTERED = re.compile(r"leakage\.")
#: The interval's name for a figure's own recorded interval, by the figure's name (else ``<name>_ci_low`` …).
RECORDED = {"f1_drop": "ci", "accuracy": "ci", "value": "ci", "relative_drop": "relative_ci",
            "excess_drop": "excess_ci", "recovered_share": "recovered_ci", "above_chance_pts": "above_chance_ci"}


@dataclass(frozen=True)
class FigureInterval:
    """A figure's interval (the figure's unit) and how it was made (``method``, plain words)."""

    low: float
    high: float
    method: str


def lookup_in(data: Mapping[str, Any]) -> Lookup:
    """A lookup of dotted paths in nested dicts (``None`` where a key is absent)."""

    return lambda path: dotted_get(data, path)


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _match(table: Sequence[tuple[str, str]], path: str, lookup: Lookup) -> str | None:
    """The first existing path the table gives for ``path`` (alternatives separated by ``|``)."""
    for pattern, template in table:
        m = re.fullmatch(pattern, path)
        if m:
            for option in template.split("|"):
                n_path = option.format(*([m.group(0)] + list(m.groups())))
                if _number(lookup(n_path)):
                    return n_path
            return None
    return None


def recorded_interval(path: str, lookup: Lookup) -> FigureInterval | None:
    """The interval recorded beside the figure at ``path`` (its siblings ``<name>_ci_low``/``_high``, or
    those :data:`RECORDED` names), or ``None``."""
    parent, _, name = path.rpartition(".")
    prefix = f"{parent}." if parent else ""
    for stem in dict.fromkeys((name, RECORDED.get(name, ""), name.rpartition("_")[0] + "_ci")):
        if not stem:
            continue
        stem = stem if stem.endswith("ci") else f"{stem}_ci"
        low, high = lookup(f"{prefix}{stem}_low"), lookup(f"{prefix}{stem}_high")
        if _number(low) and _number(high):
            return FigureInterval(float(low), float(high), f"the interval recorded beside it ({stem}_low/_high)")
    return None


def _clustered(path: str, value: float, n_path: str, per_article: Sequence[Lookup] | None,
               article_path: str | None, confidence: float) -> tuple[float, float, int] | None:
    """The cluster-robust interval by article ``(low, high, k)``; with one article of positive weight
    ``(-inf, inf, 1)`` (:data:`ONE_ARTICLE`); ``None`` when not clustered."""
    if not per_article or NOT_CLUSTERED.match(path):
        return None
    pairs = [(a(article_path or path), a(n_path)) for a in per_article]
    pairs = [(v, w) for v, w in pairs if _number(v) and _number(w) and w > 0]
    if len(pairs) == 1:
        return -math.inf, math.inf, 1
    got = cluster_robust_interval([v for v, _ in pairs], [w for _, w in pairs], value, confidence)
    return None if got is None else (got[0], got[1], len(pairs))


def _widen(low: float, high: float, method: str, clustered: tuple[float, float, int] | None,
           bounds: tuple[float | None, float | None]) -> FigureInterval:
    if clustered is not None:
        low, high = min(low, clustered[0]), max(high, clustered[1])
        k = clustered[2]
        method += (f", {ONE_ARTICLE}" if k == 1 else
                   f", widened by article where wider (cluster-robust, {k:,} articles, t on {k - 1} df)")
    lo_bound, hi_bound = bounds
    if lo_bound is not None:
        low, high = max(low, lo_bound), max(high, lo_bound)
    if hi_bound is not None:
        low, high = min(low, hi_bound), min(high, hi_bound)
    return FigureInterval(low, high, method)


def figure_interval(path: str, lookup: Lookup, per_article: Sequence[Lookup] | None = None,
                    confidence: float = CONFIDENCE) -> FigureInterval | None:
    """The interval of the figure at ``path`` (module docstring), or ``None`` when it has none.

    Args:
        path: the figure's dotted path (in the statistics, or in an audit's results without ``audit.``).
        lookup: reads a dotted path of the same figures (``None`` where absent; :func:`lookup_in`).
        per_article: the same figures computed for each article (:func:`per_article_figures`), or ``None``.
        confidence: the interval's level.
    """
    value = lookup(path)
    if not _number(value):
        return None
    value = float(value)
    recorded = recorded_interval(path, lookup)
    if recorded is not None:
        return _unless_a_point(path, value, recorded, lookup, confidence)
    special = _multiple_choice_interval(path, value, lookup, confidence)
    if special is not None:
        return special
    n_path = _match(SHARE_N, path, lookup)
    kind = "share"
    if n_path is None:
        n_path, kind = _match(BOUNDED_N, path, lookup), "bounded"
    if n_path is None and path.endswith("_pct") and _number(lookup(path.rpartition(".")[0] + ".n")):
        n_path, kind = path.rpartition(".")[0] + ".n", "share"
    if n_path is not None:
        n = int(lookup(n_path))
        if n <= 0 or not 0.0 <= value <= 100.0:
            return None
        low, high = wilson_interval(value, n, confidence)
        what = "Wilson score interval" if kind == "share" else "Wilson interval of a mean score in 0-100 (conservative)"
        article_path = None
        if path == "question_types.largest_pct" and isinstance(lookup("question_types.largest"), str):
            article_path = f"question_types.shares_pct.{lookup('question_types.largest')}"
        clustered = _clustered(path, value, n_path, per_article, article_path, confidence)
        return _widen(low, high, f"{what}, n = {n:,}", clustered, (0.0, 100.0))
    if path.endswith(".mean"):
        node = path.rpartition(".")[0]
        n, std = lookup(f"{node}.n"), lookup(f"{node}.std")
        if _number(n) and n > 0 and _number(std):
            low, high = mean_interval(value, float(std), int(n), confidence)
            method = f"t interval of the mean, n = {int(n):,}"
            unit = lookup(f"{node}.unit")
            percent = isinstance(unit, str) and "percent" in unit and 0.0 <= value <= 100.0
            if not percent and std == 0.0 and n > 1:  # values that agree say nothing of their spread
                low, high = -math.inf, math.inf
                method += f" ({AGREE})"
            if percent:  # a mean of values in 0-100: never narrower than the Wilson interval of such a mean
                w_low, w_high = wilson_interval(value, int(n), confidence)
                if w_low < low or w_high > high:
                    low, high = min(low, w_low), max(high, w_high)
                    method += " (widened to the Wilson interval of a mean in 0-100)"
            bounds = (0.0, 100.0) if percent else (
                (0.0, None) if _number(lookup(f"{node}.min")) and lookup(f"{node}.min") >= 0 else (None, None))
            clustered = _clustered(path, value, f"{node}.n", per_article, None, confidence)
            return _widen(low, high, method, clustered, bounds)
    return None


def _unless_a_point(path: str, value: float, recorded: FigureInterval, lookup: Lookup,
                    confidence: float) -> FigureInterval:
    """``recorded``, or where it is a point and the figure is a multiple-choice heuristic's accuracy (or
    accuracy above chance) of ``n`` questions, the Wilson interval of that accuracy (shifted as the figure is).

    A bootstrap of outcomes that all agree (one question; every question right or every one wrong) resamples
    no spread and records a point: ``[75, 75]`` on a 1-question file. The Wilson interval of the accuracy
    does not collapse there (module docstring).
    """
    if recorded.low != recorded.high:
        return recorded
    parent = path.rpartition(".")[0]
    prefix = f"{parent}." if parent else ""
    accuracy, n = lookup(f"{prefix}accuracy"), lookup(f"{prefix}n")
    if not (_number(accuracy) and _number(n) and n >= 1 and 0.0 <= accuracy <= 100.0):
        return recorded
    low, high = wilson_interval(float(accuracy), int(n), confidence)
    shift = value - float(accuracy)
    return FigureInterval(low + shift, high + shift,
                          f"Wilson score interval of the accuracy, n = {int(n):,} (the bootstrap interval recorded "
                          f"beside it is a point: its {int(n):,} outcome(s) agree)")


def _multiple_choice_interval(path: str, value: float, lookup: Lookup, confidence: float) -> FigureInterval | None:
    """The multiple-choice figures with an interval of their own kind (module docstring), or ``None``."""
    m = re.fullmatch(r"ending_lengths\.(words|characters)\.(abs_effect_size|effect_size)", path)
    n = lookup("ending_lengths.n") if m else lookup("counts.questions")
    if not _number(n) or n <= 0:
        return None
    if m:
        d = lookup(f"ending_lengths.{m.group(1)}.effect_size")
        if not _number(d):
            return None
        low, high = effect_size_interval(float(d), int(n), confidence)
        if m.group(2) == "abs_effect_size":
            low, high = abs_interval(low, high)
        return FigureInterval(low, high, f"normal interval of Cohen's d_z, n = {int(n):,}")
    endings = (lookup("counts.endings_per_question_min"), lookup("counts.endings_per_question_max"))
    if path == "labels.max_deviation_pts" and _number(endings[0]) and endings[0] == endings[1] and endings[0] > 0:
        counts = lookup("labels.counts")
        if isinstance(counts, Mapping) and counts and all(_number(c) for c in counts.values()):
            low, high = max_deviation_interval([int(c) for c in counts.values()], 100.0 / endings[0], confidence)
            return FigureInterval(low, high, f"Wilson score intervals of the {len(counts)} label shares, "
                                             f"Bonferroni-joint, n = {int(n):,}")
    largest = lookup("labels.largest_pct")
    if path == "labels.majority_above_chance_pts" and _number(largest):
        low, high = wilson_interval(float(largest), int(n), confidence)
        chance = float(largest) - value
        return FigureInterval(low - chance, high - chance, f"Wilson score interval of the largest share, n = {int(n):,}")
    return None


def decide(op: str, threshold: float, low: float, high: float) -> str:
    """``"pass"`` when every value of ``[low, high]`` satisfies ``value op threshold``, ``"fail"`` when none
    does, else ``"unsure"`` (the interval holds the threshold: too small to tell).

    Raises:
        ValueError: ``op`` is not one of :data:`ORDER_OPERATORS`.
    """
    if op in ("<=", "<"):
        inside = (lambda x: x <= threshold) if op == "<=" else (lambda x: x < threshold)
        ok_all, ok_none = inside(high), not inside(low)
    elif op in (">=", ">"):
        inside = (lambda x: x >= threshold) if op == ">=" else (lambda x: x > threshold)
        ok_all, ok_none = inside(low), not inside(high)
    else:
        raise ValueError(f"an interval is read with {', '.join(ORDER_OPERATORS)}, not {op!r}")
    return "pass" if ok_all else "fail" if ok_none else "unsure"


def per_article_figures(dataset: Any, *, cache_dir: Any = None, progress: bool = False,
                        stats_options: Mapping[str, Any] | None = None,
                        whole: Mapping[str, Any] | None = None) -> list[dict] | None:
    """The statistics of each article of a span ``dataset`` on its own (the figures behind the
    cluster-robust intervals), computed as the whole file's were: :func:`mrclens.stats.compute_stats`,
    or :func:`~mrclens.stats.language_free.language_free_stats` with ``stats_options`` (``language``,
    ``sentencizer``: what reads no words, for data that is not English). ``None`` for anything but a
    span dataset of at least one article.

    A dataset of one article gives its one article's figures, which are ``whole`` (the file's figures) when
    given: a figure of one article has an unbounded interval by article (:data:`ONE_ARTICLE`), as two
    articles' have a wide one.
    """
    from mrclens.progress import progress as bar
    from mrclens.squad import Dataset

    if not isinstance(dataset, Dataset) or not dataset.articles:
        return None
    if len(dataset.articles) == 1 and whole is not None:
        return [dict(whole)]
    options = dict(stats_options or {})
    out = []
    for article in bar(dataset.articles, desc="statistics per article (for the intervals)", unit="article",
                       enabled=progress):
        one = Dataset([article], dataset.version)
        if "language" in options:
            from mrclens.stats.language_free import language_free_stats

            out.append(language_free_stats(one, None, **options))
            continue
        from mrclens.stats import compute_stats

        if next(one.iter_questions(), None) is None:  # no question: nothing to count
            continue
        out.append(compute_stats(one, cache_dir=cache_dir, progress=False, n_process=1))
    return out
