"""The declared layout of compute_stats' result, and compute_stats checking itself against it."""

import copy

import pytest

from mrclens.errors import InternalError
from mrclens.stats import compute_stats
from mrclens.stats.schema import FIGURE_SECTIONS, METRIC_PATHS, RUN_SECTIONS, check_layout, figure_paths

from stats_helpers import C1, MINI, make_dataset


@pytest.fixture(scope="module")
def mini_stats():
    return compute_stats(make_dataset(MINI), cache_dir=False, progress=False)


def test_figures_are_the_numbers_of_the_figure_sections(mini_stats):
    paths = list(figure_paths(mini_stats))
    assert paths == [p for p in METRIC_PATHS if not p.startswith("leakage.")]  # no dev file: no leakage figures
    assert "lengths.question_words.mean" in paths and "question_types.largest_pct" in paths
    # strings, lists and the run's own numbers are not figures
    assert not [p for p in paths if p.endswith((".unit", ".histogram", ".description", ".largest", ".examples"))]
    assert not [p for p in paths if p.split(".")[0] in RUN_SECTIONS]
    assert set(mini_stats) == set(FIGURE_SECTIONS) | set(RUN_SECTIONS)


@pytest.mark.parametrize("edit, message", [
    (lambda s: s["similarity"].update(new_pct=1.0), "figures not declared: ['similarity.new_pct']"),
    (lambda s: s["duplicates"].pop("groups"), "missing: ['duplicates.groups']"),
    (lambda s: s["heuristics"].pop("sliding_window"), "'heuristics.sliding_window.f1'"),
    (lambda s: s.update(extra={}), "sections not declared: ['extra']"),
    (lambda s: s.pop("timings_s"), "missing: ['timings_s']"),
    (lambda s: s.update(leakage={"dev_contexts": 1}), "'leakage.pairs_near_identical'"),
])
def test_check_layout_names_every_difference(mini_stats, edit, message):
    check_layout(mini_stats)
    edited = copy.deepcopy(mini_stats)
    edit(edited)
    with pytest.raises(InternalError, match="does not match mrclens.stats.schema") as err:
        check_layout(edited)
    assert message in str(err.value)


def test_compute_stats_refuses_a_figure_the_layout_does_not_declare(monkeypatch):
    """A producer that gains a figure without the layout (and so without `check` knowing it)
    makes compute_stats fail loudly instead of writing it."""
    import mrclens.stats.core as core

    real = core.find_duplicates
    monkeypatch.setattr(core, "find_duplicates", lambda ds: {**real(ds), "duplicate_contexts": 0})
    with pytest.raises(InternalError, match=r"figures not declared: \['duplicates.duplicate_contexts'\]"):
        compute_stats(make_dataset([(C1, [("a", "When was the Eiffel Tower built?", "1889")])]),
                      cache_dir=False, progress=False)
