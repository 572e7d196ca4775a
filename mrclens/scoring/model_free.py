"""Model-free evidence per bias category: figures of the data itself, beside a reference (issue 17, part 3).

A drop says what a reader does; these figures say what the data offers a shortcut reader, with no
model at all (:func:`mrclens.stats.compute_stats`). For each bias category, the figures that bear
on it (:data:`FIGURES`) are compared with the same figures of a reference dataset (SQuAD v1.1 dev
by default, :mod:`mrclens.artifacts.reference`):

* Similarity — the share of answers in the sentence most similar to the question (TF-IDF;
  Sugawara et al. 2018, "What makes reading comprehension questions easier?") and the longest
  n-gram shared by question and passage (Bartolo et al. 2020, "Beat the AI", Table 4: SQuAD 3.0
  words, adversarial sets 2.0–2.2).
* Keyword — the share of the question's content words found in the answer sentence.
* Position — the share of answers in the first sentence (Ko et al. 2020, "Look at the First
  Sentence").
* Question — the share of questions answered exactly by the span of the answer type their
  wh-word asks for in the sentence most similar to the question (the type-matched heuristic of
  :mod:`mrclens.stats.heuristics.type_matched`, after Weissenborn et al. 2017): how far the question
  word's type plus word overlap get without reading the question's meaning (SQuAD v1.1 dev: 27.4 %).

Uncertainty: a share ``p`` (percent) over ``n`` questions has standard error
``sqrt(p (100 − p) / n)``; a mean has ``std / sqrt(n)``. Questions are not independent, though:
those of one article share its passages, topic and annotators, so a dataset's figure varies
between articles far more than question sampling explains (the bundled sample's 8 evaluation
articles differ from SQuAD dev's 48 by 0.2 words of shared n-gram, which the per-question standard
error calls significant). When the figure is also computed per article
(:func:`cluster_standard_errors`), the standard error used is the larger of the two, the
cluster-robust one being ``sqrt(k/(k−1) Σ_a (n_a (v_a − V))²) / N`` over ``k`` articles with
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
from statistics import NormalDist
from typing import Any, Mapping, Sequence

from mrclens.artifacts.reference import Reference, ReferenceFigure
from mrclens.artifacts.results import ModelFreeFigure
from mrclens.metrics.bootstrap import CONFIDENCE

#: Per figure: ``(category, stats path, kind, path of its n for a share, label, bias_when)``;
#: ``kind`` is ``"share"`` (percent, a number) or ``"mean"`` (a :func:`mrclens.stats.summary.summarize` node).
FIGURES: tuple[tuple[str, str, str, str | None, str, str], ...] = (
    ("Similarity", "similarity.answer_in_most_similar_sentence_pct", "share", "similarity.n",
     "answers in the sentence most similar to the question (%)", "higher"),
    ("Similarity", "overlap.longest_shared_ngram", "mean", None,
     "longest n-gram shared by question and passage (words)", "higher"),
    ("Keyword", "overlap.content_words_in_answer_sentence_pct", "mean", None,
     "question content words found in the answer sentence (%)", "higher"),
    ("Position", "answer_position.first_sentence_pct", "share", "answer_position.sentence_index.n",
     "answers in the first sentence (%)", "higher"),
    ("Question", "heuristics.type_matched_sentence.exact_match", "share", "heuristics.type_matched_sentence.n",
     "questions answered exactly by the wh-word's answer type in the most similar sentence (%)", "higher"),
)


def _get(stats: Mapping[str, Any], dotted: str) -> Any:
    node: Any = stats
    for key in dotted.split("."):
        if not isinstance(node, Mapping) or key not in node:
            return None
        node = node[key]
    return node


def figure_from_stats(stats: Mapping[str, Any], path: str, kind: str, n_path: str | None) -> ReferenceFigure | None:
    """One figure of a :func:`mrclens.stats.compute_stats` result as ``(value, n, std)`` (``None`` when absent or empty)."""
    node = _get(stats, path)
    if kind == "share":
        n = _get(stats, n_path) if n_path else None
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
    for _, path, kind, n_path, _, _ in FIGURES:
        vals = [f for st in per_article for f in [figure_from_stats(st, path, kind, n_path)] if f is not None and f.n]
        k = len(vals)
        if k < 2:
            continue
        total = sum(f.n for f in vals)
        mean = sum(f.n * f.value for f in vals) / total
        var = k / (k - 1) * sum((f.n * (f.value - mean)) ** 2 for f in vals) / total ** 2
        out[path] = (math.sqrt(var), k)
    return out


def model_free_figures(stats: Mapping[str, Any], reference: Reference | None,
                       confidence: float = CONFIDENCE,
                       clusters: Mapping[str, tuple[float, int]] | None = None) -> list[ModelFreeFigure]:
    """The model-free figures of the audited data, each beside the reference's (rules in the module docstring).

    Args:
        stats: :func:`mrclens.stats.compute_stats` on the audited (evaluation) data.
        reference: the reference figures (``None``: the figures without comparison).
        confidence: level of the intervals (0.95: ±1.96 standard errors).
        clusters: per figure, the cluster-robust standard error by article and the number of
            articles (:func:`cluster_standard_errors`); used where larger than the per-question one.

    Returns:
        one :class:`~mrclens.artifacts.results.ModelFreeFigure` per figure of :data:`FIGURES` that
        the data has (a share over no question is left out).
    """
    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    out = []
    for category, path, kind, n_path, label, bias_when in FIGURES:
        own = figure_from_stats(stats, path, kind, n_path)
        if own is None:
            continue
        cluster = (clusters or {}).get(path)
        if cluster is not None:
            own.se = cluster[0]
        se = standard_error(own)
        fig = ModelFreeFigure(category=category, path=path, label=label, bias_when=bias_when, value=_r(own.value),
                              ci_low=_r(own.value - z * se), ci_high=_r(own.value + z * se), n=own.n,
                              articles=cluster[1] if cluster is not None else None)
        ref = reference.figures.get(path) if reference is not None else None
        if ref is not None and ref.value is not None and ref.n:
            ref_se = standard_error(ref)
            diff, diff_se = own.value - ref.value, math.sqrt(se ** 2 + ref_se ** 2)
            low, high = diff - z * diff_se, diff + z * diff_se
            fig.reference = reference.name
            fig.reference_value, fig.reference_n = _r(ref.value), ref.n
            fig.reference_ci_low, fig.reference_ci_high = _r(ref.value - z * ref_se), _r(ref.value + z * ref_se)
            fig.difference, fig.difference_ci_low, fig.difference_ci_high = _r(diff), _r(low), _r(high)
            fig.comparison = "higher" if low > 0 else "lower" if high < 0 else "in line"
        out.append(fig)
    return out


def reference_from_stats(stats: Mapping[str, Any], name: str, provenance: Mapping[str, Any],
                         clusters: Mapping[str, tuple[float, int]] | None = None) -> Reference:
    """A :class:`~mrclens.artifacts.reference.Reference` holding the :data:`FIGURES` of ``stats`` (with
    their cluster-robust standard errors when ``clusters`` gives them, :func:`cluster_standard_errors`)."""
    figures = {}
    for _, path, kind, n_path, _, _ in FIGURES:
        fig = figure_from_stats(stats, path, kind, n_path)
        if fig is not None:
            if clusters and path in clusters:
                fig.se = _r(clusters[path][0])
            figures[path] = fig
    return Reference(name=name, provenance=dict(provenance), figures=figures)


def describe(fig: ModelFreeFigure, confidence: float = CONFIDENCE) -> str:
    """One sentence for a reading: the figure, its interval and how it compares with the reference."""
    from mrclens.metrics.bootstrap import confidence_label

    ci = confidence_label(confidence)
    text = f"{fig.label}: {fig.value:.1f} ({ci} {fig.ci_low:.1f} to {fig.ci_high:.1f}, {fig.n:,} questions)"
    if fig.comparison is None:
        return text + "."
    side = ("in line with" if fig.comparison == "in line" else f"{fig.comparison} than")
    toward = ""
    if fig.comparison != "in line":
        toward = (", in the direction that offers this shortcut" if fig.comparison == fig.bias_when
                  else ", in the direction that offers less of this shortcut")
    return (f"{text}, {side} {fig.reference} ({fig.reference_value:.1f}; difference {fig.difference:+.1f}, "
            f"{ci} {fig.difference_ci_low:+.1f} to {fig.difference_ci_high:+.1f}){toward}.")


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
