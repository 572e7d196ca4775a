"""e10 — Similarity bias — insert a decoy statement: the question as a sentence with a wrong answer (truncated set).

The idea of Jia & Liang's AddSent ("Adversarial Examples for Evaluating Reading Comprehension
Systems", EMNLP 2017), made automatic and rule-based: the question is rewritten as a
declarative sentence whose wh-phrase is replaced by a *decoy answer* of the same type taken from
another article, and the sentence is inserted where e1 inserts (at the start of a random sentence
unit that holds no answer; :func:`mrclens.perturbations.base.insert_before_unit`). A reader that
picks the decoy is drawn by the sentence that looks most like the question. Unlike AddSent, the
question is not mutated first (no antonyms or swapped entities), so the decoy sentence
contradicts the passage rather than answering a different question; the matched control c10
inserts as many unrelated words at the same place (as c1 does for e1), and the excess drop
(e10 − c10) is what the question-shaped decoy costs beyond any insertion. Bias signal: a large drop.

**Decoy answers** (:func:`prepare`, once per run). Every question's first gold answer text is
parsed with spaCy (tagger + NER, through the parse cache). Its *type* is the label of the one
named entity that covers it (a leading determiner aside), e.g. ``PERSON``, ``DATE``, ``GPE``,
``CARDINAL``; else ``NP`` when it is a short noun phrase (at most 6 tokens, starting with a
determiner, adjective, noun or number, ending with a noun, with no verb, pronoun or adverb; a
participle before the last word counts as an adjective); else
none. Decoys of a type are the distinct answer texts of that type (surrounding punctuation
stripped), in file order. For a question, the type is its own gold answer's type when it fits the
wh-phrase (:data:`WH_COMPATIBLE`, e.g. who: PERSON, ORG, NORP, GPE), else the wh-phrase's
(:data:`WH_TYPES` and :data:`HEAD_NOUN_TYPES`: who → PERSON, when / what year → DATE,
where / what city → GPE, how many → CARDINAL, how much → MONEY). The decoy is drawn with the seeded generator among those of another
article (another title) whose official normalisation differs from, and shares no word with,
every gold answer (up to 64 random tries, then a scan from a random start).

**Rewrite rules** (Rule of MRCLens issue 17, part 5; :func:`rewrite`; on spaCy's tokens and
coarse POS of the question, trailing punctuation dropped; ``D`` = the decoy phrase; ``P`` = its
preposition):

1. *Wh-phrase*: an optional leading preposition (``In what year …`` → ``P`` = ``in``), then
   ``who``/``whom``; ``what``/``which`` with the nouns, adjectives, numbers and ``of``-phrases after
   it (``what type of music``); ``when``; ``where``; ``how many``/``how much`` with the nouns
   after them, which stay after the decoy (``how many people`` → ``D people``).
2. *Subject question* — the rest starts with a verb, or with an auxiliary directly followed by a
   verb (``was elected``), or is copular (``who is …``, ``what was …``, ``how many … are …``):
   ``D`` + rest. ``Which team won Super Bowl 50?`` → ``Denver Broncos won Super Bowl 50.``
3. *Inverted question with do* — ``do/does/did`` + subject + verb + rest: subject + the verb
   inflected for do's tense (past / 3rd singular / base; :func:`inflect`) + rest + tail. The verb
   is the first VERB, AUX (``have``, ``be``) or base-form (VB) word after the subject's first word,
   else a final singular noun (the tagger reads some final verbs as nouns: ``did the war end``).
   ``What year did the war end?`` → ``The war ended in 1932.``
4. *Inverted question with another auxiliary* (be, have, a modal) + subject + verb + rest:
   subject + auxiliary + verb + rest + tail. ``When was the tower built?`` → ``The tower was built in 1889.``
5. *Copular where/when* — auxiliary + subject only: subject + auxiliary + tail.
   ``Where is the Louvre?`` → ``The Louvre is in Paris.``
6. *Wh-word in situ* — ``what``/``who`` is the last word and the only wh-word: it is replaced.
   ``Poland could not defend against what?`` → ``Poland could not defend against the Mongols.``
7. *Leading phrase* — a phrase ending with a comma before the wh-word is kept in front:
   ``According to X, what is …`` → ``According to X, D is …``.

A what/which phrase with a modifier (``which philosopher from the Muslim world``) reaches up to
the first verb or auxiliary; adverbs before the verb stay with it (``D once made its home``).
In rule 4 the verb must fit the auxiliary: a past participle (or past tense, which the tagger
often gives a final participle) after ``be`` or ``have`` (an ``-ing``
form after ``be`` only in when/where questions), a base form after a modal; auxiliaries between
the subject and the verb stay with the verb (``has X been shown`` → ``X has been shown``); with
no such verb the question is read as copular (rule 2 or 5).

The tail is ``P D`` where ``P`` is the leading preposition if any, else ``in`` for when / where /
a DATE or GPE head noun (``what year``, ``which city``) unless the rest ends with a stranded
preposition (``… move to``), else nothing (``What did X invent?`` → ``X invented D.``). The first
letter is upper-cased and a full stop added.

Unchanged (with reason; the shares on SQuAD v1.1 dev are in BENCHMARKS.md):
``no_answer`` (unanswerable, SQuAD v2.0: a decoy would give it an answer), ``not_wh_question``
(no wh-word first, e.g. yes/no or imperative questions), ``unsupported_wh`` (why, how + adjective,
whose, how by itself), ``no_rewrite_rule`` (the clause after the wh-phrase fits no rule),
``no_decoy_type`` (neither the answer nor the wh-phrase gives a type), ``no_decoy`` (no decoy of
the type from another article), ``paragraph_has_several_questions``, ``no_non_answer_unit``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mrclens.perturbations.base import insert_before_unit
from mrclens.perturbations.registry import Ablation, register
from mrclens.vocabulary import WH_WORDS

#: The decoy type a wh-phrase asks for when the gold answer has none (head nouns of what/which phrases included).
WH_TYPES = {
    "who": "PERSON", "whom": "PERSON", "when": "DATE", "where": "GPE", "how many": "CARDINAL", "how much": "MONEY",
}
#: Head nouns of a what/which phrase → type (singular, lower case).
HEAD_NOUN_TYPES = {
    **{w: "DATE" for w in ("year", "date", "day", "month", "century", "decade", "era", "period", "time", "season")},
    **{w: "GPE" for w in ("city", "country", "state", "nation", "place", "region", "continent", "town", "location",
                          "province", "county", "capital")},
    **{w: "PERSON" for w in ("person", "man", "woman", "king", "queen", "president", "leader", "emperor", "author",
                             "writer", "scientist", "player", "artist")},
    "percentage": "PERCENT", "percent": "PERCENT",
}
#: Answer types that fit each wh-phrase of :data:`WH_TYPES`; another answer type gives way to the wh-phrase's.
WH_COMPATIBLE = {
    "who": {"PERSON", "ORG", "NORP", "GPE"}, "whom": {"PERSON", "ORG", "NORP", "GPE"}, "when": {"DATE", "TIME"},
    "where": {"GPE", "LOC", "FAC", "ORG"}, "how many": {"CARDINAL", "QUANTITY", "MONEY", "PERCENT"},
    "how much": {"MONEY", "QUANTITY", "CARDINAL", "PERCENT"},
}
_NP_FIRST = {"DET", "ADJ", "NOUN", "PROPN", "NUM"}
_NP_TAGS = _NP_FIRST | {"ADP", "CCONJ", "PART"}
_TAIL_IN = {"DATE", "GPE", "LOC"}
_DO = {"do": "base", "does": "3sg", "did": "past"}
_NOMINAL = {"NOUN", "PROPN", "ADJ", "NUM"}
_TRIES = 64

# Irregular past tenses of common English verbs (base → past); the rest follow the regular rules of inflect().
_IRREGULAR_PAST = dict(pair.split(":") for pair in """
arise:arose awake:awoke be:was bear:bore beat:beat become:became begin:began bend:bent bet:bet bid:bid bind:bound
bite:bit bleed:bled blow:blew break:broke breed:bred bring:brought broadcast:broadcast build:built burn:burned
buy:bought cast:cast catch:caught choose:chose cling:clung come:came cost:cost creep:crept cut:cut deal:dealt dig:dug
do:did draw:drew dream:dreamed drink:drank drive:drove eat:ate fall:fell feed:fed feel:felt fight:fought find:found
flee:fled fling:flung fly:flew forbid:forbade forget:forgot forgive:forgave freeze:froze get:got give:gave go:went
grind:ground grow:grew hang:hung have:had hear:heard hide:hid hit:hit hold:held hurt:hurt keep:kept kneel:knelt
know:knew lay:laid lead:led lean:leaned leave:left lend:lent let:let lie:lay light:lit lose:lost make:made mean:meant
meet:met overcome:overcame overtake:overtook pay:paid prove:proved put:put quit:quit read:read rebuild:rebuilt
redo:redid rid:rid ride:rode ring:rang rise:rose run:ran say:said see:saw seek:sought sell:sold send:sent set:set
sew:sewed shake:shook shed:shed shine:shone shoot:shot show:showed shrink:shrank shut:shut sing:sang sink:sank sit:sat
slay:slew sleep:slept slide:slid speak:spoke speed:sped spend:spent spin:spun split:split spread:spread spring:sprang
stand:stood steal:stole stick:stuck sting:stung strike:struck strive:strove swear:swore sweep:swept swim:swam
swing:swung take:took teach:taught tear:tore tell:told think:thought throw:threw thrust:thrust undergo:underwent
understand:understood undertake:undertook upset:upset wake:woke wear:wore weave:wove win:won wind:wound
withdraw:withdrew write:wrote
""".split())
_VOWELS = "aeiou"


def inflect(verb: str, form: str) -> str:
    """``verb`` (base form) in ``form``: ``"past"``, ``"3sg"`` (third person singular present) or ``"base"``.

    Past: :data:`_IRREGULAR_PAST`, else the regular rules (``-e`` → ``+d``; consonant + ``y`` →
    ``ied``; a one-syllable consonant-vowel-consonant word doubles its last consonant, except
    w, x, y; else ``+ed``). 3sg: ``have`` → ``has``, ``do``/``go`` → ``+es``, sibilants and ``-o``
    → ``+es``, consonant + ``y`` → ``ies``, else ``+s``.

    >>> [inflect(v, "past") for v in ("happen", "write", "stop", "carry", "use", "play")]
    ['happened', 'wrote', 'stopped', 'carried', 'used', 'played']
    >>> [inflect(v, "3sg") for v in ("have", "watch", "go", "try", "mean")]
    ['has', 'watches', 'goes', 'tries', 'means']
    """
    low = verb.lower()
    if form == "base":
        return verb
    if form == "3sg":
        if low == "have":
            return verb[:-2] + "s"
        if low.endswith(("s", "sh", "ch", "x", "z", "o")):
            return verb + "es"
        if low.endswith("y") and len(low) > 1 and low[-2] not in _VOWELS:
            return verb[:-1] + "ies"
        return verb + "s"
    if form != "past":
        raise ValueError(f"form must be 'past', '3sg' or 'base', got {form!r}")
    if low in _IRREGULAR_PAST:
        past = _IRREGULAR_PAST[low]
        return past[:1].upper() + past[1:] if verb[:1].isupper() else past
    if low.endswith("e"):
        return verb + "d"
    if low.endswith("y") and len(low) > 1 and low[-2] not in _VOWELS:
        return verb[:-1] + "ied"
    groups = re.findall(f"[{_VOWELS}]+", low)
    if (len(groups) == 1 and len(low) >= 3 and low[-1] not in _VOWELS + "wxy" and low[-2] in _VOWELS
            and low[-3] not in _VOWELS):
        return verb + verb[-1] + "ed"
    return verb + "ed"


@dataclass(frozen=True)
class Rewrite:
    """A question's declarative form with a slot for the decoy.

    Attributes:
        before: the text before the decoy phrase (may be empty).
        after: the text after it (may be empty).
        preposition: put before the decoy (``"in"``, or the question's leading preposition), or ``""``.
        wh: the wh-phrase's key in :data:`WH_TYPES` (``"what"``/``"which"`` have none there).
        head_type: the type the wh-phrase's head noun asks for (:data:`HEAD_NOUN_TYPES`), or ``None``.
        keep: words that follow the decoy inside the wh-phrase (``"people"`` in ``how many people``).
        rule: the rule that applied: ``"subject"``, ``"do_inversion"``, ``"aux_inversion"``,
            ``"copular"``, ``"in_situ"``.
        prefix: a leading phrase kept before everything (``"According to X,"``), or ``""``.
    """

    before: str
    after: str
    preposition: str
    wh: str
    head_type: str | None
    keep: str
    rule: str
    prefix: str = ""

    def render(self, decoy: str) -> str:
        """The declarative sentence with ``decoy`` in the slot, first letter upper-cased, ending in a full stop.

        >>> Rewrite("the war ended", "", "in", "what", "DATE", "", "do_inversion").render("1932")
        'The war ended in 1932.'
        """
        slot = " ".join(p for p in (self.preposition, decoy, self.keep) if p)
        text = " ".join(p for p in (self.prefix, self.before, slot, self.after) if p)
        return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _words(parse) -> list[tuple[str, str, int, int, str]]:
    """``(lower text, coarse POS, start, end, fine tag)`` per token, whitespace and trailing punctuation dropped."""
    tags = parse.tags or parse.pos
    toks = [(parse.text[s:e].lower(), p, s, e, t) for s, e, p, t in zip(parse.starts, parse.ends, parse.pos, tags)
            if p != "SPACE" and parse.text[s:e].strip()]
    while toks and toks[-1][1] == "PUNCT":
        toks.pop()
    return toks


_WH = WH_WORDS
_BE = {"is", "are", "was", "were", "be", "been", "'s", "'re"}
_PHRASE = _NOMINAL | {"DET", "ADP", "PART", "PUNCT", "CCONJ"}


def _fits(aux: str, tag: str, adjunct: bool) -> bool:
    """Whether a verb with Penn ``tag`` can be the main verb after the auxiliary ``aux`` (rule 4)."""
    if aux in _BE:  # VBD too: the tagger often reads a final participle as a past tense ("was X founded")
        return tag in ("VBN", "VBD") or (tag == "VBG" and adjunct)
    if aux in ("has", "have", "had"):
        return tag in ("VBN", "VBD")
    return tag == "VB"


def rewrite(parse) -> tuple[Rewrite | None, str | None]:
    """The declarative form of a question (rules in the module docstring), or the reason there is none.

    Args:
        parse: the question's :class:`mrclens.parsing.ParsedText` with coarse POS
            (``parse_texts(..., pos=True)``).

    Returns:
        ``(Rewrite, None)`` or ``(None, reason)`` with reason ``not_wh_question``,
        ``unsupported_wh`` or ``no_rewrite_rule``.

    Raises:
        ValueError: the parse has no POS tags.
    """
    if parse.pos is None:
        raise ValueError("e10 needs question parses with POS (parse_texts(..., pos=True))")
    text = parse.text
    toks = _words(parse)
    n = len(toks)

    def span(a: int, b: int) -> str:  # the question's own text of tokens a..b-1
        return text[toks[a][2] : toks[b - 1][3]] if b > a else ""

    if n > 1 and toks[-1][0] in ("what", "who", "whom") and not any(t[0] in _WH for t in toks[:-1]):
        # rule 6, wh-word in situ: "Poland could not defend against what?" -> "Poland could not defend against D."
        wh = "what" if toks[-1][0] == "what" else "who"
        return Rewrite(span(0, n - 1), "", "", wh, None, "", "in_situ"), None
    prefix = ""
    i = 0
    comma = next((k for k in range(n - 1) if toks[k][0] == "," and toks[k + 1][0] in _WH), None)
    if comma is not None and comma > 0 and (comma + 1 < n and toks[0][0] not in _WH):
        # rule 7, a leading phrase: "According to X, what is ..." -> "According to X, <rewrite of the rest>"
        prefix, i = span(0, comma + 1), comma + 1
    prep = ""
    if n > i + 1 and toks[i][1] == "ADP" and toks[i + 1][0] in _WH:
        prep, i = toks[i][0], i + 1
    if i >= n or toks[i][0] not in _WH:
        return None, "not_wh_question"
    w = toks[i][0]
    head_type = None
    keep = ""
    if w in ("who", "whom", "when", "where"):
        wh, j = w, i + 1
    elif w in ("what", "which"):
        wh, j = w, i + 1
        head = None
        while j < n and (toks[j][1] in _NOMINAL | {"PART"} or (toks[j][0] == "of" and j + 1 < n
                                                               and toks[j + 1][1] in _NOMINAL | {"DET"})
                         or (toks[j][1] == "DET" and j > i + 1 and toks[j - 1][0] == "of")):
            if toks[j][1] in ("NOUN", "PROPN") and head is None:
                head = toks[j][0]
            j += 1
        if head is not None:
            head_type = HEAD_NOUN_TYPES.get(head, HEAD_NOUN_TYPES.get(head[:-1] if head.endswith("s") else head))
        if j > i + 1 and j < n and toks[j][1] in _PHRASE:
            # a longer subject phrase ("which philosopher from the Muslim world influenced ..."): up to the verb
            k = j
            while k < n and toks[k][1] in _PHRASE:
                k += 1
            if k < n and toks[k][1] in ("VERB", "AUX", "ADV"):
                j = k
    elif w == "how" and i + 1 < n and toks[i + 1][0] in ("many", "much"):
        wh, j = f"how {toks[i + 1][0]}", i + 2
        k = j
        while k < n and toks[k][1] in _NOMINAL | {"PART"}:
            k += 1
        keep, j = span(j, k), k
    else:
        return None, "unsupported_wh"
    if j >= n:
        return None, "no_rewrite_rule"
    adjunct = wh in ("when", "where")
    stranded = toks[-1][1] == "ADP"
    tail_prep = prep or ("in" if (adjunct or head_type in _TAIL_IN) and not stranded else "")

    def made(before: str, after: str, p: str, rule: str) -> tuple[Rewrite, None]:
        return Rewrite(before, after, p, wh, head_type, keep, rule, prefix), None

    v0 = j
    while v0 < n and toks[v0][1] == "ADV":  # "... once made its home": adverbs stay with the verb
        v0 += 1
    if v0 < n and toks[v0][1] == "VERB" and not prep and not adjunct:
        return made("", span(j, n), "", "subject")
    first = toks[j]
    if first[1] != "AUX":
        return None, "no_rewrite_rule"
    if j + 1 < n and toks[j + 1][1] == "PART":  # negated (didn't, isn't, not): left alone
        return None, "no_rewrite_rule"
    if first[0] in _DO:
        verb = next((k for k in range(j + 1, n) if toks[k][1] == "VERB"), None)
    else:  # be + past participle (or -ing after when/where), have + past participle, a modal + base form
        verb = next((k for k in range(j + 1, n) if toks[k][1] == "VERB" and _fits(first[0], toks[k][4], bool(prep or adjunct))
                     and text[toks[k][2] - 1 : toks[k][2]] != "-"), None)  # not inside "longest-running"
    if first[0] in _DO and (verb is None or verb == j + 1):
        # after do + subject the base verb may be tagged AUX (have, be) or NOUN (a final "end"): take a base form (VB)
        verb = next((k for k in range(j + 2, n) if toks[k][1] in ("VERB", "AUX") or toks[k][4] == "VB"), None)
        if verb is None and n > j + 2 and toks[-1][4] == "NN":  # "does the church use" (use: NN)
            verb = n - 1
    if (verb is not None and all(toks[k][1] == "ADV" for k in range(j + 1, verb)) and not prep and not adjunct
            and first[0] not in _DO):  # "who was (first) elected ...": the wh-phrase is the subject
        return made("", span(j, n), "", "subject")
    if verb is None or verb == j + 1:
        if first[0] in _DO:
            return None, "no_rewrite_rule"
        if prep or adjunct:  # "where is the Louvre" -> "the Louvre is in D"
            if j + 1 >= n:
                return None, "no_rewrite_rule"
            return made(f"{span(j + 1, n)} {span(j, j + 1)}", "", tail_prep, "copular")
        return made("", span(j, n), "", "copular")  # "who is the president of X" -> "D is the president of X"
    subject = span(j + 1, verb)
    if first[0] in _DO:
        main = text[toks[verb][2] : toks[verb][3]]
        clause = " ".join(p for p in (subject, inflect(main, _DO[first[0]]), span(verb + 1, n)) if p)
        return made(clause, "", tail_prep, "do_inversion")
    chain = next(k for k in range(j + 2, verb + 1) if toks[k][1] in ("AUX", "VERB"))  # "has X been shown"
    clause = " ".join(p for p in (span(j + 1, chain), span(j, j + 1), span(chain, n)) if p)
    return made(clause, "", tail_prep, "aux_inversion")


@dataclass
class DecoyPool:
    """Typed decoy answers from the whole set (:func:`prepare`).

    Attributes:
        by_type: type label → ``[(title, answer text)]``, distinct texts in file order.
        answer_type: question id → the type of its first gold answer, or ``None``.
        title_of: context → article title.
        pipeline: the spaCy pipeline that typed the answers (for the manifest's provenance).
    """

    by_type: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    answer_type: dict[str, str | None] = field(default_factory=dict)
    title_of: dict[str, str] = field(default_factory=dict)
    pipeline: str = ""


def answer_type(parse) -> str | None:
    """The decoy type of an answer text from its parse with POS and entities (rule in the module docstring).

    Returns:
        an entity label (``"PERSON"``, ``"DATE"``, …), ``"NP"`` for a short noun phrase, or ``None``.
    """
    toks = [(s, e, p) for s, e, p in zip(parse.starts, parse.ends, parse.pos or []) if p not in ("SPACE", "PUNCT")]
    if not toks:
        return None
    first = 1 if toks[0][2] == "DET" and len(toks) > 1 else 0
    for s, e, label in parse.ents or []:
        if s <= toks[first][0] and e >= toks[-1][1]:
            return label
    fine = {s: t for s, t in zip(parse.starts, parse.tags or parse.pos or [])}
    # a participle before the last word modifies the noun ("the alternating current motor")
    tags = ["ADJ" if p == "VERB" and fine.get(s) in ("VBG", "VBN") and k < len(toks) - 1 else p
            for k, (s, _, p) in enumerate(toks)]
    if len(toks) <= 6 and tags[0] in _NP_FIRST and tags[-1] in ("NOUN", "PROPN") and set(tags) <= _NP_TAGS:
        return "NP"
    return None


def prepare(dataset, ctx_parses, q_parses, seed, cache_dir) -> DecoyPool:
    """Type every question's first gold answer with spaCy (tagger + NER, cached) and collect the decoys.

    Args:
        dataset: the full evaluation set (decoys come from all its articles).
        ctx_parses, q_parses: the driver's parses (unused: answers are parsed here).
        seed: the perturbation seed (unused: the decoy draw uses the generator given to ``apply``).
        cache_dir: the parse cache directory (:func:`mrclens.parsing.parse_texts`).

    Raises:
        PipelineNotInstalled: no English spaCy pipeline is installed.
    """
    from mrclens.parsing import parse_texts, pipeline_fingerprint_for

    firsts = [(article.title, q) for article in dataset.articles for p in article.paragraphs for q in p.questions
              if q.answers]
    parses = parse_texts([q.answers[0].text for _, q in firsts], pos=True, entities=True, cache_dir=cache_dir)
    pool = DecoyPool(pipeline=pipeline_fingerprint_for(pos=True, entities=True, cache_dir=cache_dir))
    seen: set[tuple[str, str]] = set()
    for (title, q), parse in zip(firsts, parses):
        kind = answer_type(parse)
        pool.answer_type[q.id] = kind
        text = q.answers[0].text.strip(" \t\n,;:.")
        if kind and (kind, text) not in seen:
            seen.add((kind, text))
            pool.by_type.setdefault(kind, []).append((title, text))
    for article in dataset.articles:
        for p in article.paragraphs:
            pool.title_of.setdefault(p.context, article.title)
    return pool


def _draw_decoy(pool: DecoyPool, kind: str, title: str, golds: list[str], rng) -> str | None:
    from mrclens.metrics.official import normalize_answer

    items = pool.by_type.get(kind, [])
    if not items:
        return None
    gold_norm = [normalize_answer(g) for g in golds]
    gold_words = {w for g in gold_norm for w in g.split()}

    def ok(i: int) -> bool:
        other, text = items[i]
        norm = normalize_answer(text)
        return other != title and bool(norm) and norm not in gold_norm and not set(norm.split()) & gold_words

    for _ in range(_TRIES):
        i = rng.randrange(len(items))
        if ok(i):
            return items[i][1]
    start = rng.randrange(len(items))
    for k in range(len(items)):
        if ok((start + k) % len(items)):
            return items[(start + k) % len(items)][1]
    return None


def insert_decoy_statement(example, parsed, rng):
    """Apply e10 to one paragraph (one question on the truncated set).

    Args:
        example: a :class:`mrclens.squad.Paragraph`.
        parsed: its :class:`mrclens.perturbations.base.ExampleParse`; ``parsed.resources["e10"]``
            is the :class:`DecoyPool` from :func:`prepare`.
        rng: a ``random.Random`` seeded by the driver (draws the decoy, then the sentence unit).

    Returns:
        ``(new paragraph, {question id: change record})``; the detail holds ``inserted`` (the
        decoy statement), ``offset`` (character offset in the original context), ``unit``,
        ``decoy``, ``decoy_type`` and ``rule``.

    Raises:
        ValueError: no :class:`DecoyPool` in ``parsed.resources``.
        InvariantError: an answer offset broke (never expected).
    """
    pool = parsed.resources.get("e10")
    if pool is None:
        raise ValueError("e10 needs its DecoyPool in ExampleParse.resources['e10'] (built by prepare())")
    title = pool.title_of.get(example.context, "")
    found: dict[str, dict] = {}

    def text_for(q, parse):
        if not q.answers:
            return None, "no_answer"
        form, reason = rewrite(parse)
        if form is None:
            return None, reason
        kind = pool.answer_type.get(q.id)
        if kind is None or (form.wh in WH_COMPATIBLE and kind not in WH_COMPATIBLE[form.wh]):
            kind = form.head_type or WH_TYPES.get(form.wh)
        if kind is None:
            return None, "no_decoy_type"
        decoy = _draw_decoy(pool, kind, title, [a.text for a in q.answers], rng)
        if decoy is None:
            return None, "no_decoy"
        found[q.id] = {"decoy": decoy, "decoy_type": kind, "rule": form.rule}
        return form.render(decoy), None

    new, records = insert_before_unit(example, parsed, rng, text_for)
    for qid, rec in records.items():
        if rec["changed"]:
            rec["detail"].update(found[qid])
    return new, records


E10 = register(Ablation(
    id="e10",
    name="insert decoy statement",
    category="Similarity",
    eval_set="truncated",
    description="Insert the question rewritten as a statement with a wrong answer of the same type (AddSent-style) "
                "before a sentence that holds no answer.",
    bias_signal="large_drop",
    apply=insert_decoy_statement,
    other_direction='A statement that repeats the question with a wrong answer of the right type does not fool the reader: it checks more than the sentence most similar to the question.',
    prepare=prepare,
    no_answer_rule='Left unchanged (reason no_answer): a decoy statement with an answer would make the question answerable.',
))
