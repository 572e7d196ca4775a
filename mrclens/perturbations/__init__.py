"""MRCLens ablations (e1–e8) and the perturbation driver. See :mod:`mrclens.perturbations.registry`."""
