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

This module only finds and imports them (:func:`load_entry_points`); it stands on the ground floor
beside the task registry, so every floor may ask it.
"""

from __future__ import annotations

import importlib.metadata
import sys
from typing import Any, Callable

from mrclens.errors import MRCLensError

#: The entry-point group of plug-in ablations.
ABLATIONS_GROUP = "mrclens_ablations"
#: The entry-point group of plug-in model-free figures.
FIGURES_GROUP = "mrclens_figures"

#: Entry points met while their module was still being imported, with their group and callback.
_pending: list[tuple[Any, str, Callable[[str, Any], None]]] = []
_depth = 0


def load_entry_points(group: str, register: Callable[[str, Any], None]) -> None:
    """Import every installed entry point of ``group`` (by name) and call ``register(name, object)``.

    One plug-in module may hold an ablation and a figure and import :mod:`mrclens.perturbations`
    itself; loading its figure then imports the ablation registry, which asks for its ablation while
    the module is still half imported. Such an entry point is set aside and loaded when the
    outermost call here ends (the module has finished importing by then).

    Raises:
        MRCLensError: a plug-in cannot be imported (the message names the entry point, its
            distribution and the error), so a broken plug-in is reported, not skipped silently;
            or ``register`` refuses it.
    """
    global _depth
    _depth += 1
    try:
        for ep in sorted(importlib.metadata.entry_points(group=group), key=lambda e: e.name):
            if _importing(ep.module):
                _pending.append((ep, group, register))
            else:
                register(ep.name, _load(ep, group))
    finally:
        _depth -= 1
    if _depth == 0:
        waiting, _pending[:] = list(_pending), []
        for ep, group, callback in waiting:
            if _importing(ep.module):
                _pending.append((ep, group, callback))
            else:
                callback(ep.name, _load(ep, group))


def _importing(module: str) -> bool:
    spec = getattr(sys.modules.get(module), "__spec__", None)
    return bool(getattr(spec, "_initializing", False))


def _load(ep: Any, group: str) -> Any:
    try:
        return ep.load()
    except Exception as err:  # noqa: BLE001 - any import error of a third-party package
        dist = getattr(getattr(ep, "dist", None), "name", None) or "an installed package"
        raise MRCLensError(f"plug-in {ep.name!r} ({ep.value}, group {group}, from {dist}) cannot be loaded: "
                           f"{type(err).__name__}: {err}; uninstall or fix that package") from None
