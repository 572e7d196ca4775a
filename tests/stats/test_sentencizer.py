"""Ranks of data that is not English, read with spaCy's rule-based sentencizer (issue 32, part 3):
hand-computed on written Spanish paragraphs, the figures that enter the statistics, the rules that run."""

from __future__ import annotations

import json

import pytest

from mrclens.checks import evaluate_rules, load_rules
from mrclens.errors import LanguageMsg
from mrclens.formats import load_dataset
from mrclens.stats.language_free import NOT_COMPUTED, format_language_free, language_free_stats
from mrclens.stats.sentencizer import FIGURES, LANGUAGES, pipeline, sentencizer_ranks, sentencizer_section

# Written for this test. Paragraph 1: four sentences. Paragraph 2: three sentences, but the answer
# "un rey. El puente" crosses the boundary between the last two, which merge: two units. Paragraph 3:
# one sentence, so no rank.
P1 = "El río nace en la montaña. Cruza tres ciudades grandes. Llega al mar en otoño. Los pescadores viven allí."
P2 = "Nadie sabe quién construyó el puente. Algunos dicen que fue un rey. El puente es muy viejo."
P3 = "Una sola frase sin punto final"
QUESTIONS = [
    (P1, "¿Cuántas ciudades cruza el río?", "tres ciudades"),  # unit 1 of 4: position rank 100 × (1 − 1/3)
    (P1, "¿Dónde nace el río?", "la montaña"),                # unit 0 of 4: 100
    (P2, "¿Quién construyó el puente según algunos?", "un rey. El puente"),  # unit 1 of 2: 0
    (P3, "¿Qué hay sin punto final?", "frase"),               # one unit: no rank
]


@pytest.fixture()
def spanish(tmp_path):
    paragraphs: dict[str, list] = {}
    for i, (context, question, answer) in enumerate(QUESTIONS):
        paragraphs.setdefault(context, []).append(
            {"id": f"es-{i}", "question": question, "answers": [{"text": answer, "answer_start": context.index(answer)}]})
    data = {"version": "1.1", "data": [{"title": "prueba", "paragraphs": [
        {"context": c, "qas": qas} for c, qas in paragraphs.items()]}]}
    path = tmp_path / "es.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return load_dataset(path)


def test_position_rank_by_hand(spanish):
    section, (position, similarity, keyword) = sentencizer_ranks(spanish, "es")
    assert position[:3] == pytest.approx([200 / 3, 100.0, 0.0]) and position[3] is None
    assert section["position_rank"]["mean"] == pytest.approx((200 / 3 + 100 + 0) / 3)
    assert section["position_rank"]["n"] == 3
    strata = section["by_sentence_count"]["position_rank"]
    assert strata["4"] == pytest.approx({"n": 2, "mean": 250 / 3, "std": 50 / 3})
    assert strata["2"]["n"] == 1 and strata["3"]["n"] == 0  # paragraph 2's last two sentences merged
    assert section["random_sentence_share_pct"] == pytest.approx(100 * (1 / 4 + 1 / 4 + 1 / 2 + 1) / 4)
    # the lexical ranks, computed for the measurement: the answer sentence holds the question's words
    assert keyword[:2] == [100.0, 100.0] and similarity[:2] == [100.0, 100.0] and keyword[3] is None


def test_only_the_measured_ranks_enter_the_statistics(spanish):
    assert FIGURES == ("position_rank",)  # BENCHMARKS.md: the lexical ranks are off by over 5 points in ru / ar
    section = sentencizer_section(spanish, "es")
    assert set(section) == {"position_rank", "random_sentence_share_pct", "by_sentence_count"}
    assert set(section["by_sentence_count"]) == {"position_rank"}
    with pytest.raises(ValueError, match="unknown ranks"):
        sentencizer_section(spanish, "es", ("position",))
    with pytest.raises(ValueError, match="no sentencizer path for language 'th'"):
        pipeline("th")


def test_language_ok_statistics_and_rules(spanish):
    free = language_free_stats(spanish, language="Spanish", sentencizer="es")
    assert free["chance_corrected"]["position_rank"]["mean"] == pytest.approx(500 / 9)
    assert "chance_corrected" not in free[NOT_COMPUTED]["sections"]
    results = {r.rule.id: r for r in evaluate_rules(load_rules(), free)}
    # the rule runs on the sentencizer's rank; 3 questions are too few to tell (issue 44: its interval holds the threshold)
    assert results["answer-position"].status == "unsure" and results["answer-position"].value == pytest.approx(500 / 9)
    disagrees = LanguageMsg.RANK_DISAGREES.format(language="Spanish")
    assert results["similarity-rank"].status == results["keyword-rank"].status == "skip"
    assert results["similarity-rank"].reason == results["keyword-rank"].reason == disagrees
    assert results["question-type-balance"].reason == LanguageMsg.RULE_NEEDS_ENGLISH.format(language="Spanish")
    assert not any(r.status == "fail" for r in results.values())
    text = format_language_free(free)
    assert "position_rank (percentile rank of the answer sentence" in text and "mean 55.6 (n = 3)" in text
    assert "chance_corrected.similarity_rank, chance_corrected.keyword_rank" in text
    # without the sentencizer (Thai, Chinese ...): no rank at all
    plain = language_free_stats(spanish, language="Thai")
    assert "chance_corrected" not in plain and "chance_corrected" in plain[NOT_COMPUTED]["sections"]


def test_the_languages_and_figures_are_those_the_language_check_names():
    from mrclens.languages import SENTENCIZER, SENTENCIZER_FIGURES

    assert tuple(SENTENCIZER.values()) == LANGUAGES
    assert SENTENCIZER_FIGURES == tuple(f"chance_corrected.{name}" for name in FIGURES)


def test_xquad_position_rank_agrees_with_english(xquad_path):
    """The measurement that enables the rank (BENCHMARKS.md) still holds: within RANK_MARGIN of the
    English originals' 57.0 (SQuAD v1.1 dev cut to XQuAD's ids, the English path)."""
    from mrclens.scoring.model_free import RANK_MARGIN

    lang = xquad_path.name.split(".")[1]
    if lang not in LANGUAGES:
        pytest.skip(f"{lang}: no sentencizer path")
    value = sentencizer_section(load_dataset(xquad_path), lang)["position_rank"]["mean"]
    assert abs(value - 57.0) <= RANK_MARGIN
