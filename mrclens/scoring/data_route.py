"""The data route's verdicts alone, before any reader is trained (issue 57: the first verdict in a minute).

An audit reads each bias category by two routes (:func:`mrclens.scoring.against_reference.compare_with_reference`):
the reader's drops, which need a trained reader, and the data's own figures
(:func:`mrclens.scoring.model_free.model_free_figures`), which need only the parsed data. :func:`data_route` gives
the second alone, **as the audit reads it**: the same figures of the same questions clustered by article, each
verdict figure judged at the family-wise level the audit of ``profile`` uses (Bonferroni over the categories whose
drops it compares with the reference and the data's verdict figures: :func:`audit_family`), the same band
(:data:`~mrclens.scoring.model_free.PLANTED_BAND` % of the questions), minimum detectable effect and
:func:`~mrclens.scoring.against_reference.model_free_reading`. So ``mrclens check`` prints it beside its rules and
``mrclens audit`` prints it as a *preliminary* verdict as soon as the data is parsed; the audit's final verdict may
differ only where its drops decide (a category the data cannot read, or one the drops read otherwise:
:func:`~mrclens.scoring.against_reference.combine_routes`). Every built-in category has a verdict figure of the data
(Question's since issue 54, item 5: :mod:`mrclens.stats.set_apart`).

Examples:
    >>> from mrclens.artifacts.reference import read_reference
    >>> audit_family(read_reference(), "quick", n_figures=4)
    8
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from mrclens.artifacts.reference import Reference
from mrclens.artifacts.results import ModelFreeFigure
from mrclens.categories import CATEGORY_NAMES, get_category
from mrclens.metrics.bootstrap import CONFIDENCE
from mrclens.metrics.power import family_confidence
from mrclens.scoring.against_reference import model_free_reading
from mrclens.scoring.model_free import (ContextShape, cluster_standard_errors, context_shape, judge_figure,
                                        model_free_figures)
from mrclens.verdicts import LESS, MORE, reading

#: The reader profile whose audit family the data route is read in by default: the audit's default profile.
DEFAULT_PROFILE = "quick"


@dataclass(frozen=True)
class DataVerdict:
    """One category's reading from the data's own figures.

    Attributes:
        category: the bias category.
        reading: a reading's name (:mod:`mrclens.verdicts`: "more", "slightly more", "in line", …,
            "inconclusive"); ``None`` when no figure of the data measures the category (its drops decide).
        figure: the verdict figure that decided it (for "more" / "less" the one that moved that way; else the
            category's first), judged at the audit's family-wise level; ``None`` with ``reading``.
    """

    category: str
    reading: str | None
    figure: ModelFreeFigure | None


@dataclass(frozen=True)
class DataRoute:
    """The data route of one dataset (:func:`data_route`).

    Attributes:
        verdicts: one :class:`DataVerdict` per bias category, in report order.
        figures: every model-free figure (verdict figures judged at ``level``), as an audit's ``results.json``
            holds them.
        shape: the data's context length beside the reference's (``None`` without strata).
        family: the number of tests the audit reads together; ``level``: the family-wise confidence (e.g. 0.9929).
        reference: the reference's name; ``profile``: the reader profile whose audit family was used.
    """

    verdicts: tuple[DataVerdict, ...]
    figures: tuple[ModelFreeFigure, ...]
    shape: ContextShape | None
    family: int
    level: float
    reference: str
    profile: str

    def to_json(self) -> dict[str, Any]:
        """``mrclens check --json``'s ``data_verdicts``: the reference, profile, family and level, the context
        shape, and per category its reading and verdict figure — the difference with its interval, band and MDE
        in the figure's points (as the audit's ``results.json`` holds them) and as planted shares in percent of
        the questions (``planted_pct``)."""
        def planted(f: ModelFreeFigure, x: float | None) -> float | None:
            got = f.planted(x) if f.per_planted_pct else None
            return None if got is None else round(got, 2)

        categories = []
        for v in self.verdicts:
            f = v.figure
            categories.append({"category": v.category, "reading": v.reading, **({} if f is None else {
                "figure": f.path, "value": f.value, "reference_value": f.reference_value, "difference": f.difference,
                "difference_ci_low": f.difference_ci_low, "difference_ci_high": f.difference_ci_high,
                "band": None if f.band is None else round(f.band, 4), "mde": f.mde,
                "per_planted_pct": f.per_planted_pct,
                "planted_pct": {"difference": planted(f, f.difference), "ci_low": planted(f, f.difference_ci_low),
                                "ci_high": planted(f, f.difference_ci_high), "band": planted(f, f.band),
                                "mde": planted(f, f.mde)}})})
        return {"reference": self.reference, "profile": self.profile, "family": self.family,
                "level": round(self.level, 6),
                "context_shape": None if self.shape is None else self.shape._asdict(), "categories": categories}


def audit_family(reference: Reference, profile: str, n_figures: int) -> int:
    """How many tests an audit with reader ``profile`` reads together (as
    :func:`mrclens.scoring.against_reference.verdict_family` counts them in the audit): each built-in span category
    with an ablation in the reference's audit of ``profile`` (none without that audit), plus ``n_figures`` data
    verdict figures; at least 1."""
    import mrclens.perturbations  # noqa: F401  (the span registry hands its ablations to the categories)

    audit = reference.audits.get(profile)
    drops = 0 if audit is None else sum(
        any(a in audit.ablations for a in get_category(name).ablations) for name in CATEGORY_NAMES)
    return max(drops + n_figures, 1)


def _deciding(figures: Sequence[ModelFreeFigure], category: str, name: str | None) -> ModelFreeFigure | None:
    mine = [f for f in figures if f.category == category and f.role == "verdict" and f.comparison is not None]
    read = reading(name) if name is not None else None
    if read in (MORE, LESS):
        moved = [f for f in mine if (f.comparison == f.bias_when) == (read is MORE)
                 and f.comparison in (MORE.figure, LESS.figure)]
        return (moved or mine or [None])[0]
    return mine[0] if mine and name is not None else None


def data_route(stats: Mapping[str, Any], per_article: Sequence[Mapping[str, Any]], reference: Reference,
               profile: str = DEFAULT_PROFILE, confidence: float = CONFIDENCE) -> DataRoute:
    """Every bias category read from the data's own figures, as the audit with reader ``profile`` reads them.

    Args:
        stats: :func:`mrclens.stats.compute_stats` of the whole data (every question the audit reads: its training
            and evaluation parts).
        per_article: the same statistics of each article on its own (:func:`mrclens.stats.compute_stats_per_article`;
            the cluster-robust standard errors). Fewer than two articles: per-question errors.
        reference: the reference (:func:`mrclens.artifacts.reference.read_reference`).
        profile: the reader profile whose audit's family-wise level is used (:func:`audit_family`).
        confidence: the per-test level (0.95), divided over the family (Bonferroni).

    Returns:
        a :class:`DataRoute`; its verdicts use the audit's rules (module docstring). Differences are in points of
        each figure, their planted share in percent of the questions (:meth:`ModelFreeFigure.planted`).
    """
    figures = model_free_figures(stats, reference, confidence, clusters=cluster_standard_errors(per_article))
    n_verdict = sum(1 for f in figures if f.role == "verdict" and f.reference_value is not None)
    family = audit_family(reference, profile, n_verdict)
    level = family_confidence(confidence, family)
    for f in figures:
        if f.role == "verdict" and f.difference is not None:
            judge_figure(f, confidence, level)
    verdicts = []
    for name in CATEGORY_NAMES:
        read = model_free_reading(figures, name)
        verdicts.append(DataVerdict(name, read, _deciding(figures, name, read)))
    return DataRoute(tuple(verdicts), tuple(figures), context_shape(stats, reference), family, level,
                     reference.name, profile)
