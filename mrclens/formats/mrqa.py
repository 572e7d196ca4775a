"""MRQA 2019 shared-task JSON Lines (Fisch et al. 2019, https://github.com/mrqa/MRQA-Shared-Task-2019).

Line 1 is a header ``{"header": {"dataset": name, "split": ...}}``; every further line is one
context::

    {"context": str, "context_tokens": [[token, char offset], ...],
     "qas": [{"qid": str, "question": str, "answers": [str, ...],
              "detected_answers": [{"text": str, "char_spans": [[start, end], ...],
                                    "token_spans": [[start, end], ...]}, ...]}, ...]}

How MRCLens turns it into SQuAD form (every count is in :attr:`Loaded.counts`):

* ``char_spans`` are **inclusive** character offsets: the span text is ``context[start:end + 1]``.
  Each span becomes one gold answer whose text is the span text, so every ``answer_start`` is exact.
* ``detected_answers[].text`` is the answer string, not always the span text (articles, case,
  punctuation, hyphens). Such spans are counted as ``spans_normalised`` when the two agree after the
  official SQuAD answer normalisation, else ``spans_text_differs``; in both cases the span text is used.
* One detected answer may list several occurrences: each is kept as its own gold answer
  (``spans_extra_occurrences`` counts those after the first). Every span is either dropped,
  merged or kept: ``spans == spans_dropped + spans_merged + answers``.
* Identical gold answers (same text, same start) are merged into one (``spans_merged``): MRQA repeats
  a detected answer once per annotator (MRQA issue #6).
* Every question is one record of the record contract (:mod:`mrclens.formats.base`): a line that is
  not a JSON object, a line of another format (e.g. a flat Hugging Face record appended to the file),
  a context line whose ``context`` is not a string (its questions are counted) or whose ``qas`` is not a
  list (one record), and an element of ``qas`` that is not an object are refused (or, with
  ``on_invalid="skip"``, skipped), each naming its line.
* A span that is not a pair of integers inside the context, or whose text is blank, is dropped
  (``spans_dropped``, with a warning naming the line and question); a question left without any
  answer is dropped (``questions_dropped``, an error unless ``on_no_span="drop"``).
* The ``answers`` strings are kept in each question's ``mrqa_answers`` field; they are not used as
  gold answers because they need not occur in the context (DuoRC, MRQA issue #11).
* Ids: ``qid`` by default; ``id_field="id"`` uses the ``id`` field where a shard has one (the SQuAD
  shard's original SQuAD ids). The other one is kept in ``mrqa_qid`` / ``original_id``.
* Titles: MRQA has none, so each context is its own article titled ``"<dataset> context <n>"``
  (``n`` counts contexts from 1); an audit that splits by title therefore splits by context.
* ``context_tokens`` and ``question_tokens`` are not kept (MRCLens tokenizes for itself).
"""

from __future__ import annotations

from typing import Any

from mrclens.errors import FormatMsg, MRCLensError, Problem
from mrclens.formats.base import Format, Loaded, RecordLog, iter_jsonl, register_format, validated
from mrclens.metrics.official import normalize_answer

COUNT_NOTES = {
    "contexts": "contexts read",
    "questions": "questions read",
    "spans": "char spans in detected answers",
    "spans_normalised": "spans (merged ones included) whose text differs from the detected answer's text only by SQuAD normalisation "
                        "(case, articles, punctuation); the span text is used",
    "spans_text_differs": "spans (merged ones included) whose text differs from the detected answer's text even after SQuAD normalisation "
                          "(e.g. hyphens); the span text is used",
    "spans_extra_occurrences": "gold answers kept that are a further occurrence (another position) of the same detected answer",
    "spans_merged": "spans merged into an identical gold answer (same text and start; MRQA repeats answers per annotator)",
    "spans_dropped": "spans dropped: not a pair of integers inside the context, or blank text",
    "questions_dropped": "questions dropped: no usable span left",
    "answers": "gold answers kept",
}


#: The reader's options and their allowed values (the first is the default).
OPTIONS = {"id_field": ("qid", "id"), "merge_duplicates": (True, False), "on_no_span": ("error", "drop")}


def check_option_values(**options: Any) -> None:
    """Refuse an option value the reader does not know (``merge_duplicates=perhaps`` would read as true).

    Raises:
        MRCLensError: the message names the option and lists its allowed values.
    """
    for name, value in options.items():
        allowed = OPTIONS[name]
        if isinstance(value, bool) != isinstance(allowed[0], bool) or value not in allowed:
            shown = ", ".join(str(a).lower() if isinstance(a, bool) else a for a in allowed)
            raise MRCLensError(FormatMsg.NQ_OPTION.format(name=name, value=value, allowed=shown))


def read_text(text: str, file: str, *, id_field: str = "qid", merge_duplicates: bool = True,
              on_no_span: str = "error", on_invalid: str = "refuse") -> Loaded:
    """Read MRQA JSON Lines text.

    Args:
        text: the decompressed file.
        file: the file name for messages.
        id_field: ``"qid"`` (MRQA's id, default) or ``"id"`` (the original id where a shard has one;
            ``qid`` otherwise).
        merge_duplicates: merge identical gold answers (same text and start) into one.
        on_no_span: ``"error"`` or ``"drop"``: what a question without a usable span is.
        on_invalid: ``"refuse"``, ``"skip"`` or ``"repair"`` (:func:`mrclens.formats.base.validated`).

    Raises:
        MRCLensError: an option value not in :data:`OPTIONS` (:func:`check_option_values`).
    """
    check_option_values(id_field=id_field, merge_duplicates=merge_duplicates, on_no_span=on_no_span)
    log = RecordLog(file, on_invalid)
    counts = dict.fromkeys(COUNT_NOTES, 0)
    name = None
    articles: list[dict[str, Any]] = []
    for line, obj in iter_jsonl(text, log, "mrqa"):
        if "header" in obj:
            if name is not None or articles:
                log.invalid(FormatMsg.MRQA_HEADER_ONLY.format(line=line), records=0)
            header = obj["header"] if isinstance(obj["header"], dict) else {}
            name = str(header.get("dataset") or "MRQA")
            continue
        counts["contexts"] += 1
        title = f"{name or 'MRQA'} context {counts['contexts']}"
        context, qas = obj.get("context"), obj.get("qas")
        if not isinstance(qas, list):
            log.read()
            log.invalid(FormatMsg.RECORD_MISSING.format(where=f"line {line}", field="qas", expected="a list of questions"),
                        title)
            continue
        log.read(len(qas))
        if not isinstance(context, str):
            log.invalid(FormatMsg.MRQA_BAD_CONTEXT.format(line=line, n=len(qas)), title, records=len(qas))
            continue
        items = []
        for qi, qa in enumerate(qas):
            if not isinstance(qa, dict):
                log.invalid(FormatMsg.RECORD_MISSING.format(where=f"line {line}", field=f"qas[{qi}]",
                                                            expected="a JSON object"), title)
                continue
            counts["questions"] += 1
            item = _question(qa, context, line, title, file, id_field, merge_duplicates, on_no_span, counts, log)
            if item is not None:
                items.append(item)
        articles.append({"title": title, "paragraphs": [{"context": context, "qas": items}]})
    dataset, problems, records = validated({"version": "1.1", "data": articles}, file, log)
    if any(q.is_impossible is not None for _, _, q in dataset.iter_questions()):
        dataset.version = "v2.0"
    notes = [f"{counts[k]:,} {COUNT_NOTES[k]}" for k in COUNT_NOTES if counts[k]]
    return Loaded(dataset, "mrqa", "jsonl", problems=problems, counts=counts, notes=notes, records=records)


def _question(qa, context, line, title, file, id_field, merge, on_no_span, counts, log: RecordLog) -> dict[str, Any] | None:
    qid = qa.get("qid")
    item: dict[str, Any] = {"question": qa.get("question")}
    if id_field == "id" and isinstance(qa.get("id"), (str, int)) and qa.get("id") != "":
        item["id"] = qa["id"]
        item["mrqa_qid"] = qid
    else:
        item["id"] = qid
        if qa.get("id") not in (None, ""):
            item["original_id"] = qa["id"]
    item["mrqa_answers"] = qa.get("answers")
    if qa.get("is_impossible") is True:
        item["is_impossible"] = True
        item["answers"] = []
        return item
    detected = qa.get("detected_answers")
    if not isinstance(detected, list) or not all(isinstance(d, dict) for d in detected):
        log.invalid(FormatMsg.MRQA_BAD_DETECTED.format(line=line, qid=qid), title, str(qid))
        return None
    answers: list[dict[str, Any]] = []
    seen: set[tuple[int, str]] = set()
    for ai, det in enumerate(detected):
        spans = det.get("char_spans") if isinstance(det.get("char_spans"), list) else []
        for si, span in enumerate(spans):
            counts["spans"] += 1
            ok = (isinstance(span, list) and len(span) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in span)
                  and 0 <= span[0] <= span[1] < len(context))
            text = context[span[0]:span[1] + 1] if ok else ""
            if not ok or not text.strip():
                counts["spans_dropped"] += 1
                log.warn(Problem(file, FormatMsg.MRQA_BAD_SPAN.format(line=line, qid=qid, a_index=ai, span=span,
                                                                      ctx_len=len(context)),
                                 title, str(qid), severity="warning"))
                continue
            given = det.get("text")
            if isinstance(given, str) and given != text:
                key = "spans_normalised" if normalize_answer(given) == normalize_answer(text) else "spans_text_differs"
                counts[key] += 1
            if merge and (span[0], text) in seen:
                counts["spans_merged"] += 1
                continue
            seen.add((span[0], text))
            if si > 0:
                counts["spans_extra_occurrences"] += 1
            answers.append({"text": text, "answer_start": span[0]})
    if not answers:
        message = FormatMsg.MRQA_NO_SPAN.format(line=line, qid=qid)
        counts["questions_dropped"] += 1  # with on_no_span="error" the question is refused (or skipped)
        if on_no_span == "drop":
            log.drop(warning=Problem(file, message, title, str(qid), severity="warning"))
        else:
            log.invalid(message, title, str(qid))
        return None
    counts["answers"] += len(answers)
    item["answers"] = answers
    return item


MRQA = register_format(Format(
    name="mrqa",
    order=2,
    description="MRQA 2019 shared-task JSON Lines (header line, then one context with 'qas' per line)",
    claims_line=lambda obj: "header" in obj or {"context", "qas"} <= set(obj),
    line_label="an MRQA line (header, or context with qas)",
    file_label="MRQA",
    options=OPTIONS,
    read_lines=read_text,
    lines_only=True,
))
