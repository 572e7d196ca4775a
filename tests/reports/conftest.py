"""Fixtures for the report tests: the hand-made audit directory of :mod:`report_fixtures`, scored by
the project's one scoring path (:func:`mrclens.scoring.evaluate.evaluate_perturbed`) into a real ``results.json``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from perturbed_fixture import score_and_publish
from report_fixtures import write_audit_dir


def _scored(root: Path, payload: bool) -> Path:
    write_audit_dir(root, payload=payload)
    score_and_publish(root / "perturbed", root / "predictions", root, model_name="made-up model",
                      seed=0, n_resamples=200, progress=False)
    return root


@pytest.fixture(scope="session")
def _scored_once(tmp_path_factory) -> Path:
    return _scored(tmp_path_factory.mktemp("scored") / "audit", payload=False)


@pytest.fixture(scope="session")
def _payload_once(tmp_path_factory) -> Path:
    return _scored(tmp_path_factory.mktemp("payload") / "audit", payload=True)


@pytest.fixture
def scored_audit(_scored_once, tmp_path) -> Path:
    """The hand-made audit directory scored by the project's one scoring path (a real results.json); a fresh copy per test."""
    return Path(shutil.copytree(_scored_once, tmp_path / "audit"))


@pytest.fixture
def payload_audit(_payload_once, tmp_path) -> Path:
    """Like :func:`scored_audit`, with an article full of HTML/JS injection attempts."""
    return Path(shutil.copytree(_payload_once, tmp_path / "audit"))
