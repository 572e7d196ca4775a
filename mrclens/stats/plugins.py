"""Model-free figures added by plug-ins (entry-point group ``mrclens_figures``, :mod:`mrclens.plugins`).

A plug-in figure is a :class:`Figure`: a name, the keys it produces and a function of the span
dataset (:class:`mrclens.squad.Dataset`) that returns one number (or ``None``) per key. MRCLens
puts the results under ``plugins.<name>.<key>`` of ``mrclens stats --json`` (and the plain-text
summary), so a ``mrclens check`` rule may test ``plugins.answer_chars.mean``
(:func:`is_plugin_metric`, declared keys only), and records them for an audit's or evaluation's
original set in ``results.json`` (``sections.plugin_figures``, shown by the report). Without
plug-ins nothing changes: no ``plugins`` section is written.

Examples:
    >>> from mrclens.squad import Answer, Article, Dataset, Paragraph, Question
    >>> fig = Figure("answer_chars", ("mean",), lambda d: {"mean": 6.0}, "mean answer length (characters)")
    >>> compute_figures(Dataset([]), [fig])
    {'answer_chars': {'mean': 6.0}}
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

from mrclens.errors import PluginMsg
from mrclens.plugins import FIGURES_GROUP, PluginSource, broken, describe, error_text
from mrclens.squad import Dataset

#: The section of ``mrclens stats`` output (and the first component of a ``check`` metric) that holds them.
SECTION = "plugins"
#: The ``results.json`` ``sections`` key of the original set's plug-in figures.
RESULTS_SECTION = "plugin_figures"


@dataclass(frozen=True)
class Figure:
    """One plug-in figure.

    Attributes:
        name: its key under ``plugins`` (letters, digits, ``_``).
        keys: the numbers it produces (e.g. ``("mean", "n")``), each a checkable metric.
        compute: ``(dataset) -> {key: number or None}`` over a span :class:`~mrclens.squad.Dataset`.
        description: one line, with the unit (shown by ``stats`` and the report).
    """

    name: str
    keys: tuple[str, ...]
    compute: Callable[[Dataset], Mapping[str, float | None]]
    description: str = ""


_FIGURES: dict[str, Figure] = {}
#: Where each registered figure comes from (its name -> entry point and distribution), for messages.
_SOURCES: dict[str, PluginSource] = {}
_loaded = False


def registered_figures() -> list[Figure]:
    """The plug-in figures of the installed packages (loaded once), by name.

    A plug-in that cannot be imported, or names something that is not a :class:`Figure`, is left out
    with a warning (:mod:`mrclens.plugins`); nothing is raised for it here.
    """
    global _loaded
    if not _loaded:
        _loaded = True
        load_plugin_figures()
    return [_FIGURES[k] for k in sorted(_FIGURES)]


def load_plugin_figures() -> list[str]:
    """(Re)read the entry-point group ``mrclens_figures``; return the names registered.

    A plug-in that cannot be imported or names something other than a :class:`Figure` (or a list of
    them) with a name of letters, digits and ``_``, string keys, a function and a string description
    is left out with a warning given once (:func:`mrclens.plugins.load_entry_points`); a ``check`` rule
    on it raises its :class:`~mrclens.errors.PluginError` (:func:`is_plugin_metric`).
    """
    from mrclens.plugins import load_entry_points

    names: list[str] = []

    def add(source: PluginSource, obj: object) -> None:
        figures = list(obj) if isinstance(obj, (list, tuple)) else [obj]
        for fig in figures:
            if not _well_formed(fig):
                raise source.unusable(PluginMsg.NOT_FIGURE.format(got=describe(fig)))
        for fig in figures:
            _FIGURES[fig.name] = fig
            _SOURCES[fig.name] = source
            names.append(fig.name)

    load_entry_points(FIGURES_GROUP, add)
    return names


def _well_formed(fig: object) -> bool:
    return (isinstance(fig, Figure) and isinstance(fig.name, str) and fig.name.isidentifier()
            and isinstance(fig.keys, (tuple, list)) and bool(fig.keys) and all(isinstance(k, str) and k for k in fig.keys)
            and callable(fig.compute) and isinstance(fig.description, str))


def figure_source(fig: Figure) -> PluginSource:
    """Where ``fig`` comes from: its entry point and distribution, or (a figure registered in the running
    process or passed to :func:`compute_figures`) its ``compute`` function."""
    source = _SOURCES.get(fig.name)
    if source is not None and _FIGURES.get(fig.name) is fig:
        return source
    return PluginSource.of_function(fig.name, fig.compute)


def compute_figures(dataset: Dataset, figures: Iterable[Figure] | None = None) -> dict[str, dict[str, float | None]]:
    """Every plug-in figure of ``dataset``: ``{name: {key: value}}`` (default: :func:`registered_figures`).

    Raises:
        PluginError: a figure raised, returned something other than a mapping, returned other keys than
            it declares, or a value that is not a finite number or ``None`` (the message names the
            plug-in, its distribution and what it raised or returned; exit code 2).
    """
    out = {}
    for fig in registered_figures() if figures is None else figures:
        source = figure_source(fig)
        try:
            values = fig.compute(dataset)
        except Exception as err:  # noqa: BLE001 - whatever a third-party function raises is its fault
            raise source.fault(PluginMsg.FIGURE_RAISED.format(name=fig.name, error=error_text(err)), err) from err
        keys = ", ".join(fig.keys)
        if not isinstance(values, Mapping):
            raise source.fault(PluginMsg.FIGURE_NOT_MAPPING.format(name=fig.name, got=describe(values), keys=keys))
        if set(values) != set(fig.keys):
            raise source.fault(PluginMsg.FIGURE_KEYS.format(name=fig.name, got=sorted(map(str, values)),
                                                            keys=sorted(fig.keys)))
        for key, v in values.items():
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v)):
                raise source.fault(PluginMsg.FIGURE_VALUE.format(name=fig.name, key=key, got=repr(v)))
        out[fig.name] = {key: values[key] for key in fig.keys}
    return out


def is_plugin_metric(path: str) -> bool:
    """Whether ``path`` is ``plugins.<name>.<key>`` of a registered figure and one of its keys.

    Raises:
        PluginError: ``<name>`` is a figure plug-in that could not be loaded (a ``check`` rule asks for it;
            the message names it, its distribution and the error).
    """
    section, _, rest = path.partition(".")
    name, _, key = rest.partition(".")
    fig = {f.name: f for f in registered_figures()}.get(name) if section == SECTION else None
    if fig is None and section == SECTION:
        err = broken(FIGURES_GROUP, name)
        if err is not None:
            raise err
    return fig is not None and key in fig.keys


def format_plugin_figures(figures: Mapping[str, Mapping[str, float | None]]) -> str:
    """The plain-text lines of ``mrclens stats`` for the plug-in figures (``""`` without any)."""
    if not figures:
        return ""
    described = {f.name: f.description for f in registered_figures()}
    lines = ["Plug-in figures"]
    for name, values in figures.items():
        shown = ", ".join(f"{k} {'n/a' if v is None else f'{v:,.2f}'}" for k, v in values.items())
        lines.append(f"  {name}: {shown}" + (f"  ({described[name]})" if described.get(name) else ""))
    return "\n".join(lines)
