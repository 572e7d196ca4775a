"""A verdict that the data's context length may explain says so (issue 41, part 1).

The drops are not standardised by sentence count (the data's own figures are): on clean data whose contexts
hold 2 or 3 sentences, a question matters less than among SQuAD's 5, and e4 costs less. So a category read
"more" or "less" from its drops alone on data much shorter or longer than the reference's says that the
shape may explain it, in its reading, ``reference_shape``, the terminal summary and the report card.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from mrclens.artifacts.results import read_results
from mrclens.reports.glance import SHAPE_ADVICE, category_glance
from mrclens.reports.summary import ADVICE_SHAPE, summarize_category
from mrclens.scoring.against_reference import compare_with_reference
from mrclens.scoring.reference_builder import read_any_reference
from report_fixtures import shortcut_reference
from mrclens.scoring.model_free import ContextShape, context_shape

# a module fixture of several seconds: left out of `make test`, run by `make test-slow` and CI
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def shapes(sample_path, tmp_path_factory):
    """The median sentence count of the bundled sample and of its short and long counterparts (real data)."""
    from mrclens.formats import load_dataset
    from mrclens.selftest.plantings import plant_shape
    from mrclens.squad import Dataset
    from mrclens.stats import compute_stats

    cache = tmp_path_factory.mktemp("shape-cache")
    reference, _ = read_any_reference(None)
    full = load_dataset(sample_path)
    small = Dataset(full.articles[:4], full.version)
    out = {"sample": context_shape(compute_stats(small, cache_dir=cache, progress=False, n_process=1), reference)}
    for name in ("short", "long"):
        data, _ = plant_shape(small, name, 0, cache_dir=cache)
        out[name] = context_shape(compute_stats(data, cache_dir=cache, progress=False, n_process=1), reference)
    return out


@pytest.mark.slow
def test_the_shape_of_real_data_beside_squad(shapes):
    # SQuAD v1.1's natural paragraphs: a median of 5 sentence units (the joined paragraphs of its long strata
    # are left out); the sample is SQuAD itself, the short counterpart keeps 3 units, the long one joins two
    assert {s.reference_sentences for s in shapes.values()} == {"5"}
    assert not shapes["sample"].differs and 0.7 < shapes["sample"].ratio < 1.4
    assert shapes["short"].sentences == "3" and shapes["short"].differs
    assert shapes["long"].differs and shapes["long"].ratio >= 1.5


def test_a_drop_verdict_on_data_of_another_shape_says_the_shape_may_explain_it(compared_audit):
    typed = read_results(compared_audit)
    # the audit records the shape it was read with: it picks the structure term's stratum (ReferenceAudit.for_shape)
    assert typed.context_shape is not None and typed.context_shape["reference_sentences"] == "5"
    reference, _ = shortcut_reference()  # the reference the fixture was read against
    plain = [replace(c, reference=None, reference_bias=None, reference_basis=None, reference_difference=None,
                     reference_difference_ci_low=None, reference_difference_ci_high=None, reference_why=None)
             for c in typed.categories]

    # the note on its own: a reference with one structure term for every length (the strata, below, widen the
    # interval of data of another length, so that fewer of its differences read "more" at all)
    one = replace(reference, audits={**reference.audits,
                                     "quick": replace(reference.audits["quick"], structure_sd_other_shape={})})

    def read(shape, ref=one):
        _, cats = compare_with_reference(typed.ablations, plain, ref.audit_for("quick"), model_free=typed.model_free,
                                         shape=shape)
        return {c.category: c for c in cats}

    same, short = read(ContextShape("4", "5")), read(ContextShape("2", "5"))
    # Question reads "more" from its drops alone (the fixture's shortcut reader keeps its F1 without the question)
    assert same["Question"].reference_bias == short["Question"].reference_bias == "more"
    assert same["Question"].reference_basis == "drops"
    assert same["Question"].reference_shape is None and "shape may explain" not in same["Question"].reading
    q = short["Question"]
    assert q.reference_shape == "your contexts hold a median of 2 sentences against SQuAD v1.1's 5"
    assert "The shape may explain it: your contexts hold a median of 2 sentences" in q.reading
    # the verdicts themselves do not change; every one read "more" or "less" from the drops alone says the shape may
    # explain it (Similarity too: the overlap-sentence reader is drawn to e1's inserted question); every other reading
    # names the shape (issue 54: the data route's too), none of data of the reference's length
    assert all(short[k].reference_bias == same[k].reference_bias for k in short)
    explained = {k for k in same if same[k].reference_bias in ("more", "less") and same[k].reference_basis == "drops"}
    assert {k for k in short if "The shape may explain it" in short[k].reading} == explained
    assert all(short[k].reference_shape for k in short) and not any(same[k].reference_shape for k in same)
    assert "Shape: your contexts hold a median of 2 sentences" in short["Keyword"].reading
    # what the user reads: the advice names the shape instead of "add same-type distractors"
    results = replace(typed, categories=list(short.values()))
    assert summarize_category(q, results).advice == ADVICE_SHAPE
    assert summarize_category(same["Question"], replace(typed, categories=list(same.values()))).advice != ADVICE_SHAPE
    card = category_glance(vars(q), [vars(f) for f in typed.model_free])
    assert card["advice"] == SHAPE_ADVICE and "median of 2 sentences" in card["why"]
    # with the shipped reference's two strata, 2-sentence data takes the term measured on clean data of another
    # length: the same difference, read with what that shape alone moves, has a wider interval that reaches
    # further towards the band
    strata = read(ContextShape("2", "5"), reference)["Question"]
    assert strata.reference_difference == q.reference_difference
    assert strata.reference_difference_ci_low < q.reference_difference_ci_low
    assert strata.reference_difference_ci_high - strata.reference_difference_ci_low > (
        q.reference_difference_ci_high - q.reference_difference_ci_low)
    assert "of clean data of another context length, SD" in strata.reading
