"""Model-free statistics of multiple-choice data (issue 20): ``mrclens stats`` and ``mrclens check`` on CODAH-style sets.

No model is trained: every figure is counted from the questions in well under a second per
thousand questions. :func:`mc_stats` returns a versioned, JSON-able dict
(``{"schema": "mrclens-mc-stats", "format_version": 1, ...}``); percentages are 0–100 and every
confidence interval is a 95 % percentile bootstrap over questions (:mod:`mrclens.metrics.bootstrap`,
seeded per figure with :func:`~mrclens.metrics.bootstrap.stable_rng` so that each interval is
reproducible on its own). The sections that hold figures (:data:`MC_FIGURE_SECTIONS`):

* ``counts``: questions, endings, endings per question (min, max, mean).
* ``labels``: questions per gold label index (count and % of questions), the largest and smallest
  share, the distance of the largest share from chance, the largest deviation of a share from its
  expected value under uniformly placed answers, and a chi-square goodness-of-fit test of
  uniformity. A skewed label distribution is itself a cue: always answering the most common
  position scores ``largest_pct``.
* ``categories``: questions per category (CODAH: Idioms, Reference, Polysemy, Negation,
  Quantitative, Other; ``none`` for questions without one; a question with two categories counts
  in both).
* ``heuristics``: accuracy (%) of rules that read no meaning, each with a bootstrap CI, its distance
  from chance (``above_chance_pts`` with a CI), the share of questions where the rule tied
  (``tie_pct``; ties go to the lowest index) and the expected accuracy with ties broken at random
  (``accuracy_random_ties``):

  - ``longest_ending``: the ending with the most words;
  - ``shortest_ending``: the ending with the fewest words;
  - ``prompt_overlap``: the ending sharing the most content words with the prompt (the
    multiple-choice word-matching baseline of Richardson et al. 2013, MCTest);
  - ``least_prompt_overlap``: the ending sharing the fewest (its inverse: adversarially written
    distractors often repeat the prompt's words);
  - ``chance``: ``100 / endings`` averaged over questions.

  A rule above chance means the data carries that cue (``bias_when`` says so in words).
* ``ending_lengths``: mean words and characters of the correct ending and of the wrong endings
  (per question, averaged over questions), their difference with a bootstrap CI and a paired
  effect size (Cohen's d_z: mean difference over its standard deviation), and the share of
  questions whose correct ending is (one of) the longest / the shortest beside the share expected
  if the label were unrelated to length (annotation artefacts: Gururangan et al. 2018 found the
  length of crowd-written text to predict its label).
* ``duplicates``: repeated prompts, repeated ending sets, identical questions (same prompt and same
  set of endings; ``conflicting_groups`` of them with different correct endings), and questions
  whose correct ending is also an ending (or a wrong ending) of another question.
* ``leakage`` (``null`` without a training set): test questions whose prompt is also a prompt of
  the training set, those whose prompt *and* correct ending are (a training question with the same
  prompt has the same correct ending), and identical questions. For a folds folder each fold's test
  part is checked against its own training part.

Words are ``\\w+`` runs (:func:`mrclens.perturbations.controls.word_count`), content words the
lower-cased ``\\w+`` words not in spaCy's English stop-word list
(:func:`~mrclens.perturbations.controls.content_words`), and texts are compared *normalised*:
lower-cased ``\\w+`` words joined by single spaces (case, punctuation and spacing ignored).
Every figure reads the text without its invisible format characters (Unicode Cf; :mod:`mrclens.invisible`).

Per-question values stay out of the JSON: :func:`mc_heuristic_predictions` gives each heuristic's
prediction per question id, for an audit to reuse.

Metric paths: :data:`MC_METRIC_PATHS` lists every figure of a CODAH-shaped result (4 endings, the
six CODAH categories); label indices and category names follow the data, so
:func:`is_mc_metric` also accepts ``labels.counts.<index>``, ``labels.shares_pct.<index>``,
``categories.counts.<name>`` and ``categories.shares_pct.<name>``. ``mrclens check`` validates
rules on multiple-choice data with it (defaults: ``mrclens/data/default_rules_mc.toml``).

Examples:
    >>> from mrclens.formats.multiple_choice import MCDataset, MCQuestion
    >>> ds = MCDataset([MCQuestion("a", "The dog barked.", ("It slept.", "The dog barked at the cat loudly."), 1),
    ...                 MCQuestion("b", "She was cold.", ("She put on a warm coat.", "Fish."), 0)])
    >>> s = mc_stats(ds, n_resamples=50)
    >>> s["schema"], s["heuristics"]["longest_ending"]["accuracy"], s["heuristics"]["chance"]["accuracy"]
    ('mrclens-mc-stats', 100.0, 50.0)
    >>> mc_heuristic_predictions(ds)["prompt_overlap"]
    {'a': 1, 'b': 0}
"""

from __future__ import annotations

import math
import os
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

from mrclens.errors import InternalError, MRCLensError
from mrclens.formats.multiple_choice import CODAH_CATEGORIES, Fold, MCDataset, load_mc_dataset, read_folds, sniff_mc
from mrclens.stats.files import FileStats
from mrclens.vocabulary import WORD_PATTERN

#: The ``schema`` field of :func:`mc_stats`'s result, and its ``format_version``.
MC_STATS_SCHEMA = "mrclens-mc-stats"
MC_STATS_FORMAT_VERSION = 1
#: Sections that hold figures, in output order.
MC_FIGURE_SECTIONS = ("counts", "labels", "categories", "heuristics", "ending_lengths", "duplicates", "leakage")
#: The section that is ``null`` without a training set (named like the span statistics' one, so
#: ``mrclens check`` skips its rules the same way).
MC_LEAKAGE_SECTION = "leakage"
#: The heuristic baselines, in report order (``chance`` is listed after them in ``heuristics``).
MC_HEURISTICS = ("longest_ending", "shortest_ending", "prompt_overlap", "least_prompt_overlap")
#: The category key of questions without a category.
NO_CATEGORY = "none"
#: Confidence level of every interval.
CONFIDENCE = 0.95

_WORD = WORD_PATTERN

_RULES = {
    "longest_ending": "the ending with the most words (ties: the lowest index)",
    "shortest_ending": "the ending with the fewest words (ties: the lowest index)",
    "prompt_overlap": "the ending sharing the most content words with the prompt (ties: the lowest index)",
    "least_prompt_overlap": "the ending sharing the fewest content words with the prompt (ties: the lowest index)",
}
_BIAS_WHEN = {
    "longest_ending": "above chance: correct endings tend to be the longest; a model can pick by length "
                      "without reading (annotation artefact, Gururangan et al. 2018)",
    "shortest_ending": "above chance: correct endings tend to be the shortest; a model can pick by length "
                       "without reading (annotation artefact, Gururangan et al. 2018)",
    "prompt_overlap": "above chance: the correct ending tends to repeat the prompt's words; word matching finds it "
                      "without understanding (lexical-overlap cue; Richardson et al. 2013's word-matching baseline)",
    "least_prompt_overlap": "above chance: the wrong endings tend to repeat the prompt's words (distractors written "
                            "to fool word matching); avoiding the prompt's words finds the answer",
}
_HEURISTIC_FIGURES = ("accuracy", "ci_low", "ci_high", "above_chance_pts", "above_chance_ci_low",
                      "above_chance_ci_high", "accuracy_random_ties", "tie_pct", "n")
_LENGTH_FIGURES = ("correct_mean", "wrong_mean", "difference", "difference_ci_low", "difference_ci_high",
                   "effect_size", "abs_effect_size")
_GROUP_FIGURES = ("groups", "questions", "questions_pct")
_LABEL_FIGURES = ("n_labels", "most_common", "largest_pct", "smallest_pct", "majority_above_chance_pts",
                  "max_deviation_pts", "chi_square", "chi_square_df", "chi_square_p")
_LEAKAGE_FIGURES = ("questions", "prompt_in_train", "prompt_in_train_pct", "prompt_and_answer_in_train",
                    "prompt_and_answer_in_train_pct", "identical_in_train", "identical_in_train_pct")
_CODAH_LABELS = ("0", "1", "2", "3")
_CODAH_CATEGORY_KEYS = (*CODAH_CATEGORIES.values(), NO_CATEGORY)


def _under(prefix: str, names: Sequence[str]) -> list[str]:
    return [f"{prefix}.{name}" for name in names]


#: Every figure of :func:`mc_stats` on CODAH-shaped data (4 endings, CODAH's categories), as dotted
#: paths in output order; the ``leakage`` ones only with a training set. Other label indices and
#: category names follow the data (:func:`is_mc_metric`).
MC_METRIC_PATHS: tuple[str, ...] = tuple(
    _under("counts", ("questions", "endings", "endings_per_question_min", "endings_per_question_max",
                      "endings_per_question_mean"))
    + _under("labels", _LABEL_FIGURES[:1]) + _under("labels.counts", _CODAH_LABELS)
    + _under("labels.shares_pct", _CODAH_LABELS) + _under("labels", _LABEL_FIGURES[1:])
    + _under("categories.counts", _CODAH_CATEGORY_KEYS) + _under("categories.shares_pct", _CODAH_CATEGORY_KEYS)
    + ["categories.questions_with_category", "categories.questions_with_several"]
    + [p for name in MC_HEURISTICS for p in _under(f"heuristics.{name}", _HEURISTIC_FIGURES)]
    + ["heuristics.chance.accuracy", "heuristics.chance.n"]
    + _under("ending_lengths.words", _LENGTH_FIGURES) + _under("ending_lengths.characters", _LENGTH_FIGURES)
    + _under("ending_lengths", ("correct_longest_pct", "expected_longest_pct", "correct_shortest_pct",
                                "expected_shortest_pct", "n"))
    + _under("duplicates.repeated_prompts", _GROUP_FIGURES) + _under("duplicates.repeated_ending_sets", _GROUP_FIGURES)
    + _under("duplicates.identical_questions", _GROUP_FIGURES + ("conflicting_groups",))
    + _under("duplicates.correct_ending_elsewhere", ("questions", "questions_pct", "as_wrong_ending",
                                                     "as_wrong_ending_pct"))
    + _under(MC_LEAKAGE_SECTION, _LEAKAGE_FIGURES)
)
_DATA_DEPENDENT = re.compile(r"^(labels\.(counts|shares_pct)\.\d+|categories\.(counts|shares_pct)\..+)$")


def is_mc_metric(path: str) -> bool:
    """True when ``path`` is a figure :func:`mc_stats` can produce: one of :data:`MC_METRIC_PATHS`, or
    a label index / category name under ``labels.counts``, ``labels.shares_pct``, ``categories.counts``
    or ``categories.shares_pct``.

    >>> is_mc_metric("heuristics.longest_ending.accuracy"), is_mc_metric("labels.counts.4"), is_mc_metric("lengths.x")
    (True, True, False)
    """
    return path in MC_METRIC_PATHS or bool(_DATA_DEPENDENT.match(path))


def mc_figure_paths(result: dict) -> Iterator[str]:
    """The dotted path of every figure (a number or ``null``) in ``result``, in its order; strings and
    lists are not figures, and a section that is ``null`` has none (:func:`mrclens.stats.schema.figure_paths`
    over :data:`MC_FIGURE_SECTIONS`)."""
    from mrclens.stats.schema import figure_paths

    return figure_paths(result, MC_FIGURE_SECTIONS)


# ------------------------------------------------------------------------------------------------
# text helpers


def normalise(text: str) -> str:
    """Lower-cased ``\\w+`` words joined by single spaces: how prompts and endings are compared.

    >>> normalise("  The Man's   hat, RED!")
    'the man s hat red'
    """
    return " ".join(_WORD.findall(text.lower()))


def _content_words():
    from mrclens.perturbations.controls import content_words, word_count
    from mrclens.vocabulary import STOP_WORDS  # spaCy's English list, read without importing spaCy

    return (lambda text: content_words(text, STOP_WORDS)), word_count


@dataclass
class _Values:
    """Per-question values behind the figures (kept out of the JSON)."""

    ids: list[str]
    labels: np.ndarray  # (n,) int
    k: np.ndarray  # (n,) endings per question
    words: list[np.ndarray]  # per question, words per ending
    chars: list[np.ndarray]  # per question, characters per ending
    overlap: list[np.ndarray]  # per question, content words shared with the prompt per ending


def _values(dataset: MCDataset) -> _Values:
    content, word_count = _content_words()
    words, chars, overlap = [], [], []
    for q in dataset.questions:
        prompt_words = content(q.prompt)
        words.append(np.array([word_count(e) for e in q.endings], dtype=np.int64))
        chars.append(np.array([len(e.strip()) for e in q.endings], dtype=np.int64))
        overlap.append(np.array([len(content(e) & prompt_words) for e in q.endings], dtype=np.int64))
    return _Values([q.id for q in dataset.questions], dataset.labels(),
                   np.array([len(q.endings) for q in dataset.questions], dtype=np.int64), words, chars, overlap)


def _scores(values: _Values, name: str) -> list[np.ndarray]:
    """The per-ending scores a heuristic maximises."""
    if name == "longest_ending":
        return values.words
    if name == "shortest_ending":
        return [-w for w in values.words]
    if name == "prompt_overlap":
        return values.overlap
    if name == "least_prompt_overlap":
        return [-o for o in values.overlap]
    raise ValueError(f"unknown heuristic {name!r}; known: {', '.join(MC_HEURISTICS)}")


def _pick(scores: list[np.ndarray], labels: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per question: the predicted index (the highest score, ties to the lowest index), whether the
    top score is tied, and the expected correctness with ties broken at random."""
    n = len(scores)
    pred = np.zeros(n, dtype=np.int64)
    tied = np.zeros(n, dtype=bool)
    fair = np.zeros(n, dtype=np.float64)
    for i, s in enumerate(scores):
        top = s == s.max()
        pred[i] = int(np.argmax(s))
        tied[i] = int(top.sum()) > 1
        fair[i] = float(top[labels[i]]) / float(top.sum())
    return pred, tied, fair


def mc_heuristic_predictions(dataset: MCDataset) -> dict[str, dict[str, int]]:
    """Each heuristic's predicted ending index per question id: ``{heuristic: {id: index}}`` for
    :data:`MC_HEURISTICS` (ties go to the lowest index, as in :func:`mc_stats`; read on the dataset's
    :meth:`~mrclens.formats.multiple_choice.MCDataset.visible` view, as the figures are)."""
    values = _values(dataset.visible())
    return {name: dict(zip(values.ids, (int(p) for p in _pick(_scores(values, name), values.labels)[0])))
            for name in MC_HEURISTICS}


# ------------------------------------------------------------------------------------------------
# figures


def _r(x: float | None) -> float | None:
    """Round a figure to 4 decimals (``None`` and non-finite values become ``None``)."""
    if x is None or not math.isfinite(x):
        return None
    return round(float(x), 4)


def _pct(part: int | float, whole: int) -> float | None:
    return _r(100.0 * part / whole) if whole else None


def _bootstrap_means(columns: np.ndarray, *, seed: int, key: str, n_resamples: int) -> list[tuple[float, float]]:
    """:func:`mrclens.metrics.bootstrap.bootstrap_mean_intervals` at :data:`CONFIDENCE`.

    Raises:
        MRCLensError: ``n_resamples < 1``.
    """
    from mrclens.metrics.bootstrap import bootstrap_mean_intervals

    try:
        return bootstrap_mean_intervals(columns, seed=seed, key=key, n_resamples=n_resamples, confidence=CONFIDENCE)
    except ValueError as err:
        raise MRCLensError(str(err)) from None


def chi_square_sf(x: float, df: int) -> float:
    """The upper tail ``P(X >= x)`` of a chi-square distribution with ``df`` (>= 1) degrees of freedom
    (:data:`scipy.stats.chi2`'s survival function; 1.0 for ``x <= 0``).

    >>> round(chi_square_sf(7.814728, 3), 4), round(chi_square_sf(3.841459, 1), 4)
    (0.05, 0.05)
    """
    from scipy.stats import chi2

    return 1.0 if x <= 0 else float(min(1.0, chi2.sf(x, df)))


def _counts(values: _Values) -> dict[str, Any]:
    k = values.k
    return {
        "questions": int(k.size),
        "endings": int(k.sum()),
        "endings_per_question_min": int(k.min()) if k.size else None,
        "endings_per_question_max": int(k.max()) if k.size else None,
        "endings_per_question_mean": _r(float(k.mean())) if k.size else None,
    }


def _labels(values: _Values, chance: float | None) -> dict[str, Any]:
    n, labels, k = int(values.k.size), values.labels, values.k
    n_labels = int(k.max()) if n else 0
    counts = np.bincount(labels, minlength=n_labels)[:n_labels] if n else np.zeros(0, dtype=np.int64)
    # expected count of label i if answers were placed uniformly: the sum over questions with more than i endings of 1/k
    expected = np.array([float((1.0 / k[k > i]).sum()) for i in range(n_labels)])
    shares = 100.0 * counts / n if n else counts.astype(float)
    chi2 = float((((counts - expected) ** 2) / expected).sum()) if n else None
    df = n_labels - 1
    return {
        "n_labels": n_labels,
        "counts": {str(i): int(c) for i, c in enumerate(counts)},
        "shares_pct": {str(i): _r(s) for i, s in enumerate(shares)},
        "most_common": int(np.argmax(counts)) if n else None,
        "largest_pct": _r(float(shares.max())) if n else None,
        "smallest_pct": _r(float(shares.min())) if n else None,
        "majority_above_chance_pts": _r(float(shares.max()) - chance) if n and chance is not None else None,
        "max_deviation_pts": _r(float(np.abs(shares - 100.0 * expected / n).max())) if n else None,
        "chi_square": _r(chi2),
        "chi_square_df": df,
        "chi_square_p": _r(chi_square_sf(chi2, df)) if chi2 is not None and df >= 1 else None,
        "bias_when": "a skewed distribution: always answering the most common position scores largest_pct; "
                     "a model can learn the position instead of the content (shuffle the endings)",
    }


def _categories(dataset: MCDataset) -> dict[str, Any]:
    n = len(dataset)
    counts = {(NO_CATEGORY if name == "(none)" else name): c for name, c in dataset.category_counts().items()}
    return {
        "counts": counts,
        "shares_pct": {name: _pct(c, n) for name, c in counts.items()},
        "questions_with_category": sum(1 for q in dataset.questions if q.categories),
        "questions_with_several": sum(1 for q in dataset.questions if len(q.categories) > 1),
    }


def _heuristics(values: _Values, *, seed: int, n_resamples: int) -> tuple[dict[str, Any], float | None]:
    n = int(values.k.size)
    chance_q = 1.0 / values.k.astype(np.float64)
    chance = _r(100.0 * float(chance_q.mean())) if n else None
    out: dict[str, Any] = {}
    for name in MC_HEURISTICS:
        pred, tied, fair = _pick(_scores(values, name), values.labels)
        correct = (pred == values.labels).astype(np.float64)
        cols = 100.0 * np.stack([correct, correct - chance_q], axis=1) if n else np.zeros((0, 2))
        (lo, hi), (dlo, dhi) = _bootstrap_means(cols, seed=seed, key=f"mc-stats:heuristics:{name}",
                                               n_resamples=n_resamples)
        acc = 100.0 * float(correct.mean()) if n else None
        out[name] = {
            "accuracy": _r(acc),
            "ci_low": _r(lo),
            "ci_high": _r(hi),
            "above_chance_pts": _r(acc - 100.0 * float(chance_q.mean())) if n else None,
            "above_chance_ci_low": _r(dlo),
            "above_chance_ci_high": _r(dhi),
            "accuracy_random_ties": _r(100.0 * float(fair.mean())) if n else None,
            "tie_pct": _r(100.0 * float(tied.mean())) if n else None,
            "n": n,
            "rule": _RULES[name],
            "bias_when": _BIAS_WHEN[name],
        }
    out["chance"] = {"accuracy": chance, "n": n, "rule": "an ending at random: 100 / endings, averaged over questions"}
    return out, chance


def _length_figures(per_ending: list[np.ndarray], labels: np.ndarray, *, seed: int, key: str,
                    n_resamples: int) -> dict[str, Any]:
    n = len(per_ending)
    correct = np.array([float(v[labels[i]]) for i, v in enumerate(per_ending)])
    wrong = np.array([float(np.delete(v, labels[i]).mean()) for i, v in enumerate(per_ending)])
    diff = correct - wrong
    [(lo, hi)] = _bootstrap_means(diff[:, None], seed=seed, key=key, n_resamples=n_resamples)
    sd = float(diff.std(ddof=1)) if n > 1 else 0.0
    d = float(diff.mean()) / sd if sd > 0 else None
    return {
        "correct_mean": _r(float(correct.mean())) if n else None,
        "wrong_mean": _r(float(wrong.mean())) if n else None,
        "difference": _r(float(diff.mean())) if n else None,
        "difference_ci_low": _r(lo),
        "difference_ci_high": _r(hi),
        "effect_size": _r(d),
        "abs_effect_size": _r(abs(d)) if d is not None else None,
    }


def _ending_lengths(values: _Values, *, seed: int, n_resamples: int) -> dict[str, Any]:
    n = int(values.k.size)
    longest = shortest = exp_long = exp_short = 0.0
    for w, label, k in zip(values.words, values.labels, values.k):
        top, bottom = w == w.max(), w == w.min()
        longest += bool(top[label])
        shortest += bool(bottom[label])
        exp_long += top.sum() / k
        exp_short += bottom.sum() / k
    return {
        "words": _length_figures(values.words, values.labels, seed=seed, key="mc-stats:ending_lengths:words",
                                 n_resamples=n_resamples),
        "characters": _length_figures(values.chars, values.labels, seed=seed, key="mc-stats:ending_lengths:characters",
                                      n_resamples=n_resamples),
        "correct_longest_pct": _pct(longest, n),
        "expected_longest_pct": _pct(exp_long, n),
        "correct_shortest_pct": _pct(shortest, n),
        "expected_shortest_pct": _pct(exp_short, n),
        "n": n,
        "unit": "words: \\w+ runs; characters: of the ending without surrounding spaces; the wrong endings' mean is "
                "taken per question, then averaged; difference = correct - wrong (paired by question)",
        "bias_when": "a difference far from 0 (|effect_size| of 0.2 or more): correct endings differ in length from "
                     "wrong ones, so length alone separates them (annotation artefact, Gururangan et al. 2018); "
                     "correct_longest_pct above expected_longest_pct says the same for the single longest ending",
    }


def _groups(keys: list[Any], n: int) -> tuple[dict[str, Any], dict[Any, list[int]]]:
    members: dict[Any, list[int]] = defaultdict(list)
    for i, key in enumerate(keys):
        if key is not None:
            members[key].append(i)
    repeated = {k: v for k, v in members.items() if len(v) > 1}
    questions = sum(len(v) for v in repeated.values())
    return {"groups": len(repeated), "questions": questions, "questions_pct": _pct(questions, n)}, repeated


def _duplicates(dataset: MCDataset) -> dict[str, Any]:
    qs, n = dataset.questions, len(dataset)
    prompts = [normalise(q.prompt) or None for q in qs]  # empty prompts (answer-only sets) are not repeats
    ending_sets = [tuple(sorted(normalise(e) for e in q.endings)) for q in qs]
    prompt_groups, _ = _groups(prompts, n)
    ending_groups, _ = _groups(ending_sets, n)
    identical, members = _groups([(p or "", e) for p, e in zip(prompts, ending_sets)], n)
    identical["conflicting_groups"] = sum(1 for idx in members.values()
                                          if len({normalise(qs[i].correct_ending) for i in idx}) > 1)
    anywhere: dict[str, set[int]] = defaultdict(set)
    as_wrong: dict[str, set[int]] = defaultdict(set)
    for i, q in enumerate(qs):
        for j, e in enumerate(q.endings):
            anywhere[normalise(e)].add(i)
            if j != q.label:
                as_wrong[normalise(e)].add(i)
    elsewhere = wrong_elsewhere = 0
    for i, q in enumerate(qs):
        c = normalise(q.correct_ending)
        elsewhere += bool(anywhere[c] - {i})
        wrong_elsewhere += bool(as_wrong.get(c, set()) - {i})
    return {
        "repeated_prompts": prompt_groups,
        "repeated_ending_sets": ending_groups,
        "identical_questions": identical,
        "correct_ending_elsewhere": {"questions": elsewhere, "questions_pct": _pct(elsewhere, n),
                                     "as_wrong_ending": wrong_elsewhere, "as_wrong_ending_pct": _pct(wrong_elsewhere, n)},
        "definition": "texts compared normalised (lower-cased \\w+ words); a group is a set of 2+ questions sharing the "
                      "prompt / the set of endings (in any order) / both; 'questions' counts every member of a group",
    }


def _leakage(parts: Sequence[tuple[str, MCDataset, MCDataset]]) -> dict[str, Any]:
    """Test questions found in their training part; ``parts`` is ``[(name, test, train)]``."""
    totals = dict.fromkeys(("questions", "prompt_in_train", "prompt_and_answer_in_train", "identical_in_train"), 0)
    listed = []
    for name, test, train in parts:
        answers: dict[str, set[str]] = defaultdict(set)
        whole: set[tuple[str, tuple[str, ...]]] = set()
        for q in train.questions:
            p = normalise(q.prompt)
            answers[p].add(normalise(q.correct_ending))
            whole.add((p, tuple(sorted(normalise(e) for e in q.endings))))
        found = dict.fromkeys(("prompt_in_train", "prompt_and_answer_in_train", "identical_in_train"), 0)
        for q in test.questions:
            p = normalise(q.prompt)
            if p and p in answers:
                found["prompt_in_train"] += 1
                found["prompt_and_answer_in_train"] += normalise(q.correct_ending) in answers[p]
            found["identical_in_train"] += (p, tuple(sorted(normalise(e) for e in q.endings))) in whole
        listed.append({"name": name, "test": test.source, "train": train.source, "test_questions": len(test),
                       "train_questions": len(train), **found})
        totals["questions"] += len(test)
        for key, value in found.items():
            totals[key] += value
    n = totals["questions"]
    return {
        "questions": n,
        "prompt_in_train": totals["prompt_in_train"],
        "prompt_in_train_pct": _pct(totals["prompt_in_train"], n),
        "prompt_and_answer_in_train": totals["prompt_and_answer_in_train"],
        "prompt_and_answer_in_train_pct": _pct(totals["prompt_and_answer_in_train"], n),
        "identical_in_train": totals["identical_in_train"],
        "identical_in_train_pct": _pct(totals["identical_in_train"], n),
        "parts": listed,
        "definition": "a test question whose normalised prompt is a prompt of its training part; with the same correct "
                      "ending ('prompt_and_answer'); with the same prompt and set of endings ('identical')",
    }


def _check_layout(result: dict) -> None:
    unknown = [p for p in mc_figure_paths(result) if not is_mc_metric(p)]
    if unknown:
        raise InternalError(f"mc_stats produced figures not declared in MC_METRIC_PATHS: {unknown}")


def _mc_stats(dataset: MCDataset, leakage_parts: Sequence[tuple[str, MCDataset, MCDataset]] | None, *, seed: int,
              n_resamples: int, source: str | None = None, form: str | None = None, note: str = "") -> dict:
    # the figures read the text without its invisible format characters (mrclens.invisible), as span data's do
    dataset = dataset.visible()
    leakage_parts = [(name, test.visible(), train.visible()) for name, test, train in leakage_parts or ()]
    values = _values(dataset)
    heuristics, chance = _heuristics(values, seed=seed, n_resamples=n_resamples)
    result = {
        "schema": MC_STATS_SCHEMA,
        "format_version": MC_STATS_FORMAT_VERSION,
        "task": "multiple_choice",
        "source": source if source is not None else dataset.source,
        "input": {"form": form if form is not None else dataset.format, "note": note},
        "config": {
            "seed": seed, "n_resamples": n_resamples, "confidence": CONFIDENCE,
            "words": "\\w+ runs", "content_words": "lower-cased \\w+ words not in spaCy's English stop-word list",
            "normalised": "lower-cased \\w+ words joined by single spaces",
        },
        "counts": _counts(values),
        "labels": _labels(values, chance),
        "categories": _categories(dataset),
        "heuristics": heuristics,
        "ending_lengths": _ending_lengths(values, seed=seed, n_resamples=n_resamples),
        "duplicates": _duplicates(dataset),
        MC_LEAKAGE_SECTION: _leakage(leakage_parts) if leakage_parts else None,
    }
    _check_layout(result)
    return result


def mc_stats(dataset: MCDataset, *, train: MCDataset | None = None, seed: int = 0, n_resamples: int = 1000) -> dict:
    """Every model-free figure of a multiple-choice ``dataset`` (the module docstring lists them).

    Args:
        dataset: the questions to describe (e.g. a test set, or every question of a folds folder).
        train: a training set: fills the ``leakage`` section (``dataset``'s questions found in it);
            without it the section is ``null``.
        seed: seeds every bootstrap (each figure's generator is ``stable_rng(seed, key)``).
        n_resamples: bootstrap resamples (questions drawn with replacement).

    Returns:
        a JSON-able dict ``{"schema": "mrclens-mc-stats", "format_version": 1, ...}``; its figures are
        the paths :func:`is_mc_metric` accepts.

    Raises:
        MRCLensError: ``n_resamples`` < 1.
    """
    parts = [("train", dataset, train)] if train is not None else None
    return _mc_stats(dataset, parts, seed=seed, n_resamples=n_resamples)


# ------------------------------------------------------------------------------------------------
# inputs: a file or a folds folder (what `mrclens stats` and `mrclens check` read)


def folds_union(folds: Sequence[Fold], source: str | None = None) -> MCDataset:
    """Every question of the folds' test parts once (fold by fold, in file order; an id already seen
    is not repeated): the evaluation set of a cross-validated audit. In CODAH's official split the
    five test parts together are exactly the 2,776 questions of ``full_data.tsv``."""
    seen: set[str] = set()
    questions = []
    for fold in folds:
        for q in fold.test.questions:
            if q.id not in seen:
                seen.add(q.id)
                questions.append(q)
    return MCDataset(questions, source, "folds")


def compute_mc_stats(data: str | os.PathLike, dev: str | os.PathLike | None = None, *, seed: int = 0,
                     n_resamples: int = 1000) -> dict:
    """:func:`mc_stats` of a multiple-choice file or folds folder (``mrclens stats`` / ``mrclens check``).

    * A **file** (CODAH TSV or multiple-choice JSON Lines): its questions; with ``dev`` (a second
      file), the ``leakage`` section counts ``dev``'s questions found in ``data`` (``data`` is the
      training side, as for SQuAD files).
    * A **folds folder** (``cv_split/fold_k/{train,dev,test}``): the union of the folds' test parts,
      every question once (:func:`folds_union`; the evaluation set of the multiple-choice audit, so the
      heuristic predictions line up with its per-question results; for CODAH the same 2,776
      questions as ``full_data.tsv``, which the folder need not hold); the ``leakage`` section counts,
      fold by fold, the test questions found in the fold's own training part. ``dev`` is refused.

    Raises:
        MRCLensError: not multiple-choice data, a folder without folds, or ``dev`` with a folder.
        DataError: a file is invalid (named with the line and question id).
        FileNotFoundError: a path does not exist.
    """
    form = sniff_mc(data)
    if form == "folds":
        if dev is not None:
            raise MRCLensError(f"{data}: --dev is not used with a folds folder: leakage is measured between each "
                               "fold's train and test parts")
        folds = read_folds(data)
        dataset = folds_union(folds, str(data))
        parts = [(f.name, f.test, f.train) for f in folds]
        note = (f"every question of the {len(folds)} folds' test parts once ({len(dataset):,} questions); "
                "leakage: each fold's test part against its training part")
        return _mc_stats(dataset, parts, seed=seed, n_resamples=n_resamples, source=str(data), form="folds", note=note)
    if Path(data).is_dir():
        raise MRCLensError(f"{data}: a folder without multiple-choice folds (cv_split/fold_k/ or fold_k/); give a file "
                           "or a CODAH folder")
    dataset = load_mc_dataset(data)
    parts = None
    note = ""
    if dev is not None:
        dev_set = load_mc_dataset(dev)
        parts = [("dev", dev_set, dataset)]
        note = f"leakage: the questions of {dev} found in {data}"
    return _mc_stats(dataset, parts, seed=seed, n_resamples=n_resamples, note=note)


# ------------------------------------------------------------------------------------------------
# text report


def _ci(h: dict) -> str:
    if h.get("ci_low") is None:
        return ""
    return f" (95% CI {h['ci_low']:.1f}-{h['ci_high']:.1f})"


def format_mc_stats(result: dict) -> str:
    """A short plain-text summary of :func:`mc_stats`'s result (the JSON holds every figure)."""
    c, lab, cat = result["counts"], result["labels"], result["categories"]
    lines = [f"{result.get('source') or 'dataset'}: {c['questions']:,} multiple-choice questions, "
             f"{c['endings']:,} endings ({c['endings_per_question_min']}-{c['endings_per_question_max']} per question)"]
    if result["input"].get("note"):
        lines.append(f"  ({result['input']['note']})")
    lines.append("labels: " + ", ".join(f"{i}: {n:,} ({lab['shares_pct'][i]:.1f}%)" for i, n in lab["counts"].items())
                 + f"; chi-square {lab['chi_square']} (p = {lab['chi_square_p']})")
    lines.append("categories: " + ", ".join(f"{k} {v:,}" for k, v in cat["counts"].items()))
    h = result["heuristics"]
    lines.append(f"heuristic accuracy (%), chance {h['chance']['accuracy']:.1f}:")
    for name in MC_HEURISTICS:
        x = h[name]
        if x["accuracy"] is None:
            continue
        lines.append(f"  {name:22} {x['accuracy']:5.1f}{_ci(x)}, {x['above_chance_pts']:+.1f} vs chance, "
                     f"ties {x['tie_pct']:.1f}%")
    for unit in ("words", "characters"):
        e = result["ending_lengths"][unit]
        if e["difference"] is None:
            continue
        lines.append(f"ending {unit}: correct {e['correct_mean']:.2f}, wrong {e['wrong_mean']:.2f}, difference "
                     f"{e['difference']:+.2f} (95% CI {e['difference_ci_low']:+.2f} to {e['difference_ci_high']:+.2f}), "
                     f"d_z = {e['effect_size'] if e['effect_size'] is not None else '-'}")
    el = result["ending_lengths"]
    if el["correct_longest_pct"] is not None:
        lines.append(f"correct ending is (one of) the longest: {el['correct_longest_pct']:.1f}% (expected "
                     f"{el['expected_longest_pct']:.1f}%); the shortest: {el['correct_shortest_pct']:.1f}% (expected "
                     f"{el['expected_shortest_pct']:.1f}%)")
    d = result["duplicates"]
    lines.append(f"duplicates: {d['repeated_prompts']['questions']:,} questions share a prompt "
                 f"({d['repeated_prompts']['groups']:,} groups); {d['repeated_ending_sets']['questions']:,} share a set of "
                 f"endings; {d['identical_questions']['questions']:,} identical; "
                 f"{d['correct_ending_elsewhere']['questions']:,} correct endings occur in another question "
                 f"({d['correct_ending_elsewhere']['as_wrong_ending']:,} as a wrong ending)")
    leak = result.get(MC_LEAKAGE_SECTION)
    if leak is not None:
        lines.append(f"leakage: of {leak['questions']:,} test questions, {leak['prompt_in_train']:,} "
                     f"({leak['prompt_in_train_pct']:.1f}%) have their prompt in the training part, "
                     f"{leak['prompt_and_answer_in_train']:,} with the same correct ending, "
                     f"{leak['identical_in_train']:,} are identical")
    return "\n".join(lines)


def mc_file_stats(data: str | os.PathLike, dev: str | os.PathLike | None = None, **_span_options: Any) -> FileStats:
    """:func:`compute_mc_stats` of a multiple-choice file or folds folder as a
    :class:`~mrclens.stats.files.FileStats` (the multiple-choice task's entry in
    :data:`mrclens.checks.FILE_STATS`). The span options of ``mrclens stats`` / ``check`` (``cache_dir``,
    ``progress``, ``on_invalid``, ``first_k``, ``n_process``, ``on_loaded``) do not apply and are ignored.

    Raises:
        as :func:`compute_mc_stats`.
    """
    return FileStats(compute_mc_stats(data, dev), None, [], format_mc_stats)
