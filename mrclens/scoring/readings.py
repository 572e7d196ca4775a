"""Plain-language readings of F1 drops, per ablation and per bias category.

The direction that signals a bias depends on the ablation (MRCLens paper, Zhong, Wang & Xing
2022; the ``bias_signal`` of :class:`mrclens.perturbations.registry.Ablation`):

* ``small_drop`` ablations *remove information* (e3 shuffles sentence order, e4 keeps only the
  question's interrogative words, e5 shuffles the question's words). A model that answers nearly
  as well without the information did not need it: a **small drop is evidence of the bias**.
* ``large_drop`` ablations *add distracting text* that repeats words of the question next to a
  sentence that does not hold the answer (e1, e2, e6–e8). A model that is pulled to the
  distractor is steered by lexical overlap with the question: a **large drop is evidence of the
  bias**. Each has a matched control (c1, c2, c6–c8: as many unrelated words at the same
  places, :mod:`mrclens.perturbations.controls`); when the control was scored, the evidence is
  read from the **excess drop** (the ablation's drop minus the control's, paired by question)
  and its CI, so that the cost of inserting any text is not taken for lexical overlap.
  Controls themselves get a reading but no evidence level. e9 (Position category, Ko et al. 2020)
  is also a ``large_drop`` ablation: it moves the answer sentence to the far end of the context,
  and a large excess drop over its control c9 (a sentence without the answer moved as far) means
  the model relies on where the answer sits; its readings say so (:attr:`mrclens.categories.BiasCategory.wording`).

How strong the evidence is comes from the paired bootstrap CI of the drop (95% by default;
:mod:`mrclens.metrics.bootstrap`), compared with the thresholds below:

* :data:`SMALL_DROP` = 5 F1 points. A drop below it is *small*. Rationale: retraining a SQuAD
  v1.1 reader with another seed typically moves its F1 by about one point, and the bootstrap CI
  on a few thousand questions is about ±1–2 points wide; 5 points is clearly above both, yet an
  order of magnitude below what removing information a reader truly needs costs (answering
  from the passage without the question, or vice versa, loses most of the F1).
* :data:`LARGE_DROP` = 10 F1 points. A drop above it is *large*. Rationale: the adversarial
  distractor sentences of Jia & Liang (2017, AddSent) cut the average F1 of 16 published SQuAD
  models from 75 to 36 (about 40 points); a 10-point loss from inserting words the question
  already contains is a quarter of that effect and ten times the seed variation, so it cannot be
  put down to noise.

* :data:`LOW_BASELINE_F1` = 30 F1 (on SQuAD v2.0 data also the HasAns baseline F1: a reader that
  abstains everywhere scores the NoAns share in total, about 50, while answering nothing). A drop cannot exceed the baseline F1, so for a weak model
  every drop is small in absolute terms (a floor effect). Below this baseline F1 the reading adds
  a caution and gives the share of the baseline F1 the model keeps. 30 is roughly the F1 of
  simple lexical baselines on SQuAD v1.1 (the sliding-window baseline of Rajpurkar et al. 2016
  reaches about 20 F1 on dev); a reader near that level has not learned enough for a small drop
  to say much.

Both directions (issue 17): every ablation registers what its drop means when it goes the way
that does not signal the bias (``other_direction`` in :mod:`mrclens.perturbations.registry`); a
reading whose evidence is ``"none"`` ends with it ("Read the other way: …"). A large e3 drop also
points to another category (Position), whose reading cites it.

Categories (:func:`category_level`): a category's level is the strongest level that a majority
of its evaluated ablations reach, not the strongest single one, so one probe that is small for
every reader (e3) cannot decide a category on its own.

Evidence levels (the ``evidence`` field of each result):

* ``"strong"``: the whole CI is on the bias side of the threshold (``small_drop``: CI high
  < :data:`SMALL_DROP`; ``large_drop``: CI low > :data:`LARGE_DROP`).
* ``"moderate"``: the point estimate is on the bias side of the threshold but the CI crosses it;
  for ``large_drop`` ablations, also a drop of at least :data:`SMALL_DROP` whose CI excludes 0
  but lies below the threshold (a real and material, but limited, pull towards the distractor).
* ``"none"``: the CI is entirely on the other side (``small_drop``: CI low > :data:`LARGE_DROP`,
  the model clearly needs the information; ``large_drop``: CI includes 0 or lies below it), or,
  for ``large_drop``, the drop is real but small (CI above 0, point estimate under
  :data:`SMALL_DROP`: the reading says so). Why not "moderate" for a small real drop (the rule
  before 2026-11-23): a 1-point pull is no material evidence of the bias, and its level then
  flipped with the training seed as the CI's lower bound crossed 0 (e9 on full SQuAD v1.1:
  0.6 [−0.3, 1.4] with seed 0, 0.8 [0.1, 1.6] with seed 1; BENCHMARKS.md).
* ``"weak"``: everything in between (a ``small_drop`` ablation whose drop is neither small nor
  clearly large).
* ``"inconclusive"``: the baseline F1 is below :data:`LOW_BASELINE_F1` and the result would
  otherwise be read from a *small* drop (any ``small_drop`` ablation; a ``large_drop`` ablation
  whose drop is not significant). A weak reader cannot lose much, so a small drop is no evidence
  either way; train longer or on more data.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Sequence

from mrclens.artifacts.results import AblationResult, CategoryResult
from mrclens.categories import Direction, direction, get_category
from mrclens.metrics.bootstrap import CONFIDENCE, confidence_label, fmt_bound, interval_side
from mrclens.multiple_choice.ablations import MC_ABLATIONS
from mrclens.perturbations.registry import ABLATIONS
from mrclens.tasks import MULTIPLE_CHOICE, SPAN, TaskTable
from mrclens.verdicts import EVIDENCE_LEVELS, INCONCLUSIVE_LEVEL, MODERATE, NO_SIGN, STRONG, WEAK, evidence_level

#: Role ``"ablations"`` (:mod:`mrclens.tasks`): each task's ablation registry (id -> ablation), where
#: a reading finds an ablation's rule and the direction of its drop that signals the bias.
ABLATION_REGISTRIES: TaskTable[Mapping] = TaskTable("ablations", Mapping, {SPAN: ABLATIONS, MULTIPLE_CHOICE: MC_ABLATIONS})

#: F1 drop (percentage points) below which a drop counts as small (rationale in the module docstring).
SMALL_DROP = 5.0
#: F1 drop (percentage points) above which a drop counts as large (rationale in the module docstring).
LARGE_DROP = 10.0

#: Baseline F1 (percent) below which readings warn about the floor effect (rationale in the module docstring).
LOW_BASELINE_F1 = 30.0

#: How the readings name the reader whose drops they read, unless told (:func:`reader_phrase`).
BASELINE_READER = "the baseline reader"


def reader_phrase(kind: str | None, name: str | None) -> str:
    """How a reading names the model whose predictions were scored: ``"the baseline reader"`` for
    MRCLens's own reader (``kind == "baseline"``), else the model by its name (``model 'first
    sentence'``), so that a reading of an external model never blames the baseline reader (issue 33).

    >>> reader_phrase("baseline", "co-attention"), reader_phrase("external", "first sentence")
    ('the baseline reader', "the model 'first sentence'")
    """
    if kind == "baseline":
        return BASELINE_READER
    return f"the model '{name}'" if name else "the model"


def _fmt(x: float) -> str:
    """A figure as the readings show it (:func:`mrclens.metrics.bootstrap.fmt_bound`: one decimal,
    more when one would show a non-zero value as 0.0)."""
    return fmt_bound(x)


def _shown(x: float) -> float:
    """``x`` as the readings show it, so that every rule is decided with the figures the reader sees."""
    return float(fmt_bound(x))


def _falls(drop: float) -> str:
    """``F1 falls by 3.2 points`` / ``F1 rises by 3.2 points`` (a negative drop)."""
    return f"F1 falls by {_fmt(drop)} points" if drop >= 0 else f"F1 rises by {_fmt(-drop)} points"


def _ci(low: float, high: float, confidence: float) -> str:
    return f"{confidence_label(confidence)} {_fmt(low)} to {_fmt(high)}"


def ablation_evidence(bias_signal: str | Direction, drop: float, low: float, high: float) -> str:
    """The evidence level (one of :data:`mrclens.verdicts.EVIDENCE_LEVELS`) that a drop and its CI give for the bias,
    read the way the ablation's :class:`~mrclens.categories.Direction` says, with this module's thresholds
    (:data:`SMALL_DROP`, :data:`LARGE_DROP`): for an ablation that removes information a small drop is the bias
    (strong when the whole interval is below :data:`SMALL_DROP`, moderate when the drop is; none when the whole
    interval is above :data:`LARGE_DROP`; else weak), for one that adds text a large drop is (strong when the whole
    interval is above :data:`LARGE_DROP`; moderate when the drop is, or when it is at least :data:`SMALL_DROP` with
    the interval above 0; else none).

    >>> ablation_evidence("small_drop", 2.1, 0.4, 3.8), ablation_evidence("large_drop", 6.2, 3.9, 8.4)
    ('strong', 'moderate')

    Args:
        bias_signal: the direction, or its name: ``"small_drop"`` or ``"large_drop"``.
        drop, low, high: the F1 drop and its CI bounds, in percentage points.

    The figures are compared as the readings show them (one decimal, :func:`_shown`), so that a reading
    never says "the interval excludes 0" of an interval shown as ``[0.0, 3.1]`` (issue 33).

    Raises:
        ValueError: unknown ``bias_signal``, or a control's (which signals no bias itself).
    """
    judge = direction(bias_signal)
    if not judge.signals:
        raise ValueError(f"bias_signal must be 'small_drop' or 'large_drop', got {judge.name!r}: "
                         f"a {judge.text} signals no bias itself")
    drop, low, high = _shown(drop), _shown(low), _shown(high)
    if judge.removes_information:
        if high < SMALL_DROP:
            return STRONG.name
        if drop < SMALL_DROP:
            return MODERATE.name
        return NO_SIGN.name if low > LARGE_DROP else WEAK.name
    if low > LARGE_DROP:
        return STRONG.name
    if drop > LARGE_DROP or (interval_side(low, high) == "above" and drop >= SMALL_DROP):
        return MODERATE.name
    return NO_SIGN.name


def read_ablation(result: AblationResult, confidence: float = CONFIDENCE,
                  controlled_signal: str | Direction | None = None) -> tuple[str, str | None]:
    """A one-paragraph reading of one ablation's result and its evidence level.

    Args:
        result: an ablation entry (:func:`mrclens.scoring.drops.score_ablation`).
        confidence: the confidence level of its CI (named in the text).
        controlled_signal: for a control, the direction (or ``bias_signal``) of the ablation it controls;
            one that removes information (``"small_drop"``) marks a *reference* (c4: the information removed
            entirely) rather than an insertion control.

    Returns:
        ``(reading, evidence)``; evidence is ``None`` when the ablation was not evaluated.
    """
    aid, name = result.id, result.name
    head = f"{aid} ({name}, {result.category} bias)"
    if not result.evaluated:
        return f"{head}: not evaluated ({result.reason_not_evaluated or 'no predictions'}).", None
    drop, low, high = result.f1_drop, result.ci_low, result.ci_high
    signal = result.direction
    words = get_category(result.category).wording
    if (result.control_of is not None and controlled_signal is not None
            and direction(controlled_signal).removes_information):
        return (f"{head}: F1 falls by {_fmt(drop)} points ({_ci(low, high, confidence)}) when the question is removed "
                f"entirely ({result.description.rstrip('.')}). This is the reference for {result.control_of}: its reading "
                f"says how much of this loss what {result.control_of} keeps recovers."), None
    if result.control_of is not None:
        if words.control_reading is not None:
            return f"{head}: {_falls(drop)} ({_ci(low, high, confidence)}) " \
                   f"{words.control_reading.format(of=result.control_of)}", None
        return f"{head}: {_falls(drop)} ({_ci(low, high, confidence)}) when as many unrelated words " \
               f"are inserted where {result.control_of} inserts the question's words. This is what any insertion " \
               f"there costs; {result.control_of}'s excess drop over it is what the overlap with the question costs.", None
    ci = _ci(low, high, confidence)
    rel = f", {_fmt(result.relative_drop)}% of the baseline F1" if result.relative_drop is not None and drop >= 0 else ""
    excess = None
    if signal.reads_excess and result.excess_drop is not None:
        excess = (f"{_falls(drop)} ({ci}{rel}); its control {result.control} ({words.control}) costs {_fmt(result.control_f1_drop)}, so the excess drop is "
                  f"{_fmt(result.excess_drop)} points ({_ci(result.excess_ci_low, result.excess_ci_high, confidence)})")
        drop, low, high = result.excess_drop, result.excess_ci_low, result.excess_ci_high
    level = ablation_evidence(signal, drop, low, high)
    side = interval_side(low, high)  # as the text shows the interval
    base = result.baseline_f1
    has_ans = (result.subsets or {}).get("HasAns")
    weak_baseline = weak_reader(result)
    weak_has_ans = weak_baseline and not (base is not None and base < LOW_BASELINE_F1)  # the floor came from HasAns
    if weak_baseline and (signal.removes_information or level == NO_SIGN.name):
        level = INCONCLUSIVE_LEVEL.name
    kept = (
        f" and keeps {100.0 * result.f1 / base:.0f}% of its baseline F1"
        if base and signal.removes_information and base >= LOW_BASELINE_F1
        else ""
    )
    moves = f"F1 falls by {_fmt(drop)} points ({ci}{rel}){kept}" if drop >= 0 else f"F1 rises by {_fmt(-drop)} points ({ci})"
    if excess is not None:
        moves = excess
    if signal.removes_information:
        text = {
            INCONCLUSIVE_LEVEL.name: f"{moves}; inconclusive.",
            STRONG.name: f"{moves}, a small drop with the whole interval below {_fmt(SMALL_DROP)}: strong evidence that the model does not need the information this ablation removes, so it answers through a shortcut.",
            MODERATE.name: f"{moves}: the drop is small (under {_fmt(SMALL_DROP)} points) but the interval reaches {_fmt(high)}, so the model probably does not need the removed information; moderate evidence of the bias.",
            WEAK.name: f"{moves}: a moderate drop, neither clearly small nor clearly large (over {_fmt(LARGE_DROP)}); the model uses the removed information only in part, weak evidence of the bias.",
            NO_SIGN.name: f"{moves}, the whole interval above {_fmt(LARGE_DROP)}: the model clearly needs the information this ablation removes; no sign of the bias.",
        }[level]
    else:
        text = {
            INCONCLUSIVE_LEVEL.name: f"{moves}; inconclusive.",
            STRONG.name: f"{moves}, the whole interval above {_fmt(LARGE_DROP)}: strong evidence that {words.change} draw{words.s} the model away from the answer, i.e. it {words.bias}.",
            MODERATE.name: (
                f"{moves}: a real drop (the interval excludes 0) that shows the model {words.partly}; moderate evidence of the bias."
                if drop <= LARGE_DROP
                else f"{moves}: a large drop, though the interval reaches down to {_fmt(low)}; the model likely {words.bias}, moderate evidence of the bias."
            ),
            NO_SIGN.name: (
                f"{moves}: the interval excludes 0 but the drop is under {_fmt(SMALL_DROP)} points, a real but small pull; "
                f"{words.change} hardly mislead{'s' if words.s else ''} the model, no material sign that it {words.bias}."
                if side == "above" else
                f"{moves}: the whole interval lies below 0, a reversed pull: the model avoids the text the words are "
                f"inserted into{' more than after unrelated words' if excess is not None else ''}, so it reads overlap "
                f"with the question as a sign against an answer (a shortcut in the other direction)."
                if side == "below" else
                f"{moves}: the interval includes or touches 0, so {words.change} do{'es' if words.s else ''} not measurably mislead the model; no sign that it {words.bias}."),
        }[level]
    if result.recovered_share is not None and result.control is not None:
        text += (f" Without the question at all ({result.control}) F1 falls by {_fmt(result.control_f1_drop)} points; "
                 f"keeping what {aid} keeps recovers {_fmt(result.recovered_share)}% "
                 f"({_ci(result.recovered_ci_low, result.recovered_ci_high, confidence)}) of that loss on the questions "
                 f"{aid} changed (100% = as good as the whole question, 0% = worth nothing beyond no question).")
    other = _registered(aid)
    if level == NO_SIGN.name and other is not None and other.other_direction and not (signal.reads_excess and side == "below"):
        text += f" Read the other way: {other.other_direction}"
    if weak_has_ans:
        text += (
            f" Caution: on the questions that have an answer (HasAns) the baseline F1 is only "
            f"{_fmt(has_ans.baseline_f1)}, below {_fmt(LOW_BASELINE_F1)}; the total F1 ({_fmt(base)}) is carried by "
            f"abstaining on unanswerable questions, so a small drop says little here."
        )
    elif weak_baseline:
        share = f" (it keeps {100.0 * result.f1 / base:.0f}% of it)" if base else ""
        text += (
            f" Caution: the baseline F1 is only {_fmt(base)}{share}, below {_fmt(LOW_BASELINE_F1)}; drops are bounded"
            " by it, so a small drop says little here."
        )
    return f"{head}: {text}", level


def weak_reader(result: AblationResult) -> bool:
    """Whether the reader is below the :data:`LOW_BASELINE_F1` floor for this ablation: its baseline F1,
    or on SQuAD v2.0 data its HasAns baseline F1 (abstaining on every question scores the NoAns share,
    so the total F1 can pass the floor while nothing is answered). Rationale in the module docstring."""
    if result.baseline_f1 is not None and result.baseline_f1 < LOW_BASELINE_F1:
        return True
    has_ans = (result.subsets or {}).get("HasAns")
    return bool(has_ans is not None and has_ans.n and has_ans.baseline_f1 is not None
                and has_ans.baseline_f1 < LOW_BASELINE_F1)


def category_level(levels: Sequence[str]) -> str:
    """A bias category's evidence level from its ablations' levels: the strongest level that a
    majority of them reach (1 of 1, 2 of 2 — the weaker of two —, 2 of 3, 3 of 4).

    Why (issue 17): the strongest ablation alone made Similarity "strong" on every dataset tried,
    because e3 (shuffle sentences) costs almost any SQuAD reader little; a verdict that one
    ablation decides does not move with the data. Requiring a majority of a category's probes to agree
    keeps a single-ablation category (Position: e9) read from its one probe and lets no single
    probe decide a category with several. A majority (not half) so that a category of two probes
    (Question: e4, e5) needs both.

    Raises:
        ValueError: ``levels`` is empty or holds a name not in :data:`mrclens.verdicts.EVIDENCE_LEVELS`.

    Examples:
        >>> category_level(["strong", "moderate", "none", "moderate"])
        'moderate'
        >>> category_level(["strong", "none"])
        'none'
        >>> category_level(["strong", "strong", "none"])
        'strong'
        >>> category_level(["strong", "strong", "none", "none"])
        'none'
    """
    if not levels:
        raise ValueError("a category level needs at least one ablation level")
    return levels[deciding_position(levels)]


def deciding_position(levels: Sequence[str]) -> int:
    """Where, in ``levels`` (a category's evaluated ablations' levels, in report order), the ablation sits whose
    level is the category's (:func:`category_level`: the one at the majority position once they are ranked
    strongest first; among equal levels the first in report order). Its figure is the one that decides the
    category's absolute reading, and the one every surface shows for it (issue 44:
    :func:`mrclens.reports.glance.deciding_figure`).

    Raises:
        ValueError: ``levels`` is empty or holds a name not in :data:`mrclens.verdicts.EVIDENCE_LEVELS`.

    >>> deciding_position(["none", "strong", "moderate"]), deciding_position(["strong"])
    (2, 0)
    """
    if not levels:
        raise ValueError("a category level needs at least one ablation level")
    ranked = sorted(range(len(levels)), key=lambda i: _rank(levels[i]), reverse=True)
    return ranked[len(ranked) // 2]


def _rank(level: str) -> int:
    """The rank of an evidence level, weakest first (:attr:`mrclens.verdicts.EvidenceLevel.rank`).

    Raises:
        ValueError: no evidence level has that name.
    """
    try:
        return evidence_level(level).rank
    except KeyError:
        raise ValueError(f"{level!r} is not an evidence level") from None


def _registered(ablation_id: str):
    """The registered :class:`~mrclens.perturbations.registry.Ablation` with this id, looked up in each
    task's ablation registry in registration order (:data:`ABLATION_REGISTRIES`: the span ablations,
    then the multiple-choice ones of issue 20), or ``None``."""
    for _, registry in ABLATION_REGISTRIES.items():
        if ablation_id in registry:
            return registry[ablation_id]
    return None


def _plural(n: int, word: str, plural: str | None = None) -> str:
    """``1 ablation``, ``3 ablations`` (``plural`` for irregular forms)."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def majority_phrase(level: str, levels: Sequence[str]) -> str:
    """How many of a category's ablations back its level (:func:`category_level`), counted honestly:
    ``"3 of 4 reach moderate evidence or more"``, ``"only 1 of 3 shows any evidence"`` (level ``none``),
    ``"2 of 3 are inconclusive"``.

    >>> majority_phrase("inconclusive", ["none", "inconclusive", "inconclusive", "inconclusive"])
    '3 of 4 are inconclusive'
    >>> majority_phrase("moderate", ["strong", "moderate", "none"])
    '2 of 3 reach moderate evidence or more'
    >>> majority_phrase("none", ["weak", "none", "none"])
    'only 1 of 3 shows any evidence'
    """
    n = len(levels)
    rank = _rank
    if level == INCONCLUSIVE_LEVEL.name:
        k = sum(lv == INCONCLUSIVE_LEVEL.name for lv in levels)
        return f"{k} of {n} {'is' if k == 1 else 'are'} inconclusive"
    if level == NO_SIGN.name:
        k = sum(rank(lv) > NO_SIGN.rank for lv in levels)
        return "none of them shows any evidence" if k == 0 else f"only {k} of {n} {'shows' if k == 1 else 'show'} any evidence"
    k = sum(rank(lv) >= rank(level) for lv in levels)
    more = "" if level == STRONG.name else " or more"
    return f"{k} of {n} {'reaches' if k == 1 else 'reach'} {level} evidence{more}"


def read_category(category: CategoryResult, ablations: Sequence[AblationResult],
                  confidence: float = CONFIDENCE, reader: str = BASELINE_READER) -> tuple[str, str | None]:
    """A reading of one bias category and its evidence level (:func:`category_level` of its ablations).

    Args:
        category: a category entry (:func:`mrclens.scoring.drops.score_categories`).
        ablations: the ablation entries, with ``evidence`` already set (:func:`read_all`); an
            ablation of another category whose drop went the other way and points to this one
            (``other_direction_category`` in the registry, e.g. a large e3 drop for Position) is
            cited in the reading (it does not change the level).
        confidence: the confidence level of the CIs (named in the text).
        reader: how the reading names the model (:func:`reader_phrase`; an external model by its name).

    Returns:
        ``(reading, evidence)``; evidence is ``None`` when no ablation of the category was evaluated.
    """
    name = category.category
    members = [a for a in ablations if a.id in category.ablations]
    done = [a for a in members if a.evaluated]
    if not done:
        return f"{name} bias: not evaluated (none of {', '.join(category.ablations)} could be scored).", None
    level = category_level([a.evidence for a in done])
    by_level = {lv.name: [a.id for a in done if a.evidence == lv.name] for lv in reversed(EVIDENCE_LEVELS)}
    parts = "; ".join(f"{lv}: {', '.join(ids)}" for lv, ids in by_level.items() if ids)
    rule = "" if len(done) == 1 else (
        f" The category's level is the one that a majority of its {len(done)} ablations reach "
        f"({majority_phrase(level, [a.evidence for a in done])}), so no single ablation decides it.")
    mean = (
        f"Mean F1 drop over {_plural(len(done), 'ablation')}: {_fmt(category.f1_drop)} points "
        f"({_ci(category.ci_low, category.ci_high, confidence)})."
    )
    signals = {a.direction for a in done}
    if len(signals) > 1:
        mean += " Its ablations signal the bias in opposite directions (small vs large drop), so read the ablations, not the mean."
    skipped = [a.id for a in members if not a.evaluated]
    note = f" Not evaluated: {', '.join(skipped)}." if skipped else ""
    for a in ablations:
        reg = _registered(a.id)
        if (a.evaluated and a.evidence == NO_SIGN.name and a.id not in category.ablations and reg is not None
                and reg.other_direction_category == name and a.f1_drop is not None):
            note += (f" Also: {a.id} ({a.name}, {a.category} bias) costs {_fmt(a.f1_drop)} points "
                     f"({_ci(a.ci_low, a.ci_high, confidence)}), a large drop, which points the same way: "
                     f"{reg.other_direction}")
    verdict = evidence_level(level).reading.format(reader=reader)
    return f"{name} bias: {verdict} (evidence per ablation, {parts}).{rule} {mean}{note}", level


def read_all(ablations: Sequence[AblationResult], categories: Sequence[CategoryResult],
             confidence: float = CONFIDENCE, reader: str = BASELINE_READER
             ) -> tuple[list[AblationResult], list[CategoryResult]]:
    """Copies of the ablation and category entries with ``reading`` and ``evidence`` set (inputs unchanged);
    ``reader``: how the readings name the model (:func:`reader_phrase`)."""
    signals = {a.id: a.direction for a in ablations}
    read = [replace(a, reading=r, evidence=e) for a in ablations
            for r, e in [read_ablation(a, confidence, signals.get(a.control_of) if a.control_of else None)]]
    cats = [replace(c, reading=r, evidence=e) for c in categories
            for r, e in [read_category(c, read, confidence, reader)]]
    return read, cats


def _replicate_name(draw: int, reader: int, kinds: set[str]) -> str:
    if kinds == {"draw"}:
        return f"draw {draw}"
    if kinds == {"reader"}:
        return f"reader {reader}"
    return f"draw {draw} × reader {reader}"


def note_instability(ablations: Sequence[AblationResult], categories: Sequence[CategoryResult]
                     ) -> tuple[list[AblationResult], list[CategoryResult]]:
    """Copies of the entries with ``unstable`` set and, where the evidence level differs between replicates, a note.

    Rule (issue 16): an entry with per-replicate figures (``replicates``, from
    :func:`mrclens.scoring.drops.combine_replicates`) is *unstable* when the evidence levels of
    its replicates (each read from that replicate's own drop and CI, :func:`read_ablation` /
    :func:`read_category`) are not all the same; its reading then ends with "Unstable across
    draws (readers): …" naming each replicate's level, since the verdict depends on the random
    choices (or the training run) and not only on the data. ``unstable`` stays ``None`` for
    single-run entries and for controls (no evidence level).
    """
    def mark(entry):
        levels = [r.evidence for r in entry.replicates]
        if len(levels) < 2 or any(lv is None for lv in levels):
            return entry
        kinds = set()
        if len({r.draw for r in entry.replicates}) > 1:
            kinds.add("draw")
        if len({r.reader for r in entry.replicates}) > 1:
            kinds.add("reader")
        kinds = kinds or {"draw"}
        if len(set(levels)) == 1:
            return replace(entry, unstable=False)
        what = {frozenset({"draw"}): "draws", frozenset({"reader"}): "readers"}.get(frozenset(kinds), "draws and readers")
        each = ", ".join(f"{lv} in {_replicate_name(r.draw, r.reader, kinds)}" for r, lv in zip(entry.replicates, levels))
        note = (f" Unstable across {what}: the evidence is {each}, so this verdict depends on the "
                f"{'random choices of the perturbation' if what == 'draws' else 'training run' if what == 'readers' else 'random choices and the training run'}"
                f"; the combined level above is read from the interval that includes that variation.")
        return replace(entry, unstable=True, reading=(entry.reading or "") + note)

    return [mark(a) for a in ablations], [mark(c) for c in categories]
