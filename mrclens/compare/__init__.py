"""``mrclens compare``: datasets and audits side by side, with confidence intervals on the differences (issue 19).

The question a dataset builder asks is "does my new dataset (this annotation round, this filtered
version) carry less of a shortcut than SQuAD?" (Bartolo et al. 2020, "Beat the AI", Table 4 and
Figures 4–8 answer it for SQuAD against their adversarial sets by eye). :func:`compare` puts two
or more inputs side by side and gives every later input's difference to the first input with an
interval, so that one can tell a real difference from noise.

**Inputs** (:func:`load_input`; each is read once, nothing is written next to it):

* a dataset file in any format MRCLens reads (:func:`mrclens.formats.load_dataset`): its
  statistics are computed on the fly (:func:`mrclens.stats.compute_stats_with_values`, cached),
  with the per-question values behind every mean;
* a ``mrclens stats --out`` JSON file: its summary figures only (means with their SD, shares with
  their n);
* an audit directory (``mrclens audit --out``) or an evaluation directory (``mrclens evaluate
  PERTURBED_DIR --predictions-dir P --out DIR``): the drops of ``results.json`` and the
  per-question F1 of ``question-scores.json``; its model-free figures from its evaluation data
  (``perturbed/original.json``, statistics computed as for a dataset) when that file is there,
  else from ``results.json``'s ``model_free`` figures (summary figures).

**Rows** (:data:`MODEL_FREE_ROWS`, :data:`SHARE_SECTIONS`, :data:`ABLATION_FIGURES`): question
and answer length (whitespace words) and the model-free figures of each bias category
(:data:`mrclens.scoring.model_free.FIGURES`: answers in the most similar sentence, longest shared
n-gram, content words in the answer sentence, answers in the first sentence, the type-matched
heuristic); the share of each question type (first word, Beat the AI's buckets) and of each
answer type; for audits, the reader's F1 on the original set, and per ablation the F1 drop, the
relative drop (percent of the baseline F1), and for an ablation with a matched control the excess
drop over the control and the relative excess drop
(:func:`mrclens.scoring.against_reference.relative_figure`). Controls get no row of their own.

**Intervals** (level ``confidence``, default 95 %). Every input's questions are resampled on
their own (the inputs are independent samples of questions), ``n_resamples`` times (default
1,000), with the generator :func:`mrclens.metrics.bootstrap.stable_rng` ``(seed, "<row key>#<input
position>")``, so the same inputs and seed give the same numbers. The difference's interval is
the percentile interval of ``resampled later − resampled first`` (``ci_method`` ``"bootstrap"``)
when both inputs can be resampled:

* a **share** (percent over ``n`` questions) can always be: resampling ``n`` yes/no values with
  replacement draws the count from Binomial(``n``, share), so the bootstrap needs only the share
  and ``n`` — exact for a ``stats`` JSON and an audit's summary figures too;
* a **mean** (lengths, longest shared n-gram, content-word share) only from its per-question
  values (a dataset, or an audit whose evaluation data is there);
* an audit's **F1 and drops** from ``question-scores.json``: each ablation's questions paired
  with its baseline set as scoring pairs them (:mod:`mrclens.scoring.drops`; the excess drop's
  pairs with its control as :func:`mrclens.scoring.drops.excess_drop` does, using the perturbation
  manifest), resampled together within one input. The point estimate must reproduce
  ``results.json``'s figure (to 1e-3), else the figure falls back to the normal approximation.
  Audits with several perturbation draws or readers: ``question-scores.json`` holds the first
  draw's scores only, so their figures use ``results.json``'s two-stage intervals, which include
  the between-draw (and between-reader) variance, through the normal approximation below.

Otherwise (a mean from summary figures; a drop of a multi-draw audit) the interval is the normal
approximation ``difference ± z sqrt(se_first² + se_later²)`` (``ci_method`` ``"normal"``), each
side's standard error being ``std / sqrt(n)`` for a mean (:func:`mrclens.scoring.model_free.standard_error`)
or the half-width of its interval ÷ z. A chance-corrected rank (the answer sentence's percentile rank
by position, similarity or keywords) is compared with the first input **re-weighted to the later
input's sentence counts** (``ci_method`` ``"standardised"``, normal approximation;
:func:`mrclens.scoring.model_free.standardised_to`), as an audit compares it with its reference, so
that the number of sentences does not drive the difference. A difference is **significant** when its interval
excludes 0; ``direction`` then says whether the later input has *more* or *less* of the shortcut
the row measures (``bias_when``: a higher share in the most similar sentence, a larger drop for a
``large_drop`` ablation, a smaller one for a ``small_drop`` ablation …).

**What the intervals leave out.** Questions are resampled one by one, as the issue asks, but
questions on one passage (and passages of one article) are alike: when two inputs hold different
articles (two title-level splits of one dataset, say), the article-to-article variation is larger
than a question-level interval shows, so a "significant" difference of a figure that depends on
the topic (answer types, question types) may be a difference of articles. Many rows make a few
significant by chance, too (the notes give the expected number).

**Multiple-choice inputs** (issue 20; :mod:`mrclens.multiple_choice`): a multiple-choice file
(CODAH TSV or JSON Lines) or a CODAH folder with ``cv_split/fold_k/`` (every question of the folds'
test parts once, :func:`mrclens.multiple_choice.stats.folds_union`), a multiple-choice ``mrclens
stats --out`` JSON file (``"schema": "mrclens-mc-stats"``), or a multiple-choice audit or
evaluation directory (``results.json`` ``"task": "multiple_choice"``; its model-free figures from
``perturbed/original.jsonl`` when it is there, else from the audit's
``sections.multiple_choice.stats``). Multiple-choice inputs are compared only with multiple-choice
inputs: a mix raises :class:`~mrclens.errors.MRCLensError` naming each input's task. Their rows
(:data:`MC_ROWS`, :data:`MC_SHARE_SECTIONS`): the accuracy of each heuristic baseline
(:data:`mrclens.multiple_choice.stats.MC_HEURISTICS`: longest / shortest ending, most / least
prompt overlap; a higher accuracy is more of the cue), bootstrapped from each question's 0/1
correctness (:func:`mrclens.multiple_choice.stats.mc_heuristic_predictions`; from a stats JSON
the accuracy and its n, binomially, which is the same resampling); the mean correct-minus-wrong
ending length in words and characters (per-question values, or the stats JSON's own interval
through the normal approximation); the share of each gold label position and of each question
category. For audits the rows are the span audit's (every ``f1`` is an accuracy there; the labels
say "accuracy"). Input kinds are the same (``dataset``, ``stats``, ``audit``, ``evaluation``) and
each :class:`~mrclens.artifacts.comparison.ComparedInput` records ``task``.

**Compared only where comparable.** Drops depend on the reader, so an ablation row is compared
only between audits with the same reader profile (an evaluation's model name) and the same
numbers of perturbation draws and readers; when the readers' F1 on the original set differs
significantly (one reader is stronger), the absolute figures (F1 drop, excess drop) are not
compared and the relative ones are. An ablation one input lacks or did not evaluate is not
compared. Each such difference has ``compared`` false and a ``reason``; ``differs`` lists, per
later input, what differs from the first.

**Modules** (the package stands above :mod:`mrclens.scoring`, :mod:`mrclens.reports` and
:mod:`mrclens.publish`, below :mod:`mrclens.checks`):

* :mod:`mrclens.compare.sources`: one loaded input (:class:`Source`, :func:`source_from_stats`) and
  the shape of the per-task hooks (:class:`~mrclens.compare.sources.TaskComparison`);
* :mod:`mrclens.compare.span`, :mod:`mrclens.compare.multiple_choice`: each task's rows and how its
  files, folders and audits' figures are read (its hooks);
* :mod:`mrclens.compare.hooks`: each task's hooks (:data:`~mrclens.compare.hooks.COMPARISONS`, role
  ``"compare"`` of :mod:`mrclens.tasks`) and :func:`~mrclens.compare.hooks.hooks_for`;
* :mod:`mrclens.compare.inputs`: each input's task and the input read (:func:`load_input`);
* :mod:`mrclens.compare.estimates`: one input's value of one row with its interval and bootstrap
  replicates;
* :mod:`mrclens.compare.rows`: the rows, the differences with their intervals and significance,
  what is comparable (:func:`is_row_key` for ``mrclens check``);
* :mod:`mrclens.compare.run`: the entry points :func:`compare` and :func:`compare_sources`, what
  differs, the notes;
* :mod:`mrclens.compare.table`: the terminal table (:func:`format_comparison`).

Examples:
    >>> stats_a = {"similarity": {"answer_in_most_similar_sentence_pct": 80.0, "n": 1000}}
    >>> stats_b = {"similarity": {"answer_in_most_similar_sentence_pct": 70.0, "n": 1000}}
    >>> c = compare_sources([source_from_stats(stats_a, "A"), source_from_stats(stats_b, "B")], n_resamples=500)
    >>> d = c.row("similarity.answer_in_most_similar_sentence_pct").differences[0]
    >>> d.difference, d.significant, d.direction, d.ci_method
    (-10.0, True, 'less', 'bootstrap')
"""

from mrclens.compare.estimates import Estimate, ablation_estimate, model_free_estimate, reader_estimate
from mrclens.compare.inputs import MIXED_TASKS, check_one_task, input_task, load_input
from mrclens.compare.multiple_choice import MC_ROWS, MC_SHARE_SECTIONS, mc_question_values
from mrclens.compare.rows import ABLATION_FIGURES, READER_KEY, difference, is_row_key
from mrclens.compare.run import compare, compare_sources
from mrclens.compare.sources import Source, source_from_stats
from mrclens.compare.span import DISTRIBUTIONS, MODEL_FREE_ROWS, SHARE_SECTIONS
from mrclens.compare.table import format_comparison

__all__ = [
    "ABLATION_FIGURES", "DISTRIBUTIONS", "MC_ROWS", "MC_SHARE_SECTIONS", "MIXED_TASKS", "MODEL_FREE_ROWS", "READER_KEY",
    "SHARE_SECTIONS", "Estimate", "Source", "ablation_estimate", "check_one_task", "compare", "compare_sources",
    "difference", "format_comparison", "input_task", "is_row_key", "load_input", "mc_question_values",
    "model_free_estimate", "reader_estimate", "source_from_stats",
]
