"""Logging: every message MRCLens prints while working goes through the standard :mod:`logging` module.

The loggers are ``mrclens`` and its children (``mrclens.audit``, ``mrclens.train``,
``mrclens.progress`` …). As a library, MRCLens only adds a :class:`logging.NullHandler` to
``mrclens``: nothing is printed unless the application configures logging, and an application
silences or redirects MRCLens the usual way::

    import logging
    logging.getLogger("mrclens").setLevel(logging.WARNING)      # silence (progress bars too)
    logging.getLogger("mrclens").addHandler(logging.FileHandler("mrclens.log"))   # redirect

The ``mrclens`` command line calls :func:`configure_cli_logging`: one handler writing to
standard error, level INFO by default, WARNING with ``-q`` and DEBUG with ``-v``. Results go to
standard output; log lines and progress to standard error.
"""

from __future__ import annotations

import logging
import sys

#: The root logger of the package; every module logs to a child of it.
LOGGER_NAME = "mrclens"

logging.getLogger(LOGGER_NAME).addHandler(logging.NullHandler())

#: Verbosity → level of the ``mrclens`` logger: ``-q`` → -1, neither → 0, ``-v`` → 1.
LEVELS = {-1: logging.WARNING, 0: logging.INFO, 1: logging.DEBUG}


def get_logger(name: str) -> logging.Logger:
    """The logger of a module: ``get_logger(__name__)`` gives ``mrclens.<module>``."""
    return logging.getLogger(name if name == LOGGER_NAME or name.startswith(LOGGER_NAME + ".") else f"{LOGGER_NAME}.{name}")


class _StderrHandler(logging.StreamHandler):
    """A handler writing to whatever ``sys.stderr`` is when a record is emitted (so that click's
    test runner, which swaps ``sys.stderr``, captures it)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self):  # noqa: D401 - property
        return sys.stderr

    @stream.setter
    def stream(self, value) -> None:  # StreamHandler.__init__ assigns it; the property always reads sys.stderr
        pass


class _CliFormatter(logging.Formatter):
    """INFO: the message alone; WARNING and above: ``warning: …``/``error: …``; DEBUG: ``debug [logger]: …``."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            message = f"{message}\n{record.exc_text}"
        if record.levelno >= logging.ERROR:
            return f"error: {message}"
        if record.levelno >= logging.WARNING:
            return f"warning: {message}"
        if record.levelno < logging.INFO:
            return f"debug [{record.name}]: {message}"
        return message


def configure_cli_logging(verbosity: int = 0) -> logging.Handler:
    """Set up logging for the command line: one handler on the ``mrclens`` logger, writing to stderr.

    Args:
        verbosity: -1 (``-q``: warnings and errors only, no progress), 0 (progress and step
            messages), 1 or more (``-v``: also debug messages).

    Returns:
        the handler (installed once; a second call only changes the level).
    """
    logger = logging.getLogger(LOGGER_NAME)
    handler = next((h for h in logger.handlers if isinstance(h, _StderrHandler)), None)
    if handler is None:
        handler = _StderrHandler()
        handler.setFormatter(_CliFormatter())
        logger.addHandler(handler)
    logger.setLevel(LEVELS[max(-1, min(1, verbosity))])
    return handler


def logging_state() -> tuple[int, list[logging.Handler]]:
    """The level and handlers of the ``mrclens`` logger, for :func:`restore_logging_state`."""
    logger = logging.getLogger(LOGGER_NAME)
    return logger.level, list(logger.handlers)


def restore_logging_state(state: tuple[int, list[logging.Handler]]) -> None:
    """Put back what :func:`logging_state` saved (the command line does when a command ends, so that
    running ``mrclens`` inside a Python process leaves that process's logging as it was)."""
    logger = logging.getLogger(LOGGER_NAME)
    logger.setLevel(state[0])
    logger.handlers[:] = state[1]
