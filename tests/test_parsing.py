"""mrclens.parsing: spaCy parses once per distinct text, cached on disk by content and pipeline."""

from __future__ import annotations

import pickle

import pytest

import mrclens.parsing as parsing
from mrclens.parsing import ParsedText, default_cache_dir, parse_texts


def test_sentences_and_tokens(tmp_path):
    text = "Hello there. I am here."
    (p,) = parse_texts([text], sentences=True, cache_dir=tmp_path)
    assert p.token_texts() == ["Hello", "there", ".", "I", "am", "here", "."]
    assert p.starts == [0, 6, 11, 13, 15, 18, 22] and p.ends == [5, 11, 12, 14, 17, 22, 23]
    assert p.sent_starts == [0, 13]
    assert p.pos is None and p.tags is None and p.ents is None


def test_pos_of_a_question(tmp_path):
    (p,) = parse_texts(["What is the capital of France?"], pos=True, cache_dir=tmp_path)
    assert p.pos == ["PRON", "AUX", "DET", "NOUN", "ADP", "PROPN", "PUNCT"]
    assert p.tags == ["WP", "VBZ", "DT", "NN", "IN", "NNP", "."]
    assert p.sent_starts is None


def test_entities(tmp_path):
    (p,) = parse_texts(["Barack Obama visited Paris in 2009."], entities=True, cache_dir=tmp_path)
    assert ("Barack Obama", "PERSON") in [(p.text[s:e], label) for s, e, label in p.ents]


def test_duplicates_parsed_once_and_order_kept(tmp_path, monkeypatch):
    seen = []
    real = parsing.load_pipeline

    class Spy:
        def __init__(self, nlp):
            self.nlp = nlp

        def pipe(self, texts, **kw):
            texts = list(texts)
            seen.extend(texts)
            return self.nlp.pipe(texts, **kw)

    monkeypatch.setattr(parsing, "load_pipeline", lambda **kw: Spy(real(**kw)))
    monkeypatch.setattr(parsing, "pipeline_fingerprint", lambda nlp: "spy")
    out = parse_texts(["b c.", "a.", "b c.", "a."], cache_dir=False)
    assert sorted(seen) == ["a.", "b c."]
    assert [p.text for p in out] == ["b c.", "a.", "b c.", "a."] and out[0] is out[2]


def test_warm_cache_needs_no_spacy(tmp_path, monkeypatch):
    texts = ["One sentence. Another one.", "Third text here."]
    cold = parse_texts(texts, sentences=True, cache_dir=tmp_path)

    def boom(**kw):
        raise AssertionError("spaCy must not be loaded on a warm cache")

    monkeypatch.setattr(parsing, "load_pipeline", boom)
    warm = parse_texts(list(reversed(texts)), sentences=True, cache_dir=tmp_path)
    assert warm == list(reversed(cold))
    with pytest.raises(AssertionError, match="warm cache"):  # other annotations are other entries
        parse_texts(texts, pos=True, cache_dir=tmp_path)


def test_cache_key_includes_pipeline_fingerprint(tmp_path, monkeypatch):
    parse_texts(["A text."], cache_dir=tmp_path)
    cache = parsing._Cache(tmp_path)
    n_before = cache.con.execute("SELECT COUNT(*) FROM parses").fetchone()[0]
    # a different spaCy / model version is a different fingerprint: the old parse is not used
    cache.con.execute("UPDATE fingerprints SET value = value || ';other-version'")
    cache.con.commit()
    cache.close()
    parse_texts(["A text."], cache_dir=tmp_path)
    cache = parsing._Cache(tmp_path)
    assert cache.con.execute("SELECT COUNT(*) FROM parses").fetchone()[0] == n_before + 1
    cache.close()


def test_damaged_entry_is_parsed_again(tmp_path):
    (good,) = parse_texts(["Damaged entry test."], cache_dir=tmp_path)
    cache = parsing._Cache(tmp_path)
    cache.con.execute("UPDATE parses SET value = ?", (b"not a pickle",))
    cache.con.commit()
    cache.close()
    assert parse_texts(["Damaged entry test."], cache_dir=tmp_path) == [good]


def test_default_cache_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path / "x"))
    assert default_cache_dir() == tmp_path / "x"
    monkeypatch.delenv("MRCLENS_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert default_cache_dir().parts[-2:] == (".cache", "mrclens")


def test_parsed_text_is_picklable():
    p = ParsedText("a b", [0, 2], [1, 3], ["X", "X"], ["X", "X"], [0], [])
    assert pickle.loads(pickle.dumps(p)) == p and len(p) == 2


def test_the_parse_cache_stays_under_its_cap(tmp_path, monkeypatch):
    """Issue 44, item 6: the parse cache grew without bound. With $MRCLENS_PARSE_CACHE_MAX the oldest parses
    are removed after each write; what was removed is parsed again when needed."""
    from mrclens.diskcache import DiskCache, cache_files

    monkeypatch.setenv("MRCLENS_PARSE_CACHE_MAX", "96KiB")
    old = [f"Sentence number {i} is about the old city of Rome and its river. It has two sentences." for i in range(300)]
    new = [f"Sentence number {i} is about the new harbour of Oslo and its ships. It also has two." for i in range(300)]
    parse_texts(old, sentences=True, cache_dir=tmp_path)
    parse_texts(new, sentences=True, cache_dir=tmp_path)
    [parses] = cache_files(tmp_path)
    assert parses.name == "parses" and 0 < parses.entries["parses"] < 600
    cache = DiskCache(parses.path, tables=("parses",))
    try:
        assert cache.used_bytes() <= 96 * 1024
    finally:
        cache.close()
    again = parse_texts(old[:3], sentences=True, cache_dir=tmp_path)  # evicted: parsed again, same result
    assert again == parse_texts(old[:3], sentences=True, cache_dir=False)


def test_a_context_longer_than_spacy_s_limit_is_refused_with_exit_2_not_parsed(tmp_path):
    """Issue 55, item 9: a context over 1,000,000 characters (spaCy's nlp.max_length) made check, stats and
    perturb exit 3. A real SQuAD context repeated to 1.1 million characters is refused (exit 2) before any parse,
    cached or not, naming its length and its start."""
    import gzip
    import json

    from click.testing import CliRunner

    from mrclens.cli import main
    from mrclens.errors import MRCLensError
    from mrclens.nlp import MAX_TEXT_CHARS
    from tests.conftest import SAMPLE

    article = json.loads(gzip.decompress(SAMPLE.read_bytes()))["data"][0]
    para = article["paragraphs"][0]
    context = " ".join([para["context"]] * (1_100_000 // len(para["context"]) + 1))
    assert len(context) > MAX_TEXT_CHARS
    with pytest.raises(MRCLensError, match=r"a text of 1,1\d\d,\d{3} characters .* 'The exact nature"):
        parse_texts(["A short one.", context], sentences=True, cache_dir=tmp_path)
    data = tmp_path / "long.json"
    data.write_text(json.dumps({"version": "1.1", "data": [{"title": article["title"], "paragraphs": [
        {"context": context, "qas": para["qas"]}]}]}), encoding="utf-8")
    # every command refuses it before any work, naming the file, the article and the paragraph; validate too
    for args in (["stats", str(data)], ["check", str(data)], ["perturb", str(data), "--out", str(tmp_path / "p")]):
        res = CliRunner().invoke(main, args + ["--cache-dir", str(tmp_path / "cache")])
        assert res.exit_code == 2 and "more than MRCLens parses (1,000,000" in res.output, (args, res.output)
        assert str(data) in res.output and article["title"] in res.output and "paragraph #0" in res.output
        assert not (tmp_path / "p").exists()
    res = CliRunner().invoke(main, ["validate", str(data)])
    assert res.exit_code != 0 and "paragraph #0: the context holds" in res.output, res.output
