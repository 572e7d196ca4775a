"""A real released-style file with misaligned spans, built from SQuAD v1.1 dev (issue 15, defect 12).

:func:`make_shifted_fixture` takes the first articles of dev up to about 2,800 questions and
moves the first answer's ``answer_start`` of 50 questions: 47 by one character (the text then no
longer matches; the exact text is one character away, as in the released file the issue
describes) and 3 by 40 characters (too far to repair). Deterministic; the chosen questions are
spread over the file.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

N_SHIFTED, N_FAR, TARGET_QUESTIONS = 47, 3, 2800


def make_shifted_fixture(dev_path: Path, out: Path) -> dict:
    """Write the fixture to ``out``; return ``{"questions", "answers", "shifted": {qid: (old, new)}, "far": [...]}``."""
    raw = json.loads(gzip.decompress(Path(dev_path).read_bytes()))
    articles, n = [], 0
    for article in raw["data"]:
        if n >= TARGET_QUESTIONS:
            break
        articles.append(article)
        n += sum(len(p["qas"]) for p in article["paragraphs"])
    items = [(p, q) for a in articles for p in a["paragraphs"] for q in p["qas"]]
    step = len(items) // (N_SHIFTED + N_FAR)
    shifted, far = {}, []
    for k, (p, q) in enumerate(items[::step][: N_SHIFTED + N_FAR]):
        ctx, ans = p["context"], q["answers"][0]
        start, text = ans["answer_start"], ans["text"]
        assert ctx[start : start + len(text)] == text
        if k < N_SHIFTED:
            new = start + 1 if k % 2 == 0 else start - 1
            assert ctx[new : new + len(text)] != text
            shifted[q["id"]] = (start, new)
        else:
            new = start + 40 if start + 40 + len(text) <= len(ctx) else start - 40
            assert new >= 0 and text not in ctx[max(0, new - 5) : new + len(text) + 5]
            far.append(q["id"])
        ans["answer_start"] = new
    out.write_text(json.dumps({"version": raw["version"], "data": articles}, ensure_ascii=False))
    return {"questions": len(items), "answers": sum(len(q["answers"]) for _, q in items),
            "articles": len(articles), "shifted": shifted, "far": far}
