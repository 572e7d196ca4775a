"""The answer type a question asks for, from its wh-word and the word after it (baseline (b)).

The question-word → answer-type mapping of Weissenborn et al. 2017 ("Making Neural QA as
Simple as Possible but not Simpler", CoNLL), made explicit as word lists.
"""

from __future__ import annotations

from mrclens.stats.text import word_tokens
from mrclens.vocabulary import WH_WORDS

_NUMBER_NEXT = {
    "many", "much", "long", "old", "far", "large", "big", "tall", "high", "often", "fast", "deep",
    "wide", "heavy", "few", "short", "late", "early", "percentage", "percent", "number", "amount",
    "proportion", "fraction", "population", "temperature", "age", "length", "distance", "height",
    "speed", "rate", "size", "cost", "price",
}
_DATE_NEXT = {"year", "years", "date", "day", "month", "century", "decade", "time", "period", "era", "season", "dates"}
_PLACE_NEXT = {
    "city", "country", "state", "place", "location", "region", "continent", "area", "town", "island",
    "river", "county", "province", "nation", "street", "village", "mountain", "ocean", "sea", "capital",
}


def expected_answer_type(question: str) -> str:
    """The answer type ``question`` asks for, from its first wh-word (word tokens) and the word after it.

    Rules: "when", or "what/which" + year/date/century/... → ``date``; "how" + many/much/long/old/... ,
    or "what/which" + percentage/number/population/... → ``number``; "who/whom/whose" →
    ``person``; "where", or "what/which" + city/country/river/... → ``location``; "why" or any
    other "how" → ``clause``; everything else ("what", "which", no wh-word) → ``entity``.

    Returns:
        one of ``date``, ``number``, ``person``, ``location``, ``clause``, ``entity``.

    Examples:
        >>> [expected_answer_type(q) for q in ["When did it end?", "How many died?", "In what year?", "Who won?"]]
        ['date', 'number', 'date', 'person']
    """
    words = word_tokens(question)
    for i, w in enumerate(words):
        if w in WH_WORDS:
            nxt = words[i + 1] if i + 1 < len(words) else ""
            if w == "when":
                return "date"
            if w in ("who", "whom", "whose"):
                return "person"
            if w == "where":
                return "location"
            if w == "why":
                return "clause"
            if w == "how":
                return "number" if nxt in _NUMBER_NEXT else "clause"
            if nxt in _DATE_NEXT:
                return "date"
            if nxt in _NUMBER_NEXT:
                return "number"
            if nxt in _PLACE_NEXT:
                return "location"
            return "entity"
    return "entity"
