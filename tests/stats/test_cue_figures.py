"""Issue 54: the verdict figures of Similarity (a long n-gram the answer sentence alone shares with the question,
:mod:`mrclens.stats.shared_ngram`) and Keyword (the question's words crowd the answer span,
:mod:`mrclens.stats.keyword_window`): their definitions, and how they read real SQuAD questions edited in ways the
selftest plantings do not edit them (questions that copy their answer sentence; question words after the answer)."""

from __future__ import annotations

import random

import pytest

from mrclens.audit.span import SAMPLE_PATH
from mrclens.formats import load_dataset
from mrclens.parsing import parse_texts
from mrclens.squad import Answer, Article, Dataset, Paragraph, Question
from mrclens.stats import compute_stats
from mrclens.stats.keyword_window import answer_token_range, keyword_window_top, window_scores
from mrclens.stats.shared_ngram import MIN_CONTENT_WORDS, shared_content_run, shared_ngram_top
from mrclens.stats.text import is_content_word, word_tokens


def test_a_shared_run_counts_content_words_only():
    question = word_tokens("What is the capital of the country of France?")
    # "is the capital of the country of france": 7 tokens, 3 content words
    assert shared_content_run(question, word_tokens("Paris is the capital of the country of France.")) == 3
    assert shared_content_run(question, word_tokens("It is the one of the best.")) == 0  # stop words alone
    assert shared_content_run(question, word_tokens("France has a capital.")) == 1  # no run of two in order


def test_the_answer_sentence_must_hold_the_longest_long_run_alone():
    q = word_tokens("Which river flows through the old city of Prague into the Elbe?")
    copy = word_tokens("The Vltava flows through the old city of Prague into the Elbe.")
    other = word_tokens("Prague is the capital.")
    assert MIN_CONTENT_WORDS == 4 and shared_content_run(q, copy) >= MIN_CONTENT_WORDS
    assert shared_ngram_top(q, [other, copy, other], 1) == 100.0
    assert shared_ngram_top(q, [copy, other, other], 1) == -50.0  # another sentence repeats it: below chance
    assert shared_ngram_top(q, [copy, copy], 0) == 0.0  # two sentences repeat it: as a random pick
    assert shared_ngram_top(q, [other, other], 0) == 0.0  # no long run anywhere: no cue, 0
    assert shared_ngram_top(q, [copy], 0) is None and shared_ngram_top(q, [copy, other], None) is None


def _brute_scores(question, words, lo, hi, window):
    wanted = {w for w in question if is_content_word(w)}
    length = hi - lo
    return [len(wanted & set(words[max(s - window, 0):s] + words[s + length:s + length + window]))
            for s in range(len(words) - length + 1)]


def test_window_scores_count_distinct_question_words_beside_every_place():
    rng = random.Random(54)
    vocabulary = ["castle", "king", "built", "prague", "the", "of", "in", "river", "1344"]
    for _ in range(300):
        words = [rng.choice(vocabulary) for _ in range(rng.randint(2, 30))]
        question = [rng.choice(vocabulary) for _ in range(rng.randint(1, 8))]
        lo = rng.randrange(len(words))
        hi = rng.randint(lo + 1, len(words))
        window = rng.randint(1, 6)
        assert window_scores(question, words, lo, hi, window) == _brute_scores(question, words, lo, hi, window)
    assert keyword_window_top(["castle"], ["a", "b"], 1, 3) is None  # not a range of the context's tokens
    assert keyword_window_top(["castle"], ["a", "b", "c"], 0, 3) is None  # a span of the whole context: one place
    assert keyword_window_top(["why"], ["a", "b", "c"], 1, 2) == 0.0  # no content word in the question: no cue


def test_the_answer_tokens_are_those_its_characters_overlap():
    text = "Built in 1344, rebuilt later."
    words, starts, ends = zip(*[(m.group(), m.start(), m.end()) for m in __import__("re").finditer(r"\w+", text)])
    assert answer_token_range(list(starts), list(ends), text.index("1344"), text.index("1344") + 4) == (2, 3)
    assert answer_token_range(list(starts), list(ends), text.index("13"), text.index("13") + 2) == (2, 3)
    assert answer_token_range(list(starts), list(ends), text.index(","), text.index(",") + 1) is None


@pytest.fixture(scope="module")
def sample_part():
    data = load_dataset(SAMPLE_PATH)
    return Dataset(data.articles[:3], data.version)


def _edited(data: Dataset, edit) -> Dataset:
    """``data`` with one question per paragraph copy (its first gold answer), the copy made by ``edit(paragraph,
    question, answer sentence (start, end)) -> Paragraph`` (the sentence from spaCy's sentences)."""
    paragraphs = [(a.title, p) for a in data.articles for p in a.paragraphs]
    parsed = parse_texts([p.context for _, p in paragraphs], sentences=True, cache_dir=False, progress=False)
    articles: dict[str, list[Paragraph]] = {}
    for (title, p), cp in zip(paragraphs, parsed):
        bounds = list(cp.sent_starts) + [len(p.context)]
        for q in p.questions:
            a = q.answers[0]
            i = max(k for k, s in enumerate(bounds[:-1]) if s <= a.answer_start)
            single = Paragraph(p.context, [Question(q.id, q.question, [a])])
            articles.setdefault(title, []).append(edit(single, a, (bounds[i], bounds[i + 1])))
    return Dataset([Article(t, ps) for t, ps in articles.items()], data.version)


def _figure(stats, name):
    return stats["chance_corrected"][name]["mean"]


def test_questions_that_copy_their_answer_sentence_read_far_above_clean_ones(sample_part):
    """A shortcut the selftest does not plant: each question is its answer sentence with the answer replaced by
    "what" (the question repeats the sentence instead of the sentence repeating the question)."""
    def copy(p, a, sentence):
        s, e = sentence
        text = p.context[s:a.answer_start] + " what " + p.context[a.answer_end:e]
        return Paragraph(p.context, [Question(p.questions[0].id, text.strip(), [a])])

    clean = compute_stats(_edited(sample_part, lambda p, a, s: p), cache_dir=False, progress=False)
    copied = compute_stats(_edited(sample_part, copy), cache_dir=False, progress=False)
    assert _figure(clean, "shared_ngram_top") < 15 < 60 < _figure(copied, "shared_ngram_top")
    # the sentence-level top-1 share that decided before moves far less on the same questions
    moved = _figure(copied, "similarity_top") - _figure(clean, "similarity_top")
    assert moved < 0.6 * (_figure(copied, "shared_ngram_top") - _figure(clean, "shared_ngram_top"))


def test_question_words_right_after_the_answer_read_higher_and_far_from_it_do_not(sample_part):
    """The selftest's ``keywords`` planting puts the question's nouns before the answer; here its content words go
    right after it, or at the start of the context, far from it."""
    def insert(p, at, words):
        a = p.questions[0].answers[0]
        text = " " + words + " "
        shift = len(text) if at <= a.answer_start else 0
        return Paragraph(p.context[:at] + text + p.context[at:],
                         [Question(p.questions[0].id, p.questions[0].question, [Answer(a.text, a.answer_start + shift)])])

    def content(p):
        return " ".join(w for w in word_tokens(p.questions[0].question) if is_content_word(w))

    clean = compute_stats(_edited(sample_part, lambda p, a, s: p), cache_dir=False, progress=False)
    after = compute_stats(_edited(sample_part, lambda p, a, s: insert(p, a.answer_end, content(p))),
                          cache_dir=False, progress=False)
    far = compute_stats(_edited(sample_part, lambda p, a, s: insert(p, 0, content(p)) if a.answer_start > 200 else p),
                        cache_dir=False, progress=False)
    base = _figure(clean, "keyword_window_top")
    assert base < 6 and _figure(after, "keyword_window_top") > base + 7   # about +11 on these 1,420 questions
    assert _figure(far, "keyword_window_top") <= base
