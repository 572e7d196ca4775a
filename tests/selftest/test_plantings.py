"""The planted datasets of `mrclens selftest`, on the real bundled sample: exact offsets, each
planting does what its docstring says, the clean side differs only where the planting decides."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from mrclens.artifacts.selftest import read_selftest
from mrclens.formats import load_dataset
from mrclens.perturbations.controls import content_words
from mrclens.selftest.plantings import CLOSE_MARK, OPEN_MARK, PLANTINGS, plant
from mrclens.selftest.runner import format_selftest, run_selftest
from mrclens.vocabulary import STOP_WORDS

# a module fixture of several seconds: left out of `make test`, run by `make test-slow` and CI
pytestmark = pytest.mark.slow

_WORD = re.compile(r"\w+")


@pytest.fixture(scope="module")
def sample(sample_path):
    return load_dataset(sample_path)


@pytest.fixture(scope="module")
def pairs(sample):
    return {name: plant(sample, name, seed=0) for name in PLANTINGS}


def _questions(ds):
    return [(p, q) for _, p, q in ds.iter_questions()]


@pytest.mark.slow
@pytest.mark.parametrize("name", list(PLANTINGS))
def test_offsets_exact_same_questions_one_per_paragraph_copy(name, pairs, sample):
    pair = pairs[name]
    planted, clean = _questions(pair.planted), _questions(pair.clean)
    assert [q.id for _, q in planted] == [q.id for _, q in clean]
    answerable = [q.id for _, _, q in sample.iter_questions() if q.answers]
    assert [q.id for _, q in planted] == answerable  # every answerable question, in order, each in its own paragraph
    for p, q in planted + clean:
        assert len(p.questions) == 1 and len(q.answers) == 1
        a = q.answers[0]
        assert p.context[a.answer_start:a.answer_start + len(a.text)] == a.text
    # most questions carry the planting on both sides (the rest have a recorded reason)
    assert pair.changed["planted"] >= 0.95 * len(planted) and pair.changed["clean"] >= 0.9 * len(clean)
    assert pair.changed["planted"] + sum(pair.unchanged["planted"].values()) == len(planted)


def _inserted(before: str, after: str) -> tuple[int, str]:
    """Where ``after`` differs from ``before`` by one insertion: (offset, inserted text)."""
    i = next((k for k in range(len(before)) if before[k] != after[k]), len(before))
    return i, after[i:i + len(after) - len(before)]


def test_overlap_puts_the_question_words_at_the_start_of_the_answer_sentence(pairs, sample):
    original = {q.id: (p.context, q.answers[0].answer_start) for p, q in _questions(sample)}
    stop = STOP_WORDS
    wh = {"what", "which", "who", "whom", "whose", "when", "where", "why", "how"}

    def insertion(before: str, after: str, ok) -> tuple[int, str] | None:
        """The smallest unit-start offset k with after == before[:k] + T + " " + before[k:] and ok(T)."""
        n = len(after) - len(before)
        for k in range(len(before) + 1):
            if (k == 0 or before[k - 1].isspace()) and after[:k] == before[:k] and after[k + n:] == before[k:]:
                text = after[k:k + n - 1]
                if ok(text):
                    return k, text
        return None

    def question_words(q):  # every inserted word is a (spaCy) token of the question, none interrogative
        return lambda text: bool(text.split()) and all(w in q.question for w in text.split()) and not {
            w.lower() for w in text.split()} & wh

    for p, q in _questions(pairs["overlap"].planted):
        before, answer_start = original[q.id]
        if len(p.context) == len(before):
            continue
        found = insertion(before, p.context, question_words(q))
        assert found is not None, q.id
        assert found[0] <= answer_start  # at the start of the answer's sentence unit, before the answer
    n_clean = 0
    for p, q in _questions(pairs["overlap"].clean):
        before, _ = original[q.id]
        if len(p.context) == len(before):
            continue
        n_clean += 1
        found = insertion(before, p.context, lambda text: not content_words(text, stop) & content_words(q.question, stop))
        assert found is not None, q.id  # unrelated words at a unit start
    assert n_clean == pairs["overlap"].changed["clean"]


def test_marked_puts_marks_around_the_answer_only_on_the_planted_side(pairs):
    for p, q in _questions(pairs["marked"].planted):
        a = q.answers[0]
        assert p.context[a.answer_start - 2:a.answer_start] == OPEN_MARK + " "
        assert p.context[a.answer_end:a.answer_end + 2] == " " + CLOSE_MARK
    n_around = 0
    for p, q in _questions(pairs["marked"].clean):
        a = q.answers[0]
        if OPEN_MARK in p.context:
            s, e = p.context.index(OPEN_MARK), p.context.index(CLOSE_MARK)
            assert e > s and not (s <= a.answer_start and a.answer_end <= e)
            assert len(p.context[s + 1:e].split()) == len(a.text.split())  # as many words as the answer
            n_around += 1
    assert n_around == pairs["marked"].changed["clean"]


def test_keywords_inserts_the_question_nouns_right_before_the_answer(pairs):
    for p, q in _questions(pairs["keywords"].planted)[:300]:
        a = q.answers[0]
        before = p.context[:a.answer_start].rstrip()
        last = before.split()[-1] if before else ""
        assert last and last in q.question


def test_position_moves_the_answer_sentence_to_the_front(pairs, sample):
    original = {q.id: p.context for p, q in _questions(sample)}
    firsts = 0
    for p, q in _questions(pairs["position"].planted):
        # the same characters, reordered (units are joined by one space)
        assert Counter(p.context.replace(" ", "")) == Counter(original[q.id].replace(" ", "").replace("\n", ""))
        first_sentence_end = p.context.find(". ") if ". " in p.context else len(p.context)
        firsts += q.answers[0].answer_start <= first_sentence_end + 1
    assert firsts >= 0.9 * len(_questions(pairs["position"].planted))
    clean_firsts = sum(q.answers[0].answer_start <= (p.context.find(". ") if ". " in p.context else len(p.context)) + 1
                       for p, q in _questions(pairs["position"].clean))
    assert clean_firsts < 0.6 * len(_questions(pairs["position"].clean))  # a random sentence first: no position cue


@pytest.mark.slow
def test_same_seed_same_datasets_other_seed_other_draws(sample, pairs):
    again = plant(sample, "keywords", seed=0)
    assert again.planted == pairs["keywords"].planted and again.clean == pairs["keywords"].clean
    other = plant(sample, "keywords", seed=1)
    assert other.planted == pairs["keywords"].planted  # the planting itself has no random choice
    assert other.clean != pairs["keywords"].clean


def test_runner_judges_and_writes_selftest_json(tmp_path, monkeypatch, sample_path):
    """The wiring of run_selftest with the audit replaced by readings chosen here (the real audits take
    minutes and run in the benchmark, not in the unit tests)."""
    import mrclens.audit.span as audit_module
    from types import SimpleNamespace

    from mrclens.artifacts.results import CategoryResult, SetResult

    evidence = {"planted": {"Similarity": "strong", "Question": "none", "Keyword": "weak"},
                "clean": {"Similarity": "none", "Question": "moderate", "Keyword": "none"}}
    seen = []

    def fake_run_audit(options, echo=None):
        side = "planted" if options.out.endswith("planted-audit") else "clean"
        seen.append((options.train, options.profile, options.seed))
        cats = [CategoryResult(c, [], [], None, None, None, None, e) for c, e in evidence[side].items()]
        return SimpleNamespace(sets={"original": SetResult("original.json", 10, 50.0, 60.0)}, categories=cats)

    monkeypatch.setattr(audit_module, "run_audit", fake_run_audit)
    report = run_selftest(tmp_path / "st", plantings=["overlap"], seed=3, progress=False)
    assert [s[1:] for s in seen] == [("quick", 3), ("quick", 3)]
    assert (tmp_path / "st" / "overlap" / "planted.json").is_file()
    [row] = report.plantings
    assert row.planted_evidence == "strong" and row.clean_flagged == ["Question"] and not row.passed
    assert read_selftest(tmp_path / "st") == report
    assert "FAIL" in format_selftest(report) and "Question (moderate)" in format_selftest(report)


def test_verdicts_prefer_the_comparison_with_the_reference_audit():
    from types import SimpleNamespace

    from mrclens.artifacts.results import CategoryResult
    from mrclens.selftest.runner import judge, verdicts

    cats = [CategoryResult("Similarity", [], [], None, None, None, None, "strong", reference_bias="in line"),
            CategoryResult("Position", [], [], None, None, None, None, "none", reference_bias="more"),
            CategoryResult("Question", [], [], None, None, None, None, "moderate")]  # no reference audit
    got = verdicts(SimpleNamespace(categories=cats))
    assert got == {"Similarity": "in line", "Position": "more", "Question": "moderate"}
    # strong in absolute terms but in line with SQuAD: not a flag; more than SQuAD: a flag
    assert judge("overlap", got, {"Similarity": "in line"}) == (
        False, "Similarity not flagged (in line) on the planted dataset; nothing flagged on the clean counterpart")
    assert judge("position", got, {"Similarity": "inconclusive", "Keyword": "in line"})[0]
    assert not judge("position", got, {"Keyword": "more"})[0]
    # issue 41: a clean counterpart read "less" anywhere is a false flag too
    assert not judge("position", got, {"Similarity": "less", "Keyword": "in line"})[0]
