"""Seeded cross-validation folds of one multiple-choice file (issue 20; mrclens.multiple_choice.folds)."""

from __future__ import annotations

import pytest

from mrclens.errors import MRCLensError
from mrclens.multiple_choice.folds import make_folds


@pytest.fixture(scope="module")
def codah(codah_full):
    return codah_full


def test_seeded_folds_test_every_question_once(codah):
    folds = make_folds(codah, 5, seed=3)
    assert [(len(f.train), len(f.dev), len(f.test)) for f in folds][0] == (1665, 555, 556)  # parts of 556, 555 x 4
    assert sorted(q for f in folds for q in f.test.ids()) == sorted(codah.ids())
    for f in folds:
        assert not set(f.train.ids()) & (set(f.dev.ids()) | set(f.test.ids()))
        assert not set(f.dev.ids()) & set(f.test.ids())
    again = make_folds(codah, 5, seed=3)
    assert [f.test.ids() for f in again] == [f.test.ids() for f in folds]
    assert [f.test.ids() for f in make_folds(codah, 5, seed=4)] != [f.test.ids() for f in folds]
    with pytest.raises(MRCLensError, match="at least 3"):
        make_folds(codah, 2)
