"""The bias categories: one typed record per category, read by every stage (MRCLens issue 43).

A bias category names a shortcut a reader can take instead of reading (Zhong, Wang & Xing 2022,
Table 1: Similarity, Question, Keyword; Ko et al. 2020: Position). Everything MRCLens knows of a
category lives in its :class:`BiasCategory` record here, and the stages read it from here:

* its order in reports and its colour (:mod:`mrclens.reports.charts`, the report, ``compare``);
* the ablations that probe it and the direction of F1 drop that signals the bias
  (:mod:`mrclens.perturbations.registry`, :mod:`mrclens.multiple_choice.ablations`: each ablation
  still declares its own category, and ``tests/test_categories.py`` holds both sides equal);
* its model-free figures (:mod:`mrclens.scoring.model_free`: a figure's category is read from here);
* how a reading names a large drop of its ablations (:mod:`mrclens.scoring.readings`);
* one plain-language line that defines it, and what to do about it (:mod:`mrclens.reports.glance`,
  :mod:`mrclens.reports.summary`, the dataset card);
* the plantings that ``mrclens selftest`` plants to prove it is read (:mod:`mrclens.selftest.plantings`).

Adding a category is one record in :data:`CATEGORIES`; ``tests/test_categories.py`` fails while any
part of it is missing or disagrees with the registry, the figures or the plantings. A category an
ablation plug-in brings (a name not in :data:`CATEGORIES`) is read through :func:`get_category`, which
builds its record from the generic wording and advice (:func:`plugin_category`): the one place where
an unknown category name gets defaults.

Examples:
    >>> [c.name for c in CATEGORIES.values()]
    ['Similarity', 'Question', 'Keyword', 'Position']
    >>> get_category("Position").colour, dict(get_category("Position").ablations)
    ('#CC79A7', {'e9': 'large_drop'})
    >>> get_category("Negation").advice          # a plug-in's category
    "see the report's examples"
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping


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
#: The colour of a plug-in's category where no palette colour is left (:func:`plugin_category`).
GENERIC_COLOUR = "#555555"


@dataclass(frozen=True)
class BiasCategory:
    """One bias category and everything the stages read of it.

    Attributes:
        name: the name written to files and shown (``"Similarity"``).
        order: its place in reports (0 first).
        colour: its colour in charts (``#RRGGBB``; the Okabe–Ito colour-blind-safe palette).
        definition: one plain-language sentence that defines the shortcut (the dataset card, the report).
        source: the papers that describe the shortcut.
        ablations: span ablation id → the direction of F1 drop that signals the bias (``"large_drop"``: the
            reader leans on what the ablation disturbs; ``"small_drop"``: it does not need what the
            ablation removes); matched controls are not listed.
        mc_ablations: the same for the multiple-choice ablations (``m1`` …; empty when none probes it).
        figures: the stats paths of its model-free figures (:data:`mrclens.scoring.model_free.FIGURES`).
        wording: how a reading names a large drop of its ablations.
        advice: what to do, in a few words (the verdict at a glance, ``mrclens audit``'s last lines).
        advice_more: what to do when the data shows more of it than the reference, in one or two sentences
            (the report's verdict cards).
        plantings: the names of the shortcuts ``mrclens selftest`` plants for it (span and multiple choice).
    """

    name: str
    order: int
    colour: str
    definition: str
    source: str
    ablations: Mapping[str, str]
    figures: tuple[str, ...]
    wording: DropWording
    advice: str
    advice_more: str
    plantings: tuple[str, ...]
    mc_ablations: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "ablations", MappingProxyType(dict(self.ablations)))
        object.__setattr__(self, "mc_ablations", MappingProxyType(dict(self.mc_ablations)))

    @property
    def built_in(self) -> bool:
        """Whether MRCLens defines this category (a record of :data:`CATEGORIES`), not a plug-in."""
        return CATEGORIES.get(self.name) is self


#: The bias categories MRCLens defines, in report order.
CATEGORIES: Mapping[str, BiasCategory] = MappingProxyType({c.name: c for c in (
    BiasCategory(
        name="Similarity", order=0, colour="#0072B2",
        definition="The answer sits in the passage sentence most similar to the question, so matching the "
                   "question's wording finds it without reading.",
        source="Sugawara et al. 2018 (EMNLP); Jia & Liang 2017 (AddSent); Zhong, Wang & Xing 2022 (e1-e3)",
        ablations={"e1": "large_drop", "e2": "large_drop", "e3": "small_drop", "e10": "large_drop"},
        figures=("chance_corrected.similarity_top", "chance_corrected.similarity_rank",
                 "similarity.answer_in_most_similar_sentence_pct",
                 "overlap.longest_shared_ngram"),
        wording=INSERTION_WORDING,
        advice="paraphrase the questions",
        advice_more="Have annotators paraphrase rather than copy passage wording; add distractor sentences "
                    "repeating the question (like e1/e2) to the evaluation set.",
        plantings=("overlap",)),
    BiasCategory(
        name="Question", order=1, colour="#D55E00",
        definition="Questions can be answered without reading them fully: the answer type the wh-word asks "
                   "for has a single candidate in the passage.",
        source="Weissenborn et al. 2017 (CoNLL); Sugawara et al. 2018; Zhong, Wang & Xing 2022 (e4, e5)",
        ablations={"e4": "small_drop", "e5": "small_drop"},
        mc_ablations={"m1": "small_drop", "m2": "small_drop", "m3": "small_drop"},
        figures=("heuristics.type_matched_sentence.exact_match",),
        wording=INSERTION_WORDING,
        advice="add same-type distractors",
        advice_more="Many questions are answerable without reading them fully: add questions whose answer "
                    "type has several candidates in the passage, and check that removing question words hurts.",
        plantings=("marked", "mc-length")),
    BiasCategory(
        name="Keyword", order=2, colour="#009E73",
        definition="The question's keywords (its nouns, verbs and adjectives) sit next to the answer, so "
                   "spotting them finds it.",
        source="Zhong, Wang & Xing 2022 (e6-e8)",
        ablations={"e6": "large_drop", "e7": "large_drop", "e8": "large_drop"},
        mc_ablations={"m4": "large_drop", "m5": "large_drop", "m6": "large_drop"},
        figures=("chance_corrected.keyword_top", "chance_corrected.keyword_rank",
                 "overlap.content_words_in_answer_sentence_pct"),
        wording=INSERTION_WORDING,
        advice="reword question keywords",
        advice_more="Answers are found by matching question words: paraphrase questions with synonyms and add "
                    "distractors that share the keywords but not the answer.",
        plantings=("keywords",)),
    BiasCategory(
        name="Position", order=3, colour="#CC79A7",
        definition="Answers sit at one place in the passage (often its first sentence), so a reader learns "
                   "where to look instead of what to read.",
        source="Ko et al. 2020, \"Look at the First Sentence\" (EMNLP)",
        ablations={"e9": "large_drop"},
        figures=("chance_corrected.position_rank", "answer_position.first_sentence_pct"),
        wording=POSITION_WORDING,
        advice="spread answers over passages",
        advice_more="Answers cluster at one place in the passage: balance where answer sentences lie, or "
                    "sample questions across the whole passage.",
        plantings=("position",)),
)})

#: The names of :data:`CATEGORIES`, in report order.
CATEGORY_NAMES: tuple[str, ...] = tuple(CATEGORIES)


def plugin_category(name: str, order: int | None = None) -> BiasCategory:
    """The record of a category that an ablation plug-in brings (``name`` not in :data:`CATEGORIES`):
    the insertion wording, the generic advice and colour, no figures and no plantings, ordered after
    the built-in categories.

    Raises:
        ValueError: ``name`` is a built-in category (read :data:`CATEGORIES` instead).
    """
    if name in CATEGORIES:
        raise ValueError(f"{name!r} is a built-in category")
    return BiasCategory(name=name, order=len(CATEGORIES) if order is None else order, colour=GENERIC_COLOUR,
                        definition=f"The shortcut a plug-in's ablations probe ({name}).", source="an ablation plug-in",
                        ablations={}, figures=(), wording=INSERTION_WORDING, advice=GENERIC_ADVICE,
                        advice_more=GENERIC_MORE_ADVICE, plantings=())


def get_category(name: str) -> BiasCategory:
    """The record of the category called ``name``: its :data:`CATEGORIES` record, or for a category an
    ablation plug-in brings, :func:`plugin_category`."""
    return CATEGORIES[name] if name in CATEGORIES else plugin_category(name)


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


def toward_bias(difference: float, low: float, high: float, bias_signal: str | None) -> tuple[float, float, float]:
    """An ablation's difference to the reference (this audit's relative drop minus the reference's, with its CI)
    signed **towards the bias**, as the category's mean and the forest plot read it: ``+`` is more of the bias
    than the reference. A ``small_drop`` ablation (e3–e5, m1–m3) signals the bias by a *smaller* drop, so
    its difference is negated (and its CI ends swapped); any other is as it is.

    >>> toward_bias(-42.7, -50.1, -35.3, "small_drop"), toward_bias(30.2, 21.0, 39.4, "large_drop")
    ((42.7, 35.3, 50.1), (30.2, 21.0, 39.4))
    """
    if bias_signal == "small_drop":
        return -difference, -high, -low
    return difference, low, high
