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

**Per ablation**: difference = audited − reference, with a normal-approximation interval at the
results' confidence level; each side's standard error is its CI half-width ÷ z (the two datasets'
questions are independent, so ``se = sqrt(se_audit² + se_ref² + run_sd² + structure_sd²)``, where
``run_sd`` is how much the figure moves between training runs beyond their CIs, measured when the
reference combines several audits (:func:`combine_reference_audits`; the audited run's own CI covers
the questions and the perturbation draws, not its training seed), and ``structure_sd`` how much it
moves between clean datasets that differ from the reference only in structure
(:func:`structure_spread`).

**Why a structure term.** A drop is a property of a reader *trained on the audited data*, and the
shape of that data changes the reader beyond any shortcut: readers trained on clean SQuAD articles
cut to 3-sentence windows lose 20 % of their F1 to e1's inserted question where SQuAD-trained readers
lose 40 %, and readers trained on one question per paragraph copy lose 1–3 % to e9 against 10 %
(BENCHMARKS.md, "The structural counterparts' audits"). That is not a probe effect of the shorter
context: the reference's own readers, on its 3-sentence contexts, lose 27–45 % to e1. So the drops
of a dataset of another shape differ from the reference's by a spread that no bias explains; the
comparison treats the dataset's structure as a random effect whose variance is measured on clean
counterparts (a method-of-moments estimate, DerSimonian & Laird 1986) and adds it, so only a
difference beyond what structure alone produces reads "more" or "less". The shipped SQuAD v1.1
reference holds the term measured on 14 clean quick-profile counterparts (``mrclens selftest``'s
``short``, ``long``, ``grouped`` and its four plantings' clean sides, seeds 0 and 1: Similarity 5.8,
Question 0.0, Keyword 2.1, Position 7.1 points); its paper profiles borrow it
(marked in the file), since no counterpart was audited with them. Much of Position's term is one
known effect: the truncated set keeps each paragraph's *first* question, and SQuAD's first questions
ask about the first sentence (75 % of the quick reference's truncated answers sit in the first
sentence unit, 16–48 % on one-question-per-paragraph data), where e9's drop is made
(BENCHMARKS.md, "Why e9 reads lower on other layouts").

The difference is on the *bias
side* when it goes the way the ablation signals the bias (a larger figure for ``large_drop``
ablations, a smaller one for ``small_drop`` ablations). ``reference_bias`` is ``"more"`` when the
interval lies wholly on the bias side, ``"less"`` when wholly on the other, else ``"in line"``.

**Per category** (:func:`category_comparison`): the mean over its compared ablations of the
difference signed towards the bias (``+`` = more of the bias than the reference), with standard
error ``sqrt(Σ se_i² / k² + structure_sd_category²)`` (the ablations are treated as independent; they
share questions, so the interval is approximate; ``se_i`` without the ablations' own structure terms,
since a structure effect moves a category's ablations together and is measured on the mean).
``"more"`` when its interval excludes 0 on the ``+`` side, ``"less"``
on the ``−`` side, else ``"in line"``. The categories' intervals hold the results' confidence
*family-wise* over the categories compared in one audit (Bonferroni, :func:`family_confidence`: 98.75 %
each for four categories at 95 %), because a user reads all of them at once: at 95 % each, a clean
dataset would read "more" or "less" somewhere about one audit in five. The ablations' own intervals
stay at the results' level (they describe; the categories decide). Why a mean rather than a majority of the ablations (the rule
of the absolute levels, :func:`mrclens.scoring.readings.category_level`): every ablation is
already calibrated by its reference here, so an ablation that is small for every reader (e3) is
small on the reference too and cannot decide the category, and a shortcut that one probe of a
category catches far beyond the reference (e6 for nouns) is not outvoted by probes that could not
see it (e7 verbs, e8 adjectives).

**The category verdict** (``reference_bias`` of a category) also reads the category's model-free
figures (:mod:`mrclens.scoring.model_free`, compared with the reference's by article-clustered
intervals): it is ``"more"`` when the drops say more **or** a model-free figure differs from the
reference's in the direction that offers the shortcut (``reference_basis`` says which). Why: a
probe can miss a shortcut that it offers again. On data whose answer sentences repeat the question
(the ``overlap`` planting of ``mrclens selftest``), a reader that has learned to find the answer by
its overlap with the question is *less* drawn away than a SQuAD reader by e1's inserted question
(measured: e1 costs it 5.5 F1 points, the quick SQuAD reader 18.3), because the answer sentence
still matches the question better; the data itself shows the shortcut plainly (answers in the
sentence most similar to the question: 98 % against SQuAD's 81 %). Otherwise the verdict is the
drops' (``"less"``, ``"in line"``, ``"inconclusive"``), and with no compared drop the figures'.

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
import os
from dataclasses import replace
from pathlib import Path
from statistics import NormalDist
from typing import Any, Sequence

from mrclens.artifacts.reference import Reference, ReferenceAudit, ReferenceDrop, ReferenceFigure
from mrclens.artifacts.results import AblationResult, CategoryResult, Results
from mrclens.metrics.bootstrap import CONFIDENCE, confidence_label
from mrclens.scoring.model_free import FIGURES
from mrclens.scoring.readings import BASELINE_READER, weak_reader

#: Values of ``reference_bias``.
COMPARISONS = ("more", "in line", "less", "inconclusive")


def _z(confidence: float) -> float:
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def relative_figure(a: AblationResult) -> ReferenceDrop | None:
    """The figure an ablation is compared on (module docstring), or ``None`` (a control, not evaluated, no baseline F1)."""
    if a.control_of is not None or not a.evaluated or not a.baseline_f1 or a.n is None:
        return None
    if a.bias_signal == "large_drop" and a.excess_drop is not None and a.excess_ci_low is not None:
        scale = 100.0 / a.baseline_f1
        return ReferenceDrop("relative_excess_drop", a.excess_drop * scale, a.excess_ci_low * scale,
                             a.excess_ci_high * scale, a.excess_n or a.n, a.f1_drop, a.excess_drop)
    if a.relative_drop is None or a.relative_ci_low is None:
        return None
    return ReferenceDrop("relative_drop", a.relative_drop, a.relative_ci_low, a.relative_ci_high, a.n, a.f1_drop, None)


def _se(low: float, high: float, z: float) -> float:
    return max(high - low, 0.0) / (2.0 * z)


def _difference(a: AblationResult, reference: ReferenceAudit, confidence: float
                ) -> tuple[ReferenceDrop, ReferenceDrop, float, float] | None:
    """``(own figure, reference figure, difference, se without the structure term)``, or ``None`` (not comparable)."""
    own, ref = relative_figure(a), reference.ablations.get(a.id)
    if own is None or ref is None or ref.figure != own.figure:
        return None
    z = _z(confidence)
    se = math.sqrt(_se(own.ci_low, own.ci_high, z) ** 2 + _se(ref.ci_low, ref.ci_high, z) ** 2 + (ref.run_sd or 0.0) ** 2)
    return own, ref, own.value - ref.value, se


def compare_ablation(a: AblationResult, reference: ReferenceAudit, name: str,
                     confidence: float = CONFIDENCE) -> AblationResult:
    """A copy of ``a`` with its ``reference_*`` fields set (rules in the module docstring); ``a`` unchanged
    when it has no figure or the reference lacks it."""
    got = _difference(a, reference, confidence)
    if got is None:
        return a
    own, ref, diff, se_base = got
    z = _z(confidence)
    se = math.sqrt(se_base ** 2 + (ref.structure_sd or 0.0) ** 2)
    low, high = diff - z * se, diff + z * se
    above, below = low > 0, high < 0  # the whole interval above / below 0
    if weak_reader(a):
        bias = "inconclusive"
    elif above or below:
        bias = "more" if above == (a.bias_signal == "large_drop") else "less"
    else:
        bias = "in line"
    return replace(a, reference=name, reference_figure=own.figure, compared_value=_r(own.value),
                   reference_value=_r(ref.value), reference_ci_low=_r(ref.ci_low), reference_ci_high=_r(ref.ci_high),
                   reference_difference=_r(diff), reference_difference_ci_low=_r(low),
                   reference_difference_ci_high=_r(high), reference_bias=bias)


def family_confidence(confidence: float, family: int) -> float:
    """The per-category confidence that keeps ``confidence`` family-wise over ``family`` category verdicts.

    Bonferroni's inequality (Dunn, "Multiple comparisons among means", JASA 1961): with each of
    ``m`` intervals at ``1 - (1 - confidence) / m``, the chance that any of them misses its true value
    is at most ``1 - confidence``. Why here: an audit reads every bias category at once, so at 95 % per
    category a clean dataset would get at least one false "more" or "less" from four categories about
    one time in five (``1 - 0.95⁴ = 0.19``); at the family level, one time in twenty at most.

    >>> family_confidence(0.95, 4), family_confidence(0.95, 1)
    (0.9875, 0.95)

    Raises:
        ValueError: ``family < 1`` or ``confidence`` not in (0, 1).
    """
    if family < 1 or not 0.0 < confidence < 1.0:
        raise ValueError(f"family_confidence needs family >= 1 and 0 < confidence < 1, got {family}, {confidence}")
    return round(1.0 - (1.0 - confidence) / family, 10)


def category_comparison(members: Sequence[AblationResult], confidence: float = CONFIDENCE,
                        reference: ReferenceAudit | None = None, category: str | None = None,
                        family: int = 1) -> tuple[str, float, float, float] | None:
    """``(reference_bias, mean signed difference, ci_low, ci_high)`` of a category's compared ablations, or ``None``.

    The signed difference is ``+`` towards the bias (module docstring); ablations whose comparison is
    ``"inconclusive"`` (weak reader) make the category inconclusive. With ``reference`` (the audit the
    members were compared with) and ``category``, the members' own structure terms are replaced by the
    category's (``reference.structure_sd[category]``, percentage points; module docstring). The members'
    intervals are at ``confidence``; the category's is at :func:`family_confidence` ``(confidence, family)``
    (``family``: how many categories are read together; 1 = this one alone).
    """
    done = [a for a in members if a.reference_bias is not None]
    if not done:
        return None
    if any(a.reference_bias == "inconclusive" for a in done):
        return "inconclusive", math.nan, math.nan, math.nan
    z = _z(confidence)
    signed = [(a.reference_difference if a.bias_signal == "large_drop" else -a.reference_difference) for a in done]
    ses = [_se(a.reference_difference_ci_low, a.reference_difference_ci_high, z) for a in done]
    tau = 0.0
    if reference is not None:
        own_tau = [(reference.ablations[a.id].structure_sd or 0.0) if a.id in reference.ablations else 0.0 for a in done]
        ses = [math.sqrt(max(s * s - t * t, 0.0)) for s, t in zip(ses, own_tau)]
        tau = reference.structure_sd.get(category, 0.0) if category is not None else 0.0
    mean = sum(signed) / len(signed)
    se = math.sqrt(sum(s * s for s in ses) / len(ses) ** 2 + tau * tau)
    zf = _z(family_confidence(confidence, family))
    low, high = mean - zf * se, mean + zf * se
    return ("more" if low > 0 else "less" if high < 0 else "in line"), mean, low, high


_BIAS_WORDS = {"more": "more than", "less": "less than", "in line": "in line with"}


def _describe_ablation(a: AblationResult, confidence: float, reader: str = BASELINE_READER) -> str:
    ci = confidence_label(confidence)
    what = "excess drop" if a.reference_figure == "relative_excess_drop" else "drop"
    head = (f" Against {a.reference} (same reader profile): {what} {a.compared_value:.1f}% of the baseline F1 "
            f"beside {a.reference_value:.1f}% ({ci} {a.reference_ci_low:.1f} to {a.reference_ci_high:.1f}); "
            f"difference {a.reference_difference:+.1f} ({ci} {a.reference_difference_ci_low:+.1f} to "
            f"{a.reference_difference_ci_high:+.1f})")
    if a.reference_bias == "inconclusive":
        return head + f": not compared, {reader} is too weak."
    return head + f": {_BIAS_WORDS[a.reference_bias]} {a.reference} for this bias."


def _model_free_side(figures: Sequence[Any], category: str) -> tuple[list[Any], list[Any]]:
    """The category's model-free figures that differ from the reference towards the shortcut, and away from it."""
    mine = [f for f in figures if f.category == category and getattr(f, "role", "verdict") == "verdict"
            and f.comparison not in (None, "in line")]
    return [f for f in mine if f.comparison == f.bias_when], [f for f in mine if f.comparison != f.bias_when]


def compare_with_reference(ablations: Sequence[AblationResult], categories: Sequence[CategoryResult],
                           reference: Reference | None, profile: str | None, confidence: float = CONFIDENCE,
                           model_free: Sequence[Any] = (), reader: str = BASELINE_READER
                           ) -> tuple[list[AblationResult], list[CategoryResult]]:
    """Copies of the entries with their comparison with ``reference``'s audit for ``profile`` set and read.

    Each compared ablation's and category's reading ends with one sentence on the comparison; the
    category verdict also reads ``model_free`` (:class:`~mrclens.artifacts.results.ModelFreeFigure`
    entries already compared with the same reference; module docstring). Without a reference audit
    for this profile, the categories are read from the model-free figures alone (the readings say
    that the drops could not be compared). ``reader`` names the model in the readings
    (:func:`mrclens.scoring.readings.reader_phrase`). The evidence levels (absolute,
    :mod:`mrclens.scoring.readings`) are unchanged.
    """
    audit = reference.audits.get(profile) if reference is not None and profile else None
    if audit is None:
        if reference is None or not profile:
            return list(ablations), list(categories)
        note = (f" No {reference.name} audit with the {profile} profile to read the drops against "
                f"(it has: {', '.join(reference.audits) or 'none'}).")
        cats = []
        for c in categories:
            more, less = _model_free_side(model_free, c.category)
            c = replace(c, reading=c.reading + note) if c.reading else c
            if more or less:
                bias = "more" if more else "less"
                c = replace(c, reference=reference.name, reference_bias=bias, reference_basis="model-free",
                            reading=(c.reading or "") + _model_free_sentence(reference.name, bias, more or less))
            cats.append(c)
        return list(ablations), cats
    compared = []
    for a in ablations:
        b = compare_ablation(a, audit, reference.name, confidence)
        if b.reference_bias is not None and b.reading is not None:
            b = replace(b, reading=b.reading + _describe_ablation(b, confidence, reader))
        compared.append(b)
    cats = []
    family = max(sum(any(a.reference_bias is not None for a in compared if a.id in c.ablations) for c in categories), 1)
    level = family_confidence(confidence, family)
    ci = confidence_label(level) + (f", family-wise {confidence_label(confidence)} over the {family} categories "
                                    f"(Bonferroni)" if family > 1 else "")
    for c in categories:
        members = [a for a in compared if a.id in c.ablations]
        got = category_comparison(members, confidence, audit, c.category, family)
        more, less = _model_free_side(model_free, c.category)
        if got is None and not (more or less):
            cats.append(c)
            continue
        fields: dict[str, Any] = {"reference": reference.name}
        text = ""
        drops_bias = None
        if got is not None:
            drops_bias, mean, low, high = got
            ids = ", ".join(a.id for a in members if a.reference_bias is not None)
            if drops_bias == "inconclusive":
                text = f" Against {reference.name}: the drops are not compared, {reader} is too weak."
            else:
                tau = audit.structure_sd.get(c.category)
                spread = (f"; the interval includes how much the drops move with the data's structure alone, SD "
                          f"{tau:.1f}" if tau else "")
                text = (f" Against {reference.name} (same reader profile, {ids}): the drops read {_BIAS_WORDS[drops_bias]} "
                        f"{reference.name} for this bias (mean difference towards the bias {mean:+.1f} points of "
                        f"relative drop, {ci} {low:+.1f} to {high:+.1f}{spread}).")
                fields.update(reference_difference=_r(mean), reference_difference_ci_low=_r(low),
                              reference_difference_ci_high=_r(high), reference_confidence=level)
        if more:
            bias = "more"
            basis = "drops and model-free" if drops_bias == "more" else "model-free"
            if drops_bias == "more":
                text += _model_free_sentence(reference.name, "more", more, also=True)
            else:
                text += _model_free_sentence(reference.name, "more", more)
                if drops_bias in ("less", "in line"):
                    text += (" The drops do not show it: a reader that already finds the answer by this cue is not "
                             "drawn away by a probe that offers the same cue elsewhere, so the data decides here.")
        elif drops_bias is not None:
            bias, basis = drops_bias, "drops"
        else:
            bias, basis = "less", "model-free"
            text += _model_free_sentence(reference.name, "less", less)
        verdict = _VERDICT[bias] if bias != "inconclusive" else f"inconclusive ({reader} is too weak)"
        text += f" Verdict against {reference.name}: {verdict}."
        cats.append(replace(c, reference_bias=bias, reference_basis=basis, reading=(c.reading or "") + text, **fields))
    return compared, cats


_VERDICT = {"more": "more of this bias than the reference", "less": "less of this bias than the reference",
            "in line": "in line with the reference"}


def _model_free_sentence(name: str, bias: str, figures: Sequence[Any], also: bool = False) -> str:
    what = "; ".join(f"{f.label} {f.value:.1f} against {f.reference_value:.1f}" for f in figures)
    lead = " The data alone agrees" if also else " The data alone"
    side = "offers this shortcut more than" if bias == "more" else "offers this shortcut less than"
    return f"{lead}: it {side} {name} ({what}; intervals clustered by article)."


def reference_audit_from_results(results: Results, profile: str, provenance: dict[str, Any] | None = None
                                 ) -> ReferenceAudit:
    """The :class:`~mrclens.artifacts.reference.ReferenceAudit` of an audit's results (one figure per
    evaluated ablation, :func:`relative_figure`)."""
    original = results.sets.get("original")
    drops = {a.id: fig for a in results.ablations for fig in [relative_figure(a)] if fig is not None}
    drops = {k: ReferenceDrop(d.figure, _r(d.value), _r(d.ci_low), _r(d.ci_high), d.n,
                              None if d.f1_drop is None else _r(d.f1_drop),
                              None if d.excess_drop is None else _r(d.excess_drop)) for k, d in drops.items()}
    prov = {"mrclens_version": results.mrclens_version, "created": results.created, "seed": results.seed,
            "reader_f1": None if original is None or original.f1 is None else _r(original.f1),
            **(provenance or {})}
    return ReferenceAudit(profile, None if original is None or original.f1 is None else _r(original.f1), prov, drops)


def combine_reference_audits(audits: Sequence[ReferenceAudit], confidence: float = CONFIDENCE) -> ReferenceAudit:
    """One reference audit from several audits of the same data and profile (different ``--seed``).

    Per ablation present in every audit: the value is the mean of the runs' values; the between-run
    SD beyond the runs' own CIs is ``run_sd = sqrt(max(s² − mean(se_i²), 0))`` (``s²``: the sample
    variance of the run values; ``se_i``: each run's CI half-width ÷ z), and the CI of the mean is
    ``mean ± z sqrt(s² / k)`` (at least ``± z sqrt(mean(se_i²) / k)``). With two runs ``s²`` rests on
    one difference, so ``run_sd`` is a rough estimate; it is recorded, not hidden.

    Raises:
        ValueError: no audits, or audits of different profiles.
    """
    if not audits:
        raise ValueError("combine_reference_audits needs at least one audit")
    if len({a.profile for a in audits}) > 1:
        raise ValueError(f"audits of different profiles: {sorted({a.profile for a in audits})}")
    if len(audits) == 1:
        return audits[0]
    z, k = _z(confidence), len(audits)
    drops = {}
    for aid in audits[0].ablations:
        runs = [a.ablations.get(aid) for a in audits]
        if any(r is None or r.figure != runs[0].figure for r in runs):
            continue
        values = [r.value for r in runs]
        mean = sum(values) / k
        s2 = sum((v - mean) ** 2 for v in values) / (k - 1)
        within = sum(_se(r.ci_low, r.ci_high, z) ** 2 for r in runs) / k
        half = z * math.sqrt(max(s2, within) / k)
        drops[aid] = ReferenceDrop(runs[0].figure, _r(mean), _r(mean - half), _r(mean + half), runs[0].n,
                                   _mean_or_none([r.f1_drop for r in runs]), _mean_or_none([r.excess_drop for r in runs]),
                                   runs=k, run_sd=_r(math.sqrt(max(s2 - within, 0.0))))
    f1s = [a.baseline_f1 for a in audits if a.baseline_f1 is not None]
    return ReferenceAudit(audits[0].profile, _r(sum(f1s) / len(f1s)) if f1s else None,
                          {"runs": [dict(a.provenance) for a in audits]}, drops)


def structure_spread(counterparts: Sequence[Results], audit: ReferenceAudit, confidence: float = CONFIDENCE
                     ) -> tuple[ReferenceAudit, dict[str, Any]]:
    """``audit`` with its structure terms measured on audits of clean structural counterparts.

    A counterpart is a dataset that differs from the reference only in structure (contexts cut
    shorter or joined longer, one question per paragraph copy, …; ``mrclens selftest``'s ``short``,
    ``long``, ``grouped`` and the clean sides of its plantings), audited with ``audit``'s reader
    profile. Each counterpart's difference from the reference, ``d_j`` (per ablation; per category the
    mean signed towards the bias), with its standard error ``s_j`` *without* a structure term, gives
    the method-of-moments estimate of the between-structure variance around 0 (DerSimonian & Laird,
    "Meta-analysis in clinical trials", 1986; centred on 0 since every counterpart is clean by
    construction): ``structure_sd² = max(mean_j(d_j² − s_j²), 0)``, in percentage points of relative drop.

    Args:
        counterparts: the counterparts' audit results (any reference they were read against is ignored).
        audit: the reference audit of the same reader profile.

    Returns:
        ``(copy of audit with ReferenceDrop.structure_sd and ReferenceAudit.structure_sd set,
        details)``; ``details`` holds, per ablation and per category, the counterparts' differences,
        standard errors and the estimate (for the reference's provenance).

    Raises:
        ValueError: no counterparts.

    Examples:
        >>> from mrclens.artifacts.results import Results
        >>> ref = ReferenceAudit("quick", 40.0, {}, {"e9": ReferenceDrop("relative_excess_drop", 10.0, 8.0, 12.0, 300)})
        >>> structure_spread([], ref)
        Traceback (most recent call last):
        ...
        ValueError: structure_spread needs at least one counterpart audit
    """
    if not counterparts:
        raise ValueError("structure_spread needs at least one counterpart audit")
    base = replace(audit, ablations={k: replace(d, structure_sd=None) for k, d in audit.ablations.items()},
                   structure_sd={})
    per_ablation: dict[str, list[tuple[float, float]]] = {}
    per_category: dict[str, list[tuple[float, float]]] = {}
    for results in counterparts:
        compared = {}
        for a in results.ablations:
            got = _difference(a, base, confidence)
            if got is None or weak_reader(a):
                continue
            compared[a.id] = (a, got[2], got[3])
            per_ablation.setdefault(a.id, []).append((got[2], got[3]))
        for c in results.categories:
            members = [compared[i] for i in c.ablations if i in compared]
            if members:
                signed = [d if a.bias_signal == "large_drop" else -d for a, d, _ in members]
                se = math.sqrt(sum(s * s for _, _, s in members)) / len(members)
                per_category.setdefault(c.category, []).append((sum(signed) / len(signed), se))

    def tau(pairs: list[tuple[float, float]]) -> float:
        return _r(math.sqrt(max(sum(d * d - s * s for d, s in pairs) / len(pairs), 0.0)))

    ablations = {k: replace(d, structure_sd=tau(per_ablation[k])) if k in per_ablation else d
                 for k, d in base.ablations.items()}
    categories = {c: tau(pairs) for c, pairs in per_category.items()}
    details = {"method": "DerSimonian-Laird method of moments around 0: max(mean(d^2 - se^2), 0)",
               "counterparts": len(counterparts),
               "ablations": {k: {"structure_sd": tau(v), "differences": [_r(d) for d, _ in v], "se": [_r(s) for _, s in v]}
                             for k, v in per_ablation.items()},
               "categories": {c: {"structure_sd": categories[c], "differences": [_r(d) for d, _ in v],
                                  "se": [_r(s) for _, s in v]} for c, v in per_category.items()}}
    return replace(base, ablations=ablations, structure_sd=categories), details


def _mean_or_none(xs: Sequence[float | None]) -> float | None:
    return None if any(x is None for x in xs) else _r(sum(xs) / len(xs))


def reference_from_audit(audit_dir: str | os.PathLike) -> Reference:
    """An earlier audit (the folder holding its ``results.json``) as a reference: its model-free figures
    and its drops, under its reader profile.

    Raises:
        ArtifactError: no readable ``results.json`` there (the message names the file).
    """
    from mrclens.artifacts.results import read_results

    results = read_results(audit_dir)
    options = (results.audit.options if results.audit is not None else None) or {}
    profile = options.get("profile") or "external"
    name = f"the audit in {Path(audit_dir)}"
    z = _z(results.bootstrap.confidence)
    figures = {}
    kinds = {spec.path: spec.kind for spec in FIGURES}
    for f in results.model_free:
        se = (f.ci_high - f.ci_low) / (2.0 * z)  # the standard error its interval was drawn with
        std = se * math.sqrt(f.n) if kinds.get(f.path) == "mean" and f.n else None
        figures[f.path] = ReferenceFigure(f.value, f.n, std, _r(se))
    prov = {"source": str(audit_dir), "kind": "audit"}
    return Reference(name, prov, figures, {profile: reference_audit_from_results(results, profile, prov)})


def read_any_reference(path: str | os.PathLike | None) -> tuple[Reference, Path]:
    """A reference from a reference file or an audit directory (``None``: the bundled reference).

    Returns:
        ``(reference, file)``: ``file`` is the reference file or the audit's ``results.json`` (for its sha256).

    Raises:
        ArtifactError: the file or directory cannot be read as a reference.
    """
    from mrclens import inputs
    from mrclens.artifacts.layout import RESULTS_JSON
    from mrclens.artifacts.reference import BUNDLED_REFERENCE, read_reference

    if path is not None and Path(path).is_dir():
        inputs.declare(Path(path) / RESULTS_JSON)  # an input of the audit: read once, hashed once (mrclens.inputs)
        return reference_from_audit(path), Path(path) / RESULTS_JSON
    file = BUNDLED_REFERENCE if path is None else Path(path)
    inputs.declare(file)
    return read_reference(file), file


def _r(x: float) -> float:
    return round(float(x), 4) + 0.0  # + 0.0: no "-0.0" in files and readings
