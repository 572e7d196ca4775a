"""The ``mrclens`` command line: one click group, commands registered in one place.

Each command lives in its own module and is a thin wrapper: it parses options and
calls one library function. Exit codes are those of :mod:`mrclens.errors`: errors that MRCLens
raises on purpose about its input (:class:`~mrclens.errors.MRCLensError`) are printed as plain
lines, without a traceback, and exit with status 2; a bug (:class:`~mrclens.errors.InternalError`
or any unexpected exception) prints one line saying so and where the full traceback was
written (:func:`write_crash_log`), and exits with status 3. A command run with ``--json`` also prints
each error (bad input, a usage error, a bug, an interruption) as one JSON object on standard output,
``{"error": message, "exit_code": N}`` (:func:`json_error`), so a script reading standard output always
gets JSON. Ctrl-C prints one line,
``interrupted``, and exits with status 130; a closed standard output (a broken pipe, as in
``mrclens validate FILE | head -1``) exits quietly with status 141 (Unix conventions: 128 + the
signal's number). A fault of the machine while writing — a full disk (ENOSPC) or a failing device (EIO),
on standard output (``mrclens validate FILE > /dev/full``) or a file — is not a bug either: one line
``cannot write …: reason`` naming standard output or the file, exit status 2, no crash log
(:func:`environment_fault`). Partial outputs are not left behind either way: every file is written to a
temporary name and moved into place (:mod:`mrclens.io_utils`), and a folder a failed run created is
removed.

Every command runs the shared pre-flight checks of :mod:`mrclens.cli.preflight` (output folder,
output files, reference, cache directory, text that is not UTF-8) after its options are parsed and
before it starts any work.

Listing the commands (``mrclens --help``) and each command's ``--help`` import no torch, pandas,
scikit-learn or SciPy: command modules import those inside the command function (tested in
``tests/cli/test_cli_conventions.py``). Shared options (``-v``/``-q``, ``--config``) are in
:mod:`mrclens.cli.options`; logging and progress in :mod:`mrclens.logs` and :mod:`mrclens.progress`.
"""

from __future__ import annotations

import datetime as _dt
import difflib
import errno
import functools
import importlib
import json
import os
import sys
import tempfile
import traceback
from pathlib import Path

import click

from mrclens import __version__
from mrclens.cli.options import verbosity_options
from mrclens.cli.preflight import install as install_preflight
from mrclens.progress import library_bars
from mrclens.errors import EXIT_BAD_INPUT, EXIT_BROKEN_PIPE, EXIT_INTERNAL, EXIT_INTERRUPTED, MRCLensError, Msg

#: Where crash logs go: ``$MRCLENS_CRASH_DIR`` if set, else the system temporary directory.
CRASH_DIR_ENV = "MRCLENS_CRASH_DIR"


#: The command registry, filled in one place: name -> "module:attribute". Commands are imported
#: only when used (click's lazy-loading pattern), so `mrclens validate` does not pay for the
#: imports of other commands, and each command imports its heavy dependencies (torch, spaCy,
#: scikit-learn …) inside the command function, so that its `--help` is cheap too.
COMMANDS = {
    "audit": "mrclens.cli.audit:audit",
    "perturb": "mrclens.cli.perturb:perturb",
    "train": "mrclens.cli.train:train",
    "predict": "mrclens.cli.predict:predict",
    "evaluate": "mrclens.cli.evaluate:evaluate",
    "report": "mrclens.cli.report:report",
    "stats": "mrclens.cli.stats:stats",
    "check": "mrclens.cli.check:check",
    "compare": "mrclens.cli.compare:compare",
    "diff-results": "mrclens.cli.diff_results:diff_results",
    "convert": "mrclens.cli.convert:convert",
    "filter": "mrclens.cli.filter:filter_command",
    "validate": "mrclens.cli.validate:validate",
    "selftest": "mrclens.cli.selftest:selftest",
    "card": "mrclens.cli.card:card",
    "cache": "mrclens.cli.cache:cache",
}

#: One line per command for `mrclens --help` (which imports no command module), also each
#: command's ``short_help``.
SUMMARIES = {
    "audit": "The whole bias audit: perturb, train, predict, score, report.",
    "perturb": "Write the original, truncated and perturbed (e1-e10) sets.",
    "train": "Train the baseline reader.",
    "predict": "Answer every question with a saved reader.",
    "evaluate": "Official EM/F1 of predictions, or any model's bias table.",
    "report": "Rebuild the HTML bias report of an audit.",
    "stats": "Model-free dataset statistics and heuristic baselines.",
    "check": "Pre-training check: pass/fail rules on known shortcuts.",
    "compare": "Datasets and audits side by side, with CIs on the differences.",
    "diff-results": "Do two runs' results differ (times and places aside)?",
    "validate": "Check a SQuAD file's schema; print counts and problems.",
    "convert": "Convert to SQuAD JSON, JSON Lines, parquet or an HF folder.",
    "filter": "Leave out the questions that carry chosen shortcuts.",
    "selftest": "Audit datasets with planted shortcuts; check the verdicts.",
    "card": "Draft a dataset card's bias section and Croissant RAI fields.",
    "cache": "Show (info) or remove (clear) the parse and statistics caches.",
}


class _Group(click.Group):
    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, attr = target.split(":")
        command = _with_library_bars(install_preflight(getattr(importlib.import_module(module), attr)))
        command.short_help = SUMMARIES[name]
        return command

    def resolve_command(self, ctx, args):
        """Click's, plus "did you mean" for a mistyped command (``mrclens stat`` → ``stats``)."""
        name = click.utils.make_str(args[0]) if args else ""
        if name and name not in COMMANDS and not name.startswith("-"):
            close = difflib.get_close_matches(name, list(COMMANDS), n=2, cutoff=0.6)
            if close:
                ctx.fail(f"No such command {name!r}. Did you mean {' or '.join(repr(c) for c in close)}?")
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx, formatter):
        """The command list from :data:`SUMMARIES`, without importing any command module."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, SUMMARIES[name]) for name in self.list_commands(ctx)])

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except MRCLensError as err:
            _fail(ctx, str(err), EXIT_BAD_INPUT)
        except FileNotFoundError as err:
            _fail(ctx, f"file not found: {err.filename}" if err.filename else str(err), EXIT_BAD_INPUT)
        except KeyboardInterrupt:
            _echo_json_error(ctx, "interrupted", EXIT_INTERRUPTED)
            _quiet_stdout()
            click.echo("interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except click.ClickException as err:  # a usage error (bad option, missing argument …): click prints it
            _echo_json_error(ctx, err.format_message(), err.exit_code)
            raise
        except (click.exceptions.Exit, click.Abort, SystemExit):
            raise
        except OSError as err:
            if is_broken_pipe(err):
                _quiet_stdout()
                sys.exit(EXIT_BROKEN_PIPE)
            _exit_on_environment_fault(err, ctx)
            _crash(err, ctx)
        except ModuleNotFoundError as err:  # the light install: torch / GloVe (the `reader` extra) reached anyway
            from mrclens.cli.options import READER_MODULES

            top = (err.name or "").split(".")[0]
            if top not in READER_MODULES:
                _crash(err, ctx)
            what = f"`mrclens {ctx.invoked_subcommand}`" if ctx.invoked_subcommand else "this command"
            _fail(ctx, Msg.READER_MISSING.format(what=what, missing=READER_MODULES[top]), EXIT_BAD_INPUT)
        except Exception as err:  # a bug: InternalError (InvariantError …) or anything unexpected
            _crash(err, ctx)

    def parse_args(self, ctx, args):
        """click's parsing; a broken pipe while it prints ``mrclens --help`` exits 141 too (click would exit 1)."""
        ctx.meta[_ARGS] = list(args)  # (the parser consumes ``args``): for :func:`wants_json`
        try:
            return super().parse_args(ctx, args)
        except OSError as err:
            if not is_broken_pipe(err):
                _exit_on_environment_fault(err)
                raise
            _quiet_stdout()
            sys.exit(EXIT_BROKEN_PIPE)


#: ``ctx.meta`` key of the group's command line (its arguments, as given).
_ARGS = "mrclens.args"


def wants_json(ctx: click.Context | None) -> bool:
    """Whether the command line of ``ctx`` (the ``mrclens`` group's) asks a command that has ``--json``
    for it (before any ``--``): its errors are then also printed as one JSON object (:func:`json_error`)."""
    args = list(ctx.meta.get(_ARGS, ())) if ctx is not None else []
    if "--" in args:
        args = args[: args.index("--")]
    if "--json" not in args:
        return False
    name = next((a for a in args if not a.startswith("-")), None)
    if name not in COMMANDS:
        return False
    command = main.get_command(ctx, name)
    return any("--json" in getattr(p, "opts", ()) for p in command.params)


def json_error(message: str, exit_code: int) -> str:
    """The one JSON object a command run with ``--json`` prints on standard output when it fails:
    ``{"error": message, "exit_code": N}`` (the message as the ``error:`` line on standard error says it,
    the exit status of :mod:`mrclens.errors`).

    >>> print(json_error("dev.json: no 'data' list at the top level", 2))
    {"error": "dev.json: no 'data' list at the top level", "exit_code": 2}
    """
    return json.dumps({"error": message, "exit_code": exit_code}, ensure_ascii=False)


#: ``ctx.meta`` key of the error a command stopped with, ``(message, exit status)`` as its ``error:`` line (or
#: click's usage error) says it: bad input, a usage error, a bug, an interruption. For a caller that runs a
#: command in its own process and reports each run (the CI gate, :mod:`mrclens.cli.gate`).
ERROR = "mrclens.error"


def _echo_json_error(ctx: click.Context | None, message: str, exit_code: int) -> None:
    """Record the error in ``ctx.meta`` (:data:`ERROR`); print :func:`json_error` on standard output when the
    command line asked for ``--json``."""
    if ctx is not None:
        ctx.meta[ERROR] = (message, exit_code)
    if not wants_json(ctx):
        return
    try:
        click.echo(json_error(message, exit_code))
    except OSError:  # standard output is gone (a closed pipe, a full disk): the exit status still says it
        pass


def _fail(ctx: click.Context, message: str, exit_code: int) -> None:
    """``error: message`` on standard error (and :func:`json_error` under ``--json``); exit ``exit_code``."""
    _echo_json_error(ctx, message, exit_code)
    click.echo(f"error: {message}", err=True)
    sys.exit(exit_code)


def _with_library_bars(command: click.Command) -> click.Command:
    """Run ``command``'s function inside :func:`mrclens.progress.library_bars` (once; returns ``command``):
    other libraries' progress bars (``datasets`` …) show only where MRCLens's own would, never under ``-q``
    or when standard error is not a terminal."""
    if getattr(command, "_mrclens_library_bars", False) or command.callback is None:
        return command
    callback = command.callback

    @functools.wraps(callback)
    def run(*args, **kwargs):
        with library_bars():
            return callback(*args, **kwargs)

    command.callback = run
    command._mrclens_library_bars = True  # type: ignore[attr-defined]
    return command


def _crash(err: BaseException, ctx: click.Context | None = None) -> None:
    """Say that ``err`` is a bug, write its traceback to a file and exit 3."""
    path = write_crash_log(err, sys.argv)
    where = f"the full traceback is in {path}" if path else "the traceback could not be written to a file"
    message = (f"internal error (a bug in MRCLens {__version__}, not a problem with your input): "
               f"{type(err).__name__}: {err}; {where}. Please report it with that file.")
    _echo_json_error(ctx, message, EXIT_INTERNAL)
    try:
        click.echo(message, err=True)
    except OSError:
        pass
    sys.exit(EXIT_INTERNAL)


def is_broken_pipe(err: BaseException) -> bool:
    """Whether ``err`` says that the reader of a pipe went away (``BrokenPipeError``, EPIPE)."""
    return isinstance(err, BrokenPipeError) or (isinstance(err, OSError) and err.errno == errno.EPIPE)


#: The ``errno`` values of :class:`OSError` that are faults of the machine, not of MRCLens or the input
#: (EPIPE, a closed pipe, has its own exit status: :data:`~mrclens.errors.EXIT_BROKEN_PIPE`).
ENVIRONMENT_ERRNOS = (errno.ENOSPC, errno.EIO)


def environment_fault(err: BaseException) -> str | None:
    """The one-line message for ``err`` when it is a fault of the machine (:data:`ENVIRONMENT_ERRNOS`),
    else ``None``: ``cannot write standard output: No space left on device`` when the write that failed
    was to standard output or error (``click.echo``), else the file ``err`` names (a full disk: ``cannot
    write FILE``; a failing device, which reading meets too: ``cannot read or write FILE``).

    The files MRCLens writes itself name their path already (:class:`~mrclens.errors.OutputError` from
    :mod:`mrclens.io_utils` and the format writers); this is the guard for every other output.
    """
    if not isinstance(err, OSError) or err.errno not in ENVIRONMENT_ERRNOS:
        return None
    reason = err.strerror or os.strerror(err.errno)
    stream = _failed_stream(err)
    if stream is not None:
        return Msg.CANNOT_WRITE.format(path=stream, err=reason)
    where = err.filename if err.filename is not None else "a file"
    return (Msg.CANNOT_WRITE if err.errno == errno.ENOSPC else Msg.CANNOT_READ_OR_WRITE).format(path=where, err=reason)


def _failed_stream(err: OSError) -> str | None:
    """``"standard output"`` / ``"standard error"`` (or a file's name) when ``err`` was raised writing
    through ``click.echo`` (every command's output goes through it), else ``None``."""
    for frame, _ in traceback.walk_tb(err.__traceback__):
        if frame.f_code is click.utils.echo.__code__:
            stream = frame.f_locals.get("file")
            try:
                fd = stream.fileno()
            except (AttributeError, OSError, ValueError):  # (io.UnsupportedOperation is both)
                fd = None
            name = getattr(stream, "name", None)
            if fd == 1 or name == "<stdout>":
                return "standard output"
            if fd == 2 or name == "<stderr>":
                return "standard error"
            return name if isinstance(name, str) else None
    return None


def _exit_on_environment_fault(err: OSError, ctx: click.Context | None = None) -> None:
    """Print :func:`environment_fault`'s line (and, under ``--json`` unless standard output is what failed,
    :func:`json_error`) and exit 2 when ``err`` is one; else return."""
    message = environment_fault(err)
    if message is None:
        return
    if _failed_stream(err) == "standard output":
        _quiet_stdout()  # flushing what is left of it at exit would fail again
    else:
        _echo_json_error(ctx, message, EXIT_BAD_INPUT)
    try:
        click.echo(f"error: {message}", err=True)
    except OSError:  # standard error is on the full disk too: the exit status still says it
        pass
    sys.exit(EXIT_BAD_INPUT)


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so that flushing it at exit cannot raise a second broken pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real stdout (e.g. click's test runner)
        pass


def write_crash_log(err: BaseException, argv: list[str]) -> Path | None:
    """Write the traceback of ``err`` and the command line to a new file; return its path.

    The file is ``mrclens-crash-<UTC time>-<random>.log`` in ``$MRCLENS_CRASH_DIR`` or the system
    temporary directory. Returns ``None`` when no file can be written (never raises).
    """
    try:
        folder = Path(os.environ.get(CRASH_DIR_ENV) or tempfile.gettempdir())
        folder.mkdir(parents=True, exist_ok=True)
        stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        fd, name = tempfile.mkstemp(prefix=f"mrclens-crash-{stamp}-", suffix=".log", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as fh:
            fh.write(f"mrclens {__version__}, Python {sys.version.split()[0]}\n")
            fh.write("command: " + " ".join(argv) + "\n\n")
            fh.write("".join(traceback.format_exception(type(err), err, err.__traceback__)))
        return Path(name)
    except Exception:  # noqa: BLE001 - reporting the crash must not crash
        return None


_EPILOG = """\b
Run `mrclens COMMAND --help` for a command's options and an example.
Shell completion (bash; zsh and fish alike with zsh_source, fish_source):
  eval "$(_MRCLENS_COMPLETE=bash_source mrclens)"
"""


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]}, epilog=_EPILOG)
@click.version_option(__version__, prog_name="mrclens")
@verbosity_options
def main() -> None:
    """MRCLens: find shortcut biases in SQuAD-format reading-comprehension datasets.

    Results go to standard output; messages and progress to standard error (progress bars on a
    terminal, one line every 30 s otherwise). Exit codes: 0 ok, 1 a `check` rule failed, 2 bad
    input or usage (or a full disk), 3 a bug in MRCLens, 130 interrupted (Ctrl-C), 141 output pipe closed.
    """
