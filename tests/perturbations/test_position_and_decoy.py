"""Issue 17: e9/c9 (move the answer sentence / a sentence without it) and e10/c10 (decoy statement).

Real data: the bundled SQuAD v1.1 sample, parsed with the real spaCy pipeline; hand-written
questions for the rewrite rules; hand-made paragraphs for the edge cases.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from mrclens.parsing import parse_texts
from mrclens.perturbations import perturb_dataset
from mrclens.perturbations.ablations.e9_move_answer_sentence import control_move, move_order
from mrclens.perturbations.ablations.e10_decoy_statement import DecoyPool, answer_type, inflect, rewrite
from mrclens.perturbations.base import ExampleParse, make_rng
from mrclens.perturbations.controls import InsertionPool
from mrclens.perturbations.registry import ABLATIONS
from mrclens.formats import load_dataset
from mrclens.squad import Answer, Dataset, Paragraph, Question
from mrclens.units import answer_unit_indices, sentence_units

# a module fixture of several seconds: left out of `make test`, run by `make test-slow` and CI
pytestmark = pytest.mark.slow

NEW = ("e9", "c9", "e10", "c10")


@pytest.fixture(scope="module")
def sample_run(sample_path, tmp_path_factory):
    """e9, c9, e10, c10 over 12 real articles of the bundled sample (fresh parse cache)."""
    tmp = tmp_path_factory.mktemp("issue17")
    ds = load_dataset(sample_path)
    small = Dataset(ds.articles[:12], ds.version)
    manifest = perturb_dataset(small, tmp / "p", ablations="e9,e10", cache_dir=tmp / "c", progress=False, seed=3)
    sets = {aid: json.loads((tmp / "p" / f"{aid}.json").read_text()) for aid in NEW + ("original-truncated",)}
    return small, manifest, sets


def _paragraphs(obj):
    return [p for a in obj["data"] for p in a["paragraphs"]]


@pytest.mark.slow
def test_every_answer_offset_is_exact_on_the_real_sample(sample_run):
    _, manifest, sets = sample_run
    assert list(manifest.ablations) == list(NEW)
    for aid in NEW:
        n = 0
        for p in _paragraphs(sets[aid]):
            for q in p["qas"]:
                for a in q["answers"]:
                    assert p["context"][a["answer_start"] : a["answer_start"] + len(a["text"])] == a["text"], (aid, q["id"])
                    n += 1
        assert n > 100, aid
        entry = manifest.ablations[aid]
        assert entry.changed + sum(entry.unchanged.values()) == entry.n
        assert entry.changed > 0.5 * entry.n, (aid, entry.changed, entry.n)


def test_e9_moves_the_answer_sentence_to_the_far_end(sample_run):
    _, manifest, sets = sample_run
    before = {p["qas"][0]["id"]: p for p in _paragraphs(sets["original-truncated"])}
    after = {p["qas"][0]["id"]: p for p in _paragraphs(sets["e9"])}
    parses = dict(zip([p["context"] for p in before.values()],
                      parse_texts([p["context"] for p in before.values()], sentences=True, cache_dir=False)))
    firsts = lasts = 0
    for qid, rec in manifest.ablations["e9"].items.items():
        if not rec["changed"]:
            continue
        d = rec["detail"]
        n = d["n_units"]
        if d["from"] != (n - 1) / 2:
            assert d["to"] == (n - 1 if d["from"] < (n - 1) / 2 else 0)
        assert d["order"] == move_order(n, d["from"], d["to"]) and d["order"][d["to"]] == d["unit"]
        # the new context is the units joined in the new order; the answer lies in the moved unit
        ctx = before[qid]["context"]
        spans = [(a["answer_start"], a["answer_start"] + len(a["text"])) for a in before[qid]["qas"][0]["answers"]]
        units = sentence_units(ctx, parses[ctx], spans)
        assert len(units) == n and answer_unit_indices(units, spans) == {d["unit"]}
        assert after[qid]["context"] == " ".join(ctx[units[u][0] : units[u][1]] for u in d["order"])
        firsts += d["from"] == 0
        lasts += d["from"] == n - 1
    assert firsts > 0 and lasts > 0  # answers in the first sentence went last, and the other way round


def test_c9_moves_a_non_answer_sentence_by_e9s_displacement(sample_run):
    _, manifest, _ = sample_run
    e9, c9 = manifest.ablations["e9"].items, manifest.ablations["c9"].items
    exact = 0
    for qid, rec in c9.items():
        if not e9[qid]["changed"]:
            assert not rec["changed"] and rec["reason"] == e9[qid]["reason"]
            continue
        de = e9[qid]["detail"]
        if not rec["changed"]:
            assert rec["reason"] == "no_control_move"
            # no non-answer unit can move at all in e9's direction
            assert all((de["n_units"] - 1 - j if de["displacement"] > 0 else j) == 0
                       for j in range(de["n_units"]) if j != de["unit"])
            continue
        dc = rec["detail"]
        assert dc["unit"] != de["unit"] == dc["answer_unit"]
        assert dc["ablation_displacement"] == de["displacement"]
        assert dc["displacement"] * de["displacement"] > 0 and abs(dc["displacement"]) <= abs(de["displacement"])
        # the full displacement whenever some non-answer unit can make it
        can = [j for j in range(de["n_units"]) if j != de["unit"] and 0 <= j + de["displacement"] < de["n_units"]]
        if can:
            assert dc["displacement"] == de["displacement"]
            exact += 1
        assert dc["order"] == move_order(dc["n_units"], dc["from"], dc["to"])
        assert abs(dc["answer_shift"]) <= 1
    assert exact > 0


def test_c10_inserts_at_e10s_place_with_e10s_word_count(sample_run):
    small, manifest, sets = sample_run
    e10, c10 = manifest.ablations["e10"].items, manifest.ablations["c10"].items
    changed = [q for q, r in e10.items() if r["changed"]]
    assert changed and [q for q, r in c10.items() if r["changed"]] == changed
    gold = {q.id: [a.text for a in q.answers] for _, _, q in small.iter_questions()}
    for q in changed:
        de, dc = e10[q]["detail"], c10[q]["detail"]
        assert (dc["offset"], dc["unit"]) == (de["offset"], de["unit"]) and dc["replaces"] == de["inserted"]
        assert len(re.findall(r"\w+", dc["inserted"])) == len(re.findall(r"\w+", de["inserted"]))
        assert de["decoy"].lower() in de["inserted"].lower() and de["inserted"].endswith(".")
        assert de["decoy"].lower() not in [g.lower() for g in gold[q]]
    for aid in ("e10", "c10"):
        for p_before, p_after in zip(_paragraphs(sets["original-truncated"]), _paragraphs(sets[aid])):
            rec = manifest.ablations[aid].items[p_before["qas"][0]["id"]]
            if rec["changed"]:
                d = rec["detail"]
                ctx = p_before["context"]
                assert p_after["context"] == ctx[: d["offset"]] + d["inserted"] + " " + ctx[d["offset"]:]


@pytest.mark.slow
def test_e10_is_deterministic_and_seeded(sample_run, tmp_path):
    small, manifest, _ = sample_run
    again = perturb_dataset(small, tmp_path / "p", ablations="e10", cache_dir=tmp_path / "c", progress=False, seed=3)
    assert again.ablations["e10"].items == manifest.ablations["e10"].items
    other = perturb_dataset(small, tmp_path / "q", ablations="e10", cache_dir=tmp_path / "c", progress=False, seed=4)
    assert other.ablations["e10"].items != manifest.ablations["e10"].items


@pytest.mark.parametrize("question, expected", [
    ("What year did the war end?", "The war ended in D."),
    ("When was the Eiffel Tower built?", "The Eiffel Tower was built in D."),
    ("Where is the Louvre?", "The Louvre is in D."),
    ("Where did the Normans settle?", "The Normans settled in D."),
    ("Who wrote Hamlet?", "D wrote Hamlet."),
    ("Who did Chopin marry?", "Chopin married D."),
    ("How many people live in Paris?", "D people live in Paris."),
    ("How many children did Victoria have?", "Victoria had D children."),
    ("Which team won Super Bowl 50?", "D won Super Bowl 50."),
    ("What did Tesla invent?", "Tesla invented D."),
    ("What does the Sun emit?", "The Sun emits D."),
    ("In what year did Chopin move to Paris?", "Chopin moved to Paris in D."),
    ("What city did Chopin move to?", "Chopin moved to D."),
    ("What is the capital of France?", "D is the capital of France."),
    ("Who was elected president in 1860?", "D was elected president in 1860."),
    ("According to the Constitution, what is superior to the rules of man?",
     "According to the Constitution, D is superior to the rules of man."),
    ("Poland could not defend against what?", "Poland could not defend against D."),
    ("What can the army build?", "The army can build D."),
    ("When was the FSO Car Factory founded?", "The FSO Car Factory was founded in D."),
    ("What has crime rate been shown to be correlated with?", "Crime rate has been shown to be correlated with D."),
    ("What is currently featured in the program?", "D is currently featured in the program."),
    ("What is the longest-running film program in the U.S.?", "D is the longest-running film program in the U.S."),
])
def test_decoy_rewrites_of_hand_written_questions(question, expected):
    form, reason = rewrite(parse_texts([question], pos=True, cache_dir=False)[0])
    assert reason is None and form.render("D") == expected


@pytest.mark.parametrize("question, reason", [
    ("Why did the war end?", "unsupported_wh"),
    ("How tall is the Eiffel Tower?", "unsupported_wh"),
    ("Is Paris big?", "not_wh_question"),
    ("Why didn't the army attack?", "unsupported_wh"),
])
def test_questions_without_a_rule_say_why(question, reason):
    assert rewrite(parse_texts([question], pos=True, cache_dir=False)[0]) == (None, reason)


def test_inflection_and_answer_types():
    assert [inflect(v, "past") for v in ("end", "begin", "marry", "plan", "Build")] == ["ended", "began", "married", "planned", "Built"]
    assert inflect("emit", "3sg") == "emits" and inflect("do", "3sg") == "does"
    texts = ["Marie Curie", "1889", "the alternating current motor", "very quickly ran"]
    types = [answer_type(p) for p in parse_texts(texts, pos=True, entities=True, cache_dir=False)]
    assert types[1] == "DATE" and types[2] == "NP" and types[3] is None and types[0] == "PERSON"


def _one(context, q, qtext_pos=None):
    cparse = parse_texts([context], sentences=True, cache_dir=False)[0]
    qparse = parse_texts([q.question], pos=True, cache_dir=False)[0]
    units = sentence_units(context, cparse, [(a.answer_start, a.answer_end) for a in q.answers])
    pool = InsertionPool(seed=0)
    decoys = DecoyPool(by_type={"DATE": [("Other", "1932"), ("Same", "1066")]}, answer_type={q.id: "DATE"},
                       title_of={context: "Same"})
    return Paragraph(context, [q]), ExampleParse(cparse, {q.id: qparse}, units, pool, {"e10": decoys})


def test_e9_and_e10_on_a_hand_made_paragraph_and_their_edge_cases():
    ctx = "The war ended in 1945. Many cities were rebuilt. Trade grew again. Peace held for decades."
    q = Question("q", "What year did the war end?", [Answer("1945", ctx.index("1945"))])
    par, parsed = _one(ctx, q)
    new, rec = ABLATIONS["e9"].apply(par, parsed, make_rng(0, "e9", "q"))
    assert new.context == "Many cities were rebuilt. Trade grew again. Peace held for decades. The war ended in 1945."
    assert rec["q"]["detail"]["displacement"] == 3
    a = new.questions[0].answers[0]
    assert new.context[a.answer_start : a.answer_end] == "1945"
    new, rec = ABLATIONS["c9"].apply(par, parsed, make_rng(0, "e9", "q"))
    # units 1..3 can move right by at most 2, 1, 0: unit 1 moves to the end (2 of e9's 3)
    assert rec["q"]["detail"]["from"] == 1 and rec["q"]["detail"]["to"] == 3
    assert new.context == "The war ended in 1945. Trade grew again. Peace held for decades. Many cities were rebuilt."
    new, rec = ABLATIONS["e10"].apply(par, parsed, make_rng(0, "e10", "q"))
    d = rec["q"]["detail"]
    assert d["inserted"] == "The war ended in 1932." and d["decoy"] == "1932"  # 1066 is from the same article
    assert new.context == ctx[: d["offset"]] + "The war ended in 1932. " + ctx[d["offset"]:]
    # unanswerable (SQuAD v2.0) and one-sentence contexts: unchanged with a reason
    nq = Question("q", "What year did the war end?", [], is_impossible=True)
    par, parsed = _one(ctx, nq)
    for aid in ("e9", "e10"):
        new, rec = ABLATIONS[aid].apply(par, parsed, make_rng(0, aid, "q"))
        assert new.context == ctx and rec["q"] == {"changed": False, "reason": "no_answer", "detail": {}}
    one = "The war ended in 1945."
    par, parsed = _one(one, Question("q", "What year did the war end?", [Answer("1945", one.index("1945"))]))
    assert ABLATIONS["e9"].apply(par, parsed, random.Random(0))[1]["q"]["reason"] == "single_unit"
    assert ABLATIONS["e10"].apply(par, parsed, random.Random(0))[1]["q"]["reason"] == "no_non_answer_unit"


def test_control_move_rule():
    assert control_move(2, 0, 1, random.Random(0)) is None
    assert control_move(5, 4, -4, random.Random(0)) == (3, 0)
    # answer at 1 moves to 4 (+3): units 0 and 2 can move; 0 can make all 3, 2 only 2
    assert control_move(5, 1, 3, random.Random(0)) == (0, 3)
    assert answer_unit_indices([(0, 3), (4, 8)], [(5, 6)]) == {1}
