"""e9 — Position bias — move the sentence that holds the answer to the far end of the context (truncated set).

Source: Ko, Lee, Kim, Kim & Kang, "Look at the First Sentence: Position Bias in Question
Answering", EMNLP 2020: readers trained where answers sit in the first sentence fail when the
answer sits elsewhere. Rule (MRCLens issue 17, part 4):

* The answer unit is the question's one sentence unit holding its gold answers
  (:mod:`mrclens.units`: spaCy sentences merged where an answer crosses a boundary).
* With ``n`` units and the answer unit at index ``i`` (0 = first), the unit moves to the
  position farthest from ``i``: to the end (``n - 1``) when ``i < (n - 1) / 2``, to the front
  (``0``) when ``i > (n - 1) / 2``; in the exact middle (odd ``n``) the end or the front is drawn
  with the seeded generator (one draw, ``rng.random() < 0.5`` → front). The other units keep
  their order. So an answer in the first sentence goes to the last and an answer in the last
  goes to the first.
* The units are joined in the new order with single spaces
  (:func:`mrclens.perturbations.base.reorder_units`, as e3 does); each answer keeps its offset
  inside its unit, so every ``answer_start`` is exact.

Bias signal: a large drop. The matched control c9 (:func:`move_other_sentence`) moves a sentence
that does not hold the answer by the same displacement, so the excess drop (e9 − c9) is what
moving the answer itself costs, beyond reordering any sentence.

Unchanged (with reason): ``no_answer`` (an unanswerable question, SQuAD v2.0),
``single_unit`` (one sentence unit), ``answers_in_several_units`` (the gold answers lie in
different sentences: no one answer sentence to move), ``paragraph_has_several_questions`` (one
move serves one question: only the truncated set changes).
"""

from __future__ import annotations

from mrclens.perturbations.base import answer_spans, changed, reorder_units, unchanged
from mrclens.perturbations.controls import follow_ablation
from mrclens.perturbations.registry import Ablation, register
from mrclens.units import answer_unit_indices


def move_order(n: int, source: int, target: int) -> list[int]:
    """The unit order after moving unit ``source`` to position ``target`` (the others keep their order).

    >>> move_order(4, 0, 3)
    [1, 2, 3, 0]
    >>> move_order(4, 3, 1)
    [0, 3, 1, 2]
    """
    order = [u for u in range(n) if u != source]
    order.insert(target, source)
    return order


def farthest_target(n: int, source: int, rng) -> int:
    """e9's target position for the answer unit at ``source`` among ``n`` units (rule in the module docstring).

    >>> import random
    >>> farthest_target(5, 0, random.Random(0)), farthest_target(5, 4, random.Random(0)), farthest_target(5, 3, random.Random(0))
    (4, 0, 0)
    """
    middle = (n - 1) / 2
    if source < middle:
        return n - 1
    if source > middle:
        return 0
    return 0 if rng.random() < 0.5 else n - 1


def _answer_unit(example, parsed, q):
    """``(answer unit index, None)`` or ``(None, reason)`` for one question."""
    if len(example.questions) > 1:
        return None, "paragraph_has_several_questions"
    if not q.answers:
        return None, "no_answer"
    if len(parsed.units) < 2:
        return None, "single_unit"
    hit = answer_unit_indices(parsed.units, answer_spans(q))
    if len(hit) != 1:
        return None, "answers_in_several_units"
    return next(iter(hit)), None


def move_answer_sentence(example, parsed, rng):
    """Apply e9 to one paragraph (one question on the truncated set).

    Args:
        example: a :class:`mrclens.squad.Paragraph`.
        parsed: its :class:`mrclens.perturbations.base.ExampleParse` (``units``: the question's units).
        rng: a ``random.Random`` seeded by the driver (used only for a unit in the exact middle).

    Returns:
        ``(new paragraph, {question id: change record})``; the detail holds ``unit`` (the answer
        unit's index), ``from`` and ``to`` (its position before and after, 0 = first),
        ``displacement`` (``to - from``, in sentence units), ``n_units`` and ``order`` (the
        original unit index at each new position).

    Raises:
        InvariantError: an answer offset broke (never expected).
    """
    records = {}
    current = example
    for q in example.questions:
        unit, reason = _answer_unit(example, parsed, q)
        if reason:
            records[q.id] = unchanged(reason)
            continue
        n = len(parsed.units)
        target = farthest_target(n, unit, rng)
        order = move_order(n, unit, target)
        current = reorder_units(example, parsed.units, order, "e9")
        records[q.id] = changed(unit=unit, **{"from": unit, "to": target}, displacement=target - unit,
                                n_units=n, order=order)
    return current, records


def control_move(n: int, answer: int, displacement: int, rng) -> tuple[int, int] | None:
    """c9's move: ``(unit, target)`` for a non-answer unit, or ``None`` when no unit can move.

    Rule: every non-answer unit ``j`` can move in the direction of ``displacement`` by at most
    ``|displacement|`` and at most as far as the context allows; the units that can move
    farthest are kept (the full displacement when any unit can make it) and one of them is
    drawn uniformly with ``rng``. The answer unit's position changes by at most one (when the
    moved unit crosses it).

    >>> import random
    >>> control_move(5, 0, 4, random.Random(0))   # the answer goes 0 -> 4: unit 1 can move 3 (to 4)
    (1, 4)
    >>> control_move(2, 0, 1, random.Random(0)) is None   # unit 1 cannot move right
    True
    """
    step = 1 if displacement > 0 else -1
    best: list[int] = []
    reach = 0
    for j in range(n):
        if j == answer:
            continue
        room = (n - 1 - j) if step > 0 else j
        r = min(abs(displacement), room)
        if r > reach:
            best, reach = [j], r
        elif r == reach and r > 0:
            best.append(j)
    if not best:
        return None
    j = rng.choice(best)
    return j, j + step * reach


def move_other_sentence(example, parsed, rng):
    """Apply c9 (control of e9) to one paragraph: move a sentence without the answer as e9 moves the answer's.

    e9 runs first with the generator the driver seeded with e9's id (same target draw); the
    non-answer unit is drawn with a generator seeded from (seed, ``"c9"``, question id), the seed
    being ``parsed.pool.seed``.

    Returns:
        ``(new paragraph, {question id: change record})``; the detail holds ``unit`` (the moved
        unit), ``from``, ``to``, ``displacement``, ``ablation_displacement`` (e9's), ``answer_unit``,
        ``answer_shift`` (how far the answer unit's position moved: 0 or ±1), ``n_units``, ``order``.
        Unchanged: e9's reasons, and ``no_control_move`` (no unit but the answer's can move that way).

    Raises:
        ValueError: ``parsed.pool`` is missing (the driver gives every control an insertion pool).
    """
    if parsed.pool is None:
        raise ValueError("control c9 needs an InsertionPool in ExampleParse.pool (for its seed)")
    _, records = move_answer_sentence(example, parsed, rng)

    def move_other(current, q, d, q_rng):
        n, answer = d["n_units"], d["unit"]
        move = control_move(n, answer, d["displacement"], q_rng)
        if move is None:
            return current, unchanged("no_control_move")
        j, target = move
        order = move_order(n, j, target)
        return reorder_units(example, parsed.units, order, "c9"), changed(
            unit=j, **{"from": j, "to": target}, displacement=target - j, ablation_displacement=d["displacement"],
            answer_unit=answer, answer_shift=order.index(answer) - answer, n_units=n, order=order)

    return follow_ablation(example, records, move_other, seed=parsed.pool.seed, control_id="c9")


E9 = register(Ablation(
    id="e9",
    name="move answer sentence",
    category="Position",
    eval_set="truncated",
    description="Move the sentence holding the answer to the far end of the context (first to last, last to first).",
    bias_signal="large_drop",
    apply=move_answer_sentence,
    other_direction='Moving the answer sentence to the far end costs the reader no more than moving another sentence: it does not rely on where the answer sits.',
    no_answer_rule='Left unchanged (reason no_answer): an unanswerable question has no answer sentence to move.',
))
