"""The multiple-choice ablations m1–m6 and their matched controls mc4–mc6 (issue 20), in one module.

A multiple-choice question (:class:`~mrclens.formats.multiple_choice.MCQuestion`) is a prompt and
several candidate endings, one correct. Two bias categories are tested, as the span audit tests
them (:mod:`mrclens.perturbations.registry`):

* **Question** (m1–m3): remove or scramble the prompt. A *small* accuracy drop means the model
  does not need the prompt to choose — it scores the endings alone (the answer-only baseline of
  Chen et al. 2019, "CODAH", RepEval, §5; the hypothesis-only baseline of Gururangan et al. 2018,
  "Annotation Artifacts in Natural Language Inference Data", NAACL).
* **Keyword** (m4–m6): copy the prompt's nouns / verbs / adjectives to the front of every *wrong*
  ending. A model that chooses the ending sharing most words with the prompt then picks a wrong
  one: a *large* drop signals that shortcut. Each has a matched control (mc4–mc6) that puts as
  many words of the same coarse POS, from other prompts and absent from this question, at the
  same place, so that the excess drop (ablation − control) is what the overlap itself costs
  (:mod:`mrclens.perturbations.controls` gives the same design for the span ablations).

Every ablation is a pure function::

    apply(question: MCQuestion, parse: ParsedText, rng: random.Random, pool: MCWordPool | None)
        -> tuple[MCQuestion, Change]

where ``parse`` is the prompt's spaCy parse with coarse POS (:func:`mrclens.parsing.parse_texts`
with ``pos=True``; ``parse.text == question.prompt``), ``rng`` is seeded by the caller with
:func:`mrclens.perturbations.base.make_rng` ``(seed, ablation id, question id)``, ``pool`` is the
set's word pool (:class:`MCWordPool`, needed by the controls only) and the change record is
``{"changed": bool, "reason": str | None, "detail": dict}``. The new question keeps the id, the
label and the categories. A *token* below is a spaCy token that is not whitespace.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from mrclens.artifacts.manifest import ablation_order
from mrclens.categories import direction, read_ablations_from
from mrclens.formats.multiple_choice import MCQuestion
from mrclens.parsing import ParsedText
from mrclens.perturbations.base import Change, changed, unchanged
from mrclens.perturbations.registry import BIAS_SIGNALS, EVAL_SETS, Ablation, resolve_ids
from mrclens.vocabulary import WORD_PATTERN

#: The unperturbed set every multiple-choice ablation is compared with (file ``original.jsonl``).
BASELINE_SET = "original"
#: Coarse POS tags whose prompt words m4 / m5 / m6 (and mc4 / mc5 / mc6) insert.
KEYWORD_TAGS: dict[str, tuple[str, ...]] = {"m4": ("NOUN", "PROPN"), "m5": ("VERB",), "m6": ("ADJ",)}
_WORD_CHAR = re.compile(r"\w")
_WORD = WORD_PATTERN


# ---------------------------------------------------------------------------------------------
# helpers


def _check_parse(question: MCQuestion, parse: ParsedText) -> None:
    if parse.text != question.prompt:
        raise ValueError(f"question {question.id}: the parse is of another text than the prompt")


def prompt_tokens(parse: ParsedText) -> list[tuple[int, int]]:
    """``(start, end)`` character spans of the parse's tokens that are not whitespace, in order."""
    return [(s, e) for s, e in zip(parse.starts, parse.ends) if parse.text[s:e].strip()]


def _with_prompt(question: MCQuestion, prompt: str) -> MCQuestion:
    return MCQuestion(question.id, prompt, question.endings, question.label, question.categories)


def _with_prefix(question: MCQuestion, text: str, endings: Sequence[int]) -> MCQuestion:
    """``question`` with ``text + " "`` put before each ending whose index is in ``endings``."""
    new = tuple(f"{text} {e}" if i in endings else e for i, e in enumerate(question.endings))
    return MCQuestion(question.id, question.prompt, new, question.label, question.categories)


def wrong_endings(question: MCQuestion) -> list[int]:
    """Indices of the question's wrong endings (every index but ``label``), in order."""
    return [i for i in range(len(question.endings)) if i != question.label]


def keyword_words(parse: ParsedText, tags: Iterable[str]) -> list[str]:
    """The prompt's words whose coarse POS is in ``tags``: in prompt order, as written, each once.

    A word is a token with at least one word character (``\\w``); a repeat is a later word equal
    to an earlier one ignoring case (the first spelling is kept).

    Raises:
        ValueError: the parse has no POS tags.

    >>> p = ParsedText("The dog saw the Dog.", [0, 4, 8, 12, 16, 19], [3, 7, 11, 15, 19, 20],
    ...                ["DET", "NOUN", "VERB", "DET", "NOUN", "PUNCT"])
    >>> keyword_words(p, {"NOUN", "PROPN"})
    ['dog']
    """
    if parse.pos is None:
        raise ValueError("the prompt parse has no POS tags (parse_texts(..., pos=True))")
    tags = set(tags)
    seen: set[str] = set()
    out: list[str] = []
    for s, e, tag in zip(parse.starts, parse.ends, parse.pos):
        word = parse.text[s:e]
        if tag in tags and _WORD_CHAR.search(word) and not word.isspace() and word.lower() not in seen:
            seen.add(word.lower())
            out.append(word)
    return out


def _question_words(question: MCQuestion) -> set[str]:
    """Lower-cased ``\\w+`` runs of the prompt and of every ending."""
    return {w.lower() for text in (question.prompt, *question.endings) for w in _WORD.findall(text)}


@dataclass
class MCWordPool:
    """Words for the controls mc4–mc6, collected once from every prompt of a set.

    Attributes:
        words: tag group (a :data:`KEYWORD_TAGS` value) → the distinct words (ignoring case; the
            first spelling in set order is kept) that some prompt of the set has with one of
            those coarse POS tags, in order of first appearance.
    """

    words: dict[tuple[str, ...], list[str]] = field(default_factory=dict)

    @classmethod
    def build(cls, parses: Iterable[ParsedText]) -> "MCWordPool":
        """The pool of the prompts ``parses`` (in set order; with POS tags).

        Raises:
            ValueError: a parse has no POS tags.
        """
        parses = list(parses)
        pool = cls()
        for tags in KEYWORD_TAGS.values():
            seen: set[str] = set()
            words = pool.words.setdefault(tags, [])
            for parse in parses:
                for word in keyword_words(parse, tags):
                    if word.lower() not in seen:
                        seen.add(word.lower())
                        words.append(word)
        return pool

    def draw(self, tags: tuple[str, ...], n: int, question: MCQuestion, rng: random.Random) -> list[str] | None:
        """``n`` distinct pool words of the group ``tags`` none of whose ``\\w+`` runs occurs
        (ignoring case) in the question's prompt or endings, drawn uniformly without replacement
        with ``rng``; ``None`` when fewer than ``n`` such words exist. A word of this prompt occurs
        in it, so every word drawn comes from another question's prompt."""
        avoid = _question_words(question)
        candidates = [w for w in self.words.get(tags, []) if not any(p.lower() in avoid for p in _WORD.findall(w))]
        if len(candidates) < n:
            return None
        return rng.sample(candidates, n)


# ---------------------------------------------------------------------------------------------
# Question bias: m1–m3


def remove_prompt(question: MCQuestion, parse: ParsedText, rng: random.Random, pool=None) -> tuple[MCQuestion, Change]:
    """m1 — prompt removed (answer-only).

    Rule: the prompt becomes ``""``; the endings and the label are kept. Source: the answer-only
    baseline of Chen et al. 2019 (CODAH, §5); the hypothesis-only baseline of Gururangan et al.
    2018. Unchanged (reason ``empty_prompt``) when the prompt is already ``""``.
    Detail: ``old`` (the prompt). ``rng`` and ``pool`` are not used.

    Raises:
        ValueError: ``parse`` is not the prompt's.
    """
    _check_parse(question, parse)
    if question.prompt == "":
        return question, unchanged("empty_prompt")
    return _with_prompt(question, ""), changed(old=question.prompt)


def shuffle_prompt(question: MCQuestion, parse: ParsedText, rng: random.Random, pool=None) -> tuple[MCQuestion, Change]:
    """m2 — shuffle prompt words.

    Rule: the prompt's ``n`` tokens (punctuation tokens included, each a token of its own) are
    put in a random order drawn with ``rng`` and joined by single spaces; the permutation is
    redrawn until the token sequence differs from the original. Source: the span ablation e5
    (Zhong, Wang & Xing, MRCLens, DataPerf@ICML 2022) applied to the prompt.
    Unchanged (with reason): ``fewer_than_two_tokens`` (``n < 2``),
    ``fewer_than_two_distinct_tokens`` (every token the same). Detail: ``old``, ``new``,
    ``permutation`` (for each new position, the original token index).

    Raises:
        ValueError: ``parse`` is not the prompt's.
    """
    _check_parse(question, parse)
    tokens = [question.prompt[s:e] for s, e in prompt_tokens(parse)]
    if len(tokens) < 2:
        return question, unchanged("fewer_than_two_tokens")
    if len(set(tokens)) < 2:
        return question, unchanged("fewer_than_two_distinct_tokens")
    order = list(range(len(tokens)))
    while [tokens[j] for j in order] == tokens:
        rng.shuffle(order)
    new = " ".join(tokens[j] for j in order)
    return _with_prompt(question, new), changed(old=question.prompt, new=new, permutation=order)


def first_half_prompt(question: MCQuestion, parse: ParsedText, rng: random.Random, pool=None) -> tuple[MCQuestion, Change]:
    """m3 — first half of prompt.

    Rule: of the prompt's ``n`` tokens keep the first ``ceil(n / 2)``: the new prompt is the
    prompt's characters from the start of its first token to the end of token ``ceil(n / 2)``
    (spacing as written; whitespace before the first token is dropped). Source: the span
    ablation e2's half question (Zhong, Wang & Xing 2022) used as the prompt.
    Unchanged (reason ``fewer_than_two_tokens``) when ``n < 2``. Detail: ``old``, ``new``,
    ``kept_tokens``, ``tokens``. ``rng`` and ``pool`` are not used.

    Raises:
        ValueError: ``parse`` is not the prompt's.
    """
    _check_parse(question, parse)
    spans = prompt_tokens(parse)
    if len(spans) < 2:
        return question, unchanged("fewer_than_two_tokens")
    k = (len(spans) + 1) // 2
    new = question.prompt[spans[0][0] : spans[k - 1][1]]
    return _with_prompt(question, new), changed(old=question.prompt, new=new, kept_tokens=k, tokens=len(spans))


# ---------------------------------------------------------------------------------------------
# Keyword bias: m4–m6 and their controls mc4–mc6


def _keyword_apply(aid: str, empty_reason: str) -> Callable:
    tags = KEYWORD_TAGS[aid]
    what = {"m4": "nouns (NOUN, PROPN)", "m5": "verbs (VERB)", "m6": "adjectives (ADJ)"}[aid]

    def apply(question: MCQuestion, parse: ParsedText, rng: random.Random, pool=None) -> tuple[MCQuestion, Change]:
        _check_parse(question, parse)
        words = keyword_words(parse, tags)
        if not words:
            return question, unchanged(empty_reason)
        text = " ".join(words)
        endings = wrong_endings(question)
        return _with_prefix(question, text, endings), changed(inserted=text, words=words, endings=endings)

    apply.__name__ = apply.__qualname__ = f"insert_prompt_{empty_reason[3:]}"
    apply.__doc__ = f"""{aid} — insert prompt {empty_reason[3:]}.

    Rule: the prompt's {what} — the tokens with those coarse POS tags that hold a word character,
    in prompt order, as written, each once ignoring case (:func:`keyword_words`) — joined by
    single spaces, are put before every *wrong* ending: ``" ".join(words) + " " + ending``. The
    correct ending is untouched. A model that picks the ending overlapping the prompt most then
    picks a wrong one (a large accuracy drop). Source: the span Keyword ablations e6–e8 (Zhong,
    Wang & Xing, MRCLens, DataPerf@ICML 2022) moved to the endings.
    Unchanged (reason ``{empty_reason}``) when the prompt has no such word. Detail: ``inserted``
    (the text), ``words``, ``endings`` (indices changed). ``rng`` and ``pool`` are not used.

    Raises:
        ValueError: ``parse`` is not the prompt's, or has no POS tags.
    """
    return apply


def _control_apply(cid: str, ablation_apply: Callable) -> Callable:
    aid = "m" + cid[2:]
    tags = KEYWORD_TAGS[aid]

    def apply(question: MCQuestion, parse: ParsedText, rng: random.Random, pool: MCWordPool | None = None
              ) -> tuple[MCQuestion, Change]:
        if pool is None:
            raise ValueError(f"control {cid} needs the set's MCWordPool")
        _, rec = ablation_apply(question, parse, rng, pool)
        if not rec["changed"]:
            return question, unchanged(rec["reason"])
        detail = rec["detail"]
        words = pool.draw(tags, len(detail["words"]), question, rng)
        if words is None:
            return question, unchanged("too_few_pool_words")
        text = " ".join(words)
        return (_with_prefix(question, text, detail["endings"]),
                changed(inserted=text, words=words, endings=detail["endings"], replaces=detail["inserted"]))

    apply.__name__ = apply.__qualname__ = f"control_{cid}"
    apply.__doc__ = f"""{cid} — matched control of {aid}.

    Rule: where {aid} puts the prompt's words (before every wrong ending; the correct ending
    untouched), put as many other words with the same coarse POS ({", ".join(tags)}): drawn
    with ``rng`` uniformly without replacement from ``pool`` (:meth:`MCWordPool.draw`: words of
    the set's prompts, none occurring in this prompt or its endings, ignoring case), joined by
    single spaces. Unchanged exactly when {aid} leaves the question unchanged (same reason), or
    with reason ``too_few_pool_words`` when the pool cannot supply that many words (a tiny
    set; never on CODAH). Source: the matched-control design of the span controls c6–c8
    (:mod:`mrclens.perturbations.controls`, issue 16). Detail: ``inserted``, ``words``,
    ``endings``, ``replaces`` ({aid}'s text).

    Raises:
        ValueError: ``pool`` is ``None``; ``parse`` is not the prompt's, or has no POS tags.
    """
    return apply


# ---------------------------------------------------------------------------------------------
# the registry

#: Every multiple-choice ablation and control, in report order (m1, m2, m3, m4, mc4, …, m6, mc6); the one
#: source of each category's multiple-choice ablations (:attr:`mrclens.categories.BiasCategory.mc_ablations`).
MC_ABLATIONS: dict[str, Ablation] = {}


def _add(ablation: Ablation) -> Ablation:
    """Check ``ablation`` as :func:`mrclens.perturbations.registry.register` does and add it to
    :data:`MC_ABLATIONS` (not to the span registry).

    Raises:
        ValueError: a bad ``eval_set`` / ``bias_signal``, a control without ``control_of`` (or
            the reverse), or a taken id.
    """
    if ablation.eval_set not in EVAL_SETS or ablation.bias_signal not in BIAS_SIGNALS:
        raise ValueError(f"ablation {ablation.id}: bad eval_set {ablation.eval_set!r} or bias_signal {ablation.bias_signal!r}")
    if direction(ablation.bias_signal).signals != (ablation.control_of is None):
        raise ValueError(f"ablation {ablation.id}: a control has bias_signal 'control' and names the ablation it controls")
    if ablation.id in MC_ABLATIONS:
        raise ValueError(f"ablation id {ablation.id!r} is already registered")
    items = dict(MC_ABLATIONS, **{ablation.id: ablation})
    MC_ABLATIONS.clear()
    MC_ABLATIONS.update(sorted(items.items(), key=lambda kv: ablation_order(kv[0])))
    return ablation


M1 = _add(Ablation(
    id="m1", name="prompt removed (answer-only)", category="Question", eval_set="full",
    description="Remove the prompt: the model sees the endings alone.",
    bias_signal="small_drop", apply=remove_prompt,
    other_direction="The model needs the prompt to choose: it does not score the endings alone.",
))
M2 = _add(Ablation(
    id="m2", name="shuffle prompt words", category="Question", eval_set="full",
    description="Put the prompt's tokens in a random order.",
    bias_signal="small_drop", apply=shuffle_prompt,
    other_direction="The model needs the prompt's word order: it reads the prompt as a sentence, not a bag of words.",
))
M3 = _add(Ablation(
    id="m3", name="first half of prompt", category="Question", eval_set="full",
    description="Keep only the first half of the prompt's tokens.",
    bias_signal="small_drop", apply=first_half_prompt,
    other_direction="The model needs the end of the prompt, the part the endings continue.",
))
_KEYWORD = {"m4": ("nouns", "no_nouns"), "m5": ("verbs", "no_verbs"), "m6": ("adjectives", "no_adjectives")}
for _aid, (_what, _reason) in _KEYWORD.items():
    _ablation = _add(Ablation(
        id=_aid, name=f"insert prompt {_what}", category="Keyword", eval_set="full",
        description=f"Put the prompt's {_what} before every wrong ending.",
        bias_signal="large_drop", apply=_keyword_apply(_aid, _reason),
        other_direction=f"The prompt's {_what} in front of the wrong endings do not pull the model: it does not match keywords alone.",
    ))
    _add(Ablation(
        id="mc" + _aid[1:], name=f"control for {_aid}", category="Keyword", eval_set="full",
        description=f"Put as many {_what} from other prompts, absent from the question, before every wrong ending.",
        bias_signal="control", apply=_control_apply("mc" + _aid[1:], _ablation.apply), control_of=_aid,
    ))
M4, MC4, M5, MC5, M6, MC6 = (MC_ABLATIONS[a] for a in ("m4", "mc4", "m5", "mc5", "m6", "mc6"))
insert_prompt_nouns, insert_prompt_verbs, insert_prompt_adjectives = M4.apply, M5.apply, M6.apply
del _aid, _what, _reason, _ablation
read_ablations_from("multiple_choice", MC_ABLATIONS)


def resolve_mc_ablations(ids: Iterable[str] | str | None) -> list[str]:
    """The multiple-choice ablation ids to run, in report order, each ablation's control included.

    Args:
        ids: ids like ``["m1", "m4"]`` or a comma-separated string ``"m1,m4"`` (case and spaces
            ignored); ``None`` → every ablation and control.

    Returns:
        ids in :data:`MC_ABLATIONS` order; ``m4`` brings ``mc4`` (its drop is read against the control's).

    Raises:
        MRCLensError: an id is unknown, or none is given (the message lists the known ids).

    >>> resolve_mc_ablations("m4, m1")
    ['m1', 'm4', 'mc4']
    """
    return resolve_ids(ids, MC_ABLATIONS, "multiple-choice ")
