"""The verdict at a glance (issue 33): per bias category, one line that says what to act on.

The README says to act on the verdict **against the reference** (``reference_bias`` of a
category: ``"more"``, ``"in line"``, ``"less"`` or ``"inconclusive"``; :mod:`mrclens.scoring.against_reference`),
not on the absolute evidence level (how far this reader's F1 falls, which grows with the reader's
strength). So each category's line holds, in this order:

* the **verdict** against the reference (the badge);
* one sentence of **why**, from ``reference_basis`` (``"drops"``, ``"model-free"`` or ``"drops and
  model-free"``: the evidence that decided it);
* the **deciding figure(s)** with their CI: for drops, the category's ``reference_difference``
  (the mean over its ablations of this dataset's relative drop minus the reference's, in points of
  percent of the baseline F1, signed so that ``+`` is towards the bias); for the model-free
  figures, each :class:`~mrclens.artifacts.results.ModelFreeFigure` of the category that differs
  from the reference on the verdict's side (``comparison == bias_when`` for "more"), as value
  against the reference's and the difference with its CI;
* what to do about it (:func:`advice`);
* secondary: the absolute evidence level, named for what it is — how sensitive this reader is to
  the category's ablations.

Nothing is computed here that scoring did not compute: the lines only select and format fields
of ``results.json`` (:mod:`mrclens.artifacts.results`).

Examples:
    >>> line = category_glance({"category": "Position", "reference": "SQuAD v1.1", "reference_bias": "in line",
    ...                         "reference_basis": "drops", "reference_difference": 1.2,
    ...                         "reference_difference_ci_low": -3.0, "reference_difference_ci_high": 5.4,
    ...                         "evidence": "strong", "f1_drop": 9.5, "ci_low": 7.0, "ci_high": 12.0}, [])
    >>> line["badge"], line["figures"][0]["value"], line["figures"][0]["ci"]
    ('in line with SQuAD v1.1', '+1.2', '[-3.0, +5.4]')
    >>> line["sensitivity"]
    'how sensitive this reader is: strong evidence (F1 drop 9.5 [7.0, 12.0])'
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, is_dataclass
from typing import Any, Mapping, Sequence

from mrclens.categories import get_category
from mrclens.metrics.bootstrap import CONFIDENCE, confidence_label, family_ci_label, fmt_bound
from mrclens.scoring.readings import LOW_BASELINE_F1, deciding_position
from mrclens.verdicts import (CANNOT_TELL, EVIDENCE_NAMES, IN_LINE, INCONCLUSIVE, MORE, OPPOSITE, READING_NAMES,
                              UNDECIDED_NAMES, WEAK_READER, evidence_level, figure_reading, reading, undecided)
from mrclens.verdicts import NOT_COMPARED as NOT_COMPARED_READING

#: The label of a category's figure against the reference (:func:`reading_figure`): the mean over its ablations of
#: this dataset's relative drop minus the reference's, in points of percent of the baseline score, ``+`` towards the bias.
REFERENCE_LABEL = "rel. drop vs ref"
#: The label of the same difference stated as a planted share (issue 54, :func:`drops_reading_figure`): the reader's
#: drops differ from the reference's as much as a shortcut planted in N % of the questions moves them.
DROPS_PLANTED_LABEL = "drops ≈"


@dataclass(frozen=True)
class ReadingFigure:
    """The one figure that represents a category's reading (issue 44), as every surface shows it: the terminal
    summary, the report's first screen, the card and the ``--wide`` table print :attr:`label` and :attr:`text`
    (:func:`mrclens.metrics.bootstrap.fmt_bound`: one decimal, more when one would show a non-zero value as 0.0).

    >>> f = ReadingFigure("rel. drop vs ref", 1.234, -3.0, 5.44, signed=True)
    >>> f.number, f.interval, str(f)
    ('+1.2', '[-3.0, +5.4]', 'rel. drop vs ref +1.2 [-3.0, +5.4]')
    """

    label: str
    value: float
    low: float
    high: float
    signed: bool = False
    #: the unit after the number (``"%"``: a planted share, percent of the questions; issue 54), and the band of
    #: "in line" in that unit (``None``: not shown)
    unit: str = ""
    band: float | None = None

    @property
    def number(self) -> str:
        return self._bound(self.value) + (f"{self.unit} of q." if self.unit else "")

    @property
    def interval(self) -> str:
        return f"[{self._bound(self.low)}, {self._bound(self.high)}]"

    def _bound(self, x: float) -> str:
        """A planted share in whole percent (``+23``; issue 54); any other figure by :func:`fmt_bound`."""
        if self.unit:
            text = f"{x:+.0f}" if self.signed else f"{x:.0f}"
            return text.replace("-0", "+0" if self.signed else "0") if text in ("-0",) else text
        return fmt_bound(x, self.signed)

    @property
    def text(self) -> str:
        """``+1.2 [-3.0, +5.4]``: the figure and its interval; a planted share ``+23% of q. [+5, +42], band ±5%``."""
        band = f", band ±{self.band:g}{self.unit}" if self.band is not None else ""
        return f"{self.number} {self.interval}{band}"

    def __str__(self) -> str:
        return f"{self.label} {self.text}"


#: The unit of a band of "in line" on the drops route: points of percent of the baseline score (a category's
#: ``reference_difference``, ``reference_band``).
POINTS = "points"
#: The unit of a band stated as a planted share (issue 54): percent of the questions planted with the shortcut.
PLANTED_SHARE = "% of the questions"


@dataclass(frozen=True)
class Band:
    """The band of "in line" of a reading's figure as every surface states it (the report's first screen, the
    terminal's data route, the dataset card; issue 57): half its width and the unit, that of the figure it bounds —
    :data:`POINTS` (the drops route), :data:`PLANTED_SHARE` (a data-route figure with its planted-share scale,
    issue 54) or ``""`` (a model-free figure's own unit, for files written before that scale).

    >>> str(Band(10.0, POINTS)), str(Band(10.0, PLANTED_SHARE)), str(Band(5.0, ""))
    ('±10 points', '±10% of the questions', '±5')
    """

    width: float
    unit: str

    def __str__(self) -> str:
        if self.unit == PLANTED_SHARE:
            return f"±{self.width:g}{self.unit}"
        return f"±{self.width:g}" + (f" {self.unit}" if self.unit else "")


def figure_band(f: Any) -> Band | None:
    """The band of "in line" of a model-free figure (a :class:`~mrclens.artifacts.results.ModelFreeFigure` or its
    ``results.json`` entry) as scoring read it (:func:`mrclens.scoring.model_free.judge_figure`): its ``band`` (points of
    the figure), else its ``margin`` (a figure without a band: files written before issue 41); in percent of the
    questions where the figure carries its planted-share scale (``per_planted_pct``, issue 54), to one decimal.
    ``None`` where neither is recorded. (Issue 57: the card printed the margin, ±0, where the report printed the
    band, ±10 % of the questions; every surface reads the band here.)

    >>> str(figure_band({"band": 2.82, "margin": 0.0, "per_planted_pct": 0.282}))
    '±10% of the questions'
    >>> str(figure_band({"band": None, "margin": 5.0})), figure_band({}) is None
    ('±5', True)
    """
    f = _entry(f)
    band = f.get("band") if _num(f.get("band")) else f.get("margin")
    if not _num(band):
        return None
    scale = f.get("per_planted_pct")
    if _num(scale) and scale > 0:
        return Band(round(band / scale, 1), PLANTED_SHARE)
    return Band(band, "")


def drops_scale(c: Any) -> float | None:
    """Points of relative drop per percent of the questions planted with the category's shortcut
    (``reference_per_planted_pct``, issue 54; :mod:`mrclens.scoring.drop_scale`), or ``None``: the results carry no
    such scale (a profile not calibrated, a file written before it) and the drops are stated in points."""
    scale = _entry(c).get("reference_per_planted_pct")
    return float(scale) if _num(scale) and scale > 0 else None


def drops_band(c: Any) -> Band | None:
    """The band of "in line" of a category's difference of drops from the reference (``reference_band``, points):
    in percent of the questions where the results carry the drop route's planted-share scale (:func:`drops_scale`,
    issue 54), else in points; ``None`` where the results hold none.

    >>> str(drops_band({"reference_band": 7.5, "reference_per_planted_pct": 0.75}))
    '±10% of the questions'
    >>> str(drops_band({"reference_band": 10.0}))
    '±10 points'
    """
    c = _entry(c)
    if not _num(c.get("reference_band")):
        return None
    scale = drops_scale(c)
    return Band(c["reference_band"], POINTS) if scale is None else Band(round(c["reference_band"] / scale, 1), PLANTED_SHARE)


def drops_reading_figure(c: Any) -> ReadingFigure:
    """A category's difference of drops from the reference as the one figure of its reading: in percent of the
    questions planted with the family's shortcut where the results carry the drop route's scale (issue 54:
    ``drops ≈ +4% of q. [-2, +10], band ±10%``: the reader's drops differ from the reference's as much as a
    shortcut in 4 % of the questions moves them), else in points of relative drop (:data:`REFERENCE_LABEL`).

    >>> str(drops_reading_figure({"reference_difference": 3.0, "reference_difference_ci_low": -1.5,
    ...     "reference_difference_ci_high": 7.5, "reference_band": 7.5, "reference_per_planted_pct": 0.75}))
    'drops ≈ +4% of q. [-2, +10], band ±10%'
    >>> str(drops_reading_figure({"reference_difference": 3.0, "reference_difference_ci_low": -1.5,
    ...     "reference_difference_ci_high": 7.5}))
    'rel. drop vs ref +3.0 [-1.5, +7.5]'
    """
    c = _entry(c)
    d, low, high = c["reference_difference"], c["reference_difference_ci_low"], c["reference_difference_ci_high"]
    scale = drops_scale(c)
    if scale is None:
        return ReadingFigure(REFERENCE_LABEL, d, low, high, signed=True)
    band = drops_band(c)
    return ReadingFigure(DROPS_PLANTED_LABEL, d / scale, low / scale, high / scale, signed=True, unit="%",
                         band=None if band is None else band.width)


def mde_text(c: Any) -> str | None:
    """A category's minimum detectable effect on the drop route (``reference_mde``) as the terminal prints it: in
    percent of the questions where the results carry the planted-share scale (``17%``), else points (``17``);
    ``None`` where none was computed."""
    c = _entry(c)
    if not _num(c.get("reference_mde")):
        return None
    scale = drops_scale(c)
    return f"{c['reference_mde']:.0f}" if scale is None else f"{c['reference_mde'] / scale:.0f}%"


#: a figure not named here shows its label, cut to fit.
MODEL_FREE_SHORT_LABELS = {
    "chance_corrected.shared_ngram_top": "shared n-gram top-1",
    "chance_corrected.keyword_window_top": "keyword window top-1",
    "chance_corrected.similarity_top": "most-similar top-1",
    "chance_corrected.keyword_top": "keyword top-1",
    "chance_corrected.similarity_rank": "similarity rank",
    "chance_corrected.keyword_rank": "keyword rank",
    "chance_corrected.position_rank": "position rank",
    "chance_corrected.set_apart_top": "set-apart top-1",
    "similarity.answer_in_most_similar_sentence_pct": "similar-sentence %",
    "overlap.longest_shared_ngram": "shared n-gram",
    "overlap.content_words_in_answer_sentence_pct": "keyword overlap %",
    "answer_position.first_sentence_pct": "first-sentence %",
    "heuristics.type_matched_sentence.exact_match": "type-match EM %",
}
#: The label of a model-free verdict figure's difference from the reference, as the one figure of a verdict the
#: data decided (:func:`reading_figure`).
MODEL_FREE_SUFFIX = " vs ref"


def _entry(x: Any) -> Mapping[str, Any]:
    """A ``results.json`` entry as a mapping (a dataclass of :mod:`mrclens.artifacts.results`, or already a dict)."""
    return asdict(x) if is_dataclass(x) and not isinstance(x, type) else x


def deciding_figure(c: Any, ablations: Sequence[Any], metric: str = "F1") -> ReadingFigure | None:
    """The figure that decides a category's absolute evidence level: that of its ablation whose level is the
    category's (:func:`mrclens.scoring.readings.deciding_position`), its excess drop over its control where it
    has one (that is what its level was read from), else its drop: ``e9 excess drop 15.0 [0.0, 35.0]``,
    ``e4 F1 drop 3.1 [1.0, 5.2]``. ``None`` when no ablation of the category was read.

    ``c``: the category's entry, ``ablations``: every ablation entry (dataclasses or ``results.json`` dicts)."""
    c = _entry(c)
    ids = set(c.get("evaluated") or c.get("ablations") or [])
    done = [a for a in map(_entry, ablations) if a.get("id") in ids and a.get("evaluated", True)
            and a.get("control_of") is None and a.get("evidence") in EVIDENCE_NAMES]
    if not done:
        return None
    a = done[deciding_position([a["evidence"] for a in done])]
    if _num(a.get("excess_drop")) and _num(a.get("excess_ci_low")) and _num(a.get("excess_ci_high")):
        return ReadingFigure(f"{a['id']} excess drop", a["excess_drop"], a["excess_ci_low"], a["excess_ci_high"])
    if _num(a.get("f1_drop")) and _num(a.get("ci_low")) and _num(a.get("ci_high")):
        return ReadingFigure(f"{a['id']} {metric} drop", a["f1_drop"], a["ci_low"], a["ci_high"])
    return None


def reading_figure(c: Any, ablations: Sequence[Any], metric: str = "F1",
                   model_free: Sequence[Any] = ()) -> ReadingFigure | None:
    """The ONE figure that represents a category's reading (issue 44), the same in the terminal summary, the
    report's first screen, the card and the ``--wide`` table:

    * read against a reference from its drops (``reference_basis`` ``"drops"`` or ``"drops and model-free"``):
      its difference from the reference (``reference_difference``) with its (family-wise) interval, signed
      towards the bias (:data:`REFERENCE_LABEL`);
    * "more" / "less" read from the data's figures alone (``reference_basis`` ``"model-free"``): the first deciding
      model-free figure's difference from the reference with its interval (:func:`deciding_model_free`; labelled
      with its short name and :data:`MODEL_FREE_SUFFIX`, in the figure's unit), when ``model_free`` holds it;
    * not compared with a reference: the figure its absolute level is decided by (:func:`deciding_figure`);
    * ``None`` otherwise (a reader too weak to compare shows its baseline score).
    """
    c = _entry(c)
    if c.get("reference_bias") in READING_NAMES:
        basis = str(c.get("reference_basis") or "drops")
        if "drops" in basis and all(_num(c.get(k)) for k in ("reference_difference", "reference_difference_ci_low",
                                                                "reference_difference_ci_high")):
            return drops_reading_figure(c)
        if basis == "model-free" and reading(c["reference_bias"]).towards:
            figs = deciding_model_free([_entry(f) for f in model_free], str(c.get("category")), c["reference_bias"])
            f = next((f for f in figs if all(_num(f.get(k)) for k in ("difference", "difference_ci_low",
                                                                      "difference_ci_high"))), None)
            if f is not None:
                return model_free_reading_figure(f)
        return None
    return deciding_figure(c, ablations, metric)


#: The label of a data-route figure stated as a planted share (issue 54): the data offers as much more of the
#: shortcut than the reference as a shortcut planted in N % of the questions would (the category names which).
PLANTED_LABEL = "shortcut ≈"


def model_free_reading_figure(f: Mapping[str, Any]) -> ReadingFigure:
    """A model-free verdict figure's difference from the reference as the one figure of a reading: in percent of
    the questions planted with its family's shortcut (``per_planted_pct``, issue 54: ``shortcut ≈ +3% of q.
    [-15, +21], band ±5%``), or in the figure's own unit for a file without that scale.

    >>> str(model_free_reading_figure({"path": "chance_corrected.position_rank", "difference": 2.0,
    ...     "difference_ci_low": -1.0, "difference_ci_high": 5.0, "per_planted_pct": 0.5, "band": 2.5}))
    'shortcut ≈ +4% of q. [-2, +10], band ±5%'
    """
    f = _entry(f)
    name = MODEL_FREE_SHORT_LABELS.get(str(f.get("path")), str(f.get("label") or f.get("path")))
    scale = f.get("per_planted_pct")
    if _num(scale) and scale > 0:
        band = figure_band(f)
        return ReadingFigure(PLANTED_LABEL, f["difference"] / scale, f["difference_ci_low"] / scale,
                             f["difference_ci_high"] / scale, signed=True, unit="%",
                             band=None if band is None else band.width)
    return ReadingFigure(name + MODEL_FREE_SUFFIX, f["difference"], f["difference_ci_low"], f["difference_ci_high"],
                         signed=True)


def verdict_figure(c: Any, ablations: Sequence[Any] = (), metric: str = "F1",
                   model_free: Sequence[Any] = ()) -> tuple[ReadingFigure | None, Band | None]:
    """The figure a category's verdict is stated by and the band of "in line" it is read against, in the same unit
    (issue 57: the dataset card states them as the report's first screen does):

    * against the reference from the drops: the one figure (:func:`reading_figure`, points of percent of the
      baseline score) and :func:`drops_band`;
    * against the reference from the data's own figures: the one figure, or where the reading has none (in line,
      inconclusive) the first compared verdict figure (:func:`deciding_model_free`) as :func:`model_free_reading_figure`
      states it (a planted share where the results carry its scale), and that figure's :func:`figure_band`;
    * not compared with a reference: the one figure (the deciding ablation's drop) and no band.

    ``(None, None)`` where no figure was read.
    """
    c, model_free = _entry(c), [_entry(f) for f in model_free]
    one = reading_figure(c, ablations, metric, model_free)
    if c.get("reference_bias") not in READING_NAMES:
        return one, None
    if one is not None and one.label in (REFERENCE_LABEL, DROPS_PLANTED_LABEL):
        return one, drops_band(c)
    figs = [f for f in deciding_model_free(model_free, str(c.get("category")), c["reference_bias"])
            if all(_num(f.get(k)) for k in ("difference", "difference_ci_low", "difference_ci_high"))]
    if not figs:
        return one, None
    return one or model_free_reading_figure(figs[0]), figure_band(figs[0])


#: What to do about a "more" / "less" from the drops alone that the data's context length may explain (issue 41).
SHAPE_ADVICE = ("Before acting on it, audit a part of your data whose contexts are as long as the reference's: "
                "the drops move with the number of sentences alone.")
#: The verdict of a category that was not compared with any reference (:data:`mrclens.verdicts.NOT_COMPARED`).
NOT_COMPARED = NOT_COMPARED_READING.name


def advice(category: str, verdict: str, reference: str | None, why: str | None = None, mde: Any = None,
           external: bool = False) -> str:
    """One short sentence: what a dataset builder does about ``verdict`` (a reading's name,
    :data:`mrclens.verdicts.READING_NAMES`, or :data:`NOT_COMPARED`) for ``category`` (for "more": the category's
    :attr:`~mrclens.categories.BiasCategory.advice_more`; otherwise the reading's
    :attr:`~mrclens.verdicts.Reading.advice`); ``reference`` names the reference in the sentence;
    for "inconclusive", ``why`` (:func:`inconclusive_why`: "weak", "cannot tell" or "opposite") and the
    minimum detectable effect ``mde`` (points) choose the sentence (:class:`mrclens.verdicts.Undecided`'s advice);
    ``external``: the model is an external model scored by ``mrclens evaluate`` (the advice names what
    ``evaluate`` can do: the records' ``advice_external``)."""
    if verdict == MORE.name:
        return get_category(category).advice_more
    if verdict == INCONCLUSIVE.name:
        said = undecided(why) if why in UNDECIDED_NAMES else WEAK_READER  # no reason given: the reader's
    else:
        said = reading(verdict) if verdict in (*READING_NAMES, NOT_COMPARED) else NOT_COMPARED_READING
    text = said.advice_external if external and said.advice_external else said.advice
    return str(text).format(ref=reference or "the reference", mde=_plain(mde) if _num(mde) else "of unknown size")


def _plain(x: float) -> str:
    return f"{x:.1f}"


def inconclusive_why(c: Mapping[str, Any]) -> str:
    """Why a category reads "inconclusive" against the reference, from its ``results.json`` entry:
    ``"weak"`` (the reader is too weak: no minimum detectable effect was computed from its drops),
    ``"opposite"`` (the drops read "more" while the data reads "less") or ``"cannot tell"`` (an interval
    reaches beyond its band; :mod:`mrclens.metrics.power`): its ``reference_why``, or for files written before
    issue 41, "weak"."""
    if c.get("reference_why") in UNDECIDED_NAMES:
        return str(c["reference_why"])
    if "drops" in str(c.get("reference_basis") or "drops") and not _num(c.get("reference_mde")) \
            and not _num(c.get("reference_difference")):
        return WEAK_READER.name
    if _num(c.get("reference_difference_ci_low")) and c["reference_difference_ci_low"] > 0:
        return OPPOSITE.name
    return CANNOT_TELL.name


def _num(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and not math.isnan(x)


def _signed(x: Any, decimals: int = 1) -> str:
    return f"{x:+.{decimals}f}" if _num(x) else "–"


def _signed_ci(low: Any, high: Any, decimals: int = 1) -> str:
    return f"[{_signed(low, decimals)}, {_signed(high, decimals)}]" if _num(low) and _num(high) else ""


def _decimals(label: str) -> int:
    """Two decimals for figures in words (n-gram lengths), one for percentages."""
    return 2 if "(words)" in label else 1


def _ci_unsigned(low: Any, high: Any) -> str:
    return f"[{fmt_bound(low)}, {fmt_bound(high)}]" if _num(low) and _num(high) else ""


def model_free_figure_line(f: Mapping[str, Any]) -> dict[str, str]:
    """A model-free figure as the glance shows it: ``{"label", "value", "ci", "detail"}``.

    ``value``/``ci`` are the difference to the reference with its CI: in the figure's unit, or for a figure with its
    planted-share scale in percent of the questions, labelled as :func:`model_free_reading_figure` labels it (its
    difference in points and its full label go to the detail); ``detail`` gives both datasets' values and the band
    of "in line" (:func:`figure_band`).
    """
    label = str(f.get("label") or f.get("path") or "")
    d = _decimals(label)
    value = f.get("value")
    ref_value = f.get("reference_value")
    detail = (f"{value:.{d}f} here, {ref_value:.{d}f} in {f.get('reference') or 'the reference'}"
              if _num(value) and _num(ref_value) else "")
    band = figure_band(f)
    scale = f.get("per_planted_pct")
    if _num(scale) and scale > 0 and all(_num(f.get(k)) for k in ("difference", "difference_ci_low",
                                                                   "difference_ci_high")):
        # issue 54: the unit users read, a planted share, as the one figure of a reading shows it (issue 57: the
        # card states the same difference and band)
        detail += (f"; difference {_signed(f.get('difference'), d)} "
                   f"{_signed_ci(f.get('difference_ci_low'), f.get('difference_ci_high'), d)} points")
        if band is not None:
            points = f["band"] if _num(f.get("band")) else f["margin"]
            detail += f"; 'in line' within {band} (±{points:.2f} points)"
        if _num(f.get("mde")):
            detail += f", sees {f['mde'] / scale:.0f}%"
        shown = model_free_reading_figure(f)
        name = MODEL_FREE_SHORT_LABELS.get(str(f.get("path")), label)  # the card reads in ten seconds
        return {"label": shown.label, "value": shown.number, "ci": shown.interval, "detail": f"{detail}; {name}"}
    if band is not None:
        detail += f"; 'in line' within {band}"
    if _num(f.get("mde")):
        detail += f", sees {f['mde']:.{d}f}"
    return {"label": label, "value": _signed(f.get("difference"), d),
            "ci": _signed_ci(f.get("difference_ci_low"), f.get("difference_ci_high"), d), "detail": detail}


def deciding_model_free(figures: Sequence[Mapping[str, Any]], category: str, verdict: str) -> list[Mapping[str, Any]]:
    """The category's model-free verdict figures that read on the verdict's side.

    "more" / "slightly more" / "less" / "slightly less": the figures whose comparison, read towards the bias
    (:func:`mrclens.verdicts.figure_reading`), is that reading; "in line" / "inconclusive": every compared verdict
    figure (what the data read); any other verdict: none.
    """
    mine = [f for f in figures if f.get("category") == category and f.get("comparison") is not None
            and f.get("role", "verdict") == "verdict"]  # descriptions (raw shares) never decide (issue 32)
    said = reading(verdict) if verdict in READING_NAMES else None
    if said is not None and said.towards:
        return [f for f in mine if figure_reading(f.get("comparison"), str(f.get("bias_when") or MORE.figure)) is said]
    if verdict == IN_LINE.name or verdict == INCONCLUSIVE.name:  # what the data route read, so the card shows why
        return mine
    return []


def _why(c: Mapping[str, Any], verdict: str, ref: str, basis: str, metric: str) -> str:
    if verdict == NOT_COMPARED:
        return "These results hold no comparison with a reference; only the absolute drops below."
    if verdict == INCONCLUSIVE.name:
        why = inconclusive_why(c)
        if why == WEAK_READER.name:
            return (f"The reader is too weak (baseline {metric} below {LOW_BASELINE_F1:.0f}) for its drops to be "
                    f"compared with {ref}'s.")
        if why == OPPOSITE.name:
            return f"Its ablations cost this reader more than on {ref}, while the data itself offers the shortcut less."
        if basis == "model-free":  # the drops could not read it in line at any size: the data's figure decided
            return "The data's own figure cannot tell: its interval reaches beyond the band of 'in line'."
        mde = c.get("reference_mde")
        scale = drops_scale(c)
        if _num(mde) and scale is not None:
            return (f"This audit cannot tell: it sees differences as large as a shortcut in {mde / scale:.0f} % of "
                    f"the questions or more (80 % power).")
        return (f"This audit cannot tell: it sees differences of {mde:.1f} points or more (80 % power)." if _num(mde)
                else "This audit cannot tell: an interval reaches beyond the band of 'in line'.")
    side = reading(verdict).side
    if basis == "drops and model-free":
        return f"Both its ablations and the data itself show this shortcut {side} {ref}."
    if basis == "model-free":
        return f"The data itself (no reader) offers this shortcut {side} {ref}."
    return _drops_why(c, verdict, ref)


def _drops_why(c: Mapping[str, Any], verdict: str, ref: str) -> str:
    """What the drops say, read the way the category's ablations signal the bias (issue 44): a ``large_drop``
    ablation shows more of the bias by costing *more*, a ``small_drop`` one (e3–e5, m1–m3) by costing *less*."""
    record = get_category(str(c.get("category") or ""))
    signals = {**record.mc_ablations, **record.ablations}
    ids = [a for a in (c.get("evaluated") or c.get("ablations") or []) if a in signals]
    small = [a for a in ids if signals[a].removes_information]
    large = [a for a in ids if not signals[a].removes_information]
    side = reading(verdict).side
    if small and not large:
        cost = reading(verdict).cost
        return f"Its ablations cost this reader {cost} on {ref}: small drops signal this bias."
    if small:
        return (f"Its drops, read towards the bias (larger for {', '.join(large)}, smaller for {', '.join(small)}), "
                f"show this shortcut {side} {ref}.")
    return f"Its ablations cost this reader {side} they cost the same reader profile on {ref}."


def category_glance(c: Any, model_free: Sequence[Any], *, metric: str = "F1",
                    confidence: float = CONFIDENCE, external: bool = False,
                    ablations: Sequence[Any] = ()) -> dict[str, Any]:
    """One category's line at a glance (module docstring) from its ``results.json`` entry.

    Args:
        c: the category's :class:`~mrclens.artifacts.results.CategoryResult` (or its ``categories[]`` entry
            of ``results.json`` as a dict).
        model_free: the results' :class:`~mrclens.artifacts.results.ModelFreeFigure` list (or the
            ``model_free`` list of ``results.json``; every category's figures).
        metric: ``"F1"``, or ``"accuracy"`` for multiple-choice results.
        confidence: the results' confidence level (e.g. 0.95): the CIs are named by it, a category's
            interval against the reference by its own ``reference_confidence`` (family-wise).
        ablations: the ``ablations`` list of ``results.json``: the category's reading figure without a
            reference, and the figure behind its absolute level, are those of its deciding ablation
            (:func:`deciding_figure`); without them, the category's mean drop stands in.

    Returns:
        ``{"category", "verdict" (a reading's name or NOT_COMPARED), "badge", "why",
        "figures": [{"label", "value", "ci", "detail"}], "figure" (the reading's one figure as
        :func:`reading_figure` gives it, label and all; ``""`` when none), "advice", "sensitivity",
        "reference"}``; every value is plain text (the template escapes it).
    """
    c, model_free = _entry(c), [_entry(f) for f in model_free]
    category = str(c.get("category") or "")
    ref = str(c.get("reference") or "the reference")
    verdict = c.get("reference_bias") if c.get("reference_bias") in READING_NAMES else NOT_COMPARED
    read = reading(verdict)
    basis = str(c.get("reference_basis") or "drops")
    figures: list[dict[str, str]] = []
    one = reading_figure(c, ablations, metric, model_free)
    deciding = deciding_figure(c, ablations, metric)
    if one is not None and verdict != NOT_COMPARED and basis == "model-free":  # the data decided: its figure
        f = next(f for f in deciding_model_free(model_free, category, verdict)  # the one reading_figure chose
                 if _num(f.get("difference")) and _num(f.get("difference_ci_low")) and _num(f.get("difference_ci_high")))
        line = model_free_figure_line(f)
        figures.append({**line, "label": one.label, "value": one.number, "ci": one.interval,
                        "detail": line["detail"] if line["label"] == one.label else f"{line['detail']}; {f.get('label')}"})
    elif one is not None and verdict != NOT_COMPARED:
        band = drops_band(c)  # the band every reading of the drops is read against (issue 57: stated for each)
        unit = (f"towards the bias, % of baseline {metric}" if drops_scale(c) is None else
                f"towards the bias, {fmt_bound(c['reference_difference'], True)} points")
        figures.append({"label": one.label, "value": one.number, "ci": one.interval,
                        "detail": f"{unit}; ablations' mean, {family_ci_label(c.get('reference_confidence'), confidence)}"
                                  + (f"; band {band}" if band is not None else "")})
    if "model-free" in basis and not (figures and (read in (IN_LINE, INCONCLUSIVE) or basis == "model-free")):
        figures += [model_free_figure_line(f) for f in deciding_model_free(model_free, category, verdict)]
    if not figures and deciding is not None:  # inconclusive or not compared: the deciding ablation's figure
        figures.append({"label": deciding.label, "value": deciding.number, "ci": deciding.interval,
                        "detail": f"not compared with a reference; {confidence_label(confidence)}, the ablation whose "
                                  f"level is the category's"})
    elif not figures and _num(c.get("f1_drop")):  # no ablation entries given: the category's mean drop
        figures.append({"label": f"{metric} drop (not compared)", "value": fmt_bound(c["f1_drop"]),
                        "ci": _ci_unsigned(c.get("ci_low"), c.get("ci_high")), "detail": confidence_label(confidence)})
    level = evidence_level(c["evidence"]).phrase if c.get("evidence") in EVIDENCE_NAMES else "not rated"
    if deciding is not None:
        sensitivity = f"how sensitive this reader is: {level} ({deciding})"
    elif _num(c.get("f1_drop")):
        ci = _ci_unsigned(c.get("ci_low"), c.get("ci_high"))
        sensitivity = f"how sensitive this reader is: {level} ({metric} drop {fmt_bound(c['f1_drop'])}{' ' + ci if ci else ''})"
    else:
        sensitivity = f"how sensitive this reader is: {level}"
    # a "more" / "less" from the drops alone on data of another length (issue 41); every reading of such data
    # names its shape (issue 54: data route included)
    shape_explains = bool(c.get("reference_shape")) and read.differs and basis == "drops"
    return {
        "category": category,
        "verdict": verdict,
        "badge": f"{read.than} {ref}" if verdict != NOT_COMPARED else f"{read.than} a reference",
        "why": _why(c, verdict, ref, basis, metric) + (
            f" The shape may explain it: {c['reference_shape']}, and the drops are not standardised by sentence "
            f"count (the data's own figures are)." if shape_explains else
            f" Shape: {c['reference_shape']}; the data's own figures are weighted to its sentence counts."
            if c.get("reference_shape") else ""),
        "figures": figures,
        "figure": "" if one is None else str(one),
        "advice": SHAPE_ADVICE if shape_explains else
        advice(category, verdict, c.get("reference"), inconclusive_why(c) if read is INCONCLUSIVE else None,
               c.get("reference_mde"), external),
        "sensitivity": sensitivity,
        "reference": c.get("reference"),
        "basis": basis if read.decided else None,
    }
