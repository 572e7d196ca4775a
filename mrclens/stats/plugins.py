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

from mrclens.errors import MRCLensError
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
_loaded = False


def registered_figures() -> list[Figure]:
    """The plug-in figures of the installed packages (loaded once), by name.

    Raises:
        MRCLensError: a plug-in cannot be imported or names something that is not a :class:`Figure`.
    """
    global _loaded
    if not _loaded:
        load_plugin_figures()
        _loaded = True
    return [_FIGURES[k] for k in sorted(_FIGURES)]


def load_plugin_figures() -> list[str]:
    """(Re)read the entry-point group ``mrclens_figures``; return the names registered."""
    from mrclens.plugins import FIGURES_GROUP, load_entry_points

    names: list[str] = []

    def add(ep_name: str, obj: object) -> None:
        for fig in obj if isinstance(obj, (list, tuple)) else [obj]:
            if not isinstance(fig, Figure) or not fig.name.isidentifier() or not fig.keys:
                raise MRCLensError(f"plug-in {ep_name!r} ({FIGURES_GROUP}): expected an mrclens.stats.plugins.Figure "
                                   f"with a name (letters, digits, _) and keys, got {obj!r}")
            _FIGURES[fig.name] = fig
            names.append(fig.name)

    load_entry_points(FIGURES_GROUP, add)
    return names


def compute_figures(dataset: Dataset, figures: Iterable[Figure] | None = None) -> dict[str, dict[str, float | None]]:
    """Every plug-in figure of ``dataset``: ``{name: {key: value}}`` (default: :func:`registered_figures`).

    Raises:
        MRCLensError: a figure returned other keys than it declares, or a value that is not a finite
            number or ``None`` (the message names the plug-in).
    """
    out = {}
    for fig in registered_figures() if figures is None else figures:
        values = dict(fig.compute(dataset))
        if set(values) != set(fig.keys):
            raise MRCLensError(f"plug-in figure {fig.name!r} returned keys {sorted(values)}, not the ones it declares "
                               f"{sorted(fig.keys)}")
        for key, v in values.items():
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v)):
                raise MRCLensError(f"plug-in figure {fig.name!r}: {key} is {v!r}, not a finite number or null")
        out[fig.name] = {key: values[key] for key in fig.keys}
    return out


def is_plugin_metric(path: str) -> bool:
    """Whether ``path`` is ``plugins.<name>.<key>`` of a registered figure and one of its keys."""
    section, _, rest = path.partition(".")
    name, _, key = rest.partition(".")
    fig = {f.name: f for f in registered_figures()}.get(name) if section == SECTION else None
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
