"""What the CI gate (``mrclens-ci-check``, :mod:`mrclens.cli.gate`) says about each file it checked, for GitHub
Actions: an annotation on each file that fails (``::error file=PATH,title=…::message``) or passes with rules too
small to tell (``::warning``), and a job summary, a Markdown table of every file's result appended to the file
``$GITHUB_STEP_SUMMARY`` names.

Workflow commands as GitHub documents them ("Workflow commands for GitHub Actions": ``::error``, ``::warning``,
``$GITHUB_STEP_SUMMARY``), escaped as GitHub's own toolkit escapes them (``@actions/core``: ``%``, CR and LF in
the message; also ``:`` and ``,`` in a property), so a message of several lines, or a file name holding a comma,
arrives whole. The summary file belongs to the runner (MRCLens only appends to it, as every step does).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mrclens.errors import EXIT_BAD_INPUT, EXIT_CHECK_FAILED, EXIT_OK

if TYPE_CHECKING:
    from mrclens.checks import CheckReport

#: Each exit status of ``mrclens check`` as the summary and the annotations name it.
OUTCOMES = {EXIT_OK: "pass", EXIT_CHECK_FAILED: "FAIL", EXIT_BAD_INPUT: "bad input"}


@dataclass(frozen=True)
class FileResult:
    """One file's ``mrclens check`` in the gate: its path as the gate named it, the exit status (0 pass or
    skipped, 1 a rule fails, 2 bad input, 3 a bug), and what the check left: its report (``None`` when it
    stopped before one, or skipped the file), why it skipped the file (no QA dataset), or its error message."""

    path: str
    exit_code: int
    report: CheckReport | None = None
    skipped: str | None = None
    error: str | None = None

    @property
    def outcome(self) -> str:
        """``pass``, ``FAIL``, ``bad input``, ``bug`` (exit 3 or any other) or ``skipped``."""
        if self.skipped is not None and self.exit_code == EXIT_OK:
            return "skipped"
        return OUTCOMES.get(self.exit_code, "bug")

    def rules_with(self, status: str) -> list:
        """The report's rule results with ``status`` (``fail``, ``unsure`` …; none without a report)."""
        return [r for r in self.report.results if r.status == status] if self.report is not None else []


def escape_data(text: str) -> str:
    """``text`` as a workflow command's message: ``%``, CR, LF escaped (``@actions/core``'s ``escapeData``).

    >>> escape_data("50% of answers\\nin sentence 1")
    '50%25 of answers%0Ain sentence 1'
    """
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """``text`` as a workflow command's property value: :func:`escape_data` plus ``:`` and ``,``.

    >>> escape_property("data/a,b.json")
    'data/a%2Cb.json'
    """
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workspace_path(path: str) -> str:
    """``path`` relative to ``$GITHUB_WORKSPACE`` (the repository's checkout, where annotations point), with
    ``/``; as given when that is not set or ``path`` lies outside it."""
    workspace = os.environ.get("GITHUB_WORKSPACE")
    if not workspace:
        return path
    relative = os.path.relpath(os.path.abspath(path), os.path.abspath(workspace))
    return path if relative.startswith(os.pardir) else relative.replace(os.sep, "/")


def annotation(result: FileResult) -> str | None:
    """The workflow command that annotates ``result``'s file: ``::error`` when it fails (the failing rules'
    lines, as ``mrclens check`` prints them), is bad input or met a bug (the error message), ``::warning``
    when it passes with rules too small to tell (UNSURE: their lines); ``None`` for a pass or a skipped file.

    Raises:
        nothing; a result without a report or a message gets a message pointing to the log.
    """
    from mrclens.checks import rule_lines

    fails, unsure = result.rules_with("fail"), result.rules_with("unsure")
    if result.exit_code == EXIT_OK:
        if not unsure:
            return None
        level, title = "warning", f"mrclens check: {len(unsure)} rule(s) too small to tell"
        lines = [line for r in unsure for line in rule_lines(r)]
    elif result.exit_code == EXIT_CHECK_FAILED and fails:
        level, title = "error", f"mrclens check: {len(fails)} rule(s) fail"
        lines = [line for r in fails for line in rule_lines(r)]
    else:
        what = "bad input" if result.exit_code == EXIT_BAD_INPUT else "a bug in MRCLens"
        level, title = "error", f"mrclens check: {what} (exit {result.exit_code})"
        lines = [result.error or "see the job's log for the message"]
    where = escape_property(workspace_path(result.path))
    return f"::{level} file={where},title={escape_property(title)}::{escape_data(chr(10).join(lines))}"


def _cell(text: str) -> str:
    """``text`` as one Markdown table cell: one line, ``|`` escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def _name(path: str) -> str:
    return f"`{path}`" if "`" not in path else _cell(path)


def _details(result: FileResult) -> str:
    if result.outcome == "skipped":
        return f"not a QA dataset ({result.skipped})"
    if result.report is None:
        return result.error or ""
    counts = result.report.to_json()["counts"]
    named = ", ".join(r.rule.id for r in result.rules_with("fail") or result.rules_with("unsure"))
    tally = ", ".join(f"{counts[s]} {s}" for s in ("pass", "fail", "unsure", "skip") if counts.get(s))
    return f"{named}: {tally}" if named else tally


def job_summary(results: list[FileResult], status: int) -> str:
    """The job summary in Markdown: a heading with the gate's exit status and how many files fail, and one
    table row per file (its path, outcome, and the failing or unsure rules with the report's counts, why it
    was skipped, or the error)."""
    failing = sum(1 for r in results if r.exit_code != EXIT_OK)
    head = f"### MRCLens check: exit {status}"
    if not results:
        return f"{head}\n\nNo dataset file to check.\n"
    head += f", {failing} of {len(results)} file(s) fail" if failing else f", {len(results)} file(s) pass or skipped"
    rows = [f"| {_name(r.path)} | {r.outcome} | {_cell(_details(r))} |" for r in results]
    return "\n".join([head, "", "| file | result | rules |", "| --- | --- | --- |", *rows]) + "\n"


def append_summary(markdown: str) -> str | None:
    """Append ``markdown`` to the file ``$GITHUB_STEP_SUMMARY`` names (UTF-8); returns that path, or ``None``
    when the variable is not set (not in GitHub Actions: nothing written).

    Raises:
        OSError: the file cannot be written (the caller says so; the gate's exit status stays the checks').
    """
    path = os.environ.get("GITHUB_STEP_SUMMARY")
    if not path:
        return None
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(markdown + "\n")
    return path
