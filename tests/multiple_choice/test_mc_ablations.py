"""The multiple-choice ablations m1–m6, their controls mc4–mc6 and ``perturb_mc``, on real CODAH rows.

Data: CODAH (Chen et al. 2019), ``shared/data/codah/full_data.tsv.gz`` (2,776 questions) and the
official fold 0 test file (555 questions); skipped when absent. Parses come from the installed
spaCy pipeline (``en_core_web_sm``) through a parse cache private to this test session.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from mrclens.artifacts.manifest import PerturbationManifest, read_manifest
from mrclens.categories import CATEGORIES
from mrclens.errors import ArtifactError, MRCLensError
from mrclens.multiple_choice.ablations import (KEYWORD_TAGS, MC_ABLATIONS, MCWordPool, keyword_words,
                                               prompt_tokens, resolve_mc_ablations)
from mrclens.formats.multiple_choice import MCDataset, load_mc_dataset
from mrclens.multiple_choice.perturb import load_perturbed_mc, perturb_mc
from mrclens.parsing import parse_texts
from mrclens.perturbations.base import make_rng
from mrclens.perturbations.registry import ABLATIONS

_WORD = re.compile(r"\w+")


@pytest.fixture(scope="session")
def cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("mc-parse-cache")


@pytest.fixture(scope="session")
def full(cache, codah_dir):
    """``(dataset, {question id: prompt parse}, pool)`` of the whole CODAH release."""
    data = load_mc_dataset(codah_dir / "full_data.tsv.gz")
    parses = parse_texts([q.prompt for q in data.questions], pos=True, cache_dir=cache)
    return data, {q.id: p for q, p in zip(data.questions, parses)}, MCWordPool.build(parses)


@pytest.fixture(scope="session")
def fold0_test(codah_dir):
    return load_mc_dataset(codah_dir / "cv_split" / "fold_0" / "test.tsv.gz")


@pytest.fixture(scope="session")
def fold0_run(fold0_test, cache, tmp_path_factory):
    out = tmp_path_factory.mktemp("mc-perturbed") / "fold0"
    return perturb_mc(fold0_test, out, seed=0, cache_dir=cache), out


def _row(full, prompt: str):
    data, parses, pool = full
    found = [q for q in data.questions if q.prompt == prompt]
    assert len(found) == 1, prompt
    return found[0], parses[found[0].id], pool


def _apply(aid: str, q, parse, pool, seed: int = 0):
    return MC_ABLATIONS[aid].apply(q, parse, make_rng(seed, aid, q.id), pool)


def _same_except_prompt(q, new):
    assert (new.id, new.endings, new.label, new.categories) == (q.id, q.endings, q.label, q.categories)


# --- the registry -----------------------------------------------------------------------------


def test_registry_ids_order_and_categories():
    assert list(MC_ABLATIONS) == ["m1", "m2", "m3", "m4", "mc4", "m5", "mc5", "m6", "mc6"]
    assert {c.name: list(c.mc_ablations) for c in CATEGORIES.values() if c.mc_ablations} == {
        "Question": ["m1", "m2", "m3"], "Keyword": ["m4", "m5", "m6"]}
    assert {a.bias_signal for a in (MC_ABLATIONS[i] for i in ("m1", "m2", "m3"))} == {"small_drop"}
    assert {a.bias_signal for a in (MC_ABLATIONS[i] for i in ("m4", "m5", "m6"))} == {"large_drop"}
    for cid in ("mc4", "mc5", "mc6"):
        c = MC_ABLATIONS[cid]
        assert (c.bias_signal, c.control_of, c.category) == ("control", "m" + cid[2:], "Keyword")
    assert all(a.eval_set == "full" and a.apply.__doc__ and "Rule" in a.apply.__doc__ for a in MC_ABLATIONS.values())
    assert not set(MC_ABLATIONS) & set(ABLATIONS), "the span registry must not receive the multiple-choice ids"


def test_resolve_adds_controls_and_rejects_unknown_ids():
    assert resolve_mc_ablations(None) == list(MC_ABLATIONS)
    assert resolve_mc_ablations(["m4"]) == ["m4", "mc4"]
    assert resolve_mc_ablations("M6, m1") == ["m1", "m6", "mc6"]
    assert resolve_mc_ablations(["mc5"]) == ["mc5"]
    with pytest.raises(MRCLensError, match=r"unknown multiple-choice ablation\(s\) e1, m9; known: m1, m2, .*mc6"):
        resolve_mc_ablations(["e1", "m9"])
    with pytest.raises(MRCLensError, match="no multiple-choice ablation given"):
        resolve_mc_ablations([" "])


# --- each rule on real rows -------------------------------------------------------------------


@pytest.mark.slow
def test_m1_empties_the_prompt_and_keeps_endings_and_label(full):
    q, parse, pool = _row(full, "I feel sickly. I think")
    new, rec = _apply("m1", q, parse, pool)
    assert new.prompt == "" and rec == {"changed": True, "reason": None, "detail": {"old": q.prompt}}
    _same_except_prompt(q, new)
    assert new.endings[3] == "I will not go to school today." and new.label == 3


def test_m2_shuffles_the_prompt_tokens(full):
    q, parse, pool = _row(full, "Today my classmate asked an intriguing question. He")
    new, rec = _apply("m2", q, parse, pool)
    tokens = ["Today", "my", "classmate", "asked", "an", "intriguing", "question", ".", "He"]
    assert sorted(new.prompt.split(" ")) == sorted(tokens) and new.prompt.split(" ") != tokens
    assert [tokens[j] for j in rec["detail"]["permutation"]] == new.prompt.split(" ")
    _same_except_prompt(q, new)
    again, _ = _apply("m2", q, parse, pool)
    assert again == new, "the same seed and question id give the same shuffle"


def test_m3_keeps_the_first_half_of_the_tokens(full):
    for prompt, half in (("I feel sickly. I think", "I feel sickly"),  # 6 tokens -> 3
                         ("My brother is very good at math. He", "My brother is very good")):  # 9 -> 5
        q, parse, pool = _row(full, prompt)
        new, rec = _apply("m3", q, parse, pool)
        assert new.prompt == half and rec["changed"]
        _same_except_prompt(q, new)


def test_m3_keeps_the_original_spacing(full):
    """Text comes from character offsets: a clitic token stays attached, no space is added."""
    for prompt, half in (("George's car is the color of the midday sky.  It's", "George's car is the color of"),  # 13 -> 7
                         ("A man is flying a dragon-shaped kite.  He", "A man is flying a dragon"),  # 11 -> 6
                         ("Doug likes nachos.  He", "Doug likes nachos")):  # 5 -> 3; the double space is dropped with the tail
        q, parse, pool = _row(full, prompt)
        spans = prompt_tokens(parse)
        new, rec = _apply("m3", q, parse, pool)
        assert new.prompt == half and rec["detail"]["kept_tokens"] == math.ceil(len(spans) / 2)


@pytest.mark.parametrize("aid,prompt,words", [
    ("m4", "Today my classmate asked an intriguing question. He", ["Today", "classmate", "question"]),
    ("m4", "My brother is very good at math. He", ["brother", "math"]),
    ("m5", "I feel sickly. I think", ["feel", "think"]),
    ("m6", "I feel sickly. I think", ["sickly"]),
])
def test_keyword_ablations_prefix_exactly_the_prompt_words_to_the_wrong_endings(full, aid, prompt, words):
    q, parse, pool = _row(full, prompt)
    new, rec = _apply(aid, q, parse, pool)
    assert rec["detail"]["words"] == words == keyword_words(parse, KEYWORD_TAGS[aid])
    wrong = [i for i in range(4) if i != q.label]
    assert rec["detail"]["endings"] == wrong
    for i in wrong:
        assert new.endings[i] == " ".join(words) + " " + q.endings[i]
    assert new.endings[q.label] == q.endings[q.label], "the correct ending is never touched"
    assert (new.prompt, new.label, new.categories, new.id) == (q.prompt, q.label, q.categories, q.id)


def test_keyword_ablation_without_such_words_is_unchanged_and_so_is_its_control(full):
    data, parses, pool = full
    q = next(x for x in data.questions if not keyword_words(parses[x.id], KEYWORD_TAGS["m6"]))
    for aid in ("m6", "mc6"):
        new, rec = _apply(aid, q, parses[q.id], pool)
        assert new == q and rec == {"changed": False, "reason": "no_adjectives", "detail": {}}


def _tags_by_word(full) -> dict[str, set[str]]:
    data, parses, _ = full
    out: dict[str, set[str]] = {}
    for p in parses.values():
        for word, tag in zip(p.token_texts(), p.pos):
            out.setdefault(word.lower(), set()).add(tag)
    return out


@pytest.mark.parametrize("cid", ["mc4", "mc5", "mc6"])
def test_control_inserts_as_many_unrelated_words_of_the_same_pos_at_the_same_place(full, cid):
    data, parses, pool = full
    aid = "m" + cid[2:]
    tags = set(KEYWORD_TAGS[aid])
    tags_by_word = _tags_by_word(full)
    n_changed = 0
    for q in data.questions[:300]:
        abl, arec = _apply(aid, q, parses[q.id], pool)
        ctl, crec = _apply(cid, q, parses[q.id], pool)
        assert crec["changed"] == arec["changed"] and crec["reason"] == arec["reason"]
        if not crec["changed"]:
            assert ctl == q
            continue
        n_changed += 1
        words = crec["detail"]["words"]
        assert len(words) == len(arec["detail"]["words"]) and crec["detail"]["endings"] == arec["detail"]["endings"]
        assert crec["detail"]["replaces"] == arec["detail"]["inserted"]
        own = {w.lower() for text in (q.prompt, *q.endings) for w in _WORD.findall(text)}
        for w in words:
            assert not {p.lower() for p in _WORD.findall(w)} & own, (q.id, w)
            assert tags_by_word[w.lower()] & tags, (q.id, w)  # tagged so in some (other) prompt
        assert len({w.lower() for w in words}) == len(words)
        for i, (old, new) in enumerate(zip(q.endings, ctl.endings)):
            assert new == (" ".join(words) + " " + old if i in crec["detail"]["endings"] else old)
        assert ctl.endings[q.label] == q.endings[q.label] and ctl.prompt == q.prompt
    assert n_changed > 50


def test_controls_need_the_pool(full):
    q, parse, _ = _row(full, "I feel sickly. I think")
    with pytest.raises(ValueError, match="mc5 needs the set's MCWordPool"):
        _apply("mc5", q, parse, None)


# --- perturb_mc on the fold 0 test file ---------------------------------------------------------


def test_perturb_fold0_test_counts(fold0_run, fold0_test):
    manifest, out = fold0_run
    assert manifest.task == "multiple_choice" and manifest.sets["original"].n == 555
    assert manifest.ablation_ids() == list(MC_ABLATIONS)
    ids = set(fold0_test.ids())
    counts = {aid: e.changed for aid, e in manifest.ablations.items()}
    for aid, e in manifest.ablations.items():
        assert (e.n, e.baseline_set, e.eval_set, e.file) == (555, "original", "full", f"{aid}.jsonl")
        assert set(e.items) == ids and e.changed + sum(e.unchanged.values()) == 555
        assert e.control_of == MC_ABLATIONS[aid].control_of
    assert counts["m1"] == sum(1 for q in fold0_test.questions if q.prompt) == 555
    assert counts["m2"] >= 550 and counts["m3"] >= 550
    assert counts["m4"] > 500 and 300 < counts["m5"] < counts["m4"] and 50 < counts["m6"] < counts["m5"]
    for aid in ("m4", "m5", "m6"):
        ctl = manifest.ablations["mc" + aid[1:]]
        assert ctl.changed_ids() == manifest.ablations[aid].changed_ids() and ctl.unchanged == manifest.ablations[aid].unchanged
    assert set(manifest.ablations["m4"].unchanged) <= {"no_nouns"}


def test_perturbed_sets_load_back(fold0_run, fold0_test):
    manifest, out = fold0_run
    sets = load_perturbed_mc(out)
    assert list(sets) == ["original", *MC_ABLATIONS]
    assert sets["original"].questions == fold0_test.questions
    for aid, ds in sets.items():
        assert ds.ids() == fold0_test.ids() and list(ds.labels()) == list(fold0_test.labels())
    assert all(q.prompt == "" for q in sets["m1"].questions)
    for q, new in zip(fold0_test.questions, sets["m4"].questions):
        assert new.endings[q.label] == q.endings[q.label]


def test_manifest_round_trips(fold0_run):
    manifest, out = fold0_run
    again = read_manifest(out)
    assert again == manifest and again.task == "multiple_choice"
    raw = json.loads((out / "manifest.json").read_text())
    assert raw["task"] == "multiple_choice" and raw["sets"] == {"original": {"file": "original.jsonl", "n": 555}}
    assert PerturbationManifest.from_json(raw, out / "manifest.json") == manifest


def _files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def test_same_seed_same_bytes_other_seed_other_draws(fold0_test, cache, tmp_path):
    small = MCDataset(fold0_test.questions[:120], fold0_test.source, fold0_test.format)
    perturb_mc(small, tmp_path / "a", seed=3, cache_dir=cache)
    perturb_mc(small, tmp_path / "b", seed=3, cache_dir=cache)
    perturb_mc(small, tmp_path / "c", seed=4, cache_dir=cache)
    a, b, c = (_files(tmp_path / x) for x in "abc")
    assert a == b
    for name in ("m2.jsonl", "mc4.jsonl", "mc5.jsonl", "mc6.jsonl"):
        assert a[name] != c[name], name
    for name in ("original.jsonl", "m1.jsonl", "m3.jsonl", "m4.jsonl", "m5.jsonl", "m6.jsonl"):
        assert a[name] == c[name], name
    m = perturb_mc(small, tmp_path / "d", seed=3, draw=1, cache_dir=cache, ablations=["m2"])
    assert (m.draw, m.draw_seed) == (1, read_manifest(tmp_path / "d").draw_seed) and m.draw_seed not in (None, 3)
    assert _files(tmp_path / "d")["m2.jsonl"] != a["m2.jsonl"]


def test_refuses_a_foreign_directory_and_unknown_ids(fold0_test, cache, tmp_path):
    small = MCDataset(fold0_test.questions[:5], fold0_test.source, fold0_test.format)
    with pytest.raises(MRCLensError, match="unknown multiple-choice ablation"):
        perturb_mc(small, tmp_path / "x", ablations=["e1"], cache_dir=cache)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(MRCLensError, match="notes.txt"):
        perturb_mc(small, tmp_path / "other", ablations="m1", cache_dir=cache)
    perturb_mc(small, tmp_path / "other", ablations="m1", cache_dir=cache, force=True)
    perturb_mc(small, tmp_path / "other", ablations="m3", cache_dir=cache)  # an earlier perturb output
    assert list(read_manifest(tmp_path / "other").ablations) == ["m3"]
    (tmp_path / "other" / "m3.jsonl").unlink()
    with pytest.raises(ArtifactError, match="m3.jsonl"):
        load_perturbed_mc(tmp_path / "other")
