"""What the inputs of ``mrclens compare`` share: question ids and contexts (issue 34).

Two inputs that hold the same questions are not independent samples: XQuAD's 1,190 questions are
SQuAD v1.1 dev questions (their ids are dev's; XQuAD en has dev's 240 contexts, the other languages
translate them), a filtered version of a dataset is a subset of it, two audits of one file hold
the same questions. The comparison's intervals resample each input on its own, which ignores that
(they are then conservative for the shared part), and a reader of the table should know that one
input is (part of) the other. :func:`find_overlaps` counts, for each later input whose questions were
read (a dataset file, or an audit or evaluation with its ``perturbed/original.json``), the
question ids and the exact context texts it shares with the first input
(:class:`~mrclens.artifacts.comparison.Overlap`); a ``mrclens stats`` JSON or an audit's summary
figures have no questions to compare and are left out.

Examples:
    >>> from mrclens.compare.sources import source_from_stats
    >>> a, b = source_from_stats({}, "A"), source_from_stats({}, "B")
    >>> a.question_ids, a.contexts = frozenset({"q1", "q2", "q3"}), frozenset({"c1", "c2"})
    >>> b.question_ids, b.contexts = frozenset({"q2", "q3"}), frozenset({"c2"})
    >>> o = find_overlaps([a, b])[0]
    >>> o.relation, o.shared_questions, o.shared_contexts
    ('subset', 2, 1)
"""

from __future__ import annotations

from typing import Sequence

from mrclens.artifacts.comparison import Overlap
from mrclens.compare.sources import Source

#: The method note added when some inputs share questions or contexts.
OVERLAP_NOTE = ("Some inputs share questions or contexts (see the overlap lines): the intervals resample each input "
                "on its own, as if they were independent samples, so a difference between overlapping inputs is "
                "partly a difference of the same questions and its interval is conservative (too wide).")


def question_keys(dataset) -> tuple[frozenset[str], frozenset[str]]:
    """The question ids and the context texts of a span dataset (:class:`~mrclens.squad.Dataset`)."""
    ids = frozenset(str(q.id) for _, _, q in dataset.iter_questions())
    contexts = frozenset(p.context for _, p, _ in dataset.iter_questions())
    return ids, contexts


def relation(later: frozenset, first: frozenset) -> str:
    """``"same"``, ``"subset"`` (``later`` ⊆ ``first``), ``"superset"``, ``"partial"`` or ``"none"``."""
    shared = later & first
    if not shared:
        return "none"
    if later == first:
        return "same"
    if shared == later:
        return "subset"
    if shared == first:
        return "superset"
    return "partial"


def find_overlaps(sources: Sequence[Source]) -> list[Overlap]:
    """Each later source whose questions were read against the first (none when the first's were not):
    shared question ids and contexts, and their relation (on the ids when any is shared, else on the contexts)."""
    first = sources[0]
    if first.question_ids is None or first.contexts is None:
        return []
    out = []
    for s in sources[1:]:
        if s.question_ids is None or s.contexts is None:
            continue
        ids = s.question_ids & first.question_ids
        contexts = s.contexts & first.contexts
        rel = relation(s.question_ids, first.question_ids) if ids else relation(s.contexts, first.contexts)
        out.append(Overlap(s.info.name, first.info.name, rel, len(s.question_ids), len(first.question_ids), len(ids),
                           len(s.contexts), len(first.contexts), len(contexts)))
    return out
