"""The ``mrclens`` command line: one click group, commands registered in one place.

Each command lives in its own module and is a thin wrapper: it parses options and
calls one library function. Errors that MRCLens raises on purpose
(:class:`~mrclens.errors.MRCLensError`) are printed as plain lines, without a
traceback, and exit with status 2.
"""

from __future__ import annotations

import importlib
import sys

import click

from mrclens import __version__
from mrclens.errors import MRCLensError

EXIT_BAD_INPUT = 2


#: The command registry, filled in one place: name -> "module:attribute". Commands are imported
#: only when used (click's lazy-loading pattern), so `mrclens validate` does not pay for torch,
#: spaCy or scikit-learn imports of other commands.
COMMANDS = {
    "audit": "mrclens.cli.audit:audit",
    "perturb": "mrclens.cli.perturb:perturb",
    "train": "mrclens.cli.train:train",
    "predict": "mrclens.cli.predict:predict",
    "evaluate": "mrclens.cli.evaluate:evaluate",
    "report": "mrclens.cli.report:report",
    "stats": "mrclens.cli.stats:stats",
    "check": "mrclens.cli.check:check",
    "validate": "mrclens.cli.validate:validate",
}


class _Group(click.Group):
    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, attr = target.split(":")
        return getattr(importlib.import_module(module), attr)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except MRCLensError as err:
            click.echo(f"error: {err}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except FileNotFoundError as err:
            click.echo(f"error: file not found: {err.filename}", err=True)
            sys.exit(EXIT_BAD_INPUT)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mrclens")
def main() -> None:
    """MRCLens: find shortcut biases in SQuAD-format reading-comprehension datasets."""
