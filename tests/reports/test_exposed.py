"""The report's most exposed questions (issue 56, item 2): the evidence of each category marked where it lies, on
real SQuAD v1.1 questions of the bundled sample; text from the data escaped; the section read from the audit folder's
``shortcut-questions.jsonl``, one line where the folder has none."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import jinja2
import pytest

from mrclens.artifacts.layout import SHORTCUT_QUESTIONS
from mrclens.artifacts.shortcut_questions import read_shortcut_questions
from mrclens.formats import load_dataset
from mrclens.metrics.official import normalize_answer
from mrclens.perturbations.base import insert_text
from mrclens.reports import render_report
from mrclens.reports.exposed import (EXPOSED_PER_CATEGORY, evidence_spans, excerpt_bounds, exposed_question, locate,
                                     pieces, ranked)
from mrclens.squad import Article, Dataset
from mrclens.stats.evidence import flag_counts, shortcut_evidence
from mrclens.stats.text import word_tokens
from mrclens.vocabulary import WH_WORDS

# a module fixture of several seconds: left out of `make test`, run by `make test-slow` and CI
pytestmark = pytest.mark.slow

#: Two paragraphs of the sample's first article whose questions carry, between them, every category's flag.
PARAGRAPHS = (8, 29)


@pytest.fixture(scope="module")
def sample_paragraphs(sample_path, tmp_path_factory):
    full = load_dataset(sample_path)
    article = full.articles[0]
    data = Dataset([Article(article.title, [article.paragraphs[i] for i in PARAGRAPHS])], full.version)
    rows = shortcut_evidence(data, cache_dir=tmp_path_factory.mktemp("parses"))
    return data, rows


def _flagged(data, rows, category):
    """The first question flagged for ``category``, its paragraph and its row."""
    by_id = {q.id: (a.title, p, q) for a, p, q in data.iter_questions()}
    row = next(r for r in rows if r.of(category) is not None and r.of(category).flagged)
    return (*by_id[row.id], row)


def _located(title, p, q, cache_dir=False):
    from mrclens.parsing import parse_texts

    return locate(title, p, q, parse_texts([p.context], sentences=True, cache_dir=cache_dir)[0])


def _text(context, spans, role):
    return [context[s.start:s.end] for s in spans if s.role == role]


def test_each_categorys_evidence_is_marked_where_it_lies_on_a_real_question(sample_paragraphs):
    data, rows = sample_paragraphs
    for category in ("Similarity", "Question", "Keyword", "Position"):
        title, p, q, row = _flagged(data, rows, category)
        located = _located(title, p, q)
        assert located.row == row  # the evidence computed again is the file's, to the last field
        spans = evidence_spans(category, p, q, located)
        e = row.of(category)
        a = q.answers[0]
        unit = spans.units[spans.answer_unit]
        assert unit[0] <= a.answer_start and a.answer_end <= unit[1]
        if category == "Similarity":
            assert [(s.start, s.end) for s in spans.context if s.role == "sentence"] == [unit]
            words = [w for t in _text(p.context, spans.context, "word") for w in word_tokens(t)]
            assert len(words) == e.ordered_run and all(unit[0] <= s.start < s.end <= unit[1] for s in spans.context)
            # the same words, in the same order, are marked in the question; the wh-words never
            assert [w for t in _text(q.question, spans.question, "word") for w in word_tokens(t)] == words
            assert not set(words) & set(WH_WORDS)
        elif category == "Keyword":
            marked = [w for t in _text(p.context, spans.context, "word") for w in word_tokens(t)]
            assert list(dict.fromkeys(marked)) == e.next_to_answer and e.next_to_answer
            # each run touches the answer span: nothing but spaces and punctuation between
            for s in spans.context:
                between = p.context[s.end:a.answer_start] if s.end <= a.answer_start else p.context[a.answer_end:s.start]
                assert not word_tokens(between), (between, s)
            assert {w for t in _text(q.question, spans.question, "word") for w in word_tokens(t)} == set(e.next_to_answer)
        elif category == "Question":
            assert e.typed_exact and e.marks == "()"  # "When did the Yuan dynasty rule?" "(1271–1368)"
            (candidate,) = _text(p.context, spans.context, "candidate")
            assert normalize_answer(candidate) == normalize_answer(a.text) == normalize_answer(e.typed_answer)
            marks = sorted((s.start, s.end) for s in spans.context if s.role == "mark")
            assert marks == [(a.answer_start - 1, a.answer_start), (a.answer_end, a.answer_end + 1)]
            assert "".join(p.context[s:t] for s, t in marks) == e.marks
            assert [t.lower() for t in _text(q.question, spans.question, "word")] == ["when"]
        else:
            assert [(s.start, s.end) for s in spans.context] == [spans.units[0]] and spans.answer_unit == 0
            assert e.sentence_index == 0 and e.sentences == len(spans.units) >= 4
        # the pieces cover the excerpt exactly, the answer span where it is
        lo, hi = excerpt_bounds(spans, len(p.context))
        got = pieces(p.context, spans.context, [(a.answer_start, a.answer_end)], category, lo, hi)
        assert "".join(x.text for x in got) == p.context[lo:hi]
        assert "".join(x.text for x in got if x.answer) == a.text
        assert lo <= min(s.start for s in spans.context) and max(s.end for s in spans.context) <= hi


def _marked_macro():
    env = jinja2.Environment(loader=jinja2.PackageLoader("mrclens.reports", "templates"), autoescape=True)
    return env.get_template("exposed.html").module.marked


def test_a_context_holding_markup_is_shown_as_text_inside_its_marks(sample_paragraphs):
    """The first sentence of a real paragraph, with "<b>R&D</b> & co" inserted before the answer: Position's mark
    holds it escaped, and the marked pieces read back to the context's own characters."""
    data, _ = sample_paragraphs
    title = data.articles[0].title
    p0 = data.articles[0].paragraphs[0]
    q0 = p0.questions[0]  # "When did Kublai Khan conquer the song dynasty?" 1279, in the first of its sentences
    markup = "<b>R&D</b> & co"
    p = insert_text(p0, q0.answers[0].answer_start, markup)
    q = p.questions[0]
    (row,) = [r for r in shortcut_evidence(Dataset([Article(title, [p])], data.version), cache_dir=False)
              if r.id == q.id]
    assert row.position.flagged
    shown = exposed_question("Position", title, p, q, _located(title, p, q), row.position)
    page = str(_marked_macro()(shown.excerpt))
    assert "<b>" not in page and "&lt;b&gt;R&amp;D&lt;/b&gt; &amp; co" in page
    first = re.search(r'<mark class="ev ev-position ev-sentence">(.*?)</mark>', page).group(1)
    assert html.unescape(first).endswith(markup + " ")
    assert '<mark class="ev ev-position ev-sentence ans">1279</mark>' in page
    assert html.unescape(re.sub(r"<[^>]+>", "", page)) == "".join(x.text for x in shown.excerpt)
    assert p.context.startswith("".join(x.text for x in shown.excerpt))  # the excerpt starts the context (unit 0)


def test_the_most_exposed_come_flagged_first_then_by_strength_one_per_paragraph_first(sample_paragraphs):
    data, rows = sample_paragraphs
    where = {q.id: (a.title, p, q) for a, p, q in data.iter_questions()}
    for category in ("Similarity", "Question", "Keyword", "Position"):
        order = ranked(rows, category, where)
        keys = [(not r.of(category).flagged, -r.of(category).strength) for r in order]
        paragraphs = [id(where[r.id][1]) for r in order]
        first_seen = [i for i, x in enumerate(paragraphs) if x not in paragraphs[:i]]
        assert first_seen == list(range(len(first_seen)))  # every paragraph's first question before any second one
        assert keys[:len(first_seen)] == sorted(keys[:len(first_seen)])
        assert keys[len(first_seen):] == sorted(keys[len(first_seen):])
        assert all(r.of(category).strength > 0 for r in order)
        assert len(order) == sum(1 for r in rows if r.of(category) is not None and r.of(category).strength > 0)


def _section(page: str) -> str:
    start = page.index('<section id="exposed">')
    return page[start:page.index('<section id="ablations">')]


@pytest.mark.slow
def test_the_report_shows_every_categorys_most_exposed_questions_more_first(compared_audit):
    results = json.loads((compared_audit / "results.json").read_text(encoding="utf-8"))
    rows = read_shortcut_questions(compared_audit / SHORTCUT_QUESTIONS)
    section = _section(render_report(compared_audit))
    blocks = re.findall(r'<section class="exposed-category" id="exposed-([a-z-]+)"', section)
    more = [c["category"].lower() for c in results["categories"] if c["reference_bias"] == "more"]
    assert more and blocks[:len(more)] == more and sorted(blocks) == ["keyword", "position", "question", "similarity"]
    counts = {c.category.lower(): c for c in flag_counts(rows)}
    by_id = {r.id: r for r in rows}
    for slug in blocks:
        block = section[section.index(f'id="exposed-{slug}"'):]
        block = block[:block.index("</section>")]
        c = counts[slug]
        assert f"{c.flagged:,} of {c.answerable:,} answerable questions flagged ({c.pct:.1f} %" in block
        questions = re.findall(r'question id <code>([^<]+)</code>', block)
        assert 1 <= len(questions) <= EXPOSED_PER_CATEGORY
        category = slug.capitalize()
        flagged = [by_id[q].of(category).flagged for q in questions]
        assert flagged == sorted(flagged, reverse=True) and flagged[0]
        for excerpt in re.findall(r'<p class="context excerpt">(.*?)</p>', block, flags=re.S):
            assert f'<mark class="ev ev-{slug} ' in excerpt and '</mark>' in excerpt
            assert 'ans' in excerpt  # the gold answer span, marked apart


@pytest.mark.slow
def test_an_audit_folder_without_the_evidence_file_says_so_in_one_line(compared_audit, tmp_path):
    folder = Path(shutil.copytree(compared_audit, tmp_path / "audit"))
    (folder / SHORTCUT_QUESTIONS).unlink()
    page = render_report(folder)
    assert '<section id="exposed">' not in page and 'href="#exposed"' not in page
    (line,) = re.findall(r'<p class="muted small" id="exposed-missing">(.*?)</p>', page)
    assert SHORTCUT_QUESTIONS in line and "mrclens stats DATA --evidence" in line
    (folder / SHORTCUT_QUESTIONS).write_text('{"format_version": 1, "id": "x"}\n', encoding="utf-8")
    (line,) = re.findall(r'<p class="muted small" id="exposed-missing">(.*?)</p>', render_report(folder))
    assert "line 1" in line and "title" in line  # the artifact's own error: the line and the field


@pytest.mark.slow
def test_a_question_whose_text_changed_since_is_passed_over_and_counted(compared_audit, tmp_path):
    """The file's evidence no longer fits the folder's text (here a Similarity strength changed by hand): that
    question is not shown with marks that would not say what the file says, and a note counts it."""
    folder = Path(shutil.copytree(compared_audit, tmp_path / "audit"))
    lines = (folder / SHORTCUT_QUESTIONS).read_text(encoding="utf-8").splitlines()
    first = _section(render_report(folder))
    shown = re.findall(r'id="exposed-similarity-1">\s*<header><strong>[^<]*</strong><span>question id <code>([^<]+)',
                       first)[0]
    edited = []
    for line in lines:
        obj = json.loads(line)
        if obj["id"] == shown:
            obj["Similarity"]["ordered_run"] += 1
        edited.append(json.dumps(obj))
    (folder / SHORTCUT_QUESTIONS).write_text("\n".join(edited) + "\n", encoding="utf-8")
    section = _section(render_report(folder))
    assert f"<code>{shown}</code>" not in section[section.index('id="exposed-similarity"'):section.index('id="exposed-question"')]
    assert "1 question(s) passed over" in section
