"""The metrics floor: the numbers every stage above needs, and nothing else.

* :mod:`mrclens.metrics.official` — the official SQuAD v1.1/v2.0 answer normalisation, EM and F1,
  per question and per set (Rajpurkar et al. 2016, 2018; the official evaluation scripts);
* :mod:`mrclens.metrics.no_answer` — SQuAD v2.0 no-answer threshold math (``best_f1_thresh``);
* :mod:`mrclens.metrics.bootstrap` — paired bootstrap percentile intervals (Efron & Tibshirani 1993).

It stands below ``formats``, ``perturbations``, ``stats``, ``baseline_model`` and ``scoring``
(the import contract in ``setup.cfg`` states the floors), and imports only the data objects
(:mod:`mrclens.squad`), the artifact types and the ground modules.
"""
