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
    mrclens train TRAIN --out MODEL --jobs 2           # the same, started for you

Backend: ``nccl`` when the processes train on CUDA, else ``gloo``.

Without torchrun, ``ReaderConfig.processes = N`` (N > 1) makes :func:`mrclens.baseline_model.train`
start the N processes itself on the CPU (:func:`fork_training`: forked from the calling process, a
``gloo`` group on 127.0.0.1), so ``mrclens audit`` and library calls use them with no launcher.
On 2 CPU cores two processes of one thread trained 1.17-1.22 times as many examples per second as
one process with two threads (two full SQuAD v1.1 audits on the same day; BENCHMARKS.md, "Training and prediction speed on the CPU"):
the model's matrices are small, so one thread per core does better than two threads sharing each product.
"""

from __future__ import annotations

import os
import socket
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

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


_ERROR_FILE = "error-{rank}.txt"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free now (the OS picks it), for a gloo rendezvous."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _fork_worker(rank: int, world_size: int, port: int, workdir: str, fn: Callable[[], Any],
                 save: Callable[[Any, Path], None], threads: int) -> None:
    torch.set_num_threads(threads)  # before any torch work: a forked OpenMP pool must not be entered
    os.environ.update({"RANK": str(rank), "LOCAL_RANK": str(rank), "WORLD_SIZE": str(world_size),
                       "LOCAL_WORLD_SIZE": str(world_size), "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port)})
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world_size)
    try:
        result = fn()
        if rank == 0:
            save(result, Path(workdir) / "result")
    except MRCLensError as e:  # a user-facing error: its message travels back, not a traceback
        # every rank writes its message before it exits: the parent learns of whichever process ends first,
        # and rank 0 may not have written its own yet (or be stopped before it could)
        (Path(workdir) / _ERROR_FILE.format(rank=rank)).write_text(str(e), encoding="utf-8")
        raise SystemExit(3)
    finally:
        shutdown()


def fork_training(world_size: int, fn: Callable[[], Any], save: Callable[[Any, Path], None],
                  load: Callable[[Path], Any], threads: int | None = None) -> Any:
    """Run ``fn`` in ``world_size`` forked CPU processes that form a ``gloo`` process group, and
    return rank 0's result.

    Each process calls ``fn()`` (e.g. :func:`mrclens.baseline_model.train` with the caller's
    arguments) inside the group; rank 0 writes its result with ``save(result, directory)`` to a
    temporary directory, from which this process reads it with ``load(directory)``. Each process
    runs ``threads`` torch threads (default: this machine's CPUs divided among the processes). The processes
    are forked, so they inherit the data, the callbacks and the output streams (rank 0's progress
    and log lines appear as usual); callbacks run in rank 0's process, not in this one.

    Raises:
        MRCLensError: an MRCLensError raised in any process (its message; rank 0's when several wrote one), a
            process that failed otherwise, or no
            writable temporary folder (``TMPDIR``).
    """
    import torch.multiprocessing as mp

    try:
        tmp = tempfile.TemporaryDirectory(prefix="mrclens-ddp-")
    except OSError as e:
        raise MRCLensError(f"cannot create a temporary folder for the training processes in "
                           f"{tempfile.gettempdir()} ({e.strerror}); set TMPDIR to a writable folder") from None
    with tmp as workdir:
        try:
            threads = threads or max(1, len(os.sched_getaffinity(0)) // world_size)
            mp.start_processes(_fork_worker, args=(world_size, free_port(), workdir, fn, save, threads),
                               nprocs=world_size, join=True, start_method="fork")
        except (mp.ProcessExitedException, mp.ProcessRaisedException) as e:
            errors = sorted(Path(workdir).glob(_ERROR_FILE.format(rank="*")))  # rank 0's first where it wrote one
            if errors:
                raise MRCLensError(errors[0].read_text(encoding="utf-8")) from None
            raise MRCLensError(f"a training process failed ({e}); see the messages above") from None
        return load(Path(workdir) / "result")
