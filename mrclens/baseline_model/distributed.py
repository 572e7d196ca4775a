"""Multi-process training with PyTorch's ``DistributedDataParallel`` (DDP), launched by ``torchrun``.

How a run is split (:func:`mrclens.baseline_model.train` does it when a process group is
initialised): every process builds the same vocabulary, the same initial weights and the same
batch order from the seed; each *global* batch of ``config.batch_size`` questions is dealt out
round-robin (:func:`shard`: process ``r`` takes questions ``r, r + W, r + 2W, ...`` of the
length-sorted batch, so the shards have similar lengths); each process scales its mean loss by
``n_r · W / n`` (:func:`loss_weight`) so that DDP's gradient average equals the gradient of the
mean loss over the global batch. Gradient clipping, Adam and the learning-rate schedule then see
the same gradient as one process with that global batch would, up to float rounding (shards pad
to their own lengths) and dropout (each process draws its own masks). A global batch with fewer
questions than processes is skipped on every process.

Rank 0 alone scores the dev set, keeps the best weights and writes the checkpoint; it also
decides, from its own clock, when a time mark or the time limit is reached, and every process
learns that decision through the one all-reduce per step that also sums the logged loss.

Launch (:func:`init_from_env` reads torchrun's ``WORLD_SIZE``, ``RANK``, ``LOCAL_RANK``)::

    torchrun --standalone --nproc-per-node 2 -m mrclens.cli train TRAIN --out MODEL --device cpu
    mrclens train TRAIN --out MODEL --nproc 2          # the same, started for you

Backend: ``nccl`` when the processes train on CUDA, else ``gloo``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
import torch
import torch.distributed as dist

from mrclens.errors import MRCLensError


@dataclass(frozen=True)
class DistInfo:
    """This process's place in the process group.

    Attributes:
        world_size: number of processes ``W`` (1 without a process group).
        rank: this process's rank ``0 <= rank < W``.
        local_rank: its rank on this machine (selects the GPU ``cuda:local_rank``).
    """

    world_size: int = 1
    rank: int = 0
    local_rank: int = 0

    @property
    def is_main(self) -> bool:
        """Rank 0: the process that evaluates, logs and writes files."""
        return self.rank == 0


def current() -> DistInfo:
    """The initialised process group's :class:`DistInfo`, or the single-process one."""
    if not (dist.is_available() and dist.is_initialized()):
        return DistInfo()
    return DistInfo(dist.get_world_size(), dist.get_rank(), int(os.environ.get("LOCAL_RANK", dist.get_rank())))


def launched_by_torchrun() -> bool:
    """Whether torchrun's environment (``WORLD_SIZE``, ``RANK``) is present."""
    return "WORLD_SIZE" in os.environ and "RANK" in os.environ


def init_from_env(device: str) -> DistInfo:
    """Join the process group that torchrun describes in the environment.

    Args:
        device: the ``--device`` choice (``"auto"``, ``"cpu"``, ``"cuda"``): ``nccl`` is used when it
            resolves to CUDA, ``gloo`` otherwise.

    Returns:
        this process's :class:`DistInfo` (world size 1 and no process group when the environment
        does not describe one).

    Raises:
        MRCLensError: CUDA training with more processes on this machine than GPUs.
    """
    if not launched_by_torchrun() or int(os.environ["WORLD_SIZE"]) < 2:
        return DistInfo()
    if dist.is_initialized():
        return current()
    cuda = device.startswith("cuda") or (device == "auto" and torch.cuda.is_available())
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    if cuda:
        if local_rank >= torch.cuda.device_count():
            raise MRCLensError(f"process {local_rank} on this machine has no GPU ({torch.cuda.device_count()} "
                               "visible); use at most one process per GPU or --device cpu")
        torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl" if cuda else "gloo")
    return current()


def shutdown() -> None:
    """Leave the process group, if one is initialised."""
    if dist.is_available() and dist.is_initialized():
        dist.destroy_process_group()


def shard(idx: np.ndarray, info: DistInfo) -> np.ndarray:
    """This process's questions of a global batch: ``idx[rank::world_size]`` (round-robin).

    Args:
        idx: ``(n,)`` question indices of one global batch (sorted by context length).

    Returns:
        ``(ceil((n - rank) / W),)`` indices; all of ``idx`` when ``W == 1``.
    """
    return idx[info.rank::info.world_size]


def loss_weight(n_local: int, n_global: int, info: DistInfo) -> float:
    """Factor on this process's mean loss so that DDP's gradient *average* is the gradient of the
    mean over the global batch: ``n_local · W / n_global`` (1.0 for one process)."""
    return n_local * info.world_size / n_global
