"""The task registry (mrclens.tasks) and each stage's per-task tables: every role has one table, every
table covers every task it must, and every entry keeps its role's Protocol (issue 43, item 2)."""

from __future__ import annotations

import ast
import gzip
import importlib
import inspect
import re
import shutil
import types
import typing
from typing import Any, Protocol

import pytest
from package_modules import PACKAGE_DIR, package_modules

from mrclens.errors import MRCLensError
from mrclens.formats import detect_task
from mrclens.tasks import (DEFAULT_TASK, MULTIPLE_CHOICE, SPAN, Task, TaskTable, all_tasks, get_task, register,
                           task_field, task_of)

#: Every role a task fills, and whether a task may lack it (the sniffers: span data is what no other task
#: claims; the language check: multiple-choice data is not checked).
ROLES = {"sniff": True, "sniff_input": True, "load_set": False, "languages": True, "file_stats": False,
         "is_metric": False, "metric_paths": False, "perturb_file": False, "ablations": False, "score_set": False,
         "score_file": False, "report_facts": False, "report_examples": False, "report_exposed": True, "compare": False,
         "audit": False, "cli_audit_options": False}


@pytest.fixture(scope="module")
def tables() -> dict[str, tuple[TaskTable, list[str]]]:
    """Every :class:`TaskTable` of the package (every module imported), by role, with the modules holding it."""
    found: dict[int, tuple[TaskTable, list[str]]] = {}
    for name in package_modules():
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, TaskTable):
                found.setdefault(id(value), (value, []))[1].append(name)
    by_role: dict[str, tuple[TaskTable, list[str]]] = {}
    for table, modules in found.values():
        assert table.role not in by_role, f"role {table.role!r} has two tables: {by_role[table.role][1]} and {modules}"
        by_role[table.role] = (table, modules)
    return by_role


# --- Signatures against the role's Protocol. -------------------------------------------------------

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def _members(t: Any) -> set:
    return set(typing.get_args(t)) if typing.get_origin(t) in (typing.Union, types.UnionType) else {t}


def _fits(have: Any, want: Any) -> bool:
    """Whether a return type ``have`` is one the role allows (``want``, a member of it, or a subclass)."""
    if want is Any:
        return True
    wanted = _members(want)
    return all(h in wanted or (isinstance(h, type) and any(isinstance(w, type) and issubclass(h, w) for w in wanted))
               for h in _members(have))


def _return_problems(impl: Any, protocol: type) -> list[str]:
    want = typing.get_type_hints(protocol.__call__).get("return", Any)
    if want is Any:
        return []
    try:
        hints = typing.get_type_hints(impl)
    except NameError:  # an annotation only a type checker can resolve: compare the written names
        written = inspect.signature(impl).return_annotation
        parts = {p.strip() for p in str(written).split("|")}
        allowed = {getattr(m, "__name__", str(m)) for m in _members(want)} | {"None"}
        return [] if parts <= allowed else [f"returns {written}, the role {want}"]
    if "return" not in hints:
        return [f"has no return annotation (the role returns {want})"]
    return [] if _fits(hints["return"], want) else [f"returns {hints['return']}, the role {want}"]


def signature_problems(impl: Any, protocol: type) -> list[str]:
    """What keeps ``impl`` from standing where the role's ``protocol`` is called: a positional parameter of
    another name or missing, a keyword it does not take (and no ``**options``), a default the role has and
    it lacks, a parameter it requires that the role never passes, a return type outside the role's.
    Parameter types are not compared (an entry may accept more than the role passes)."""
    want = list(inspect.signature(protocol.__call__).parameters.values())[1:]  # without self
    have = list(inspect.signature(impl).parameters.values())
    var_kw = any(p.kind is p.VAR_KEYWORD for p in have)
    var_pos = any(p.kind is p.VAR_POSITIONAL for p in have)
    positional = [p for p in have if p.kind in _POSITIONAL]
    by_name = {p.name: p for p in have if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    problems, used = [], set()
    for i, p in enumerate(p for p in want if p.kind in _POSITIONAL):
        if i >= len(positional):
            if not var_pos:
                problems.append(f"takes no positional parameter {p.name!r}")
            continue
        q = positional[i]
        used.add(q.name)
        if p.kind is p.POSITIONAL_OR_KEYWORD and q.name != p.name:
            problems.append(f"its parameter {i} is {q.name!r}, the role's {p.name!r}")
        if p.default is not p.empty and q.default is q.empty:
            problems.append(f"{q.name!r} has no default, the role's has one")
    for p in (p for p in want if p.kind is p.KEYWORD_ONLY):
        q = by_name.get(p.name)
        if q is None:
            if not var_kw:
                problems.append(f"takes no keyword {p.name!r}")
            continue
        used.add(q.name)
        if p.default is not p.empty and q.default is q.empty:
            problems.append(f"{q.name!r} has no default, the role's has one")
    problems += [f"requires {q.name!r}, which the role never passes" for q in have
                 if q.name not in used and q.default is q.empty and q.kind not in (q.VAR_POSITIONAL, q.VAR_KEYWORD)]
    return problems + _return_problems(impl, protocol)


def _is_protocol(kind: type) -> bool:
    return bool(getattr(kind, "_is_protocol", False)) and "__call__" in vars(kind)


def test_every_role_has_one_table(tables):
    assert set(tables) == set(ROLES)
    for role, (table, _) in tables.items():
        assert table.optional is ROLES[role], role


def test_every_table_covers_every_task_it_must(tables):
    for role, (table, _) in tables.items():
        having = {t.name for t, _ in table.items()}
        if not table.optional:
            assert having == {t.name for t in all_tasks()}, role
        assert having, role


def test_every_entry_keeps_its_roles_protocol(tables):
    """The typing of roles (issue 43): a function's signature against its role's Protocol, data against its
    role's class; a wrong keyword, a missing default or a wrong return type fails here, not in a user's run."""
    problems = []
    for role, (table, _) in sorted(tables.items()):
        for task, entry in table.items():
            if _is_protocol(table.kind):
                problems += [f"{role} of {task.name} ({entry.__module__}.{entry.__qualname__}): {p}"
                             for p in signature_problems(entry, table.kind)]
            elif not isinstance(entry, table.kind):
                problems.append(f"{role} of {task.name}: {type(entry).__name__}, not {table.kind.__name__}")
    assert problems == []
    callable_roles = {role for role, (table, _) in tables.items() if _is_protocol(table.kind)}
    assert callable_roles == set(ROLES) - {"metric_paths", "ablations", "compare"}


class _Loader(Protocol):
    def __call__(self, path: str, *, cache_dir: str | None = None, on_invalid: str = "refuse") -> int | None: ...


def test_the_signature_check_finds_what_breaks_a_role():
    """The check itself can fail: each way of breaking a role is named."""
    def good(path, *, cache_dir=None, on_invalid="refuse", extra=1) -> int: ...
    def lenient(path, **options) -> None: ...
    def renamed(file, *, cache_dir=None, on_invalid="refuse") -> int: ...
    def no_keyword(path, *, cache_dir=None) -> int: ...
    def no_default(path, *, cache_dir, on_invalid="refuse") -> int: ...
    def needs_more(path, seed, *, cache_dir=None, on_invalid="refuse") -> int: ...
    def wrong_return(path, *, cache_dir=None, on_invalid="refuse") -> str: ...

    assert signature_problems(good, _Loader) == [] and signature_problems(lenient, _Loader) == []
    assert signature_problems(renamed, _Loader) == ["its parameter 0 is 'file', the role's 'path'"]
    assert signature_problems(no_keyword, _Loader) == ["takes no keyword 'on_invalid'"]
    assert signature_problems(no_default, _Loader) == ["'cache_dir' has no default, the role's has one"]
    assert signature_problems(needs_more, _Loader) == ["requires 'seed', which the role never passes"]
    assert signature_problems(wrong_return, _Loader) == ["returns <class 'str'>, the role int | None"]


# --- The registry itself. --------------------------------------------------------------------------

def test_tasks_py_names_no_module_above_it():
    """No dotted-string entry point ("package.module:attribute") and no import but the errors'."""
    source = (PACKAGE_DIR / "tasks.py").read_text(encoding="utf-8")
    assert re.findall(r"""["']mrclens\.[\w.]+:\w+""", source) == []
    imported = {n.module for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ImportFrom)}
    assert imported == {"__future__", "dataclasses", "typing", "mrclens.errors"}


def test_lookups_and_errors():
    assert get_task(None) is SPAN and get_task("span") is SPAN and get_task(MULTIPLE_CHOICE) is MULTIPLE_CHOICE
    with pytest.raises(MRCLensError, match="unknown task 'free_form'"):
        get_task("free_form")
    with pytest.raises(ValueError, match="registered already"):
        register(Task(name="span", title="x", data_label="x", metric="F1", metric_phrase="x", rules_file="x"))
    with pytest.raises(ValueError, match="no entry for task.s. multiple_choice"):
        TaskTable("translate", object, {SPAN: "x"})
    with pytest.raises(ValueError, match="not registered tasks"):
        TaskTable("translate", object, {SPAN: "x", MULTIPLE_CHOICE: "y", "yes_no": "z"})
    only_span = TaskTable("translate", object, {SPAN: "x"}, optional=True)
    with pytest.raises(MRCLensError, match="multiple choice has no 'translate' step .span extraction has one."):
        only_span.of(MULTIPLE_CHOICE)
    assert only_span.of(None) == "x" and "span" in only_span and MULTIPLE_CHOICE not in only_span


def test_every_task_names_the_commands_that_read_its_data(tables):
    """The commands a message names for a task's data (Task.commands) are those whose tables hold the task."""
    steps = {"audit": "audit", "perturb": "perturb_file", "evaluate": "score_file", "stats": "file_stats",
             "check": "file_stats", "compare": "compare", "validate": "load_set"}
    for task in all_tasks():
        assert set(task.commands) == {c for c, role in steps.items() if task in tables[role][0]}, task.name


def test_task_of_files_and_objects():
    class Manifest:
        task = "multiple_choice"

    assert task_of(Manifest()) is MULTIPLE_CHOICE and task_of(object()) is SPAN
    assert task_field(DEFAULT_TASK) == {} and task_field("multiple_choice") == {"task": "multiple_choice"}


def test_detect_task_on_real_files(tmp_path, squad_dev_path, codah_dir):
    """CODAH TSV and its folds folder are multiple choice; SQuAD JSON and a missing file are span data;
    an empty folder is claimed only where folders are multiple-choice input (stats / check)."""
    tsv = tmp_path / "test.tsv"
    with gzip.open(codah_dir / "cv_split" / "fold_0" / "test.tsv.gz", "rb") as src, open(tsv, "wb") as dst:
        shutil.copyfileobj(src, dst)
    assert detect_task(tsv) is MULTIPLE_CHOICE
    assert detect_task(codah_dir / "cv_split" / "fold_0" / "test.tsv.gz") is MULTIPLE_CHOICE
    assert detect_task(codah_dir) is MULTIPLE_CHOICE
    assert detect_task(squad_dev_path) is SPAN
    assert detect_task(tmp_path / "missing.json") is SPAN
    (tmp_path / "empty").mkdir()
    assert detect_task(tmp_path / "empty") is SPAN
    assert detect_task(tmp_path / "empty", role="sniff_input") is MULTIPLE_CHOICE
    with pytest.raises(ValueError, match="'sniff' or 'sniff_input'"):
        detect_task(tsv, role="load_set")


def test_a_file_naming_an_unknown_task_is_refused_with_its_name(tmp_path):
    """manifest.json with "task": "yes_no": `mrclens evaluate` exits 2 naming the file and the known tasks
    (it was read as span data before, and a later step failed without naming the file)."""
    import json

    from click.testing import CliRunner
    from perturbed_fixture import make_perturbed_dir, write_predictions

    from mrclens.cli import main

    perturbed = make_perturbed_dir(tmp_path)
    manifest = json.loads((perturbed / "manifest.json").read_text())
    (perturbed / "manifest.json").write_text(json.dumps({**manifest, "task": "yes_no"}))
    res = CliRunner().invoke(main, ["evaluate", str(perturbed), "--predictions-dir", str(write_predictions(tmp_path))])
    assert res.exit_code == 2, res.output
    assert "manifest.json" in res.output and "'yes_no'" in res.output and "span, multiple_choice" in res.output
