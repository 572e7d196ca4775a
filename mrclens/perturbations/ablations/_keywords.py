"""Shared rule of the Keyword-bias ablations e6–e8 (not an ablation itself)."""

from __future__ import annotations

from mrclens.perturbations.base import insert_in_unit, tokens_with_pos


def keyword_ablation(tags: set[str], empty_reason: str, name: str):
    """Build the ``apply`` function inserting the question's tokens with coarse POS in ``tags``."""

    def _text(question, parse):
        text = tokens_with_pos(parse, tags)
        return (text, None) if text else (None, empty_reason)

    def apply(example, parsed, rng):
        return insert_in_unit(example, parsed, rng, _text)

    apply.__name__ = apply.__qualname__ = name
    return apply
