"""The bias categories: one typed record per category, read by every stage (MRCLens issue 43).

A bias category names a shortcut a reader can take instead of reading (Zhong, Wang & Xing 2022,
Table 1: Similarity, Question, Keyword; Ko et al. 2020: Position). Everything MRCLens knows of a
category lives in its :class:`BiasCategory` record here, and the stages read it from here:

* its colour, the same on every surface (:func:`colour_of`: the charts, the report's verdict cards and
  forest plot, ``compare``, the selftest's curve), a plug-in's category included;
* the ablations that probe it, each with the :class:`Direction` of F1 drop that signals the bias: read
  from the ablation registries, where each ablation declares its ``category`` and ``bias_signal`` (the one
  source of membership; :mod:`mrclens.perturbations.registry` and :mod:`mrclens.multiple_choice.ablations`
  hand their registries over with :func:`read_ablations_from`);
* its model-free figures (:mod:`mrclens.scoring.model_free`: a figure's category is read from here);
* how a reading names a large drop of its ablations (:mod:`mrclens.scoring.readings`);
* one plain-language line that defines it, and what to do about it (:mod:`mrclens.reports.glance`,
  :mod:`mrclens.reports.summary`, the dataset card);
* the plantings that ``mrclens selftest`` plants to prove it is read (:mod:`mrclens.selftest.plantings`).

The direction of a test (CheckList's ``Expect``: the expectation as an object that judges) is a
:class:`Direction` here too: :data:`LARGE_DROP`, :data:`SMALL_DROP` and :data:`CONTROL`, looked up by the
name that ``results.json`` and the manifests keep (``bias_signal``, :func:`direction`). It says which way of
a drop is the bias (:meth:`Direction.toward_bias`), what the comparison calls the bias side
(:attr:`Direction.bias_when`); no stage compares
``bias_signal`` with a name of its own (``tests/test_categories.py``).

Adding a category is one record in :data:`CATEGORIES` (and the files DEVELOPERS.md's recipe lists);
``tests/test_categories.py`` fails while any part of it is missing or disagrees with the ablations, the
figures or the plantings. A category an ablation plug-in brings (a name not in :data:`CATEGORIES`) is read
through :func:`get_category`, which builds its record from the generic wording and advice
(:func:`plugin_category`): the one place where an unknown category name gets defaults.

Examples:
    >>> [c.name for c in CATEGORIES.values()]
    ['Similarity', 'Question', 'Keyword', 'Position']
    >>> import mrclens.perturbations                # the span registry hands its ablations over
    >>> get_category("Position").colour, dict(get_category("Position").ablations)
    ('#CC79A7', {'e9': Direction('large_drop')})
    >>> get_category("Negation").advice          # a plug-in's category
    "see the report's examples"
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping, Protocol


@dataclass(frozen=True)
class Direction:
    """Which way an ablation's F1 drop signals the bias, as an object that judges (CheckList's ``Expect``,
    Ribeiro et al. 2020: the expectation of a test is a value, not a flag read in many places).

    Attributes:
        name: the name ``results.json`` and the manifests keep in ``bias_signal`` (``"large_drop"``).
        text: how the report names it (``"large drop"``).
        removes_information: ``True`` for an ablation that removes information (e3–e5, m1–m3): a reader
            that answers as well without it did not need it, so a **smaller** drop is the bias, and its
            matched control, where it has one, is a reference (c4: the information removed entirely).
            ``False`` for one that adds distracting text (e1, e2, e6–e10, m4–m6): a **larger** drop is the
            bias, read from the excess drop over its insertion control where one was scored.
        signals: ``False`` for a matched control, which signals nothing itself.

    Examples:
        >>> SMALL_DROP.toward_bias(-42.7), LARGE_DROP.bias_when, direction("small_drop") is SMALL_DROP
        (42.7, 'higher', True)
    """

    name: str
    text: str
    removes_information: bool
    signals: bool = True

    def __repr__(self) -> str:
        return f"Direction({self.name!r})"

    @property
    def sign(self) -> float:
        """``+1.0`` when a larger figure is more of the bias, ``-1.0`` when a smaller one is (a control: ``+1.0``)."""
        return -1.0 if self.removes_information else 1.0

    @property
    def bias_when(self) -> str | None:
        """Which figure is more of the bias, as ``compare`` and the model-free figures say it: ``"higher"``
        (a larger drop), ``"lower"`` (a smaller drop), ``None`` for a control."""
        if not self.signals:
            return None
        return "lower" if self.removes_information else "higher"

    @property
    def reads_excess(self) -> bool:
        """Whether the evidence is read from the excess drop over the matched control, where one was scored
        (an insertion: the control costs what inserting any text there costs)."""
        return self.signals and not self.removes_information

    def toward_bias(self, difference: float) -> float:
        """``difference`` (a drop, or this audit's drop minus the reference's) signed towards the bias: ``+`` is
        more of the bias (negated for a :data:`SMALL_DROP` ablation)."""
        return self.sign * difference

    def toward_bias_interval(self, difference: float, low: float, high: float) -> tuple[float, float, float]:
        """``(difference, low, high)`` signed towards the bias (:meth:`toward_bias`), the interval's ends kept
        in order (swapped when negated).

        >>> SMALL_DROP.toward_bias_interval(-42.7, -50.1, -35.3), LARGE_DROP.toward_bias_interval(30.2, 21.0, 39.4)
        ((42.7, 35.3, 50.1), (30.2, 21.0, 39.4))
        """
        if self.removes_information:
            return -difference, -high, -low
        return difference, low, high


#: An ablation that adds distracting text (e1, e2, e6–e10, m4–m6): a large drop signals the bias.
LARGE_DROP = Direction("large_drop", "large drop", removes_information=False)
#: An ablation that removes information (e3–e5, m1–m3): a small drop signals the bias.
SMALL_DROP = Direction("small_drop", "small drop", removes_information=True)
#: A matched control (c1 …, mc4 …): it signals nothing itself; its ablation's drop is read against it.
CONTROL = Direction("control", "matched control", removes_information=False, signals=False)
#: Every direction by the name ``bias_signal`` keeps (the registries accept these names).
DIRECTIONS: Mapping[str, Direction] = MappingProxyType({d.name: d for d in (SMALL_DROP, LARGE_DROP, CONTROL)})


def direction(name: str | Direction) -> Direction:
    """The :class:`Direction` called ``name`` (a ``bias_signal`` as ``results.json`` keeps it; a
    :class:`Direction` is returned as it is).

    >>> direction("large_drop").text
    'large drop'

    Raises:
        ValueError: ``name`` names no direction.
    """
    if isinstance(name, Direction):
        return name
    if name not in DIRECTIONS:
        raise ValueError(f"bias_signal must be one of {list(DIRECTIONS)}, got {name!r}")
    return DIRECTIONS[name]


def known_direction(name: str | None) -> Direction | None:
    """The :class:`Direction` called ``name``, or ``None`` for a name MRCLens does not know: the reports' tolerant
    look-up of a ``bias_signal`` read from a ``results.json`` that another version or a plug-in wrote (what is
    unknown is drawn and written plainly, never refused; :func:`direction` raises instead).

    >>> known_direction("small_drop").removes_information, known_direction("sideways")
    (True, None)
    """
    return DIRECTIONS.get(name)


@dataclass(frozen=True)
class DropWording:
    """How a reading names a large F1 drop of a category's ablation (:mod:`mrclens.scoring.readings`).

    Attributes:
        change: what the ablation changes (``"the inserted words"``).
        s: the verb ending after ``change`` (``""`` for a plural subject, ``"s"`` for a singular one).
        bias: what a large drop says of the reader (``"is steered by lexical overlap with the question"``).
        partly: the same, hedged for a drop the control explains in part.
        control: what the matched control changes.
        control_reading: how the control's own reading is worded (``{of}``: the ablation it controls), or
            ``None`` for the general wording.
    """

    change: str
    s: str
    bias: str
    partly: str
    control: str
    control_reading: str | None = None


#: The wording of the insertion ablations (e1, e2, e6–e8, e10): a large drop is lexical overlap.
INSERTION_WORDING = DropWording(
    change="the inserted words", s="", bias="is steered by lexical overlap with the question",
    partly="is partly steered by lexical overlap with the question",
    control="as many unrelated words at the same places")

#: The wording of moving the answer sentence (e9 and its control c9; Ko et al. 2020).
POSITION_WORDING = DropWording(
    change="moving the answer sentence", s="s", bias="relies on where the answer sits in the context",
    partly="partly relies on where the answer sits in the context",
    control="a sentence without the answer moved as far",
    control_reading="when a sentence that holds no answer is moved by {of}'s displacement. This is what "
                    "reordering the sentences costs; {of}'s excess drop over it is what moving the answer "
                    "sentence itself costs.")

#: What to do about a category a plug-in brings when it reads "more" (:func:`plugin_category`).
GENERIC_MORE_ADVICE = "Rewrite or re-sample the items that carry this cue, then audit again."
#: The short advice of a plug-in's category (:func:`plugin_category`).
GENERIC_ADVICE = "see the report's examples"
#: The colours of the categories plug-ins bring: the rest of the Okabe–Ito palette, one chosen by the
#: category's name (:func:`plugin_colour`), so that it is the same on every surface and in every run.
PLUGIN_COLOURS = ("#E69F00", "#56B4E9", "#F0E442", "#000000")


class _Registered(Protocol):
    """What the categories read of a registered ablation (:class:`mrclens.artifacts.ablation.AblationMeta`)."""

    id: str
    category: str
    bias_signal: str
    control_of: str | None


#: The ablation registries the records read their members from, by kind (``"span"``, ``"multiple_choice"``;
#: :func:`read_ablations_from`).
_REGISTRIES: dict[str, Mapping[str, _Registered]] = {}
#: Where each kind of registry lives (named when it is read before it is handed over).
_REGISTRY_HOMES = {"span": "mrclens.perturbations", "multiple_choice": "mrclens.multiple_choice.ablations"}


def read_ablations_from(kind: str, registry: Mapping[str, _Registered]) -> None:
    """Make ``registry`` (ablation id → ablation, in report order) the one source of the ``kind`` members of
    every category (:attr:`BiasCategory.ablations` for ``"span"``, :attr:`BiasCategory.mc_ablations` for
    ``"multiple_choice"``): each of its ablations (controls left out) belongs to the category it declares. The
    registry is read at each look-up, so an ablation registered later (a plug-in's) joins at once. Called by
    :mod:`mrclens.perturbations.registry` and :mod:`mrclens.multiple_choice.ablations` once their built-in
    ablations are registered.

    Raises:
        ValueError: ``kind`` is not ``"span"`` or ``"multiple_choice"``.
    """
    if kind not in _REGISTRY_HOMES:
        raise ValueError(f"kind must be one of {list(_REGISTRY_HOMES)}, got {kind!r}")
    _REGISTRIES[kind] = registry


def _members(category: str, kind: str) -> Mapping[str, Direction]:
    registry = _REGISTRIES.get(kind)
    if registry is None:
        raise LookupError(f"the {kind.replace('_', '-')} ablations are not registered yet: import "
                          f"{_REGISTRY_HOMES[kind]} before reading a category's ablations")
    return MappingProxyType({a.id: direction(a.bias_signal) for a in registry.values()
                             if a.category == category and a.control_of is None})


@dataclass(frozen=True)
class BiasCategory:
    """One bias category and everything the stages read of it.

    Attributes:
        name: the name written to files and shown (``"Similarity"``).
        colour: its colour on every surface (``#RRGGBB``; the Okabe–Ito colour-blind-safe palette; :func:`colour_of`).
        definition: one plain-language sentence that defines the shortcut (the dataset card, the report).
        shortcut: what a model that takes the shortcut learns to do, as words after "learn to" (the dataset
            card: :attr:`mrclens.verdicts.Reading.means`).
        source: the papers that describe the shortcut.
        figures: the stats paths of its model-free figures (:data:`mrclens.scoring.model_free.FIGURES`).
        wording: how a reading names a large drop of its ablations.
        advice: what to do, in a few words (the verdict at a glance, ``mrclens audit``'s last lines).
        advice_more: what to do when the data shows more of it than the reference, in one or two sentences
            (the report's verdict cards).
        plantings: the names of the shortcuts ``mrclens selftest`` plants for it (span and multiple choice).
        drop_per_planted_pct: ``(reader profile, points)`` pairs: how many points of relative drop a shortcut planted
            in 1 % of the questions adds to the category's difference of drops from the reference (issue 54; read by
            :func:`mrclens.scoring.drop_scale.drop_band`; BENCHMARKS.md, "The drop route as a planted share"); empty:
            not calibrated.
        drop_uncalibrated: why a built-in span category's drops have no such scale ("" where they have one); such
            drops are a description beside the data's own figure, not a verdict route
            (:func:`mrclens.scoring.against_reference.compare_with_reference`).

    Its ablations (:attr:`ablations`, :attr:`mc_ablations`) are not listed here: each ablation declares its
    category, and the record reads them from the registries (:func:`read_ablations_from`).
    """

    name: str
    colour: str
    definition: str
    shortcut: str
    source: str
    figures: tuple[str, ...]
    wording: DropWording
    advice: str
    advice_more: str
    plantings: tuple[str, ...]
    drop_per_planted_pct: tuple[tuple[str, float], ...] = ()
    drop_uncalibrated: str = ""

    @property
    def ablations(self) -> Mapping[str, Direction]:
        """Span ablation id → the :class:`Direction` of F1 drop that signals the bias, in report order (the
        registered ablations that declare this category; matched controls left out).

        Raises:
            LookupError: the span registry is not imported yet (:mod:`mrclens.perturbations`).
        """
        return _members(self.name, "span")

    @property
    def mc_ablations(self) -> Mapping[str, Direction]:
        """The same for the multiple-choice ablations (``m1`` …; empty when none probes it).

        Raises:
            LookupError: the multiple-choice registry is not imported yet (:mod:`mrclens.multiple_choice.ablations`).
        """
        return _members(self.name, "multiple_choice")

    @property
    def built_in(self) -> bool:
        """Whether MRCLens defines this category (a record of :data:`CATEGORIES`), not a plug-in."""
        return CATEGORIES.get(self.name) is self


#: The bias categories MRCLens defines, in report order.
CATEGORIES: Mapping[str, BiasCategory] = MappingProxyType({c.name: c for c in (
    BiasCategory(
        name="Similarity", colour="#0072B2",
        definition="The answer sits in the passage sentence most similar to the question, so matching the "
                   "question's wording finds it without reading.",
        shortcut="pick the passage sentence most similar to the question",
        source="Sugawara et al. 2018 (EMNLP); Jia & Liang 2017 (AddSent); Zhong, Wang & Xing 2022 (e1-e3)",
        figures=("chance_corrected.shared_ngram_top", "chance_corrected.similarity_top", "chance_corrected.similarity_rank",
                 "similarity.answer_in_most_similar_sentence_pct",
                 "overlap.longest_shared_ngram"),
        wording=INSERTION_WORDING,
        advice="paraphrase the questions",
        advice_more="Have annotators paraphrase rather than copy passage wording; add distractor sentences "
                    "repeating the question (like e1/e2) to the evaluation set.",
        plantings=("overlap",),
        drop_uncalibrated="a planted overlap shortcut does not move its drops (-0.3 points beside the clean "
                          "counterpart at 50 % of the questions: a reader that finds the answer by its overlap with "
                          "the question is not drawn further by e1's inserted question); the data's own figure reads "
                          "that shortcut"),
    BiasCategory(
        name="Question", colour="#D55E00",
        definition="Questions can be answered without reading them fully: the answer type the wh-word asks "
                   "for has a single candidate in the passage.",
        shortcut="answer from the question's wh-word alone",
        source="Weissenborn et al. 2017 (CoNLL); Sugawara et al. 2018; Zhong, Wang & Xing 2022 (e4, e5)",
        figures=("chance_corrected.set_apart_top", "heuristics.type_matched_sentence.exact_match"),
        wording=INSERTION_WORDING,
        advice="add same-type distractors",
        advice_more="Many questions are answerable without reading them fully: add questions whose answer "
                    "type has several candidates in the passage, and check that removing question words hurts.",
        plantings=("marked", "mc-length"),
        drop_per_planted_pct=(("quick", 0.626),)),
    BiasCategory(
        name="Keyword", colour="#009E73",
        definition="The question's keywords (its nouns, verbs and adjectives) sit next to the answer, so "
                   "spotting them finds it.",
        shortcut="answer next to the question's keywords",
        source="Zhong, Wang & Xing 2022 (e6-e8)",
        figures=("chance_corrected.keyword_window_top", "chance_corrected.keyword_top", "chance_corrected.keyword_rank",
                 "overlap.content_words_in_answer_sentence_pct"),
        wording=INSERTION_WORDING,
        advice="reword question keywords",
        advice_more="Answers are found by matching question words: paraphrase questions with synonyms and add "
                    "distractors that share the keywords but not the answer.",
        plantings=("keywords",),
        drop_uncalibrated="a planted keyword shortcut moves its drops by only +4.1 points beside the clean "
                          "counterpart at 50 % of the questions (0.08 per percent: a band of 10 % would be 0.8 points, "
                          "which no audit resolves); the data's own figure reads that shortcut"),
    BiasCategory(
        name="Position", colour="#CC79A7",
        definition="Answers sit at one place in the passage (often its first sentence), so a reader learns "
                   "where to look instead of what to read.",
        shortcut="look for the answer at one place in the passage",
        source="Ko et al. 2020, \"Look at the First Sentence\" (EMNLP)",
        figures=("chance_corrected.position_rank", "answer_position.first_sentence_pct"),
        wording=POSITION_WORDING,
        advice="spread answers over passages",
        advice_more="Answers cluster at one place in the passage: balance where answer sentences lie, or "
                    "sample questions across the whole passage.",
        plantings=("position",),
        drop_per_planted_pct=(("quick", 1.036),)),
)})

#: The names of :data:`CATEGORIES`, in report order.
CATEGORY_NAMES: tuple[str, ...] = tuple(CATEGORIES)


def plugin_category(name: str) -> BiasCategory:
    """The record of a category that an ablation plug-in brings (``name`` not in :data:`CATEGORIES`):
    the insertion wording, the generic advice, its colour (:func:`plugin_colour`), no figures and no
    plantings; its ablations are the registered ones that declare it.

    Raises:
        ValueError: ``name`` is a built-in category (read :data:`CATEGORIES` instead).
    """
    if name in CATEGORIES:
        raise ValueError(f"{name!r} is a built-in category")
    return BiasCategory(name=name, colour=plugin_colour(name),
                        definition=f"The shortcut a plug-in's ablations probe ({name}).",
                        shortcut=f"use the cue the {name} ablations probe", source="an ablation plug-in",
                        figures=(), wording=INSERTION_WORDING, advice=GENERIC_ADVICE,
                        advice_more=GENERIC_MORE_ADVICE, plantings=())


def plugin_colour(name: str) -> str:
    """The colour of a category a plug-in brings: one of :data:`PLUGIN_COLOURS`, chosen by the CRC-32 of its
    name (not Python's ``hash``, which is salted per process), so the same in every run and on every surface.

    >>> plugin_colour("Negation") in PLUGIN_COLOURS, plugin_colour("Negation") == plugin_colour("Negation")
    (True, True)
    """
    return PLUGIN_COLOURS[zlib.crc32(name.encode("utf-8")) % len(PLUGIN_COLOURS)]


def get_category(name: str) -> BiasCategory:
    """The record of the category called ``name``: its :data:`CATEGORIES` record, or for a category an
    ablation plug-in brings, :func:`plugin_category`."""
    return CATEGORIES[name] if name in CATEGORIES else plugin_category(name)


def colour_of(name: str) -> str:
    """The colour of the category called ``name`` on every surface (bars, verdict cards, forest headings, the
    selftest's curve): a built-in category's own (:attr:`BiasCategory.colour`), a plug-in's :func:`plugin_colour`.

    >>> colour_of("Similarity"), colour_of("Negation") == plugin_colour("Negation")
    ('#0072B2', True)
    """
    return get_category(name).colour


def figure_category(path: str) -> str:
    """The category whose model-free figures (:attr:`BiasCategory.figures`) hold the stats ``path``.

    >>> figure_category("chance_corrected.position_rank")
    'Position'

    Raises:
        KeyError: no category holds ``path``.
    """
    for category in CATEGORIES.values():
        if path in category.figures:
            return category.name
    raise KeyError(f"no bias category holds the model-free figure {path!r}")


def toward_bias(difference: float, low: float, high: float,
                bias_signal: str | Direction | None) -> tuple[float, float, float]:
    """An ablation's difference to the reference (this audit's relative drop minus the reference's, with its CI)
    signed **towards the bias**, as the category's mean and the forest plot read it: ``+`` is more of the bias
    than the reference (:meth:`Direction.toward_bias_interval` of ``bias_signal``'s direction: a ``small_drop``
    ablation (e3–e5, m1–m3) signals the bias by a *smaller* drop, so its difference is negated and its CI ends
    swapped). ``None`` (an entry with no direction, e.g. a category's): as it is.

    >>> toward_bias(-42.7, -50.1, -35.3, "small_drop"), toward_bias(30.2, 21.0, 39.4, "large_drop")
    ((42.7, 35.3, 50.1), (30.2, 21.0, 39.4))

    Raises:
        ValueError: ``bias_signal`` names no direction (:func:`direction`).
    """
    if bias_signal is None:
        return difference, low, high
    return direction(bias_signal).toward_bias_interval(difference, low, high)
