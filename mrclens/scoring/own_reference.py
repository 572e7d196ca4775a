"""Any model read against its own evaluation on a reference's sets (issue 44, item 3: a verdict for any model).

The audit reads its baseline reader's drops against a reference audit *with the same reader profile*
(:mod:`mrclens.scoring.against_reference`). An external model has no profile in the shipped reference,
so it brings its own reference: its predictions on the **reference's perturbed sets** (``mrclens perturb
--reference``: SQuAD v1.1 dev when given, else the bundled SQuAD v1.1 sample's evaluation part, with the
same ablations and seed as the audit). :func:`evaluate_against_own_reference` scores them with the one
scoring path (:func:`mrclens.scoring.evaluate.evaluate_perturbed`: official EM/F1, paired bootstrap), turns
that evaluation into the reference audit the model is read against
(:func:`reference_from_evaluation`: a :class:`~mrclens.artifacts.reference.ReferenceChoice` built for the model,
not looked up by a profile), and scores the model's predictions on the
user's sets against it with the **same reading functions** as the audit
(:func:`~mrclens.scoring.against_reference.compare_with_reference`: relative (excess) drops, the
±:data:`~mrclens.scoring.against_reference.DROP_BAND`-point equivalence band, the minimum detectable effect,
the family-wise level, :func:`~mrclens.scoring.against_reference.combine_routes`). So the verdicts are
"more" / "in line" / "less" / "inconclusive", as the audit's.

What differs from the audit, and why:

* **The same model on both sides**: no training run separates the two evaluations, so the reference has no
  between-run term (``run_sd`` ``None``: one run).
* **The structure term and the clustering factors are borrowed** from the shipped reference's ``quick`` audit
  (where they were measured, on clean datasets of other shapes and on many audits; issue 41, part 3): how much
  a category's drops move with the data's shape alone, and how much wider a drop's error is when its
  questions are resampled by article. Both are properties of the data and the probes more than of the
  reader; they widen the intervals and never move a figure. The sets of both sides must be made with the
  same truncation rule (``mrclens perturb`` makes both with the default, a random question per paragraph).
* **No model-free route**: ``evaluate`` reads predictions, not the training data, so the categories are read
  from their drops alone (``reference_basis`` ``"drops"``).

Errors (:class:`~mrclens.errors.ArtifactError`, exit code 2 in the CLI), each naming the folder or file:
the reference sets were made from the same data as the audited sets (a reference is never the data it
judges: the same file, or the same question ids and texts whatever the file's name or compression, or one
side's questions all among the other's: :func:`check_reference_sets`); a reference prediction file holds none
of its set's question ids (predictions made on other sets, e.g. the audited sets' predictions given as the
reference's); a reference set that a compared ablation needs has no prediction file, or more than
:data:`MAX_MISSING_SHARE` of its questions have no prediction (:func:`check_reference_predictions`); the two
folders are of different tasks. Fewer missing ids, unknown ids and reference sets no compared ablation needs
are warnings, listed in ``results.warnings`` (so on standard error and in the report) beside the audited
side's, each starting with "reference predictions".
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any, Collection

from mrclens.artifacts.layout import prediction_file_name
from mrclens.artifacts.manifest import read_manifest
from mrclens.artifacts.reference import Reference, ReferenceAudit, ReferenceChoice, read_reference
from mrclens.artifacts.results import InputFile, Results
from mrclens.errors import ArtifactError, ArtifactMsg
from mrclens.metrics.bootstrap import CONFIDENCE, N_RESAMPLES
from mrclens.scoring.reference_builder import reference_audit_from_results
from mrclens.formats import LOAD_SET
from mrclens.scoring.evaluate import DEFAULT_MODEL_NAME, Evaluation, evaluate_perturbed
from mrclens.squad import Dataset
from mrclens.tasks import task_of

#: The label of the model's own reference evaluation (:attr:`~mrclens.artifacts.reference.ReferenceAudit.profile`
#: of the audit :func:`reference_from_evaluation` builds; the categories name the reference: :func:`reference_name`).
OWN_PROFILE = "external model"
#: The shipped reference's audit whose structure terms are borrowed (where they were measured).
STRUCTURE_PROFILE = "quick"
#: The largest share of a reference set's questions that may lack a prediction when a compared ablation needs the
#: set (issue 55, item 1); above it the reference is refused, at or below it each missing id is a warning. A
#: question without a prediction scores 0, so a share ``m`` missing from a perturbed set moves the reference's
#: relative drop by up to ``100·m`` points (missing from its baseline set, the other way): 2 % moves it by at most
#: 2 points, a fifth of the ±:data:`~mrclens.scoring.against_reference.DROP_BAND`-point band the verdicts are read
#: against, and less than the half-width of a category's interval on the bundled sample's reference sets; every
#: second id missing moved Question by +50 points.
MAX_MISSING_SHARE = 0.02
#: How the warnings about the reference's predictions begin in ``results.warnings``.
REFERENCE_WARNING = "reference predictions {path}: {warning}"


def reference_name(manifest_source: str | None) -> str:
    """How the readings name the model's own reference: ``"its own evaluation on dev-v1.1.json.gz"``
    (the file the reference sets were made from, :attr:`~mrclens.artifacts.manifest.SourceRecord.file`)."""
    return f"{Path(manifest_source).name if manifest_source else 'the reference sets'} (same model)"


def reference_from_evaluation(results: Results, name: str, structure: ReferenceAudit | None = None,
                              provenance: dict[str, Any] | None = None) -> ReferenceChoice:
    """The reference audit the model is read against: the model's evaluation on the reference's sets, as the
    :class:`~mrclens.artifacts.reference.ReferenceChoice` of a reference named ``name`` (its audit labelled
    :data:`OWN_PROFILE`; no reader profile is looked up).

    Args:
        results: the model's results on the reference sets (:func:`~mrclens.scoring.evaluate.evaluate_perturbed`).
        name: the reference's name in the readings (:func:`reference_name`).
        structure: a reference audit whose structure terms (percentage points of relative drop, per ablation
            and per category, both strata of context length: ``evaluate`` reads no context lengths, so the larger
            of the two applies, :meth:`~mrclens.artifacts.reference.ReferenceAudit.for_shape`) and
            clustering factors are copied in; ``None``: none (the intervals cover the
            questions only).
        provenance: recorded in the audit's ``provenance`` (e.g. the reference sets' source and sha256).

    Returns:
        the choice; its audit's figures are those of
        :func:`~mrclens.scoring.reference_builder.reference_audit_from_results` (relative (excess) drops in
        percent of the model's baseline F1 on the reference sets, with their paired-bootstrap CIs).
    """
    prov = {"kind": "external model's own evaluation", **(provenance or {})}
    audit = reference_audit_from_results(results, OWN_PROFILE, prov)
    if structure is not None:
        audit = replace(audit, structure_sd=dict(structure.structure_sd),
                        structure_sd_other_shape=dict(structure.structure_sd_other_shape),
                        structure_counterparts=structure.structure_counterparts,
                        structure_counterparts_other_shape=structure.structure_counterparts_other_shape,
                        ablations={k: replace(d, structure_sd=structure.ablations[k].structure_sd,
                                              structure_sd_other_shape=structure.ablations[k].structure_sd_other_shape,
                                              cluster_factor=structure.ablations[k].cluster_factor)
                                   if k in structure.ablations else d for k, d in audit.ablations.items()})
        audit.provenance["structure_sd_borrowed_from"] = f"{structure.profile} audit of the shipped reference"
    return ReferenceChoice(Reference(name, prov), None, audit)


def check_reference_sets(perturbed_dir: str | os.PathLike, reference_sets: str | os.PathLike) -> None:
    """Refuse reference sets that cannot be a reference for ``perturbed_dir``.

    Raises:
        ArtifactError: either folder has no readable manifest; the two are of different tasks or their truncated
            sets were made by different rules (:mod:`mrclens.perturbations.truncation`); both were made from
            the same file (same sha256); or from the same data under another name or compression (issue 55,
            item 7: their original sets hold the same question ids and texts, or one side's are all among the
            other's, :func:`same_questions`). A reference is never the data it judges.
    """
    own, ref = read_manifest(perturbed_dir), read_manifest(reference_sets)
    if own.task != ref.task:
        raise ArtifactError(ArtifactMsg.REFERENCE_SETS_TASK.format(path=reference_sets, task=ref.task,
                                                                   own=perturbed_dir, own_task=own.task))
    rule = (ref.sets["original-truncated"].rule if "original-truncated" in ref.sets else None)
    own_rule = (own.sets["original-truncated"].rule if "original-truncated" in own.sets else None)
    if rule != own_rule:
        raise ArtifactError(ArtifactMsg.REFERENCE_SETS_RULE.format(path=reference_sets, rule=rule, own=perturbed_dir,
                                                                   own_rule=own_rule))
    if own.source.sha256 and own.source.sha256 == ref.source.sha256:
        raise ArtifactError(ArtifactMsg.REFERENCE_SETS_SAME.format(path=reference_sets, own=perturbed_dir,
                                                                   file=ref.source.file, sha=ref.source.sha256[:12]))
    if "original" in own.sets and "original" in ref.sets:
        load = LOAD_SET.of(task_of(own))
        what = same_questions(question_keys(load(Path(reference_sets) / ref.sets["original"].file)),
                              question_keys(load(Path(perturbed_dir) / own.sets["original"].file)))
        if what:
            raise ArtifactError(ArtifactMsg.REFERENCE_SETS_SAME_DATA.format(
                path=reference_sets, own=perturbed_dir, what=what, file=ref.source.file, own_file=own.source.file))


def question_keys(dataset: Any) -> set[tuple[str, ...]]:
    """Each question of a loaded set as ``(id, question text)`` (multiple choice: ``(id, prompt, *endings)``):
    what :func:`check_reference_sets` compares, not the file's bytes, so a gzipped or renamed copy is the same data.

    >>> from mrclens.formats.multiple_choice import MCDataset, MCQuestion
    >>> sorted(question_keys(MCDataset([MCQuestion("q1", "He", ("ran", "sat"), 0)])))
    [('q1', 'He', 'ran', 'sat')]
    """
    if isinstance(dataset, Dataset):
        return {(q.id, q.question) for _, _, q in dataset.iter_questions()}
    return {(q.id, q.prompt, *q.endings) for q in dataset.questions}


def same_questions(reference: set[tuple[str, ...]], audited: set[tuple[str, ...]]) -> str | None:
    """Why two original sets are the same data, or ``None``: the same questions (ids and texts), or every
    question of one side among the other's (a reference made from a part of the audited data, or the other way).

    >>> same_questions({("a", "Who?")}, {("a", "Who?")})
    'all 1 question(s) of both'
    >>> same_questions({("a", "Who?")}, {("a", "Who?"), ("b", "Why?")})
    "all 1 question(s) of the reference's original set are among the audited set's 2"
    >>> same_questions({("a", "Who?")}, {("a", "Where?")}) is None
    True
    """
    if not reference or not audited:
        return None
    if reference == audited:
        return f"all {len(reference):,} question(s) of both"
    if reference <= audited:
        return (f"all {len(reference):,} question(s) of the reference's original set are among the audited "
                f"set's {len(audited):,}")
    if audited <= reference:
        return (f"all {len(audited):,} question(s) of the audited original set are among the reference's "
                f"{len(reference):,}")
    return None


def needed_sets(perturbed_dir: str | os.PathLike, predictions_dir: str | os.PathLike) -> set[str]:
    """The sets whose reference predictions a comparison needs: each ablation (or control) of ``perturbed_dir``
    whose own and baseline sets both have a prediction file in ``predictions_dir`` is compared, and needs both."""
    manifest = read_manifest(perturbed_dir)
    has = {name for name in manifest.set_files() if (Path(predictions_dir) / prediction_file_name(name)).is_file()}
    out: set[str] = set()
    for a in manifest.ablations.values():
        if a.id in has and a.baseline_set in has:
            out |= {a.id, a.baseline_set}
    return out


def check_reference_predictions(results: Results, predictions_dir: str | os.PathLike,
                                needed: Collection[str] | None = None, own: str | os.PathLike = "the audited sets"
                                ) -> list[str]:
    """Refuse reference predictions that cannot stand for the model on the reference's sets; return the warnings.

    Args:
        results: the model's results on the reference sets (``sets[name].missing`` / ``unknown`` / ``evaluated``;
            ``warnings``).
        predictions_dir: the reference predictions' folder (named in the messages).
        needed: the reference sets a compared ablation needs (:func:`needed_sets`); ``None``: every set.
        own: the audited sets' folder (named in the message).

    Returns:
        the reference side's warnings (missing ids at most :data:`MAX_MISSING_SHARE` of a needed set, unknown
        ids, sets no compared ablation needs, files that match no set), each as :data:`REFERENCE_WARNING`.

    Raises:
        ArtifactError: a prediction file none of whose ids is a question of its set (naming the first, how many of
            its ids are unknown); a needed set without a prediction file, or with more than
            :data:`MAX_MISSING_SHARE` of its questions without a prediction (naming every such file).
    """
    def file_of(name: str) -> str:
        return next((i.file for i in results.inputs if i.role == f"predictions:{name}"),
                    str(Path(predictions_dir) / prediction_file_name(name)))

    for name, s in results.sets.items():
        if s.evaluated and s.n and s.missing == s.n and s.unknown:
            raise ArtifactError(ArtifactMsg.REFERENCE_PREDICTIONS_OTHER.format(path=file_of(name), set=name,
                                                                               unknown=s.unknown, n=s.n))
    needed = set(results.sets) if needed is None else set(needed)
    problems = [f"the reference sets have no set {name!r}" for name in sorted(needed - set(results.sets))]
    for name, s in results.sets.items():
        if name not in needed:
            continue
        if not s.evaluated:
            problems.append(f"{file_of(name)}: not found (needed for the reference's {name!r})")
        elif s.n and (s.missing or 0) > MAX_MISSING_SHARE * s.n:
            problems.append(f"{file_of(name)}: {s.missing:,} of its set's {s.n:,} questions have no prediction "
                            f"(more than {MAX_MISSING_SHARE:.0%})")
    if problems:
        raise ArtifactError(ArtifactMsg.REFERENCE_PREDICTIONS_MISSING.format(path=predictions_dir, own=own,
                                                                             problems="; ".join(problems)))
    return [REFERENCE_WARNING.format(path=predictions_dir, warning=w) for w in results.warnings]


def evaluate_against_own_reference(
    perturbed_dir: str | os.PathLike,
    predictions_dir: str | os.PathLike,
    reference_sets: str | os.PathLike,
    reference_predictions: str | os.PathLike,
    *,
    results_dir: str | os.PathLike | None = None,
    model_name: str = DEFAULT_MODEL_NAME,
    seed: int = 0,
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
    progress: bool | None = None,
    structure: ReferenceAudit | None | str = STRUCTURE_PROFILE,
) -> tuple[Evaluation, Evaluation]:
    """Score a model's predictions on the audited sets against its predictions on the reference's sets.

    Args:
        perturbed_dir, predictions_dir: the audited sets (``mrclens perturb``) and the model's predictions on
            them, as :func:`~mrclens.scoring.evaluate.evaluate_perturbed` takes them.
        reference_sets, reference_predictions: the reference's sets (``mrclens perturb --reference``) and the
            model's predictions on them (one file per set, named like the set files).
        structure: the structure terms to borrow: a profile of the shipped reference (default
            :data:`STRUCTURE_PROFILE`), a :class:`~mrclens.artifacts.reference.ReferenceAudit`, or ``None``.
        results_dir, model_name, seed, n_resamples, confidence, progress: as for ``evaluate_perturbed``
            (both sides are scored with the same bootstrap settings).

    Returns:
        ``(evaluation, reference_evaluation)``: the audited sets' evaluation, every category read against the
        reference (``reference_bias``, ``reference_difference`` and its interval, ``reference_mde``), and the
        model's evaluation on the reference sets it was read against. ``results.inputs`` of the first lists
        the reference sets' manifest and prediction files (role ``"reference: ..."``) with their sha256, and its
        ``results.warnings`` begin with the reference side's (:func:`check_reference_predictions`).

    Raises:
        ArtifactError: see the module docstring; as ``evaluate_perturbed`` for bad folders or files.
    """
    check_reference_sets(perturbed_dir, reference_sets)
    ref_eval = evaluate_perturbed(reference_sets, reference_predictions, results_dir=results_dir,
                                  model_name=model_name, seed=seed, n_resamples=n_resamples, confidence=confidence,
                                  progress=progress, check_ids=False)
    warnings = check_reference_predictions(ref_eval.results, reference_predictions,
                                           needed_sets(perturbed_dir, predictions_dir), perturbed_dir)
    if isinstance(structure, str):
        structure = read_reference().audits.get(structure)
    manifest = read_manifest(reference_sets)
    prov = {"reference_sets": str(reference_sets), "source": manifest.source.file, "sha256": manifest.source.sha256,
            "seed": manifest.seed}
    reference = reference_from_evaluation(ref_eval.results, reference_name(manifest.source.file), structure, prov)
    inputs = [InputFile(f"reference: {i.role}", i.file, i.sha256) for i in ref_eval.results.inputs]
    evaluation = evaluate_perturbed(perturbed_dir, predictions_dir, results_dir=results_dir, model_name=model_name,
                                    seed=seed, n_resamples=n_resamples, confidence=confidence, progress=progress,
                                    inputs=inputs, reference=reference, warnings=warnings)
    return evaluation, ref_eval
