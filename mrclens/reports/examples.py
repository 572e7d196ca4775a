"""Example items for the report's viewer: what an ablation did to a question, and what the model did.

For each ablation the viewer shows a few real items, chosen with a seeded random generator
among the items the ablation *changed* (unchanged items only when none changed), with the
question and context before and after, the text the ablation inserted highlighted, the gold
answers, and the model's prediction on both versions marked right or wrong.

What changed is computed from the data itself (original vs perturbed context of the same
question id, by common prefix/suffix and, failing that, a word-level ``difflib`` diff), so the
viewer does not depend on the exact form of the ``detail`` records in ``manifest.json``; those
records are shown as they are when present (e.g. a sentence permutation).

Per-question correctness is the official SQuAD EM/F1 that scoring computed
(:func:`mrclens.metrics.official.question_scores`, Rajpurkar et al. 2016), passed in as
``{question id: (EM, F1)}`` lookups; nothing is scored here.
"""

from __future__ import annotations

import difflib
import hashlib
import random
import re
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping

from mrclens.defaults import DEFAULT_EXAMPLES  # noqa: F401 - examples shown per ablation by default
from mrclens.reports.formatting import fmt_int, fmt_value, label
from mrclens.squad import Article, Dataset, Paragraph, Question


@dataclass(frozen=True)
class Segment:
    """A run of characters of a context or question that share the same highlighting.

    Attributes:
        text: the characters.
        inserted: the ablation added these characters (absent from the original).
        moved: the characters are in both versions but at another place (a reordering).
        deleted: the characters are in the original but not in the perturbed version.
        answer: the characters are inside a gold answer span.
        label: shown before the run, e.g. the original number of the sentence that starts here.
    """

    text: str
    inserted: bool = False
    moved: bool = False
    deleted: bool = False
    answer: bool = False
    label: str | None = None

    @property
    def css_class(self) -> str:
        """Space-separated CSS classes for the template (``""`` for plain text)."""
        names = [n for n, on in (("ins", self.inserted), ("moved", self.moved), ("del", self.deleted),
                                  ("ans", self.answer)) if on]
        return " ".join(names)


@dataclass
class Outcome:
    """The model's prediction on one version of one question.

    Attributes:
        prediction: the predicted answer text, ``None`` when the prediction file has none.
        exact_match: official EM, 0 or 1.
        f1: official token F1, 0–1.
    """

    prediction: str | None
    exact_match: float
    f1: float

    @property
    def verdict(self) -> str:
        """``"right"`` (EM 1), ``"partial"`` (0 < F1 < 1 without EM), ``"wrong"`` (F1 0) or ``"missing"``."""
        if self.prediction is None:
            return "missing"
        if self.exact_match >= 1.0:
            return "right"
        return "partial" if self.f1 > 0 else "wrong"


@dataclass
class Example:
    """One item shown in the viewer (all offsets in characters).

    Attributes:
        qid: the question id (the same in the original and the perturbed set).
        title: the article title.
        changed: whether the ablation changed this item.
        question_before / question_after: highlighted question text.
        context_before / context_after: highlighted context text.
        context_changed / question_changed: whether the text differs between the versions.
        change_kind: ``"insertion"``, ``"reordering"``, ``"edit"`` or ``"none"``.
        golds: gold answer texts (duplicates removed, order kept).
        before / after: the model's outcome on each version, ``None`` when there are no predictions.
        detail: the manifest's ``detail`` record for this item (may be empty).
        reason: the manifest's reason when the item was left unchanged.
    """

    qid: str
    title: str
    changed: bool
    question_before: list[Segment]
    question_after: list[Segment]
    context_before: list[Segment]
    context_after: list[Segment]
    context_changed: bool
    question_changed: bool
    change_kind: str
    golds: list[str]
    before: Outcome | None
    after: Outcome | None
    detail: dict[str, Any] = field(default_factory=dict)
    reason: str | None = None


def stable_seed(*parts: object) -> int:
    """A 64-bit seed from ``parts`` that is the same in every process (sha256, never ``hash()``)."""
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


def choose_examples(ids: list[str], changed: set[str], k: int, seed: int, ablation_id: str) -> list[str]:
    """Pick up to ``k`` question ids to show, preferring changed ones; result in ``ids`` order.

    The choice is a seeded random sample (``random.Random(stable_seed(seed, ablation_id))``), so
    the same results give the same examples. Changed items are used when there are any;
    unchanged ones fill up only when fewer than ``k`` items changed.

    Args:
        ids: every question id of the ablation set, in file order.
        changed: ids the ablation changed.
        k: how many to return at most.
        seed: the audit's seed.
        ablation_id: e.g. ``"e1"`` (so each ablation gets its own draw).
    """
    rng = random.Random(stable_seed("report-examples", seed, ablation_id))
    pool = [i for i in ids if i in changed]
    rest = [i for i in ids if i not in changed]
    chosen = set(rng.sample(pool, min(k, len(pool))))
    if len(chosen) < k and rest:
        chosen |= set(rng.sample(rest, min(k - len(chosen), len(rest))))
    return [i for i in ids if i in chosen]


# --------------------------------------------------------------------------- text differences

_TOKEN = re.compile(r"\s+|\w+|[^\w\s]+")


def _flags_to_segments(text: str, flags: list[tuple[bool, bool, bool, bool]],
                       labels: dict[int, str] | None = None) -> list[Segment]:
    labels = labels or {}
    segments: list[Segment] = []
    start = 0
    for i in range(1, len(text) + 1):
        if i == len(text) or flags[i] != flags[start] or i in labels:
            ins, moved, deleted, ans = flags[start]
            segments.append(Segment(text[start:i], ins, moved, deleted, ans, labels.get(start)))
            start = i
    return segments


_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s+")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Rough sentence spans ``(start, end)`` in characters: a break after ``.``, ``!`` or ``?`` (and closing
    quotes/brackets) followed by whitespace; the whitespace belongs to the sentence before it.

    Only used to show a sentence reordering; the ablations themselves use spaCy's sentences.
    """
    spans = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        spans.append((start, m.end()))
        start = m.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans


def sentence_reordering(before: str, after: str) -> tuple[dict[int, str], dict[int, str], list[bool]] | None:
    """Describe ``after`` as a reordering of the sentences of ``before``, if it is one.

    Returns:
        ``(labels_before, labels_after, moved)``: sentence numbers (1-based, in the original
        order) keyed by the character offset where each sentence starts, for both texts, and per
        character of ``after`` whether its sentence is at another position than in ``before``;
        ``None`` when ``after`` is not a reordering of the same sentences (by :func:`sentence_spans`).
    """
    b_spans, a_spans = sentence_spans(before), sentence_spans(after)
    b_text = [before[s:e].strip() for s, e in b_spans]
    a_text = [after[s:e].strip() for s, e in a_spans]
    if len(b_text) < 2 or sorted(b_text) != sorted(a_text):
        return None
    used: set[int] = set()
    mapping = []
    for t in a_text:
        i = next(i for i, x in enumerate(b_text) if x == t and i not in used)
        used.add(i)
        mapping.append(i)
    moved = [False] * len(after)
    for k, (s, e) in enumerate(a_spans):
        if mapping[k] != k:
            _mark(moved, after, s, e)
    return ({s: str(k + 1) for k, (s, _) in enumerate(b_spans)},
            {s: str(mapping[k] + 1) for k, (s, _) in enumerate(a_spans)}, moved)


def _mark(flags: list[bool], text: str, start: int, end: int) -> None:
    """Flag ``text[start:end]`` without its leading and trailing whitespace (whitespace-only: nothing)."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    for i in range(start, end):
        flags[i] = True


def _insertion_place(after: str, p: int, width: int) -> tuple[int, int]:
    """Where in ``after`` an inserted piece of ``width`` characters found at ``p`` (after the common prefix) lies.

    The piece can slide left while it begins like the text after it (``"W|ho … W|hat"``); of those
    places, the leftmost one where it starts after whitespace (or at 0) and ends with a space
    (the insertion rule: text, one space, at a token boundary) is taken, else ``p``.
    """
    places = [p]
    while places[-1] > 0 and after[places[-1] - 1] == after[places[-1] - 1 + width]:
        places.append(places[-1] - 1)
    fitting = [j for j in places if (j == 0 or after[j - 1].isspace()) and after[j + width - 1] == " "]
    start = fitting[-1] if fitting else p
    return start, start + width


def diff_marks(before: str, after: str) -> tuple[list[bool], list[bool], str]:
    """Characters that differ between ``before`` and ``after``.

    Returns:
        ``(removed, added, kind)``: ``removed[i]`` is true when ``before[i]`` is not kept in place,
        ``added[j]`` when ``after[j]`` is new or moved; ``kind`` is ``"none"`` (equal texts),
        ``"insertion"`` (``after`` is ``before`` with one contiguous piece inserted: found by
        common prefix and suffix; where several places fit, :func:`_insertion_place`'s, without
        the whitespace at its ends — :func:`inserted_marks` is exact when the perturbation record is known), ``"reordering"`` (the same words in another order, e.g. a
        sentence shuffle) or ``"edit"`` (anything else; word-level ``difflib`` opcodes).
    """
    removed = [False] * len(before)
    added = [False] * len(after)
    if before == after:
        return removed, added, "none"
    limit = min(len(before), len(after))
    p = 0
    while p < limit and before[p] == after[p]:
        p += 1
    s = 0
    while s < limit - p and before[len(before) - 1 - s] == after[len(after) - 1 - s]:
        s += 1
    if p + s == len(before):
        _mark(added, after, *_insertion_place(after, p, len(after) - len(before)))
        return removed, added, "insertion"
    a_tok = _TOKEN.findall(before)
    b_tok = _TOKEN.findall(after)
    kind = "reordering" if Counter(t for t in a_tok if not t.isspace()) == Counter(
        t for t in b_tok if not t.isspace()) else "edit"
    a_off = [0]
    for t in a_tok:
        a_off.append(a_off[-1] + len(t))
    b_off = [0]
    for t in b_tok:
        b_off.append(b_off[-1] + len(t))
    matcher = difflib.SequenceMatcher(None, a_tok, b_tok, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        _mark(removed, before, a_off[i1], a_off[i2])
        _mark(added, after, b_off[j1], b_off[j2])
    return removed, added, kind


def inserted_marks(before: str, after: str, detail: Mapping[str, Any] | None) -> list[bool] | None:
    """The characters of ``after`` that a recorded insertion added, exactly; ``None`` when the record does not fit.

    The insertion ablations and their controls (e1, e2, e6–e10 and c1, c2, c6–c10) record
    ``{"inserted": T, "offset": k}`` per changed item, and their rule
    (:func:`mrclens.perturbations.base.insert_text`) makes ``after == before[:k] + T + " " + before[k:]``;
    when that holds, exactly ``T`` (``after[k:k + len(T)]``) is marked. A text diff cannot always
    say where such a piece starts (``"W|ho is …? W|hat …"``), the record can.
    """
    if not isinstance(detail, Mapping):
        return None
    text, offset = detail.get("inserted"), detail.get("offset")
    if not isinstance(text, str) or not text or isinstance(offset, bool) or not isinstance(offset, int):
        return None
    if not 0 <= offset <= len(before) or after != before[:offset] + text + " " + before[offset:]:
        return None
    return [offset <= i < offset + len(text) for i in range(len(after))]


def highlight(text: str, changed: list[bool], answer_spans: list[tuple[int, int]], *,
              changed_as: str = "inserted", labels: dict[int, str] | None = None) -> list[Segment]:
    """Split ``text`` into :class:`Segment` runs.

    Args:
        text: the context or question.
        changed: per character, whether it is highlighted as changed (from :func:`diff_marks`).
        answer_spans: ``(start, end)`` character offsets (end exclusive) of gold answers.
        changed_as: ``"inserted"``, ``"moved"`` or ``"deleted"``: how changed characters are labelled.
        labels: ``{character offset: label}`` shown where a run starts (sentence numbers).
    """
    if not text:
        return []
    ans = [False] * len(text)
    for start, end in answer_spans:
        for i in range(max(0, start), min(len(text), end)):
            ans[i] = True
    flags = []
    for i in range(len(text)):
        c = changed[i] if i < len(changed) else False
        flags.append((c and changed_as == "inserted", c and changed_as == "moved", c and changed_as == "deleted", ans[i]))
    return _flags_to_segments(text, flags, labels)


# --------------------------------------------------------------------------- building examples


def _locate(dataset: Dataset) -> dict[str, tuple[Article, Paragraph, Question]]:
    return {q.id: (a, p, q) for a, p, q in dataset.iter_questions()}


def subset(dataset: Dataset, ids: set[str]) -> Dataset:
    """The questions of ``dataset`` whose id is in ``ids`` (same version; empty paragraphs dropped)."""
    articles = []
    for article in dataset.articles:
        paragraphs = []
        for p in article.paragraphs:
            qs = [q for q in p.questions if q.id in ids]
            if qs:
                paragraphs.append(Paragraph(p.context, qs))
        if paragraphs:
            articles.append(Article(article.title, paragraphs))
    return Dataset(articles, dataset.version, dataset.source)


def _outcome(qid: str, predictions: Mapping[str, str] | None, scores: Mapping[str, tuple[float, float]] | None) -> Outcome | None:
    if predictions is None or scores is None:
        return None
    em, f1 = scores.get(qid, (0.0, 0.0))
    return Outcome(predictions.get(qid), em, f1)


def build_examples(baseline: Dataset, ablated: Dataset, *, ablation_id: str, seed: int, k: int = DEFAULT_EXAMPLES,
                   changed_ids: set[str] | None = None, items: Mapping[str, Any] | None = None,
                   baseline_predictions: Mapping[str, str] | None = None,
                   ablated_predictions: Mapping[str, str] | None = None,
                   baseline_scores: Mapping[str, tuple[float, float]] | None = None,
                   ablated_scores: Mapping[str, tuple[float, float]] | None = None) -> list[Example]:
    """The viewer's examples for one ablation.

    Args:
        baseline: the set the ablation is compared with (``original`` or ``original-truncated``).
        ablated: the perturbed set; its question ids are a subset of ``baseline``'s.
        ablation_id: e.g. ``"e1"``; with ``seed`` it fixes the random choice.
        seed: the audit's seed.
        k: examples to show at most.
        changed_ids: ids the ablation changed (from ``manifest.json``); when ``None`` an item
            counts as changed when its question or context text differs from the baseline's.
        items: the manifest's per-item records ``{qid: {"changed", "reason", "detail"}}``, if any.
        baseline_predictions / ablated_predictions: ``{qid: answer}`` (official format), or
            ``None`` when the prediction file is absent.
        baseline_scores / ablated_scores: ``{qid: (EM, F1)}`` (0–1) as scoring computed them,
            or ``None`` when not available (the example then has no outcome).

    Returns:
        up to ``k`` :class:`Example` objects, in the ablated set's file order.
    """
    base = _locate(baseline)
    abl = _locate(ablated)
    ids = [qid for qid in abl if qid in base]
    if changed_ids is None:
        changed_ids = {qid for qid in ids if abl[qid][1].context != base[qid][1].context
                       or abl[qid][2].question != base[qid][2].question}
    chosen = choose_examples(ids, changed_ids, k, seed, ablation_id)
    items = items or {}
    out = []
    for qid in chosen:
        b_article, b_par, b_q = base[qid]
        _, a_par, a_q = abl[qid]
        record = items.get(qid) or {}
        detail = record.get("detail") if isinstance(record, Mapping) else None
        c_removed, c_added, c_kind = diff_marks(b_par.context, a_par.context)
        exact = inserted_marks(b_par.context, a_par.context, detail) if c_kind == "insertion" else None
        if exact is not None:
            c_added = exact
        q_removed, q_added, q_kind = diff_marks(b_q.question, a_q.question)
        if c_kind == "none":
            kind = "none" if q_kind == "none" else q_kind
        else:
            kind = c_kind
        moved = "moved" if c_kind == "reordering" else "inserted"
        labels_before = labels_after = None
        if c_kind == "reordering":
            reordering = sentence_reordering(b_par.context, a_par.context)
            if reordering is not None:
                labels_before, labels_after, c_added = reordering
        reason = record.get("reason") if isinstance(record, Mapping) else None
        golds = list(dict.fromkeys(a.text for a in (a_q.answers or b_q.answers)))
        out.append(Example(
            qid=qid,
            title=b_article.title,
            changed=qid in changed_ids,
            question_before=highlight(b_q.question, q_removed, [], changed_as="deleted"),
            question_after=highlight(a_q.question, q_added, [], changed_as="moved" if q_kind == "reordering" else "inserted"),
            context_before=highlight(b_par.context, c_removed if c_kind == "edit" else [False] * len(b_par.context),
                                     [(a.answer_start, a.answer_end) for a in b_q.answers], changed_as="deleted",
                                     labels=labels_before),
            context_after=highlight(a_par.context, c_added, [(a.answer_start, a.answer_end) for a in a_q.answers],
                                    changed_as=moved, labels=labels_after),
            context_changed=c_kind != "none",
            question_changed=q_kind != "none",
            change_kind=kind,
            golds=golds,
            before=_outcome(qid, baseline_predictions, baseline_scores),
            after=_outcome(qid, ablated_predictions, ablated_scores),
            detail=dict(detail) if isinstance(detail, Mapping) else {},
            reason=str(reason) if reason else None,
        ))
    return out


def prediction_flips(baseline: Dataset, ablated: Dataset, changed_ids: set[str],
                     baseline_predictions: Mapping[str, str], ablated_predictions: Mapping[str, str],
                     baseline_scores: Mapping[str, tuple[float, float]],
                     ablated_scores: Mapping[str, tuple[float, float]]) -> dict[str, int]:
    """How the model's official EM moved on the changed items.

    Args:
        baseline_scores / ablated_scores: ``{qid: (EM, F1)}`` (0–1) as scoring computed them; a
            question absent there counts as EM 0.

    Returns:
        ``{"changed": n, "prediction_changed": n whose predicted text differs,
        "right_to_wrong": n with EM 1 before and 0 after, "wrong_to_right": n with EM 0 before and 1 after}``.
    """
    base_q = baseline.questions_by_id()
    abl_q = ablated.questions_by_id()
    ids = changed_ids & set(base_q) & set(abl_q)
    before = {i: baseline_scores.get(i, (0.0, 0.0))[0] for i in ids}
    after = {i: ablated_scores.get(i, (0.0, 0.0))[0] for i in ids}
    return {
        "changed": len(ids),
        "prediction_changed": sum(1 for i in ids if baseline_predictions.get(i) != ablated_predictions.get(i)),
        "right_to_wrong": sum(1 for i in ids if before[i] == 1.0 and after[i] == 0.0),
        "wrong_to_right": sum(1 for i in ids if before[i] == 0.0 and after[i] == 1.0),
    }


def span_report_facts(original: Dataset, manifest: Mapping[str, Any]) -> dict[str, Any]:
    """The report's "the data" card for span sets (the task's entry in :data:`mrclens.reports.report.REPORT_FACTS`): counts, questions
    per paragraph (mean, median, min, max) and the truncated set (``manifest``: ``manifest.json`` as a dict)."""
    per_par = [len(p.questions) for _, p in original.iter_paragraphs()]
    counts = original.counts()
    facts: dict[str, Any] = {
        "counts": [(label(k), fmt_int(v)) for k, v in counts.items()],
        "qpp": [("mean", fmt_value(statistics.fmean(per_par)) if per_par else "–"),
                ("median", fmt_value(float(statistics.median(per_par))) if per_par else "–"),
                ("min", fmt_int(min(per_par)) if per_par else "–"),
                ("max", fmt_int(max(per_par)) if per_par else "–")],
        "truncated": None,
    }
    trunc = (manifest.get("sets") or {}).get("original-truncated")
    if isinstance(trunc, Mapping):
        facts["truncated"] = {
            "n": fmt_int(trunc.get("n")),
            "paragraphs_total": fmt_int(trunc.get("paragraphs_total")),
            "dropped": [(str(k), fmt_int(v)) for k, v in (trunc.get("dropped") or {}).items()],
        }
    return facts


def span_example_block(block: dict[str, Any], baseline: Dataset, ablated: Dataset, sources: Any, baseline_name: str, *,
                       ablation_id: str, seed: int, k: int, changed_ids: set[str] | None,
                       items: Mapping[str, Any] | None) -> None:
    """Fill one ablation's block of the report viewer (the task's entry in :data:`mrclens.reports.report.REPORT_EXAMPLES`): examples
    (:func:`build_examples`), prediction flips where both sets have predictions and scores
    (:func:`prediction_flips`; read through ``sources.predictions`` / ``sources.scores(set name)``)
    and how the examples were selected."""
    base_preds = sources.predictions(baseline_name)
    abl_preds = sources.predictions(ablation_id)
    base_scores = sources.scores(baseline_name) if base_preds is not None else None
    abl_scores = sources.scores(ablation_id) if abl_preds is not None else None
    block["examples"] = build_examples(baseline, ablated, ablation_id=ablation_id, seed=seed, k=k, changed_ids=changed_ids,
                                       items=items, baseline_predictions=base_preds, ablated_predictions=abl_preds,
                                       baseline_scores=base_scores, ablated_scores=abl_scores)
    if base_preds is not None and abl_preds is not None and base_scores is not None and abl_scores is not None:
        ids = changed_ids if changed_ids is not None else {e for e in ablated.questions_by_id()}
        block["flips"] = prediction_flips(baseline, ablated, ids, base_preds, abl_preds, base_scores, abl_scores)
        block["flips"]["scope"] = "all items" if changed_ids is None else "changed items"
    block["selection"] = ("chosen at random (seeded) among the items this ablation changed"
                          if any(e.changed for e in block["examples"]) else "no item was changed; unchanged items shown")
