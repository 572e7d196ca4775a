"""The task registry: what kind of question answering a dataset poses, registered in one place.

MRCLens audits two tasks today: **span extraction** (SQuAD-style: a context, a question, an answer
span; scored with the official EM/F1, Rajpurkar et al. 2016) and **multiple choice** (CODAH-style:
a prompt and endings, one correct; scored with accuracy, Chen et al. 2019). Code that behaves
differently per task asks the task (``get_task(name).metric``, ``task.entry("load")(path)``)
instead of comparing its name with a string, so a third task (yes/no, free-form answers) is one
new :func:`register` call here, not edits in every stage.

The pattern follows spaCy's registries (``spacy.registry``, filled by ``catalogue``) and AllenNLP's
``Registrable``, with one difference: every registration is made in this file, and a task's
entry points are *dotted names* (``"package.module:attribute"``) imported only when asked for.
This module therefore stands on the ground floor and imports no stage; the stages stay above it
in the import contract (``setup.cfg``), and ``mrclens --help`` stays cheap. Only the entry points
written below are ever imported: a task name read from a file (``results.json`` ``"task"``) is
looked up among the registered tasks and never turned into an import.

Examples:
    >>> get_task("span").metric, get_task("multiple_choice").metric
    ('F1', 'accuracy')
    >>> [t.name for t in all_tasks()]
    ['span', 'multiple_choice']
    >>> get_task("yes_no")
    Traceback (most recent call last):
    ...
    mrclens.errors.MRCLensError: unknown task 'yes_no' (known: span, multiple_choice)
    >>> task_of(object()).name  # an object without a ``task`` attribute is span data
    'span'
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

from mrclens.errors import MRCLensError

#: The name of the default task: data, manifests and results that record no task are span data
#: (files written before multiple choice existed, and span files today: the field is written
#: only when it differs from this default).
DEFAULT_TASK = "span"


@dataclass(frozen=True)
class Task:
    """One task MRCLens can audit.

    Attributes:
        name: the identifier written to files (``manifest.json``, ``results.json``,
            ``comparison.json``: ``"task"``) and used on the command line.
        title: plain-language name for messages (``"span extraction"``).
        data_label: what its data is called in messages (``"SQuAD"``, ``"multiple-choice"``).
        metric: the per-question score every ``exact_match`` / ``f1`` figure of its results holds
            (``"F1"`` in 0-100 percentage points for span extraction; ``"accuracy"`` for multiple choice).
        rules_file: the shipped ``mrclens check`` rules, a file under ``mrclens/data/``.
        entry_points: role → ``"module:attribute"``; see :meth:`entry`.
    """

    name: str
    title: str
    data_label: str
    metric: str
    rules_file: str
    entry_points: Mapping[str, str] = field(default_factory=dict)

    @property
    def is_default(self) -> bool:
        """Whether files leave the task unwritten (:data:`DEFAULT_TASK`)."""
        return self.name == DEFAULT_TASK

    def entry(self, role: str) -> Any:
        """The object registered for ``role`` (``"load"``, ``"stats"``, ``"audit"``, …), imported now.

        Raises:
            MRCLensError: the task has no entry point for ``role`` (the message names the task, the
                role and the roles it has).
        """
        try:
            target = self.entry_points[role]
        except KeyError:
            known = ", ".join(sorted(self.entry_points))
            raise MRCLensError(f"{self.title} has no {role!r} step (it has: {known})") from None
        module, _, attribute = target.partition(":")
        obj: Any = importlib.import_module(module)
        for part in attribute.split("."):
            obj = getattr(obj, part)
        return obj

    def has(self, role: str) -> bool:
        """Whether the task registers an entry point for ``role``."""
        return role in self.entry_points


_TASKS: dict[str, Task] = {}


def register(task: Task) -> Task:
    """Add ``task`` to the registry and return it.

    Raises:
        ValueError: a task of that name is registered already.
    """
    if task.name in _TASKS:
        raise ValueError(f"task {task.name!r} is registered already")
    _TASKS[task.name] = task
    return task


def get_task(name: str | None) -> Task:
    """The registered task called ``name`` (``None``: the default task, span extraction).

    Raises:
        MRCLensError: no task of that name is registered (the message lists the known ones).
    """
    if name is None:
        name = DEFAULT_TASK
    try:
        return _TASKS[name]
    except (KeyError, TypeError):
        raise MRCLensError(f"unknown task {name!r} (known: {', '.join(_TASKS)})") from None


def task_of(obj: Any) -> Task:
    """The task of a dataset, manifest, results or other object with a ``task`` name attribute
    (an object without one holds span data, :data:`DEFAULT_TASK`).

    Raises:
        MRCLensError: the object names a task that is not registered.
    """
    return get_task(getattr(obj, "task", None))


def all_tasks() -> Iterator[Task]:
    """The registered tasks, in registration order (span extraction first)."""
    return iter(_TASKS.values())


# --- The registrations: every task MRCLens knows, in one place. ---------------------------------

SPAN = register(Task(
    name="span",
    title="span extraction",
    data_label="SQuAD",
    metric="F1",
    rules_file="default_rules.toml",
    entry_points={
        "load": "mrclens.formats:load_dataset",
        "audit": "mrclens.audit.span:run_audit",
        "cli_audit_options": "mrclens.cli.audit:span_audit_options",
    },
))

MULTIPLE_CHOICE = register(Task(
    name="multiple_choice",
    title="multiple choice",
    data_label="multiple-choice",
    metric="accuracy",
    rules_file="default_rules_mc.toml",
    entry_points={
        "load": "mrclens.multiple_choice.data:load_mc_dataset",
        "sniff": "mrclens.multiple_choice.data:sniff_mc",
        "audit": "mrclens.audit.multiple_choice:run_mc_audit",
        "cli_audit_options": "mrclens.cli.audit:mc_audit_options",
    },
))
