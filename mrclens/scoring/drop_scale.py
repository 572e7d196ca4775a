"""The drop route on the planted-share scale (issue 54, item 3): how far a category's difference of drops from the
reference moves per percent of the questions planted with its family's shortcut.

The data route states its figures as "as much as a shortcut in N % of the questions"
(:data:`mrclens.scoring.model_free.PER_PLANTED_PCT`); the drops are read on the same scale, so that one band —
:data:`~mrclens.scoring.model_free.PLANTED_BAND` % of the questions — means the same on both routes. A category's
band in points of relative drop is ``PLANTED_BAND × scale`` (:func:`drop_band`), its difference and minimum
detectable effect divided by the scale are planted shares (:mod:`mrclens.reports.glance`).

**Measured** (each category's :attr:`~mrclens.categories.BiasCategory.drop_per_planted_pct`, in its typed home): quick-profile audits of ``mrclens selftest``'s graded plantings of the
bundled sample (``overlap`` for Similarity, ``marked`` for Question, ``keywords`` for Keyword, ``position`` for
Position) at 50 % beside their clean counterparts, the category's difference from the reference planted minus clean,
per planted percent (``benchmarks/graded_audits.py`` and ``benchmarks/drop_planted_scale.py``; BENCHMARKS.md,
"The drop route as a planted share"). Similarity's and Keyword's drops have none (:attr:`~mrclens.categories.BiasCategory.drop_uncalibrated`): their
plantings hardly move them, and other families' plantings move them more (a ``position`` planting lowers
Similarity's by 41 points), so where the data's own figure has a reading those drops are a description beside it,
never a verdict route (:func:`mrclens.scoring.against_reference.compare_with_reference`). The ``paper-parallel`` profile has no planted audits (43 minutes per audit on
2 cores): it reads its drops on the quick reader's scale, and says so (:data:`MEASURED_WITH`), as its structure term
of another context length is the quick profile's.
"""

from __future__ import annotations

from typing import NamedTuple

from mrclens.categories import CATEGORIES, get_category
from mrclens.scoring.model_free import PLANTED_BAND

#: The profiles read on another profile's scale, and whose (module docstring).
MEASURED_WITH: dict[str, str] = {"paper-parallel": "quick"}


class DropScale(NamedTuple):
    """A category's drop route on the planted-share scale (:func:`drop_band`): ``band`` (points of relative drop),
    ``per_planted_pct`` (points per planted percent; ``None``: not calibrated, the band is ``fallback`` points) and
    the profile it was measured with (``None``: the audited profile's own, or not calibrated)."""

    band: float
    per_planted_pct: float | None
    measured_with: str | None = None


def drop_band(profile: str | None, category: str, fallback: float) -> DropScale:
    """The band of "in line" of ``category``'s drops for an audit with reader ``profile``: as much as a shortcut in
    :data:`~mrclens.scoring.model_free.PLANTED_BAND` % of the questions moves them
    (:attr:`~mrclens.categories.BiasCategory.drop_per_planted_pct`, the profile's own or :data:`MEASURED_WITH`'s), else ``fallback`` points (a profile or category not calibrated:
    plug-in categories, the multiple-choice categories). Never raises.

    >>> s = drop_band("quick", "Position", 10.0)
    >>> round(s.band, 4) == round(10 * s.per_planted_pct, 4), s.measured_with
    (True, None)
    >>> drop_band("paper-parallel", "Position", 10.0).measured_with, drop_band("quick", "Fluency", 10.0)
    ('quick', DropScale(band=10.0, per_planted_pct=None, measured_with=None))
    """
    scales = dict(get_category(category).drop_per_planted_pct)
    source = profile if profile in scales else MEASURED_WITH.get(profile or "")
    scale = scales.get(source or "")
    if not scale:
        return DropScale(fallback, None)
    return DropScale(PLANTED_BAND * scale, scale, source if source != profile else None)


#: The built-in categories whose drops have no planted-share scale, and why (from their records).
UNCALIBRATED: dict[str, str] = {c.name: c.drop_uncalibrated for c in CATEGORIES.values() if c.drop_uncalibrated}
