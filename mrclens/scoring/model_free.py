"""Model-free evidence per bias category: figures of the data itself, beside a reference (issue 17, part 3).

A drop says what a reader does; these figures say what the data offers a shortcut reader, with no
model at all (:func:`mrclens.stats.compute_stats`). For each bias category, the figures that bear
on it (:data:`FIGURES`) are compared with the same figures of a reference dataset (SQuAD v1.1 dev and
train but the bundled sample's articles by default, :mod:`mrclens.artifacts.reference`):

**Chance-corrected figures decide** (issue 32, :mod:`mrclens.stats.chance`): a raw share such as
"answers in the first sentence" has a chance level of 1/(number of sentences), so it confuses a
dataset's shape with its bias. Each category's verdict figure (``role`` ``"verdict"``) is chance-corrected:
the answer sentence's **percentile rank** among its context's sentence units (100 = ranks first,
50 = what a random sentence gives, whatever the number of sentences; the expected percentile rank
of Hu, Koren & Volinsky 2008) or a **top-1 share** beyond chance (0 = what a random sentence or place gives,
100 = always the top), and the reference's value is **re-weighted to the audited data's
sentence counts** (:func:`standardised_reference`), so that neither chance nor the number of
sentences drives the difference. **Each verdict figure's band is a planted share** (issue 54): a figure reads
"higher" or "lower" only when its whole interval, with the spread of clean data in its error (:data:`TOP_SPREAD`),
lies beyond as much as a shortcut in :data:`PLANTED_BAND` % of the questions moves it (:data:`PER_PLANTED_PCT`;
a minimum-effect test), "in line" inside that band, "slightly higher" / "slightly lower" inside it but clear of 0:

* Similarity — how often the answer sentence alone repeats a long stretch of the question (the longest shared
  word n-gram, in content words, of Bartolo et al. 2020, "Beat the AI", Table 4, per sentence; at least
  :data:`mrclens.stats.shared_ngram.MIN_CONTENT_WORDS`), beyond chance (:func:`mrclens.stats.shared_ngram.shared_ngram_top`).
* Keyword — how often the question's content words crowd the few tokens either side of the answer span more than
  any other place in the context, beyond chance (:func:`mrclens.stats.keyword_window.keyword_window_top`).
* Position — rank of the answer sentence by position (Ko et al. 2020, "Look at the First Sentence").
* Question — how often the answer is the span the context sets apart (quoted, bracketed, marked), so that it is found
  without reading the question, beyond a pick among the context's candidate answers (issue 54, item 5;
  :mod:`mrclens.stats.set_apart`, after Weissenborn et al. 2017 and Sugawara et al. 2018).

Similarity's and Keyword's figures measure the shortcut itself, not the sentence that holds the answer (issue 54): in
clean SQuAD the answer sentence is already the most TF-IDF-similar one and the one holding most of the question's
words (top-1 shares of about 60 beyond chance), so a shortcut planted in a quarter of the questions moved those
shares by 7 and 6 points, inside the interval of a 40-article file; a long shared n-gram (SQuAD: about 8 beyond
chance) and the question's words beside the span (about 3) start low and move by :data:`PER_PLANTED_PCT` per percent
of the questions. The top-1 shares (Sugawara et al. 2018, "What makes reading comprehension questions easier?", ask
whether the answer sentence is *the* most similar) and the ranks by similarity and by keywords stay as descriptions
(band ±:data:`RANK_MARGIN`).

The raw figures stay as descriptions (``role`` ``"description"``, never deciding), each with its
chance level where one is defined (``chance``): the share of answers in the most similar sentence
and in the first sentence (beside the share a random sentence gives, the mean of 1/units), the
longest n-gram shared by question and passage (Bartolo et al. 2020, "Beat the AI", Table 4: SQuAD
3.0 words, adversarial sets 2.0–2.2), the share of the question's content words in the answer
sentence, and for Question (beside its verdict figure) the share of questions answered exactly by the span of the
answer type their wh-word asks for in the most similar sentence (the type-matched heuristic of
:mod:`mrclens.stats.heuristics.type_matched`, after Weissenborn et al. 2017; SQuAD v1.1 dev: 26.8 %).

Uncertainty: a share ``p`` (percent) over ``n`` questions has standard error
``sqrt(p (100 − p) / n)``; a mean has ``std / sqrt(n)``. Questions are not independent, though:
those of one article share its passages, topic and annotators, so a dataset's figure varies
between articles far more than question sampling explains (the bundled sample's 8 evaluation
articles differ from SQuAD dev's 48 by 0.2 words of shared n-gram, which the per-question standard
error calls significant). When the figure is also computed per article
(:func:`cluster_standard_errors`), the standard error used is the larger of the two, the
cluster-robust one (:func:`mrclens.metrics.intervals.cluster_robust_se`, the one ``check`` uses too) being ``sqrt(k/(k−1) Σ_a (n_a (v_a − V))²) / N`` over ``k`` articles with
``n_a`` questions and value ``v_a`` (``V`` the overall value, ``N = Σ n_a``; the usual
cluster-robust variance of a mean, e.g. Cameron & Miller 2015, "A Practitioner's Guide to
Cluster-Robust Inference"). The difference to the reference
(questions of the two datasets are independent) has standard error ``sqrt(se² + se_ref²)`` and a
normal-approximation interval at the results' confidence level. The comparison is ``"higher"`` or
``"lower"`` when that interval excludes 0, else ``"in line"``; ``bias_when`` says which direction
is the one that offers the shortcut (``"higher"`` for every figure here).

Examples:
    >>> from mrclens.artifacts.reference import Reference, ReferenceFigure
    >>> stats = {"similarity": {"answer_in_most_similar_sentence_pct": 90.0, "n": 400}}
    >>> ref = Reference("ref", {}, {"similarity.answer_in_most_similar_sentence_pct": ReferenceFigure(80.0, 10000)})
    >>> fig = model_free_figures(stats, ref)[0]
    >>> fig.category, fig.value, fig.comparison, round(fig.difference, 1)
    ('Similarity', 90.0, 'higher', 10.0)
"""

from __future__ import annotations

import math
from typing import Any, Mapping, NamedTuple, Sequence

from mrclens.artifacts.reference import Reference, ReferenceFigure
from mrclens.artifacts.results import ModelFreeFigure
from mrclens.categories import figure_category
from mrclens.metrics.bootstrap import CONFIDENCE
from mrclens.metrics.estimate import Estimate
from mrclens.metrics.intervals import cluster_robust_se
from mrclens.verdicts import IN_LINE, INCONCLUSIVE, reading


class Figure(NamedTuple):
    """One model-free figure: its ``mrclens stats`` path (its bias category is the record that lists the
    path, :attr:`mrclens.categories.BiasCategory.figures`), kind (``"share"``: percent, a
    number; ``"mean"``: a :func:`mrclens.stats.summary.summarize` node), the path of its ``n`` for a
    share, label, the direction that offers the shortcut, its ``role`` (``"verdict"``: chance-corrected,
    read by the category verdict; ``"description"``: shown beside its chance level, never decides) and
    the stats path of its chance level (``None``: 50 for a percentile rank, or no defined chance)."""

    path: str
    kind: str
    n_path: str | None
    label: str
    bias_when: str
    role: str = "verdict"
    chance_path: str | None = None
    band: float | None = None
    chance_level: float | None = None
    #: between-dataset SD of the figure on clean data beyond their own errors (points; :data:`TOP_SPREAD`),
    #: added to the difference's standard error; ``None``: none measured.
    spread: float | None = None
    #: the margin for "higher"/"lower" (points) when not the rank's :data:`RANK_MARGIN`.
    margin: float | None = None
    #: points of the figure per percent of questions planted with its family's shortcut (:data:`PER_PLANTED_PCT`);
    #: its band is :data:`PLANTED_BAND` percent of the questions on that scale. ``None``: not calibrated.
    per_planted_pct: float | None = None

    @property
    def category(self) -> str:
        """The bias category whose record lists this figure (:func:`mrclens.categories.figure_category`)."""
        return figure_category(self.path)


#: The chance level of every percentile rank (:mod:`mrclens.stats.chance`), percent.
RANK_CHANCE = 50.0
#: The chance level of every chance-corrected top-1 share (:func:`mrclens.stats.chance.top_share`), percent.
TOP_CHANCE = 0.0
#: The smallest effect of interest of the data route, in percent of the questions (issue 54): a verdict figure reads
#: "more" or "less" only when its whole interval lies beyond as much as a shortcut planted in this share of the
#: questions moves it (:data:`PER_PLANTED_PCT`), "in line" (the equivalence test) when it lies inside that band,
#: "slightly more" / "slightly less" when inside it but clear of 0. Why 10 %: a tenth of the questions is a shortcut a
#: dataset builder acts on, and clean 40-article subsets of SQuAD v1.1 differ from the rest by an SD of about 2.5 % of
#: the questions on Similarity, 1.5 % on Keyword and 2 % on Position (:data:`TOP_SPREAD`; 4 % and 6 % with the
#: sentence-level top-1 shares Similarity and Keyword read before issue 54), so the interval of a 40-article file
#: spans about ±7 % of its questions on Similarity and Position, ±5 % on Keyword (BENCHMARKS.md, "Verdict figures
#: and their bands").
PLANTED_BAND = 10.0
#: How far each verdict figure moves per percent of questions planted with its family's shortcut (points per
#: percent): the slope through the origin of the planted-minus-clean difference of ``mrclens selftest``'s span
#: plantings (``overlap``, ``keywords``, ``position``) at 25 / 50 / 100 % on two random 40-article subsets of SQuAD
#: v1.1 train that are not the bundled sample's (the mean of the two), validated on the bundled sample's plantings
#: (``benchmarks/planted_share_scale.py --subsets 2 --validate``; BENCHMARKS.md). Question's (issue 54, item 5: the
#: ``marked`` planting) is fitted on one such subset (seed 100) and validated on another (seed 101, 0.577) and on the
#: bundled sample (0.588): ``planted_share_scale.py --plantings marked --subsets 1 --validate --validate-subsets 101``.
#: The scale of "as much as a shortcut in N % of the questions" on every surface.
PER_PLANTED_PCT = {"chance_corrected.shared_ngram_top": 0.625, "chance_corrected.keyword_window_top": 0.162,
                   "chance_corrected.position_rank": 0.455, "chance_corrected.set_apart_top": 0.564}
#: The band of the percentile ranks that describe a category (similarity and keyword ranks; percentile points): a
#: description never decides, but one beyond ±5 leaves "in line" unsupported. Measured (BENCHMARKS.md, "Verdict figures
#: and their margins"): clean SQuAD v1.1 evaluation articles differ from SQuAD dev by up to +4.4 points; also the
#: tolerance of a language's ranks against English (:mod:`mrclens.stats.sentencizer`).
RANK_MARGIN = 5.0
#: The margin of a verdict figure for "slightly more" / "slightly less" (points): none — a real difference inside the
#: band reads so once its interval clears 0.
TOP_MARGIN = 0.0
#: The between-dataset SD of each verdict figure on clean SQuAD data of other articles, beyond their own errors,
#: added to the difference's standard error (points): the 80 % Q-profile upper bound (Viechtbauer 2007;
#: :func:`mrclens.scoring.structure_term.heterogeneity_upper_bound`) around 0, fitted on 30 random 40-article subsets
#: of SQuAD v1.1 train, each read against the reference without its articles, and validated on 50 others: none read
#: "more" or "less" (``benchmarks/false_flags.py --subsets 80 --fit 30``; BENCHMARKS.md, "Verdict figures and their
#: bands"); Question's set-apart figure by the same command once it joined (issue 54, item 5; method of moments 0.00,
#: upper bound 0.08). The upper bound, not the point estimate (issue 54): the point estimate is the value that detects
#: the most. Similarity's and Keyword's figures of the shortcut itself (issue 54) vary between clean subsets no more
#: than their own errors say (SD 1.56 / 0.25 points against own errors of 1.53 / 0.27 over 80 subsets): the upper
#: bound on subsets 0–29 is 0, and subsets 30–79 read with it: none read "more" or "less".
TOP_SPREAD = {"chance_corrected.shared_ngram_top": 0.0, "chance_corrected.keyword_window_top": 0.0,
              "chance_corrected.position_rank": 0.61, "chance_corrected.set_apart_top": 0.08}
_RANDOM = "chance_corrected.random_sentence_share_pct"
#: The equivalence bands of the description figures, by unit (issue 41): a description never decides
#: "more" or "less" (it confuses shape with bias, issue 32), but the data route reads a category "in line"
#: only when its descriptions too lie inside their bands (:func:`mrclens.scoring.against_reference.model_free_reading`):
#: a share that moved beyond ±5 points, or the longest shared n-gram beyond ±0.5 words (SQuAD v1.1 dev:
#: 3.1 words; the ``overlap`` planting: 12.2), leaves "in line" unsupported. Measured on the bundled sample
#: (BENCHMARKS.md, "Verdict figures and their bands").
DESCRIPTION_BANDS = {"share": 5.0, "words": 0.5}

#: The model-free figures, by category: each category's chance-corrected figure (``role`` ``"verdict"``,
#: a percentile rank of the answer sentence; :mod:`mrclens.stats.chance`), then the raw figures that
#: describe it (``"description"``; a raw share beside the share a random sentence would give).
FIGURES: tuple[Figure, ...] = (
    Figure("chance_corrected.shared_ngram_top", "mean", None,
           "answer sentence alone repeats a stretch of the question of 4 content words or more, beyond chance "
           "(%; 100 = always, 0 = chance)",
           "higher", chance_level=TOP_CHANCE, spread=TOP_SPREAD["chance_corrected.shared_ngram_top"],
           margin=TOP_MARGIN, per_planted_pct=PER_PLANTED_PCT["chance_corrected.shared_ngram_top"]),
    Figure("chance_corrected.similarity_top", "mean", None,
           "answer sentence is the most similar to the question, beyond chance (%; 100 = always, 0 = chance)",
           "higher", "description", chance_level=TOP_CHANCE),
    Figure("chance_corrected.similarity_rank", "mean", None,
           "answer sentence's rank by similarity to the question (percentile; 100 = most similar, 50 = chance)", "higher",
           "description"),
    Figure("similarity.answer_in_most_similar_sentence_pct", "share", "similarity.n",
           "answers in the sentence most similar to the question (%)", "higher", "description", _RANDOM,
           DESCRIPTION_BANDS["share"]),
    Figure("overlap.longest_shared_ngram", "mean", None,
           "longest n-gram shared by question and passage (words)", "higher", "description", None,
           DESCRIPTION_BANDS["words"]),
    Figure("chance_corrected.keyword_window_top", "mean", None,
           "question's content words crowd the 3 tokens either side of the answer more than anywhere else, beyond "
           "chance (%; 100 = always, 0 = chance)",
           "higher", chance_level=TOP_CHANCE, spread=TOP_SPREAD["chance_corrected.keyword_window_top"],
           margin=TOP_MARGIN, per_planted_pct=PER_PLANTED_PCT["chance_corrected.keyword_window_top"]),
    Figure("chance_corrected.keyword_top", "mean", None,
           "answer sentence holds the most of the question's content words, beyond chance (%; 100 = always, 0 = chance)",
           "higher", "description", chance_level=TOP_CHANCE),
    Figure("chance_corrected.keyword_rank", "mean", None,
           "answer sentence's rank by the question's content words (percentile; 100 = holds most, 50 = chance)",
           "higher", "description"),
    Figure("overlap.content_words_in_answer_sentence_pct", "mean", None,
           "question content words found in the answer sentence (%)", "higher", "description", None,
           DESCRIPTION_BANDS["share"]),
    Figure("chance_corrected.position_rank", "mean", None,
           "answer sentence's rank by position (percentile; 100 = first sentence, 50 = chance)", "higher",
           spread=TOP_SPREAD["chance_corrected.position_rank"], margin=TOP_MARGIN,
           per_planted_pct=PER_PLANTED_PCT["chance_corrected.position_rank"]),
    Figure("answer_position.first_sentence_pct", "share", "answer_position.sentence_index.n",
           "answers in the first sentence (%)", "higher", "description", _RANDOM, DESCRIPTION_BANDS["share"]),
    Figure("chance_corrected.set_apart_top", "mean", None,
           "answer is the span the context sets apart (quoted, bracketed, marked), beyond chance "
           "(%; 100 = always, 0 = chance)", "higher", chance_level=TOP_CHANCE,
           spread=TOP_SPREAD["chance_corrected.set_apart_top"], margin=TOP_MARGIN,
           per_planted_pct=PER_PLANTED_PCT["chance_corrected.set_apart_top"]),
    Figure("heuristics.type_matched_sentence.exact_match", "share", "heuristics.type_matched_sentence.n",
           "questions answered exactly by the wh-word's answer type in the most similar sentence (%)", "higher",
           "description", None, DESCRIPTION_BANDS["share"]),
)


def strata_path(path: str) -> str | None:
    """The stats path of a chance-corrected figure's per-sentence-count strata (``None`` for other figures).

    >>> strata_path("chance_corrected.position_rank"), strata_path("overlap.longest_shared_ngram")
    ('chance_corrected.by_sentence_count.position_rank', None)
    """
    head, _, name = path.partition(".")
    return f"chance_corrected.by_sentence_count.{name}" if head == "chance_corrected" else None


def dotted_get(stats: Mapping[str, Any], dotted: str) -> Any:
    """The value at the dotted path ``dotted`` of nested mappings (``"a.b.c"``), ``None`` where a key is absent.

    >>> dotted_get({"a": {"b": 1}}, "a.b"), dotted_get({"a": {"b": 1}}, "a.c")
    (1, None)
    """
    node: Any = stats
    for key in dotted.split("."):
        if not isinstance(node, Mapping) or key not in node:
            return None
        node = node[key]
    return node


def figure_from_stats(stats: Mapping[str, Any], path: str, kind: str, n_path: str | None) -> ReferenceFigure | None:
    """One figure of a :func:`mrclens.stats.compute_stats` result as ``(value, n, std)`` (``None`` when absent or empty)."""
    node = dotted_get(stats, path)
    if kind == "share":
        n = dotted_get(stats, n_path) if n_path else None
        if node is None or not n:
            return None
        return ReferenceFigure(value=float(node), n=int(n))
    if not isinstance(node, Mapping) or node.get("mean") is None or not node.get("n"):
        return None
    return ReferenceFigure(value=float(node["mean"]), n=int(node["n"]), std=float(node.get("std") or 0.0))


def standard_error(fig: ReferenceFigure) -> float:
    """Standard error of a figure: ``sqrt(p (100 − p) / n)`` for a share in percent, ``std / sqrt(n)`` for a
    mean, or its cluster-robust ``se`` when that is larger (module docstring)."""
    if fig.std is None:
        p = fig.value
        own = math.sqrt(max(p * (100.0 - p), 0.0) / fig.n)
    else:
        own = fig.std / math.sqrt(fig.n)
    return max(own, fig.se or 0.0)


def cluster_standard_errors(per_article: Sequence[Mapping[str, Any]]) -> dict[str, tuple[float, int]]:
    """Per figure of :data:`FIGURES`: ``(cluster-robust standard error, number of articles)`` from the
    figure computed on each article (:func:`mrclens.stats.compute_stats` of one article each; module
    docstring). Figures with fewer than two articles are left out.

    >>> arts = [{"similarity": {"answer_in_most_similar_sentence_pct": v, "n": 100}} for v in (70.0, 90.0)]
    >>> se, k = cluster_standard_errors(arts)["similarity.answer_in_most_similar_sentence_pct"]
    >>> round(se, 2), k
    (10.0, 2)
    """
    out = {}
    for fig_ in FIGURES:
        path, kind, n_path = fig_.path, fig_.kind, fig_.n_path
        vals = [f for st in per_article for f in [figure_from_stats(st, path, kind, n_path)] if f is not None and f.n]
        got = cluster_robust_se([f.value for f in vals], [f.n for f in vals])
        if got is not None:
            out[path] = got
    return out


def model_free_figures(stats: Mapping[str, Any], reference: Reference | None,
                       confidence: float = CONFIDENCE,
                       clusters: Mapping[str, tuple[float, int]] | None = None) -> list[ModelFreeFigure]:
    """The model-free figures of the audited data, each beside the reference's (rules in the module docstring).

    A chance-corrected figure is compared with the reference's **standardised to the audited data's
    sentence counts** when the reference holds its strata (:func:`standardised_reference`), so that
    neither chance nor the number of sentences drives the difference.

    Args:
        stats: :func:`mrclens.stats.compute_stats` on the audited (evaluation) data.
        reference: the reference figures (``None``: the figures without comparison).
        confidence: level of the intervals (0.95: ±1.96 standard errors).
        clusters: per figure, the cluster-robust standard error by article and the number of
            articles (:func:`cluster_standard_errors`); used where larger than the per-question one.

    Returns:
        one :class:`~mrclens.artifacts.results.ModelFreeFigure` per figure of :data:`FIGURES` that
        the data has (a share over no question is left out), with its ``role`` and ``chance`` level.
    """
    out = []
    for spec in FIGURES:
        own = figure_from_stats(stats, spec.path, spec.kind, spec.n_path)
        if own is None:
            continue
        cluster = (clusters or {}).get(spec.path)
        if cluster is not None:
            own.se = cluster[0]
        mine = Estimate(own.value, standard_error(own))
        low, high = mine.interval(confidence)
        chance = (spec.chance_level if spec.chance_level is not None else RANK_CHANCE if strata_path(spec.path)
                  else dotted_get(stats, spec.chance_path) if spec.chance_path else None)
        fig = ModelFreeFigure(category=spec.category, path=spec.path, label=spec.label, bias_when=spec.bias_when,
                              value=_r(own.value), ci_low=_r(low), ci_high=_r(high),
                              n=own.n, articles=cluster[1] if cluster is not None else None, role=spec.role,
                              chance=None if chance is None else _r(chance))
        ref = reference.figures.get(spec.path) if reference is not None else None
        if ref is not None and ref.value is not None and ref.n:
            weights = _stratum_counts(stats, spec.path)
            standard = standardised_reference(ref, weights) if weights else None
            if standard is not None:
                ref, fig.reference_standardised = standard, True
            theirs = Estimate(ref.value, standard_error(ref))
            diff = mine.minus(theirs).with_extra_sd(spec.spread)  # normal here; judge_figure reads it with t
            low, high = diff.interval(confidence)
            fig.reference = reference.name
            fig.reference_value, fig.reference_n = _r(ref.value), ref.n
            fig.reference_ci_low, fig.reference_ci_high = (_r(x) for x in theirs.interval(confidence))
            fig.difference, fig.difference_ci_low, fig.difference_ci_high = _r(diff.value), _r(low), _r(high)
            fig.margin = (spec.margin if spec.margin is not None else RANK_MARGIN if strata_path(spec.path)
                          else (spec.band or 0.0))
            fig.band = (PLANTED_BAND * spec.per_planted_pct if spec.per_planted_pct is not None
                        else spec.band if strata_path(spec.path) and spec.band is not None else None)
            fig.per_planted_pct = spec.per_planted_pct
            judge_figure(fig, confidence, confidence)
        out.append(fig)
    return out


def judge_figure(fig: ModelFreeFigure, confidence: float, level: float) -> ModelFreeFigure:
    """Set ``fig``'s difference interval at ``level`` (from the one it holds: at ``difference_confidence`` when
    it was judged before, else the normal one at ``confidence``), its
    ``comparison`` and its minimum detectable effect; return ``fig`` (changed in place).

    ``comparison`` is "higher" / "lower" when the whole interval lies beyond ``±band`` (``fig.band``, else
    ``±margin``: the smallest effect of interest, :data:`PLANTED_BAND` % of the questions on the figure's
    :data:`PER_PLANTED_PCT` scale for a verdict figure), "in line" when it lies inside it ("slightly higher" /
    "slightly lower" when also clear of ``±margin``), else "inconclusive"
    (:func:`mrclens.metrics.power.read_interval`); ``mde`` is the smallest difference beyond
    the band read at 80 % power (:func:`mrclens.metrics.power.minimum_detectable_effect`), in the
    figure's unit. A figure whose standard error is clustered by ``articles`` (``k`` of them) is read with
    Student's t on ``k - 1`` degrees of freedom (:func:`mrclens.metrics.power.critical_value`), else with
    the normal quantile. ``difference_se`` and ``difference_df`` are the standard error and degrees of freedom
    the interval is drawn with (:class:`mrclens.metrics.estimate.Estimate`). A figure without a difference is left
    as it is.
    """
    if fig.difference is None or fig.difference_ci_low is None or fig.difference_ci_high is None:
        return fig
    df = fig.articles - 1 if fig.articles is not None and fig.articles > 1 else None  # clustered: t(k - 1)
    # the interval it holds: judged before (at difference_confidence, t or normal as here), or as
    # model_free_figures built it (normal, at confidence); so judging again gives the same figure
    held = (Estimate.from_interval(fig.difference_ci_low, fig.difference_ci_high, fig.difference_confidence, df,
                                   value=fig.difference) if fig.difference_confidence else
            Estimate.from_interval(fig.difference_ci_low, fig.difference_ci_high, confidence, value=fig.difference))
    diff = Estimate(fig.difference, held.se, df)
    band = fig.margin if getattr(fig, "band", None) is None else fig.band
    got = diff.read(level, band, margin=fig.margin)
    fig.difference_ci_low, fig.difference_ci_high, fig.difference_confidence = _r(got.low), _r(got.high), level
    fig.difference_se, fig.difference_df = _r(diff.se), diff.df
    # the reading's word for a figure (:attr:`mrclens.verdicts.Reading.figure`: signed as the figure, "higher" / "lower")
    fig.comparison = reading(got.reading).figure
    fig.mde = _r(got.mde)
    return fig


def in_line_reachable(fig: ModelFreeFigure) -> bool:
    """Whether some number of questions could read ``fig`` "in line": its band is wider than the interval the
    spread of clean data alone gives (:data:`TOP_SPREAD` at the level the figure was judged, with the normal quantile:
    the limit of many articles). A figure without a band, a spread or a judgement is taken as reachable.

    >>> from dataclasses import replace
    >>> from mrclens.artifacts.results import ModelFreeFigure
    >>> f = ModelFreeFigure("Position", "chance_corrected.position_rank", "l", "higher", 60.0, 55.0, 65.0, 400,
    ...                     band=4.55, difference_confidence=0.9929)
    >>> in_line_reachable(f)    # 2.69 x 0.61 = 1.6 points of spread alone, inside a band of 4.55
    True
    >>> in_line_reachable(replace(f, band=1.5))    # a band narrower than that: no number of questions reaches it
    False
    """
    spread = TOP_SPREAD.get(fig.path)
    if not spread or fig.band is None or fig.difference_confidence is None:
        return True
    from mrclens.metrics.power import critical_value

    return fig.band > critical_value(fig.difference_confidence) * spread


def _stratum_counts(stats: Mapping[str, Any], path: str) -> dict[str, int]:
    """The audited data's questions per sentence-count stratum for a chance-corrected figure (``{}``: none)."""
    where = strata_path(path)
    node = dotted_get(stats, where) if where else None
    if not isinstance(node, Mapping):
        return {}
    return {s: int(v["n"]) for s, v in node.items() if isinstance(v, Mapping) and v.get("n")}


def standardised_reference(ref: ReferenceFigure, weights: Mapping[str, int]) -> ReferenceFigure | None:
    """The reference figure re-weighted to another dataset's sentence counts (direct standardisation).

    ``value = Σ_s w_s m_s`` over the strata ``s`` of :data:`mrclens.stats.chance.STRATA` that the
    other dataset has (``w_s``: its share of questions there; ``m_s``: the reference's mean there; a
    stratum the reference lacks borrows the nearest one it has). Standard error ``sqrt(Σ w_s² sd_s² /
    n_s)``, scaled by the reference's design effect from clustering by article (its clustered ``se``
    over ``std / sqrt(n)``, at least 1). ``n`` is the reference's.

    Returns:
        the standardised figure, or ``None`` when ``ref`` holds no strata or ``weights`` is empty.

    >>> ref = ReferenceFigure(60.0, 300, 20.0, strata={"2": (100, 50.0, 20.0), "5": (200, 65.0, 20.0)})
    >>> std = standardised_reference(ref, {"2": 30, "3": 10})   # "3" borrows "2", the nearest
    >>> round(std.value, 1), std.n
    (50.0, 300)
    """
    from mrclens.stats.chance import STRATA

    if not ref.strata or not weights:
        return None
    have = [s for s in STRATA if s in ref.strata and ref.strata[s][0]]
    if not have:
        return None
    total = sum(weights.values())
    value = var = 0.0
    for s, count in weights.items():
        if s not in STRATA or not count:
            continue
        near = min(have, key=lambda h: abs(STRATA.index(h) - STRATA.index(s)))
        n_s, mean_s, sd_s = ref.strata[near]
        w = count / total
        value += w * mean_s
        var += w * w * (sd_s or 0.0) ** 2 / n_s
    naive = (ref.std or 0.0) / math.sqrt(ref.n) if ref.n else 0.0
    deff = max(1.0, (ref.se or 0.0) / naive) if naive else 1.0
    return ReferenceFigure(value=value, n=ref.n, std=0.0, se=math.sqrt(var) * deff)


def _strata_of(stats: Mapping[str, Any], path: str) -> dict[str, tuple[int, float, float]] | None:
    """A chance-corrected figure's strata ``{stratum: (n, mean, std)}`` from ``stats`` (``None``: none there)."""
    where = strata_path(path)
    node = dotted_get(stats, where) if where else None
    if not isinstance(node, Mapping):
        return None
    return {s: (int(v["n"]), _r(v["mean"]), _r(v["std"] or 0.0))
            for s, v in node.items() if isinstance(v, Mapping) and v.get("n") and v.get("mean") is not None} or None


def standardised_to(stats: Mapping[str, Any], other: Mapping[str, Any], path: str) -> ReferenceFigure | None:
    """A chance-corrected figure of ``stats`` re-weighted to ``other``'s sentence counts
    (:func:`standardised_reference`; ``mrclens compare`` reads the first input so), or ``None`` when
    ``path`` has no strata or either side lacks them.

    >>> a = {"chance_corrected": {"position_rank": {"mean": 60.0, "n": 300, "std": 20.0}, "by_sentence_count":
    ...      {"position_rank": {"2": {"n": 100, "mean": 50.0, "std": 20.0}, "5": {"n": 200, "mean": 65.0, "std": 20.0}}}}}
    >>> b = {"chance_corrected": {"by_sentence_count": {"position_rank": {"2": {"n": 40, "mean": 52.0, "std": 9.0}}}}}
    >>> round(standardised_to(a, b, "chance_corrected.position_rank").value, 1)
    50.0
    """
    fig = figure_from_stats(stats, path, "mean", None)
    if fig is None:
        return None
    fig.strata = _strata_of(stats, path)
    weights = _stratum_counts(other, path)
    return standardised_reference(fig, weights) if fig.strata and weights else None


#: How far the audited data's contexts may be from the reference's (ratio of median sentence units per context,
#: either way) before a verdict decided by the drops says that the shape may explain it (issue 41): the drops
#: depend on context length (a question matters less among 2 sentences than among 5), and the drops are not
#: standardised by sentence count as the data's figures are. SQuAD v1.1's own articles have medians of 4 to 6.
SHAPE_RATIO = 1.5


class ContextShape(NamedTuple):
    """The audited data's context length beside the reference's, in sentence units per context (median over
    the answerable questions of contexts of two units or more; the reference's natural paragraphs, without
    the joined paragraphs of its long strata). ``sentences``/``reference_sentences`` are a stratum label of
    :data:`mrclens.stats.chance.STRATA` (``"2"`` … ``"9"``, ``"10-14"``, ``"15+"``)."""

    sentences: str
    reference_sentences: str

    @property
    def ratio(self) -> float:
        """Data over reference (a stratum's lower bound: 10 for ``"10-14"``, 15 for ``"15+"``)."""
        return _stratum_low(self.sentences) / _stratum_low(self.reference_sentences)

    @property
    def differs(self) -> bool:
        """The median differs by :data:`SHAPE_RATIO` or more either way."""
        return self.ratio >= SHAPE_RATIO or self.ratio <= 1.0 / SHAPE_RATIO

    def sentence(self, reference: str) -> str:
        """``"your contexts hold a median of 2 sentences against SQuAD v1.1's 5"``."""
        return (f"your contexts hold a median of {self.sentences.replace('-', '–')} sentences against "
                f"{reference}'s {self.reference_sentences.replace('-', '–')}")


def _stratum_low(label: str) -> float:
    return float(label.rstrip("+").split("-")[0])


def _median_stratum(counts: Mapping[str, int]) -> str | None:
    from mrclens.stats.chance import STRATA

    total = sum(counts.get(s, 0) for s in STRATA)
    if not total:
        return None
    seen = 0
    for s in STRATA:
        seen += counts.get(s, 0)
        if 2 * seen >= total:
            return s
    return None


def context_shape(stats: Mapping[str, Any], reference: Reference | None) -> ContextShape | None:
    """The audited data's median sentence units per context beside the reference's natural paragraphs'
    (:class:`ContextShape`), from the strata of the position rank (``None`` without them on either side).

    >>> from mrclens.artifacts.reference import Reference, ReferenceFigure
    >>> ref = Reference("ref", {"long_strata": {"questions_added": {"10-14": 50}}}, {"chance_corrected.position_rank":
    ...     ReferenceFigure(57.0, 300, 30.0, strata={"4": (100, 55.0, 30.0), "5": (150, 57.0, 30.0), "10-14": (60, 60.0, 30.0)})})
    >>> stats = {"chance_corrected": {"by_sentence_count": {"position_rank": {"2": {"n": 80}, "3": {"n": 10}}}}}
    >>> shape = context_shape(stats, ref)
    >>> shape, round(shape.ratio, 2), shape.differs
    (ContextShape(sentences='2', reference_sentences='5'), 0.4, True)
    """
    path = "chance_corrected.position_rank"
    mine = _median_stratum(_stratum_counts(stats, path))
    fig = reference.figures.get(path) if reference is not None else None
    if mine is None or fig is None or not fig.strata:
        return None
    added = (reference.provenance.get("long_strata") or {}).get("questions_added") or {}
    natural = {s: n - int(added.get(s, 0)) for s, (n, _, _) in fig.strata.items()}
    theirs = _median_stratum(natural)
    return None if theirs is None else ContextShape(mine, theirs)


def reference_from_stats(stats: Mapping[str, Any], name: str, provenance: Mapping[str, Any],
                         clusters: Mapping[str, tuple[float, int]] | None = None) -> Reference:
    """A :class:`~mrclens.artifacts.reference.Reference` holding the :data:`FIGURES` of ``stats`` (with
    their cluster-robust standard errors when ``clusters`` gives them, :func:`cluster_standard_errors`),
    and each chance-corrected figure's strata by sentence count (:func:`standardised_reference`)."""
    figures = {}
    for spec in FIGURES:
        fig = figure_from_stats(stats, spec.path, spec.kind, spec.n_path)
        if fig is not None:
            if clusters and spec.path in clusters:
                fig.se = _r(clusters[spec.path][0])
            fig.strata = _strata_of(stats, spec.path)
            figures[spec.path] = fig
    return Reference(name=name, provenance=dict(provenance), figures=figures)


def describe(fig: ModelFreeFigure, confidence: float = CONFIDENCE) -> str:
    """One sentence for a reading: the figure, its interval and how it compares with the reference."""
    from mrclens.metrics.bootstrap import confidence_label

    ci = confidence_label(confidence)
    text = f"{fig.label}: {fig.value:.1f} ({ci} {fig.ci_low:.1f} to {fig.ci_high:.1f}, {fig.n:,} questions"
    if getattr(fig, "role", "verdict") == "description" and fig.chance is not None:
        text += f"; a sentence drawn at random: {fig.chance:.1f}"
    text += ")"
    if fig.comparison is None:
        return text + "."
    side = (IN_LINE.than if fig.comparison == IN_LINE.figure else INCONCLUSIVE.than
            if fig.comparison == INCONCLUSIVE.figure else f"{fig.comparison} than")
    margin = getattr(fig, "margin", 0.0) or 0.0
    band = getattr(fig, "band", None) or margin
    toward = ""
    if fig.comparison != IN_LINE.figure:
        toward = (", in the direction that offers this shortcut" if fig.comparison == fig.bias_when
                  else ", in the direction that offers less of this shortcut")
    weighted = " weighted to this data's sentence counts" if getattr(fig, "reference_standardised", False) else ""
    note = " (a description: it does not decide the verdict)" if getattr(fig, "role", "verdict") == "description" else ""
    planted = fig.planted(fig.difference) if isinstance(fig, ModelFreeFigure) else None
    if planted is not None:  # issue 54: the difference and the band as planted shares
        low, high = fig.planted(fig.difference_ci_low), fig.planted(fig.difference_ci_high)
        share = (f"; as much as a shortcut in {planted:+.0f} % of the questions ({low:+.0f} to {high:+.0f}); "
                 f"differences within ±{band:.2f} ({fig.planted(band):g} % of the questions) read in line, beyond it "
                 f"higher or lower, inside it but clear of 0 slightly higher or lower, the spread of clean data held in "
                 f"the interval")
    else:
        share = f"{f'; differences within ±{band:g} read in line' if band else ''}{_beyond(margin) if band != margin else ''}"
    return (f"{text}, {side} {fig.reference}{weighted} ({fig.reference_value:.1f}; difference {fig.difference:+.1f}, "
            f"{ci} {fig.difference_ci_low:+.1f} to {fig.difference_ci_high:+.1f}{share}){toward}{note}.")


def _beyond(margin: float) -> str:
    """The words for the margin a figure must clear to read slightly higher or lower."""
    if margin:
        return f", inside it beyond ±{margin:g} slightly higher or lower"
    return ", inside it but clear of 0 slightly higher or lower, the spread of clean data held in the interval"


def cite(categories: Sequence[Any], figures: Sequence[ModelFreeFigure], confidence: float = CONFIDENCE) -> list[Any]:
    """Copies of the category entries whose readings end with their model-free figures (levels unchanged)."""
    from dataclasses import replace

    out = []
    for c in categories:
        mine = [f for f in figures if f.category == c.category]
        if not mine or c.reading is None:
            out.append(c)
            continue
        text = " Model-free (the data alone, no reader): " + " ".join(describe(f, confidence) for f in mine)
        out.append(replace(c, reading=c.reading + text))
    return out


def _r(x: float) -> float:
    return round(float(x), 4)
