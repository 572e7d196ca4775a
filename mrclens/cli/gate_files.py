"""Which files the CI gate (``mrclens-ci-check``, :mod:`mrclens.cli.gate`) checks besides those it is given: with
``--changed-since REF`` the files changed between REF and HEAD (added, copied, modified, renamed:
``git diff -z --name-only --diff-filter=ACMR REF HEAD``), with ``--all`` every tracked file (``git ls-files -z``),
each kept when ``--pattern`` matches it (:func:`compile_pattern`).

The paths come from git NUL-separated (``-z``: a name with a non-ASCII character, a space, a quote or a newline
comes as it is, never quoted), relative to the repository's top level, which is what ``--pattern`` sees
(``^data/`` means the top level's ``data/`` from any folder), and are then named from the current folder: run
from ``scripts/``, a changed ``data/x.json`` is checked as ``../data/x.json``.
"""

from __future__ import annotations

import os
import re
import subprocess

from mrclens.errors import GateError

#: GitHub's base of a branch's first push (there is no commit before it): ``--changed-since`` with it checks
#: every tracked file that matches, as ``--all`` (:func:`repository_files`).
NO_BASE = "0" * 40
#: The default ``--pattern``: the dataset files MRCLens reads, by their names' ends.
DEFAULT_PATTERN = r"\.(json|jsonl|json\.gz|jsonl\.gz|parquet)$"


def compile_pattern(text: str) -> re.Pattern[str]:
    """``text`` as a Python regular expression (:mod:`re`), searched for anywhere in each path (as ``grep -E``
    does; ERE's ``\\.``, ``( | )``, ``[ ]``, ``{m,n}``, ``^``, ``$`` mean the same; POSIX classes such as
    ``[[:digit:]]`` are written ``[0-9]`` or ``\\d``).

    >>> bool(compile_pattern(DEFAULT_PATTERN).search("data/train.json.gz"))
    True

    Raises:
        ValueError: ``text`` is no regular expression (the message names it and says why).
    """
    try:
        return re.compile(text)
    except re.error as err:
        raise ValueError(f"--pattern {text!r} is not a regular expression Python can use: {err}") from None


def _git(*args: str) -> bytes:
    """The standard output of ``git ARGS`` (bytes: names are the file system's, whatever their encoding).

    Raises:
        GateError: git is not installed, or exits with an error (its first line of standard error quoted).
    """
    try:
        done = subprocess.run(["git", *args], capture_output=True)
    except FileNotFoundError:
        raise GateError("--changed-since/--all: git is not installed (or not on PATH)") from None
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        raise GateError(f"git {args[0]} failed{': ' + said[0] if said else ''}")
    return done.stdout


def _paths(listing: bytes) -> list[str]:
    """The NUL-separated paths of ``git … -z`` as :func:`os.fsdecode` names them (a byte that is no UTF-8 kept
    as a surrogate escape, so the name still opens)."""
    return [os.fsdecode(p) for p in listing.split(b"\0") if p]


def repository_files(pattern: re.Pattern[str], since: str | None) -> tuple[list[str], str | None]:
    """``(paths, note)``: the repository's files that ``pattern`` matches (searched in each path from the top
    level), named from the current folder: changed between ``since`` and HEAD, or every tracked file when
    ``since`` is ``None`` or :data:`NO_BASE` (then ``note`` says why, for standard error; else ``None``).

    Raises:
        GateError: the current folder is in no git repository; ``since`` is no commit of this clone (a shallow
            clone, or a base gone after a force push: the message says to fetch the history or give ``--all``);
            git fails.
    """
    note = None
    if since == NO_BASE:
        note = (f"base {NO_BASE} (a branch's first push: no base commit): checking every tracked file that "
                "matches --pattern")
        since = None
    try:
        top = _git("rev-parse", "--show-toplevel").rstrip(b"\n")
        up = os.fsdecode(_git("rev-parse", "--show-cdup").rstrip(b"\n"))
    except GateError:
        raise GateError("--changed-since/--all: not in a git repository (git rev-parse --show-toplevel failed)") from None
    if since is None:
        listed = _git("-C", os.fsdecode(top), "ls-files", "-z")
    else:
        try:
            _git("rev-parse", "--verify", "--quiet", f"{since}^{{commit}}")
        except GateError:
            raise GateError(f"base {since} is not a commit in this clone (fetch the history: actions/checkout with "
                            "fetch-depth: 0; after a force push the old base is gone: give --all)") from None
        listed = _git("-C", os.fsdecode(top), "diff", "-z", "--name-only", "--diff-filter=ACMR", since, "HEAD")
    return [up + path for path in _paths(listed) if pattern.search(path)], note

