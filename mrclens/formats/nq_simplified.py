"""Natural Questions, simplified JSON Lines (Kwiatkowski et al. 2019; Google's ``simplify_nq_data.py``).

Each line is ``{"document_text": str, "long_answer_candidates": [...], "question_text": str,
"annotations": [...], "document_url": str, "example_id": int}``. ``document_text`` is the page's
tokens joined by single spaces, HTML tags included as tokens (``<P>``, ``<Table>``,
``<Th_colspan="2">``); every span is in **tokens** with an exclusive end; "no long answer" is
``candidate_index == -1``. ``example_id`` can exceed 2^63 and is kept exact (as a string id).

Conversion to SQuAD form, the one MRCLens issue #18 attributes to Bartolo et al. 2020 ("Beat the AI")
for their NQ set (not checked against the paper here), with options for the cases it leaves open:

* The **long answer** is the candidate that most annotations chose (ties: the first chosen).
  Context = its tokens **without HTML tags**, joined by single spaces.
* The **answer** = the short-answer token span, without HTML tags; its character offset in the
  context is recomputed from the token positions (so ``answer_start`` is exact, in characters).
  Every annotation on the chosen long answer adds its short answer as a gold answer (NQ dev has
  five annotations per example); identical answers are merged.
* Options, each counted in :attr:`Loaded.counts` (``seen_<case>`` and, when dropped, ``dropped_<case>``):

  - ``yes_no``: an example whose answer is YES/NO and has no short span: ``"drop"`` (default) or
    ``"unanswerable"`` (kept with no answer, SQuAD v2.0 form; an extractive reader cannot answer it).
  - ``multi_span``: an annotation with several short spans: ``"drop"`` (default: that annotation
    gives no answer), ``"first"`` (its first span), ``"all"`` (each span a separate gold answer) or
    ``"cover"`` (one answer from the first span's start to the last span's end).
  - ``tables_lists``: a long answer that is a table or list (starts with ``<Table>``, ``<Tr>``,
    ``<Ul>``, ``<Ol>`` or ``<Dl>``): ``"drop"`` (default) or ``"keep"`` (its text without tags).
  - ``no_long_answer``: ``"drop"`` (default) or ``"unanswerable"``: kept with no answer on the first
    top-level ``<P>`` candidate of the page (the first top-level candidate if there is none).
  - ``long_only``: a long answer without a short one: ``"drop"`` (default) or ``"unanswerable"``
    (no answer on that long answer).

  When any example is kept as unanswerable the dataset is SQuAD v2.0 (``is_impossible`` on every
  question), else v1.1.
* Title: the ``title=`` parameter of ``document_url`` with ``_`` as spaces; examples on the same
  page are paragraphs of one article.
* Every line is one record of the record contract (:mod:`mrclens.formats.base`): kept, dropped by an
  option above (counted by reason), or refused (skipped with ``on_invalid="skip"``) with its line and
  its true reason: a missing field, ``annotations`` that is not a list of objects, a
  ``candidate_index`` or token that is not an integer (``"15"``, null), a ``long_answer`` that is not
  an object, a span that is empty or reversed, a span outside the document.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from typing import Any
from urllib.parse import parse_qs, urlsplit

from mrclens.errors import FormatMsg, MRCLensError
from mrclens.formats.base import Format, Loaded, RecordLog, iter_jsonl, register_format, validated

OPTIONS = {
    "yes_no": ("drop", "unanswerable"),
    "multi_span": ("drop", "first", "all", "cover"),
    "tables_lists": ("drop", "keep"),
    "no_long_answer": ("drop", "unanswerable"),
    "long_only": ("drop", "unanswerable"),
}
_TAG = re.compile(r"^</?[A-Za-z][^<>]*>$")
_TABLE_LIST = ("<Table", "<Tr", "<Ul", "<Ol", "<Dl")

COUNT_NOTES = {
    "examples": "examples read",
    "kept_answerable": "examples kept with a short answer",
    "kept_unanswerable": "examples kept as unanswerable (SQuAD v2.0 form)",
    "seen_no_long_answer": "examples without a long answer",
    "seen_tables_lists": "examples whose long answer is a table or list",
    "seen_yes_no": "examples answered YES/NO without a short span",
    "seen_multi_span": "examples with an annotation of several short spans",
    "seen_long_only": "examples with a long answer but no short answer",
    "dropped_no_long_answer": "dropped: no long answer",
    "dropped_tables_lists": "dropped: long answer is a table or list",
    "dropped_yes_no": "dropped: YES/NO answer",
    "dropped_multi_span": "dropped: only multi-span short answers",
    "dropped_long_only": "dropped: long answer only",
    "short_outside_long": "short spans ignored because they lie outside the long answer",
}


def check_options(options: dict[str, str]) -> dict[str, str]:
    """The options with defaults filled in.

    Raises:
        MRCLensError: an unknown option or value (the message lists the allowed values).
    """
    out = {name: allowed[0] for name, allowed in OPTIONS.items()}
    for name, value in options.items():
        if name not in OPTIONS:
            raise MRCLensError(FormatMsg.NQ_OPTION.format(name="(name)", value=name, allowed=", ".join(OPTIONS)))
        if value not in OPTIONS[name]:
            raise MRCLensError(FormatMsg.NQ_OPTION.format(name=name, value=value, allowed=", ".join(OPTIONS[name])))
        out[name] = value
    return out


def title_from_url(url: Any) -> str | None:
    """``https://en.wikipedia.org//w/index.php?title=The_Mother_(...)&amp;oldid=1`` → ``"The Mother (...)"``."""
    if not isinstance(url, str):
        return None
    values = parse_qs(urlsplit(html.unescape(url)).query).get("title")
    return values[0].replace("_", " ") if values else None


def _text_of(tokens: list[str], start: int, end: int) -> tuple[str, list[int | None], list[int | None]]:
    """Join the non-tag tokens of ``[start, end)`` with single spaces; also each token's character
    start and end in that text (``None`` for a tag)."""
    parts: list[str] = []
    starts: list[int | None] = []
    ends: list[int | None] = []
    pos = 0
    for tok in tokens[start:end]:
        if _TAG.match(tok) or not tok:
            starts.append(None)
            ends.append(None)
            continue
        if parts:
            pos += 1
        starts.append(pos)
        parts.append(tok)
        pos += len(tok)
        ends.append(pos)
    return " ".join(parts), starts, ends


def read_text(text: str, file: str, on_invalid: str = "refuse", **options: str) -> Loaded:
    """Read simplified-NQ JSON Lines text; ``options`` as in the module docstring, ``on_invalid`` as in
    :func:`mrclens.formats.base.validated`."""
    opts = check_options(options)
    log = RecordLog(file, on_invalid)
    counts = dict.fromkeys(COUNT_NOTES, 0)
    articles: dict[str, dict[str, Any]] = {}
    any_unanswerable = False
    for line, ex in iter_jsonl(text, log, "nq-simplified"):
        log.read()
        counts["examples"] += 1
        item, context, title = _convert(ex, line, file, opts, counts, log)
        if item is None:
            continue
        any_unanswerable |= not item["answers"]
        article = articles.setdefault(title, {"title": title, "paragraphs": []})
        article["paragraphs"].append({"context": context, "qas": [item]})
    if any_unanswerable:
        for article in articles.values():
            for p in article["paragraphs"]:
                for item in p["qas"]:
                    item["is_impossible"] = not item["answers"]
    dataset, problems, records = validated({"version": "v2.0" if any_unanswerable else "1.1",
                                            "data": list(articles.values())}, file, log)
    notes = [f"{counts[k]:,} {COUNT_NOTES[k]}" for k in COUNT_NOTES if counts[k]]
    return Loaded(dataset, "nq-simplified", "jsonl", problems=problems, counts=counts, notes=notes, records=records)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _span_problem(where: dict[str, Any], what: str, start: Any, end: Any, n_tokens: int) -> str | None:
    """Why ``[start, end)`` is not a usable token span of a document of ``n_tokens`` tokens (``None``: it is).
    ``where``: ``line`` and ``qid`` for the message."""
    for name, value in (("start_token", start), ("end_token", end)):
        if not _is_int(value):
            return FormatMsg.NQ_SPAN_NOT_INT.format(**where, what=what, field=name, value=value)
    if start >= end:
        return FormatMsg.NQ_SPAN_REVERSED.format(**where, what=what, start=start, end=end)
    if start < 0 or end > n_tokens:
        return FormatMsg.NQ_BAD_SPAN.format(**where, what=what, start=start, end=end, n_tokens=n_tokens)
    return None


def _structure_problem(ex: dict[str, Any], where: dict[str, Any]) -> str | None:
    """Why the example's ``annotations`` / ``long_answer_candidates`` cannot be read (``None``: they can):
    a list of objects; each ``long_answer`` an object (or null) whose ``candidate_index`` is an integer;
    ``short_answers`` a list of objects."""
    def bad(field: str, expected: str, value: Any) -> str:
        return FormatMsg.NQ_BAD_FIELD.format(**where, field=field, expected=expected, value=value)

    annotations = ex.get("annotations")
    if not isinstance(annotations, list) or not all(isinstance(a, dict) for a in annotations):
        return bad("annotations", "a list of objects", annotations)
    for i, a in enumerate(annotations):
        la = a.get("long_answer")
        if la is not None and not isinstance(la, dict):
            return bad(f"annotations[{i}].long_answer", "an object", la)
        if la is not None and "candidate_index" in la and not _is_int(la["candidate_index"]):
            return bad(f"annotations[{i}].long_answer.candidate_index", "an integer (-1: no long answer)",
                       la["candidate_index"])
        shorts = a.get("short_answers")
        if shorts is not None and (not isinstance(shorts, list) or not all(isinstance(s, dict) for s in shorts)):
            return bad(f"annotations[{i}].short_answers", "a list of objects", shorts)
    cands = ex.get("long_answer_candidates")
    if cands is not None and (not isinstance(cands, list) or not all(isinstance(c, dict) for c in cands)):
        return bad("long_answer_candidates", "a list of objects", cands)
    return None


def _convert(ex, line, file, opts, counts, log: RecordLog):
    qid = ex.get("example_id")
    qname = str(qid) if isinstance(qid, (int, str)) and not isinstance(qid, bool) else None
    doc = ex.get("document_text")
    title = title_from_url(ex.get("document_url")) or f"NQ line {line}"
    if not isinstance(doc, str) or qname is None or not isinstance(ex.get("question_text"), str):
        field = "document_text" if not isinstance(doc, str) else "example_id" if qname is None else "question_text"
        log.invalid(FormatMsg.RECORD_MISSING.format(where=f"line {line}", field=field,
                                                    expected="present and of the right type"), title, qname)
        return None, None, title
    where = {"line": line, "qid": qname}
    problem = _structure_problem(ex, where)
    if problem is not None:
        log.invalid(problem, title, qname)
        return None, None, title
    tokens = doc.split(" ")
    annotations = ex["annotations"]
    item = {"id": qname, "question": ex["question_text"], "answers": []}

    def refuse_span(what, start, end) -> bool:
        problem = _span_problem(where, what, start, end, len(tokens))
        if problem is not None:
            log.invalid(problem, title, qname)
        return problem is not None

    chosen = Counter()
    spans = {}
    for a in annotations:
        la = a.get("long_answer") or {}
        if la.get("candidate_index", -1) >= 0:
            chosen[la["candidate_index"]] += 1
            spans.setdefault(la["candidate_index"], (la.get("start_token"), la.get("end_token")))
    if not chosen:
        counts["seen_no_long_answer"] += 1
        if opts["no_long_answer"] == "drop":
            counts["dropped_no_long_answer"] += 1
            log.drop()
            return None, None, title
        cands = [c for c in ex.get("long_answer_candidates") or [] if c.get("top_level")]
        paras = [c for c in cands if _is_int(c.get("start_token")) and 0 <= c["start_token"] < len(tokens)
                 and tokens[c["start_token"]] == "<P>"]
        cand = (paras or cands or [None])[0]
        if cand is None:
            counts["dropped_no_long_answer"] += 1
            log.drop()
            return None, None, title
        if refuse_span("first top-level candidate", cand.get("start_token"), cand.get("end_token")):
            return None, None, title
        context, _, _ = _text_of(tokens, cand["start_token"], cand["end_token"])
        counts["kept_unanswerable"] += 1
        return item, context, title
    best = max(chosen.values())
    index = next(i for i in chosen if chosen[i] == best)  # Counter keeps first-seen order
    start, end = spans[index]
    if refuse_span("long answer", start, end):
        return None, None, title
    if tokens[start].startswith(_TABLE_LIST):
        counts["seen_tables_lists"] += 1
        if opts["tables_lists"] == "drop":
            counts["dropped_tables_lists"] += 1
            log.drop()
            return None, None, title
    context, starts, ends = _text_of(tokens, start, end)
    on_chosen = [a for a in annotations if (a.get("long_answer") or {}).get("candidate_index") == index]
    answers, seen = [], set()
    multi = yes_no = False
    for a in on_chosen:
        shorts = a.get("short_answers") or []
        if a.get("yes_no_answer") not in (None, "NONE") and not shorts:
            yes_no = True
        if len(shorts) > 1:
            multi = True
            mode = opts["multi_span"]
            if mode == "drop":
                continue
            if mode == "first":
                shorts = shorts[:1]
            elif mode == "cover":
                shorts = [{"start_token": shorts[0].get("start_token"), "end_token": shorts[-1].get("end_token")}]
        for s in shorts:
            s0, s1 = s.get("start_token"), s.get("end_token")
            if refuse_span("short answer", s0, s1):
                return None, None, title
            if not (start <= s0 and s1 <= end):
                counts["short_outside_long"] += 1
                continue
            char_starts = [c for c in starts[s0 - start:s1 - start] if c is not None]
            char_ends = [c for c in ends[s0 - start:s1 - start] if c is not None]
            if not char_starts:
                continue
            answer = (context[char_starts[0]:char_ends[-1]], char_starts[0])
            if answer not in seen:
                seen.add(answer)
                answers.append({"text": answer[0], "answer_start": answer[1]})
    counts["seen_multi_span"] += multi
    if answers:
        counts["kept_answerable"] += 1
        item["answers"] = answers
        return item, context, title
    case = "yes_no" if yes_no else "multi_span" if multi else "long_only"
    if case != "multi_span":
        counts[f"seen_{case}"] += 1
    if case == "multi_span" or opts[case] == "drop":
        counts[f"dropped_{case}"] += 1
        log.drop()
        return None, None, title
    counts["kept_unanswerable"] += 1
    return item, context, title


NQ_SIMPLIFIED = register_format(Format(
    name="nq-simplified",
    order=3,
    description="Natural Questions simplified JSON Lines (document_text, long_answer_candidates, annotations)",
    claims_line=lambda obj: "document_text" in obj,
    line_label="a Natural Questions line (document_text)",
    file_label="simplified Natural Questions",
    options=OPTIONS,
    read_lines=read_text,
    lines_only=True,
))
