"""What an ablation *is*, declared once: :class:`AblationMeta`, the metadata every stage shares.

One ablation is described in four places, each adding its own part to the same metadata:

* the registry, :class:`mrclens.perturbations.registry.Ablation` (span) and the multiple-choice
  one (:mod:`mrclens.multiple_choice.ablations`): metadata + the pure function that makes the set;
* the perturbation manifest, :class:`mrclens.artifacts.manifest.AblationEntry`: metadata + what the
  ablation changed (counts and per-question records); scoring reads its ablations from there;
* the results, :class:`mrclens.artifacts.results.AblationResult`: metadata + scores, drops, CIs
  and the reading.

Each of them extends :class:`AblationMeta`, so the fields below are declared here only, and
``results.json`` keeps them first, in this order. The class stands in :mod:`mrclens.artifacts`,
the lowest floor the three can all import.

Examples:
    >>> m = AblationMeta("e4", "interrogative words only", "Question", "full", "original", "small_drop")
    >>> m.baseline_set, m.description, m.direction.bias_when
    ('original', '', 'lower')
"""

from __future__ import annotations

from dataclasses import dataclass

from mrclens.categories import Direction, direction


@dataclass
class AblationMeta:
    """The metadata of one ablation (or matched control).

    Not frozen: the results entries that extend it are filled in step by step, and a dataclass
    hierarchy is frozen throughout or not at all; the registry's ablations refuse assignment
    themselves (:class:`mrclens.perturbations.registry.Ablation`).

    Attributes:
        id: ``"e1"`` … ``"e10"``, controls ``"c1"`` …; multiple choice ``"m1"`` … ``"m6"``, ``"mc4"`` ….
        name: short human name, e.g. ``"insert question"``.
        category: the bias category (``"Similarity"``, ``"Question"``, ``"Keyword"``, ``"Position"``).
        eval_set: ``"full"`` (every question) or ``"truncated"`` (one question per paragraph).
        baseline_set: the unperturbed set its scores are compared with (``"original"`` or
            ``"original-truncated"``).
        bias_signal: which drop signals the bias: ``"small_drop"``, ``"large_drop"``, or
            ``"control"`` for a matched control (the name of its :attr:`direction`, as files keep it).
        description: one line.
    """

    id: str
    name: str
    category: str
    eval_set: str
    baseline_set: str
    bias_signal: str
    description: str = ""

    @property
    def direction(self) -> Direction:
        """The :class:`~mrclens.categories.Direction` that :attr:`bias_signal` names, which judges its drop.

        Raises:
            ValueError: ``bias_signal`` names no direction.
        """
        return direction(self.bias_signal)
