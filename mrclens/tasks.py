"""The task registry: what kind of question answering a dataset poses, registered in one place.

MRCLens audits two tasks today: **span extraction** (SQuAD-style: a context, a question, an answer
span; scored with the official EM/F1, Rajpurkar et al. 2016) and **multiple choice** (CODAH-style:
a prompt and endings, one correct; scored with accuracy, Chen et al. 2019). Code that behaves
differently per task asks the task (``get_task(name).metric``, ``task.entry("load_set")(path)``)
instead of comparing its name with a string, so a third task (yes/no, free-form answers) is one
new :func:`register` call here, not edits in every stage.

The pattern follows spaCy's registries (``spacy.registry``, filled by ``catalogue``) and AllenNLP's
``Registrable``, with one difference: every registration is made in this file, and a task's
entry points are *dotted names* (``"package.module:attribute"``) imported only when asked for.
This module therefore stands on the ground floor and imports no stage; the stages stay above it
in the import contract (``setup.cfg``), and ``mrclens --help`` stays cheap. Only the entry points
written below are ever imported: a task name read from a file (``results.json`` ``"task"``) is
looked up among the registered tasks and never turned into an import.

The roles a task registers (each a dotted name; what it is called with):

* ``sniff``: ``(path) -> truthy``: the file is this task's data (:func:`detect_task`)
* ``sniff_input``: the same for ``mrclens stats`` / ``check``, folders included
* ``load_set``: ``(path) -> dataset``: a perturbed set file as ``mrclens perturb`` wrote it
* ``perturb_file``: ``(data, out_dir, **options) -> summary lines``: ``mrclens perturb``
* ``file_stats``: ``(data, dev, **options) -> FileStats``: ``mrclens stats`` / ``check``
* ``languages``: ``(path, cache_dir=, on_invalid=) -> LanguageReport``: the languages of the data
  (:mod:`mrclens.languages`; a task without it is not checked for its language)
* ``is_metric``: ``(dotted path) -> bool``: a figure a ``check`` rule may test
* ``metric_paths``: every such figure (for "did you mean")
* ``ablations``: the ablation registry (id -> metadata and rule)
* ``score_set``: ``(name, dataset, predictions) -> SetScores``: per-question scores of one set
* ``score_file``: ``(data, predictions, na_threshold=, on_invalid=) -> FileScore``: ``mrclens evaluate DATA
  PREDICTIONS``
* ``report_facts``: the report's "the data" card of the original set
* ``report_examples``: fills one ablation's block of the report's example viewer
* ``compare``: the task's hooks of ``mrclens compare`` (rows, readers, notes)
* ``audit``: ``(options) -> Results``: the end-to-end audit
* ``cli_audit_options``: ``(click context, **command-line values) -> options``: ``mrclens audit``'s
  checks of its options, whose messages differ per task (the one role that names the command line;
  it is imported only by the command line)

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

from mrclens import inputs
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
        entry_points: role → ``"module:attribute"``; see :meth:`entry`.
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
    entry_points: Mapping[str, str] = field(default_factory=dict)
    prediction_form: str = "text"

    @property
    def is_default(self) -> bool:
        """Whether files leave the task unwritten (:data:`DEFAULT_TASK`)."""
        return self.name == DEFAULT_TASK

    def entry(self, role: str) -> Any:
        """The object registered for ``role`` (``"load_set"``, ``"file_stats"``, ``"audit"``, …; the roles are listed in the module docstring), imported now.

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


def detect_task(path: Any, *, role: str = "sniff") -> Task:
    """The task of the data at ``path``: the first registered task whose ``role`` entry point claims
    it (returns a truthy value), else the default task (span data is what every other task's
    sniffer leaves over: SQuAD JSON, MRQA, Natural Questions, Hugging Face flat files).

    Two roles are registered: ``"sniff"`` claims a *file* by its format (``mrclens perturb``,
    ``evaluate``, ``audit``), ``"sniff_input"`` also claims folders (``mrclens stats`` / ``check``,
    where any folder is a multiple-choice folds folder, refused with its own message when it has
    no folds). Sniffers read at most the file's first lines; none raises for a missing file. A declared
    input of the command is sniffed once per role (:func:`mrclens.inputs.remember`).
    """
    return inputs.remember(path, ("tasks.detect_task", role), lambda: _detect_task(path, role))


def _detect_task(path: Any, role: str) -> Task:
    for task in _TASKS.values():
        if task.has(role) and task.entry(role)(path):
            return task
    return get_task(DEFAULT_TASK)


# --- The registrations: every task MRCLens knows, in one place. ---------------------------------

SPAN = register(Task(
    name="span",
    title="span extraction",
    data_label="SQuAD",
    metric="F1",
    metric_phrase="the official SQuAD F1",
    rules_file="default_rules.toml",
    check_compare_with=True,
    entry_points={
        "load_set": "mrclens.formats:load_squad_file",
        "file_stats": "mrclens.stats.files:span_file_stats",
        "languages": "mrclens.languages:file_languages",
        "perturb_file": "mrclens.perturbations.files:perturb_span_file",
        "score_file": "mrclens.scoring.files:score_span_file",
        "is_metric": "mrclens.stats.schema:is_metric",
        "metric_paths": "mrclens.stats.schema:METRIC_PATHS",
        "report_facts": "mrclens.reports.examples:span_report_facts",
        "report_examples": "mrclens.reports.examples:span_example_block",
        "compare": "mrclens.compare.span:SPAN_COMPARISON",
        "score_set": "mrclens.scoring.sets:score_span_set",
        "ablations": "mrclens.perturbations.registry:ABLATIONS",
        "audit": "mrclens.audit.span:run_audit",
        "cli_audit_options": "mrclens.cli.audit:span_audit_options",
    },
))

MULTIPLE_CHOICE = register(Task(
    name="multiple_choice",
    title="multiple choice",
    data_label="multiple-choice",
    metric="accuracy",
    metric_phrase="accuracy (the share of questions whose chosen ending is the gold one)",
    rules_file="default_rules_mc.toml",
    entry_points={
        "load_set": "mrclens.multiple_choice.data:load_mc_dataset",
        "sniff": "mrclens.multiple_choice.data:sniff_mc",
        "sniff_input": "mrclens.multiple_choice.stats:is_mc_input",
        "file_stats": "mrclens.multiple_choice.stats:mc_file_stats",
        "perturb_file": "mrclens.multiple_choice.perturb:perturb_mc_file",
        "score_file": "mrclens.scoring.files:score_choice_file",
        "is_metric": "mrclens.multiple_choice.stats:is_mc_metric",
        "metric_paths": "mrclens.multiple_choice.stats:MC_METRIC_PATHS",
        "report_facts": "mrclens.reports.mc_examples:mc_report_facts",
        "report_examples": "mrclens.reports.mc_examples:mc_example_block",
        "compare": "mrclens.compare.multiple_choice:MC_COMPARISON",
        "score_set": "mrclens.scoring.sets:score_choice_set",
        "ablations": "mrclens.multiple_choice.ablations:MC_ABLATIONS",
        "audit": "mrclens.audit.multiple_choice:run_mc_audit",
        "cli_audit_options": "mrclens.cli.audit:mc_audit_options",
    },
    prediction_form="choice",
))
