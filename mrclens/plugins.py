"""Plug-ins: ablations and model-free figures that other packages add through Python entry points.

As spaCy's registries read the entry points of installed packages (``catalogue``, group
``spacy_factories`` …), MRCLens reads two groups, each filling the one registry that holds its
built-in components:

* :data:`ABLATIONS_GROUP` (``mrclens_ablations``): each entry point names a
  :class:`mrclens.perturbations.registry.Ablation` (or a list of them, or a module that registers
  its own); :mod:`mrclens.perturbations.registry` registers them after the built-in e1–e10, so
  ``mrclens perturb --ablations x1`` and the audit run them, and scoring, readings and the report
  read them like any other ablation.
* :data:`FIGURES_GROUP` (``mrclens_figures``): each entry point names a
  :class:`mrclens.stats.plugins.Figure` (or a list of them); ``mrclens stats`` and ``check`` compute
  them under ``plugins.<name>.<key>`` (a ``check`` rule may test them), and ``mrclens evaluate`` /
  ``audit`` record them for the original set in ``results.json`` (``sections.plugin_figures``),
  which the HTML report shows.

A package declares them in its ``pyproject.toml``::

    [project.entry-points.mrclens_ablations]
    x1 = "mrclens_myprobe:X1"

    [project.entry-points.mrclens_figures]
    answer_chars = "mrclens_myprobe:ANSWER_CHARS"

This module finds and imports them (:func:`load_entry_points`) and names them in messages
(:class:`PluginSource`); it stands on the ground floor beside the task registry, so every floor may ask it.

A plug-in is someone else's code (MRCLens issue 42). Whatever it does wrong is a
:class:`~mrclens.errors.PluginError` naming it, its distribution and what it raised or returned (exit code
2), never reported as a bug in MRCLens (exit code 3):

* one that cannot be imported, or names something that is not an ablation or a figure, is a warning given
  once and is left out: ``--help`` and every command that does not ask for it still run; a command that
  asks for it (``--ablations x1``, a ``check`` rule on its figure) stops with the error (:func:`broken`);
* what its code raises or returns is checked where it is called: ablations by
  :mod:`mrclens.perturbations.contract` before any set is written, figures by
  :func:`mrclens.stats.plugins.compute_figures`.
"""

from __future__ import annotations

import importlib.metadata
import logging
import reprlib
import sys
from dataclasses import dataclass
from typing import Any, Callable

from mrclens.errors import PluginError, PluginMsg

logger = logging.getLogger(__name__)

#: The entry-point group of plug-in ablations.
ABLATIONS_GROUP = "mrclens_ablations"
#: The entry-point group of plug-in model-free figures.
FIGURES_GROUP = "mrclens_figures"

#: Entry points met while their module was still being imported, with their group and callback.
_pending: list[tuple[Any, str, Callable[["PluginSource", Any], None]]] = []
_depth = 0
#: The entry points that could not be loaded: (group, entry-point name) -> the error (warned about once).
_broken: dict[tuple[str, str], PluginError] = {}


@dataclass(frozen=True)
class PluginSource:
    """Where a plug-in component comes from, as every message about it names it.

    Attributes:
        name: the entry point's name (for a component registered in the running process: its id or name).
        value: the entry point's ``module:attribute`` (or the component's function).
        group: the entry-point group; ``None`` for a component registered in the running process.
        dist: the distribution that declares the entry point, where :mod:`importlib.metadata` knows it.

    Examples:
        >>> str(PluginSource("x1", "mrclens_myprobe:X1", "mrclens_ablations", "mrclens-myprobe"))
        "plug-in 'x1' (mrclens_myprobe:X1, group mrclens_ablations, from mrclens-myprobe)"
    """

    name: str
    value: str
    group: str | None = None
    dist: str | None = None

    @classmethod
    def of_entry_point(cls, ep: Any, group: str) -> "PluginSource":
        """The source of an :class:`importlib.metadata.EntryPoint` of ``group``."""
        return cls(ep.name, ep.value, group, getattr(getattr(ep, "dist", None), "name", None))

    @classmethod
    def of_function(cls, name: str, fn: object) -> "PluginSource":
        """The source of a component registered in the running process, named by its function ``fn``."""
        where = getattr(fn, "__qualname__", None) or type(fn).__name__
        return cls(name, f"{getattr(fn, '__module__', None) or '?'}:{where}")

    @property
    def package(self) -> str:
        """The distribution, or what stands in for it in messages."""
        return self.dist or ("an installed package" if self.group else "the code that registered it")

    def __str__(self) -> str:
        if self.group is None:
            return PluginMsg.SOURCE_IN_PROCESS.format(name=self.name, value=self.value)
        return PluginMsg.SOURCE.format(name=self.name, value=self.value, group=self.group, dist=self.package)

    def fault(self, what: str, error: BaseException | None = None) -> PluginError:
        """The :class:`~mrclens.errors.PluginError` of ``what`` the plug-in did (``error``: what it raised,
        whose traceback is logged at debug level, shown by ``-v``)."""
        if error is not None:
            logger.debug("traceback of %s", self, exc_info=(type(error), error, error.__traceback__))
        return PluginError(PluginMsg.FAULT.format(source=self, what=what, dist=self.package,
                                                  more=PluginMsg.TRACEBACK if error is not None else ""))

    def unusable(self, error: str) -> PluginError:
        """The :class:`~mrclens.errors.PluginError` of a plug-in that cannot be loaded (``error``: why)."""
        return PluginError(PluginMsg.NOT_LOADED.format(source=self, error=error))


def error_text(err: BaseException) -> str:
    """``"TypeName: message"`` of an exception a plug-in raised."""
    return f"{type(err).__name__}: {err}"


def describe(value: object) -> str:
    """A short description of what a plug-in returned: ``None``, or ``a list ([1.0, 2.0])`` (abridged repr).

    >>> describe(None), describe([1.0, 2.0])
    ('None', 'a list ([1.0, 2.0])')
    """
    return "None" if value is None else f"a {type(value).__name__} ({reprlib.repr(value)})"


def broken(group: str, name: str) -> PluginError | None:
    """The error of the entry point ``name`` (any case) of ``group`` if it could not be loaded, else ``None``."""
    for (g, n), err in _broken.items():
        if g == group and n.lower() == name.lower():
            return PluginError(str(err))
    return None


def broken_in(group: str) -> list[PluginError]:
    """The errors of every entry point of ``group`` that could not be loaded, by name."""
    return [PluginError(str(err)) for (g, _), err in sorted(_broken.items()) if g == group]


def load_entry_points(group: str, register: Callable[[PluginSource, Any], None]) -> None:
    """Import every installed entry point of ``group`` (by name) and call ``register(source, object)``.

    One plug-in module may hold an ablation and a figure and import :mod:`mrclens.perturbations`
    itself; loading its figure then imports the ablation registry, which asks for its ablation while
    the module is still half imported. Such an entry point is set aside and loaded when the
    outermost call here ends (the module has finished importing by then).

    An entry point that cannot be imported, or that ``register`` refuses (by raising
    :class:`~mrclens.errors.PluginError`), is left out with a warning naming it, its distribution and the
    error, given once per process (again only if the error changes); :func:`broken` returns the error
    to a command that asks for it. Nothing is raised for it here, so a broken plug-in blocks neither
    ``--help`` nor the commands that do not need it.
    """
    global _depth
    _depth += 1
    try:
        for ep in sorted(importlib.metadata.entry_points(group=group), key=lambda e: e.name):
            if _importing(ep.module):
                _pending.append((ep, group, register))
            else:
                _load(ep, group, register)
    finally:
        _depth -= 1
    if _depth == 0:
        waiting, _pending[:] = list(_pending), []
        for ep, group, callback in waiting:
            if _importing(ep.module):
                _pending.append((ep, group, callback))
            else:
                _load(ep, group, callback)


def _importing(module: str) -> bool:
    spec = getattr(sys.modules.get(module), "__spec__", None)
    return bool(getattr(spec, "_initializing", False))


def _load(ep: Any, group: str, register: Callable[[PluginSource, Any], None]) -> None:
    source = PluginSource.of_entry_point(ep, group)
    key = (group, ep.name)
    try:
        try:
            obj = ep.load()
        except Exception as err:  # noqa: BLE001 - any import error of a third-party package
            raise source.unusable(error_text(err)) from err
        register(source, obj)
    except PluginError as err:
        if key not in _broken or str(_broken[key]) != str(err):
            logger.warning("%s%s", err, PluginMsg.LEFT_OUT.format(dist=source.package))
        _broken[key] = err
    else:
        _broken.pop(key, None)
