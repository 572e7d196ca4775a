"""``mrclens diff-results A B [--json]``: are two runs' results the same, times and output places aside?

Exit status: 0 identical (apart from the ignored fields), 1 some value differs, 2 bad input (a
missing file, or one that is not a results file as ``mrclens card`` reads it: another JSON file, a
newer format version, a number that is not finite). The comparison is :func:`mrclens.artifacts.results_diff.diff_results`.
"""

from __future__ import annotations

import json
import sys

import click

from mrclens.cli.options import JSON_HELP, example, verbosity_options
from mrclens.errors import EXIT_CHECK_FAILED, EXIT_OK


@click.command(epilog=example("mrclens diff-results run-a run-b"))
@click.argument("a", metavar="A", type=click.Path(exists=True))
@click.argument("b", metavar="B", type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True,
              help=JSON_HELP + " Fields: files, identical, differences (one 'path: A != B' line each), n_ablations, n_sets.")
@verbosity_options
def diff_results(a: str, b: str, as_json: bool) -> None:
    """Compare two results (results.json files, or the audit / evaluate directories holding them)
    value by value: every EM/F1, drop, CI bound, reading, training-log figure and option must be
    equal (floats exactly). Ignored: timestamps, step and training times, memory peaks, and where
    each run wrote (its output directory, inside any string too).

    Prints one 'path: A != B' line per difference and a count. Exits 0 when identical, 1 when
    a value differs, 2 when A or B is missing or not a results file (another JSON file such as
    data or statistics, a newer format version, NaN or Infinity anywhere).
    """
    from mrclens.artifacts.results_diff import diff_results as compare

    diff = compare(a, b)
    if as_json:
        click.echo(json.dumps(diff.to_json(), indent=1))
    else:
        for line in diff.differences:
            click.echo(line)
        click.echo(diff.summary())
    sys.exit(EXIT_OK if diff.identical else EXIT_CHECK_FAILED)
