"""The rows of a comparison (:class:`~mrclens.artifacts.comparison.ComparisonRow`): each input's value
and each later input's difference to the first with its interval (:func:`difference`); the
reader row (:data:`READER_KEY`), the model-free and share rows of the inputs' task
(:func:`model_free_rows`, :func:`share_rows`), and the ablation rows (:data:`ABLATION_FIGURES`,
:func:`ablation_rows`), compared only where comparable (:func:`comparability`).

A difference's interval is the percentile interval of ``resampled later − resampled first``
(``ci_method`` ``"bootstrap"``) when both inputs can be resampled, else the normal approximation
``difference ± z sqrt(se_first² + se_later²)`` (``"normal"``), each side's standard error being
the half-width of its interval ÷ z. It is **significant** when its interval excludes 0;
``direction`` then says whether the later input has *more* or *less* of the shortcut the row
measures (``bias_when``).

Examples:
    >>> is_row_key("similarity.answer_in_most_similar_sentence_pct"), is_row_key("ablations.e1.relative_drop")
    (True, True)
    >>> is_row_key("question_types.shares_pct.what"), is_row_key("similarity.typo")
    (True, False)
    >>> is_row_key("heuristics.longest_ending.accuracy"), is_row_key("labels.shares_pct.3")
    (True, True)
    >>> d = difference(Estimate(70.0, 67.0, 73.0, 1000), Estimate(80.0, 77.0, 83.0, 1000), "B", 0.95, "higher")
    >>> d.difference, d.significant, d.direction, d.ci_method
    (10.0, True, 'more', 'normal')
"""

from __future__ import annotations

import math
import re
from typing import Callable, Mapping, Sequence

import numpy as np

from mrclens.artifacts.comparison import ComparisonRow, Difference, InputValue
from mrclens.artifacts.manifest import ablation_order
from mrclens.compare.estimates import Estimate, ablation_estimate, model_free_estimate, reader_estimate
from mrclens.compare.hooks import hooks_for
from mrclens.compare.sources import Source, known_task
from mrclens.metrics import estimate as normal
from mrclens.metrics.bootstrap import percentile_interval, stable_rng
from mrclens.scoring.model_free import standard_error, standardised_to, strata_path
from mrclens.tasks import all_tasks
from mrclens.verdicts import LESS, MORE

#: Ablation figures: ``(figure, label, unit, absolute)``; absolute figures depend on the reader's strength.
ABLATION_FIGURES = (
    ("f1_drop", "F1 drop", "points", True),
    ("relative_drop", "relative drop", "% of baseline F1", False),
    ("excess_drop", "excess drop over the control", "points", True),
    ("relative_excess_drop", "relative excess drop", "% of baseline F1", False),
)

#: The key of the reader-strength row (F1 on the original set; accuracy for multiple-choice audits).
READER_KEY = "reader.original_f1"

#: A row's generator: ``(row key, input position) -> numpy Generator``.
RngFor = Callable[[str, int], np.random.Generator]


def is_row_key(key: str) -> bool:
    """Whether :func:`mrclens.compare.compare` can produce a row with this key, for inputs of any
    task (``mrclens check`` validates ``compare.`` rules with it)."""
    hooks = [hooks_for(task) for task in all_tasks()]
    if key == READER_KEY or any(key in {row[1] for row in h.rows} for h in hooks):
        return True
    section, _, label = key.partition(".shares_pct.")
    for h in hooks:
        if section in {stats_section for _, stats_section, _, _ in h.share_sections}:
            return h.share_label_ok(section, label)
    m = re.fullmatch(r"ablations\.([A-Za-z0-9_-]+)\.([a-z0-9_]+)", key)
    return bool(m) and m.group(2) in {f for f, *_ in ABLATION_FIGURES}


def difference(first: Estimate, later: Estimate, name: str, confidence: float, bias_when: str | None) -> Difference:
    """``later − first`` with its interval: bootstrap when both can be resampled, else normal (module docstring)."""
    diff = later.value - first.value
    if first.samples is not None and later.samples is not None:
        low, high = percentile_interval(later.samples - first.samples, confidence)
        method = "bootstrap"
    else:
        if None in (first.ci_low, first.ci_high, later.ci_low, later.ci_high):
            return Difference(name, False, _r(diff), reason="no interval for one of the two values")
        a = normal.Estimate.from_interval(first.ci_low, first.ci_high, confidence, value=first.value)
        b = normal.Estimate.from_interval(later.ci_low, later.ci_high, confidence, value=later.value)
        (low, high), method = b.minus(a).interval(confidence), "normal"
    if math.isnan(low) or math.isnan(high):
        return Difference(name, False, _r(diff), reason="no interval could be computed")
    significant = bool(low > 0 or high < 0)
    direction = None
    if significant and bias_when in ("higher", "lower"):
        direction = MORE.name if (diff > 0) == (bias_when == "higher") else LESS.name
    return Difference(name, True, _r(diff), _r(low), _r(high), significant, direction, method)


def _value(e: Estimate | None) -> InputValue:
    if e is None:
        return InputValue()
    return InputValue(_r(e.value), _r(e.ci_low), _r(e.ci_high), e.n)


def _row(key: str, section: str, label: str, unit: str, estimates: Sequence[Estimate | None], names: Sequence[str],
         confidence: float, *, bias_when: str | None = None, category: str | None = None, ablation: str | None = None,
         not_compared: Mapping[int, str] | None = None) -> ComparisonRow:
    row = ComparisonRow(key, section, label, unit, bias_when, category, ablation, [_value(e) for e in estimates])
    for i in range(1, len(estimates)):
        first, later = estimates[0], estimates[i]
        reason = (not_compared or {}).get(i)
        if reason is None and (first is None or later is None):
            lacking = [names[k] for k, e in ((0, first), (i, later)) if e is None]
            reason = f"no value for {' and '.join(lacking)}"
        if reason is not None:
            d = Difference(names[i], False, reason=reason)
            if first is not None and later is not None:
                d.difference = _r(later.value - first.value)
            row.differences.append(d)
            continue
        row.differences.append(difference(first, later, names[i], confidence, bias_when))
    return row


def _unit(path: str, kind: str) -> str:
    if kind in ("share", "accuracy") or path.endswith("_pct"):
        return "%"
    return "characters" if ".characters." in path else "words"


def reader_row(sources: Sequence[Source], names: Sequence[str], rng: RngFor, n_resamples: int, confidence: float,
               metric: str) -> ComparisonRow:
    """The reader's score on the original set (``metric``: F1, or accuracy for multiple choice), audits only."""
    reader = [reader_estimate(s, rng(READER_KEY, i), n_resamples, confidence) if s.results is not None else None
              for i, s in enumerate(sources)]
    return _row(READER_KEY, "reader", f"reader's {metric} on the original set (%)", "%", reader, names, confidence)


def model_free_rows(sources: Sequence[Source], names: Sequence[str], rng: RngFor, n_resamples: int,
                    confidence: float) -> list[ComparisonRow]:
    """The rows of the task's model-free figures that at least one input has, then its share rows."""
    hooks = hooks_for(sources[0].task)
    rows = []
    for section, path, kind, n_path, label, bias_when, category in hooks.rows:
        est = [model_free_estimate(s, path, kind, n_path, rng(path, i), n_resamples, confidence) for i, s in enumerate(sources)]
        if any(e is not None for e in est):
            row = _row(path, section, label, _unit(path, kind), est, names, confidence, bias_when=bias_when,
                       category=category)
            if strata_path(path):
                _standardise(row, sources, est, path, names, confidence)
            rows.append(row)
    for section, stats_section, template, n_path in hooks.share_sections:
        labels: list[str] = []
        for s in sources:
            for lab in ((s.stats or {}).get(stats_section) or {}).get("shares_pct", {}):
                if lab not in labels:
                    labels.append(lab)
        for lab in labels:
            path = f"{stats_section}.shares_pct.{lab}"
            est = [model_free_estimate(s, path, "share", n_path, rng(path, i), n_resamples, confidence)
                   for i, s in enumerate(sources)]
            rows.append(_row(path, section, template.format(lab), "%", est, names, confidence))
    return rows


def _standardise(row: ComparisonRow, sources: Sequence[Source], est: Sequence[Estimate | None], path: str,
                 names: Sequence[str], confidence: float) -> None:
    """A chance-corrected rank's differences, each against the first input **re-weighted to that later
    input's sentence counts** (:func:`mrclens.scoring.model_free.standardised_to`; ``ci_method``
    ``"standardised"``, normal approximation), so that the number of sentences does not drive them.
    A difference stays as it was where either input's statistics lack the strata (a summary input)."""
    first = sources[0].stats
    if first is None or est[0] is None:
        return
    for i in range(1, len(sources)):
        d = row.differences[i - 1]
        later = sources[i].stats
        if not d.compared or later is None or est[i] is None:
            continue
        std = standardised_to(first, later, path)
        if std is None:
            continue
        low, high = normal.Estimate(std.value, standard_error(std)).interval(confidence)
        new = difference(Estimate(std.value, low, high, std.n), est[i], names[i], confidence, row.bias_when)
        new.ci_method = "standardised"
        row.differences[i - 1] = new


def comparability(sources: Sequence[Source], rows: Sequence[ComparisonRow]) -> dict[int, dict[str, str]]:
    """Per later input: ``{"all": reason}`` when no drop is comparable with the first input's, and
    ``{"absolute": reason}`` when only the relative figures are (a significantly different reader)."""
    out: dict[int, dict[str, str]] = {}
    first = sources[0]
    strength_row = next((r for r in rows if r.key == READER_KEY), None)
    for i, s in enumerate(sources[1:], start=1):
        notes: dict[str, str] = {}
        if first.results is None or s.results is None:
            out[i] = notes
            continue
        if first.info.reader != s.info.reader:
            notes["all"] = f"reader profiles differ ({first.info.reader} vs {s.info.reader}): drops of different readers are not compared"
        elif (first.info.draws, first.info.readers) != (s.info.draws, s.info.readers):
            notes["all"] = (f"numbers of perturbation draws × readers differ ({first.info.draws}×{first.info.readers} vs "
                            f"{s.info.draws}×{s.info.readers}): the intervals cover different sources of variance")
        else:
            d = strength_row.differences[i - 1] if strength_row is not None else None
            if d is not None and d.significant:
                notes["absolute"] = (f"the readers differ in strength ({known_task(first.task).metric} on the original set "
                                     f"{first.info.reader_f1:.1f} vs "
                                     f"{s.info.reader_f1:.1f}, difference significant): absolute drops are not compared, "
                                     f"relative ones are")
        out[i] = notes
    return out


def ablation_rows(sources: Sequence[Source], names: Sequence[str], notes_by_input: Mapping[int, Mapping[str, str]],
                   seed: int, n_resamples: int, confidence: float, *, metric: str = "F1") -> list[ComparisonRow]:
    by_source = [{a.id: a for a in (s.results.ablations if s.results is not None else [])} for s in sources]
    ids: list[str] = []
    for d in by_source:
        ids.extend(aid for aid, a in d.items() if a.control_of is None and aid not in ids)
    rows = []
    for aid in sorted(ids, key=ablation_order):
        entry = next(d[aid] for d in by_source if aid in d)
        for figure, label, unit, absolute in ABLATION_FIGURES:
            label, unit = label.replace("F1", metric), unit.replace("F1", metric)
            key = f"ablations.{aid}.{figure}"
            est: list[Estimate | None] = []
            for i, (s, d) in enumerate(zip(sources, by_source)):
                a = d.get(aid)
                ok = a is not None and a.evaluated
                est.append(ablation_estimate(s, a, figure, stable_rng(seed, f"{key}#{i}"), n_resamples, confidence)
                           if ok else None)
            if all(e is None for e in est):
                continue
            not_compared = {}
            for i in range(1, len(sources)):
                notes = notes_by_input.get(i, {})
                if sources[0].results is None or sources[i].results is None:
                    kinds = [n for n, s in ((names[0], sources[0]), (names[i], sources[i])) if s.results is None]
                    not_compared[i] = f"{' and '.join(kinds)}: no audit (a dataset or statistics only)"
                elif "all" in notes:
                    not_compared[i] = notes["all"]
                elif absolute and "absolute" in notes:
                    not_compared[i] = notes["absolute"]
                else:
                    missing = [n for n, d in ((names[0], by_source[0]), (names[i], by_source[i]))
                               if aid not in d or not d[aid].evaluated]
                    if missing:
                        not_compared[i] = f"ablation {aid} not evaluated in {' and '.join(missing)}"
            rows.append(_row(key, "ablations", f"{aid} {entry.name}: {label}", unit, est, names, confidence,
                             bias_when=entry.direction.bias_when, category=entry.category, ablation=aid, not_compared=not_compared))
    return rows


def _r(x: float | None) -> float | None:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return None
    return round(float(x), 4)
