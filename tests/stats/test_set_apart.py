"""The Question category's figure of the data (issue 54, item 5): whether the answer is a span the context sets apart,
beyond a pick among the context's candidate answers, read on real SQuAD v1.1 paragraphs of the bundled sample."""

from __future__ import annotations

import random

import pytest

from mrclens.audit.span import SAMPLE_PATH
from mrclens.formats import load_dataset
from mrclens.stats.heuristics import PassageIndex
from mrclens.stats.set_apart import SetApart, answer_key, set_apart_spans


@pytest.fixture(scope="module")
def paragraphs():
    """Paragraphs of the bundled sample that set nothing apart, each with its first answerable question."""
    out = []
    for _, p in load_dataset(SAMPLE_PATH).iter_paragraphs():
        qs = [q for q in p.questions if q.answers]
        if qs and not set_apart_spans(p.context):
            out.append((p.context, qs[0].answers[0]))
    return out[:60]


def _cue(context: str) -> SetApart:
    index = PassageIndex(context, [(0, len(context))])
    return SetApart(context, (context[c.start:c.end] for c in index.candidates))


def _marked(context: str, start: int, end: int) -> str:
    return f"{context[:start]}« {context[start:end]} »{context[end:]}"


def test_the_marks_that_set_a_span_apart():
    text = ('He said "yes" (and "no"), [citation] and {x}; «Halo» and ‹Ode› or „Lied“ and ‘Yes’ and 「東京」; '
            '**bold**, __under__, `code` and <b>tagged</b> or <EM>shout</EM>; and "  padded  ".')
    found = sorted(text[s:e] for s, e in set_apart_spans(text))
    assert found == sorted(["yes", "no", "and \"no\"", "citation", "x", "Halo", "Ode", "Lied", "Yes", "東京", "bold",
                            "under", "code", "tagged", "shout", "padded"])
    assert set_apart_spans("an unpaired \" quote and a ( bracket") == set_apart_spans('"a\nb"') == []
    assert set_apart_spans('"' + "w " * 150 + '"') == []  # longer than MAX_SPAN: unpaired marks, not a quotation


def test_answers_compare_as_the_official_scoring_compares_them():
    assert answer_key('"Crazy in Love"') == answer_key("“crazy in love”") == answer_key("«Crazy in Love»")
    assert answer_key("the Beatles") == answer_key("Beatles") != answer_key("The Stones")


def test_real_paragraphs_without_marks_read_chance(paragraphs):
    assert len(paragraphs) >= 30
    values = [_cue(ctx).top(a.text) for ctx, a in paragraphs]
    assert all(v in (0.0, None) for v in values)
    assert sum(v is not None for v in values) >= 0.9 * len(values)


def test_the_marked_answer_reads_100_and_a_marked_decoy_below_chance(paragraphs):
    rng = random.Random(0)
    planted, decoys = [], []
    for ctx, a in paragraphs:
        planted.append(_cue(_marked(ctx, a.answer_start, a.answer_end)).top(a.text))
        words = [(s, s + len(w)) for s, w in _word_spans(ctx) if s >= a.answer_end or s + len(w) <= a.answer_start]
        s, e = rng.choice(words)
        cue = _cue(_marked(ctx, s, e))
        if answer_key(ctx[s:e]) not in ("", answer_key(a.text)):  # "the" marked sets nothing apart
            decoys.append((cue.top(a.text), len(cue.pool), answer_key(a.text) in cue.pool))
    assert all(v == 100.0 for v in planted)  # the one span set apart is the answer, whatever the candidates
    for value, n, candidate in decoys:  # the marks point elsewhere: -100/(n-1) when the answer is a candidate, else 0
        assert value == (pytest.approx(-100.0 / (n - 1)) if candidate else 0.0)
    assert sum(1 for _, _, c in decoys if c) >= 10


def test_several_spans_set_apart_share_the_hit_and_chance_is_the_number_of_candidates():
    ctx = 'Their hits were "Halo", "Single Ladies" and "Irreplaceable", released by Columbia in 2008.'
    cue = _cue(ctx)
    n, k = len(cue.pool), 3
    assert {"halo", "single ladies", "irreplaceable"} <= set(cue.pool) and n > k
    assert cue.top("Halo") == pytest.approx(100 * (1 / k - 1 / n) / (1 - 1 / n))
    assert cue.top("Columbia") == pytest.approx(-100 / (n - 1))
    assert cue.top("released by") == 0.0  # no candidate: neither the marks nor chance find it
    assert SetApart('Only "this".', ["this"]).top("this") is None  # one candidate: nothing to choose from
    assert cue.top("!!") is None  # the answer normalises to nothing


def _word_spans(text: str):
    import re

    return [(m.start(), m.group()) for m in re.finditer(r"\w+", text)]
