"""Three model-free heuristic baselines, and the best each could do inside its chosen sentence.

Each baseline picks a sentence unit and a span in it without any training; the spans are
scored with the official SQuAD EM/F1 (:func:`mrclens.metrics.official.evaluate_set`), so a reader sees how
much of the dataset can be answered without reading. One module per job:

* :mod:`~mrclens.stats.heuristics.first_k` – (a) the first ``k`` tokens of the first unit;
* :mod:`~mrclens.stats.heuristics.answer_type` – the answer type a question asks for;
* :mod:`~mrclens.stats.heuristics.candidates` – typed candidate spans of a unit, by patterns;
* :mod:`~mrclens.stats.heuristics.type_matched` – (b) the span of the expected type in the
  TF-IDF-most-similar unit (Weissenborn et al. 2017);
* :mod:`~mrclens.stats.heuristics.sliding_window` – (c) the sliding window of Richardson et
  al. 2013 (MCTest);
* :mod:`~mrclens.stats.heuristics.upper_bound` – the best span inside the chosen unit;
* :mod:`~mrclens.stats.heuristics.passage` – :class:`PassageIndex`, the per-context work shared
  by all of them, which :mod:`mrclens.stats.core` calls.
"""

from mrclens.stats.heuristics.first_k import first_k_prediction
from mrclens.stats.heuristics.passage import PassageIndex
from mrclens.stats.heuristics.upper_bound import best_span_prediction

__all__ = ["PassageIndex", "best_span_prediction", "first_k_prediction"]
