"""``mrclens-ci-check``: the CI gate's console script, which the pre-commit hook runs (``language: python``).

It runs the gate's one script, ``mrclens/data/ci-check.sh`` (installed with the package; the GitHub Action runs the
same file), with bash, passing every argument on, and exits with its status (0 every rule passes, 1 a rule fails,
2 bad input or usage, 3 a bug; 130 interrupted with Ctrl-C, one line on stderr). ``mrclens`` is run as
``python -m mrclens.cli`` with this interpreter (``$MRCLENS_PYTHON``: one path, so a path with spaces such as
``C:\\Users\\John Smith\\...`` works), so nothing needs to be on PATH; ``$MRCLENS`` set beforehand wins. Needs bash
(any Linux or macOS; Git Bash on Windows).

pre-commit runs the hook as ``mrclens-ci-check [ARGS from the config] FILE...``: the file names follow the
script's options, so :func:`with_files_marked` puts ``--`` before the first argument that is no option of the
script, and a staged file named ``-dash.json`` is a file, not an unknown option.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

#: The gate's script, installed with the package data.
SCRIPT = Path(__file__).resolve().parents[1] / "data" / "ci-check.sh"
#: The script's usage line (``USAGE="usage: ci-check.sh [--rules FILE] ... [--] [FILE ...]"``): the one list of its
#: options, read by :func:`script_options`.
_USAGE = re.compile(r'^USAGE="usage: ci-check\.sh (?P<usage>.*)"$', re.MULTILINE)
_OPTION = re.compile(r"(?P<name>--[a-z][a-z-]*)(?P<value> [A-Z]+)?")
#: The exit status of a run stopped with Ctrl-C (128 + SIGINT, as a shell gives).
INTERRUPTED = 130


@functools.lru_cache(maxsize=1)
def script_options() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(valued, flags)``: the options of :data:`SCRIPT` that take a value (``--rules FILE``) and those that take
    none (``--all``; with ``-h`` and ``--help``), read from the script's usage line, so the script is the one
    place its options are listed.

    >>> script_options()
    (('--rules', '--changed-since', '--pattern', '--check-arg'), ('--all', '-h', '--help'))

    Raises:
        OSError: the installed script cannot be read; ValueError: it has no usage line (a damaged install both).
    """
    found = _USAGE.search(SCRIPT.read_text(encoding="utf-8"))
    if found is None:
        raise ValueError(f"{SCRIPT}: no USAGE= line listing the gate's options")
    options = [(m["name"], bool(m["value"])) for m in _OPTION.finditer(found["usage"])]
    return (tuple(name for name, valued in options if valued),
            (*(name for name, valued in options if not valued), "-h", "--help"))


def with_files_marked(args: list[str]) -> list[str]:
    """``args`` with ``--`` before the first argument that is no option of the script (nor an option's value):
    the file names, which pre-commit puts after the hook's ``args``. An argument that starts with ``-`` and
    names no existing file is left as it is (the script refuses an unknown option with its usage line).

    >>> with_files_marked(["--rules", "r.toml", "--check-arg=--language-ok", "a.json", "b.json"])
    ['--rules', 'r.toml', '--check-arg=--language-ok', '--', 'a.json', 'b.json']
    >>> with_files_marked(["--all"]), with_files_marked(["--", "-x.json"]), with_files_marked(["--bogus"])
    (['--all'], ['--', '-x.json'], ['--bogus'])
    """
    valued, flags = script_options()
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            return list(args)
        if arg in valued:
            i += 2
        elif arg in flags or arg.startswith(tuple(f"{v}=" for v in valued)):
            i += 1
        elif arg.startswith("-") and not os.path.lexists(arg):
            return list(args)  # an unknown option: the script says so
        else:
            return [*args[:i], "--", *args[i:]]
    return list(args)


def main(argv: list[str] | None = None) -> int:
    """Run :data:`SCRIPT` with ``argv`` (default: the command line's arguments; the file names marked with
    ``--``, :func:`with_files_marked`); returns its exit status (2 when bash is not found: the message says
    so, and when the installed script cannot be read; 130 after Ctrl-C, with one line)."""
    try:
        args = with_files_marked(sys.argv[1:] if argv is None else argv)
    except (OSError, ValueError) as err:  # the package's own script is unreadable: a damaged install, not a bug
        print(f"mrclens-ci-check: cannot read the gate's script ({err}); reinstall mrclens", file=sys.stderr)
        return 2
    bash = shutil.which("bash")
    if bash is None:
        print("mrclens-ci-check: bash is not on PATH; it runs mrclens/data/ci-check.sh, a bash script", file=sys.stderr)
        return 2
    env = dict(os.environ)
    if not env.get("MRCLENS"):
        env["MRCLENS_PYTHON"] = sys.executable
    try:
        return subprocess.run([bash, str(SCRIPT), *args], env=env).returncode
    except KeyboardInterrupt:
        print("mrclens-ci-check: interrupted (Ctrl-C): stopped before every file was checked", file=sys.stderr)
        return INTERRUPTED


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
