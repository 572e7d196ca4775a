"""Model-free dataset statistics (``mrclens stats``), the input of the pre-training sanity check.

One entry point, :func:`compute_stats`, returns every figure as one JSON-serialisable dict
(``{"title": "Model-free statistics", ...}``). Each figure is computed in its own module, the
way the paper it comes from defines it:

* :mod:`mrclens.stats.text` – tokens and Beat-the-AI question types (Bartolo et al. 2020)
* :mod:`mrclens.stats.summary` – mean/median/histogram aggregation
* :mod:`mrclens.stats.similarity` – answer in the TF-IDF-most-similar sentence (Sugawara et al. 2018)
* :mod:`mrclens.stats.overlap` – longest shared n-gram (Bartolo et al. 2020), content-word overlap
* :mod:`mrclens.stats.answer_types` – coarse answer types (after Rajpurkar et al. 2016)
* :mod:`mrclens.stats.heuristics` – heuristic baselines (Weissenborn et al. 2017; Richardson et al. 2013)
* :mod:`mrclens.stats.set_apart` – the answer is a span the context sets apart, beyond chance (the Question
  category's figure; after Weissenborn et al. 2017 and Sugawara et al. 2018)
* :mod:`mrclens.stats.leakage` – duplicates and train/dev leakage

:mod:`mrclens.stats.paragraph` computes one paragraph's per-question figures and baseline
predictions, which :mod:`mrclens.stats.cache` stores (keyed by a fingerprint of the code,
:mod:`mrclens.stats.fingerprint`); :mod:`mrclens.stats.schema` declares the result's sections
and the dotted path of every figure (the metrics ``mrclens check`` accepts).
"""

from mrclens.stats.core import TITLE, compute_stats, compute_stats_per_article, compute_stats_with_values
from mrclens.stats.report import format_stats

__all__ = ["TITLE", "compute_stats", "compute_stats_per_article", "compute_stats_with_values", "format_stats"]
