"""The ablation registry: metadata of e1–e10 and adding an eleventh ablation without edits elsewhere."""

from __future__ import annotations

import dataclasses
import importlib
import json

import pytest

from mrclens.artifacts.ablation import AblationMeta
from mrclens.perturbations import perturb_dataset
from mrclens.perturbations.base import changed
from mrclens.categories import CATEGORIES, LARGE_DROP, SMALL_DROP, get_category
from mrclens.perturbations.registry import ABLATIONS, BASELINE_SET, Ablation, register
from mrclens.squad import Answer, Article, Dataset, Paragraph, Question


_MODULES = {"e1": "e1_insert_question", "e2": "e2_insert_half_question", "e3": "e3_shuffle_sentences",
            "e4": "e4_interrogative_only", "e5": "e5_shuffle_question", "e6": "e6_insert_nouns",
            "e7": "e7_insert_verbs", "e8": "e8_insert_adjectives", "e9": "e9_move_answer_sentence",
            "e10": "e10_decoy_statement", "c4": "c4_no_question"}


def test_the_ten_ablations_as_specified():
    # (id, category, evaluation set, bias signal) from the MRCLens paper / issue 3
    CONTROLS = {k: a for k, a in ABLATIONS.items() if a.control_of}
    assert [(a.id, a.category, a.eval_set, a.bias_signal) for a in ABLATIONS.values() if not a.control_of] == [
        ("e1", "Similarity", "truncated", "large_drop"),
        ("e2", "Similarity", "truncated", "large_drop"),
        ("e3", "Similarity", "full", "small_drop"),
        ("e4", "Question", "full", "small_drop"),
        ("e5", "Question", "full", "small_drop"),
        ("e6", "Keyword", "truncated", "large_drop"),
        ("e7", "Keyword", "truncated", "large_drop"),
        ("e8", "Keyword", "truncated", "large_drop"),
        ("e9", "Position", "truncated", "large_drop"),     # issue 17: Ko et al. 2020
        ("e10", "Similarity", "truncated", "large_drop"),  # issue 17: AddSent-style decoy
    ]
    # issue 16: each insertion ablation has a matched control, listed right after it, in no category
    assert [(c.id, c.control_of, c.category, c.eval_set, c.bias_signal) for c in CONTROLS.values()] == [
        ("c1", "e1", "Similarity", "truncated", "control"),
        ("c2", "e2", "Similarity", "truncated", "control"),
        ("c4", "e4", "Question", "full", "control"),  # issue 16 part 2: the question-removed reference of e4
        ("c6", "e6", "Keyword", "truncated", "control"),
        ("c7", "e7", "Keyword", "truncated", "control"),
        ("c8", "e8", "Keyword", "truncated", "control"),
        ("c9", "e9", "Position", "truncated", "control"),
        ("c10", "e10", "Similarity", "truncated", "control"),
    ]
    assert list(ABLATIONS)[-4:] == ["e9", "c9", "e10", "c10"]  # after c8, each control right after its ablation
    # each category's record lists the ablations that declare it, in registry order (controls left out)
    assert {c.name: list(c.ablations) for c in CATEGORIES.values()} == {
        "Similarity": ["e1", "e2", "e3", "e10"], "Question": ["e4", "e5"], "Keyword": ["e6", "e7", "e8"], "Position": ["e9"]}
    assert dict(CATEGORIES["Similarity"].ablations) == {"e1": LARGE_DROP, "e2": LARGE_DROP, "e3": SMALL_DROP,
                                                        "e10": LARGE_DROP}
    assert BASELINE_SET == {"full": "original", "truncated": "original-truncated"}
    for a in ABLATIONS.values():
        assert a.name and a.description and "\n" not in a.description and callable(a.apply)
        assert a.apply.__doc__
        module = _MODULES.get(a.id, "controls")  # the controls are registered in one module
        assert "Rule" in importlib.import_module(f"mrclens.perturbations.ablations.{module}").__doc__


def test_register_validates():
    with pytest.raises(ValueError, match="eval_set"):
        register(Ablation("e99", "x", "Keyword", "half", "large_drop", "x", apply=lambda *a: None))
    with pytest.raises(ValueError, match="bias_signal"):
        register(Ablation("e99", "x", "Keyword", "full", "no_drop", "x", apply=lambda *a: None))
    with pytest.raises(ValueError, match="already registered"):
        register(Ablation("e1", "other", "Keyword", "full", "large_drop", "x", apply=lambda *a: None))
    assert "e99" not in ABLATIONS


def test_ablation_extends_the_shared_metadata_and_is_read_only():
    e1 = ABLATIONS["e1"]
    assert isinstance(e1, AblationMeta) and e1.baseline_set == "original-truncated"  # from its eval_set
    assert ABLATIONS["e3"].baseline_set == "original"
    with pytest.raises(dataclasses.FrozenInstanceError):
        e1.name = "renamed"
    assert hash(e1) == hash(ABLATIONS["e1"])


def _upper_question(example, parsed, rng):
    qs = [Question(q.id, q.question.upper(), q.answers) for q in example.questions]
    return Paragraph(example.context, qs), {q.id: changed(what="upper") for q in example.questions}


@pytest.fixture
def eleventh():
    saved = dict(ABLATIONS)
    yield register(Ablation("e11", "upper case", "Noise", "full", "small_drop", "Upper-case the question.",
                            apply=_upper_question))
    ABLATIONS.clear()
    ABLATIONS.update(saved)


def test_an_eleventh_ablation_needs_only_its_registration(eleventh, tmp_path):
    assert list(ABLATIONS)[-1] == "e11" and dict(get_category("Noise").ablations) == {"e11": SMALL_DROP}
    ds = Dataset([Article("T", [Paragraph("abc def. Ghi.", [Question("q", "Which?", [Answer("abc", 0)])])])], "1.1")
    m = perturb_dataset(ds, tmp_path, ablations="e11", cache_dir=tmp_path / "c", progress=False).to_json()
    assert m["ablations"]["e11"]["changed"] == 1 and m["ablations"]["e11"]["category"] == "Noise"
    assert json.loads((tmp_path / "e11.json").read_text())["data"][0]["paragraphs"][0]["qas"][0]["question"] == "WHICH?"


def test_every_ablation_says_what_the_other_direction_means():
    """Issue 17: each ablation (not the controls) states what its drop means when it goes the way
    that does not signal the bias; a pointer to another category names a real category."""
    from mrclens.perturbations.registry import ABLATIONS, CATEGORY_NAMES

    for aid, ablation in ABLATIONS.items():
        if ablation.control_of is None:
            assert ablation.other_direction.strip().endswith("."), f"{aid} has no other_direction sentence"
        if ablation.other_direction_category is not None:
            assert ablation.other_direction_category in CATEGORY_NAMES
            assert ablation.other_direction_category != ablation.category
    assert ABLATIONS["e3"].other_direction_category == "Position"
