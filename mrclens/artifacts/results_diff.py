"""Compare two ``results.json`` files value by value, ignoring timestamps, timings and output locations.

What ``mrclens diff-results A B`` and :func:`mrclens.diff_results` do (issue 16: are two runs the
same?; issue 34: the job of ``benchmarks/compare_results.py``, now in the package). Ignored:

* time (:data:`TIME_KEYS`): ``created``, ``step_seconds``, and in each training-log record ``minutes``,
  ``seconds``, ``examples_per_s``, ``eval_seconds``, ``peak_rss_mb``, ``peak_gpu_mb``;
* where the runs wrote (:data:`LOCATION_PATHS`): ``audit.options.out``, ``audit.model_dir`` and
  ``paths`` (two audits into two directories), and the directory of each ``results.json`` inside
  any string (input file names such as ``OUT/perturbed/e1.json``; their sha256 are still compared).

Everything else — every EM/F1, drop, CI bound, reading, the training log's losses, steps and dev
scores, the training record, the options — must be equal (floats compared exactly).

Examples:
    >>> differences({"f1": 50.0, "created": "x", "sets": [1, 2]}, {"f1": 50.5, "created": "y", "sets": [1, 2]})
    ['f1: 50.0 != 50.5']
    >>> differences({"a": {"b": 1}}, {"a": {}})
    ['a.b: 1 != absent']
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mrclens.artifacts import _files
from mrclens.artifacts.layout import RESULTS_JSON
from mrclens.artifacts.results import Results
from mrclens.artifacts.results_csv import RESULTS_HINT
from mrclens.errors import ArtifactError, ArtifactMsg
from mrclens.io_utils import first_non_finite

#: Keys holding times, ignored wherever they are.
TIME_KEYS = frozenset({"created", "step_seconds", "minutes", "seconds", "examples_per_s", "eval_seconds",
                       "peak_rss_mb", "peak_gpu_mb"})
#: Dotted paths holding output locations, ignored.
LOCATION_PATHS = frozenset({"audit.options.out", "audit.model_dir", "paths"})
#: Keys every results file has (:meth:`mrclens.artifacts.results.Results.to_json`); a JSON object with none is another file.
RESULTS_KEYS = frozenset({"model", "bootstrap", "sets", "ablations", "categories"})
#: What stands for each file's own output directory inside strings.
OUT_PLACEHOLDER = "<OUT>"


@dataclass
class ResultsDiff:
    """The differences between two results files.

    Attributes:
        files: the two ``results.json`` paths compared.
        differences: one ``"path: A != B"`` line per differing value (``absent`` for a missing key;
            lists of different lengths are one line).
        n_ablations: how many ablations the first file has.
        n_sets: how many scored sets the first file has.
    """

    files: tuple[str, str]
    differences: list[str]
    n_ablations: int
    n_sets: int

    @property
    def identical(self) -> bool:
        """Whether nothing but the ignored fields differs."""
        return not self.differences

    def summary(self) -> str:
        """``"N difference(s) (ignoring time fields and output locations); A ablations, S sets compared"``."""
        return (f"{len(self.differences)} difference(s) (ignoring time fields and output locations); "
                f"{self.n_ablations} ablations, {self.n_sets} sets compared")

    def to_json(self) -> dict[str, Any]:
        """The comparison as ``mrclens diff-results --json`` prints it."""
        return {"files": list(self.files), "identical": self.identical, "differences": self.differences,
                "n_ablations": self.n_ablations, "n_sets": self.n_sets}


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """The differing leaves of two JSON values, as ``"path: a != b"`` lines (ignored keys skipped;
    values shown as JSON, cut at 80 characters)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for key in sorted(set(a) | set(b)):
            sub = f"{path}.{key}" if path else str(key)
            if key in TIME_KEYS or sub in LOCATION_PATHS:
                continue
            if key not in a or key not in b:
                out.append(f"{sub}: {'absent' if key not in a else json.dumps(a[key])[:80]} != "
                           f"{'absent' if key not in b else json.dumps(b[key])[:80]}")
            else:
                out += differences(a[key], b[key], sub)
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: list of {len(a)} != list of {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}[{i}]")]
    if type(a) is not type(b) or a != b:
        return [f"{path}: {json.dumps(a)[:80]} != {json.dumps(b)[:80]}"]
    return []


def _results_file(path: str | os.PathLike) -> Path:
    path = Path(path)
    return path / RESULTS_JSON if path.is_dir() else path


def _placeholders(value: Any, out_dir: str) -> Any:
    if isinstance(value, str):
        return value.replace(out_dir, OUT_PLACEHOLDER)
    if isinstance(value, dict):
        return {k: _placeholders(v, out_dir) for k, v in value.items()}
    if isinstance(value, list):
        return [_placeholders(v, out_dir) for v in value]
    return value


def read_checked(path: Path) -> dict[str, Any]:
    """``path`` read as a results file: the JSON object, checked as :func:`mrclens.artifacts.results.read_results`
    checks it (so ``mrclens card`` and ``diff-results`` accept and refuse the same files), and holding no
    ``NaN`` or ``Infinity`` anywhere (such a value differs from itself; MRCLens never writes one).

    Raises:
        ArtifactError: the file is missing, not JSON, not a results file (a data or statistics file: a
            required field is missing), of a newer format version, or holds a number that is not finite.
    """
    obj = _files.read_json_object(path, RESULTS_HINT)
    if not RESULTS_KEYS & obj.keys():  # another JSON file (data, statistics): say so, not which field is missing
        keys = ", ".join(sorted(obj)[:6]) or "none"
        raise ArtifactError(ArtifactMsg.BAD_SHAPE.format(
            path=path, expected=f"an MRCLens results file (results.json of `mrclens audit` or `mrclens evaluate "
                                f"--out`), got a JSON object with keys {keys}"))
    Results.from_json(obj, path)
    found = first_non_finite(obj)
    if found is not None:
        raise ArtifactError(ArtifactMsg.NOT_FINITE.format(path=path, where="", field=found[0], value=found[1]))
    return obj


def diff_results(a: str | os.PathLike, b: str | os.PathLike) -> ResultsDiff:
    """Compare two results value by value (``mrclens.diff_results``, ``mrclens diff-results A B``): are two runs
    the same? Times (:data:`TIME_KEYS`) and output locations (:data:`LOCATION_PATHS`, and each file's own directory
    inside strings) are ignored; every other value, floats included, must be exactly equal.

    Args:
        a: the first results: a ``results.json`` file or the directory holding it.
        b: the second, likewise.

    Returns:
        a :class:`ResultsDiff`: ``.identical`` is ``True`` when nothing but the ignored fields differs;
        ``.differences`` one ``"path: A != B"`` line per differing value.

    Raises:
        ArtifactError: a file is missing or not a readable results file (:func:`read_checked`; the
            message names it and what is wrong).
    """
    files = (_results_file(a), _results_file(b))
    objs = [_placeholders(read_checked(f), os.path.dirname(os.path.abspath(f))) for f in files]
    return ResultsDiff((str(files[0]), str(files[1])), differences(*objs),
                       len(objs[0].get("ablations", [])), len(objs[0].get("sets", {})))
