"""The verdict's words: one typed record per reading, per reason for an undecided one, per evidence level (issue 53).

Beside :mod:`mrclens.categories`, this is the home of everything a surface says about a verdict, so that
the terminal summary, the report, the card and the readings in ``results.json`` name a reading with the
same words, and a change of wording is one edit here:

* :class:`Reading`: a reading of a difference against a reference (``reference_bias`` in ``results.json``;
  :func:`mrclens.metrics.power.read_interval`): ``"more"``, ``"slightly more"`` (real, but inside the band),
  ``"in line"``, ``"slightly less"``, ``"less"``, ``"inconclusive"``,
  and :data:`NOT_COMPARED` for a category no reference was read against. Each holds its "than" phrase (the
  badge: ``more than SQuAD v1.1``), the words of the verdict's sentence, how a model-free figure's
  comparison names it (``"higher"``), the colour of its mark in the forest plot and what to do about it.
* :class:`Undecided`: why a reading is ``"inconclusive"`` (``reference_why``): the reader is too weak, the
  audit cannot tell within its bands, or the routes point opposite ways; each with its words and what to do.
* :class:`Basis`: what decided a reading (``reference_basis``): the drops, the data's own figures, or both.
* :class:`EvidenceLevel`: the absolute evidence levels of :mod:`mrclens.scoring.readings` (how far this
  reader's score falls), weakest first, with the word each surface shows for it.

The names stay the strings ``results.json`` holds; code compares a name with a record's :attr:`Reading.name`
(or compares records, ``reading(bias) is MORE``), never with a literal. ``tests/test_verdicts.py`` fails on a
table of these names anywhere else in :mod:`mrclens` and on a record with a missing part.

Examples:
    >>> [r.name for r in READINGS]
    ['more', 'slightly more', 'in line', 'slightly less', 'less', 'inconclusive']
    >>> reading("in line").than, reading("more").colour, reading("less").figure
    ('in line with', '#b42318', 'lower')
    >>> evidence_level("none").phrase, evidence_level("none").badge, evidence_level("none").word
    ('no sign', 'no sign of bias', 'no sign')
    >>> evidence_level("moderate").rank > evidence_level("weak").rank, undecided("opposite").short_advice
    (True, "read the report's examples")
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any


class Family(tuple):
    """Named records in the order a user reads them (a tuple of the records), with :attr:`names` in the same
    order and :meth:`of`, the record of a name.

    >>> f = Family("basis", Basis("drops", "drops"), Basis("model-free", "model-free figures"))
    >>> f.names, f.of("model-free").words, len(f)
    (('drops', 'model-free'), 'model-free figures', 2)
    """

    def __new__(cls, kind: str, *records: Any) -> "Family":
        family = super().__new__(cls, records)
        family.kind = kind
        family.names = tuple(r.name for r in records)
        family.by_name = MappingProxyType({r.name: r for r in records})
        return family

    def of(self, name: str) -> Any:
        """The record named ``name``.

        Raises:
            KeyError: no record of this family has that name (the message names the family and its names).
        """
        if name not in self.by_name:
            raise KeyError(f"no {self.kind} named {name!r} (known: {', '.join(self.names)})")
        return self.by_name[name]


@dataclass(frozen=True)
class Reading:
    """One reading of a difference against a reference, and every word the surfaces say of it.

    Attributes:
        name: the reading as ``results.json`` holds it (``reference_bias``): ``"more"`` …
        than: the phrase before the reference's name (``"more than"``, ``"in line with"``,
            ``"inconclusive against"``): the badge of the glance and the report, the card's verdict.
        colour: the colour of its mark in the forest plot (:mod:`mrclens.reports.forest`).
        side: how much of the shortcut it says the data shows, before the reference's name (``"more than"``,
            ``"about as much as"``); ``None`` for a reading that says no side.
        cost: what the drops cost when a small drop signals the bias (the other side: ``"less than"`` for
            "more"); ``None`` as :attr:`side`.
        sentence: the verdict's words in a category's reading (``"more of this bias than the reference"``);
            ``None`` where the reading builds its own (inconclusive: :class:`Undecided`).
        figure: how a model-free figure's comparison names it (``"higher"``: the difference is signed as the
            figure, not towards the bias); ``None`` for no comparison.
        advice: what to do about it (``{ref}``: the reference's name); ``None`` where another record says it
            ("more": the category's :attr:`~mrclens.categories.BiasCategory.advice_more`; inconclusive: the
            :class:`Undecided` reason's).
        advice_external: the same for an external model's evaluation (``mrclens evaluate``), where it differs.
        means: what it means for someone who trains on or evaluates with the data, in one sentence (the dataset
            card; ``{shortcut}``: the category's :attr:`~mrclens.categories.BiasCategory.shortcut`, ``{ref}``: the
            reference's name).
        users_advice: what such a user does about it, in one sentence (the card's Recommendations; ``{ref}``).
    """

    name: str
    than: str
    colour: str
    side: str | None = None
    cost: str | None = None
    sentence: str | None = None
    figure: str | None = None
    advice: str | None = None
    advice_external: str | None = None
    means: str = ""
    users_advice: str = ""

    @property
    def differs(self) -> bool:
        """"more" or "less": the reading says the data differs from the reference."""
        return self is MORE or self is LESS

    @property
    def within_band(self) -> bool:
        """"in line", "slightly more" or "slightly less": the whole interval lies inside the band."""
        return self is IN_LINE or self is SLIGHTLY_MORE or self is SLIGHTLY_LESS

    @property
    def towards(self) -> int:
        """``+1`` for "more" and "slightly more", ``-1`` for "less" and "slightly less", else 0."""
        return 1 if self is MORE or self is SLIGHTLY_MORE else -1 if self is LESS or self is SLIGHTLY_LESS else 0

    @property
    def decided(self) -> bool:
        """"more", "in line" or "less": the reading says where the data stands."""
        return self.side is not None


#: More of the shortcut than the reference (red).
MORE = Reading("more", "more than", "#b42318", side="more than", cost="less than",
               sentence="more of this bias than the reference", figure="higher",
               means="A model trained on this data may learn to {shortcut} more often than one trained on {ref}, and "
                     "a high score on it may owe more to that shortcut.",
               users_advice="Do not read a high score on this data as reading ability alone: evaluate models also "
                            "where this shortcut does not pay (for example on the perturbed sets of `mrclens perturb`).")
#: Inside the equivalence band around the reference (dark grey).
IN_LINE = Reading("in line", "in line with", "#3d4a57", side="about as much as", cost="about as much as",
                  sentence="in line with the reference", figure="in line",
                  advice="No more than the reference: treat it as you treat {ref}'s known shortcuts.",
                  means="A model trained on this data may learn to {shortcut} about as often as one trained on {ref}.",
                  users_advice="Treat it as you treat {ref}'s known shortcuts.")
#: More of the shortcut than the reference, but the whole interval inside the band: a real difference smaller than
#: the category's smallest effect of interest (issue 54: no fix-it advice; light red).
SLIGHTLY_MORE = Reading("slightly more", "slightly more than", "#e8a29a", side="slightly more than",
                        cost="slightly less than",
                        sentence="slightly more of this bias than the reference, within the band",
                        figure="slightly higher",
                        advice="Within the band: a difference smaller than the effect that matters; treat it as you "
                               "treat {ref}'s known shortcuts.",
                        means="A model trained on this data may learn to {shortcut} slightly more often than one "
                              "trained on {ref}: a real difference, smaller than the band that matters.",
                        users_advice="Treat it as you treat {ref}'s known shortcuts.")
#: Less of the shortcut than the reference, the whole interval inside the band (light green).
SLIGHTLY_LESS = Reading("slightly less", "slightly less than", "#8cc79a", side="slightly less than",
                        cost="slightly more than",
                        sentence="slightly less of this bias than the reference, within the band",
                        figure="slightly lower",
                        advice="Within the band: slightly less of this shortcut than {ref}; nothing to fix.",
                        means="A model trained on this data may learn to {shortcut} slightly less often than one "
                              "trained on {ref}.",
                        users_advice="Treat it as you treat {ref}'s known shortcuts; this data carries slightly less "
                                     "of it.")
#: Less of the shortcut than the reference (green).
LESS = Reading("less", "less than", "#1a7f37", side="less than", cost="more than",
               sentence="less of this bias than the reference", figure="lower",
               advice="Nothing to fix here: the data carries less of this shortcut than {ref}.",
               means="A model trained on this data is less likely to learn to {shortcut} than one trained on {ref}.",
               users_advice="Nothing to do about this shortcut: the data carries less of it than {ref}.")
#: Neither: the audit could not tell (light grey); why: :class:`Undecided`.
INCONCLUSIVE = Reading("inconclusive", "inconclusive against", "#9aa4ad", figure="inconclusive",
                       means="This audit cannot say whether a model trained on this data learns to {shortcut} more or "
                             "less often than one trained on {ref}.",
                       users_advice="Until a larger audit settles it, assume the data may carry as much of this shortcut "
                                    "as {ref}, or more.")
#: A category no reference was read against (no ``reference_bias``).
NOT_COMPARED = Reading(
    "not compared", "not compared with", "#3d4a57",
    advice="Audit with a reference (the bundled SQuAD v1.1 one, or --reference) and a reader profile it has, "
           "to get a verdict to act on.",
    advice_external="Evaluate the model on the reference's sets too (`mrclens perturb --reference`, then `mrclens "
                    "evaluate … --reference-sets DIR --reference-predictions-dir DIR`) to get a verdict to act on.",
    means="Without a reference, this audit does not say whether a model trained on this data learns to {shortcut} more "
          "often than one trained on other data.",
    users_advice="Audit the data against a reference to learn how much of this shortcut it carries.")

#: The readings of a difference against a reference (the values of ``reference_bias``), in the order a user acts on them.
READINGS = Family("reading", MORE, SLIGHTLY_MORE, IN_LINE, SLIGHTLY_LESS, LESS, INCONCLUSIVE)
#: Their names, in the same order.
READING_NAMES: tuple[str, ...] = READINGS.names


def reading(name: str | None) -> Reading:
    """The record of a reading by its name; ``None`` (no reference) is :data:`NOT_COMPARED`.

    Raises:
        KeyError: no reading has that name.
    """
    return NOT_COMPARED if name is None or name == NOT_COMPARED.name else READINGS.of(name)


def figure_reading(comparison: str | None, bias_when: str = "higher") -> Reading:
    """A model-free figure's ``comparison`` (signed as the figure: ``"higher"``, ``"slightly lower"`` …,
    :attr:`Reading.figure`) as a reading towards the bias, where ``bias_when`` is the comparison that offers the
    shortcut (``"higher"`` or ``"lower"``); :data:`INCONCLUSIVE` for an unknown one, :data:`NOT_COMPARED` for ``None``.

    >>> figure_reading("slightly higher").name, figure_reading("higher", bias_when="lower").name
    ('slightly more', 'less')
    """
    if comparison is None:
        return NOT_COMPARED
    for r in READINGS:
        if comparison == r.figure:
            if bias_when == MORE.figure or not r.towards:
                return r
            return {MORE: LESS, LESS: MORE, SLIGHTLY_MORE: SLIGHTLY_LESS, SLIGHTLY_LESS: SLIGHTLY_MORE}[r]
    return INCONCLUSIVE


def differs(name: str | None) -> bool:
    """Whether ``name`` is a reading that says the data differs from the reference ("more" or "less"); ``False`` for
    anything else (``None``, another reading, an evidence level where a verdict falls back to it).

    >>> differs("less"), differs("in line"), differs("strong"), differs(None)
    (True, False, False, False)
    """
    return name in READINGS.by_name and READINGS.by_name[name].differs


@dataclass(frozen=True)
class Undecided:
    """Why a reading is "inconclusive" (``reference_why`` in ``results.json``), and what to do about it.

    Attributes:
        name: the reason as ``results.json`` holds it (``"weak"``, ``"cannot tell"``, ``"opposite"``).
        verdict: the reason in a category's reading (``Verdict against …: inconclusive (<verdict>)``;
            ``{reader}``: how the reading names the model).
        says: the reason in the card's verdict (``inconclusive: <says>``).
        advice: what to do (the glance, the card); advice_external: the same for ``mrclens evaluate``, where
            it differs.
        short_advice: the terminal summary's few words; ``None`` where the summary names them by the model's
            kind (a weak reader).
    """

    name: str
    verdict: str
    says: str
    advice: str
    advice_external: str | None = None
    short_advice: str | None = None


#: The reader is too weak for its drops to be compared.
WEAK_READER = Undecided(
    "weak", "{reader} is too weak", "the reader is too weak to compare",
    advice="Train a stronger reader (a longer --profile, or --model with your own predictions) and audit again; "
           "this reader learned too little to compare.",
    advice_external="Try a stronger model and evaluate again; this model learned too little to compare.")
#: An interval reaches beyond its band (:mod:`mrclens.metrics.power`).
CANNOT_TELL = Undecided(
    "cannot tell", "the audit cannot tell within its bands", "this audit cannot tell",
    advice="Audit more questions, or with a longer --profile, to see a smaller difference.",
    advice_external="Evaluate on more questions (the data's sets and the reference's) to see a smaller difference.",
    short_advice="audit more questions")
#: The drops read "more" while the data reads "less".
OPPOSITE = Undecided(
    "opposite", "the drops and the data point opposite ways", "the drops and the data point opposite ways",
    advice="Read the examples: the ablations and the data point opposite ways.",
    short_advice="read the report's examples")

#: The data's figure cannot read "in line" with any number of questions: clean data of other articles spreads wider
#: than its band (issue 54: never advise what cannot help).
OUT_OF_REACH = Undecided(
    "out of reach", "no number of questions can read it in line: clean SQuAD articles differ by more than the band",
    "clean data spreads wider than the band",
    advice="Adding questions will not settle it: clean SQuAD articles differ from each other by more than this "
           "band. Read the interval as how much of the shortcut the data may carry; an audit's drops (`mrclens audit`) "
           "can still read it in line.",
    advice_external="Evaluating on more questions will not settle it: clean SQuAD articles differ from each other by "
                    "more than this band. Read the interval as how much of the shortcut the data may carry.",
    short_advice="read the interval")
#: The drops of this reader profile cannot read "in line" with any number of questions: the reference's own
#: training runs and clean counterparts spread wider than the band (issue 54: never advise what cannot help;
#: :func:`mrclens.scoring.against_reference.drops_in_line_reachable`).
PROFILE_OUT_OF_REACH = Undecided(
    "profile out of reach", "no number of questions can read this reader's drops in line",
    "this reader profile's reference spreads wider than the band",
    advice="Adding questions will not settle it: with this reader profile, the reference's training runs and clean "
           "counterparts alone spread wider than the band. Read the interval as how much of the shortcut the data "
           "may carry; the reading names a reader profile whose reference could read it in line, where one can.",
    advice_external="Evaluating on more questions will not settle it: the reference's own runs spread wider than the "
                    "band. Read the interval as how much of the shortcut the data may carry.",
    short_advice="read the interval")
#: Drops that are a description, not a verdict route (no planted-share scale: their own family's planting does not
#: move them, :data:`mrclens.scoring.drop_scale.UNCALIBRATED`), read beyond their band while the data's figures read
#: within theirs: they cannot say "more" or "less" of this shortcut, and "in line" is not claimed against them
#: (issue 54).
UNEXPLAINED = Undecided(
    "unexplained drops", "the drops differ beyond their band in a way this family's shortcut does not produce",
    "the drops differ in a way this family's shortcut does not explain",
    advice="Read the examples: this category's drops differ from the reference's beyond their band, but a shortcut "
           "of this family planted in the data does not move them, so they do not name the shortcut; the data's own "
           "figures show none beyond their band.",
    short_advice="read the report's examples")
#: The data's verdict figures lie inside their bands, but a description of the category (a figure shown, never
#: deciding "more" or "less") lies wholly beyond its band: "in line" is not claimed, and more questions would only
#: narrow both intervals where they are (issue 54: never advise what cannot help).
DESCRIPTION_APART = Undecided(
    "description apart", "a description of the data lies beyond its band while the verdict figures lie inside theirs",
    "a description of the data differs beyond its band",
    advice="Adding questions will not settle it: the verdict figures lie inside their bands, but a description of the "
           "data lies wholly beyond its band. Read the report's figures and examples to see which of them the "
           "shortcut would move.",
    short_advice="read the report's examples")
#: The reasons for an "inconclusive" reading.
UNDECIDED = Family("reason for an inconclusive reading", WEAK_READER, CANNOT_TELL, OPPOSITE, OUT_OF_REACH,
                   PROFILE_OUT_OF_REACH, UNEXPLAINED, DESCRIPTION_APART)
UNDECIDED_NAMES: tuple[str, ...] = UNDECIDED.names
#: The record of a reason by its name (:meth:`Family.of`: ``KeyError`` for another name).
undecided = UNDECIDED.of


@dataclass(frozen=True)
class Basis:
    """What decided a reading against the reference (``reference_basis`` in ``results.json``): the drops of the
    category's ablations, the data's own (model-free) figures, or both.

    Attributes:
        name: the basis as ``results.json`` holds it (``"drops"``, ``"model-free"``, ``"drops and model-free"``).
        words: what the card calls it (``decided by the <words>``).
    """

    name: str
    words: str


DROPS = Basis("drops", "drops")
MODEL_FREE = Basis("model-free", "model-free figures")
DROPS_AND_MODEL_FREE = Basis("drops and model-free", "drops and model-free figures")
#: The bases of a reading against the reference.
BASES = Family("basis", DROPS, MODEL_FREE, DROPS_AND_MODEL_FREE)
BASIS_NAMES: tuple[str, ...] = BASES.names
#: The record of a basis by its name (:meth:`Family.of`: ``KeyError`` for another name).
basis = BASES.of


@dataclass(frozen=True)
class EvidenceLevel:
    """An absolute evidence level (:mod:`mrclens.scoring.readings`: how far this reader's score falls under a
    category's ablations), and its words on each surface.

    Attributes:
        name: the level as ``results.json`` holds it (``evidence``): ``"strong"`` …
        rank: its place, weakest first (0: inconclusive).
        word: the terminal summary's verdict column (``"strong"``, ``"no sign"``).
        phrase: the glance's sensitivity line (``"strong evidence"``, ``"no sign"``).
        badge: the report's badge (``"strong evidence"``, ``"no sign of bias"``).
        reading: the level in a category's reading (``"no sign of this bias"``; ``{reader}``: how the reading
            names the model).
        shows_bias: the level counts as showing the bias where no reference was read (strong, moderate).
    """

    name: str
    rank: int
    word: str
    phrase: str
    badge: str
    reading: str
    shows_bias: bool = False


#: The reader is too weak for a small drop to mean anything.
INCONCLUSIVE_LEVEL = EvidenceLevel("inconclusive", 0, "inconclusive", "inconclusive (weak baseline)",
                                   "inconclusive (weak baseline)",
                                   "inconclusive, because {reader} is too weak for its drops to mean much")
NO_SIGN = EvidenceLevel("none", 1, "no sign", "no sign", "no sign of bias", "no sign of this bias")
WEAK = EvidenceLevel("weak", 2, "weak", "weak evidence", "weak evidence", "weak evidence of this bias")
MODERATE = EvidenceLevel("moderate", 3, "moderate", "moderate evidence", "moderate evidence",
                         "moderate evidence of this bias", shows_bias=True)
STRONG = EvidenceLevel("strong", 4, "strong", "strong evidence", "strong evidence",
                       "strong evidence that the model exploits this bias", shows_bias=True)

#: The evidence levels, weakest first.
EVIDENCE_LEVELS = Family("evidence level", INCONCLUSIVE_LEVEL, NO_SIGN, WEAK, MODERATE, STRONG)
#: Their names, in the same order.
EVIDENCE_NAMES: tuple[str, ...] = EVIDENCE_LEVELS.names
#: The record of an evidence level by its name (:meth:`Family.of`: ``KeyError`` for another name).
evidence_level = EVIDENCE_LEVELS.of
