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


@pytest.fixture(scope="session")
def compared_audit(tmp_path_factory, sample_path) -> Path:
    """A real small audit read against the bundled SQuAD v1.1 reference, as ``make demo`` reads one.

    Three evaluation articles of the bundled sample, perturbed by :mod:`mrclens.perturbations`
    (every ablation and control), answered by the simulated shortcut reader of
    :func:`report_fixtures.overlap_sentence_reader` (instead of training one: baseline F1 about 79),
    scored by the one scoring path with the data's own model-free figures
    (:func:`mrclens.scoring.model_free.model_free_figures`, article-clustered) and the reference's
    audit for the quick profile, its Similarity and Question probes moved towards less of the shortcut
    (:func:`report_fixtures.shortcut_reference`, a test device) — the verdict against the reference the report leads
    with (here Question "more"; Similarity, whose drops are described, not read, Keyword and Position
    "inconclusive") — and the per-question shortcut
    evidence of its questions (``shortcut-questions.jsonl``, :func:`mrclens.stats.evidence.shortcut_evidence`).
    """
    import json

    from mrclens import perturbations
    from mrclens.artifacts.layout import SHORTCUT_QUESTIONS
    from mrclens.artifacts.shortcut_questions import write_shortcut_questions
    from mrclens.audit.span import truncation_rule
    from mrclens.formats import load_dataset
    from mrclens.io_utils import atomic_write_json
    from mrclens.scoring.model_free import cluster_standard_errors, context_shape, model_free_figures
    from mrclens.squad import Dataset
    from mrclens.stats import compute_stats, compute_stats_per_article
    from mrclens.stats.evidence import shortcut_evidence

    from report_fixtures import overlap_sentence_reader, shortcut_reference

    root = tmp_path_factory.mktemp("compared") / "audit"
    full = load_dataset(sample_path)
    small = Dataset(full.articles[-3:], full.version, str(sample_path))
    cache = root / "cache"
    reference, _ = shortcut_reference()
    manifest = perturbations.perturb_dataset(small, root / "perturbed", seed=0, cache_dir=cache, progress=False,
                                             truncation=truncation_rule(reference.audit_for("quick")))  # as an audit perturbs
    for name, file in manifest.set_files().items():
        squad = json.loads((root / "perturbed" / file).read_text(encoding="utf-8"))
        atomic_write_json(root / "predictions" / f"{name}.json", overlap_sentence_reader(squad))
    stats = compute_stats(small, cache_dir=cache, progress=False)
    # as an audit writes it (issue 56): the evidence of every audited question (here the evaluation part alone)
    write_shortcut_questions(root / SHORTCUT_QUESTIONS, shortcut_evidence(small, cache_dir=cache))
    figures = model_free_figures(stats, reference,
                                 clusters=cluster_standard_errors(compute_stats_per_article(small, cache)))
    score_and_publish(root / "perturbed", root / "predictions", root, model_name="overlap-sentence reader (simulated)", seed=0,
                      n_resamples=200, progress=False, model_free=figures, reference=reference.audit_for("quick"),
                      shape=context_shape(stats, reference))
    return root
