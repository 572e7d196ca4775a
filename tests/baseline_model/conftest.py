"""Shared pieces of the baseline-reader tests: a small real training set and a tiny config."""

from __future__ import annotations

import pytest
import torch

from mrclens.formats import load_dataset
from mrclens.squad import Dataset
from reader_helpers import first_questions


@pytest.fixture(autouse=True)
def one_thread():
    """Run torch on one thread: on the shared 2-core CI machine this is faster and deterministic."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="session")
def sample32(sample_path) -> Dataset:
    """32 real SQuAD v1.1 training questions (from the bundled sample) on short contexts."""
    return first_questions(load_dataset(sample_path), 32)
