"""Where and how the readers run: the torch device, deterministic CPU training, peak memory.

Shared by the span reader (:mod:`mrclens.baseline_model.train`, :mod:`mrclens.baseline_model.reader`)
and the multiple-choice baseline (:mod:`mrclens.multiple_choice.train`):

* :func:`resolve_device`: a device name (``"auto"``, ``"cpu"``, ``"cuda[:N]"``) as a ``torch.device``;
* :func:`cpu_determinism`: a fixed torch thread count and deterministic algorithms while training
  on the CPU (the same data, config, seed and thread count then give bitwise identical weights);
* :func:`peak_rss_mb`: the process's peak resident memory, recorded in the training logs;
* :class:`TrainedModel`: what both trained readers hold (config, vocabulary, the network on its device,
  training log and record).
"""

from __future__ import annotations

import contextlib
import resource
from typing import Any

import torch

from mrclens.errors import MRCLensError


def resolve_device(device: str) -> torch.device:
    """``"auto"`` → CUDA when available, else CPU; ``"cpu"``; ``"cuda"`` (or ``"cuda:N"``).

    Raises:
        MRCLensError: CUDA requested but not available, or an unknown device name.
    """
    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device == "cpu":
        return torch.device("cpu")
    if device.startswith("cuda"):
        if not torch.cuda.is_available():
            raise MRCLensError(f"device {device!r} requested but no CUDA GPU is available (use --device cpu or auto)")
        return torch.device(device)
    raise MRCLensError(f"unknown device {device!r}; use auto, cpu or cuda")


class TrainedModel:
    """What a trained reader holds, the span :class:`~mrclens.baseline_model.reader.Reader` and the
    multiple-choice :class:`~mrclens.multiple_choice.train.MCReader` alike (attributes as documented there).

    ``model`` is moved to ``device`` (a ``torch.device``, or a name for :func:`resolve_device`);
    ``training_log`` is copied (``None``: empty).

    Raises:
        MRCLensError: a bad device name, or CUDA asked for without a GPU.
    """

    def __init__(self, config: Any, vocab: Any, model: torch.nn.Module, device: torch.device | str,
                 training_log: list[dict[str, Any]] | None, training: Any) -> None:
        self.config = config
        self.vocab = vocab
        self.device = resolve_device(device) if isinstance(device, str) else device
        self.model = model.to(self.device)
        self.training_log = list(training_log or [])
        self.training = training


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MiB (``resource.getrusage``; Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def cpu_model() -> str | None:
    """The CPU's model name as the kernel reports it (``/proc/cpuinfo`` ``model name``; ``platform.processor()``
    elsewhere), ``None`` when neither says."""
    import platform

    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip() or None
    except OSError:
        pass
    return platform.processor() or None


def cpu_capability() -> str | None:
    """The vector instruction set torch's CPU kernels use here (``torch.backends.cpu.get_cpu_capability()``:
    ``"DEFAULT"``, ``"AVX2"``, ``"AVX512"``, ...): CPU training is bit-identical only where it, the thread count
    and the library versions are the same (issue 57); ``None`` where torch does not say."""
    try:
        return str(torch.backends.cpu.get_cpu_capability())
    except (AttributeError, RuntimeError):  # an older torch
        return None


#: Whether torch fills new tensors with NaN while training deterministically on the CPU (see
#: :func:`cpu_determinism`; off: the fill costs 18-20 % of a step and changes no weight).
FILL_UNINITIALIZED_MEMORY = False


@contextlib.contextmanager
def cpu_determinism(threads: int | None, device: torch.device):
    """Run the block with a fixed torch thread count and deterministic algorithms on the CPU.

    Args:
        threads: intra-op threads to use (``None``: keep the current count).
        device: where training runs; on a CUDA device nothing is changed (cuDNN and CUDA index
            kernels are not bitwise deterministic anyway, and deterministic mode would refuse some).

    Yields:
        the thread count in effect on the CPU (``None`` on CUDA). torch's thread count,
        deterministic-algorithm setting and ``fill_uninitialized_memory`` are restored when the block ends.

    Deterministic mode also makes torch fill every newly allocated tensor with NaN
    (``torch.utils.deterministic.fill_uninitialized_memory``, a guard against kernels that read
    memory they did not write). That fill was 18–20 % of a training step's CPU time (issue 21: a
    torch profile of the paper reader, mostly the oneDNN LSTM's workspaces), and no kernel of this
    model reads uninitialized memory: the weights after 60 steps are bitwise the same with and
    without it (``tests/baseline_model/test_deterministic_training.py``). So it is switched off here
    (:data:`FILL_UNINITIALIZED_MEMORY`).
    """
    import torch.utils.deterministic as deterministic

    if device.type != "cpu":
        yield None
        return
    before_threads = torch.get_num_threads()
    before_det = torch.are_deterministic_algorithms_enabled()
    before_warn = torch.is_deterministic_algorithms_warn_only_enabled()
    before_fill = deterministic.fill_uninitialized_memory
    try:
        if threads is not None:
            torch.set_num_threads(int(threads))
        torch.use_deterministic_algorithms(True)
        deterministic.fill_uninitialized_memory = FILL_UNINITIALIZED_MEMORY
        yield torch.get_num_threads()
    finally:
        deterministic.fill_uninitialized_memory = before_fill
        torch.use_deterministic_algorithms(before_det, warn_only=before_warn)
        torch.set_num_threads(before_threads)
