"""Tokenising SQuAD data for the reader with spaCy's tokenizer, keeping character offsets.

Only the spaCy tokenizer runs (:func:`mrclens.nlp.load_pipeline` with no flags), through
``nlp.tokenizer.pipe`` in batches. Whitespace tokens are dropped. Every token keeps its
``[start, end)`` character offsets, so a predicted token span maps back to the exact context
substring ``context[start_of_first : end_of_last]``.

A training answer that does not fall on token boundaries maps to the covering tokens: the
first token whose end is after the answer start through the last token whose start is before
the answer end (issue 4).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mrclens.nlp import load_pipeline
from mrclens.progress import progress as progress_bar
from mrclens.squad import Dataset


def tokenize_texts(texts: list[str], *, batch_size: int = 1000, progress: bool = False,
                   desc: str = "tokenising") -> list[tuple[list[str], np.ndarray]]:
    """Tokenise texts with the spaCy tokenizer.

    Returns:
        for each text ``(tokens, offsets)``: the token strings (whitespace tokens dropped) and an
        ``int32`` array of shape ``(n_tokens, 2)`` with each token's ``[start, end)`` offsets in
        characters.
    """
    nlp = load_pipeline()
    out: list[tuple[list[str], np.ndarray]] = []
    docs = nlp.tokenizer.pipe(texts, batch_size=batch_size)
    for doc in progress_bar(docs, total=len(texts), desc=desc, unit="text", enabled=progress):
        toks = [t for t in doc if not t.is_space]
        offsets = np.array([(t.idx, t.idx + len(t.text)) for t in toks], dtype=np.int32).reshape(-1, 2)
        out.append(([t.text for t in toks], offsets))
    return out


def answer_token_span(offsets: np.ndarray, start: int, end: int) -> tuple[int, int] | None:
    """The token span ``(first, last)`` (inclusive token indices) covering characters ``[start, end)``.

    Args:
        offsets: ``(n_tokens, 2)`` character offsets as returned by :func:`tokenize_texts`.
        start, end: the answer's character span (``end`` exclusive).

    Returns:
        the covering span, or ``None`` if no token overlaps the answer (e.g. a whitespace answer).

    Example: tokens ``"New" [0,3)`` and ``"York." -> "York" [4,8), "." [8,9)``; the answer
    ``"ew Yor"`` (characters 1–7) maps to tokens 0..1.
    """
    if len(offsets) == 0:
        return None
    first = int(np.searchsorted(offsets[:, 1], start, side="right"))
    last = int(np.searchsorted(offsets[:, 0], end, side="left")) - 1
    if first >= len(offsets) or last < first:
        return None
    return first, last


@dataclass
class TokenizedData:
    """A dataset's tokens, as indices into a table of distinct token strings.

    Attributes:
        types: distinct token strings; index 0 is the padding type ``""``.
        contexts: context text per paragraph.
        ctx_types: per paragraph, ``int32`` array ``(n_tokens,)`` of type indices.
        ctx_offsets: per paragraph, ``int32`` array ``(n_tokens, 2)`` of character offsets.
        qids: question ids, in file order.
        q_para: ``(n_questions,)`` paragraph index of each question.
        q_types: per question, ``int32`` array of type indices.
        spans: ``(n_questions, 2)`` first answer's token span (inclusive), ``-1`` when the
            question has no answer or the answer covers no token.
    """

    types: list[str]
    contexts: list[str]
    ctx_types: list[np.ndarray]
    ctx_offsets: list[np.ndarray]
    qids: list[str]
    q_para: np.ndarray
    q_types: list[np.ndarray]
    spans: np.ndarray

    def __len__(self) -> int:
        return len(self.qids)


def tokenize_dataset(dataset: Dataset, *, progress: bool = False) -> TokenizedData:
    """Tokenise every context and question of ``dataset`` (see :class:`TokenizedData`)."""
    contexts: list[str] = []
    questions: list[str] = []
    qids: list[str] = []
    q_para: list[int] = []
    gold: list[tuple[int, int] | None] = []
    for _, paragraph in dataset.iter_paragraphs():
        pi = len(contexts)
        contexts.append(paragraph.context)
        for q in paragraph.questions:
            qids.append(q.id)
            questions.append(q.question)
            q_para.append(pi)
            gold.append((q.answers[0].answer_start, q.answers[0].answer_end) if q.answers else None)
    type_index: dict[str, int] = {"": 0}

    def to_types(tokens: list[str]) -> np.ndarray:
        return np.fromiter((type_index.setdefault(t, len(type_index)) for t in tokens), dtype=np.int32,
                           count=len(tokens))

    ctx_types, ctx_offsets = [], []
    for tokens, offsets in tokenize_texts(contexts, progress=progress, desc="tokenising contexts"):
        ctx_types.append(to_types(tokens))
        ctx_offsets.append(offsets)
    q_types = [to_types(tokens) for tokens, _ in
               tokenize_texts(questions, progress=progress, desc="tokenising questions")]
    spans = np.full((len(qids), 2), -1, dtype=np.int32)
    for i, g in enumerate(gold):
        if g is not None:
            span = answer_token_span(ctx_offsets[q_para[i]], *g)
            if span is not None:
                spans[i] = span
    types = [""] * len(type_index)
    for t, i in type_index.items():
        types[i] = t
    return TokenizedData(types, contexts, ctx_types, ctx_offsets, qids,
                         np.asarray(q_para, dtype=np.int32), q_types, spans)
