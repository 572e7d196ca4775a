"""The ``mrclens`` command line: one click group, commands registered in one place.

Each command lives in its own module and is a thin wrapper: it parses options and
calls one library function. Errors that MRCLens raises on purpose
(:class:`~mrclens.errors.MRCLensError`) are printed as plain lines, without a
traceback, and exit with status 2.
"""

from __future__ import annotations

import sys

import click

from mrclens import __version__
from mrclens.errors import MRCLensError

EXIT_BAD_INPUT = 2


class _Group(click.Group):
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


# The command registry: add a new command here (one import, one line).
from mrclens.cli.validate import validate  # noqa: E402
from mrclens.cli.evaluate import evaluate  # noqa: E402
from mrclens.cli.perturb import perturb  # noqa: E402
from mrclens.cli.stats import stats  # noqa: E402
from mrclens.cli.check import check  # noqa: E402
from mrclens.cli.audit import audit  # noqa: E402
from mrclens.cli.report import report  # noqa: E402
from mrclens.cli.train import train  # noqa: E402
from mrclens.cli.predict import predict  # noqa: E402

main.add_command(validate)
main.add_command(evaluate)
main.add_command(perturb)
main.add_command(stats)
main.add_command(check)
main.add_command(audit)
main.add_command(report)
main.add_command(train)
main.add_command(predict)
