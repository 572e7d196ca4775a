"""Returning freed heap memory to the operating system while the reader trains on a CPU.

A CPU training step allocates and frees tensors whose sizes change with every batch (contexts of
different lengths). glibc's allocator keeps most freed blocks inside the process heap, so the
resident memory of a training process creeps up over an epoch and stays there: measured on a full
SQuAD v1.1 audit with profile ``paper-parallel`` (2 training processes), the processes' summed
proportional set size grew from 3.2 GB at the first step to 5.5 GB (BENCHMARKS.md, "Memory of CPU
training"). Calling glibc's ``malloc_trim(0)`` every :data:`TRIM_EVERY_STEPS` optimizer steps
hands the free pages back (``madvise``) and changes no computed value: the weights are bitwise the
same with and without it (``tests/baseline_model/test_memory.py``).

Source: ``malloc_trim(3)``, GNU C Library manual; on other C libraries (macOS, musl) there is no
such call and :func:`release_free_memory` does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools

#: Optimizer steps between two :func:`release_free_memory` calls during CPU training. One call took
#: 32 ms to hand back 1 GB of free heap and 0.4 ms when there was nothing to free (2-core machine);
#: a step of a full-size reader takes ≈ 0.5-1 s. Pages it returns are faulted in again when reused,
#: which is why it runs every few steps, not every step (BENCHMARKS.md, the same section).
TRIM_EVERY_STEPS = 10


@functools.lru_cache(maxsize=1)
def _malloc_trim():
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
    except OSError:
        return None
    trim = getattr(libc, "malloc_trim", None)
    if trim is not None:
        trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def release_free_memory() -> bool:
    """Give the free pages of this process's heap back to the operating system.

    Calls glibc's ``malloc_trim(0)``; changes no allocated memory, only what the process holds
    without using.

    Returns:
        ``True`` when the call was made (a glibc system), ``False`` when the C library has no
        ``malloc_trim`` (then nothing is done). Never raises.
    """
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
