"""Progress of long loops: a tqdm bar on a terminal, short log lines otherwise.

:func:`progress` replaces ``tqdm(...)`` everywhere in MRCLens. What it returns depends on where
standard error goes:

* a terminal: a tqdm bar (redrawn in place with carriage returns);
* anything else (a file, a pipe, a CI log): no bar; instead INFO records on the
  ``mrclens.progress`` logger (:mod:`mrclens.logs`), one every :data:`LINE_INTERVAL_S` seconds
  (``$MRCLENS_PROGRESS_INTERVAL`` overrides it) and one when the loop ends, e.g.::

      perturbing: 1,204/4,317 paragraph (28%), 30 s, 40.1 paragraph/s, about 1 min 18 s left
      perturbing: done, 4,317 paragraph in 101.2 s (42.7 paragraph/s)

  so a redirected log holds readable lines, never bar redraws. The rate is measured over the last
  :data:`RATE_WINDOW_S` seconds (:class:`RateMeter`), not since the start, so a slower stretch shows at
  once, and the time left is what remains at that rate, given only once :data:`ETA_MIN_SECONDS` have
  passed and :data:`ETA_MIN_FRACTION` of the items are done (a bar on a terminal shows tqdm's own).
  ``$MRCLENS_PROGRESS_INTERVAL`` is a number of seconds, 0 or more (0: a line at every step); any other
  value (``nan``, ``inf``, ``-5``, ``abc``) is ignored with one warning naming it, and the default
  interval is used. A loop that ends within the
  interval logs its one ``done`` line at DEBUG (shown with ``-v``), so that many short loops do
  not fill the log;
* nothing at all when ``enabled`` is false, or when the ``mrclens`` (or ``mrclens.progress``)
  logger has been set above INFO (``-q`` on the command line, or
  ``logging.getLogger("mrclens").setLevel(logging.WARNING)`` in a program).

The returned object supports what MRCLens uses of tqdm: iteration, ``update(n)``,
``set_postfix(**values)``, ``close()`` and ``with``.

Other libraries' bars (``datasets``' "Saving the dataset", ``huggingface_hub`` …, all tqdm) follow the
same rule while :func:`library_bars` is active, as it is around every ``mrclens`` command: shown on a
terminal, off under ``-q`` and when standard error is not a terminal (a log file, a CI job).
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import sys
import time
from collections import deque
from typing import Any, Callable, Iterable, Iterator

log = logging.getLogger("mrclens.progress")

#: Seconds between two progress lines when standard error is not a terminal.
LINE_INTERVAL_S = 30.0
#: Environment variable overriding :data:`LINE_INTERVAL_S` (seconds, a number).
INTERVAL_ENV = "MRCLENS_PROGRESS_INTERVAL"
#: Seconds of the most recent progress over which a progress line's rate (and so its time left) is measured.
RATE_WINDOW_S = 60.0
#: A progress line gives a time left only once this many seconds have passed since the loop began ...
ETA_MIN_SECONDS = 5.0
#: ... and this fraction of the items is done (or a whole :data:`RATE_WINDOW_S` has passed): the first
#: seconds of a loop (a batch parsed before its first item comes out, a model warming up) give a rate,
#: and so a time left, that is far off.
ETA_MIN_FRACTION = 0.05


class RateMeter:
    """Items per second over the last ``window`` seconds, and the time left at that rate.

    :meth:`update` is given the count done so far; :meth:`rate` divides what was done within the window
    by the time it took, so the rate follows the work as it goes (a stretch that slows down shows at
    once), unlike the count since the start divided by the time since the start.

    Args:
        window: seconds of recent progress to measure over.
        clock: the clock (seconds; :func:`time.monotonic`), replaceable in tests.
        min_seconds: the shortest stretch a rate is measured over (shorter: no rate, rather than a
            rate of a few microseconds).

    >>> now = [0.0]
    >>> meter = RateMeter(window=10, clock=lambda: now[0])
    >>> for t in range(1, 21):  # 20 items/s for 10 s, then 5 items/s
    ...     now[0] = float(t)
    ...     meter.update(20 * t if t <= 10 else 200 + 5 * (t - 10))
    >>> meter.rate(), meter.time_left(total=300)
    (5.0, 10.0)
    """

    def __init__(self, window: float = RATE_WINDOW_S, clock: Callable[[], float] = time.monotonic,
                 min_seconds: float = 1.0) -> None:
        self.window, self.clock, self.min_seconds = window, clock, min_seconds
        self.samples: deque[tuple[float, int]] = deque([(clock(), 0)])

    def update(self, done: int) -> None:
        """Record that ``done`` items are done now."""
        now = self.clock()
        self.samples.append((now, done))
        while len(self.samples) > 2 and self.samples[1][0] <= now - self.window:
            self.samples.popleft()  # keep one sample at or before the window's start

    def rate(self) -> float | None:
        """Items per second over the window (``None`` before ``min_seconds`` have passed)."""
        (t0, n0), (t1, n1) = self.samples[0], self.samples[-1]
        return (n1 - n0) / (t1 - t0) if t1 - t0 >= self.min_seconds and t1 > t0 else None

    def time_left(self, total: int | None) -> float | None:
        """Seconds to reach ``total`` at :meth:`rate` (``None``: no total, no rate yet, or nothing moving)."""
        rate = self.rate()
        if total is None or not rate or rate <= 0:
            return None
        return max(0, total - self.samples[-1][1]) / rate


def format_duration(seconds: float) -> str:
    """A duration for people: ``"45 s"``, ``"3 min 05 s"``, ``"2 h 07 min"``.

    >>> format_duration(44.6), format_duration(185), format_duration(7640)
    ('45 s', '3 min 05 s', '2 h 07 min')
    """
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def progress(iterable: Iterable | None = None, *, total: int | None = None, desc: str = "", unit: str = "it",
             enabled: bool | None = True, leave: bool = False, clock: Callable[[], float] | None = None) -> Any:
    """A progress reporter over ``iterable`` (or for manual ``update`` calls when it is ``None``).

    Args:
        iterable: what to iterate over, or ``None``.
        total: the expected number of items (default ``len(iterable)`` when it has one).
        desc: the label (``"parsing"``, ``"epoch 1/10"`` …).
        unit: the unit of one item (``"q"``, ``"paragraph"`` …).
        enabled: ``False`` reports nothing; ``True`` or ``None`` report as described in the module.
        leave: on a terminal, leave the finished bar on screen.
        clock: the clock of the progress lines (seconds; default :func:`time.monotonic`), for tests.
    """
    if enabled is False or silenced():
        return _Silent(iterable)
    if _stderr_is_terminal():
        from tqdm import tqdm

        return tqdm(iterable, total=total, desc=desc, unit=unit, leave=leave)
    return _Lines(iterable, total, desc, unit, _interval(), clock or time.monotonic)


def silenced() -> bool:
    """Whether a level above INFO was set on ``mrclens.progress`` or ``mrclens`` (not counting the root logger)."""
    logger: logging.Logger | None = log
    while logger is not None and logger.name.startswith("mrclens"):
        if logger.level != logging.NOTSET:
            return logger.level > logging.INFO
        logger = logger.parent
    return False


def library_bars_wanted() -> bool:
    """Whether another library's progress bar may show now: where MRCLens's own would be a bar (standard
    error is a terminal and progress is not :func:`silenced`)."""
    return not silenced() and _stderr_is_terminal()


#: tqdm's positional parameters before ``disable`` (iterable, desc, total, leave, file, ncols, mininterval,
#: maxinterval, miniters, ascii): a call passing ``disable`` by position is left alone.
_TQDM_BEFORE_DISABLE = 10


@contextlib.contextmanager
def library_bars() -> Iterator[None]:
    """While inside, every tqdm bar another library opens (``datasets``, ``huggingface_hub`` …: they all
    subclass ``tqdm.std.tqdm``) is turned off (``disable=True``) unless :func:`library_bars_wanted` when it
    opens. tqdm's own switches (``TQDM_DISABLE``, ``HF_DATASETS_DISABLE_PROGRESS_BARS``) are read once when
    the library is imported, so they cannot follow ``-q``; this wraps ``tqdm.std.tqdm.__init__`` instead and
    puts it back on leaving. Nothing is imported when tqdm is not installed.
    """
    try:
        from tqdm import std
    except ImportError:
        yield
        return
    original = std.tqdm.__dict__["__init__"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if len(args) <= _TQDM_BEFORE_DISABLE and not library_bars_wanted():
            kwargs["disable"] = True
        original.__get__(self, type(self))(*args, **kwargs)

    std.tqdm.__init__ = __init__
    try:
        yield
    finally:
        std.tqdm.__init__ = original


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (AttributeError, ValueError):  # closed or replaced by an object without isatty
        return False


_warned_interval: set[str] = set()


def _interval() -> float:
    """:data:`LINE_INTERVAL_S`, or ``$MRCLENS_PROGRESS_INTERVAL`` when it is a finite number of seconds, 0 or
    more; another value gets one warning (per value and process) and the default: a progress line is no
    reason to stop a long run, and ``nan`` or a negative number must not log a line at every step."""
    text = os.environ.get(INTERVAL_ENV)
    if text is None or not text.strip():
        return LINE_INTERVAL_S
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if math.isfinite(seconds) and seconds >= 0:
        return seconds
    if text not in _warned_interval:
        _warned_interval.add(text)
        log.warning(f"${INTERVAL_ENV}={text!r} is not a number of seconds (a finite number, 0 or more); "
                    f"progress lines come every {LINE_INTERVAL_S:g} s")
    return LINE_INTERVAL_S


class _Silent:
    """Reports nothing; iterates over the iterable unchanged."""

    def __init__(self, iterable: Iterable | None):
        self.iterable = iterable
        self.n = 0

    def __iter__(self):
        return iter(self.iterable if self.iterable is not None else ())

    def update(self, n: int = 1) -> None:
        self.n += n

    def set_postfix(self, *args: Any, **kwargs: Any) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class _Lines(_Silent):
    """Logs one INFO line every ``interval`` seconds and one at the end; never a carriage return."""

    def __init__(self, iterable: Iterable | None, total: int | None, desc: str, unit: str, interval: float,
                 clock: Callable[[], float] = time.monotonic):
        super().__init__(iterable)
        if total is None and iterable is not None and hasattr(iterable, "__len__"):
            total = len(iterable)  # type: ignore[arg-type]
        self.total, self.desc, self.unit, self.interval = total, desc or "progress", unit, interval
        self.postfix = ""
        self.clock = clock
        self.start = self.last = clock()
        self.meter = RateMeter(clock=clock)
        self.closed = False

    def __iter__(self):
        try:
            for item in super().__iter__():
                yield item
                self.update(1)
        finally:
            self.close()

    def update(self, n: int = 1) -> None:
        self.n += n
        self.meter.update(self.n)
        now = self.meter.samples[-1][0]
        if now - self.last >= self.interval:
            self.last = now
            log.info(self._line(now))

    def set_postfix(self, *args: Any, **kwargs: Any) -> None:
        values = dict(args[0]) if args and isinstance(args[0], dict) else {}
        values.update(kwargs)
        self.postfix = ", ".join(f"{k} {v}" for k, v in values.items())

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        extra = f", {self.postfix}" if self.postfix else ""
        seconds = self.clock() - self.start
        level = logging.INFO if seconds >= self.interval else logging.DEBUG
        rate = f" ({self.n / seconds:.1f} {self.unit}/s)" if seconds >= self.meter.min_seconds and self.n else ""
        if self.total and self.n < self.total:  # left early (an error, or a loop that stopped on purpose)
            log.log(level, f"{self.desc}: stopped at {self.n:,}/{self.total:,} {self.unit} after {seconds:.1f} s{rate}{extra}")
        else:
            log.log(level, f"{self.desc}: done, {self.n:,} {self.unit} in {seconds:.1f} s{rate}{extra}")

    def _line(self, now: float) -> str:
        """``desc: done/total unit (pct%), elapsed s, rate unit/s, about T left, postfix``: the rate over the
        last :data:`RATE_WINDOW_S` seconds and the time left at it (:class:`RateMeter`)."""
        done = f"{self.n:,}/{self.total:,} {self.unit} ({100 * self.n / self.total:.0f}%)" if self.total else f"{self.n:,} {self.unit}"
        rate = self.meter.rate()
        speed = f", {rate:.1f} {self.unit}/s" if rate is not None else ""
        elapsed = now - self.start
        settled = elapsed >= ETA_MIN_SECONDS and (
            self.n >= ETA_MIN_FRACTION * (self.total or 0) or elapsed >= RATE_WINDOW_S)
        left = self.meter.time_left(self.total) if settled else None
        eta = f", about {format_duration(left)} left" if left is not None and self.n < (self.total or 0) else ""
        extra = f", {self.postfix}" if self.postfix else ""
        return f"{self.desc}: {done}, {now - self.start:.0f} s{speed}{eta}{extra}"
