"""What every ablation's output must be, checked paragraph by paragraph before any set is written.

An ablation's ``apply(paragraph, parsed, rng)`` returns ``(new paragraph, change records)``
(:mod:`mrclens.perturbations.registry`). The driver (:func:`mrclens.perturbations.perturb_dataset`) calls it
through :func:`apply_ablation`, which checks that output against the paragraph it was given
(:func:`output_violation`):

* the same question ids: none dropped, added or repeated;
* every gold answer an :class:`~mrclens.squad.Answer` whose text is at its ``answer_start`` in the new
  context (character offsets; :func:`mrclens.perturbations.base.check_answers`);
* one change record per question and none for another id, each as
  :func:`~mrclens.perturbations.base.changed` / :func:`~mrclens.perturbations.base.unchanged` make it
  (``{"changed": bool, "reason": None | str, "detail": dict}``) and, for a plug-in, writable as JSON.

A plug-in's ablation (:mod:`mrclens.plugins`) that raises, returns something else or breaks a rule stops the
run with :class:`~mrclens.errors.PluginError` naming the plug-in, its distribution and the first offending
question (exit code 2); the sets are written only when every ablation has passed, so nothing is written. A
built-in ablation that breaks a rule raises :class:`~mrclens.errors.InvariantError` (a bug in MRCLens, exit
code 3). Source: MRCLens issue 42 ("plug-ins are someone else's code").

Examples:
    >>> from mrclens.perturbations.base import changed
    >>> from mrclens.squad import Answer, Paragraph, Question
    >>> q1 = Question("q1", "Where is Paris?", [Answer("France", 12)])
    >>> q2 = Question("q2", "What is Berlin in?", [Answer("Germany", 33)])
    >>> before = Paragraph("Paris is in France. Berlin is in Germany.", [q1, q2])
    >>> print(output_violation(before, (before, {"q1": changed(), "q2": changed()}), "x1"))
    None
    >>> output_violation(before, (Paragraph(before.context, [q1]), {"q1": changed(), "q2": changed()}), "x1").qid
    'q2'
"""

from __future__ import annotations

import json
import random
import reprlib
from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping

from mrclens.errors import InvariantError, PluginMsg
from mrclens.perturbations.base import Change, ExampleParse
from mrclens.perturbations.registry import Ablation, plugin_source
from mrclens.plugins import describe, error_text
from mrclens.squad import Answer, Paragraph, Question

#: The keys of a change record, as :func:`mrclens.perturbations.base.changed` / ``unchanged`` make it.
RECORD_KEYS = frozenset({"changed", "reason", "detail"})


@dataclass(frozen=True)
class Violation:
    """A rule an ablation's output breaks: the first offending question id (``None`` when the output is
    not a pair at all) and the message (a :class:`~mrclens.errors.PluginMsg` template, filled in)."""

    qid: str | None
    message: str


def apply_ablation(ablation: Ablation, paragraph: Paragraph, parsed: ExampleParse,
                   rng: random.Random) -> tuple[Paragraph, dict[str, Change]]:
    """``ablation.apply(paragraph, parsed, rng)``, its output checked (:func:`output_violation`).

    Returns:
        the new paragraph and the change records (question id -> record), as ``apply`` returned them.

    Raises:
        PluginError: ``ablation`` is a plug-in's (:func:`mrclens.perturbations.registry.plugin_source`) and
            raised, or returned an output that breaks a rule (the message names the plug-in, its
            distribution and the first offending question id).
        InvariantError: a built-in ablation's output breaks a rule (a bug in MRCLens; never expected).
    """
    source = plugin_source(ablation.id)
    if source is None:
        output = ablation.apply(paragraph, parsed, rng)
    else:
        try:
            output = ablation.apply(paragraph, parsed, rng)
        except Exception as err:  # noqa: BLE001 - whatever a third-party function raises is its fault
            qid = paragraph.questions[0].id if paragraph.questions else "?"
            raise source.fault(PluginMsg.RAISED.format(aid=ablation.id, error=error_text(err), qid=qid), err) from err
    violation = output_violation(paragraph, output, ablation.id, json_records=source is not None)
    if violation is not None:
        if source is None:
            raise InvariantError(violation.message)
        raise source.fault(violation.message)
    return output[0], output[1]


def prepare_resources(ablation: Ablation, *args: Any) -> object:
    """``ablation.prepare(*args)`` (``dataset, context_parses, question_parses, seed, cache_dir``).

    Raises:
        PluginError: ``ablation`` is a plug-in's and its ``prepare`` raised (the message names the plug-in).
    """
    source = plugin_source(ablation.id)
    if source is None:
        return ablation.prepare(*args)
    try:
        return ablation.prepare(*args)
    except Exception as err:  # noqa: BLE001 - whatever a third-party function raises is its fault
        raise source.fault(PluginMsg.PREPARE_RAISED.format(aid=ablation.id, error=error_text(err)), err) from err


def output_violation(paragraph: Paragraph, output: object, aid: str, *, json_records: bool = True) -> Violation | None:
    """The first rule that ``output`` (what ablation ``aid`` returned for ``paragraph``) breaks, or ``None``.

    The rules, checked in this order (the module docstring): a pair (paragraph, records); the same
    question ids, the first dropped one in the input's order named before the first added or repeated
    one; every answer at its ``answer_start``; one well-formed change record per question, in the input's
    order, then none for another id. ``json_records``: also check that every record is JSON (no NaN).
    """
    first = paragraph.questions[0].id if paragraph.questions else None
    if not isinstance(output, (tuple, list)) or len(output) != 2:
        return Violation(first, PluginMsg.NOT_PAIR.format(aid=aid, got=describe(output), qid=first))
    new, records = output
    if (not isinstance(new, Paragraph) or not isinstance(new.context, str) or not isinstance(new.questions, (list, tuple))
            or not all(isinstance(q, Question) and isinstance(q.id, str) for q in new.questions)):
        return Violation(first, PluginMsg.NOT_PARAGRAPH.format(aid=aid, got=describe(new), qid=first))
    if not isinstance(records, Mapping):
        return Violation(first, PluginMsg.RECORDS_NOT_MAPPING.format(aid=aid, got=describe(records), qid=first))
    return _ids_violation(paragraph, new, aid) or _answers_violation(new, aid) or _records_violation(
        paragraph, records, aid, json_records)


def _ids_violation(paragraph: Paragraph, new: Paragraph, aid: str) -> Violation | None:
    given = [q.id for q in paragraph.questions]
    returned = [q.id for q in new.questions]
    dropped = [q for q in given if q not in set(returned)]
    if dropped:
        return Violation(dropped[0], PluginMsg.DROPPED.format(aid=aid, qid=dropped[0], n_in=len(given), n_out=len(returned)))
    known = set(given)
    added = [q for q in returned if q not in known]
    if added:
        return Violation(added[0], PluginMsg.ADDED.format(aid=aid, qid=added[0]))
    repeated = [q for q, n in Counter(returned).items() if n > 1]
    if repeated:
        return Violation(repeated[0], PluginMsg.REPEATED.format(aid=aid, qid=repeated[0]))
    return None


def _answers_violation(new: Paragraph, aid: str) -> Violation | None:
    ctx = new.context
    for q in new.questions:
        for a in q.answers if isinstance(q.answers, (list, tuple)) else [q.answers]:
            if (not isinstance(a, Answer) or not isinstance(a.text, str) or isinstance(a.answer_start, bool)
                    or not isinstance(a.answer_start, int)):
                return Violation(q.id, PluginMsg.BAD_ANSWER.format(aid=aid, qid=q.id, got=describe(a)))
            found = ctx[max(a.answer_start, 0): max(a.answer_start, 0) + len(a.text)]
            if a.answer_start < 0 or found != a.text:
                return Violation(q.id, PluginMsg.ANSWER_MOVED.format(aid=aid, qid=q.id, text=a.text, start=a.answer_start,
                                                                     found=found))
    return None


def _records_violation(paragraph: Paragraph, records: Mapping, aid: str, json_records: bool) -> Violation | None:
    given = [q.id for q in paragraph.questions]
    for qid in given:
        if qid not in records:
            return Violation(qid, PluginMsg.NO_RECORD.format(aid=aid, qid=qid))
        rec = records[qid]
        if not _well_formed(rec):
            return Violation(qid, PluginMsg.BAD_RECORD.format(aid=aid, qid=qid, got=reprlib.repr(rec)))
        if json_records:
            try:
                json.dumps(rec, allow_nan=False)
            except (TypeError, ValueError) as err:
                return Violation(qid, PluginMsg.RECORD_NOT_JSON.format(aid=aid, qid=qid, error=error_text(err)))
    known = set(given)
    extra = [qid for qid in records if qid not in known]
    if extra:
        return Violation(str(extra[0]), PluginMsg.EXTRA_RECORD.format(aid=aid, qid=extra[0]))
    return None


def _well_formed(rec: object) -> bool:
    if not isinstance(rec, Mapping) or set(rec) != RECORD_KEYS or not isinstance(rec["changed"], bool):
        return False
    reason_ok = rec["reason"] is None if rec["changed"] else (isinstance(rec["reason"], str) and bool(rec["reason"]))
    return reason_ok and isinstance(rec["detail"], Mapping)
