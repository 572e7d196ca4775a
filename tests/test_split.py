from __future__ import annotations

import pytest

from mrclens.defaults import DEFAULT_SEED
from mrclens.errors import MRCLensError
from mrclens.split import split_by_title
from mrclens.formats import load_dataset


def test_split_by_title_is_seeded_and_disjoint(sample_path):
    ds = load_dataset(sample_path)
    train, dev = split_by_title(ds, 0.2, seed=3)
    assert len(dev.articles) == 8 and len(train.articles) == 32
    assert not {a.title for a in train.articles} & {a.title for a in dev.articles}
    again = split_by_title(ds, 0.2, seed=3)[1]
    assert [a.title for a in again.articles] == [a.title for a in dev.articles]
    other = split_by_title(ds, 0.2, seed=4)[1]
    assert [a.title for a in other.articles] != [a.title for a in dev.articles]
    assert train.counts()["questions"] + dev.counts()["questions"] == ds.counts()["questions"]


def test_split_default_seed_is_the_one_default_seed(sample_path):
    ds = load_dataset(sample_path)
    titles = [a.title for a in split_by_title(ds)[1].articles]
    assert titles == [a.title for a in split_by_title(ds, seed=DEFAULT_SEED)[1].articles]
    assert titles != [a.title for a in split_by_title(ds, seed=13)[1].articles]  # 13 was the old default


def test_split_needs_two_articles(sample_path):
    ds = load_dataset(sample_path)
    ds.articles = ds.articles[:1]
    with pytest.raises(MRCLensError, match="at least 2"):
        split_by_title(ds)
