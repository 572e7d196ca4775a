"""Returning freed heap memory during CPU training (``mrclens.baseline_model.memory``).

The training here is a tiny reader on 32 real SQuAD v1.1 questions of the bundled sample.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import pytest
import torch

from mrclens.baseline_model import memory, train

from reader_helpers import tiny_config

GLIBC = sys.platform.startswith("linux") and memory._malloc_trim() is not None


def _rss_bytes() -> int:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not GLIBC, reason="malloc_trim is a glibc call; this C library has none")
def test_release_free_memory_returns_freed_heap_pages_to_the_os():
    # 200 MB in 64 KiB blocks (below glibc's mmap threshold, so they live in the heap); keeping every
    # 50th block alive pins the heap's top, so freeing the others leaves free pages inside the heap
    # that only malloc_trim gives back
    blocks = [bytearray(64 * 1024) for _ in range(3200)]
    kept = blocks[::50]
    del blocks
    before = _rss_bytes()
    assert memory.release_free_memory() is True
    after = _rss_bytes()
    assert before - after > 100 * 2**20, (before, after)
    assert all(len(b) == 64 * 1024 for b in kept)  # what is in use is untouched


def test_trimming_during_training_changes_no_weight(sample32, monkeypatch):
    train_module = importlib.import_module("mrclens.baseline_model.train")  # the package exports train()
    calls: list[int] = []
    real = memory.release_free_memory

    def counted() -> bool:
        calls.append(1)
        return real()

    config = tiny_config(dropout=0.2, cpu_threads=1, max_steps=8)
    monkeypatch.setattr(memory, "TRIM_EVERY_STEPS", 10**9)  # never during training
    plain = train(sample32, config, seed=3, device="cpu", progress=False, log=lambda line: None)
    monkeypatch.setattr(memory, "TRIM_EVERY_STEPS", 1)  # after every step
    monkeypatch.setattr(train_module.memory, "release_free_memory", counted)
    trimmed = train(sample32, config, seed=3, device="cpu", progress=False, log=lambda line: None)
    assert len(calls) >= 8
    a, b = plain.model.state_dict(), trimmed.model.state_dict()
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    assert plain.predict(sample32, progress=False) == trimmed.predict(sample32, progress=False)
