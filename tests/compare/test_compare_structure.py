"""``mrclens compare`` reads chance-corrected ranks against the first input re-weighted to each later
input's sentence counts (issue 32, part 2), on real data: 3 articles of the bundled sample."""

from __future__ import annotations

import pytest

from mrclens.compare import compare
from mrclens.formats import load_squad_file
from mrclens.parsing import parse_texts
from mrclens.squad import write_dataset
from tests.conftest import SAMPLE

RANK = "chance_corrected.position_rank"


@pytest.fixture(scope="module")
def whole_and_short(tmp_path_factory):
    """The first 3 articles, and the same articles keeping only paragraphs of at most 3 sentences."""
    tmp = tmp_path_factory.mktemp("structure")
    data = load_squad_file(SAMPLE)
    data.articles = data.articles[:3]
    contexts = [p.context for a in data.articles for p in a.paragraphs]
    parsed = dict(zip(contexts, parse_texts(contexts, sentences=True, cache_dir=False, progress=False)))
    whole = tmp / "whole.json"
    write_dataset(data, whole)
    for a in data.articles:
        a.paragraphs = [p for p in a.paragraphs if len(parsed[p.context].sent_starts) <= 3]
    short = tmp / "short.json"
    write_dataset(data, short)
    return whole, short


def test_a_rank_is_compared_with_the_first_input_weighted_to_the_later_ones_sentence_counts(whole_and_short):
    whole, short = whole_and_short
    c = compare([whole, short], ["whole", "short"], n_resamples=200)
    for key in (RANK, "chance_corrected.keyword_rank"):
        d = c.row(key).differences[0]
        # the short paragraphs' questions are the whole data's 2- and 3-sentence strata: once the whole data
        # is weighted to those strata the two sides hold the same questions, so the difference vanishes
        assert d.compared and d.ci_method == "standardised" and abs(d.difference) < 0.5 and not d.significant, (key, d)
    # the raw share (chance 1/3 or 1/2 on short paragraphs) reads the short data as more position-biased
    share = c.row("answer_position.first_sentence_pct").differences[0]
    assert share.ci_method == "bootstrap" and share.significant and share.difference > 8.0
    assert any("standardised" in note for note in c.notes)
