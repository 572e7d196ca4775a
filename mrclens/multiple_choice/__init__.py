"""Multiple-choice datasets (CODAH-style; issue 20): the second task type of MRCLens.

The same steps as the span audit — load, perturb, train, predict, score, report — with their own
data type and readers (:mod:`mrclens.formats.multiple_choice`, beside the span formats), folds
(:mod:`.folds`), ablations (:mod:`.ablations`, :mod:`.perturb`), baseline (:mod:`.model`,
:mod:`.train`), model-free statistics (:mod:`.stats`) and audit (:mod:`mrclens.audit.multiple_choice`);
scoring goes through the span audit's code (:mod:`mrclens.scoring.drops`) with accuracy as the
per-question score. Heavy parts (torch, spaCy) are imported by those modules, not here.
"""
