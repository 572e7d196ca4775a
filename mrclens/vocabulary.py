"""The English text vocabulary every stage shares: the wh-words, the stop words, the word pattern.

One definition of each, for the statistics (:mod:`mrclens.stats.text`: question types, content-word
overlap), the perturbations (ablation e4 keeps the wh-words; the matched controls avoid the
question's content words, :mod:`mrclens.perturbations.controls`), the multiple-choice stages and the
self-test plantings. This module stands on the ground floor: it imports nothing of MRCLens.

* :data:`WH_WORDS`: the closed list of the nine English interrogative words, in the order the
  statistics report them (question-type buckets of Bartolo et al. 2020, "Beat the AI").
* :data:`STOP_WORDS`: spaCy's English stop-word list (``spacy.lang.en.stop_words.STOP_WORDS``),
  lower-cased, contractions included (326 words with spaCy 3.8).
* :data:`WORD_PATTERN`: a word is a run of Unicode word characters (``\\w+``): letters, digits,
  underscore; punctuation and spaces separate words.

Examples:
    >>> WORD_PATTERN.findall("In 1889, the Eiffel Tower's height was 300 m.")
    ['In', '1889', 'the', 'Eiffel', 'Tower', 's', 'height', 'was', '300', 'm']
    >>> [w for w in ("what", "year", "whom") if w in WH_WORDS], "the" in STOP_WORDS
    (['what', 'whom'], True)
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

#: The closed list of English interrogative words (ablation e4 keeps these; the statistics count
#: questions by them), in reporting order.
WH_WORDS = ("what", "which", "who", "whom", "whose", "when", "where", "why", "how")

#: A word: a run of Unicode word characters (``\w+``); ``findall`` gives the words of a text,
#: ``fullmatch`` tells whether a token is one word.
WORD_PATTERN = re.compile(r"\w+")


def spacy_stop_words() -> frozenset[str]:
    """spaCy's English stop-word list (``spacy.lang.en.stop_words.STOP_WORDS``), as a frozenset.

    The module is a plain word list; it is executed from spaCy's installed file directly,
    because importing it through the ``spacy`` package first imports spaCy itself (~1.7 s,
    which a warm ``mrclens stats`` run otherwise never needs). The value is the same set of words
    as the usual import, to which it falls back when the file is not where it is expected.
    """
    spec = importlib.util.find_spec("spacy")
    path = Path(spec.submodule_search_locations[0]) / "lang" / "en" / "stop_words.py" if spec else None
    if path is not None and path.is_file():
        namespace: dict = {}
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
        if isinstance(namespace.get("STOP_WORDS"), set):
            return frozenset(namespace["STOP_WORDS"])
    from spacy.lang.en.stop_words import STOP_WORDS as words  # the usual import, if the file moved

    return frozenset(words)


#: spaCy's English stop words (lower-cased; contractions included); see :func:`spacy_stop_words`.
STOP_WORDS = spacy_stop_words()
