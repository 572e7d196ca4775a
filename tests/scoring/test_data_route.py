"""The data route alone (issue 57, item 1): read from the data's own figures before any reader is trained, it
gives each category what the audit's data route gives the same questions — same figures, same family-wise level,
same readings — on real SQuAD v1.1 articles of the bundled sample."""

from __future__ import annotations

import dataclasses

import pytest

from demo_audit_fixture import demo_results
from mrclens.artifacts.reference import read_reference
from mrclens.formats import load_dataset
from mrclens.scoring.against_reference import compare_with_reference, model_free_reading
from mrclens.scoring.data_route import audit_family, data_route
from mrclens.scoring.model_free import cluster_standard_errors, model_free_figures
from mrclens.squad import Dataset
from mrclens.stats import compute_stats, compute_stats_per_article
from mrclens.verdicts import READING_NAMES


@pytest.fixture(scope="module")
def part(sample_path, tmp_path_factory):
    """Ten real articles of the bundled sample, their statistics and each article's."""
    sample = load_dataset(sample_path)
    data = Dataset(sample.articles[:10], sample.version)
    cache = tmp_path_factory.mktemp("cache")
    return (compute_stats(data, cache_dir=cache, progress=False, n_process=1),
            compute_stats_per_article(data, cache))


@pytest.mark.slow
def test_the_data_route_is_the_audits(part):
    stats, per_article = part
    reference = read_reference()
    route = data_route(stats, per_article, reference, "quick")
    # the audit's path: the same figures, read with an audit's drops of every category by compare_with_reference
    audited = demo_results()
    figures = model_free_figures(stats, reference, clusters=cluster_standard_errors(per_article))
    compare_with_reference(audited.ablations, audited.categories, reference.audit_for("quick"), model_free=figures)
    assert [dataclasses.asdict(f) for f in route.figures] == [dataclasses.asdict(f) for f in figures]
    # four categories' drops and four verdict figures of the data (Question's too: issue 54, item 5)
    assert route.family == 8 and round(route.level, 5) == round(1 - 0.05 / 8, 5)
    for v in route.verdicts:
        assert v.reading == model_free_reading(figures, v.category)
        assert v.reading is None or v.reading in READING_NAMES
    by = {v.category: v for v in route.verdicts}
    assert by["Question"].figure.path == "chance_corrected.set_apart_top"
    for name in ("Similarity", "Question", "Keyword", "Position"):
        f = by[name].figure
        assert f is not None and f.category == name and f.role == "verdict"
        assert f.difference_confidence == pytest.approx(route.level) and f.mde is not None and f.per_planted_pct


def test_a_reference_without_the_profiles_audit_reads_the_figures_alone(part):
    stats, per_article = part
    reference = read_reference()
    assert audit_family(reference, "no-such-profile", 4) == 4
    route = data_route(stats, per_article, reference, "no-such-profile")
    assert route.family == 4 and route.level == pytest.approx(1 - 0.05 / 4)  # fewer tests: a narrower interval


def test_the_marked_planting_reads_question_more_and_its_clean_counterpart_does_not(sample_path, tmp_path):
    """Issue 54, item 5: Question's figure of the data (the answer is the span the context sets apart) reads the
    ``marked`` planting in half of the questions of six real articles "more", beyond its band, and the clean
    counterpart (a random span marked instead) neither "more" nor "less"."""
    from mrclens.selftest.plantings import plant_graded

    sample = load_dataset(sample_path)
    graded, clean = plant_graded(Dataset(sample.articles[10:16], sample.version), "marked", (0.5,), 0,
                                 cache_dir=tmp_path)
    reference = read_reference()
    read = {}
    for name, data in (("planted", graded[0.5]), ("clean", clean)):
        route = data_route(compute_stats(data, cache_dir=tmp_path, progress=False, n_process=1),
                           compute_stats_per_article(data, tmp_path), reference, "quick")
        read[name] = {v.category: v for v in route.verdicts}["Question"]
    planted, clean_q = read["planted"].figure, read["clean"].figure
    assert read["planted"].reading == "more" and planted.difference_ci_low > planted.band
    assert 35 < planted.planted(planted.difference) < 65  # about the half of the questions planted
    assert read["clean"].reading not in ("more", "less") and abs(clean_q.planted(clean_q.difference)) < 5
