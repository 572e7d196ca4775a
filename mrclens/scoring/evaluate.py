"""The scoring entry point: a perturbed directory plus one prediction file per set → :class:`Evaluation`.

CheckList-style separation (Ribeiro et al. 2020): ``mrclens perturb`` writes the sets, any
model writes one official-format prediction file per set, and :func:`evaluate_perturbed` scores
them. The built-in audit (``mrclens audit``) scores its baseline's predictions through the same
function, passing what it knows (its inputs, step times, model record and audit record) so that
nothing patches the results afterwards.

Layout of the inputs (:mod:`mrclens.artifacts`): a perturbed directory holds the manifest and
one SQuAD file per set (``original.json``, ``original-truncated.json``, ``e1.json`` …); a
predictions directory holds ``<set name>.json`` = ``{"question id": "answer text"}``.

The steps, each in its own module: official per-question scores
(:mod:`mrclens.metrics.official`), paired bootstrap (:mod:`mrclens.metrics.bootstrap`), drops per
ablation and per category (:mod:`mrclens.scoring.drops`), readings
(:mod:`mrclens.scoring.readings`).
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence


from mrclens import __version__
from mrclens.artifacts.manifest import AblationEntry, PerturbationManifest, manifest_path, read_manifest
from mrclens.artifacts.predictions import PredictionsDir, read_predictions_dir
from mrclens.errors import ArtifactError, ArtifactMsg
from mrclens.artifacts.question_scores import SetQuestionScores
from mrclens.artifacts.results import (
    DEFAULT_MODEL_NAME,
    AuditRecord,
    BootstrapSettings,
    InputFile,
    ModelFreeFigure,
    ModelRecord,
    ReplicateRecord,
    Results,
    package_versions,
    utc_now,
)
from mrclens.formats import LOAD_SET
from mrclens.io_utils import sha256_file
from mrclens.progress import progress as progress_bar
from mrclens.metrics.bootstrap import CONFIDENCE, N_RESAMPLES
from mrclens.scoring.drops import Scored, score_all
from mrclens.scoring.replicates import VARIANCE_METHOD, combine_replicates
from mrclens.artifacts.reference import ReferenceChoice
from mrclens.scoring.against_reference import compare_with_reference
from mrclens.scoring.model_free import ContextShape
from mrclens.scoring.model_free import cite as cite_model_free
from mrclens.scoring.readings import BASELINE_READER, note_instability, read_all, reader_phrase
from mrclens.squad import Dataset
from mrclens.tasks import get_task, task_of



@dataclass
class Evaluation:
    """What scoring computed: the results and the per-question scores they come from.

    Attributes:
        results: the typed ``results.json`` (:class:`~mrclens.artifacts.results.Results`).
        question_scores: ``{set name: per-question official EM/F1 (0–1)}``, ``None`` for a set
            that was not evaluated (written as ``question-scores.json``).
    """

    results: Results
    question_scores: dict[str, SetQuestionScores | None]


def ablation_infos(manifest: PerturbationManifest, only: Sequence[str] | None = None) -> list[AblationEntry]:
    """The manifest's ablation entries (:class:`~mrclens.artifacts.manifest.AblationEntry`), ordered e1, e2, …

    Args:
        only: keep only these ablation ids (default: all in the manifest).
    """
    ids = manifest.ablation_ids()
    if only is not None:
        ids = [a for a in ids if a in set(only)]
    return [manifest.ablations[a] for a in ids]


def load_perturbed_dir(perturbed_dir: str | os.PathLike, *, progress: bool | None = None
                       ) -> tuple[PerturbationManifest, dict[str, Dataset]]:
    """Read the manifest and every set of a perturbed directory (each set loaded as the manifest's
    task loads its data: :data:`mrclens.formats.LOAD_SET`).

    Returns:
        ``(manifest, {set name: Dataset})``.

    Raises:
        ArtifactError: bad manifest; :class:`~mrclens.errors.DataError` for a bad set file;
        FileNotFoundError: a set file listed in the manifest is missing.
    """
    manifest = read_manifest(perturbed_dir)
    load = LOAD_SET.of(task_of(manifest))
    datasets = {}
    for name, file in progress_bar(manifest.set_files().items(), desc="loading sets", unit="set", enabled=progress):
        datasets[name] = load(Path(perturbed_dir) / file)
    return manifest, datasets


def score_predictions(
    manifest: PerturbationManifest,
    datasets: Mapping[str, Dataset],
    predictions: Mapping[str, Mapping[str, str] | None],
    *,
    seed: int = 0,
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
    missing_reasons: Mapping[str, str] | None = None,
    ablations: Sequence[str] | None = None,
    reader: str = BASELINE_READER,
) -> Scored:
    """Every number and reading for one model's predictions on loaded sets (no file I/O).

    Args:
        manifest: the perturbation manifest (:func:`mrclens.artifacts.manifest.read_manifest`).
        datasets: ``{set name: Dataset}`` (:func:`load_perturbed_dir`).
        predictions: ``{set name: {question id: answer text}}``; a set absent or ``None`` is not
            evaluated, nor are the ablations that need it.
        seed, n_resamples, confidence: bootstrap settings (:mod:`mrclens.metrics.bootstrap`).
        missing_reasons: ``{set name: why there are no predictions}``.
        ablations: score only these ablation ids (default: all in the manifest).
        reader: how the readings name the model (:func:`mrclens.scoring.readings.reader_phrase`).

    Returns:
        a :class:`~mrclens.scoring.drops.Scored` whose ablation and category entries carry
        ``reading`` and ``evidence``.
    """
    scored = score_all(datasets, predictions, ablation_infos(manifest, ablations), seed=seed, n_resamples=n_resamples,
                       confidence=confidence, missing_reasons=missing_reasons)
    scored.ablations, scored.categories = read_all(scored.ablations, scored.categories, confidence, reader)
    return scored


@dataclass
class Replicate:
    """One more replicate for :func:`evaluate_perturbed` (issue 16): draw ``draw`` predicted by reader ``reader``.

    Attributes:
        perturbed_dir: the draw's perturbed directory (``mrclens perturb --draw K`` or the audit's
            ``perturbed/draws/K``).
        predictions_dir: that reader's predictions for the draw. A set without a prediction file
            here takes the predictions of the replicate with the same reader and draw 0 when its
            set file is byte-identical there (the original and truncated sets do not depend on
            the draw, so they are predicted once).
        draw, reader: the replicate's indices (0-based).
        reader_seed: the seed the reader was trained with (recorded only).
    """

    perturbed_dir: str | os.PathLike
    predictions_dir: str | os.PathLike
    draw: int = 0
    reader: int = 0
    reader_seed: int | None = None


def score_replicates(
    loaded: Sequence[tuple[PerturbationManifest, Mapping[str, Dataset], Mapping[str, Mapping[str, str] | None],
                           Mapping[str, str] | None]],
    labels: Sequence[tuple[int, int]],
    *,
    seed: int = 0,
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
    ablations: Sequence[str] | None = None,
    reader: str = BASELINE_READER,
) -> Scored:
    """:func:`score_predictions` over several replicates (draws × readers), combined (issue 16).

    Args:
        loaded: per replicate ``(manifest, datasets, predictions, missing_reasons)`` as for
            :func:`score_predictions`; the first is draw 0 of reader 0.
        labels: ``(draw, reader)`` per replicate.

    Returns:
        a :class:`~mrclens.scoring.drops.Scored` whose entries hold the combined figures
        (:func:`mrclens.scoring.drops.combine_replicates`), the per-replicate figures with each
        replicate's evidence level, and readings that say when the level differs between
        replicates (:func:`mrclens.scoring.readings.note_instability`). One replicate gives
        exactly :func:`score_predictions`.
    """
    each = [score_predictions(m, d, p, seed=seed, n_resamples=n_resamples, confidence=confidence, missing_reasons=r,
                              ablations=ablations, reader=reader) for m, d, p, r in loaded]
    if len(each) == 1:
        return each[0]
    scored = combine_replicates(each, labels, seed=seed, n_resamples=n_resamples, confidence=confidence)
    scored.ablations, scored.categories = read_all(scored.ablations, scored.categories, confidence, reader)
    scored.ablations, scored.categories = note_instability(scored.ablations, scored.categories)
    return scored


def refuse_foreign_predictions(scored: Scored, found: PredictionsDir, sets: str | os.PathLike) -> None:
    """Refuse a prediction file that matches none of its set's question ids (issue 55, item 8): predictions made
    on other sets (another split, the reference's sets) or an empty file would score as a model that answers
    nothing ("F1 0.0"), a verdict on the wrong predictions. Draw 0 of reader 0 (``scored.set_scores``) only.

    Args:
        scored: the scores (``set_scores[name]``: ``n``, ``missing``, ``unknown``).
        found: the prediction files read (names the file).
        sets: the perturbed folder (named in the message).

    Raises:
        ArtifactError: :attr:`~mrclens.errors.ArtifactMsg.PREDICTIONS_OTHER`, naming the first such file.
    """
    for name, s in scored.set_scores.items():
        if s.evaluated and s.n and s.missing == s.n:
            what = (f"none of its {s.unknown:,} prediction(s) is" if s.unknown else "it holds no prediction")
            raise ArtifactError(ArtifactMsg.PREDICTIONS_OTHER.format(path=found.file(name), what=what, set=name,
                                                                     sets=sets, n=s.n))


def _warnings(scored: Scored, extra: Sequence[str], predictions_dir: str, more: Sequence[str] = ()) -> list[str]:
    out = list(more)
    for name, s in scored.set_scores.items():
        if not s.evaluated:
            out.append(f"{name}: not evaluated ({s.reason})")
            continue
        if s.missing:
            out.append(f"{name}: {s.missing:,} of {s.n:,} question(s) have no prediction and score 0")
        if s.unknown:
            out.append(f"{name}: {s.unknown:,} prediction(s) are for question ids not in the set (ignored)")
    if extra:
        out.append(f"{predictions_dir}: ignored file(s) that match no set: {', '.join(extra)}")
    return out


def name_metric(results: Results) -> None:
    """Results of a task whose score is not F1 (multiple choice, issue 20: accuracy): name the task's
    metric (:attr:`mrclens.tasks.Task.metric`) where the readings say "F1" (the readings' wording is
    the span task's). Nothing changes for span results."""
    metric = get_task(results.task).metric
    if metric == "F1":
        return
    word = re.compile(r"\bF1\b")
    for entry in [*results.ablations, *results.categories]:
        if entry.reading:
            entry.reading = word.sub(metric, entry.reading)


def _rel(path: str | os.PathLike, start: str | os.PathLike | None) -> str:
    if start is None:
        return str(Path(path).resolve())
    try:
        return os.path.relpath(Path(path).resolve(), Path(start).resolve())
    except ValueError:  # another drive on Windows
        return str(Path(path).resolve())


def evaluate_perturbed(
    perturbed_dir: str | os.PathLike,
    predictions_dir: str | os.PathLike,
    *,
    results_dir: str | os.PathLike | None = None,
    model: ModelRecord | None = None,
    model_name: str = DEFAULT_MODEL_NAME,
    inputs: Sequence[InputFile] = (),
    step_seconds: Mapping[str, float] | None = None,
    audit: AuditRecord | None = None,
    seed: int = 0,
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
    progress: bool | None = None,
    replicates: Sequence[Replicate] = (),
    reader_seed: int | None = None,
    model_free: Sequence[ModelFreeFigure] = (),
    reference: ReferenceChoice | None = None,
    shape: ContextShape | None = None,
    warnings: Sequence[str] = (),
    check_ids: bool = True,
) -> Evaluation:
    """Score one prediction file per set against a perturbed directory (the one scoring path).

    Args:
        perturbed_dir: the output of ``mrclens perturb`` (manifest + one SQuAD file per set).
        predictions_dir: one official-format file per set, named like the set files
            (``original.json``, ``original-truncated.json``, ``e1.json`` …). Missing files make
            the ablations that need them "not evaluated"; the rest are still computed.
        results_dir: where ``results.json`` will be written; ``paths`` are recorded relative to
            it (absolute when ``None``). Nothing is written here (see :func:`mrclens.publish.write_outputs`).
        model: the ``model`` record; default ``{"kind": "external", "name": model_name}``.
        inputs: input files the caller used before scoring (listed first in ``inputs``).
        step_seconds: the caller's step times in seconds; the time spent here is added as
            ``score``. When ``None``, ``load`` (reading the sets) and ``score`` are recorded.
        audit: the audit's record (audits only).
        seed, n_resamples, confidence: bootstrap settings.
        progress: show progress (:mod:`mrclens.progress`; ``None`` is the same as ``True``).
        replicates: more draws of the perturbations and/or more readers (issue 16); the
            directories above are draw 0 of reader 0. With any, every figure is combined over
            the replicates (:func:`score_replicates`) and ``results.replicates`` lists them.
        reader_seed: the seed reader 0 was trained with (recorded in ``results.replicates``).
        model_free: the data's model-free figures beside a reference
            (:func:`mrclens.scoring.model_free.model_free_figures`; the audit computes them): kept in
            ``results.model_free`` and cited at the end of each category's reading.
        reference: the reference audit the drops are read against, chosen once for the reader
            (:meth:`mrclens.artifacts.reference.Reference.audit_for`;
            :func:`mrclens.scoring.against_reference.compare_with_reference`; ``shape``: the
            data's context length beside the reference's, :func:`mrclens.scoring.model_free.context_shape`);
            ``None``: no comparison.
        warnings: the caller's, first in ``results.warnings`` (the reference's: :mod:`~mrclens.scoring.own_reference`).
        check_ids: :func:`refuse_foreign_predictions` (``False``: the caller checks the ids itself).

    Returns:
        an :class:`Evaluation`; ``results.warnings`` lists unknown-id and missing-prediction counts per set.

    Raises:
        ArtifactError: bad perturbed or predictions directory, a file of no id of its set (exit 2 in the CLI);
        PredictionsError: a malformed prediction file (names the file);
        DataError: a malformed set file.
    """
    t0 = time.perf_counter()
    manifest, datasets = load_perturbed_dir(perturbed_dir, progress=progress)
    files = manifest.set_files()
    found = read_predictions_dir(predictions_dir, list(files), manifest.task)
    first = LoadedReplicate(manifest, datasets, found.predictions, found.missing_reasons, (0, 0), ReplicateRecord(
        0, manifest.seed if manifest.draw == 0 else (manifest.draw_seed or 0), 0, reader_seed,
        _rel(perturbed_dir, results_dir), _rel(predictions_dir, results_dir)))
    more, extra_inputs = load_replicates(replicates, (manifest, perturbed_dir, found), results_dir=results_dir,
                                         progress=progress)
    every = [first, *more]
    t1 = time.perf_counter()
    model = model or ModelRecord("external", model_name, None)
    reader = reader_phrase(model.kind, model.name)  # an external model is named, never "the baseline reader"
    scored = score_replicates([r.scoring_input() for r in every], [r.label for r in every], seed=seed,
                              n_resamples=n_resamples, confidence=confidence, reader=reader)
    if check_ids:  # issue 55, item 8
        refuse_foreign_predictions(scored, found, perturbed_dir)
    scored.categories = cite_model_free(scored.categories, model_free, confidence)
    scored.ablations, scored.categories = compare_with_reference(scored.ablations, scored.categories, reference,
                                                                 confidence, model_free, reader=reader,
                                                                 shape=shape)
    t2 = time.perf_counter()
    all_inputs = [*inputs, *_input_files(perturbed_dir, files, found), *extra_inputs]
    if step_seconds is None:
        seconds = {"load": t1 - t0, "score": t2 - t1}
    else:
        seconds = {**step_seconds, "score": time.perf_counter() - t0}
    records = [r.record for r in every]
    results = Results(
        mrclens_version=__version__,
        created=utc_now(),
        seed=seed,
        model=model,
        bootstrap=BootstrapSettings(n_resamples, confidence, seed),
        inputs=all_inputs,
        versions=package_versions(),
        step_seconds={k: round(float(v), 3) for k, v in seconds.items()},
        sets=scored.set_results(files),
        ablations=scored.ablations,
        categories=scored.categories,
        paths={"perturbed_dir": _rel(perturbed_dir, results_dir), "predictions_dir": _rel(predictions_dir, results_dir)},
        warnings=_warnings(scored, found.extra_files, str(predictions_dir), warnings),
        audit=audit,
        replicates=records if len(records) > 1 else [],
        variance_method=VARIANCE_METHOD if len(records) > 1 else None,
        model_free=list(model_free),
        task=manifest.task,
        sections=plugin_sections(datasets.get("original")),
        context_shape=None if shape is None else {"sentences": shape.sentences,
                                                  "reference_sentences": shape.reference_sentences},
    )
    name_metric(results)
    if results.model.kind not in ("baseline", "external"):
        raise ValueError(f"model kind must be 'baseline' or 'external', got {results.model.kind!r}")
    question_scores = {
        name: None if s.em is None else SetQuestionScores(list(s.ids), s.em.tolist(), s.f1.tolist())
        for name, s in scored.set_scores.items()
    }
    return Evaluation(results, question_scores)


def plugin_sections(original: object) -> dict[str, object]:
    """The ``sections`` entry of the plug-ins' figures of the original set (span data only:
    :mod:`mrclens.stats.plugins`): ``{"plugin_figures": {"title", "description", name: {key: value}}}``,
    or nothing when no plug-in figure is installed."""
    from mrclens.stats.plugins import RESULTS_SECTION, compute_figures, registered_figures

    if not isinstance(original, Dataset) or not registered_figures():
        return {}
    figures = compute_figures(original)
    notes = "; ".join(f"{f.name}: {f.description}" for f in registered_figures() if f.description)
    return {RESULTS_SECTION: {"title": "Plug-in figures of the original set", "description": notes, **figures}}


def _input_files(perturbed_dir: str | os.PathLike, files: Mapping[str, str], found: PredictionsDir) -> list[InputFile]:
    """The manifest, every set file and every prediction file read for draw 0 of reader 0, with their sha256."""
    mpath = manifest_path(perturbed_dir)
    out = [InputFile("manifest", str(mpath), sha256_file(mpath))]
    for name, file in files.items():
        path = Path(perturbed_dir) / file
        out.append(InputFile(f"set:{name}", str(path), sha256_file(path)))
    for name in files:
        if found.predictions[name] is not None:
            path = found.file(name)
            out.append(InputFile(f"predictions:{name}", str(path), sha256_file(path)))
    return out


@dataclass
class LoadedReplicate:
    """One replicate read and ready to score: its sets, predictions, ``(draw, reader)`` label and record."""

    manifest: PerturbationManifest
    datasets: Mapping[str, Dataset]
    predictions: Mapping[str, Mapping[str, str] | None]
    missing_reasons: Mapping[str, str]
    label: tuple[int, int]
    record: ReplicateRecord

    def scoring_input(self) -> tuple:
        """``(manifest, datasets, predictions, missing_reasons)`` as :func:`score_replicates` takes it."""
        return self.manifest, self.datasets, self.predictions, self.missing_reasons


def load_replicates(
    replicates: Sequence[Replicate],
    first: tuple[PerturbationManifest, str | os.PathLike, PredictionsDir],
    *,
    results_dir: str | os.PathLike | None = None,
    progress: bool | None = None,
) -> tuple[list[LoadedReplicate], list[InputFile]]:
    """Read the sets and predictions of the replicates beyond draw 0 of reader 0 (issue 16).

    A set without a prediction file in a replicate's predictions directory takes the predictions of
    the same reader's draw 0 when the set file is byte-identical there (see :class:`Replicate`).

    Args:
        replicates: the replicates, as :func:`evaluate_perturbed` takes them.
        first: draw 0 of reader 0: ``(manifest, perturbed directory, predictions read)``.
        results_dir: where ``paths`` are recorded relative to (absolute when ``None``).

    Returns:
        the loaded replicates in the given order, and the input files they read (manifest and
        prediction files, role ``"draw K reader R: ..."``) with their sha256.
    """
    first_of: dict[int, tuple[PerturbationManifest, str | os.PathLike, PredictionsDir]] = {0: first}
    rep_sets: dict[tuple[int, str], tuple[PerturbationManifest, dict[str, Dataset]]] = {}
    loaded, extra_inputs = [], []
    for rep in replicates:
        key = (rep.draw, str(rep.perturbed_dir))
        if key not in rep_sets:
            rep_sets[key] = load_perturbed_dir(rep.perturbed_dir, progress=progress)
        r_manifest, r_datasets = rep_sets[key]
        r_files = r_manifest.set_files()
        try:
            r_found = read_predictions_dir(rep.predictions_dir, list(r_files), r_manifest.task)
            error = None
        except ArtifactError as err:  # no folder, or none of its files: every set may still be draw 0's (issue 42)
            error = err
            r_found = PredictionsDir(Path(rep.predictions_dir), dict.fromkeys(r_files),
                                     {name: f"no prediction file in {rep.predictions_dir}" for name in r_files})
        if rep.draw == 0:
            first_of.setdefault(rep.reader, (r_manifest, rep.perturbed_dir, r_found))
        preds, reasons = _with_draw0_predictions(rep, r_files, r_found, first_of.get(rep.reader))
        if error is not None and all(preds.get(name) is None for name in r_files):
            raise error
        record = ReplicateRecord(rep.draw, r_manifest.seed if r_manifest.draw == 0 else (r_manifest.draw_seed or 0),
                                 rep.reader, rep.reader_seed, _rel(rep.perturbed_dir, results_dir),
                                 _rel(rep.predictions_dir, results_dir))
        loaded.append(LoadedReplicate(r_manifest, r_datasets, preds, reasons, (rep.draw, rep.reader), record))
        tag = f"draw {rep.draw} reader {rep.reader}"
        extra_inputs.append(InputFile(f"{tag}: manifest", str(manifest_path(rep.perturbed_dir)),
                                      sha256_file(manifest_path(rep.perturbed_dir))))
        for name in r_files:
            if r_found.predictions.get(name) is not None:
                path = r_found.file(name)
                extra_inputs.append(InputFile(f"{tag}: predictions:{name}", str(path), sha256_file(path)))
    return loaded, extra_inputs


def _with_draw0_predictions(rep: Replicate, files: Mapping[str, str], found: PredictionsDir,
                            ref: tuple[PerturbationManifest, str | os.PathLike, PredictionsDir] | None
                            ) -> tuple[dict, dict]:
    """A replicate's predictions and missing reasons, a set without predictions taking those of ``ref``
    (the same reader's draw 0) when its set file is byte-identical there."""
    preds, reasons = dict(found.predictions), dict(found.missing_reasons)
    for name, file in files.items():
        if preds.get(name) is None and ref is not None and ref[2].predictions.get(name) is not None \
                and name in ref[0].set_files() \
                and sha256_file(Path(ref[1]) / ref[0].set_files()[name]) == sha256_file(Path(rep.perturbed_dir) / file):
            preds[name] = ref[2].predictions[name]
            reasons.pop(name, None)
    return preds, reasons
