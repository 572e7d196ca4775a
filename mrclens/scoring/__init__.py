"""Scoring: predictions on the perturbed sets → EM/F1, F1 drops with CIs, readings.

One module per step, in the order the data flows (the official EM/F1 and the bootstrap it
uses live one floor down, in :mod:`mrclens.metrics`):

* :mod:`mrclens.scoring.sets` — per-question scores of one set's predictions, as the set's task
  scores them (official EM/F1 for span extraction, accuracy for multiple choice);
* :mod:`mrclens.scoring.drops` — F1 drop per ablation and per bias category;
* :mod:`mrclens.scoring.replicates` — the drops combined over several draws × readers;
* :mod:`mrclens.scoring.readings` — plain-language readings and evidence levels;
* :mod:`mrclens.scoring.evaluate` — the entry point, :func:`~mrclens.scoring.evaluate.evaluate_perturbed`:
  a perturbed directory plus one prediction file per set → results and per-question scores.

This package writes no file: :func:`mrclens.publish.write_outputs` writes what it computed.
"""
