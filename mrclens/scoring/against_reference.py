"""Drops read against a reference audit: is the audited data more biased than the reference? (issue 17, part 1)

A drop alone depends on the reader (a stronger reader has more to lose) and on what any edit costs,
so the readings compare each ablation with the same ablation on a reference dataset audited with
the same reader profile (SQuAD v1.1 by default, :mod:`mrclens.artifacts.reference`).

**The compared figure** (:func:`relative_figure`), in percent of the baseline F1 so that readers of
different strength can be compared:

* an insertion ablation with a matched control (e1, e2, e6–e10 with c1, c2, c6–c10): the
  **relative excess drop**, ``100 × excess drop / baseline F1``, with the excess drop's paired
  bootstrap CI scaled the same way (the baseline F1 is taken as fixed);
* any other ablation (e3, e4, e5): the **relative drop** ``100 × F1 drop / baseline F1`` and its CI
  (:mod:`mrclens.scoring.drops`).

**Per ablation**: difference = audited − reference (composed as :class:`~mrclens.metrics.estimate.Estimate`
values, :func:`ablation_difference`; the interval is formed only where it is stored), with an interval at the
results' confidence level, read with Student's t on Welch–Satterthwaite degrees of freedom (``run_sd²`` estimated
from ``runs − 1``, ``structure_sd²`` from the stratum's counterparts less one, the rest normal; issue 54, item 4); each side's standard error is its CI half-width ÷ z (the two datasets'
questions are independent, so ``se = sqrt((cluster_factor × se_audit)² + se_ref² + run_sd² + structure_sd²)``, where
``cluster_factor`` widens the audited run's per-question bootstrap error to an article-clustered one
(questions of one article are not independent; the factor is pooled over many audits, since one quick
audit's 8 evaluation articles cannot estimate it, ``benchmarks/drop_clustering.py``; the reference's
side needs none: its runs evaluate different article splits, so ``run_sd`` holds the articles' spread),
``run_sd`` is how much the figure moves between training runs beyond their CIs, measured when the
reference combines several audits (:func:`~mrclens.scoring.reference_builder.combine_reference_audits`; the audited run's own CI covers
the questions and the perturbation draws, not its training seed), and ``structure_sd`` how much it
moves between clean datasets that differ from the reference only in structure
(:func:`mrclens.scoring.structure_term.structure_spread`).

**Why a structure term.** A drop is a property of a reader *trained on the audited data*, and the
shape of that data changes the reader beyond any shortcut: readers trained on clean SQuAD articles
cut to 3-sentence windows lose about half as much of their F1 to e1's inserted question as SQuAD-trained
readers (BENCHMARKS.md, "The structure term"). That is not a probe effect of the shorter
context: the reference's own readers, on its 3-sentence contexts, lose 27–45 % to e1. So the drops
of a dataset of another shape differ from the reference's by a spread that no bias explains; the
comparison treats the dataset's structure as a random effect whose variance is measured on clean
counterparts (the Q-profile upper bound of a random-effects variance, Viechtbauer 2007) and adds it, so only a
difference beyond what structure alone produces reads "more" or "less". The term comes in **two strata
by context length** (:func:`mrclens.scoring.structure_term.structure_spread`, :meth:`~mrclens.artifacts.reference.ReferenceAudit.for_shape`):
data as long as the reference's (median sentence units per context within :data:`SHAPE_RATIO` of it) is read
with the term measured on counterparts of that length, data of another length with the term measured on
counterparts of other lengths, and data whose length is unknown with the larger of the two. The shipped SQuAD
v1.1 reference's ``quick`` audit holds them measured on 12 clean quick-profile counterparts of three article
splits (seeds 0–2; issue 41): 6 as long as SQuAD's (the clean side of the ``position`` planting and
``mrclens selftest``'s ``grouped``) and 6 of another length (``short``, 3 units, and ``long``, 9 units). The term is
the 80 % upper confidence bound everywhere, monotone in the counterparts' differences (issue 54, item 4;
:func:`mrclens.scoring.structure_term.heterogeneity_upper_bound`). Position's term was 7.1 before its source was removed: the truncated set
kept each paragraph's *first* question, which SQuAD's annotators asked about the first sentence, where e9's
drop is made (:mod:`mrclens.perturbations.truncation`; BENCHMARKS.md, "The truncated set"). The
``quick`` audit's truncated set keeps every qualifying question, each in its own copy of its paragraph (the
``"every"`` rule: about five times the questions of one per paragraph, which narrows e1, e2 and e6–e10, e9
most; its 8 runs and 12 counterparts were re-audited with it, their readers reused; BENCHMARKS.md, "The
reference runs"). The ``paper-parallel`` audit (three runs, re-audited with the
random rule) measures its own term for data of SQuAD's length, on 3 counterparts (SQuAD v1.1 with 48 of its train articles as the evaluation data, three draws;
each trained for 4,600 steps, about 40 minutes on 2 cores), and keeps the quick profile's for data of another
length (``measured_with_profile: quick`` in the file's provenance of that stratum). The figures:
BENCHMARKS.md, "The structure term" (both profiles);
the other paper profiles left the reference rather than keep figures measured for another profile.

The difference is on the *bias
side* when it goes the way the ablation signals the bias (a larger figure for ``large_drop``
ablations, a smaller one for ``small_drop`` ablations). ``reference_bias`` is ``"more"`` when the
interval lies wholly on the bias side, ``"less"`` when wholly on the other, ``"in line"`` only when it
lies inside the equivalence band ``±``:data:`DROP_BAND`, else ``"inconclusive"`` (issue 41,
:func:`mrclens.metrics.power.read_interval`: "in line" is a claim that the data is as clean as the
reference, so it needs the precision to make it).

**Per category** (:func:`category_comparison`): the mean over its compared ablations of the
difference signed towards the bias (``+`` = more of the bias than the reference), with standard
error ``sqrt(Σ se_i² / k² + structure_sd_category²)`` (the ablations are treated as independent; they
share questions, so the interval is approximate; ``se_i`` without the ablations' own structure terms,
since a structure effect moves a category's ablations together and is measured on the mean).
``"more"`` when its interval excludes 0 on the ``+`` side, ``"less"``
on the ``−`` side, ``"in line"`` when it lies inside ``±DROP_BAND``, else ``"inconclusive"``, with the
**minimum detectable effect** at 80 % power (``reference_mde``: the difference this audit would read
"more" four times in five; :func:`mrclens.metrics.power.minimum_detectable_effect`). The intervals
hold the results' confidence *family-wise* over every test read together (Bonferroni,
:func:`family_confidence`): each category's drops and each model-free verdict figure
(:func:`verdict_family`; 99.375 % each for four categories and four figures at 95 %), because a user
reads all of them at once: at 95 % each, a clean dataset would read "more" or "less" somewhere about
one audit in three. The ablations' own intervals
stay at the results' level (they describe; the categories decide). Why a mean rather than a majority of the ablations (the rule
of the absolute levels, :func:`mrclens.scoring.readings.category_level`): every ablation is
already calibrated by its reference here, so an ablation that is small for every reader (e3) is
small on the reference too and cannot decide the category, and a shortcut that one probe of a
category catches far beyond the reference (e6 for nouns) is not outvoted by probes that could not
see it (e7 verbs, e8 adjectives).

**The category verdict** (``reference_bias`` of a category) combines two routes (:func:`combine_routes`):
the drops, and the category's model-free verdict figures (:mod:`mrclens.scoring.model_free`, computed on
all the audited data, compared with the reference's by article-clustered intervals with Student's t,
"in line" only inside their band): ``"more"`` when the data differs towards the shortcut, or when the
drops say more and the data does not say less (the routes pointing opposite ways read
``"inconclusive"``, ``reference_why`` ``"opposite"``); ``"less"`` from either route when the other does
not say more; ``"in line"`` only when every compared route reads "in line"; otherwise
``"inconclusive"`` (``reference_why``: ``"cannot tell"``, or ``"weak"`` for a weak reader).
``reference_basis`` says which route decided. A category whose drops have no planted-share scale because its
own family's planting does not move them (Similarity, Keyword: :data:`mrclens.scoring.drop_scale.UNCALIBRATED`)
reads them as a description where its data figure has a reading: the data decides, and the reading says the
drops are "described, not read" (issue 54, item 3). Why the data's "more" wins over drops that read less: a
probe can miss a shortcut that it offers again. On data whose answer sentences repeat the question
(the ``overlap`` planting of ``mrclens selftest``), a reader that has learned to find the answer by
its overlap with the question is *less* drawn away than a SQuAD reader by e1's inserted question
(measured: e1 costs it 5.5 F1 points, the quick SQuAD reader 18.3), because the answer sentence
still matches the question better; the data itself shows the shortcut plainly (answers in the
sentence most similar to the question: 98 % against SQuAD's 81 %).

**Weak readers**: below :data:`mrclens.scoring.readings.LOW_BASELINE_F1` baseline F1 (on SQuAD v2.0
data also HasAns), the comparison is ``"inconclusive"``: a reader that has learned little cannot
lose much, so its relative drops say little about the data.

Examples:
    >>> from mrclens.artifacts.results import AblationResult
    >>> a = AblationResult("e1", "insert question", "Similarity", "e1", "original-truncated", "large_drop",
    ...                    evaluated=True, n=400, f1_drop=30.0, ci_low=25.0, ci_high=35.0, baseline_f1=60.0,
    ...                    control="c1", control_f1_drop=2.0, excess_drop=28.0, excess_ci_low=23.0, excess_ci_high=33.0)
    >>> fig = relative_figure(a)
    >>> fig.figure, round(fig.value, 1), round(fig.ci_low, 1), round(fig.ci_high, 1)
    ('relative_excess_drop', 46.7, 38.3, 55.0)
    >>> ref = ReferenceAudit("quick", 50.0, {}, {"e1": ReferenceDrop("relative_excess_drop", 20.0, 16.0, 24.0, 2000)})
    >>> b = compare_ablation(a, ref, "SQuAD v1.1")
    >>> b.reference_bias, round(b.reference_difference, 1)
    ('more', 26.7)
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, NamedTuple, Sequence

from mrclens.artifacts.reference import ReferenceAudit, ReferenceChoice, ReferenceDrop
from mrclens.artifacts.results import AblationResult, CategoryResult
from mrclens.categories import get_category, toward_bias
from mrclens.metrics.bootstrap import CONFIDENCE, confidence_label
from mrclens.metrics.estimate import Estimate, round_stored, satterthwaite_df
from mrclens.metrics.power import family_confidence, minimum_detectable_effect
from mrclens.scoring.drop_scale import UNCALIBRATED, DropScale, drop_band
from mrclens.scoring.model_free import PLANTED_BAND, SHAPE_RATIO, ContextShape, in_line_reachable, judge_figure
from mrclens.scoring.readings import BASELINE_READER, weak_reader
from mrclens.verdicts import (CANNOT_TELL, IN_LINE, INCONCLUSIVE, LESS, MORE, OPPOSITE, OUT_OF_REACH,
                              PROFILE_OUT_OF_REACH, READINGS, UNEXPLAINED, DESCRIPTION_APART,
                              SLIGHTLY_LESS, SLIGHTLY_MORE, WEAK_READER, Reading, figure_reading, reading, undecided)

#: The equivalence band of the drop route where no planted-share scale is measured (points of relative drop,
#: percent of the baseline F1): a plug-in's or a multiple-choice category, a reader profile without one, and each
#: ablation's own badge. A category of a calibrated profile reads against as much as a shortcut in
#: :data:`~mrclens.scoring.model_free.PLANTED_BAND` % of the questions moves its drops instead
#: (:func:`mrclens.scoring.drop_scale.drop_band`, issue 54): 6.3 points for Question, 10.4 for Position
#: (BENCHMARKS.md, "The drop route as a planted share").
DROP_BAND = 10.0


def relative_figure(a: AblationResult) -> ReferenceDrop | None:
    """The figure an ablation is compared on (module docstring), or ``None`` (a control, not evaluated, no baseline F1)."""
    if a.control_of is not None or not a.evaluated or not a.baseline_f1 or a.n is None:
        return None
    if a.direction.reads_excess and a.excess_drop is not None and a.excess_ci_low is not None:
        scale = 100.0 / a.baseline_f1
        return ReferenceDrop("relative_excess_drop", a.excess_drop * scale, a.excess_ci_low * scale,
                             a.excess_ci_high * scale, a.excess_n or a.n, a.f1_drop, a.excess_drop)
    if a.relative_drop is None or a.relative_ci_low is None:
        return None
    return ReferenceDrop("relative_drop", a.relative_drop, a.relative_ci_low, a.relative_ci_high, a.n, a.f1_drop, None)


def difference_estimate(own: Estimate, ref: ReferenceDrop, confidence: float) -> Estimate:
    """One ablation's difference audited − reference **without** the structure term (module docstring):
    ``se = sqrt((cluster_factor × se_own)² + se_ref² + run_sd²)``, points of relative drop, with Welch–Satterthwaite
    degrees of freedom: ``run_sd²`` with ``runs − 1`` (:attr:`~mrclens.artifacts.reference.ReferenceDrop.run_df`),
    the rest normal (``None`` without ``run_sd``). ``own``: the audited run's figure with its per-question bootstrap
    error."""
    sides = own.inflated(ref.cluster_factor).minus(
        Estimate.from_interval(ref.ci_low, ref.ci_high, confidence, value=ref.value))
    return sides.with_extra_sd(ref.run_sd, df=ref.run_df)


def category_se(member_ses: Sequence[float], tau: float) -> float:
    """The standard error of a category's mean difference: its ``k`` members' errors (each without a
    structure term) as independent, plus the category's structure term once: ``sqrt(Σ s_i² / k² + τ²)``."""
    return math.sqrt(sum(s * s for s in member_ses) / len(member_ses) ** 2 + tau * tau)


class AblationDifference(NamedTuple):
    """One ablation against the reference audit (:func:`ablation_difference`): the audited figure, the reference's,
    and the difference audited − reference with its standard error **without** the structure term (points of
    relative drop; ``with_extra_sd(structure_sd)`` where the ablation's own interval is printed)."""

    own: ReferenceDrop
    ref: ReferenceDrop
    difference: Estimate


def ablation_difference(a: AblationResult, reference: ReferenceAudit, confidence: float) -> AblationDifference | None:
    """The :class:`AblationDifference` of one ablation against the reference audit (module docstring), or ``None``
    (not comparable)."""
    own, ref = relative_figure(a), reference.ablations.get(a.id)
    if own is None or ref is None or ref.figure != own.figure:
        return None
    mine = Estimate.from_interval(own.ci_low, own.ci_high, confidence, value=own.value)
    return AblationDifference(own, ref, difference_estimate(mine, ref, confidence))


def compare_ablation(a: AblationResult, reference: ReferenceAudit, name: str,
                     confidence: float = CONFIDENCE, level: float | None = None) -> AblationResult:
    """A copy of ``a`` with its ``reference_*`` fields set (rules in the module docstring); ``a`` unchanged
    when it has no figure or the reference lacks it. Its interval (at ``confidence``) holds the ablation's structure
    term; its ``reference_difference_se`` and ``_df`` are the standard error and the Welch–Satterthwaite degrees of
    freedom that interval is drawn with (``run_sd`` from ``runs − 1``, the structure term from the stratum's
    counterparts less one, :attr:`~mrclens.artifacts.reference.ReferenceAudit.structure_df`; ``None``: normal). Its reading (``reference_bias``) is read at ``level`` — the audit's family-wise level, so that a
    per-ablation badge is no looser than the verdict it stands beside (issue 54) — or at ``confidence`` without one."""
    got = ablation_difference(a, reference, confidence)
    if got is None:
        return a
    shown = got.difference.with_extra_sd(got.ref.structure_sd, df=reference.structure_df)
    low, high = shown.interval(confidence)
    sign = a.direction.sign  # towards the bias
    bias = (INCONCLUSIVE.name if weak_reader(a) else
            shown.read(confidence if level is None else level, DROP_BAND, sign=sign).reading)
    own, ref = got.own, got.ref
    return replace(a, reference=name, reference_figure=own.figure, compared_value=round_stored(own.value),
                   reference_value=round_stored(ref.value), reference_ci_low=round_stored(ref.ci_low), reference_ci_high=round_stored(ref.ci_high),
                   reference_difference=round_stored(shown.value), reference_difference_ci_low=round_stored(low),
                   reference_difference_ci_high=round_stored(high), reference_difference_se=round_stored(shown.se),
                   reference_difference_df=_stored_df(shown.df), reference_bias=bias)


class DropComparison(NamedTuple):
    """A category's drops against the reference (:func:`category_comparison`): the reading ("more", "in line",
    "less" or "inconclusive"), the mean difference signed towards the bias and its family-wise interval
    (points of relative drop), the minimum detectable effect at 80 % power (``nan`` for a weak reader) and the
    standard error and degrees of freedom of the interval (``None``: normal)."""

    bias: str
    mean: float
    low: float
    high: float
    mde: float
    se: float = math.nan
    df: float | None = None
    #: ``False``: no number of questions could read these drops "in line" (:func:`drops_in_line_reachable`)
    reachable: bool = True
    #: the reference's other reader profiles whose drops could read it in line (where ``reachable`` is ``False``)
    reach: tuple[str, ...] = ()


def member_estimate(a: AblationResult, confidence: float, reference: ReferenceAudit | None) -> Estimate:
    """A compared ablation's difference signed towards the bias, as the category reads it (:func:`category_comparison`):
    from its record's interval at ``confidence`` (a record read back from a file has nothing else), without the
    ablation's own structure term where ``reference`` gives it (``sqrt(max(se² − structure_sd², 0))``: the
    category adds its own term once), with the Welch–Satterthwaite degrees of freedom of what is left (``run_sd²``
    with ``runs − 1``, :func:`difference_estimate`). Rebuilt from the stored (rounded) interval and its stored
    degrees of freedom so that the category's figures stay those of earlier MRCLens versions to the last stored
    decimal."""
    shown = Estimate.from_interval(a.reference_difference_ci_low, a.reference_difference_ci_high, confidence,
                                   df=a.reference_difference_df, value=a.reference_difference)
    own = shown
    if reference is not None:
        ref = reference.ablations.get(a.id)
        tau = (ref.structure_sd or 0.0) if ref is not None else 0.0
        rest = max(shown.se * shown.se - tau * tau, 0.0)
        run = min((ref.run_sd or 0.0) ** 2, rest) if ref is not None else 0.0
        own = Estimate(shown.value, math.sqrt(rest),
                       satterthwaite_df([(rest - run, None), (run, ref.run_df if ref is not None else None)]))
    return own.scaled(a.direction.sign)  # signed towards the bias


def category_comparison(members: Sequence[AblationResult], confidence: float = CONFIDENCE,
                        reference: ReferenceAudit | None = None, category: str | None = None,
                        family: int = 1, band: float = DROP_BAND) -> DropComparison | None:
    """The :class:`DropComparison` of a category's compared ablations, or ``None`` (none compared), read against
    the band ``±band`` (points of relative drop; :func:`mrclens.scoring.drop_scale.drop_band` gives the category's:
    issue 54).

    The signed difference is ``+`` towards the bias (module docstring); ablations whose comparison is
    ``"inconclusive"`` (weak reader) make the category inconclusive. With ``reference`` (the audit the
    members were compared with) and ``category``, the members' own structure terms are replaced by the
    category's (``reference.structure_sd[category]``, percentage points; module docstring,
    :func:`member_estimate`). The interval is read with Student's t on Welch–Satterthwaite degrees of freedom
    (issue 54, item 4): each member's ``run_sd²`` counts with ``runs − 1``, the category's structure term with its
    stratum's counterparts less one (:attr:`~mrclens.artifacts.reference.ReferenceAudit.structure_df`), the rest
    as normal (:meth:`~mrclens.metrics.estimate.Estimate.mean_of`, :meth:`~mrclens.metrics.estimate.Estimate.with_extra_sd`). The members' intervals are at ``confidence``; the category's is at
    :func:`family_confidence` ``(confidence, family)`` (``family``: how many categories are read together;
    1 = this one alone).
    """
    done = [a for a in members if a.reference_bias is not None]
    if not done:
        return None
    if any(weak_reader(a) for a in done):
        return DropComparison(INCONCLUSIVE.name, math.nan, math.nan, math.nan, math.nan)
    parts = [member_estimate(a, confidence, reference) for a in done]
    tau = reference.structure_term(category) if reference is not None and category is not None else 0.0
    est = Estimate.mean_of(parts).with_extra_sd(tau, df=reference.structure_df if reference is not None else None)
    level = family_confidence(confidence, family)
    got = est.read(level, band)
    return DropComparison(got.reading, est.value, got.low, got.high, got.mde, est.se, _stored_df(est.df))


def expected_mde(audit: ReferenceAudit, category: str, family: int, confidence: float = CONFIDENCE,
                 other_shape: bool | None = False, band: float = DROP_BAND) -> float | None:
    """The minimum detectable effect of ``category``'s drops (:func:`category_comparison`, 80 % power at the
    family-wise level of ``family`` tests, beyond the ``±band`` band, points: issue 54) for an audit like **one run of the reference** ``audit``: same
    questions, one training seed; with the structure term of data of the reference's context length, or of
    another length with ``other_shape`` (``None``: the larger of the two;
    :meth:`~mrclens.artifacts.reference.ReferenceAudit.for_shape`).
    Percentage points of relative drop; ``None`` when ``audit`` has none of the category's ablations (also for
    a category it does not know: nothing is raised). How the profile's power is measured before and after a
    change to the reference (issue 41, ``benchmarks/drop_mde.py``).

    The audited run's own error per ablation is one reference run's **within-run** error,
    ``sqrt(k × se_ref² − run_sd²)`` over the reference's ``k`` runs (:func:`~mrclens.scoring.reference_builder.combine_reference_audits`
    writes ``se_ref² = max(s², within) / k`` and ``run_sd² = max(s² − within, 0)``, so this is ``within``
    in both cases); the training seed's share enters once, as ``run_sd`` (:func:`difference_estimate`). Student's t on
    the same Welch–Satterthwaite degrees of freedom as :func:`category_comparison`.

    Examples:
        >>> d = ReferenceDrop("relative_drop", 20.0, 18.0, 22.0, 500, runs=1)
        >>> round(expected_mde(ReferenceAudit("quick", 50.0, {}, {"e9": d}), "Position", family=1), 2)
        14.04
    """
    est = _expected_estimate(audit.for_shape(other_shape), category, confidence, own=1.0)
    if est is None:
        return None
    return minimum_detectable_effect(est.se, family_confidence(confidence, family), margin=band, df=est.df)


def drops_in_line_reachable(audit: ReferenceAudit, category: str, family: int, band: float,
                            confidence: float = CONFIDENCE) -> bool:
    """Whether any number of questions could read ``category``'s drops "in line" against ``audit`` (its stratum
    already chosen, :meth:`~mrclens.artifacts.reference.ReferenceAudit.for_shape`): with the audited run's own
    per-question error gone, what is left — the reference's error, its run-to-run SD and the structure term, with
    their degrees of freedom — must give an interval narrower than ``±band`` at the family-wise level (issue 54:
    never advise "audit more questions" where it cannot help). ``True`` for a category the audit cannot read.

    Examples:
        >>> d = ReferenceDrop("relative_drop", 20.0, 18.0, 22.0, 500, runs=1)
        >>> a = ReferenceAudit("quick", 50.0, {}, {"e9": d})
        >>> drops_in_line_reachable(a, "Position", 1, 10.0), drops_in_line_reachable(a, "Position", 1, 1.0)
        (True, False)
    """
    est = _expected_estimate(audit, category, confidence, own=0.0)
    if est is None:
        return True
    return band > est.critical(family_confidence(confidence, family)) * est.se


def _expected_estimate(audit: ReferenceAudit, category: str, confidence: float, own: float) -> Estimate | None:
    """The category's difference as an audit like one run of the reference would read it (:func:`expected_mde`),
    its own within-run error scaled by ``own`` (1: one reference run's; 0: infinitely many questions)."""
    parts = []
    for aid in get_category(category).ablations:
        d = audit.ablations.get(aid)
        if d is None:
            continue
        se_ref = Estimate.from_interval(d.ci_low, d.ci_high, confidence).se
        within = max(d.runs * se_ref ** 2 - (d.run_sd or 0.0) ** 2, 0.0)
        parts.append(difference_estimate(Estimate(d.value, own * math.sqrt(within)), d, confidence))
    if not parts:
        return None
    return Estimate.mean_of(parts).with_extra_sd(audit.structure_term(category), df=audit.structure_df)


def _stored_df(df: float | None) -> float | None:
    """Degrees of freedom as results store them (4 decimals; ``None``: normal)."""
    return None if df is None else round_stored(df)


def _describe_ablation(a: AblationResult, confidence: float, reader: str = BASELINE_READER,
                       level: float | None = None) -> str:
    ci = confidence_label(confidence)
    at = f" (read at the audit's family-wise level, {confidence_label(level)})" if level and level != confidence else ""
    what = "excess drop" if a.reference_figure == "relative_excess_drop" else "drop"
    d, low, high = toward_bias(a.reference_difference, a.reference_difference_ci_low, a.reference_difference_ci_high,
                               a.bias_signal)  # issue 44: + is more of the bias, as the category's mean reads it
    head = (f" Against {a.reference} (same reader profile): {what} {a.compared_value:.1f}% of the baseline F1 "
            f"beside {a.reference_value:.1f}% ({ci} {a.reference_ci_low:.1f} to {a.reference_ci_high:.1f}); "
            f"difference towards the bias {d:+.1f} ({ci} {low:+.1f} to {high:+.1f})")
    if a.reference_bias == INCONCLUSIVE.name:
        if weak_reader(a):
            return head + f": not compared, {reader} is too weak."
        return head + f": inconclusive{at}, the interval reaches across the ±{DROP_BAND:g}-point band."
    return head + f": {reading(a.reference_bias).than} {a.reference} for this bias{at}."


def _verdict_figures(figures: Sequence[Any], category: str) -> list[Any]:
    """The category's compared model-free figures that a verdict reads (``role`` "verdict")."""
    return [f for f in figures if f.category == category and getattr(f, "role", "verdict") == "verdict"
            and f.comparison is not None]


def _description_figures(figures: Sequence[Any], category: str) -> list[Any]:
    """The category's compared model-free figures that describe (``role`` "description"), never deciding."""
    return [f for f in figures if f.category == category and getattr(f, "role", "verdict") == "description"
            and f.comparison is not None]


def _model_free_side(figures: Sequence[Any], category: str) -> tuple[list[Any], list[Any]]:
    """The category's model-free figures that differ from the reference towards the shortcut, and away from it."""
    mine = [f for f in _verdict_figures(figures, category) if f.comparison in (MORE.figure, LESS.figure)]
    return [f for f in mine if f.comparison == f.bias_when], [f for f in mine if f.comparison != f.bias_when]


def within_band_reading(readings: Sequence[Reading]) -> Reading:
    """The reading of several readings that all lie inside their bands: "slightly more" when one is slightly
    more and none slightly less, "slightly less" the other way, else "in line".

    >>> within_band_reading([IN_LINE, SLIGHTLY_MORE]).name, within_band_reading([SLIGHTLY_LESS, SLIGHTLY_MORE]).name
    ('slightly more', 'in line')
    """
    sides = {r.towards for r in readings} - {0}
    return SLIGHTLY_MORE if sides == {1} else SLIGHTLY_LESS if sides == {-1} else IN_LINE


def data_out_of_reach(figures: Sequence[Any], category: str) -> bool:
    """Whether the category's data route is inconclusive only because no number of questions can read it in line:
    each of its verdict figures lies inside its band, or is "inconclusive" with an interval that holds 0 and a band
    narrower than clean data's spread (:func:`mrclens.scoring.model_free.in_line_reachable`), at least one so; and no
    description moved beyond its band."""
    mine = _verdict_figures(figures, category)
    described = _description_figures(figures, category)
    if any(f.comparison != IN_LINE.figure for f in described):
        return False
    stuck = [f for f in mine if f.comparison == INCONCLUSIVE.figure and not in_line_reachable(f)
             and f.difference_ci_low is not None and f.difference_ci_low <= 0 <= f.difference_ci_high]
    return bool(stuck) and all(f in stuck or figure_reading(f.comparison, f.bias_when).within_band for f in mine)


def description_apart(figures: Sequence[Any], category: str) -> bool:
    """Whether the category's data route is "inconclusive" only because a description lies wholly beyond its band
    (``comparison`` "higher" or "lower") while every verdict figure lies inside its own: more questions cannot make
    it "in line" (issue 54)."""
    mine = _verdict_figures(figures, category)
    described = _description_figures(figures, category)
    return (bool(mine) and all(figure_reading(f.comparison, f.bias_when).within_band for f in mine)
            and any(f.comparison in (MORE.figure, LESS.figure) for f in described))


def model_free_reading(figures: Sequence[Any], category: str) -> str | None:
    """The model-free route's reading of a category: "more" when a verdict figure differs from the reference
    towards the shortcut, "less" when one differs away from it (and none towards), "in line" when every
    verdict figure **and every description** of the category lies inside its band (a description never
    decides "more" or "less", but one that moved leaves "in line" unsupported: the chance-corrected ranks
    saturate near SQuAD's, so a shortcut in a quarter of the questions can hide inside their band while
    the longest shared n-gram shows it), else "inconclusive"; ``None`` when no figure of the category was
    compared. A category with descriptions only (a reference without the category's verdict figure) has no reading
    from the data (``None``: no figure of the data alone measures its shortcut, so the data cannot say "in line";
    Question's type-matched heuristic, a description, stays where SQuAD's is under the ``marked`` planting in every
    question), except "inconclusive" when a description moved beyond its band (the drops alone then cannot read it
    "in line")."""
    mine = _verdict_figures(figures, category)
    described = _description_figures(figures, category)
    if not mine:
        return INCONCLUSIVE.name if any(f.comparison != IN_LINE.figure for f in described) else None
    more, less = _model_free_side(figures, category)
    if more:
        return MORE.name
    if less:
        return LESS.name
    readings = [figure_reading(f.comparison, f.bias_when) for f in [*mine, *described]]
    if all(r.within_band for r in readings):
        return within_band_reading([figure_reading(f.comparison, f.bias_when) for f in mine]).name
    return INCONCLUSIVE.name


def verdict_family(categories: Sequence[CategoryResult], ablations: Sequence[AblationResult],
                   audit: ReferenceAudit | None, model_free: Sequence[Any]) -> int:
    """How many tests an audit reads together (the Bonferroni family, :func:`family_confidence`): each category
    whose drops can be compared with ``audit``, and each model-free verdict figure compared with the reference."""
    drops = 0 if audit is None else sum(
        any(a.id in c.ablations and a.id in audit.ablations for a in ablations) for c in categories)
    figures = sum(1 for f in model_free if getattr(f, "role", "verdict") == "verdict" and f.reference_value is not None)
    return max(drops + figures, 1)


def combine_routes(drops: str | None, data: str | None) -> tuple[str, str]:
    """``(verdict, why)`` of a category from its drops' reading and its model-free reading (``None``: not
    compared; ``"weak"``: the reader is too weak). Rules (module docstring, issue 41):

    * the data "more" decides "more" (a reader that finds the answer by the cue is not drawn away by a
      probe that offers the same cue elsewhere, so drops that read "less" do not refute it);
    * the drops "more" decide "more" unless the data reads "less": then the routes point opposite
      ways and the verdict is "inconclusive";
    * "less" from either route, the other not "more";
    * "in line" only when every compared route lies inside its band: "slightly more" when a route reads
      "slightly more" and none "slightly less" (:func:`within_band_reading`), "slightly less" the other way;
    * otherwise "inconclusive" (``why``: "weak" when the reader is too weak for its drops to be compared,
      "cannot tell" when an interval reaches beyond its band, "opposite" when the routes disagree).

    >>> combine_routes("less", "more"), combine_routes("more", "less"), combine_routes("in line", "inconclusive")
    (('more', 'data'), ('inconclusive', 'opposite'), ('inconclusive', 'cannot tell'))
    >>> combine_routes("in line", "slightly more")
    ('slightly more', 'both')
    """
    if data == MORE.name:
        return MORE.name, "data"
    if drops == MORE.name:
        return (INCONCLUSIVE.name, OPPOSITE.name) if data == LESS.name else (MORE.name, "drops")
    if LESS.name in (drops, data):
        return LESS.name, "drops" if drops == LESS.name else "data"
    routes = [r for r in (drops, data) if r is not None]
    if routes and all(r in READINGS.names and reading(r).within_band for r in routes):
        return (within_band_reading([reading(r) for r in routes]).name,
                "both" if len(routes) == 2 else ("drops" if drops else "data"))
    return INCONCLUSIVE.name, WEAK_READER.name if drops == WEAK_READER.name else CANNOT_TELL.name


def compare_with_reference(ablations: Sequence[AblationResult], categories: Sequence[CategoryResult],
                           choice: ReferenceChoice | None, confidence: float = CONFIDENCE,
                           model_free: Sequence[Any] = (), reader: str = BASELINE_READER,
                           shape: ContextShape | None = None) -> tuple[list[AblationResult], list[CategoryResult]]:
    """Copies of the entries with their comparison with the reference audit ``choice`` set and read (chosen once
    by :meth:`~mrclens.artifacts.reference.Reference.audit_for`; ``None``: no reference, the entries unchanged).

    Each compared ablation's and category's reading ends with one sentence on the comparison; the
    category verdict combines the drops with ``model_free`` (:class:`~mrclens.artifacts.results.ModelFreeFigure`
    entries compared with the same reference, whose verdict figures are judged again here at the family-wise
    level, in place: :func:`mrclens.scoring.model_free.judge_figure`) by :func:`combine_routes`. Without a
    reference audit for this profile, the categories are read from the model-free figures alone (the
    readings say that the drops could not be compared). ``reader`` names the model in the readings
    (:func:`mrclens.scoring.readings.reader_phrase`). ``shape``: the data's context length beside the
    reference's (:func:`mrclens.scoring.model_free.context_shape`); where it differs (:data:`SHAPE_RATIO`), a
    category read "more" or "less" from its drops alone says that the shape may explain it (issue 41:
    ``reference_shape``; the drops are not standardised by sentence count, the data's figures are), and every other
    reading names the shape too (issue 54). ``shape``
    also picks the stratum of the structure term (:meth:`~mrclens.artifacts.reference.ReferenceAudit.for_shape`:
    the reference's context length, another, or — ``None`` — the larger of the two). The
    evidence levels (absolute, :mod:`mrclens.scoring.readings`) are unchanged.
    """
    if choice is None:
        return list(ablations), list(categories)
    reference, profile = choice.reference, choice.profile
    other_shape = None if shape is None else shape.differs
    audit = choice.for_shape(other_shape)  # the structure terms of the data's context length
    family = verdict_family(categories, ablations, audit, model_free)
    level = family_confidence(confidence, family)
    for f in model_free:
        if getattr(f, "role", "verdict") == "verdict" and f.difference is not None:
            judge_figure(f, confidence, level)
    ci = confidence_label(level) + (f", family-wise {confidence_label(confidence)} over the {family} tests "
                                    f"read together (Bonferroni)" if family > 1 else "")
    if audit is None:
        if not profile:
            return list(ablations), list(categories)
        note = (f" No {reference.name} audit with the {profile} profile to read the drops against "
                f"(it has: {', '.join(reference.audits) or 'none'}).")
        cats = []
        for c in categories:
            data = model_free_reading(model_free, c.category)
            c = replace(c, reading=c.reading + note) if c.reading else c
            if data is not None:
                c = _read_category(c, reference.name, None, data, model_free, ci, level, reader)
            cats.append(c)
        return list(ablations), cats
    compared = []
    for a in ablations:
        b = compare_ablation(a, audit, reference.name, confidence, level)
        if b.reference_bias is not None and b.reading is not None:
            b = replace(b, reading=b.reading + _describe_ablation(b, confidence, reader, level))
        compared.append(b)
    cats = []
    for c in categories:
        members = [a for a in compared if a.id in c.ablations]
        scale = drop_band(profile, c.category, DROP_BAND)  # issue 54: the band as a planted share
        got = category_comparison(members, confidence, audit, c.category, family, band=scale.band)
        data = model_free_reading(model_free, c.category)
        if got is None and data is None:
            cats.append(c)
            continue
        if got is not None and got.bias == INCONCLUSIVE.name and not math.isnan(got.mean) \
                and not drops_in_line_reachable(audit, c.category, family, scale.band, confidence):
            reach = tuple(p for p, other in reference.audits.items() if p != profile and drops_in_line_reachable(
                other.for_shape(other_shape), c.category, family, drop_band(p, c.category, DROP_BAND).band, confidence))
            got = got._replace(reachable=False, reach=reach)
        ids = ", ".join(a.id for a in members if a.reference_bias is not None)
        cats.append(_read_category(c, reference.name, got, data, model_free, ci, level, reader, ids,
                                   audit.structure_term(c.category), shape,
                                   _stratum(other_shape) if audit.structure_sd_other_shape else "", scale))
    return compared, cats


def _read_category(c: CategoryResult, name: str, got: DropComparison | None, data: str | None,
                   model_free: Sequence[Any], ci: str, level: float, reader: str, ids: str = "",
                   tau: float = 0.0, shape: ContextShape | None = None, stratum: str = "",
                   scale: DropScale | None = None) -> CategoryResult:
    """``c`` with its verdict against the reference (:func:`combine_routes`), its fields and its reading's sentences
    (``stratum``: the words naming the clean data ``tau`` was measured on, :func:`_stratum`; "" without strata)."""
    fields: dict[str, Any] = {"reference": name, "reference_confidence": level}
    text = ""
    drops = None
    # issue 54, item 3: drops with no planted-share scale because their own family's planting does not move them
    # (UNCALIBRATED: Similarity, Keyword) are a description beside the data's own figure, never a verdict route,
    # where the data has a reading: the one line of the verdict then states the planted-share figure that decides.
    described = (c.category in UNCALIBRATED and data is not None and got is not None and not math.isnan(got.mean)
                 and (scale is None or scale.per_planted_pct is None))
    if got is not None:
        if got.bias == INCONCLUSIVE.name and math.isnan(got.mean):
            drops = WEAK_READER.name
            text = f" Against {name}: the drops are not compared, {reader} is too weak."
        else:
            drops = got.bias
            spread = (f"; the interval includes how much the drops move with the structure alone of clean data"
                      f"{stratum}, SD {tau:.1f}" if tau else "")
            scale = scale or DropScale(DROP_BAND, None)
            per = scale.per_planted_pct
            band = (f"±{PLANTED_BAND:g} % band of 'in line' (a shortcut in {PLANTED_BAND:g} % of the questions moves "
                    f"these drops {scale.band:.1f} points" + (f", measured with the {scale.measured_with} reader"
                                                               if scale.measured_with else "") + ")"
                    if per else f"±{scale.band:g}-point band of 'in line'")
            reads = (f"read {reading(drops).than} {name} for this bias" if reading(drops).decided else
                     f"cannot tell: the interval reaches beyond the {band}")
            share = (f"; as a planted share {got.mean / per:+.0f} % of the questions [{got.low / per:+.0f}, "
                     f"{got.high / per:+.0f}], MDE {got.mde / per:.0f} %" if per else "")
            text = (f" Against {name} (same reader profile, {ids}): the drops {reads} (mean difference towards the "
                    f"bias {got.mean:+.1f} points of relative drop, {ci} {got.low:+.1f} to {got.high:+.1f}{spread}; "
                    f"this audit sees a difference of {got.mde:.1f} points or more with 80 % power{share}).")
            if described:
                text += f" These drops are described, not read: {UNCALIBRATED[c.category]}."
            elif per is None and c.category in UNCALIBRATED:
                text += f" These drops are read in points, not as a planted share: {UNCALIBRATED[c.category]}."
            if not got.reachable and not described:
                could = (f"the {' or '.join(got.reach)} profile's could read it in line" if got.reach else
                         f"no reader profile of {name} can read it in line")
                text += (f" No number of questions can read these drops in line: with this reader profile, the "
                         f"reference's runs and clean counterparts alone spread wider than the band ({could}).")
            fields.update(reference_difference=round_stored(got.mean), reference_difference_ci_low=round_stored(got.low),
                          reference_difference_ci_high=round_stored(got.high), reference_mde=round_stored(got.mde),
                          reference_band=round_stored(scale.band), reference_per_planted_pct=per,
                          reference_difference_se=round_stored(got.se), reference_difference_df=got.df)
    more, less = _model_free_side(model_free, c.category)
    if data == MORE.name:
        text += _model_free_sentence(name, MORE, more, also=drops == MORE.name)
        if drops is not None and drops != MORE.name and drops != WEAK_READER.name:  # the drops read, not "more"
            text += (" The drops do not show it: a reader that already finds the answer by this cue is not "
                     "drawn away by a probe that offers the same cue elsewhere, so the data decides here.")
    elif data == LESS.name:
        text += _model_free_sentence(name, LESS, less)
    elif data is not None:
        figs = _verdict_figures(model_free, c.category)
        text += (f" The data alone ({'; '.join(_figure_words(f) for f in figs)}) reads "
                 f"{reading(data).than} {name}.")
    out_of_reach = data == INCONCLUSIVE.name and data_out_of_reach(model_free, c.category)
    # a data figure no number of questions can read in line, whose interval holds 0, neither supports nor vetoes
    # "in line": the drops decide it (issue 54)
    read_drops = None if described else drops  # the drops as a verdict route
    routed = None if out_of_reach and read_drops not in (None, WEAK_READER.name) else data
    # the same rule the other way: drops that no number of questions can read in line (this reader profile's
    # reference spreads wider than the band), whose interval holds 0, neither support nor veto "in line" where the
    # data's figure can read it: the data decides (issue 54)
    stuck = drops == INCONCLUSIVE.name and got is not None and not got.reachable and got.low <= 0.0 <= got.high
    routed_drops = None if stuck and routed is not None else read_drops
    bias, why = combine_routes(routed_drops, routed)
    if out_of_reach and read_drops is None:
        why = OUT_OF_REACH.name  # the data alone: more questions cannot help, an audit's drops can
    elif why == CANNOT_TELL.name and got is not None and not got.reachable and routed is None:
        why = PROFILE_OUT_OF_REACH.name  # the drops decide and more questions cannot help (issue 54)
    if why == CANNOT_TELL.name and data == INCONCLUSIVE.name and description_apart(model_free, c.category) \
            and (routed_drops is None or reading(routed_drops).within_band):
        why = DESCRIPTION_APART.name  # more questions cannot help: a description is wholly beyond its band
    unexplained = described and reading(drops).differs and reading(bias).within_band
    if unexplained:  # described drops beyond their band name no shortcut, and "in line" is not claimed against them
        bias, why = INCONCLUSIVE.name, UNEXPLAINED.name
        text += (f" The data's own figures decide \"more\" or \"less\"; they read {reading(data).than} {name} "
                 f"while these drops lie beyond their band, so \"in line\" is not claimed.")
    elif (stuck or described) and routed is not None:
        text += " The data's own figures decide."
    if out_of_reach:
        text += (" No number of questions can read the data's figure in line: clean SQuAD articles differ from each "
                 "other by more than its band" + (", so the drops decide." if read_drops not in (None, WEAK_READER.name)
                                                  else "."))
    if reading(bias).differs:  # the route(s) that read it
        basis = ("drops and model-free" if read_drops == data == bias else "model-free" if data == bias else "drops")
    elif why == WEAK_READER.name:  # the drops could not be read: the reader is too weak
        basis = "drops"
    else:  # the routes compared
        basis = ("drops and model-free" if routed_drops is not None and routed is not None else
                 "model-free" if routed is not None else "drops")
    if bias == INCONCLUSIVE.name:
        verdict = f"inconclusive ({undecided(why).verdict.format(reader=reader)})"
        fields["reference_why"] = why
    else:
        verdict = reading(bias).sentence
    text += f" Verdict against {name}: {verdict}."
    if shape is not None and shape.differs and not (reading(bias).differs and basis == "drops"):
        # issue 54: every reading of data of another length names it, the data route's too
        fields["reference_shape"] = shape.sentence(name)
        text += (f" Shape: {shape.sentence(name)}; the data's own figures are weighted to its sentence counts, the "
                 f"drops are not.")
    elif reading(bias).differs and basis == "drops" and shape is not None and shape.differs:
        fields["reference_shape"] = shape.sentence(name)
        text += (f" The shape may explain it: {shape.sentence(name)} (a ratio of {shape.ratio:.1f}; beyond "
                 f"{SHAPE_RATIO:g} either way the drops, which are not standardised by sentence count, may move with "
                 f"the number of sentences alone — fewer sentences, fewer candidates to tell apart); "
                 f"the data's own figures, standardised by sentence count, read "
                 f"{data if data is not None else 'nothing'} here.")
    return replace(c, reference_bias=bias, reference_basis=basis, reading=(c.reading or "") + text, **fields)


def _stratum(other_shape: bool | None) -> str:
    """The words naming the stratum of the structure term (:meth:`~mrclens.artifacts.reference.ReferenceAudit.for_shape`)."""
    if other_shape is None:
        return " of the reference's context length or another, the larger (this data's length was not measured)"
    return " of another context length" if other_shape else " as long as the reference's"


def _figure_words(f: Any) -> str:
    return (f"{f.label} {f.value:.1f} against {f.reference_value:.1f}, difference {f.difference:+.1f} "
            f"[{f.difference_ci_low:+.1f}, {f.difference_ci_high:+.1f}] against a band of ±{f.band or f.margin:g}; "
            f"sees {f.mde:.1f} or more")


def _model_free_sentence(name: str, bias: Reading, figures: Sequence[Any], also: bool = False) -> str:
    what = "; ".join(f"{f.label} {f.value:.1f} against {f.reference_value:.1f}" for f in figures)
    lead = " The data alone agrees" if also else " The data alone"
    side = f"offers this shortcut {bias.side}"
    return f"{lead}: it {side} {name} ({what}; intervals clustered by article)."
