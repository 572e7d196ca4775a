"""Score any model's predictions on the perturbed sets: the library behind ``mrclens evaluate PERTURBED_DIR``.

CheckList-style separation (Ribeiro et al. 2020): ``mrclens perturb`` writes the sets, any
model writes one official-format prediction file per set, and this module scores them. The
built-in audit (``mrclens audit``) scores its baseline's predictions through
:func:`score_predictions` too, so both give the same numbers for the same predictions.

A perturbed directory (written by :func:`mrclens.perturbations.perturb_dataset`) holds
``original.json``, ``original-truncated.json``, ``e1.json`` … ``e8.json`` (SQuAD JSON) and
``manifest.json``::

    {"mrclens_version", "seed", "source": {"file", "sha256"}, "pipeline",
     "sets": {"original": {"file", "n"}, "original-truncated": {"file", "n", ...}},
     "ablations": {"e1": {"name", "category", "eval_set", "baseline_set", "description",
                          "bias_signal", "file", "n", "changed", "unchanged": {reason: count},
                          "items": {question id: {"changed", "reason", "detail"}}}, ...}}

A predictions directory holds ``<set name>.json`` files (``original.json``, ``e1.json`` …), each
``{"question id": "answer text"}`` as for the official SQuAD evaluation script.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Mapping, Sequence

from tqdm import tqdm

from mrclens.errors import MRCLensError
from mrclens.io_utils import read_bytes, sha256_file
from mrclens.metrics import load_predictions
from mrclens.readings import add_readings
from mrclens.results import build_results, write_results
from mrclens.scoring import CONFIDENCE, N_RESAMPLES, AblationInfo, score_all
from mrclens.squad import Dataset, load_dataset

MANIFEST = "manifest.json"
#: The model name used when the user gives none.
DEFAULT_MODEL_NAME = "external model"


def _ablation_order(aid: str) -> tuple[int, str]:
    digits = aid.lstrip("e")
    return (int(digits), aid) if digits.isdigit() else (10**9, aid)


def read_manifest(perturbed_dir: str | os.PathLike) -> dict[str, Any]:
    """Read and check ``perturbed_dir/manifest.json``.

    Raises:
        MRCLensError: the directory or manifest is missing, not JSON, or lacks ``sets`` /
            ``ablations`` or a required ablation field (the message names the file and field).
    """
    path = Path(perturbed_dir) / MANIFEST
    if not Path(perturbed_dir).is_dir():
        raise MRCLensError(f"{perturbed_dir}: not a directory (expected the output of `mrclens perturb`)")
    if not path.exists():
        raise MRCLensError(f"{path}: not found; {perturbed_dir} does not look like the output of `mrclens perturb`")
    try:
        manifest = json.loads(read_bytes(path).decode("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise MRCLensError(f"{path}: not valid JSON: {err}") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("sets"), dict) or not isinstance(manifest.get("ablations"), dict):
        raise MRCLensError(f"{path}: expected an object with 'sets' and 'ablations' objects")
    for aid, entry in manifest["ablations"].items():
        for key in ("name", "category", "eval_set", "baseline_set", "bias_signal"):
            if not isinstance(entry, dict) or key not in entry:
                raise MRCLensError(f"{path}: ablation {aid}: field {key!r} is missing")
        if entry["baseline_set"] not in manifest["sets"]:
            raise MRCLensError(f"{path}: ablation {aid}: baseline set {entry['baseline_set']!r} is not listed under 'sets'")
    return manifest


def ablation_infos(manifest: Mapping[str, Any], only: Sequence[str] | None = None) -> list[AblationInfo]:
    """The manifest's ablations as :class:`~mrclens.scoring.AblationInfo`, ordered e1, e2, …

    Args:
        only: keep only these ablation ids (default: all in the manifest).
    """
    ids = sorted(manifest["ablations"], key=_ablation_order)
    if only is not None:
        ids = [a for a in ids if a in set(only)]
    return [AblationInfo.from_manifest(a, manifest["ablations"][a]) for a in ids]


def set_files(manifest: Mapping[str, Any]) -> dict[str, str]:
    """``{set name: file name}`` for the baseline sets and every ablation set (file names relative to the directory)."""
    out = {name: entry.get("file") or f"{name}.json" for name, entry in manifest["sets"].items()}
    for aid in sorted(manifest["ablations"], key=_ablation_order):
        out[aid] = manifest["ablations"][aid].get("file") or f"{aid}.json"
    return out


def load_perturbed_dir(perturbed_dir: str | os.PathLike, *, progress: bool | None = None) -> tuple[dict[str, Any], dict[str, Dataset]]:
    """Read the manifest and every set of a perturbed directory.

    Returns:
        ``(manifest, {set name: Dataset})``.

    Raises:
        MRCLensError: bad manifest; :class:`~mrclens.errors.DataError` for a bad set file;
        FileNotFoundError: a set file listed in the manifest is missing.
    """
    manifest = read_manifest(perturbed_dir)
    datasets = {}
    files = set_files(manifest)
    for name, file in tqdm(files.items(), desc="loading sets", unit="set", disable=_disable(progress)):
        datasets[name] = load_dataset(Path(perturbed_dir) / file)
    return manifest, datasets


def _disable(progress: bool | None) -> bool | None:
    return None if progress is None else not progress


def score_predictions(
    manifest: Mapping[str, Any],
    datasets: Mapping[str, Dataset],
    predictions: Mapping[str, Mapping[str, str] | None],
    *,
    seed: int = 0,
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
    missing_reasons: Mapping[str, str] | None = None,
    ablations: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Every number and reading of ``results.json`` for one model's predictions (the one scoring path).

    Args:
        manifest: the perturbation manifest (:func:`read_manifest`).
        datasets: ``{set name: Dataset}`` (:func:`load_perturbed_dir`).
        predictions: ``{set name: {question id: answer text}}``; a set absent or ``None`` is not
            evaluated, nor are the ablations that need it.
        seed, n_resamples, confidence: bootstrap settings (:mod:`mrclens.scoring`).
        missing_reasons: ``{set name: why there are no predictions}``.
        ablations: score only these ablation ids (default: all in the manifest).

    Returns:
        ``{"sets", "ablations", "categories"}`` as in ``results.json`` (with ``reading`` and
        ``evidence``); each set entry also has ``file`` (its name in the perturbed directory).
    """
    infos = ablation_infos(manifest, ablations)
    scores = score_all(
        datasets,
        predictions,
        infos,
        seed=seed,
        n_resamples=n_resamples,
        confidence=confidence,
        missing_reasons=missing_reasons,
    )
    files = set_files(manifest)
    for name, entry in scores["sets"].items():
        scores["sets"][name] = {"file": files.get(name), **entry}
    add_readings(scores["ablations"], scores["categories"])
    return scores


def load_predictions_dir(predictions_dir: str | os.PathLike, set_names: Sequence[str]) -> tuple[dict[str, dict[str, str] | None], dict[str, str], list[str]]:
    """Read ``<set name>.json`` from ``predictions_dir`` for every set name.

    Returns:
        ``(predictions, missing_reasons, extra_files)``: ``predictions[name]`` is ``None`` when the
        file is absent (its reason in ``missing_reasons``); ``extra_files`` are ``*.json`` files
        that match no set.

    Raises:
        MRCLensError: ``predictions_dir`` is not a directory, or it holds none of the expected files.
        PredictionsError: a file is not valid JSON, not an object, or has a non-string answer
            (the message names the file).
    """
    pdir = Path(predictions_dir)
    if not pdir.is_dir():
        raise MRCLensError(f"{predictions_dir}: not a directory (expected one prediction file per set)")
    predictions: dict[str, dict[str, str] | None] = {}
    reasons = {}
    for name in set_names:
        path = pdir / f"{name}.json"
        if path.exists():
            predictions[name] = load_predictions(path)
        else:
            predictions[name] = None
            reasons[name] = f"no prediction file {path}"
    if all(p is None for p in predictions.values()):
        expected = ", ".join(f"{n}.json" for n in set_names)
        raise MRCLensError(f"{predictions_dir}: none of the expected prediction files is there ({expected})")
    extra = sorted(p.name for p in pdir.glob("*.json") if p.stem not in set(set_names))
    return predictions, reasons, extra


def _warnings(scores: Mapping[str, Any], extra: Sequence[str], predictions_dir: str) -> list[str]:
    out = []
    for name, s in scores["sets"].items():
        if not s["evaluated"]:
            out.append(f"{name}: not evaluated ({s['reason_not_evaluated']})")
            continue
        if s["missing"]:
            out.append(f"{name}: {s['missing']:,} of {s['n']:,} question(s) have no prediction and score 0")
        if s["unknown"]:
            out.append(f"{name}: {s['unknown']:,} prediction(s) are for question ids not in the set (ignored)")
    if extra:
        out.append(f"{predictions_dir}: ignored file(s) that match no set: {', '.join(extra)}")
    return out


def _rel(path: str | os.PathLike, start: str | os.PathLike | None) -> str:
    if start is None:
        return str(Path(path).resolve())
    try:
        return os.path.relpath(Path(path).resolve(), Path(start).resolve())
    except ValueError:  # another drive on Windows
        return str(Path(path).resolve())


def evaluate_predictions_dir(
    perturbed_dir: str | os.PathLike,
    predictions_dir: str | os.PathLike,
    out_dir: str | os.PathLike | None = None,
    *,
    model_name: str = DEFAULT_MODEL_NAME,
    model: Mapping[str, Any] | None = None,
    seed: int = 0,
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
    progress: bool | None = None,
) -> dict[str, Any]:
    """Score an external model's prediction files against a perturbed directory (issue 8).

    Args:
        perturbed_dir: the output of ``mrclens perturb`` (manifest + one SQuAD file per set).
        predictions_dir: one official-format file per set, named like the set files
            (``original.json``, ``original-truncated.json``, ``e1.json`` …). Missing files make
            the ablations that need them "not evaluated"; the rest are still computed.
        out_dir: when given, ``results.json`` and ``results.csv`` are written there (atomically),
            and ``report.html`` when :mod:`mrclens.reports` is installed.
        model_name: recorded as ``model.name`` (``model.kind`` is ``"external"``).
        model: the whole ``model`` record instead (``{"kind", "name", "config"}``); the audit
            passes its baseline reader's here.
        seed, n_resamples, confidence: bootstrap settings.
        progress: show progress bars (``None``: only on a terminal).

    Returns:
        the ``results.json`` object (:func:`mrclens.results.build_results`); ``warnings`` lists
        unknown-id and missing-prediction counts per set.

    Raises:
        MRCLensError: bad perturbed or predictions directory (exit 2 in the CLI);
        PredictionsError: a malformed prediction file (names the file);
        DataError: a malformed set file.
    """
    t0 = time.perf_counter()
    manifest, datasets = load_perturbed_dir(perturbed_dir, progress=progress)
    files = set_files(manifest)
    predictions, reasons, extra = load_predictions_dir(predictions_dir, list(files))
    t1 = time.perf_counter()
    scores = score_predictions(manifest, datasets, predictions, seed=seed, n_resamples=n_resamples, confidence=confidence, missing_reasons=reasons)
    t2 = time.perf_counter()
    inputs = [{"role": "manifest", "file": str(Path(perturbed_dir) / MANIFEST), "sha256": sha256_file(Path(perturbed_dir) / MANIFEST)}]
    for name, file in files.items():
        inputs.append({"role": f"set:{name}", "file": str(Path(perturbed_dir) / file), "sha256": sha256_file(Path(perturbed_dir) / file)})
    for name in files:
        if predictions[name] is not None:
            path = Path(predictions_dir) / f"{name}.json"
            inputs.append({"role": f"predictions:{name}", "file": str(path), "sha256": sha256_file(path)})
    results = build_results(
        scores,
        model=model or {"kind": "external", "name": model_name, "config": None},
        seed=seed,
        n_resamples=n_resamples,
        confidence=confidence,
        inputs=inputs,
        step_seconds={"load": t1 - t0, "score": t2 - t1},
        paths={"perturbed_dir": _rel(perturbed_dir, out_dir), "predictions_dir": _rel(predictions_dir, out_dir)},
        warnings=_warnings(scores, extra, str(predictions_dir)),
    )
    if out_dir is not None:
        write_results(results, out_dir)
        try:
            from mrclens.reports import write_report
        except ImportError:
            write_report = None
        if write_report is not None:
            write_report(out_dir)
    return results
