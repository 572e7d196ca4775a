"""A cross-validation split of one multiple-choice file, seeded (issue 20): :func:`make_folds`.

Reading data, and the official CODAH split (``cv_split/fold_k/``), is :mod:`mrclens.formats.multiple_choice`'s.
"""

from __future__ import annotations

import numpy as np

from mrclens.errors import MRCLensError
from mrclens.formats.multiple_choice import Fold, MCDataset


def make_folds(dataset: MCDataset, n_folds: int = 5, seed: int = 0) -> list[Fold]:
    """A cross-validation split of one file in the proportions of CODAH's official split (3/5 train,
    1/5 dev, 1/5 test for 5 folds): the questions, in a seeded random order (numpy
    ``default_rng(seed)``), are cut into ``n_folds`` parts; fold ``k`` tests on part ``k``, chooses its
    epoch on part ``k + 1`` (mod ``n_folds``) and trains on the rest. So every question is tested
    exactly once, and the same file and seed give the same folds.

    Raises:
        MRCLensError: ``n_folds < 3``, or fewer questions than ``2 * n_folds``.
    """
    n = len(dataset.questions)
    if n_folds < 3:
        raise MRCLensError(f"n_folds must be at least 3 (train, dev and test parts), got {n_folds}")
    if n < 2 * n_folds:
        raise MRCLensError(f"{dataset.source or 'the dataset'}: {n} questions are too few for {n_folds} folds")
    parts = np.array_split(np.random.default_rng(seed).permutation(n), n_folds)
    qs = dataset.questions

    def take(idx) -> MCDataset:
        return MCDataset([qs[i] for i in sorted(int(j) for j in idx)], dataset.source, dataset.format)

    folds = []
    for k in range(n_folds):
        dev_k = (k + 1) % n_folds
        train_idx = np.concatenate([p for j, p in enumerate(parts) if j not in (k, dev_k)])
        folds.append(Fold(f"fold_{k}", take(train_idx), take(parts[dev_k]), take(parts[k])))
    return folds
