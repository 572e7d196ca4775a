"""`mrclens compare` says when its inputs share questions or contexts (issue 34): an XQuAD-like subset of
the bundled sample against the sample (in another format), unrelated slices, and the real XQuAD against
SQuAD v1.1 dev when ../shared/data is there."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mrclens.artifacts.comparison import Comparison, Overlap, read_comparison
from mrclens.cli import main
from mrclens.compare import compare, format_comparison
from mrclens.compare.overlap import OVERLAP_NOTE, find_overlaps, question_keys
from mrclens.compare.sources import source_from_stats
from mrclens.formats import load_dataset, write
from mrclens.reports.compare import render_comparison
from mrclens.squad import Article, Dataset, Paragraph, write_dataset


def _subset(ds: Dataset, keep_ids: set[str]) -> Dataset:
    """The paragraphs holding ``keep_ids``, with only those questions: how XQuAD was cut from SQuAD dev."""
    articles = []
    for a in ds.articles:
        paragraphs = [Paragraph(p.context, [q for q in p.questions if q.id in keep_ids]) for p in a.paragraphs]
        paragraphs = [p for p in paragraphs if p.questions]
        if paragraphs:
            articles.append(Article(a.title, paragraphs))
    return Dataset(articles, ds.version)


@pytest.fixture(scope="module")
def sample_slices(sample_path, tmp_path_factory):
    """Articles 0-2 of the bundled sample (SQuAD JSON); an XQuAD-like subset of them (every other paragraph
    of articles 0-1, the first two questions of each; flat JSON Lines); articles 3-4 (unrelated)."""
    root = tmp_path_factory.mktemp("overlap")
    ds = load_dataset(sample_path)
    full = Dataset(ds.articles[:3], ds.version)
    keep = {q.id for a in full.articles[:2] for p in a.paragraphs[::2] for q in p.questions[:2]}
    paths = (write_dataset(full, root / "sample3.json"), write(_subset(full, keep), root / "xq.jsonl", "jsonl"),
             write_dataset(Dataset(ds.articles[3:5], ds.version), root / "other.json"))
    return root, full, keep, paths


@pytest.mark.slow
def test_a_subset_in_another_format_is_found_and_said_beside_the_figures(sample_slices, tmp_path, monkeypatch):
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path / "cache"))
    root, full, keep, (first, subset, other) = sample_slices
    c = compare([first, subset, other], n_resamples=200)
    n_contexts = len({p.context for a in full.articles[:2] for p in a.paragraphs[::2]})
    full_ids, full_contexts = question_keys(full)
    assert c.overlaps == [
        Overlap("xq", "sample3", "subset", len(keep), len(full_ids), len(keep), n_contexts, len(full_contexts), n_contexts),
        Overlap("other", "sample3", "none", c.inputs[2].questions, len(full_ids), 0, c.overlaps[1].contexts,
                len(full_contexts), 0),
    ]
    sentence = (f"xq vs sample3: xq is a subset of sample3: all {len(keep):,} question ids of xq are in sample3 "
                f"({100 * len(keep) / len(full_ids):.1f}% of its {len(full_ids):,}); all {n_contexts} contexts of xq are "
                f"in sample3")
    assert c.overlaps[0].sentence().startswith(sentence)
    assert c.overlaps[1].sentence() == "other vs sample3: no question id or context in common."
    assert OVERLAP_NOTE in c.notes
    text = format_comparison(c)
    assert "Overlap (question ids, exact contexts):" in text and sentence in text
    assert text.index(sentence) < text.index("question length (words)")  # beside the figures, before the table
    page = render_comparison(c)
    assert "Shared questions and contexts" in page and "xq is a subset of sample3" in page
    obj = c.to_json()
    assert obj["overlaps"][0]["relation"] == "subset" and obj["overlaps"][0]["sentence"].startswith(sentence)
    assert Comparison.from_json(obj, "comparison.json").overlaps == c.overlaps


@pytest.mark.slow
def test_the_cli_says_so_in_its_text_json_and_page(sample_slices, tmp_path, monkeypatch):
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path / "cache"))
    root, full, keep, (first, subset, _) = sample_slices
    runner = CliRunner()
    res = runner.invoke(main, ["compare", str(first), str(subset), "--resamples", "200", "-q"])
    assert res.exit_code == 0, res.output
    assert "xq vs sample3: xq is a subset of sample3" in res.output
    res = runner.invoke(main, ["compare", str(first), str(subset), "--resamples", "200", "--json", "-q"])
    assert json.loads(res.stdout)["overlaps"][0]["shared_questions"] == len(keep)
    res = runner.invoke(main, ["compare", str(subset), str(subset), "--names", "a,b", "--resamples", "200",
                               "--out", str(tmp_path / "out"), "-q"])
    assert res.exit_code == 0, res.output
    assert read_comparison(tmp_path / "out").overlaps[0].relation == "same"
    assert "b vs a: b and a hold the same questions" in (tmp_path / "out" / "comparison.html").read_text()


def test_stats_only_inputs_have_no_questions_to_compare():
    a = source_from_stats({"similarity": {"answer_in_most_similar_sentence_pct": 80.0, "n": 100}}, "A")
    b = source_from_stats({"similarity": {"answer_in_most_similar_sentence_pct": 70.0, "n": 100}}, "B")
    assert find_overlaps([a, b]) == []


def test_real_xquad_against_squad_dev(squad_dev_path, tmp_path):
    """XQuAD (Artetxe et al. 2020) is 240 paragraphs and 1,190 questions of SQuAD v1.1 dev: XQuAD en has dev's
    contexts and ids; the other languages keep the ids and translate the contexts."""
    xquad_es = squad_dev_path.parents[1] / "xquad" / "xquad.es.json.gz"
    if not xquad_es.exists():
        pytest.skip(f"real data not available: {xquad_es}")
    dev, es = load_dataset(squad_dev_path), load_dataset(xquad_es)
    xquad_ids = question_keys(es)[0]
    en = _subset(dev, set(xquad_ids))  # XQuAD en as it was cut from dev

    def source(name, ds):
        src = source_from_stats({}, name)
        src.question_ids, src.contexts = question_keys(ds)
        return src

    dev_src = source("dev-v1.1", dev)
    en_overlap, es_overlap = find_overlaps([dev_src, source("xquad.en", en), source("xquad.es", es)])
    assert (en_overlap.relation, en_overlap.shared_questions, en_overlap.shared_contexts) == ("subset", 1_190, 240)
    assert (en_overlap.against_questions, en_overlap.against_contexts) == (10_570, 2_067)
    assert (es_overlap.relation, es_overlap.shared_questions, es_overlap.shared_contexts) == ("subset", 1_190, 0)
    assert es_overlap.sentence() == ("xquad.es vs dev-v1.1: all 1,190 question ids of xquad.es are in dev-v1.1 (11.3% of "
                                     "its 10,570), with other contexts (0 of 240 shared): the same questions translated "
                                     "or edited?")
