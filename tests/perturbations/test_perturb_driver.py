"""perturb_dataset: files, manifest, byte-identical reruns, odd items, real data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mrclens.errors import DataError, MRCLensError
from mrclens.parsing import parse_texts
from mrclens.perturbations import ABLATIONS, perturb_dataset
from mrclens.perturbations.base import answer_spans, non_answer_units
from mrclens.perturbations.files import summary_lines
from mrclens.formats import load_dataset
from mrclens.squad import Answer, Article, Dataset, Paragraph, Question, write_dataset
from mrclens.units import sentence_units

ALL_FILES = {"original.json", "original-truncated.json", "manifest.json"} | {f"{a}.json" for a in ABLATIONS}


def _small(sample_path, tmp_path, n_articles=2) -> Path:
    ds = load_dataset(sample_path)
    small = Dataset(ds.articles[:n_articles], ds.version)
    path = tmp_path / "small.json"
    write_dataset(small, path)
    return path


def _assert_offsets_exact(path: Path) -> int:
    data = json.loads(path.read_text(encoding="utf-8"))
    n = 0
    for article in data["data"]:
        for p in article["paragraphs"]:
            for q in p["qas"]:
                for a in q["answers"]:
                    assert p["context"][a["answer_start"] : a["answer_start"] + len(a["text"])] == a["text"], (path.name, q["id"])
                    n += 1
    return n


def _ids(path: Path) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [q["id"] for a in data["data"] for p in a["paragraphs"] for q in p["qas"]]


@pytest.mark.slow
def test_files_manifest_and_byte_identical_rerun(sample_path, tmp_path):
    src = _small(sample_path, tmp_path)
    m1 = perturb_dataset(src, tmp_path / "a", cache_dir=tmp_path / "c1", progress=False, formats=("json", "jsonl")).to_json()
    perturb_dataset(src, tmp_path / "b", cache_dir=tmp_path / "c2", progress=False, formats=("json", "jsonl"))  # cold cache again
    perturb_dataset(src, tmp_path / "w", cache_dir=tmp_path / "c1", progress=False, formats=("json", "jsonl"))  # warm cache
    names = {p.name for p in (tmp_path / "a").iterdir()}
    assert names == ALL_FILES | {n.replace(".json", ".jsonl") for n in ALL_FILES - {"manifest.json"}}
    for name in names:
        data = (tmp_path / "a" / name).read_bytes()
        assert data == (tmp_path / "b" / name).read_bytes() == (tmp_path / "w" / name).read_bytes(), name

    full_ids = _ids(tmp_path / "a" / "original.json")
    trunc_ids = _ids(tmp_path / "a" / "original-truncated.json")
    assert full_ids == _ids(src) and set(trunc_ids) < set(full_ids)
    assert m1["sets"]["original"]["n"] == len(full_ids)
    t = m1["sets"]["original-truncated"]
    assert t["n"] == len(trunc_ids) and t["n"] + sum(t["dropped"].values()) == t["paragraphs_total"]
    assert m1["source"]["sha256"] and m1["seed"] == 0 and "senter" in m1["pipeline"] and "tagger" in m1["pipeline"]
    for aid, a in m1["ablations"].items():
        ids = _ids(tmp_path / "a" / a["file"])
        assert ids == (full_ids if a["eval_set"] == "full" else trunc_ids)
        assert a["baseline_set"] == {"full": "original", "truncated": "original-truncated"}[a["eval_set"]]
        assert list(a["items"]) == ids and a["n"] == len(ids)
        assert a["changed"] + sum(a["unchanged"].values()) == a["n"]
        assert a["changed"] == sum(r["changed"] for r in a["items"].values()) > 0
        assert {r["reason"] for r in a["items"].values() if not r["changed"]} == set(a["unchanged"])
        _assert_offsets_exact(tmp_path / "a" / a["file"])
    assert json.loads((tmp_path / "a" / "manifest.json").read_text()) == m1

    # the jsonl twin is the same data in the Hugging Face flat form
    lines = [json.loads(x) for x in (tmp_path / "a" / "e1.jsonl").read_text(encoding="utf-8").splitlines()]
    squad = json.loads((tmp_path / "a" / "e1.json").read_text(encoding="utf-8"))
    flat = [(q["id"], a["title"], p["context"], q["question"], [x["text"] for x in q["answers"]], [x["answer_start"] for x in q["answers"]])
            for a in squad["data"] for p in a["paragraphs"] for q in p["qas"]]
    assert [(r["id"], r["title"], r["context"], r["question"], r["answers"]["text"], r["answers"]["answer_start"]) for r in lines] == flat


def test_seed_changes_random_ablations_only(sample_path, tmp_path):
    src = _small(sample_path, tmp_path, 1)
    perturb_dataset(src, tmp_path / "s0", ablations="e1,e3,e4", cache_dir=tmp_path / "c", progress=False)
    m = perturb_dataset(src, tmp_path / "s1", ablations=["e4", "e3", "e1"], seed=1, cache_dir=tmp_path / "c", progress=False).to_json()
    assert list(m["ablations"]) == ["e1", "c1", "e3", "e4", "c4"]  # e1 and e4 bring their control / reference
    assert not (tmp_path / "s1" / "e2.json").exists()
    for name, same in [("e1.json", False), ("e3.json", False), ("e4.json", True), ("original.json", True)]:
        assert ((tmp_path / "s0" / name).read_bytes() == (tmp_path / "s1" / name).read_bytes()) is same, name


def _qualifying(full, parses) -> list[list[str]]:
    """Per paragraph, the ids of its questions with a non-answer sentence unit, in file order."""
    return [[q.id for q in p.questions if non_answer_units(sentence_units(p.context, parses[p.context], answer_spans(q)), q)]
            for _, p in full.iter_paragraphs()]


def test_truncated_set_first_rule_keeps_first_question_with_a_non_answer_unit(sample_path, tmp_path):
    src = _small(sample_path, tmp_path, 1)
    full = load_dataset(src)
    m = perturb_dataset(src, tmp_path / "o", ablations="e4", cache_dir=tmp_path / "c", progress=False, truncation="first")
    kept = _ids(tmp_path / "o" / "original-truncated.json")
    parses = dict(zip([p.context for _, p in full.iter_paragraphs()],
                      parse_texts([p.context for _, p in full.iter_paragraphs()], sentences=True, cache_dir=tmp_path / "c")))
    expected = [ids[0] for ids in _qualifying(full, parses) if ids]
    assert kept == expected and len(kept) > 10
    assert m.sets["original-truncated"].rule == "first"
    data = json.loads((tmp_path / "o" / "original-truncated.json").read_text())
    assert all(len(p["qas"]) == 1 for a in data["data"] for p in a["paragraphs"])


def test_truncated_set_random_rule_draws_a_qualifying_question_per_paragraph(sample_path, tmp_path):
    """The default rule (issue 41, part 3): one qualifying question per paragraph, drawn with the seed, the
    same in every draw of the perturbations; on SQuAD its kept answers sit less often in the first sentence
    unit than the paragraphs' first questions' do (the layout artefact the rule removes)."""
    src = _small(sample_path, tmp_path, 3)
    full = load_dataset(src)
    parses = dict(zip([p.context for _, p in full.iter_paragraphs()],
                      parse_texts([p.context for _, p in full.iter_paragraphs()], sentences=True, cache_dir=tmp_path / "c")))
    qualifying = [ids for ids in _qualifying(full, parses) if ids]
    runs = {}
    for name, seed, draw in [("s0", 0, 0), ("s0-draw1", 0, 1), ("s1", 1, 0)]:
        m = perturb_dataset(src, tmp_path / name, ablations="e9", seed=seed, draw=draw, cache_dir=tmp_path / "c",
                            progress=False)
        assert m.sets["original-truncated"].rule == "random"
        runs[name] = _ids(tmp_path / name / "original-truncated.json")
    assert len(runs["s0"]) == len(qualifying)
    assert all(kept in ids for kept, ids in zip(runs["s0"], qualifying))
    assert runs["s0"] == runs["s0-draw1"]  # a draw re-perturbs the same truncated set
    several = [i for i, ids in enumerate(qualifying) if len(ids) > 1]
    assert len(several) > 20
    assert sum(runs["s0"][i] != runs["s1"][i] for i in several) > len(several) / 3  # another seed, other questions
    assert sum(runs["s0"][i] != qualifying[i][0] for i in several) > len(several) / 3

    by_id = {q.id: (p, q) for _, p, q in full.iter_questions()}

    def first_unit_share(ids):
        hits = 0
        for qid in ids:
            p, q = by_id[qid]
            first_end = sentence_units(p.context, parses[p.context], answer_spans(q))[0][1]
            hits += q.answers[0].answer_start < first_end
        return hits / len(ids)

    assert first_unit_share(runs["s0"]) < first_unit_share([ids[0] for ids in qualifying]) - 0.05


def test_truncated_set_every_rule_keeps_each_qualifying_question_alone_in_a_copy_of_its_paragraph(sample_path, tmp_path):
    """The quick profile's rule (issue 41): every qualifying question, in file order, each in its own copy of
    its paragraph, whatever the seed; e9 on it changes each copy's sentence order by the copy's own question,
    and no question reads text inserted for another."""
    src = _small(sample_path, tmp_path, 1)
    full = load_dataset(src)
    parses = dict(zip([p.context for _, p in full.iter_paragraphs()],
                      parse_texts([p.context for _, p in full.iter_paragraphs()], sentences=True, cache_dir=tmp_path / "c")))
    qualifying = _qualifying(full, parses)
    runs = {}
    for name, seed in [("s0", 0), ("s1", 1)]:
        m = perturb_dataset(src, tmp_path / name, ablations="e1,e9", seed=seed, cache_dir=tmp_path / "c",
                            progress=False, truncation="every")
        t = m.sets["original-truncated"]
        assert t.rule == "every" and t.n == sum(map(len, qualifying))
        assert t.paragraphs_total == len(qualifying) and sum(t.dropped.values()) == sum(not ids for ids in qualifying)
        runs[name] = _ids(tmp_path / name / "original-truncated.json")
    assert f"original-truncated: {t.n:,} questions (every qualifying question, each in its own copy of its paragraph; " \
           f"{t.paragraphs_total:,} paragraphs" in summary_lines(m)[1]
    assert runs["s0"] == runs["s1"] == [qid for ids in qualifying for qid in ids]
    assert sum(len(ids) > 1 for ids in qualifying) > 20  # the set is several times one question per paragraph
    data = json.loads((tmp_path / "s0" / "original-truncated.json").read_text())
    contexts = {q.id: p.context for _, p, q in full.iter_questions()}
    assert all(len(p["qas"]) == 1 and p["context"] == contexts[p["qas"][0]["id"]]
               for a in data["data"] for p in a["paragraphs"])
    for aid in ("e1", "c1", "e9"):
        _assert_offsets_exact(tmp_path / "s0" / f"{aid}.json")
        perturbed = json.loads((tmp_path / "s0" / f"{aid}.json").read_text())
        assert all(len(p["qas"]) == 1 for a in perturbed["data"] for p in a["paragraphs"])
        assert _ids(tmp_path / "s0" / f"{aid}.json") == runs["s0"]


def test_unknown_truncation_rule_is_refused_before_writing(sample_path, tmp_path):
    with pytest.raises(MRCLensError, match="truncation must be one of random, every, first"):
        perturb_dataset(_small(sample_path, tmp_path, 1), tmp_path / "o", truncation="last", progress=False)
    assert not (tmp_path / "o").exists()


def _odd_dataset() -> Dataset:
    q = lambda qid, text, answers: Question(qid, text, [Answer(t, s) for t, s in answers])  # noqa: E731
    return Dataset([Article("Odd", [
        Paragraph("Paris", [q("one-word", "What city?", [("Paris", 0)])]),
        Paragraph("Paris is old. It is big.", [q("whole", "What is it?", [("Paris is old. It is big.", 0)]),
                                                q("punct-only", "?", [("Paris", 0)])]),
        Paragraph("Rome is old. It is big. It has hills.", [q("offset0", "Which city is old?", [("Rome", 0)])]),
    ])], "1.1")


def test_odd_items_are_marked_unchanged_not_crashing(tmp_path):
    m = perturb_dataset(_odd_dataset(), tmp_path / "o", cache_dir=tmp_path / "c", progress=False).to_json()
    t = m["sets"]["original-truncated"]
    assert t["paragraphs_total"] == 3 and t["dropped"] == {"single_sentence": 1}
    assert _ids(tmp_path / "o" / "original-truncated.json") == ["punct-only", "offset0"]
    e = m["ablations"]
    assert e["e3"]["items"]["one-word"] == {"changed": False, "reason": "single_unit", "detail": {}}
    assert e["e3"]["items"]["whole"]["reason"] == "single_unit"  # the answer merges both sentences
    assert e["e3"]["items"]["offset0"]["changed"] is True
    assert e["e4"]["items"]["punct-only"]["reason"] == "no_interrogative_word"
    assert e["e5"]["items"]["punct-only"]["reason"] == "fewer_than_two_distinct_words"
    assert e["e1"]["items"]["punct-only"]["reason"] == "empty_question"
    assert e["e1"]["items"]["offset0"]["changed"] is True
    for aid in ABLATIONS:
        _assert_offsets_exact(tmp_path / "o" / f"{aid}.json")


def test_bad_input_and_options(tmp_path, sample_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"data": [{"title": "T", "paragraphs": [{"context": "abc", "qas": [{"id": "x", "question": "q?", '
                   '"answers": [{"text": "zz", "answer_start": 0}]}]}]}]}')
    with pytest.raises(DataError, match="question x"):
        perturb_dataset(bad, tmp_path / "o", progress=False, cache_dir=tmp_path / "c")
    with pytest.raises(MRCLensError, match="unknown ablation.*e99"):
        perturb_dataset(sample_path, tmp_path / "o", ablations="e1,e99", progress=False)
    with pytest.raises(MRCLensError, match="formats"):
        perturb_dataset(sample_path, tmp_path / "o", formats=("csv",), progress=False)
    # the input is never overwritten, even when it has an output's name
    src = tmp_path / "in" / "original.json"
    write_dataset(_odd_dataset(), src)
    before = src.read_bytes()
    with pytest.raises(MRCLensError, match="is not empty and does not hold an earlier output"):
        perturb_dataset(src, src.parent, ablations="e4", progress=False, cache_dir=tmp_path / "c")
    assert src.read_bytes() == before
    with pytest.raises(MRCLensError, match="refusing to overwrite"):  # not even with force
        perturb_dataset(src, src.parent, ablations="e4", progress=False, cache_dir=tmp_path / "c", force=True)
    assert src.read_bytes() == before
    assert sorted(p.name for p in src.parent.iterdir()) == ["original.json"]  # nothing else was moved in


@pytest.mark.slow
def test_real_dev_slice_every_offset_exact(squad_dev_path, tmp_path):
    ds = load_dataset(squad_dev_path)
    m = perturb_dataset(Dataset(ds.articles[:3], ds.version), tmp_path / "o", cache_dir=tmp_path / "c", progress=False).to_json()
    n_answers = 0
    for name in ["original.json", "original-truncated.json"] + [f"{a}.json" for a in ABLATIONS]:
        n_answers += _assert_offsets_exact(tmp_path / "o" / name)
    assert n_answers > 3000
    assert m["sets"]["original"]["n"] == sum(len(p.questions) for a in ds.articles[:3] for p in a.paragraphs)
    for aid in ("e1", "e2", "e3", "e4", "e5", "e6"):
        assert m["ablations"][aid]["changed"] >= 0.9 * m["ablations"][aid]["n"], aid
