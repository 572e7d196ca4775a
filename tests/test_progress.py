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
    assert lines[1] == "parsing: 2/4 text (50%), 1 s, 2.0 text/s"  # too early for a time left (issue 55, item 14)
    assert lines[-1] == "parsing: done, 4 text in 2.0 s (2.0 text/s)"


# ---------------------------------------------------------------------------- issue 55, item 14
def test_a_parse_that_finishes_ends_with_done_not_stopped_one_short(monkeypatch, caplog, tmp_path):
    """Every successful parse ended with "stopped at N-1/N": parsing zipped its list of texts before the bar, so
    the bar never counted the last text."""
    pytest.importorskip("spacy")
    from mrclens.parsing import parse_texts

    monkeypatch.setattr(progress_mod, "_stderr_is_terminal", lambda: False)
    monkeypatch.setenv(progress_mod.INTERVAL_ENV, "0")
    texts = ["Super Bowl 50 was an American football game.", "The Broncos defeated the Panthers.",
             "Which NFL team represented the AFC at Super Bowl 50?"]
    with caplog.at_level(logging.DEBUG, logger="mrclens.progress"):
        parse_texts(texts, sentences=True, cache_dir=False, progress=True)
    lines = [r.getMessage() for r in caplog.records if r.name == "mrclens.progress"]
    assert lines[-1].startswith("parsing: done, 3 text in "), lines
    assert not any("stopped at" in line for line in lines)


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-5", "abc"])
def test_an_interval_that_is_not_a_number_of_seconds_warns_once_and_uses_the_default(monkeypatch, caplog, value):
    """`MRCLENS_PROGRESS_INTERVAL=nan` logged a line at every step (max(0, nan) is 0)."""
    monkeypatch.setattr(progress_mod, "_stderr_is_terminal", lambda: False)
    monkeypatch.setattr(progress_mod, "_warned_interval", set())
    monkeypatch.setenv(progress_mod.INTERVAL_ENV, value)
    clock = _Clock()
    with caplog.at_level(logging.INFO, logger="mrclens.progress"):
        for _ in range(2):
            bar = progress_mod.progress(total=1000, desc="parsing", unit="text", clock=clock)
            for _ in range(100):  # 10 s in steps of 0.1 s: under the default 30 s interval
                clock.now += 0.1
                bar.update(1)
            bar.close()
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and progress_mod.INTERVAL_ENV in warnings[0] and repr(value) in warnings[0]
    assert "every 30 s" in warnings[0]
    lines = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    assert lines == [], lines  # no line at every step: the default interval


def test_a_valid_interval_is_used_as_it_is(monkeypatch):
    for value, seconds in (("0", 0.0), ("2.5", 2.5), (" 10 ", 10.0), ("", progress_mod.LINE_INTERVAL_S)):
        monkeypatch.setenv(progress_mod.INTERVAL_ENV, value)
        assert progress_mod._interval() == seconds


def test_no_time_left_before_enough_time_and_items(monkeypatch, caplog):
    """The first estimate of a parse (a batch of 256 texts comes out at once after the first second) read a few
    seconds where minutes were left: no time left before 5 s and 5 % of the items (or a whole rate window)."""
    monkeypatch.setattr(progress_mod, "_stderr_is_terminal", lambda: False)
    monkeypatch.setenv(progress_mod.INTERVAL_ENV, "1")
    clock = _Clock()
    with caplog.at_level(logging.INFO, logger="mrclens.progress"):
        bar = progress_mod.progress(total=100_000, desc="parsing", unit="text", clock=clock)
        clock.now += 1.0
        bar.update(256)  # the first batch, after a second: 256 text/s would promise 6 min 30 s
        for _ in range(119):  # then 20 text/s: 1 h 21 min left at the end
            clock.now += 1.0
            bar.update(20)
        bar.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "mrclens.progress"]
    assert all("left" not in line for line in lines[:4]), lines[:4]  # under 5 s
    assert "left" not in lines[10]  # 11 s, 0.5 % done: not yet
    assert lines[59].startswith("parsing: 1,436/100,000 text (1%), 60 s") and "left" in lines[59]
    assert lines[-2].endswith("20.0 text/s, about 1 h 21 min left")
