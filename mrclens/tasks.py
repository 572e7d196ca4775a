"""The task registry: what kind of question answering a dataset poses, registered in one place.

MRCLens audits two tasks today: **span extraction** (SQuAD-style: a context, a question, an answer
span; scored with the official EM/F1, Rajpurkar et al. 2016) and **multiple choice** (CODAH-style:
a prompt and endings, one correct; scored with accuracy, Chen et al. 2019). A :class:`Task` is what
files and messages say about a task (its name, metric, rules file, the commands that read its data);
code that behaves differently per task asks the task (``task_of(results).metric``) instead of
comparing its name with a string.

What each task *does* in a stage is kept by that stage, in a :class:`TaskTable`: one role, the
Protocol (or class) its entries keep, and one entry per task, imported by the stage's module as any
other import, downward in the floors of ``setup.cfg``, so the import contract sees every edge. No
stage reaches its own functions through this module, and nothing here names a module above it.
The roles and where their tables are (each table's module also defines the role's Protocol):

========================  ===============================================  ==========================
role                      what it is called with                           table
========================  ===============================================  ==========================
``sniff``                 ``(path) -> truthy``: a file of this task         ``formats.SNIFF``
``sniff_input``           the same for ``stats`` / ``check``, folders too   ``formats.SNIFF_INPUT``
``load_set``              ``(path) -> dataset``                             ``formats.LOAD_SET``
``languages``             ``(path, cache_dir=, on_invalid=) -> report``     ``languages.LANGUAGES``
``file_stats``            ``(data, dev, **options) -> FileStats``           ``checks.FILE_STATS``
``is_metric``             ``(dotted path) -> bool``                         ``checks.IS_METRIC``
``metric_paths``          every such figure (a tuple of paths)              ``checks.KNOWN_METRICS``
``perturb_file``          ``(data, out_dir, **options) -> lines``           ``cli.perturb.PERTURB_FILE``
``ablations``             the ablation registry (id -> ablation)            ``scoring.readings.ABLATION_REGISTRIES``
``score_set``             ``(name, dataset, predictions) -> SetScores``     ``scoring.sets.SCORE_SET``
``score_file``            ``(data, predictions, ...) -> FileScore``         ``scoring.files.SCORE_FILE``
``report_facts``          the report's "the data" card                      ``reports.report.REPORT_FACTS``
``report_examples``       one ablation's block of the example viewer        ``reports.report.REPORT_EXAMPLES``
``report_exposed``        the report's most exposed questions (optional)    ``reports.report.REPORT_EXPOSED``
``compare``               ``mrclens compare``'s hooks (TaskComparison)      ``compare.hooks.COMPARISONS``
``audit``                 ``(options) -> Results``                          ``audit.AUDITS``
``cli_audit_options``     ``(click context, **values) -> options``          ``cli.audit.AUDIT_OPTIONS``
========================  ===============================================  ==========================

A third task (yes/no, free-form answers) is one :func:`register` call here and one entry in each
table (a table that lacks a registered task, and is not ``optional``, refuses to be built);
``tests/test_tasks.py`` checks every entry's signature against its role's Protocol. A task name
read from a file (``results.json`` ``"task"``) is looked up among the registered tasks and never
turned into an import.

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
    >>> table = TaskTable("describe", object, {SPAN: "spans"}, optional=True)
    >>> table.of("span"), table.get(MULTIPLE_CHOICE), MULTIPLE_CHOICE in table
    ('spans', None, False)
    >>> table.of("multiple_choice")
    Traceback (most recent call last):
    ...
    mrclens.errors.MRCLensError: multiple choice has no 'describe' step (span extraction has one)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, Iterator, Mapping, TypeVar

from mrclens.errors import ArtifactError, MRCLensError

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
        metric_phrase: how the report says what the model is scored with.
        rules_file: the shipped ``mrclens check`` rules, a file under ``mrclens/data/``.
        check_compare_with: whether ``mrclens check --compare-with`` (rules on the differences
            from a reference dataset) is available for its data.
        data_route: whether its data is read against the shipped reference's model-free figures, before any
            reader (``mrclens check``'s verdict from the data alone, the audit's preliminary verdict;
            :mod:`mrclens.scoring.data_route`).
        commands: the ``mrclens`` commands that read its data, named in the message about a file of
            this task given to a command of another (:func:`mrclens.formats.unknown_format_problem`).
        prediction_form: what a prediction file gives per question id: ``"text"`` (the answer text,
            in any of the span forms) or ``"choice"`` (the 0-based index of the chosen ending);
            :mod:`mrclens.artifacts.predictions`.
    """

    name: str
    title: str
    data_label: str
    metric: str
    metric_phrase: str
    rules_file: str
    check_compare_with: bool = False
    data_route: bool = False
    commands: tuple[str, ...] = ()
    prediction_form: str = "text"

    @property
    def is_default(self) -> bool:
        """Whether files leave the task unwritten (:data:`DEFAULT_TASK`)."""
        return self.name == DEFAULT_TASK


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


def get_task(name: "str | Task | None") -> Task:
    """The registered task called ``name`` (``None``: the default task, span extraction; a
    :class:`Task` is returned as it is, so functions can take either).

    Raises:
        MRCLensError: no task of that name is registered (the message lists the known ones).
    """
    if isinstance(name, Task):
        return name
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


def read_task_name(value: Any, where: str) -> str:
    """A task name read from a file (``"task"`` of ``manifest.json`` / ``results.json``), checked.

    Raises:
        ArtifactError: ``value`` names no registered task (the message starts with ``where``, the
            file, and lists the known tasks).

    >>> read_task_name("multiple_choice", "results.json")
    'multiple_choice'
    """
    if value not in _TASKS:
        raise ArtifactError(f"{where}: \"task\" is {value!r}, not a task MRCLens knows ({', '.join(_TASKS)})")
    return value


def task_field(name: str) -> dict[str, str]:
    """The ``"task"`` entry of a file MRCLens writes (``manifest.json``, ``results.json``,
    ``comparison.json``): nothing for the default task, so span files look as they did before
    multiple choice existed, else ``{"task": name}``.

    >>> task_field("span"), task_field("multiple_choice")
    ({}, {'task': 'multiple_choice'})
    """
    return {} if name == DEFAULT_TASK else {"task": name}


R = TypeVar("R")


class TaskTable(Generic[R]):
    """What each task does in one role, kept by the stage that owns the role (the table of roles is
    in the module docstring).

    Args:
        role: the role's name (``"load_set"``), used in messages.
        kind: what every entry is: the role's ``typing.Protocol`` for a function (its ``__call__`` is the
            signature every entry keeps; ``tests/test_tasks.py`` checks it), or a class for data
            (an ablation registry, a ``TaskComparison``).
        entries: registered :class:`Task` → its entry.
        optional: a task may have no entry (the sniffers: span data is what no other task claims; the
            language check: multiple-choice data is not checked); otherwise every registered task must.

    Raises:
        ValueError: an entry for an object that is not a registered task, or a registered task without
            an entry in a table that is not ``optional``.
    """

    def __init__(self, role: str, kind: type, entries: Mapping[Task, R], *, optional: bool = False) -> None:
        strangers = [t for t in entries if not isinstance(t, Task) or _TASKS.get(t.name) is not t]
        if strangers:
            raise ValueError(f"role {role!r}: {strangers!r} are not registered tasks")
        missing = [t.name for t in _TASKS.values() if t not in entries]
        if missing and not optional:
            raise ValueError(f"role {role!r} has no entry for task(s) {', '.join(missing)}")
        self.role = role
        self.kind = kind
        self.optional = optional
        self._entries: dict[str, R] = {t.name: entries[t] for t in _TASKS.values() if t in entries}

    def of(self, task: "str | Task | None") -> R:
        """The entry of ``task`` (a :class:`Task`, a task name, or ``None`` for the default task).

        Raises:
            MRCLensError: an unknown task, or a task without an entry (the message names the task, the
                role and the tasks that have one).
        """
        task = get_task(task)
        try:
            return self._entries[task.name]
        except KeyError:
            having = ", ".join(_TASKS[name].title for name in self._entries) or "no task"
            raise MRCLensError(f"{task.title} has no {self.role!r} step ({having} has one)") from None

    def get(self, task: "str | Task | None") -> R | None:
        """The entry of ``task``, or ``None`` when it has none."""
        return self._entries.get(get_task(task).name)

    def __contains__(self, task: object) -> bool:
        name = task.name if isinstance(task, Task) else task
        return isinstance(name, str) and name in self._entries

    def with_entry(self, task: "str | Task", entry: R) -> "TaskTable[R]":
        """A copy of the table with ``task``'s entry replaced by ``entry`` (a test stands a fake in this way,
        in place of the table the stage reads).

        >>> TaskTable("describe", object, {SPAN: "spans"}, optional=True).with_entry(MULTIPLE_CHOICE, "endings")
        TaskTable('describe': span, multiple_choice)
        """
        entries = {t: e for t, e in self.items()}
        entries[get_task(task)] = entry
        return TaskTable(self.role, self.kind, entries, optional=self.optional)

    def items(self) -> Iterator[tuple[Task, R]]:
        """``(task, entry)`` pairs, in registration order."""
        return ((_TASKS[name], entry) for name, entry in self._entries.items())

    def __repr__(self) -> str:
        return f"TaskTable({self.role!r}: {', '.join(self._entries)})"


# --- The registrations: every task MRCLens knows, in one place. ---------------------------------

#: The commands that read a dataset file (``mrclens validate`` reads every task's).
_DATA_COMMANDS = ("audit", "perturb", "evaluate", "stats", "check", "compare", "validate")

SPAN = register(Task(
    name="span",
    title="span extraction",
    data_label="SQuAD",
    metric="F1",
    metric_phrase="the official SQuAD F1",
    rules_file="default_rules.toml",
    check_compare_with=True,
    data_route=True,
    commands=_DATA_COMMANDS,
))

MULTIPLE_CHOICE = register(Task(
    name="multiple_choice",
    title="multiple choice",
    data_label="multiple-choice",
    metric="accuracy",
    metric_phrase="accuracy (the share of questions whose chosen ending is the gold one)",
    rules_file="default_rules_mc.toml",
    commands=_DATA_COMMANDS,
    prediction_form="choice",
))
