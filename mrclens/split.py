"""Title-level train/dev split of one SQuAD file, for users who have a single file.

Articles (titles) are shuffled with a seeded generator and cut, so no article is on
both sides — splitting by question would leak passages from train into dev.
"""

from __future__ import annotations

import random

from mrclens.defaults import DEFAULT_SEED
from mrclens.errors import MRCLensError
from mrclens.squad import Dataset


def split_by_title(dataset: Dataset, dev_fraction: float = 0.2, seed: int = DEFAULT_SEED) -> tuple[Dataset, Dataset]:
    """Split ``dataset`` into ``(train, dev)`` by article.

    Articles are shuffled with ``random.Random(seed)``; dev receives the first
    ``round(dev_fraction * n_articles)`` of them (at least one, at most all but one), train
    the rest. Both parts keep the original file order of their articles. Same seed, same split.

    Args:
        dataset: the data to split.
        dev_fraction: share of the articles (not questions) that go to dev, in (0, 1).
        seed: seed of the shuffle (default :data:`mrclens.defaults.DEFAULT_SEED`).

    Returns:
        ``(train, dev)``, two :class:`~mrclens.squad.Dataset` with ``dataset``'s version and source.

    Raises:
        MRCLensError: fewer than two articles, or ``dev_fraction`` not in (0, 1).
    """
    if not 0.0 < dev_fraction < 1.0:
        raise MRCLensError(f"dev fraction must be between 0 and 1, got {dev_fraction}")
    n = len(dataset.articles)
    if n < 2:
        raise MRCLensError(f"{dataset.source}: cannot split by title: the file has {n} article(s); at least 2 are needed")
    order = list(range(n))
    random.Random(seed).shuffle(order)
    n_dev = min(n - 1, max(1, round(dev_fraction * n)))
    dev_idx = set(order[:n_dev])
    train = Dataset([a for i, a in enumerate(dataset.articles) if i not in dev_idx], dataset.version, dataset.source)
    dev = Dataset([a for i, a in enumerate(dataset.articles) if i in dev_idx], dataset.version, dataset.source)
    return train, dev
