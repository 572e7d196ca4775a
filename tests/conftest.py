"""Shared fixtures: paths to the real data in ../shared/data (skipped cleanly when absent)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("MRCLENS_SHARED_DATA", REPO.parent / "shared" / "data"))
SAMPLE = REPO / "mrclens" / "data" / "squad-v1.1-sample.json.gz"


def _real(rel: str) -> Path:
    path = SHARED_DATA / rel
    if not path.exists():
        pytest.skip(f"real data not available: {path} is absent (see DEVELOPERS.md / shared/data/SOURCES.md)")
    return path


@pytest.fixture(scope="session")
def squad_dev_path() -> Path:
    """The official SQuAD v1.1 dev file (10,570 questions)."""
    return _real("squad/dev-v1.1.json.gz")


@pytest.fixture(scope="session")
def squad_train_path() -> Path:
    """The official SQuAD v1.1 train file (87,599 questions)."""
    return _real("squad/train-v1.1.json.gz")


@pytest.fixture(scope="session")
def nq_v2_path() -> Path:
    """Natural Questions subset in SQuAD v2.0 form (integer ids, unanswerable questions)."""
    return _real("natural-questions/nq_dev_subset_v2.json.gz")


@pytest.fixture(scope="session")
def sample_path() -> Path:
    """The bundled real sample (40 SQuAD v1.1 train articles); always present."""
    return SAMPLE
