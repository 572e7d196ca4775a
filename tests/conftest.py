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


@pytest.fixture(scope="session")
def squad_v2_half_path() -> Path:
    """Half of the SQuAD v2.0 dev set (CS224N 2019 split): 6,078 questions, 3,168 unanswerable."""
    return _real("squad-v2-half/dev-v2.0-cs224n-half.json.gz")


@pytest.fixture(scope="session")
def mrqa_squad_path() -> Path:
    """MRQA 2019 in-domain dev shard of SQuAD (2,067 contexts, 10,507 questions; SOURCES.md §5)."""
    return _real("mrqa/dev/SQuAD.jsonl.gz")


@pytest.fixture(scope="session")
def mrqa_drop_path() -> Path:
    """MRQA 2019 DROP dev shard, release of 2019-05-29 (281 contexts, 1,503 questions)."""
    return _real("mrqa/dev-v2-20190529/DROP.jsonl.gz")


@pytest.fixture(scope="session")
def mrqa_duorc_path() -> Path:
    """MRQA 2019 DuoRC.ParaphraseRC dev shard, release of 2019-05-29 (202 contexts, 1,501 questions)."""
    return _real("mrqa/dev-v2-20190529/DuoRC.ParaphraseRC.jsonl.gz")


@pytest.fixture(scope="session")
def nq_simplified_dev_path() -> Path:
    """One simplified-NQ line with a long and a short answer (example 5328212470870865242; SOURCES.md §6)."""
    return _real("natural-questions-simplified/dev_sample.jsonl.gz")


@pytest.fixture(scope="session")
def nq_simplified_train_path() -> Path:
    """One simplified-NQ line without a long or short answer (example -8062182676792486818)."""
    return _real("natural-questions-simplified/train_sample.jsonl.gz")


@pytest.fixture(scope="session")
def codah_dir() -> Path:
    """CODAH as released (SOURCES.md §2): ``full_data.tsv.gz`` (2,776 questions) and the official
    5-fold split ``cv_split/fold_k/{train,dev,test}.tsv.gz``."""
    return _real("codah")


@pytest.fixture(scope="session")
def codah_full(codah_dir):
    """``full_data.tsv.gz`` of CODAH read once for the session (an ``MCDataset``; tests must not change it)."""
    from mrclens.formats.multiple_choice import load_mc_dataset

    return load_mc_dataset(codah_dir / "full_data.tsv.gz")


@pytest.fixture(scope="session", params=["es", "ru", "ar", "th"])
def xquad_path(request) -> Path:
    """XQuAD (Artetxe et al. 2020) dev in Spanish, Russian, Arabic and Thai: 240 paragraphs, 1,190 questions each."""
    return _real(f"xquad/xquad.{request.param}.json.gz")
