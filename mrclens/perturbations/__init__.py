"""MRCLens ablations (e1–e10, with the matched controls) and the perturbation driver.

* :mod:`mrclens.perturbations.registry` — the ablation registry (``ABLATIONS``; each category's ablations:
  :attr:`mrclens.categories.BiasCategory.ablations`).
* :mod:`mrclens.perturbations.ablations` — one module per ablation, with its rule.
* :mod:`mrclens.perturbations.truncation` — the truncated evaluation set.
* :func:`perturb_dataset` — write all sets and ``manifest.json``.
* :func:`load_plugin_ablations` — the ablations of installed plug-ins (:mod:`mrclens.plugins`).

Source: Zhong, Wang & Xing, "MRCLens: an MRC Dataset Bias Detection Toolkit", DataPerf@ICML 2022;
e9 (Position) and e10 (decoy statement): MRCLens issue 17.
"""

from mrclens.perturbations.registry import ABLATIONS, BASELINE_SET, Ablation, register  # noqa: F401
from mrclens.perturbations.driver import perturb_dataset, resolve_ablations, to_jsonl  # noqa: F401
from mrclens.perturbations.registry import load_plugin_ablations

# Installed packages' ablations (entry-point group ``mrclens_ablations``) join the registry last, once
# the names above exist, so that a plug-in may import them (mrclens.plugins).
load_plugin_ablations()

__all__ = ["ABLATIONS", "BASELINE_SET", "Ablation", "load_plugin_ablations", "perturb_dataset", "register",
           "resolve_ablations", "to_jsonl"]
