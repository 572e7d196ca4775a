"""The figures of ``mrclens stats`` that read no words: what runs on data that is not English.

With ``--language-ok`` on data MRCLens cannot parse (:mod:`mrclens.languages`, MRCLens issue 32),
``mrclens stats`` and ``check`` compute only the figures that need neither a tokenizer, nor
sentences, nor English word lists; they are the same numbers :func:`mrclens.stats.compute_stats`
gives, under the same dotted paths:

* ``counts``: articles, paragraphs, questions, answers, unanswerable and answerable questions;
* ``answer_position.char_fraction``: the first gold answer's ``answer_start`` as a fraction of
  the context length in characters;
* ``duplicates`` and (with a dev file) ``leakage``: texts compared by hash after Unicode
  normalisation (:mod:`mrclens.stats.leakage`). The near-identical key drops combining marks and
  the English articles a/an/the, so on scripts that write vowels as combining marks (Thai,
  Devanagari) "near-identical" is looser than in English; the identical counts are exact.

For a language read with spaCy's rule-based sentencizer (``sentencizer``: Spanish, Russian,
Arabic; :mod:`mrclens.stats.sentencizer`), the section ``chance_corrected`` is added with the ranks
measured to agree with English there (:data:`mrclens.stats.sentencizer.FIGURES`: the answer
sentence's rank by position).

Every other section is absent, and :data:`NOT_COMPUTED` says why, so that ``mrclens check``
skips the rules on them (:func:`mrclens.checks.evaluate_rules`) instead of failing.
"""

from __future__ import annotations

from mrclens.errors import LanguageMsg
from mrclens.squad import Dataset
from mrclens.stats.chance import CHANCE_FIGURES, RANK_FIGURES
from mrclens.stats.core import TITLE
from mrclens.stats.leakage import find_duplicates, find_leakage
from mrclens.stats.summary import summarize

#: The key of the result that lists the sections left out and why (only in a language-free result).
NOT_COMPUTED = "not_computed"
_FRACTION_BINS = [i / 10 for i in range(11)]


def language_free_stats(dataset: Dataset, dev: Dataset | None = None, *, language: str = "not English",
                        sentencizer: str | None = None) -> dict:
    """The figures of ``dataset`` (and its leakage into ``dev``) that read no words (module docstring),
    and with ``sentencizer`` the chance-corrected ranks read with spaCy's sentencizer.

    Args:
        dataset: the span dataset.
        dev: a second file, for ``leakage``.
        language: the detected language, for :data:`NOT_COMPUTED`'s reason.
        sentencizer: the spaCy code of ``dataset``'s language (``"es"``) when it is read with the
            rule-based sentencizer (:data:`mrclens.stats.sentencizer.LANGUAGES`), else ``None``.

    Returns:
        ``{"title", "source", "dev_source", "counts", "answer_position": {"char_fraction": summary},
        ["chance_corrected": section (with ``sentencizer`` only; percentile ranks, percent, 50 = chance)],
        "duplicates", "leakage" (None without dev), "not_computed": {"reason": str, "sections": [...],
        "figures": {dotted path: reason} (the ranks measured not to agree, with ``sentencizer`` only)}}``;
        fractions are 0-1, percentages 0-100.

    Raises:
        ValueError: ``sentencizer`` is not a language of :data:`mrclens.stats.sentencizer.LANGUAGES`.
    """
    dataset, dev = dataset.visible(), dev.visible() if dev is not None else None  # mrclens.invisible
    counts = dataset.counts()
    firsts = [(p.context, q.answers[0]) for _, p, q in dataset.iter_questions() if q.answers]
    counts["answerable"] = len(firsts)
    ranks: dict = {}
    off: dict[str, str] = {}
    not_computed = ["lengths", "question_types", "wh_words_anywhere", "answer_position (by sentence)",
                    "similarity", "overlap", "answer_types", "heuristics"]
    if sentencizer is not None:
        from mrclens.stats.sentencizer import FIGURES, sentencizer_section

        ranks = {"chance_corrected": sentencizer_section(dataset, sentencizer)}
        off = {f"chance_corrected.{name}": LanguageMsg.RANK_DISAGREES.format(language=language)
               for name in CHANCE_FIGURES if name not in FIGURES}
    return {
        "title": TITLE,
        "source": dataset.source,
        "dev_source": dev.source if dev is not None else None,
        "counts": counts,
        "answer_position": {
            "char_fraction": summarize([a.answer_start / len(c) for c, a in firsts], bins=_FRACTION_BINS,
                                       unit="answer_start / context length (characters)"),
        },
        **ranks,
        "duplicates": find_duplicates(dataset),
        "leakage": find_leakage(dataset, dev) if dev is not None else None,
        NOT_COMPUTED: {
            "reason": LanguageMsg.RULE_NEEDS_ENGLISH.format(language=language),
            "sections": not_computed + ([] if ranks else ["chance_corrected"]),
            **({"figures": off} if ranks else {}),
        },
    }


def format_language_free(stats: dict) -> str:
    """The plain-text report of :func:`language_free_stats` (no trailing newline)."""
    c, d = stats["counts"], stats["duplicates"]
    pos = stats["answer_position"]["char_fraction"]
    lines = [
        f"{stats['title']} that read no words: {stats.get('source') or '<memory>'}",
        f"{c['articles']:,} articles, {c['paragraphs']:,} paragraphs, {c['questions']:,} questions "
        f"({c['answerable']:,} answerable, {c['unanswerable']:,} unanswerable)",
        "answer start / context length (characters): "
        + ("n/a" if pos["mean"] is None else f"mean {pos['mean']:.2f}, median {pos['median']:.2f}"),
        f"duplicate questions on the same context: {d['duplicate_questions']:,} ({d['duplicate_questions_pct']:.1f}%)",
    ]
    for name, summary in (stats.get("chance_corrected") or {}).items():
        if isinstance(summary, dict) and "mean" in summary:  # the ranks (not the strata or the chance share)
            lines.append(f"{name} (percentile rank of the answer sentence, sentences from spaCy's rule-based "
                         f"sentencizer; {RANK_FIGURES[name]}): "
                         + ("n/a" if summary["mean"] is None else f"mean {summary['mean']:.1f} (n = {summary['n']:,})"))
    leak = stats.get("leakage")
    if leak is not None:
        lines.append(f"dev contexts also in the data (near-identical): {leak['contexts_near_identical']:,}; "
                     f"dev questions on the same context: {leak['pairs_near_identical']:,}")
    nc = stats[NOT_COMPUTED]
    lines.append(f"not computed ({nc['reason']}): {', '.join(nc['sections'])}")
    by_reason: dict[str, list[str]] = {}
    for path, reason in nc.get("figures", {}).items():
        by_reason.setdefault(reason, []).append(path)
    lines.extend(f"not computed ({reason}): {', '.join(paths)}" for reason, paths in by_reason.items())
    return "\n".join(lines)
