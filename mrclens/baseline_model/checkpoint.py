"""The reader checkpoint folder, shared by the span reader and the multiple-choice baseline.

Both readers save the same five files (:meth:`mrclens.baseline_model.reader.Reader.save`,
:meth:`mrclens.multiple_choice.train.MCReader.save`); what differs is passed in: the config's
dict (the multiple-choice one carries a ``"task"`` marker), the weights' format string and the
architecture checked when loading::

    config.json        the reader's config (ReaderConfig / MCReaderConfig .to_dict(); the
                       multiple-choice reader adds "task": "multiple_choice")
    vocab.json         {"words": [...], "chars": [...]} (mrclens.baseline_model.vectors.Vocab)
    weights.pt         {"format", "architecture", "vocab_sha256", "state_dict"} (torch.save of
                       plain tensors; read back with torch.load(weights_only=True): nothing read
                       executes code)
    training_log.json  the training log: a JSON list of per-evaluation records
    training.json      how training ended (mrclens.artifacts.training_record.TrainingRecord);
                       absent when unknown (readers saved before issue 16)

Every file is written atomically (:func:`mrclens.io_utils.atomic_write_bytes`). The checks
(:func:`require_files`, :func:`check_task_marker`, :func:`read_weights`, :func:`check_architecture`,
:func:`load_weights`) and the readers of the training log and record raise
:class:`~mrclens.errors.CheckpointError` naming the file.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any, Mapping, Sequence

import torch

from mrclens.artifacts import read_json_object
from mrclens.artifacts.training_record import TrainingRecord
from mrclens.baseline_model.vectors import Vocab
from mrclens.errors import ArtifactError, CheckpointError, MRCLensError
from mrclens.io_utils import atomic_write_bytes, atomic_write_json, atomic_write_text
from mrclens.tasks import Task, get_task

CONFIG_FILE = "config.json"
VOCAB_FILE = "vocab.json"
WEIGHTS_FILE = "weights.pt"
TRAINING_LOG = "training_log.json"
#: The training record's file name in a checkpoint directory.
TRAINING_RECORD = "training.json"
#: The files every checkpoint holds (the training log and record may be absent).
REQUIRED_FILES = (CONFIG_FILE, VOCAB_FILE, WEIGHTS_FILE)

#: Keys only a span-reader (SQuAD) ``config.json`` has: how a span checkpoint, which carries no
#: ``"task"`` marker, is recognised.
SPAN_CONFIG_KEYS = frozenset({"max_answer_tokens", "max_train_context_tokens", "lr_decay_steps"})


def write_checkpoint(directory: str | os.PathLike, *, config: Mapping[str, Any], vocab: Vocab,
                     model: torch.nn.Module, weights_format: str, architecture: Mapping[str, Any],
                     training_log: Sequence[Mapping[str, Any]], training: TrainingRecord | None) -> Path:
    """Write the checkpoint files (module docstring) into ``directory`` (created when missing).

    Args:
        config: the content of ``config.json``.
        vocab: the reader's vocabulary (``vocab.json``; its fingerprint goes into the weights).
        model: the network; its state dict is saved on the CPU.
        weights_format: ``weights.pt``'s ``format`` value.
        architecture: the config fields that fix the weights' shapes (saved as sorted-key JSON).
        training_log: the records of ``training_log.json``.
        training: ``training.json``'s record; ``None`` removes a stale ``training.json``.

    Returns:
        the directory.

    Raises:
        OutputError: a file cannot be written.
    """
    d = Path(directory)
    atomic_write_json(d / CONFIG_FILE, dict(config), indent=2)
    atomic_write_text(d / VOCAB_FILE, vocab.to_json())
    buf = io.BytesIO()
    state = {k: v.detach().cpu() for k, v in model.state_dict().items()}
    torch.save({"format": weights_format, "architecture": json.dumps(dict(architecture), sort_keys=True),
                "vocab_sha256": vocab.fingerprint(), "state_dict": state}, buf)
    atomic_write_bytes(d / WEIGHTS_FILE, buf.getvalue())
    atomic_write_json(d / TRAINING_LOG, list(training_log), indent=2)
    if training is not None:
        atomic_write_json(d / TRAINING_RECORD, training.to_json(), indent=2)
    elif (d / TRAINING_RECORD).exists():
        (d / TRAINING_RECORD).unlink()
    return d


def require_files(directory: str | os.PathLike, kind: str, names: Sequence[str] = REQUIRED_FILES) -> None:
    """Refuse a directory that lacks one of ``names``.

    Raises:
        CheckpointError: ``"<directory>: not a <kind> checkpoint (<name> is missing)"``.
    """
    d = Path(directory)
    for name in names:
        if not (d / name).is_file():
            raise CheckpointError(f"{d}: not a {kind} checkpoint ({name} is missing)")


def _marked_task(marker: Any) -> Task | None:
    """The registered task a ``config.json`` ``"task"`` marker names (``None``: absent or unknown)."""
    if marker is None:
        return None
    try:
        return get_task(marker)
    except MRCLensError:
        return None


def check_task_marker(directory: str | os.PathLike, config: Mapping[str, Any], task: Task, hint: str) -> None:
    """Refuse a ``config.json`` (read as ``config``) whose ``"task"`` marker does not name ``task``.

    Args:
        hint: how to make such a reader, ending the message.

    Raises:
        CheckpointError: the marker is absent (the message says when the keys are a span reader's,
            :data:`SPAN_CONFIG_KEYS`) or names another or an unknown task.
    """
    marker = config.get("task")
    if _marked_task(marker) is task:
        return
    if marker is None and SPAN_CONFIG_KEYS & set(config):
        what = "a span-extraction (SQuAD) reader checkpoint"
    elif marker is not None:
        what = f"a checkpoint for task {marker!r}"
    else:
        what = f'no "task": "{task.name}" marker in {CONFIG_FILE}'
    raise CheckpointError(f"{directory}: not a {task.data_label} reader ({what}); {hint}")


def read_weights(directory: str | os.PathLike, weights_format: str) -> dict[str, Any]:
    """``weights.pt`` of ``directory``, read with ``torch.load(weights_only=True)`` onto the CPU.

    Raises:
        CheckpointError: the file is unreadable, its ``format`` is not ``weights_format``, or it lacks
            ``architecture``, ``vocab_sha256`` (text) or ``state_dict`` (tensors by name) (the message
            names the file and the key).
    """
    path = Path(directory) / WEIGHTS_FILE
    try:
        ckpt = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as err:  # torch raises several types for corrupt files
        raise CheckpointError(f"{path}: unreadable weights: {err}") from None
    if not isinstance(ckpt, dict) or ckpt.get("format") != weights_format:
        raise CheckpointError(f"{path}: not a {weights_format} weights file")
    for key, kind, name in (("architecture", str, "text"), ("vocab_sha256", str, "text"),
                            ("state_dict", dict, "a dict of tensors")):
        if not isinstance(ckpt.get(key), kind):
            raise CheckpointError(f"{path}: not a {weights_format} weights file ({key!r} is missing or not {name})")
    if not all(isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in ckpt["state_dict"].items()):
        raise CheckpointError(f"{path}: not a {weights_format} weights file ('state_dict' is not a dict of tensors)")
    return ckpt


def check_architecture(directory: str | os.PathLike, ckpt: Mapping[str, Any], architecture: Mapping[str, Any]) -> None:
    """Refuse weights (``ckpt``, from :func:`read_weights`) saved for another architecture than the config's.

    Raises:
        CheckpointError: the architectures differ (the message shows both).
    """
    arch = json.dumps(dict(architecture), sort_keys=True)
    if ckpt.get("architecture") != arch:
        raise CheckpointError(f"{directory}: config.json does not match the weights' architecture: config {arch} vs "
                              f"weights {ckpt.get('architecture')}; refusing to load")


def load_weights(model: torch.nn.Module, state: Mapping[str, torch.Tensor], where: str | os.PathLike) -> None:
    """``model.load_state_dict(state, strict=True)``.

    Raises:
        CheckpointError: the weights do not fit the model (the message starts with ``where``).
    """
    try:
        model.load_state_dict(state, strict=True)
    except RuntimeError as err:
        raise CheckpointError(f"{where}: weights do not fit the configured model: {err}") from None


def read_training_record(directory: str | os.PathLike) -> TrainingRecord | None:
    """The ``training.json`` of a saved reader without loading its weights (``None`` when absent:
    readers saved before issue 16).

    Raises:
        CheckpointError: the file is not JSON or not a training record (the message names the field).
    """
    path = Path(directory) / TRAINING_RECORD
    if not path.is_file():
        return None
    try:
        return TrainingRecord.from_json(read_json_object(path, ""), path)
    except ArtifactError as err:
        raise CheckpointError(str(err)) from None


def read_training_log(directory: str | os.PathLike) -> list[dict[str, Any]] | None:
    """The ``training_log.json`` of a saved reader without loading its weights (``None`` when absent).

    Raises:
        CheckpointError: the file is not a JSON list.
    """
    path = Path(directory) / TRAINING_LOG
    if not path.is_file():
        return None
    try:
        log = json.loads(path.read_text("utf-8"))
    except (ValueError, UnicodeDecodeError) as err:
        raise CheckpointError(f"{path}: unreadable training log: {err}") from None
    if not isinstance(log, list) or not all(isinstance(record, dict) for record in log):
        raise CheckpointError(f"{path}: expected a JSON list of training records (objects)")
    return log
