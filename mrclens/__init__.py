"""MRCLens: detect shortcut biases in SQuAD-format machine-reading-comprehension datasets.

Source: Zhong, Wang & Xing, "MRCLens: an MRC Dataset Bias Detection Toolkit",
DataPerf@ICML 2022.

The names below are imported on first use (PEP 562), so that ``import mrclens`` (and
``mrclens --help``) stays cheap; ``from mrclens import load_qa_dataset`` works as usual.

The public names do not shadow those of Hugging Face ``datasets`` in a notebook that imports
both: :func:`load_qa_dataset` and :class:`QADataset` (``mrclens.load_dataset`` and
``mrclens.Dataset``, their names before, still work for one release and emit a
:class:`DeprecationWarning`). Hugging Face round trips: :func:`to_hf_dataset`, :func:`hub_features`;
results as tables: :func:`load_results` (``.to_pandas()``), :func:`diff_results`. ``mrclens stats`` and
``mrclens check`` on a loaded dataset: :func:`dataset_stats`, :func:`check_dataset` (``mrclens.stats`` is the
statistics package, so the functions have names of their own).

A type checker sees every public name with its type through the ``TYPE_CHECKING`` imports below (the
same targets as :data:`_EXPORTS`, which ``tests/test_public_api.py`` holds equal).
"""

from __future__ import annotations

import importlib
import warnings
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what type checkers and the API reference (docs/api.md) see; at run time __getattr__ imports
    from mrclens.artifacts.results import read_results as load_results
    from mrclens.artifacts.results_diff import diff_results
    from mrclens.checks.notebook import check_dataset, dataset_stats
    from mrclens.errors import DataError, MRCLensError
    from mrclens.formats import load_dataset as load_qa_dataset
    from mrclens.formats.hf_datasets import hub_features, to_hf_dataset
    from mrclens.squad import Answer, Article, Paragraph, QADataset, Question, write_dataset

__version__ = "0.1.0"

#: Public name -> (the module that defines it, its name there).
_EXPORTS = {
    "DataError": ("mrclens.errors", "DataError"),
    "MRCLensError": ("mrclens.errors", "MRCLensError"),
    "Answer": ("mrclens.squad", "Answer"),
    "Article": ("mrclens.squad", "Article"),
    "QADataset": ("mrclens.squad", "QADataset"),
    "Paragraph": ("mrclens.squad", "Paragraph"),
    "Question": ("mrclens.squad", "Question"),
    "load_qa_dataset": ("mrclens.formats", "load_dataset"),
    "write_dataset": ("mrclens.squad", "write_dataset"),
    "to_hf_dataset": ("mrclens.formats.hf_datasets", "to_hf_dataset"),
    "hub_features": ("mrclens.formats.hf_datasets", "hub_features"),
    "load_results": ("mrclens.artifacts.results", "read_results"),
    "diff_results": ("mrclens.artifacts.results_diff", "diff_results"),
    "dataset_stats": ("mrclens.checks.notebook", "dataset_stats"),
    "check_dataset": ("mrclens.checks.notebook", "check_dataset"),
}

#: Names kept for one release (deprecated in 0.1.x, removed in the next): old name -> new name.
_DEPRECATED = {"load_dataset": "load_qa_dataset", "Dataset": "QADataset"}

__all__ = ["__version__", *sorted(_EXPORTS)]


def __getattr__(name: str) -> Any:
    if name in _DEPRECATED:
        new = _DEPRECATED[name]
        warnings.warn(f"mrclens.{name} is deprecated and will be removed in the next release; use mrclens.{new} "
                      f"(the old name shadows Hugging Face datasets' {name})", DeprecationWarning, stacklevel=2)
        return __getattr__(new)  # not cached, so that every use warns
    target = _EXPORTS.get(name)
    if target is None:
        raise AttributeError(f"module 'mrclens' has no attribute {name!r}")
    module, attribute = target
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
