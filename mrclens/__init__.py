"""MRCLens: detect shortcut biases in SQuAD-format machine-reading-comprehension datasets.

Source: Zhong, Wang & Xing, "MRCLens: an MRC Dataset Bias Detection Toolkit",
DataPerf@ICML 2022.
"""

__version__ = "0.1.0"

from mrclens.errors import DataError, MRCLensError  # noqa: E402
from mrclens.squad import Answer, Article, Dataset, Paragraph, Question, write_dataset  # noqa: E402
from mrclens.formats import load_dataset  # noqa: E402

__all__ = [
    "__version__",
    "Answer",
    "Article",
    "DataError",
    "Dataset",
    "MRCLensError",
    "Paragraph",
    "Question",
    "load_dataset",
    "write_dataset",
]
