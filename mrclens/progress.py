"""Progress of long loops: a tqdm bar on a terminal, short log lines otherwise.

:func:`progress` replaces ``tqdm(...)`` everywhere in MRCLens. What it returns depends on where
standard error goes:

* a terminal: a tqdm bar (redrawn in place with carriage returns);
* anything else (a file, a pipe, a CI log): no bar; instead INFO records on the
  ``mrclens.progress`` logger (:mod:`mrclens.logs`), one every :data:`LINE_INTERVAL_S` seconds
  (``$MRCLENS_PROGRESS_INTERVAL`` overrides it) and one when the loop ends, e.g.::

      perturbing: 1,204/4,317 paragraph (28%), 30 s
      perturbing: done, 4,317 paragraph in 101.2 s

  so a redirected log holds readable lines, never bar redraws. A loop that ends within the
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
import os
import sys
import time
from typing import Any, Iterable, Iterator

log = logging.getLogger("mrclens.progress")

#: Seconds between two progress lines when standard error is not a terminal.
LINE_INTERVAL_S = 30.0
#: Environment variable overriding :data:`LINE_INTERVAL_S` (seconds, a number).
INTERVAL_ENV = "MRCLENS_PROGRESS_INTERVAL"


def progress(iterable: Iterable | None = None, *, total: int | None = None, desc: str = "", unit: str = "it",
             enabled: bool | None = True, leave: bool = False) -> Any:
    """A progress reporter over ``iterable`` (or for manual ``update`` calls when it is ``None``).

    Args:
        iterable: what to iterate over, or ``None``.
        total: the expected number of items (default ``len(iterable)`` when it has one).
        desc: the label (``"parsing"``, ``"epoch 1/10"`` …).
        unit: the unit of one item (``"q"``, ``"paragraph"`` …).
        enabled: ``False`` reports nothing; ``True`` or ``None`` report as described in the module.
        leave: on a terminal, leave the finished bar on screen.
    """
    if enabled is False or silenced():
        return _Silent(iterable)
    if _stderr_is_terminal():
        from tqdm import tqdm

        return tqdm(iterable, total=total, desc=desc, unit=unit, leave=leave)
    return _Lines(iterable, total, desc, unit, _interval())


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


def _interval() -> float:
    try:
        return max(0.0, float(os.environ.get(INTERVAL_ENV, LINE_INTERVAL_S)))
    except ValueError:
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

    def __init__(self, iterable: Iterable | None, total: int | None, desc: str, unit: str, interval: float):
        super().__init__(iterable)
        if total is None and iterable is not None and hasattr(iterable, "__len__"):
            total = len(iterable)  # type: ignore[arg-type]
        self.total, self.desc, self.unit, self.interval = total, desc or "progress", unit, interval
        self.postfix = ""
        self.start = self.last = time.monotonic()
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
        now = time.monotonic()
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
        seconds = time.monotonic() - self.start
        level = logging.INFO if seconds >= self.interval else logging.DEBUG
        if self.total and self.n < self.total:  # left early (an error, or a loop that stopped on purpose)
            log.log(level, f"{self.desc}: stopped at {self.n:,}/{self.total:,} {self.unit} after {seconds:.1f} s{extra}")
        else:
            log.log(level, f"{self.desc}: done, {self.n:,} {self.unit} in {seconds:.1f} s{extra}")

    def _line(self, now: float) -> str:
        done = f"{self.n:,}/{self.total:,} {self.unit} ({100 * self.n / self.total:.0f}%)" if self.total else f"{self.n:,} {self.unit}"
        extra = f", {self.postfix}" if self.postfix else ""
        return f"{self.desc}: {done}, {now - self.start:.0f} s{extra}"
