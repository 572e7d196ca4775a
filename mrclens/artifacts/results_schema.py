"""The JSON Schema of ``results.json`` (issue 57, item 5), published with the documentation as
``docs/results.schema.json``.

It is generated from :data:`mrclens.artifacts.results.RESULTS_FORMAT`: the typed records of the file and what the
format says beyond them (the defaults that keys absent from older files read as, the required keys, the allowed
values). :func:`~mrclens.artifacts.results.read_results` validates every file with the pydantic models the schema
is generated from (:mod:`mrclens.artifacts.record_models`), so a file that a JSON Schema validator (draft 2020-12)
accepts with this schema is one MRCLens reads; MRCLens also refuses ``NaN`` and ``Infinity``, which JSON has not,
and reads an object holding a key twice as an error. ``tests/artifacts/test_results_schema.py`` fails when the
committed file differs from the records.

Usage::

    python -m mrclens.artifacts.results_schema                                # print the schema
    python -m mrclens.artifacts.results_schema --out docs/results.schema.json # write it (atomically)
    python -m mrclens.artifacts.results_schema --check docs/results.schema.json  # exit 1 when it is stale

Examples:
    >>> schema = results_schema()
    >>> schema["title"], schema["required"]
    ('MRCLens results.json (format version 1)', ['model', 'bootstrap', 'sets', 'ablations', 'categories'])
    >>> schema["$defs"]["AblationResult"]["properties"]["f1_drop"]
    {'anyOf': [{'type': 'number'}, {'type': 'null'}], 'default': None}
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from mrclens.artifacts.results import RESULTS_FORMAT
from mrclens.io_utils import atomic_write_text

__all__ = ["results_schema", "schema_text", "main"]

#: Where the documentation keeps the schema, relative to the repository root.
DOCS_SCHEMA = Path("docs") / "results.schema.json"


def results_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``results.json`` as a JSON object (module docstring)."""
    return RESULTS_FORMAT.json_schema()


def schema_text() -> str:
    """:func:`results_schema` as the published file holds it: indented by 2, UTF-8, a newline at the end."""
    return json.dumps(results_schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Print, write (``--out FILE``) or check (``--check FILE``) the schema; returns the exit code: 0, or 1 when
    ``--check`` finds the file missing or different (the message, on standard error, says how to regenerate it)."""
    parser = argparse.ArgumentParser(prog="python -m mrclens.artifacts.results_schema",
                                     description="The JSON Schema of results.json, generated from MRCLens's records.")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--out", type=Path, help="write the schema to this file (e.g. docs/results.schema.json)")
    where.add_argument("--check", type=Path, help="exit 1 when this file is not the schema of this MRCLens")
    args = parser.parse_args(argv)
    text = schema_text()
    if args.check is not None:
        found = args.check.read_text(encoding="utf-8") if args.check.is_file() else None
        if found != text:
            print(f"{args.check}: {'missing' if found is None else 'stale'}; regenerate it with "
                  f"`python -m mrclens.artifacts.results_schema --out {args.check}`", file=sys.stderr)
            return 1
        return 0
    if args.out is not None:
        atomic_write_text(args.out, text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
