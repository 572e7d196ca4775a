"""``mrclens-ci-check``: the CI gate, one Python process over every file. The pre-commit hook runs it
(``.pre-commit-hooks.yaml``, ``language: python``: pre-commit passes the staged files) and so does the GitHub
Action (``action.yml``: the files a change touches, ``--changed-since BASE``).

Each file gets ``mrclens check --skip-non-dataset [--rules FILE] [--check-arg ARG …] -- FILE``, run in this
process through the ``mrclens`` command line itself (:data:`mrclens.cli.main`: its options, pre-flight, output
and errors), so Python, spaCy and its pipeline, and MRCLens's modules start once for all the files (the SQuAD
v1.1 reference, a few milliseconds to read, is read for each). Output per
file: a line ``== mrclens check FILE``, then that check's report (standard output) and notes (standard error).
Exit status, the worst over the files: 0 every rule passes (or the file is no QA dataset, skipped with a note),
1 a rule fails, 2 bad input (a bad or unreadable file) or a bad use of the gate (nothing is checked then),
3 a bug; 130 interrupted with Ctrl-C (one line on standard error). In GitHub Actions (``$GITHUB_ACTIONS`` is
``true``, or ``--github``) it also annotates each failing file and appends a job summary
(:mod:`mrclens.cli.gate_report`); ``--changed-since`` and ``--all`` list files with git
(:mod:`mrclens.cli.gate_files`).

The first argument that is no option (nor an option's value) starts the file names (pre-commit puts the
hook's ``args`` first, the staged files last): :func:`with_files_marked` puts ``--`` before it, so a staged
``-dash.json`` is a file, not an unknown option. :func:`gate_options` reads the options from the command
(:data:`gate`), their one list.
"""

from __future__ import annotations

import os
import sys

import click

from mrclens.cli.gate_files import DEFAULT_PATTERN, compile_pattern, repository_files
from mrclens.cli.gate_report import FileResult, annotation, append_summary, job_summary
from mrclens.cli.options import example
from mrclens.errors import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_OK, MRCLensError

#: The console script's name, in its messages and usage line.
PROG = "mrclens-ci-check"
#: The exit status of a run stopped with Ctrl-C (128 + SIGINT, as a shell gives).
INTERRUPTED = EXIT_INTERRUPTED
#: The line Ctrl-C leaves on standard error.
INTERRUPTED_LINE = f"{PROG}: interrupted (Ctrl-C): stopped before every file was checked"


def _needs_value(ctx: click.Context, param: click.Parameter, value):
    """Refuse an empty value (``--rules ""``, ``--changed-since=``): a usage error, before anything is checked."""
    if value == "" or (isinstance(value, tuple) and "" in value):
        raise click.UsageError(f"{param.opts[0]} needs a value (got an empty one)", ctx)
    return value


def _rules_file(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--rules``: a value (:func:`_needs_value`) that names a readable file, checked once for every file."""
    value = _needs_value(ctx, param, value)
    return None if value is None else click.Path(exists=True, dir_okay=False).convert(value, param, ctx)


class _GateCommand(click.Command):
    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """click's, on the arguments with the file names marked (:func:`with_files_marked`)."""
        try:
            marked = with_files_marked(args)
        except click.UsageError as err:
            err.ctx = ctx
            raise
        return super().parse_args(ctx, marked)


_EPILOG = example(f"{PROG} data/train.json data/dev.json",
                  f"{PROG} --rules mrclens-rules.toml --changed-since origin/main --pattern '^data/.*\\.json$'",
                  f"{PROG} --check-arg --language-ok -- data/xquad.es.json")


@click.command(PROG, cls=_GateCommand, epilog=_EPILOG,
               context_settings={"allow_interspersed_args": False, "help_option_names": ["-h", "--help"]})
@click.option("--rules", metavar="FILE", callback=_rules_file,
              help="The `mrclens check --rules` TOML file for every file (default: MRCLens's default rules).")
@click.option("--changed-since", metavar="REF", callback=_needs_value,
              help="Also check the files changed between REF and HEAD (added, copied, modified, renamed: "
                   "`git diff -z --name-only --diff-filter=ACMR REF HEAD`) that match --pattern. REF "
                   "0000000000000000000000000000000000000000 (GitHub's base of a branch's first push) checks every "
                   "tracked file that matches, as --all, and says so.")
@click.option("--all", "all_files", is_flag=True,
              help="Also check every tracked file of the repository (`git ls-files -z`) that matches --pattern.")
@click.option("--pattern", metavar="REGEX", default=DEFAULT_PATTERN, show_default=True, callback=_needs_value,
              help="Python regular expression searched in each path from the repository's top level (whatever "
                   "the folder the gate runs in) by --changed-since and --all; grep -E's syntax but for POSIX "
                   "classes ([[:digit:]]: write [0-9]). One that does not compile is a usage error.")
@click.option("--check-arg", "check_args", metavar="ARG", multiple=True, callback=_needs_value,
              help="Pass ARG on to every file's `mrclens check` (repeat it for several): `--check-arg "
                   "--language-ok` for data not in English, `--check-arg --dev=dev.json`, `--check-arg "
                   "--on-invalid=skip`.")
@click.option("--github/--no-github", default=None,
              help="Annotate each failing file (::error, ::warning for rules too small to tell) and append a job "
                   "summary to $GITHUB_STEP_SUMMARY (default: when $GITHUB_ACTIONS is true).")
@click.argument("files", nargs=-1, metavar="[--] [FILE]...")
def gate(rules: str | None, changed_since: str | None, all_files: bool, pattern: str, check_args: tuple[str, ...],
         github: bool | None, files: tuple[str, ...]) -> int:
    """Run `mrclens check` (model-free shortcut rules) on dataset files, all in this one process, and exit
    with the worst status: 0 every rule passes, 1 a rule fails, 2 bad input or a bad use of the gate, 3 a
    bug; 130 Ctrl-C. A file that is surely no QA dataset by its content (package.json, dataset_infos.json,
    croissant.json, tsconfig.json, JSON Lines of other records) is skipped with a note; a file that is no
    valid JSON (empty, plain text, a Git LFS pointer) is checked and fails. Each option also takes the form
    --option=VALUE; `--` ends the options (a later `-dash.json` is a file)."""
    if changed_since is not None and all_files:
        raise click.UsageError("--changed-since and --all exclude each other")
    try:
        regex = compile_pattern(pattern)
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    github = os.environ.get("GITHUB_ACTIONS") == "true" if github is None else github
    try:
        paths = list(files)
        if changed_since is not None or all_files:
            listed, note = repository_files(regex, None if all_files else changed_since)
            if note:
                click.echo(f"{PROG}: {note}", err=True)
            paths += listed
        return check_files(paths, [*(("--rules", rules) if rules else ()), *check_args], github=github)
    except MRCLensError as err:
        click.echo(f"{PROG}: {err}", err=True)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        click.echo(INTERRUPTED_LINE, err=True)
        return INTERRUPTED


def check_file(path: str, options: list[str]) -> FileResult:
    """Run ``mrclens check --skip-non-dataset OPTIONS -- PATH`` in this process, as the ``mrclens`` command line
    runs it (its output and error lines, the exit status of :mod:`mrclens.errors`), and return what it found.

    Args:
        path: the file, as the gate names it.
        options: further ``mrclens check`` options (``--rules FILE``, the ``--check-arg`` values).

    Returns:
        :class:`~mrclens.cli.gate_report.FileResult`: exit status 130 when Ctrl-C stopped the check.
    """
    from mrclens.cli import ERROR, main as mrclens
    from mrclens.cli.check import REPORT, SKIPPED

    meta: dict = {}
    try:
        with mrclens.make_context("mrclens", ["check", "--skip-non-dataset", *options, "--", path]) as ctx:
            meta = ctx.meta
            mrclens.invoke(ctx)
        code = EXIT_OK
    except SystemExit as stop:  # the command's own exit (sys.exit): its status
        code = stop.code if isinstance(stop.code, int) else (EXIT_OK if stop.code is None else 1)
    except click.exceptions.Exit as stop:  # e.g. `--check-arg --help`
        code = stop.exit_code
    except click.ClickException as err:  # a usage error (a file that does not exist or cannot be read …)
        err.show()
        meta.setdefault(ERROR, (err.format_message(), err.exit_code))
        code = err.exit_code
    except click.Abort:
        code = INTERRUPTED
    error = meta.get(ERROR)
    return FileResult(path, code, report=meta.get(REPORT), skipped=meta.get(SKIPPED),
                      error=error[0] if error else None)


def check_files(paths: list[str], options: list[str], *, github: bool = False) -> int:
    """Check each of ``paths`` (:func:`check_file`, after a line ``== mrclens check PATH``) and return the worst
    exit status; 130 (with its one line) as soon as Ctrl-C stops one. With ``github``, each failing file's
    annotation follows its report (:func:`~mrclens.cli.gate_report.annotation`) and the job summary is appended
    to ``$GITHUB_STEP_SUMMARY`` at the end (a summary that cannot be written is said on standard error; the
    status stays the checks')."""
    results: list[FileResult] = []
    if not paths:
        click.echo("mrclens check: no dataset file to check")
    for path in paths:
        click.echo(f"== mrclens check {path}")
        result = check_file(path, options)
        if result.exit_code == INTERRUPTED:
            click.echo(INTERRUPTED_LINE, err=True)
            return INTERRUPTED
        results.append(result)
        line = annotation(result) if github else None
        if line:
            click.echo(line)
    status = max((r.exit_code for r in results), default=EXIT_OK)
    if status != EXIT_OK:
        click.echo(f"mrclens check: exit {status} (1: a rule failed; 2: bad input; 3: a bug in MRCLens)", err=True)
    if status == EXIT_BAD_INPUT:
        click.echo(f"{PROG}: an option of `mrclens check` it asks for (e.g. --language-ok) goes through --check-arg",
                   err=True)
    if github:
        try:
            append_summary(job_summary(results, status))
        except OSError as err:
            click.echo(f"{PROG}: cannot append the job summary to $GITHUB_STEP_SUMMARY: {err}", err=True)
    return status


def gate_options() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(valued, flags)``: the options of :data:`gate` that take a value (``--rules FILE``) and those that take
    none (``--all``, ``--github``; with ``-h`` and ``--help``), read from the command, their one list.

    >>> gate_options()
    (('--rules', '--changed-since', '--pattern', '--check-arg'), ('--all', '--github', '--no-github', '-h', '--help'))
    """
    valued: list[str] = []
    flags: list[str] = []
    for param in gate.params:
        if isinstance(param, click.Option):
            (flags if param.is_flag else valued).extend([*param.opts, *param.secondary_opts])
    return tuple(valued), (*flags, "-h", "--help")


def with_files_marked(args: list[str]) -> list[str]:
    """``args`` with ``--`` before the first argument that is no option of the gate (nor an option's value):
    the file names, which pre-commit puts after the hook's ``args``. An argument that starts with ``-`` and
    names an existing file is a file.

    >>> with_files_marked(["--rules", "r.toml", "--check-arg=--language-ok", "a.json", "b.json"])
    ['--rules', 'r.toml', '--check-arg=--language-ok', '--', 'a.json', 'b.json']
    >>> with_files_marked(["--all"]), with_files_marked(["--", "-x.json"])
    (['--all'], ['--', '-x.json'])

    Raises:
        click.BadOptionUsage: the last argument is an option that takes a value (``--rules`` alone).
        click.NoSuchOption: an argument that starts with ``-`` is no option and names no file (the message
            says to put a file name after ``--``).
    """
    valued, flags = gate_options()
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            return list(args)
        if arg in valued:
            if i + 1 == len(args):
                raise click.BadOptionUsage(arg, f"{arg} needs a value")
            i += 2
        elif arg in flags or arg.startswith(tuple(f"{v}=" for v in valued)):
            i += 1
        elif arg.startswith("-") and not os.path.lexists(arg):
            raise click.NoSuchOption(arg, message=f"unknown option {arg} (a file name that starts with '-': put it "
                                                  f"after '--', or write ./{arg})")
        else:
            return [*args[:i], "--", *args[i:]]
    return list(args)


def main(argv: list[str] | None = None) -> int:
    """The console script: run :data:`gate` on ``argv`` (default: the command line's arguments); returns its
    exit status (2 and the usage line for a bad use; 130 after Ctrl-C, with one line)."""
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        return gate.main(args, prog_name=PROG, standalone_mode=False)
    except click.ClickException as err:
        err.show()
        return err.exit_code
    except click.exceptions.Exit as stop:
        return stop.exit_code
    except (click.Abort, KeyboardInterrupt):
        click.echo(INTERRUPTED_LINE, err=True)
        return INTERRUPTED


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
