"""Invisible format characters: the one place MRCLens removes them before it reads a text.

Unicode category Cf ("format") holds characters that show nothing but change how a text is split:
the soft hyphen (U+00AD), the zero-width space (U+200B), the zero-width non-joiner and joiner
(U+200C, U+200D), the left-to-right and right-to-left marks (U+200E, U+200F), the byte order mark
(U+FEFF), and the like (Unicode Standard, chapter 23.2, "Layout Controls"). Copied from web pages and
PDFs, they split a word for a tokeniser (``"Wh\\u00adat"``: ``\\w+`` reads two words), hide a question's
first word from its question type (``"\\ufeffWhat"`` is no wh-word) and pull the language detector
towards other languages. MRCLens keeps the texts of a file as they are (answer offsets stay those of the
file) and lets its analysers read a *view* without the Cf characters, mapping offsets between the two:

* language detection reads :func:`visible` text (:func:`mrclens.languages.prose`);
* spaCy parses the :func:`visible` text and its character offsets are mapped back to the original text
  (:class:`VisibleText`, :func:`mrclens.parsing.parse_texts`);
* the model-free figures are computed on a view of the dataset whose contexts, questions and answers are
  :func:`visible`, each ``answer_start`` moved by the Cf characters before it (:mod:`mrclens.stats.core`).

This module stands on the ground floor: it imports nothing of MRCLens.

Examples:
    >>> visible("\\ufeffWh\\u00adat is the Super\\u200bBowl?")
    'What is the SuperBowl?'
    >>> view = VisibleText("a\\u200bbc\\u00ad d")
    >>> view.text, view.start(1), view.end(3), view.to_visible(4)
    ('abc d', 2, 4, 3)
"""

from __future__ import annotations

import bisect
import functools
import re
import unicodedata


#: The code points where Unicode assigns Cf characters: planes 0-2 and the tags block of plane 14 (planes
#: 3-13 hold none); a test checks that the whole range holds no other.
_CF_PLANES = (range(0, 0x30000), range(0xE0000, 0xE1000))


@functools.lru_cache(maxsize=1)
def _pattern() -> re.Pattern[str]:
    """Every character of Unicode category Cf (this Python's Unicode database), as one character class;
    built on first use (a few hundredths of a second), so importing MRCLens does not pay for it."""
    chars = [chr(c) for block in _CF_PLANES for c in block if unicodedata.category(chr(c)) == "Cf"]
    return re.compile("[" + "".join(re.escape(c) for c in chars) + "]")


def has_invisible(text: str) -> bool:
    """Whether ``text`` holds a Cf character (``False`` at once for ASCII text)."""
    return not text.isascii() and _pattern().search(text) is not None


def visible(text: str) -> str:
    """``text`` without its Cf characters (the same object when it has none)."""
    return _pattern().sub("", text) if has_invisible(text) else text


class VisibleText:
    """A text and its :func:`visible` view, with the offsets between them.

    Attributes:
        original: the text as given.
        text: the view (Cf characters removed).
        kept: for each character of the view, its index in ``original``.
    """

    def __init__(self, original: str) -> None:
        self.original = original
        if has_invisible(original):
            pattern = _pattern()
            self.kept = [i for i, ch in enumerate(original) if not pattern.match(ch)]
            self.text = "".join(original[i] for i in self.kept)
        else:
            self.kept = []
            self.text = original

    @property
    def changed(self) -> bool:
        """Whether the view differs from the original."""
        return self.text is not self.original

    def start(self, offset: int) -> int:
        """The original offset of view offset ``offset`` as the start of a span (the character there;
        ``len(original)`` at the view's end): a span never starts with a removed character."""
        if not self.changed:
            return offset
        return self.kept[offset] if offset < len(self.kept) else len(self.original)

    def end(self, offset: int) -> int:
        """The original offset of view offset ``offset`` as the (exclusive) end of a span: just after the
        view's character before it (0 at the start): a span never ends with a removed character."""
        if not self.changed:
            return offset
        return self.kept[offset - 1] + 1 if offset > 0 else 0

    def to_visible(self, offset: int) -> int:
        """The view offset of original offset ``offset``: the characters of the view before it."""
        return bisect.bisect_left(self.kept, offset) if self.changed else offset
