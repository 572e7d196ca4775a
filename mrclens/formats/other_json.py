"""JSON that is surely no QA dataset, for the CI gate (:func:`mrclens.formats.not_a_dataset`): the shapes of
common JSON files that share a dataset's name pattern (``*.json``) and why each is no dataset.

* JSON with comments (JSONC: ``//`` and ``/* */`` comments, trailing commas), as ``tsconfig.json`` and VS Code's
  ``settings.json`` are written (:func:`strip_jsonc`);
* a Plotly figure (``{"data": [traces, each with a "type"], "layout": {...}}``) and a JSON:API document
  (``{"data": [resource objects, each with "type" and "id"]}``): a ``data`` list, as in SQuAD, but of
  records that carry none of a QA record's keys (:data:`QA_KEYS`);
* any JSON object without a ``data`` list, a JSON list of other records, a JSON scalar.

A ``data`` list of anything else (empty, of non-objects, or of objects of which one has a QA key) may be a
(damaged) dataset: it is read, and reading it reports what is wrong.
"""

from __future__ import annotations

from typing import Any

#: Keys of a QA record at the top of a ``data`` item: a SQuAD article (``paragraphs``), a flat record
#: (``context``, ``question``, ``answers``), an MRQA context (``qas``), a Natural Questions example.
QA_KEYS = frozenset({"paragraphs", "context", "question", "qas", "answers", "question_text", "document_text",
                     "document_tokens"})

#: The longest text :func:`strip_jsonc` reads as JSON with comments (characters).
JSONC_MAX_CHARS = 1 << 20


def strip_jsonc(text: str) -> str | None:
    """``text`` without its ``//`` and ``/* */`` comments and trailing commas (before ``}`` or ``]``), strings
    kept as they are; ``None`` when it has neither (then it is no JSONC: plain JSON or no JSON at all), and for a
    text over :data:`JSONC_MAX_CHARS` characters (configuration files are small; a damaged dataset of many
    megabytes is read, not scanned character by character here).

    >>> strip_jsonc('{\\n  // strict mode\\n  "strict": true, /* more */\\n  "url": "http://x",\\n}')
    '{\\n  \\n  "strict": true,  \\n  "url": "http://x"\\n}'
    >>> strip_jsonc('{"a": 1}') is None
    True
    """
    if len(text) > JSONC_MAX_CHARS:
        return None
    out: list[str] = []
    changed = False
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':  # a string, escapes included: copied as it is
            j = _string_end(text, i)
            out.append(text[i:j])
            i = j
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            changed = True
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                return None  # an unclosed comment: no JSONC either
            out.append(" ")
            i = end + 2
            changed = True
        else:
            out.append(ch)
            i += 1
    stripped = "".join(out)
    without_commas = _drop_trailing_commas(stripped)
    return without_commas if changed or without_commas != stripped else None


def _string_end(text: str, i: int) -> int:
    """The index just after the JSON string that starts with the quote at ``text[i]`` (escapes skipped; the end of
    ``text`` for an unclosed string)."""
    j, n = i + 1, len(text)
    while j < n and text[j] != '"':
        j += 2 if text[j] == "\\" else 1
    return min(j + 1, n)


def _drop_trailing_commas(text: str) -> str:
    """``text`` (no comments left) without a comma that only whitespace separates from a ``}`` or ``]``."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            j = _string_end(text, i)
            out.append(text[i:j])
            i = j
            continue
        if ch == ",":
            j = i + 1
            while j < n and text[j] in " \t\r\n":
                j += 1
            if j < n and text[j] in "}]":
                i += 1
                continue
        out.append(ch)
        i += 1
    return "".join(out)


def no_dataset_shape(obj: Any) -> str | None:
    """Why the decoded JSON document ``obj`` is surely no QA dataset, or ``None`` when it may be one.

    >>> no_dataset_shape({"data": [{"type": "scatter", "x": [1, 2]}], "layout": {}})
    "a Plotly figure (its 'data' list holds 1 trace(s) with a 'type', no QA record)"
    >>> no_dataset_shape({"data": [{"type": "articles", "id": "1", "attributes": {}}]})
    "a JSON:API document (its 'data' list holds 1 resource object(s) with 'type' and 'id', no QA record)"
    >>> no_dataset_shape({"version": "1.1", "data": [{"title": "T", "paragraphs": []}]}) is None
    True
    """
    if isinstance(obj, dict):
        data = obj.get("data")
        if isinstance(data, list):
            if not data or not all(isinstance(item, dict) and "type" in item and not QA_KEYS & set(item)
                                    for item in data):
                return None
            if all("id" in item for item in data) and "layout" not in obj:
                return (f"a JSON:API document (its 'data' list holds {len(data):,} resource object(s) with 'type' "
                        f"and 'id', no QA record)")
            return f"a Plotly figure (its 'data' list holds {len(data):,} trace(s) with a 'type', no QA record)"
        return f"one JSON object with keys {sorted(obj)[:8]} and no 'data' list"
    if isinstance(obj, list):
        first = obj[0] if obj else None
        if isinstance(first, dict) and {"context", "question"} <= set(first):
            return None
        return "a JSON list whose first item is no record with 'context' and 'question'" if obj else "an empty JSON list"
    return f"a JSON {type(obj).__name__}, not an object or a list"
