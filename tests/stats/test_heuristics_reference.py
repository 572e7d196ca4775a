"""The three baselines and their upper bounds as ``mrclens stats`` runs them, question by
question against slow references written as plain loops, on real SQuAD paragraphs.

The code under test is the code that runs: :func:`mrclens.stats.paragraph.paragraph_figures`
(one paragraph's predictions, through :class:`~mrclens.stats.heuristics.PassageIndex`) and
:func:`mrclens.stats.compute_stats` (their official scores). The references below follow the
rules of the docstrings one step at a time, with none of the shortcuts of the fast code
(NumPy windows, candidate and token indexes, hit-bounded span search). They share with it
only the rule tables they implement: the regex patterns of the typed spans
(:func:`~mrclens.stats.heuristics.candidates.pattern_candidates`), the content-word test,
the question-word → answer-type rule and the type order of baseline (b); those have their own
hand-worked tests in ``test_heuristics.py``.
"""

from __future__ import annotations

import math
import operator
import re
from collections import Counter
from itertools import accumulate

import pytest

from mrclens.metrics.official import evaluate_set as evaluate
from mrclens.metrics.official import exact_match_score, f1_score, normalize_answer
from mrclens.parsing import parse_texts
from mrclens.formats import load_dataset
from mrclens.squad import Article, Dataset
from mrclens.stats import compute_stats
from mrclens.stats.core import first_answerable_index
from mrclens.stats.heuristics.answer_type import expected_answer_type
from mrclens.stats.heuristics.candidates import Candidate, pattern_candidates
from mrclens.stats.heuristics.type_matched import TYPE_ORDER
from mrclens.stats.paragraph import paragraph_figures
from mrclens.stats.similarity import most_similar_units
from mrclens.stats.text import is_content_word
from mrclens.units import sentence_units

# a module fixture of several seconds: left out of `make test`, run by `make test-slow` and CI
pytestmark = pytest.mark.slow

FIRST_K = 3
EVERY = 10  # every 10th paragraph of the bundled sample: 179 paragraphs, 868 questions, from all 40 articles

_WORD = re.compile(r"\w+")


# ----------------------------------------------------------------------------- references


def ref_words(text: str) -> list[tuple[str, int, int]]:
    """Lower-cased \\w+ tokens with their character offsets."""
    return [(m.group().lower(), m.start(), m.end()) for m in _WORD.finditer(text)]


def ref_question_words(question: str) -> set[str]:
    return set(_WORD.findall(question.lower()))


def ref_whitespace_tokens(context: str, start: int, end: int) -> list[tuple[int, int]]:
    """Whitespace tokens of context[start:end], walking the characters."""
    toks, i = [], start
    while i < end:
        if context[i].isspace():
            i += 1
            continue
        j = i
        while j < end and not context[j].isspace():
            j += 1
        toks.append((i, j))
        i = j
    return toks


def ref_first_k(context: str, unit: tuple[int, int], k: int) -> str:
    toks = ref_whitespace_tokens(context, *unit)[:k]
    return context[toks[0][0] : toks[-1][1]] if toks else ""


def ref_unit_candidates(context: str, unit: tuple[int, int]) -> list[Candidate]:
    """The patterns' spans plus the content-word runs of the words wholly inside the unit, by (start, end)."""
    s, e = unit
    cands = list(pattern_candidates(context[s:e], s))
    run: list[tuple[int, int]] = []  # the current run of content words
    for w, a, b in ref_words(context):
        if not (s <= a and b <= e):
            continue
        if is_content_word(w) and run and context[run[-1][1] : a] in (" ", "-"):
            run.append((a, b))
            continue
        if run:
            cands.append(Candidate(run[0][0], run[-1][1], "chunk"))
        run = [(a, b)] if is_content_word(w) else []
    if run:
        cands.append(Candidate(run[0][0], run[-1][1], "chunk"))
    return sorted(cands, key=lambda c: (c.start, c.end))  # stable: equal spans keep their order


def ref_type_matched(context: str, unit: tuple[int, int], question: str, k: int) -> str:
    q_words = ref_question_words(question)
    cands = [c for c in ref_unit_candidates(context, unit)
             if not set(_WORD.findall(context[c.start : c.end].lower())) <= q_words]
    chosen: list[Candidate] = []
    for types in TYPE_ORDER[expected_answer_type(question)]:
        chosen = [c for c in cands if c.type in types]
        if chosen:
            break
    if not chosen:
        return ref_first_k(context, unit, k)
    s, e = unit
    anchors = [(a, b) for w, a, b in ref_words(context)
               if s <= a and b <= e and w in q_words and is_content_word(w)]
    best, best_gap = chosen[0], math.inf
    if anchors:
        for c in chosen:
            gaps = []
            for a, b in anchors:
                if b <= c.start:
                    gaps.append(c.start - b)
                elif a >= c.end:
                    gaps.append(a - c.end)
                else:
                    gaps.append(0)
            if min(gaps) < best_gap:
                best, best_gap = c, min(gaps)
    return context[best.start : best.end]


def ref_sliding_window(context: str, units: list[tuple[int, int]], questions: list[str]) -> list[Candidate | None]:
    """MCTest SW over every unit's candidates, for each question: for each candidate A, S = Q ∪ A
    and the best sum of IC over a window of |S| passage words (cut short at the passage end);
    the first best candidate wins."""
    passage = ref_words(context)
    n = len(passage)
    count = Counter(w for w, _, _ in passage)
    ic = [math.log1p(1.0 / count[w]) for w, _, _ in passage]
    candidates, seen = [], set()  # (candidate, its words): the first of each span, with words
    for unit in units:
        for c in ref_unit_candidates(context, unit):
            if (c.start, c.end) not in seen:
                seen.add((c.start, c.end))
                a_words = {w for w, a, b in passage if a < c.end and b > c.start}
                if a_words:
                    candidates.append((c, a_words))
    out = []
    for question in questions:
        q_words = ref_question_words(question)
        best, best_score = None, -math.inf
        for c, a_words in candidates:
            if a_words <= q_words:
                continue
            target = q_words | a_words
            width = min(len(target), n)
            # prefix[i] = IC summed over the first i passage words that are in S, left to right;
            # the window starting at word j ends at word min(j + width, n)
            prefix = list(accumulate((x if w in target else 0.0 for (w, _, _), x in zip(passage, ic)), initial=0.0))
            window_ends = prefix[width:] + [prefix[n]] * (width - 1)
            score = max(map(operator.sub, window_ends, prefix[:n]))
            if score > best_score:
                best, best_score = c, score
        out.append(best)
    return out


def ref_best_span(context: str, unit: tuple[int, int], golds: list[tuple[int, str]]) -> str:
    """A gold answer wholly inside the unit, else the span of whitespace tokens with the highest
    official F1 against any gold, trying every (first token, last token) pair."""
    s, e = unit
    for start, text in golds:
        if s <= start and start + len(text) <= e:
            return text
    gold_bags = [Counter(normalize_answer(g).split()) for _, g in golds]
    toks = ref_whitespace_tokens(context, s, e)
    best, best_f1 = "", 0.0
    for i in range(len(toks)):
        for j in range(i, len(toks)):
            span = context[toks[i][0] : toks[j][1]]
            words = normalize_answer(span).split()
            bag = Counter(words)
            for gold in gold_bags:  # f1_score(span, gold), with the gold normalised once
                same = sum(min(k, bag[w]) for w, k in gold.items())  # |bag ∩ gold|
                if same:
                    precision, recall = same / len(words), same / sum(gold.values())
                    f1 = 2 * precision * recall / (precision + recall)
                    if f1 > best_f1:
                        best, best_f1 = span, f1
    return best


def official(prediction: str, golds: list[tuple[int, str]]) -> tuple[float, float]:
    """(EM, F1) of one prediction, maximised over the gold answers."""
    return (max(float(exact_match_score(prediction, g)) for _, g in golds),
            max(f1_score(prediction, g) for _, g in golds))


# ----------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def real_slice(sample_path, tmp_path_factory):
    """Every 10th paragraph of the bundled sample, with its sentence units and, per answerable
    question, its TF-IDF-most-similar unit, made as compute_stats makes them."""
    full = load_dataset(sample_path)
    paragraphs = [p for i, (_, p) in enumerate(full.iter_paragraphs()) if i % EVERY == 0]
    ds = Dataset([Article("slice", paragraphs)], full.version, "slice")
    cache = tmp_path_factory.mktemp("parse-cache")
    parsed = parse_texts([p.context for p in paragraphs], sentences=True, cache_dir=cache)
    units = [sentence_units(p.context, pp, [(a.answer_start, a.answer_end) for q in p.questions for a in q.answers])
             for p, pp in zip(paragraphs, parsed)]
    answerable = [(pi, q) for pi, p in enumerate(paragraphs) for q in p.questions if q.answers]
    sims, _ = most_similar_units([q.question for _, q in answerable], [pi for pi, _ in answerable],
                                 [[p.context[s:e] for s, e in us] for p, us in zip(paragraphs, units)])
    first = first_answerable_index(paragraphs)
    per_paragraph_sims = [sims[first[i] : first[i + 1]] for i in range(len(paragraphs))]
    return ds, paragraphs, units, per_paragraph_sims, cache


def reference_predictions(paragraphs, units, sims):
    """question id -> the six predictions (a, b, c, ua, ub, uc) of the references."""
    out = {}
    for p, us, p_sims in zip(paragraphs, units, sims):
        qs = [q for q in p.questions if q.answers]
        windows = ref_sliding_window(p.context, us, [q.question for q in qs])
        for q, best, cand in zip(qs, p_sims, windows):
            golds = [(a.answer_start, a.text) for a in q.answers]
            upper: dict[tuple[int, int], str] = {}

            def upper_bound(unit):
                if unit not in upper:
                    upper[unit] = ref_best_span(p.context, unit, golds)
                return upper[unit]

            a = ua = b = ub = c = uc = None
            if us:
                a, ua = ref_first_k(p.context, us[0], FIRST_K), upper_bound(us[0])
                b, ub = ref_type_matched(p.context, us[best], q.question, FIRST_K), upper_bound(us[best])
            if cand is not None:
                c = p.context[cand.start : cand.end]
                uc = upper_bound(next(u for u in us if u[0] <= cand.start < u[1]))
            out[q.id] = (a, b, c, ua, ub, uc)
    return out


@pytest.fixture(scope="module")
def references(real_slice):
    _, paragraphs, units, sims, _ = real_slice
    return reference_predictions(paragraphs, units, sims)


# ----------------------------------------------------------------------------- tests


@pytest.mark.slow
def test_paragraph_predictions_equal_the_references_question_by_question(real_slice, references):
    """Baselines (a), (b), (c) give the references' spans; each upper bound scores (official EM
    and F1) what the exhaustive search over the unit's spans scores."""
    ds, paragraphs, units, sims, _ = real_slice
    n_questions = 0
    kinds_seen = Counter()
    for p, us, p_sims in zip(paragraphs, units, sims):
        figures = paragraph_figures(p, us, p_sims, FIRST_K)
        qs = [q for q in p.questions if q.answers]
        assert len(figures["preds"]) == len(qs)
        for q, got in zip(qs, figures["preds"]):
            want = references[q.id]
            golds = [(a.answer_start, a.text) for a in q.answers]
            assert got[:3] == want[:3], (q.id, q.question, got[:3], want[:3])
            for g, w in zip(got[3:], want[3:]):
                assert (g is None) == (w is None), q.id
                if g is not None:
                    assert g in p.context, q.id
                    em_g, f1_g = official(g, golds)
                    em_w, f1_w = official(w, golds)
                    assert em_g == em_w and f1_g == pytest.approx(f1_w, abs=1e-12), (q.id, g, w)
                    kinds_seen["upper bound below 100" if f1_w < 1 else "upper bound 100"] += 1
            n_questions += 1
    assert n_questions == sum(1 for _, _, q in ds.iter_questions() if q.answers) > 800
    # many upper bounds are partial spans (F1 below 100), many reach the gold answer
    assert kinds_seen["upper bound below 100"] > 100 and kinds_seen["upper bound 100"] > 100


def test_compute_stats_scores_are_the_official_scores_of_the_references(real_slice, references):
    """The heuristics section of compute_stats is the official EM/F1 of the references'
    predictions (a question without a prediction scores 0)."""
    ds, _, _, _, cache = real_slice
    stats = compute_stats(ds, cache_dir=cache, progress=False, first_k=FIRST_K, n_process=1)
    for name, (i, ui) in {"first_k": (0, 3), "type_matched_sentence": (1, 4), "sliding_window": (2, 5)}.items():
        preds = {qid: row[i] for qid, row in references.items() if row[i] is not None}
        upper = {qid: row[ui] for qid, row in references.items() if row[ui] is not None}
        own, best = evaluate(ds, preds), evaluate(ds, upper)
        h = stats["heuristics"][name]
        assert h["n"] == own["total"] == len(references)
        assert h["exact_match"] == pytest.approx(own["exact_match"], abs=1e-9), name
        assert h["f1"] == pytest.approx(own["f1"], abs=1e-9), name
        assert h["upper_bound_exact_match"] == pytest.approx(best["exact_match"], abs=1e-9), name
        assert h["upper_bound_f1"] == pytest.approx(best["f1"], abs=1e-9), name
        assert 0 < h["f1"] < h["upper_bound_f1"] < 100
