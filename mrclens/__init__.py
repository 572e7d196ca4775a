"""MRCLens: detect shortcut biases in SQuAD-format machine-reading-comprehension datasets.

Source: Zhong, Wang & Xing, "MRCLens: an MRC Dataset Bias Detection Toolkit",
DataPerf@ICML 2022.

The names below are imported on first use (PEP 562), so that ``import mrclens`` (and
``mrclens --help``) stays cheap; ``from mrclens import load_dataset`` works as usual.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

#: Public name -> the module that defines it.
_EXPORTS = {
    "DataError": "mrclens.errors",
    "MRCLensError": "mrclens.errors",
    "Answer": "mrclens.squad",
    "Article": "mrclens.squad",
    "Dataset": "mrclens.squad",
    "Paragraph": "mrclens.squad",
    "Question": "mrclens.squad",
    "load_dataset": "mrclens.formats",
    "write_dataset": "mrclens.squad",
}

__all__ = ["__version__", *sorted(_EXPORTS)]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'mrclens' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
