"""Small hand-made SQuAD datasets for the statistics tests (expected values worked out by hand)."""

from __future__ import annotations

from mrclens.formats.squad_schema import parse_squad

C1 = "Paris is the capital of France. The Eiffel Tower was built in 1889. It is 330 metres tall."
C2 = "Marie Curie won the Nobel Prize in 1903. She was born in Warsaw."


def make_dataset(paragraphs, title_prefix="T", source="<memory>"):
    """``paragraphs``: list of ``(context, [(qid, question, answer_text or None), ...])``; the
    answer start is the first occurrence of the text; ``None`` makes a v2 unanswerable question."""
    data = []
    v2 = any(a is None for _, qas in paragraphs for _, _, a in qas)
    for i, (ctx, qas) in enumerate(paragraphs):
        items = []
        for qid, q, a in qas:
            item = {"id": qid, "question": q,
                    "answers": [] if a is None else [{"text": a, "answer_start": ctx.index(a)}]}
            if v2:
                item["is_impossible"] = a is None
            items.append(item)
        data.append({"title": f"{title_prefix}{i}", "paragraphs": [{"context": ctx, "qas": items}]})
    ds, problems = parse_squad({"version": "2.0" if v2 else "1.1", "data": data}, source)
    assert not [p for p in problems if p.severity == "error"], problems
    return ds


MINI = [
    (C1, [
        ("q1", "When was the Eiffel Tower built?", "1889"),
        ("q2", "What is the capital of France?", "Paris"),
        ("q3", "How tall is the Eiffel Tower that was built in 1889?", "330 metres"),
    ]),
    (C2, [
        ("q4", "Who won the Nobel Prize in 1903?", "Marie Curie"),
        ("q5", "Where was she born?", "Warsaw"),
    ]),
]

