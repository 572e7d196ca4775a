"""Answer-sentence position figures (Position bias, Ko et al. 2020) on a hand-made paragraph."""

import pytest

from mrclens.parsing import parse_texts
from mrclens.stats.position import POSITION_LABELS, position_figures
from mrclens.units import answer_unit_indices, sentence_units

CONTEXT = ("Warsaw is the capital of Poland. It lies on the Vistula. Its old town was rebuilt after 1945. "
           "Chopin grew up there. The city has two airports.")
# answers in sentences 1, 2, 3, 4 and 5 of five
ANSWERS = ["Poland", "Vistula", "1945", "Chopin", "two airports"]


def test_position_figures_on_a_hand_made_paragraph():
    parse = parse_texts([CONTEXT], sentences=True, cache_dir=False)[0]
    spans = [(CONTEXT.index(a), CONTEXT.index(a) + len(a)) for a in ANSWERS]
    units = sentence_units(CONTEXT, parse, spans)
    assert len(units) == 5
    index = [min(answer_unit_indices(units, [s])) for s in spans]
    assert index == [0, 1, 2, 3, 4]
    # plus one answer in a one-sentence context (no relative position, no last sentence)
    fig = position_figures(index + [0], [5] * 5 + [1])
    assert list(fig["sentence_shares"]["counts"]) == list(POSITION_LABELS)
    assert fig["sentence_shares"]["counts"] == {"sentence_1": 2, "sentence_2": 1, "sentence_3": 1, "later": 2}
    assert fig["sentence_shares"]["shares_pct"]["later"] == pytest.approx(100 * 2 / 6)
    rel = fig["relative_sentence_position"]
    assert (rel["n"], rel["missing"]) == (5, 1)
    assert rel["mean"] == pytest.approx(0.5) and rel["min"] == 0.0 and rel["max"] == 1.0
    assert fig["last_sentence_pct"] == pytest.approx(20.0)  # 1 of the 5 answers in contexts of >= 2 units


def test_position_figures_checks_lengths_and_missing_units():
    with pytest.raises(ValueError, match="n_units"):
        position_figures([0, 1], [3])
    fig = position_figures([None, 2], [3, 3])
    assert fig["sentence_shares"]["n"] == 1 and fig["last_sentence_pct"] == 100.0
