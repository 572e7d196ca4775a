"""Every file MRCLens writes and reads back, with one owner module each (typed, versioned).

=====================================  ==========================================  ==================================
file                                   owner module                                written by
=====================================  ==========================================  ==================================
names of all files and folders         :mod:`mrclens.artifacts.layout`             —
the output-folder policy               :mod:`mrclens.artifacts.folders`            every command writing a folder
``perturbed/manifest.json``            :mod:`mrclens.artifacts.manifest`           ``mrclens perturb``, the audit
``results.json``                       :mod:`mrclens.artifacts.results`            ``mrclens evaluate --out``, the audit
``results.csv``                        :mod:`mrclens.artifacts.results_csv`        ``mrclens evaluate --out``, the audit
``question-scores.json``               :mod:`mrclens.artifacts.question_scores`    ``mrclens evaluate --out``, the audit
``shortcut-questions.jsonl``           :mod:`mrclens.artifacts.shortcut_questions` ``mrclens stats --evidence``, the audit
``audit-state.json``                   :mod:`mrclens.artifacts.audit_state`        the audit
``predictions/<set>.json``             :mod:`mrclens.artifacts.predictions`        ``mrclens predict``, the audit
``training.json`` (reader checkpoint)  :mod:`mrclens.artifacts.training_record`    ``mrclens train``, the audit
``comparison.json``, ``.csv``          :mod:`mrclens.artifacts.comparison`         ``mrclens compare --out``
=====================================  ==========================================  ==================================

The metadata of an ablation, which the manifest's and the results' ablation entries (and the
ablation registries) extend, is :class:`mrclens.artifacts.ablation.AblationMeta`. The perturbed
sets themselves are SQuAD files (:mod:`mrclens.squad`), the reader checkpoint is owned by
:mod:`mrclens.baseline_model.checkpoint`, the report by :mod:`mrclens.reports`, and the
caches by :mod:`mrclens.parsing` and :mod:`mrclens.stats.cache`. Nothing else calls
``json.load``/``json.dump`` on the files above. Every reader raises
:class:`~mrclens.errors.ArtifactError` (exit code 2) naming the file and field when a file is
missing or malformed (an object holding a key twice included, as for data files:
:func:`mrclens.io_utils.loads_unique`), and reads files without a ``format_version`` as version 1.

``results.json`` and the training record are validated with pydantic models derived from their records
(:mod:`mrclens.artifacts.record_models`); the JSON Schema of ``results.json``, published as
``docs/results.schema.json``, is generated from the same models (:mod:`mrclens.artifacts.results_schema`).

Public helpers: :func:`read_json_object` (a JSON object file, or an ``ArtifactError``; for owners
of files outside this package, such as the reader checkpoint's ``training.json``) and
:func:`is_perturb_output` (whether a folder holds a readable perturbation manifest).
"""

from __future__ import annotations

import os

from mrclens.artifacts._files import read_json_object
from mrclens.errors import ArtifactError

__all__ = ["read_json_object", "is_perturb_output"]


def is_perturb_output(directory: str | os.PathLike) -> bool:
    """Whether ``directory`` holds a readable perturbation manifest (an earlier ``mrclens perturb``
    output, span or multiple choice; :func:`mrclens.artifacts.manifest.read_manifest`)."""
    from mrclens.artifacts.manifest import read_manifest  # the package's own module, read when asked

    try:
        read_manifest(directory)
    except ArtifactError:
        return False
    return True
