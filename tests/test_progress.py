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


# ---------------------------------------------------------------------------- rate and time left
class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_rate_meter_measures_the_recent_window_and_the_time_left():
    clock = _Clock()
    meter = progress_mod.RateMeter(window=60, clock=clock)
    assert meter.rate() is None and meter.time_left(100) is None  # no time has passed
    for _ in range(120):  # 2 minutes at 200 items/s
        clock.now += 1
        meter.update(meter.samples[-1][1] + 200)
    assert meter.rate() == pytest.approx(200.0)
    for _ in range(68):  # then 1,568 items in 68 s (the slow stretch: 23.1 items/s)
        clock.now += 1
        meter.update(meter.samples[-1][1] + 1568 / 68)
    assert meter.rate() == pytest.approx(1568 / 68)  # not the 131 items/s since the start
    done = meter.samples[-1][1]
    assert meter.time_left(int(done) + 2306) == pytest.approx((int(done) + 2306 - done) / (1568 / 68))
    assert meter.time_left(None) is None
    clock.now += 61
    meter.update(done)  # nothing moved for a minute: no rate to promise a time by
    assert meter.rate() == 0 and meter.time_left(int(done) + 10) is None
    assert len(meter.samples) <= 62  # only the window is kept


def test_progress_lines_show_the_recent_rate_and_the_time_left(monkeypatch, caplog):
    """Issue 44, item 6: training lines showed `ex_s 115.2` (the mean since the start) while 1,568 questions
    took 68 s, and no line said how long was left. A line now gives the rate of the last minute and the
    time left at it; the `done` line the rate of the whole loop."""
    monkeypatch.setattr(progress_mod, "_stderr_is_terminal", lambda: False)
    monkeypatch.setenv(progress_mod.INTERVAL_ENV, "30")
    clock = _Clock()
    with caplog.at_level(logging.INFO, logger="mrclens.progress"):
        bar = progress_mod.progress(total=10_000, desc="epoch 7/10", unit="q", clock=clock)
        for _ in range(60):  # 60 s at 100 q/s
            clock.now += 1
            bar.update(100)
        bar.set_postfix(loss="1.234")
        for _ in range(60):  # 60 s at 20 q/s
            clock.now += 1
            bar.update(20)
        bar.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "mrclens.progress"]
    assert lines[0] == "epoch 7/10: 3,000/10,000 q (30%), 30 s, 100.0 q/s, about 1 min 10 s left"
    assert lines[-2] == "epoch 7/10: 7,200/10,000 q (72%), 120 s, 20.0 q/s, about 2 min 20 s left, loss 1.234"
    assert lines[-1] == "epoch 7/10: stopped at 7,200/10,000 q after 120.0 s (60.0 q/s), loss 1.234"


def test_the_done_line_gives_the_rate_of_the_whole_loop(monkeypatch, caplog):
    monkeypatch.setattr(progress_mod, "_stderr_is_terminal", lambda: False)
    monkeypatch.setenv(progress_mod.INTERVAL_ENV, "0")
    clock = _Clock()
    with caplog.at_level(logging.INFO, logger="mrclens.progress"):
        for _ in progress_mod.progress(range(4), desc="parsing", unit="text", clock=clock):
            clock.now += 0.5
    lines = [r.getMessage() for r in caplog.records if r.name == "mrclens.progress"]
    assert lines[0] == "parsing: 1/4 text (25%), 0 s"  # half a second: too short to measure a rate over
    assert lines[1] == "parsing: 2/4 text (50%), 1 s, 2.0 text/s, about 1 s left"
    assert lines[-1] == "parsing: done, 4 text in 2.0 s (2.0 text/s)"
