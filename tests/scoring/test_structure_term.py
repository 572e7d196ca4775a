"""The structure term is monotone in the evidence (issue 54, item 4): the Q-profile upper bound everywhere, never
lower when a counterpart differs more from the reference; and the shipped reference's terms are what the current
rule gives on the differences its provenance keeps."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mrclens.artifacts.reference import read_reference
from mrclens.metrics.estimate import excess_spread
from mrclens.scoring.structure_term import STRUCTURE_UPPER_LEVEL, heterogeneity_upper_bound, restructure, structure_term


def _six(mean_square: float) -> list[tuple[float, float]]:
    """Six counterparts of standard error 2 whose differences (alternating signs) have mean square ``mean_square``."""
    return [((-1) ** j * math.sqrt(mean_square), 2.0) for j in range(6)]


def test_counterparts_just_beyond_their_errors_get_no_smaller_term_than_those_just_within():
    within, beyond = _six(3.99), _six(4.01)
    # the method of moments switches from 0 to 0.1 here; the old rule took the bound (1.95) only below the switch
    assert excess_spread(*zip(*within), centre=0.0).excess_sd == 0.0
    assert excess_spread(*zip(*beyond), centre=0.0).excess_sd == pytest.approx(0.1, abs=1e-6)
    assert heterogeneity_upper_bound(within, STRUCTURE_UPPER_LEVEL) > 1.9
    assert structure_term(beyond) >= structure_term(within) > 1.9
    assert structure_term(beyond) - structure_term(within) < 0.05   # continuous: a hair more evidence, a hair more


pairs = st.lists(st.tuples(st.floats(-40.0, 40.0), st.floats(0.3, 10.0)), min_size=1, max_size=8)


@settings(max_examples=150, deadline=None)
@given(pairs, st.data())
def test_raising_any_counterparts_difference_never_lowers_the_term(got, data):
    j = data.draw(st.integers(0, len(got) - 1))
    grow = data.draw(st.floats(0.0, 30.0))
    d, s = got[j]
    farther = list(got)
    farther[j] = (math.copysign(abs(d) + grow, d if d else 1.0), s)
    before = heterogeneity_upper_bound(got, STRUCTURE_UPPER_LEVEL)
    after = heterogeneity_upper_bound(farther, STRUCTURE_UPPER_LEVEL)
    assert after >= before - 1e-6 * max(1.0, before)   # the root finder's tolerance
    assert structure_term(farther) >= structure_term(got) - 1e-4


def test_the_shipped_reference_holds_the_current_rule_on_its_stored_differences():
    reference = read_reference()
    for profile, audit in reference.audits.items():
        again, done = restructure(audit)
        assert set(done) == {"like_shape", "other_shape"}, profile
        assert again.structure_sd == audit.structure_sd and again.structure_sd_other_shape == audit.structure_sd_other_shape
        assert {k: (d.structure_sd, d.structure_sd_other_shape) for k, d in again.ablations.items()} == \
               {k: (d.structure_sd, d.structure_sd_other_shape) for k, d in audit.ablations.items()}
        held = audit.provenance["structure"]
        assert audit.structure_counterparts == held["like_shape"]["counterparts"]
        assert audit.structure_counterparts_other_shape == held["other_shape"]["counterparts"]
    assert reference.audits["quick"].structure_df == 5 and reference.audits["paper-parallel"].structure_df == 2
    # the bound is never below the method of moments on the same differences
    for c, item in reference.audits["quick"].provenance["structure"]["other_shape"]["categories"].items():
        moments = excess_spread(item["differences"], item["se"], centre=0.0).excess_sd
        assert reference.audits["quick"].structure_sd_other_shape[c] >= moments - 1e-4, c
