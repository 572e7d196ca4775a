"""mrclens.progress: other libraries' tqdm bars follow MRCLens's rule inside ``library_bars`` (issue 44,
item 6); the rate and time left of progress lines, measured with a fake clock."""

from __future__ import annotations

import io
import logging

import pytest

from mrclens import progress as progress_mod

tqdm_std = pytest.importorskip("tqdm.std")


class _LibraryBar(tqdm_std.tqdm):
    """A library's own bar class, as datasets and huggingface_hub subclass tqdm."""


def _open_bar(**kwargs):
    return _LibraryBar(range(3), file=io.StringIO(), **kwargs)


def test_library_bars_are_off_unless_mrclens_would_show_a_bar(monkeypatch):
    original = tqdm_std.tqdm.__dict__["__init__"]
    monkeypatch.setattr(progress_mod, "_stderr_is_terminal", lambda: False)
    with progress_mod.library_bars():
        assert _open_bar().disable  # not a terminal: off
        monkeypatch.setattr(progress_mod, "_stderr_is_terminal", lambda: True)
        bar = _open_bar()
        assert not bar.disable  # a terminal: shown
        bar.close()
        logger = logging.getLogger("mrclens")
        old = logger.level
        logger.setLevel(logging.WARNING)  # -q
        try:
            assert _open_bar().disable
        finally:
            logger.setLevel(old)
    assert tqdm_std.tqdm.__dict__["__init__"] is original  # put back
    monkeypatch.setattr(progress_mod, "_stderr_is_terminal", lambda: False)
    bar = _open_bar()
    assert not bar.disable  # outside: tqdm as it is
    bar.close()
