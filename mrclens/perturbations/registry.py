"""The one registry of MRCLens ablations (e1–e10), filled in one place.

Each ablation is one module under :mod:`mrclens.perturbations.ablations` that defines a
pure function and registers it with :func:`register`; the modules there are discovered
automatically when this registry is first imported, so adding a ninth ablation is one new
module (its unit plus its ``register(...)`` call) and no edit anywhere else. Ablations of other
packages join the same registry through the entry-point group ``mrclens_ablations``
(:func:`load_plugin_ablations`, :mod:`mrclens.plugins`).

Source: Zhong, Wang & Xing, "MRCLens: an MRC Dataset Bias Detection Toolkit",
DataPerf@ICML 2022 (the eight ablations and their bias categories); the exact rules are
the project's (issue 3), written out in each ablation's docstring. e9 (Position bias: Ko et al.,
"Look at the First Sentence: Position Bias in Question Answering", EMNLP 2020) and e10 (a
decoy statement, after Jia & Liang 2017's AddSent) are issue 17's.

The signature of every ``apply`` function (see :mod:`mrclens.perturbations.base`)::

    apply(example: mrclens.squad.Paragraph, parsed: ExampleParse, rng: random.Random)
        -> tuple[mrclens.squad.Paragraph, dict[str, Change]]   # question id -> change record

where a change record is ``{"changed": bool, "reason": str | None, "detail": dict}``.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import types
from dataclasses import FrozenInstanceError, dataclass
from typing import Callable, Iterable, Mapping

from mrclens import categories
from mrclens.artifacts.ablation import AblationMeta
from mrclens.plugins import PluginSource, broken, broken_in, describe

#: Category names, in report order (the paper's three bias categories, then Position: Ko et al. 2020);
#: each category's record is in :mod:`mrclens.categories`.
CATEGORY_NAMES = categories.CATEGORY_NAMES
#: The evaluation sets an ablation may use.
EVAL_SETS = ("full", "truncated")
#: The names of the directions of F1 drop that signal a bias (:data:`mrclens.categories.DIRECTIONS`;
#: ``"control"``: a matched control, which signals nothing itself).
BIAS_SIGNALS = tuple(categories.DIRECTIONS)

#: The unperturbed set each ablation's F1 is compared with, by evaluation set
#: (the file names written by :func:`mrclens.perturbations.perturb_dataset`, without ``.json``).
BASELINE_SET = {"full": "original", "truncated": "original-truncated"}


@dataclass(kw_only=True, unsafe_hash=True)
class Ablation(AblationMeta):
    """One ablation: its metadata (:class:`~mrclens.artifacts.ablation.AblationMeta`) and its pure function.

    Read-only once made, like every registry entry: assigning a field raises
    :class:`dataclasses.FrozenInstanceError`. The fields of its own are keyword-only.

    Attributes:
        id, name, category, eval_set, bias_signal, description: the metadata
            (:class:`~mrclens.artifacts.ablation.AblationMeta`). ``id`` is ``"e1"`` … ``"e10"`` (a new
            one takes the next number); ``eval_set`` ``"full"`` (every question) or ``"truncated"``
            (one question per paragraph, see :func:`mrclens.perturbations.truncation.truncate_dataset`);
            ``bias_signal`` ``"small_drop"`` for ablations that remove information (e3–e5: a small
            drop means the model did not need it), ``"large_drop"`` for ablations that add
            distracting text (e1, e2, e6–e8: a large drop means the model is steered by lexical
            overlap), ``"control"`` for a matched control.
        baseline_set: the unperturbed set its F1 is compared with; by default the one of its
            ``eval_set`` (:data:`BASELINE_SET`).
        apply: the pure function (signature in the module docstring).
        control_of: for a matched control (:mod:`mrclens.perturbations.controls`), the id of the
            ablation it controls (``"c1"`` controls ``"e1"``); ``None`` for an ablation.
        prepare: ``None``, or a function that builds, once per run, what ``apply`` needs from the
            whole set: ``prepare(dataset, context_parses, question_parses, seed, cache_dir) ->
            object``; the driver puts the object in ``ExampleParse.resources[id]`` for this
            ablation and for its control (e10 collects its decoy answers this way).
        no_answer_rule: one line: what the ablation does to an unanswerable (SQuAD v2.0) question,
            which has no answer sentence (written to the manifest; ``""`` when not stated).
        other_direction: one sentence: what the drop means when it goes the way that does *not*
            signal the bias (a large drop after removing information, a drop near 0 after an
            insertion; issue 17, "both directions read"); the reading appends it when the evidence
            is ``"none"`` (:func:`mrclens.scoring.readings.read_ablation`). ``""`` when not stated.
        other_direction_category: the bias category that such a drop is evidence *for*, when it is
            another category's (e3: a large drop after shuffling sentences points to Position); the
            reading of that category cites it (:func:`mrclens.scoring.readings.read_category`).
    """

    baseline_set: str = ""
    apply: Callable
    control_of: str | None = None
    prepare: Callable | None = None
    no_answer_rule: str = ""
    other_direction: str = ""
    other_direction_category: str | None = None

    def __post_init__(self) -> None:
        if not self.baseline_set:
            object.__setattr__(self, "baseline_set", BASELINE_SET.get(self.eval_set, ""))
        object.__setattr__(self, "_sealed", True)

    def __setattr__(self, name: str, value: object) -> None:
        if getattr(self, "_sealed", False):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")


#: Every registered ablation, ordered by number (e1, c1, e2, …, e10, c10); the one source of each
#: category's span ablations (:attr:`mrclens.categories.BiasCategory.ablations`).
ABLATIONS: dict[str, Ablation] = {}
#: Where each plug-in ablation comes from (ablation id -> its entry point and distribution), for messages.
PLUGIN_SOURCES: dict[str, PluginSource] = {}
#: The ids MRCLens itself registers (:func:`_discover`); every other ablation is someone else's code.
_BUILT_IN: frozenset[str] = frozenset()
#: What a plug-in ablation's id may be: it names its set file (``<id>.json``) and is asked for in lower case.
_PLUGIN_ID = re.compile(r"[a-z][a-z0-9_-]*")


def _order(ablation_id: str) -> tuple[int, int, str]:
    from mrclens.artifacts.manifest import ablation_order

    return ablation_order(ablation_id)


def register(ablation: Ablation) -> Ablation:
    """Add ``ablation`` to :data:`ABLATIONS` (kept ordered by number; its category's record lists it from then on).

    Returns:
        the same ablation, so a module can write ``E1 = register(Ablation(...))``.

    Raises:
        ValueError: the id is taken by a different ablation, or ``eval_set`` / ``bias_signal``
            is not one of the allowed values.
    """
    if ablation.eval_set not in EVAL_SETS:
        raise ValueError(f"ablation {ablation.id}: eval_set must be one of {EVAL_SETS}, got {ablation.eval_set!r}")
    if ablation.bias_signal not in BIAS_SIGNALS:
        raise ValueError(f"ablation {ablation.id}: bias_signal must be one of {BIAS_SIGNALS}, got {ablation.bias_signal!r}")
    if categories.direction(ablation.bias_signal).signals != (ablation.control_of is None):
        raise ValueError(f"ablation {ablation.id}: a control has bias_signal 'control' and names the ablation it controls")
    old = ABLATIONS.get(ablation.id)
    if old is not None and old != ablation:
        raise ValueError(f"ablation id {ablation.id!r} is already registered ({old.name!r})")
    items = dict(ABLATIONS)
    items[ablation.id] = ablation
    ABLATIONS.clear()
    ABLATIONS.update(sorted(items.items(), key=lambda kv: _order(kv[0])))
    return ablation


def resolve_ids(ids: Iterable[str] | str | None, registry: Mapping[str, Ablation], what: str = "",
                group: str | None = None) -> list[str]:
    """Ablation ids of ``registry`` to run, in registry order (``None`` → all), each ablation's matched
    control included (``e1`` → ``e1, c1``: its drop is read against the control's). One rule for the
    span registry (:data:`ABLATIONS`) and the multiple-choice one (``what="multiple-choice "``).

    Args:
        ids: ids like ``["e1", "e3"]`` or a comma-separated string ``"e1,e3"`` (case and spaces ignored).
        group: the entry-point group whose plug-ins fill ``registry`` (:mod:`mrclens.plugins`), if any: an
            unknown id that names one of its plug-ins that could not be loaded gets that plug-in's error.

    Raises:
        PluginError: an id names a plug-in of ``group`` that could not be loaded (the message names it,
            its distribution and the error).
        MRCLensError: an id is unknown, or none is given (the message lists the known ids, and the
            plug-ins of ``group`` that could not be loaded).
    """
    from mrclens.errors import MRCLensError

    if ids is None:
        return list(registry)
    if isinstance(ids, str):
        ids = ids.split(",")
    wanted = [a.strip().lower() for a in ids if a.strip()]
    unknown = [a for a in wanted if a not in registry]
    if unknown:
        failed = broken_in(group) if group else []
        for err in (broken(group, a) for a in unknown if group):
            if err is not None:
                raise err
        not_loaded = "".join(f"; not loaded: {err}" for err in failed)
        raise MRCLensError(f"unknown {what}ablation(s) {', '.join(unknown)}; known: {', '.join(registry)}{not_loaded}")
    if not wanted:
        raise MRCLensError(f"no {what}ablation given; known: {', '.join(registry)}")
    wanted += [c.id for c in registry.values() if c.control_of in wanted]
    return [a for a in registry if a in wanted]


def load_plugin_ablations() -> list[str]:
    """Register the ablations that installed packages declare under the entry-point group
    ``mrclens_ablations`` (:mod:`mrclens.plugins`); called once at the end of the import of
    :mod:`mrclens.perturbations` (so a plug-in may ``from mrclens.perturbations import Ablation``), and
    again by anyone who installs a plug-in into a running process. An entry point names an
    :class:`Ablation`, a list of them, or a module that registers its own. Each one's source (entry
    point, distribution) is kept in :data:`PLUGIN_SOURCES` for the messages about it.

    A plug-in that cannot be imported, or names something that is not an ablation (or an ablation
    with an id that is not lower-case letters, digits, ``-`` and ``_``, an id a different ablation
    holds, a field of the wrong type), is left out with a warning given once (:mod:`mrclens.plugins`);
    :func:`resolve_ids` raises its :class:`~mrclens.errors.PluginError` when it is asked for.

    Returns:
        the ids registered by the plug-ins, in registry order.
    """
    from mrclens.errors import PluginMsg
    from mrclens.plugins import ABLATIONS_GROUP, load_entry_points

    before = set(ABLATIONS)

    def add(source: PluginSource, obj: object) -> None:
        if isinstance(obj, types.ModuleType):  # a module: it registered its ablations when imported
            new = [a for a in ABLATIONS if a not in before and a not in PLUGIN_SOURCES]
            problems = [f"ablation {a!r}: {p}" for a in new if (p := _plugin_problem(ABLATIONS[a], set(new)))]
            if problems:
                for a in new:
                    del ABLATIONS[a]
                raise source.unusable(problems[0])
            PLUGIN_SOURCES.update({a: source for a in new})
            return
        items = list(obj) if isinstance(obj, (list, tuple)) else [obj]
        for item in items:
            if not isinstance(item, Ablation):
                raise source.unusable(PluginMsg.NOT_ABLATION.format(got=type(item).__name__))
            problem = _plugin_problem(item, {a.id for a in items})
            if problem:
                raise source.unusable(f"ablation {item.id!r}: {problem}")
        for item in items:
            try:
                register(item)
            except ValueError as err:
                raise source.unusable(str(err)) from None
            PLUGIN_SOURCES[item.id] = source

    load_entry_points(ABLATIONS_GROUP, add)
    return [a for a in ABLATIONS if a not in before]


def _plugin_problem(ablation: Ablation, siblings: set[str]) -> str:
    """What is wrong with the fields of a plug-in's ablation (``""``: nothing); ``siblings``: the ids it comes with."""
    if not isinstance(ablation.id, str) or not _PLUGIN_ID.fullmatch(ablation.id) or ablation.id in BASELINE_SET.values():
        return f"its id {ablation.id!r} is not lower-case letters, digits, '-' and '_' (nor a set's name)"
    for name in ("name", "category", "description", "no_answer_rule", "other_direction"):
        if not isinstance(getattr(ablation, name), str):
            return f"its {name} is {describe(getattr(ablation, name))}, not a string"
    if not callable(ablation.apply):
        return f"its apply is {describe(ablation.apply)}, not a function"
    if ablation.prepare is not None and not callable(ablation.prepare):
        return f"its prepare is {describe(ablation.prepare)}, not a function or None"
    if ablation.control_of is not None and ablation.control_of not in set(ABLATIONS) | siblings:
        return f"it is a control of {ablation.control_of!r}, which is not registered"
    return ""


def plugin_source(ablation_id: str) -> PluginSource | None:
    """Where ablation ``ablation_id`` comes from when it is not one of MRCLens's own: its entry point and
    distribution (:data:`PLUGIN_SOURCES`), or, for one registered in the running process, its ``apply``
    function; ``None`` for a built-in ablation (e1–e10, the controls)."""
    if ablation_id in PLUGIN_SOURCES:
        return PLUGIN_SOURCES[ablation_id]
    if ablation_id in _BUILT_IN:
        return None
    return PluginSource.of_function(ablation_id, ABLATIONS[ablation_id].apply)


def _discover() -> None:
    """Import every module under :mod:`mrclens.perturbations.ablations` (each registers itself). The
    plug-ins' ablations follow when :mod:`mrclens.perturbations` has finished importing
    (:func:`load_plugin_ablations`), so that a plug-in may import its names."""
    from mrclens.perturbations import ablations as package

    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{package.__name__}.{info.name}")


_discover()
_BUILT_IN = frozenset(ABLATIONS)
categories.read_ablations_from("span", ABLATIONS)
