"""Property-based tests (hypothesis): the answer-offset invariant over random contexts, questions and answers."""

from __future__ import annotations
import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from mrclens.perturbations.ablations.e10_decoy_statement import HEAD_NOUN_TYPES, WH_TYPES, DecoyPool
from mrclens.perturbations.base import check_answers, insert_text, make_rng
from mrclens.perturbations.registry import ABLATIONS
from mrclens.squad import Answer, Paragraph, Question
from mrclens.units import answer_unit_indices, sentence_units
from perturb_helpers import hand_parse

WORDS = ["Paris", "é", "Zürich", "中文", "🙂", "naïve", "a", "the", "Köln", "x1", "ß", "Ω", "what", "who", "did", "how", "many"]
SETTINGS = settings(max_examples=150, deadline=None)


@st.composite
def paragraphs(draw):
    """A context of 1-5 sentences of random (partly non-ASCII) words, and 1-3 answers (random token spans)."""
    sentences = []
    for _ in range(draw(st.integers(1, 5))):
        words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6))
        sentences.append(" ".join(words) + draw(st.sampled_from([".", "!", "?"])))
    sep = draw(st.sampled_from([" ", "  ", "\n", " \n "]))
    context = draw(st.sampled_from(["", " "])) + sep.join(sentences)
    parse = hand_parse(context, sentences=True)
    n = len(parse.starts)
    answers = []
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, n - 1))
        j = draw(st.integers(i, min(n - 1, i + draw(st.integers(0, 8)))))
        s, e = parse.starts[i], parse.ends[j]
        answers.append(Answer(context[s:e], s))
    qwords = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6))
    qtext = " ".join(qwords) + "?"
    pos = [draw(st.sampled_from(["NOUN", "PROPN", "VERB", "ADJ", "AUX", "DET", "ADP", "ADV"])) for _ in qwords] + ["PUNCT"]
    return context, parse, Question("q", qtext, answers), pos


@SETTINGS
@given(paragraphs(), st.data())
def test_insertion_keeps_every_answer(p, data):
    context, parse, q, _ = p
    # any offset that does not fall strictly inside an answer
    allowed = [k for k in range(len(context) + 1) if not any(a.answer_start < k < a.answer_end for a in q.answers)]
    k = data.draw(st.sampled_from(allowed))
    text = data.draw(st.text(min_size=1, max_size=12))
    new = insert_text(Paragraph(context, [q]), k, text)
    assert new.context[k : k + len(text) + 1] == text + " "
    check_answers(new)
    for old, a in zip(q.answers, new.questions[0].answers):
        assert new.context[a.answer_start : a.answer_end] == old.text


@SETTINGS
@given(paragraphs())
def test_units_never_split_an_answer(p):
    context, parse, q, _ = p
    spans = [(a.answer_start, a.answer_end) for a in q.answers]
    units = sentence_units(context, parse, spans)
    assert units == sorted(units) and all(s < e for s, e in units)
    assert all(e1 <= s2 for (_, e1), (s2, _) in zip(units, units[1:]))
    for a, b in spans:
        holders = [i for i, (s, e) in enumerate(units) if s <= a and b <= e]
        assert len(holders) == 1
        assert answer_unit_indices(units, [(a, b)]) == set(holders)


@SETTINGS
@given(paragraphs(), st.sampled_from([a for a in ABLATIONS if not ABLATIONS[a].control_of]), st.integers(0, 3))  # controls: below, on real data
def test_every_ablation_keeps_offsets_exact(p, aid, seed):
    from mrclens.perturbations.base import ExampleParse

    context, parse, q, pos = p
    units = sentence_units(context, parse, [(a.answer_start, a.answer_end) for a in q.answers])
    qparse = hand_parse(q.question, pos=pos)
    par = Paragraph(context, [q])
    # e10's decoys: one of every type, from another article (the real pool is tested on the sample below)
    types = set(WH_TYPES.values()) | set(HEAD_NOUN_TYPES.values()) | {"NP"}
    decoys = DecoyPool(by_type={t: [("other", f"Decoy {t}")] for t in types}, answer_type={"q": "NP"})
    new, rec = ABLATIONS[aid].apply(par, ExampleParse(parse, {"q": qparse}, units, resources={"e10": decoys}),
                                    make_rng(seed, aid, "q"))
    check_answers(new)
    assert [a.text for a in new.questions[0].answers] == [a.text for a in q.answers]
    assert set(rec) == {"q"} and (rec["q"]["changed"] or rec["q"]["reason"])
    if rec["q"]["changed"] and "inserted" in rec["q"]["detail"]:
        d = rec["q"]["detail"]
        assert new.context == context[: d["offset"]] + d["inserted"] + " " + context[d["offset"]:]
        assert d["unit"] not in answer_unit_indices(units, [(a.answer_start, a.answer_end) for a in q.answers])
    if not rec["q"]["changed"]:
        assert new.context == context and new.questions[0].question == q.question


@pytest.mark.slow
def test_each_control_inserts_at_its_ablations_position_on_the_real_sample(sample_path, tmp_path):
    """Over real articles: every control changes exactly the questions its ablation changes, at the same
    character offset, with the same number of words, none of them a content word of the question."""
    import json
    import re

    from mrclens.perturbations import perturb_dataset
    from mrclens.perturbations.controls import content_words
    from mrclens.vocabulary import STOP_WORDS
    from mrclens.formats import load_dataset
    from mrclens.squad import Dataset

    ds = load_dataset(sample_path)
    small = Dataset(ds.articles[:6], ds.version)
    manifest = perturb_dataset(small, tmp_path / "p", cache_dir=tmp_path / "c", progress=False, seed=5)
    questions = {q.id: q.question for _, _, q in small.iter_questions()}
    stop = STOP_WORDS
    for aid, cid in (("e1", "c1"), ("e2", "c2"), ("e6", "c6"), ("e7", "c7"), ("e8", "c8")):
        a, c = manifest.ablations[aid].items, manifest.ablations[cid].items
        assert manifest.ablations[cid].control_of == aid
        changed = [q for q, r in a.items() if r["changed"]]
        assert changed and [q for q, r in c.items() if r["changed"]] == changed, cid
        for q in changed:
            da, dc = a[q]["detail"], c[q]["detail"]
            assert (dc["offset"], dc["unit"]) == (da["offset"], da["unit"])
            assert dc["replaces"] == da["inserted"] and dc["inserted"] != da["inserted"]
            if aid in ("e1", "e2"):
                assert len(re.findall(r"\w+", dc["inserted"])) == len(re.findall(r"\w+", da["inserted"]))
                assert not content_words(dc["inserted"], stop) & content_words(questions[q], stop)
            else:
                assert len(dc["inserted"].split()) == len(da["inserted"].split())
                assert not {w.lower() for w in dc["inserted"].split()} & {w.lower() for w in re.findall(r"\w+", questions[q])}
    # the control set differs from its ablation's set only in the inserted text
    e1 = json.loads((tmp_path / "p" / "e1.json").read_text())
    c1 = json.loads((tmp_path / "p" / "c1.json").read_text())
    for pa, pc in zip([p for a in e1["data"] for p in a["paragraphs"]], [p for a in c1["data"] for p in a["paragraphs"]]):
        qa, qc = pa["qas"][0], pc["qas"][0]
        rec = manifest.ablations["c1"].items[qa["id"]]
        if rec["changed"]:
            d = rec["detail"]
            assert pa["context"].replace(d["replaces"], d["inserted"], 1) == pc["context"]
            assert [x["text"] for x in qa["answers"]] == [x["text"] for x in qc["answers"]]
