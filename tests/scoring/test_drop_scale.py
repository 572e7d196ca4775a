"""The drop route on the planted-share scale (issue 54, item 3) and where no number of questions can read it in line."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from mrclens.artifacts.reference import Reference, ReferenceAudit, ReferenceDrop
from mrclens.artifacts.results import AblationResult, CategoryResult
from mrclens.categories import CATEGORIES
from mrclens.reports.glance import (DROPS_PLANTED_LABEL, REFERENCE_LABEL, category_glance, drops_band, mde_text,
                                    reading_figure)
from mrclens.scoring.against_reference import DROP_BAND, compare_with_reference, drops_in_line_reachable
from mrclens.scoring.drop_scale import MEASURED_WITH, UNCALIBRATED, drop_band


def _quick_scales() -> dict[str, float]:
    """Each built-in category's quick-profile drop scale, from its typed record."""
    return {name: dict(c.drop_per_planted_pct)["quick"] for name, c in CATEGORIES.items()
            if "quick" in dict(c.drop_per_planted_pct)}
from mrclens.scoring.model_free import PLANTED_BAND


def _e9(excess, half=2.0, base=60.0, n=2000):
    """An e9 (Position) ablation whose excess drop is ``excess`` F1 points ± ``half``."""
    return AblationResult("e9", "move answer sentence", "Position", "e9", "original", "large_drop", evaluated=True,
                          n=n, f1_drop=excess + 1.0, ci_low=excess - half + 1.0, ci_high=excess + half + 1.0,
                          baseline_f1=base, relative_drop=100 * (excess + 1.0) / base,
                          relative_ci_low=100 * (excess - half + 1.0) / base,
                          relative_ci_high=100 * (excess + half + 1.0) / base, control="c9", control_f1_drop=1.0,
                          excess_drop=excess, excess_ci_low=excess - half, excess_ci_high=excess + half, excess_n=n,
                          reading="r.")


def _reference(profile="quick", structure=0.0):
    drop = ReferenceDrop("relative_excess_drop", 10.0, 9.5, 10.5, 10000)
    audit = ReferenceAudit(profile, 50.0, {}, {"e9": drop}, structure_sd={"Position": structure})
    return Reference("SQuAD v1.1", {}, {}, {profile: audit})


def _read(excess, profile="quick", structure=0.0, half=2.0):
    cat = CategoryResult("Position", ["e9"], ["e9"], excess, excess - half, excess + half, reading="Position: x.")
    _, cats = compare_with_reference([_e9(excess, half)], [cat], _reference(profile, structure).audit_for(profile))
    return cats[0]


def test_every_built_in_span_category_has_a_positive_drop_scale_on_the_quick_profile_or_a_reason_not_to():
    span = {name for name, c in CATEGORIES.items() if c.ablations}
    scales = _quick_scales()
    assert set(scales) | set(UNCALIBRATED) == span and not set(scales) & set(UNCALIBRATED)
    assert all(v > 0 for v in scales.values())
    assert set(MEASURED_WITH.values()) == {"quick"}
    assert all(drop_band("quick", name, DROP_BAND) == (DROP_BAND, None, None) for name in UNCALIBRATED)


def test_a_category_is_read_against_the_planted_share_band_and_states_its_figures_in_it():
    scale = _quick_scales()["Position"]
    band = PLANTED_BAND * scale
    # a relative excess drop 6 % of the baseline above the reference's 10 %, with a narrow interval
    c = _read(excess=0.6 * (10.0 + band + 6.0))
    assert c.reference_band == pytest.approx(band, abs=1e-4) and c.reference_per_planted_pct == scale
    assert c.reference_bias == "more"
    one = reading_figure(c, [], "F1", [])
    assert one.label == DROPS_PLANTED_LABEL and one.value == pytest.approx(c.reference_difference / scale)
    assert str(drops_band(c)) == f"±{PLANTED_BAND:g}% of the questions"
    assert mde_text(c) == f"{c.reference_mde / scale:.0f}%"
    assert "% of the questions" in c.reading and "as a planted share" in c.reading
    # the same difference inside the band (a tenth of it beyond the reference): not "more"
    inside = _read(excess=0.6 * (10.0 + band / 2))
    assert inside.reference_bias in ("slightly more", "in line")


def test_the_paper_parallel_profile_reads_on_the_quick_readers_scale_and_says_so():
    got = drop_band("paper-parallel", "Position", DROP_BAND)
    assert got.measured_with == "quick" and got.per_planted_pct == _quick_scales()["Position"]
    c = _read(excess=0.6 * 11.0, profile="paper-parallel", half=6.0)
    assert c.reference_per_planted_pct == got.per_planted_pct
    assert "measured with the quick reader" in c.reading


def test_a_category_without_a_scale_keeps_its_figures_in_points():
    assert drop_band("quick", "Negation", DROP_BAND).per_planted_pct is None
    c = _read(excess=0.6 * 11.0)
    entry = {**asdict(c), "reference_per_planted_pct": None, "reference_band": DROP_BAND}
    assert reading_figure(entry, [], "F1", []).label == REFERENCE_LABEL
    assert str(drops_band(entry)) == "±10 points" and mde_text(entry) == f"{c.reference_mde:.0f}"


def test_where_no_number_of_questions_can_read_the_drops_in_line_the_advice_says_so():
    band = drop_band("quick", "Position", DROP_BAND).band
    wide = _reference(structure=3 * band).audits["quick"]
    assert not drops_in_line_reachable(wide, "Position", 1, band)
    assert drops_in_line_reachable(_reference(structure=0.0).audits["quick"], "Position", 1, band)
    stuck = _read(excess=6.0, structure=3 * band)
    assert stuck.reference_bias == "inconclusive" and stuck.reference_why == "profile out of reach"
    assert "No number of questions can read these drops in line" in stuck.reading
    view = category_glance(asdict(stuck), [])
    assert view["advice"].startswith("Adding questions will not settle it")
    assert "no reader profile of SQuAD v1.1 can read it in line" in stuck.reading  # the reference has only quick
    # with the data's own figure in line, the stuck drops neither support nor veto it: the data decides
    from mrclens.artifacts.results import ModelFreeFigure
    fig = ModelFreeFigure("Position", "chance_corrected.position_rank", "position rank", "higher", 56.6, 56.0, 57.2,
                          4000, reference_value=56.6, difference=0.0, difference_ci_low=-1.0, difference_ci_high=1.0,
                          comparison="in line", band=4.55, difference_confidence=0.95, per_planted_pct=0.455)
    cat = CategoryResult("Position", ["e9"], ["e9"], 6.0, 4.0, 8.0, reading="Position: x.")
    _, cats = compare_with_reference([_e9(6.0)], [cat], _reference(structure=3 * band).audit_for("quick"),
                                     model_free=[fig])
    assert cats[0].reference_bias == "in line" and cats[0].reference_basis == "model-free"
    assert "The data's own figures decide." in cats[0].reading
    small = _read(excess=6.0, half=40.0)  # a wide interval of its own: more questions do help
    assert small.reference_bias == "inconclusive" and small.reference_why == "cannot tell"
