"""The shipped IDF (issue 54, part 1): a question's similarity figures depend on its own paragraph and the shipped
word weights, never on the other questions of its file, so the same questions filed differently (more files,
other article grouping, one question per paragraph) give the same verdict figures."""

from __future__ import annotations

import gzip
import json
import math

import pytest

from mrclens.audit.span import SAMPLE_PATH
from mrclens.formats import load_dataset
from mrclens.squad import Article, Dataset, Paragraph
from mrclens.stats import compute_stats, compute_stats_per_article
from mrclens.stats.idf import IDF_PATH, IdfTable, read_idf_table, shipped_idf_table, write_idf_table
from mrclens.stats.similarity import most_similar_units

VERDICT = ("chance_corrected.shared_ngram_top", "chance_corrected.keyword_window_top", "chance_corrected.position_rank",
           "chance_corrected.set_apart_top", "chance_corrected.similarity_top", "chance_corrected.keyword_top")
# the verdict figures, then the top-1 shares


def _figure(stats, path):
    node = stats
    for key in path.split("."):
        node = node[key]
    return node


@pytest.fixture(scope="module")
def sample_part():
    data = load_dataset(SAMPLE_PATH)
    return Dataset(data.articles[:6], data.version)


def test_the_shipped_table_is_squad_without_the_bundled_sample():
    table = shipped_idf_table()
    assert table.documents > 80_000 and len(table.df) > 50_000
    assert table.provenance["excluded"]["articles"] == 40
    sample_titles = {a.title for a in load_dataset(SAMPLE_PATH).articles}
    assert table.provenance["articles"] == 490 - len(sample_titles)
    # a function word is in most units' company, a rare name in few: weights ordered so
    the, name, unseen = table.weights(["the", "beyoncé", "zzqxw"])
    assert 1.0 <= the < 2.5 < name < unseen == pytest.approx(math.log(1 + table.documents) + 1)


def test_another_language_is_weighted_by_its_own_units():
    own = IdfTable.of_units("own", ["der", "zugspitze"], [50, 1], 100)
    frequent, rare = own.weights(["der", "zugspitze"])
    assert frequent == pytest.approx(math.log(101 / 51) + 1) and rare > frequent
    with pytest.raises(ValueError):
        IdfTable.of_units("own", ["a"], [1, 2], 3)


def test_the_table_round_trips_and_refuses_another_file(tmp_path):
    out = tmp_path / "idf.json.gz"
    table = write_idf_table("toy", ["The cat sat.", "The cat sat.", "A dog ran."], out, {"source": "toy"})
    assert table.documents == 2 and table.df["cat"] == 1 and table.df["the"] == 1  # a repeated unit counts once
    back = read_idf_table(out)
    assert back.df == table.df and back.documents == 2 and back.provenance == {"source": "toy"}
    bad = tmp_path / "bad.json.gz"
    bad.write_bytes(gzip.compress(json.dumps({"format_version": 99}).encode()))
    with pytest.raises(ValueError, match="bad.json.gz"):
        read_idf_table(bad)
    assert IDF_PATH.name.endswith(".json.gz")


def test_a_question_reads_the_same_whatever_else_is_in_its_file():
    units = [["The cat slept on the mat.", "The dog ran in the park."]]
    alone = most_similar_units(["Where did the cat sleep?"], [0], units)
    crowded = most_similar_units(["Where did the cat sleep?", "Which dog?"], [0, 1],
                                 units + [["The dog ran.", "The dog ran again."]] * 30)
    assert alone[0][0] == crowded[0][0] == 0 and alone[1][0] == pytest.approx(crowded[1][0])


@pytest.mark.slow
def test_articles_filed_apart_pool_to_the_figures_of_the_file(sample_part):
    whole = compute_stats(sample_part, cache_dir=False, progress=False)
    parts = compute_stats_per_article(sample_part, False)
    for path in VERDICT:
        pooled = sum(_figure(s, path)["mean"] * _figure(s, path)["n"] for s in parts) / sum(
            _figure(s, path)["n"] for s in parts)
        assert pooled == pytest.approx(_figure(whole, path)["mean"], abs=1e-9), path


@pytest.mark.slow
def test_one_question_per_paragraph_reads_as_the_natural_paragraphs(sample_part):
    natural = compute_stats(sample_part, cache_dir=False, progress=False)
    single = Dataset([Article(a.title, [Paragraph(p.context, [q]) for p in a.paragraphs for q in p.questions])
                      for a in sample_part.articles], sample_part.version)
    regrouped = compute_stats(single, cache_dir=False, progress=False)
    for path in VERDICT:
        mine, theirs = _figure(regrouped, path), _figure(natural, path)
        se = theirs["std"] / math.sqrt(theirs["n"])
        assert abs(mine["mean"] - theirs["mean"]) < se / 4, path
