"""Each task's hooks of ``mrclens compare`` (:data:`COMPARISONS`, role ``"compare"`` of
:mod:`mrclens.tasks`): the :class:`~mrclens.compare.sources.TaskComparison` of span extraction
(:mod:`mrclens.compare.span`) and of multiple choice (:mod:`mrclens.compare.multiple_choice`).

The rest of the package asks the hooks of the inputs' task (:func:`hooks_for`) and never compares
task names; the hooks themselves stand on :mod:`mrclens.compare.sources`, below this module.

Examples:
    >>> hooks_for("multiple_choice").word, hooks_for(None).word
    ('multiple-choice', 'span extraction')
"""

from __future__ import annotations

from mrclens.artifacts.reference import ReferenceFigure
from mrclens.compare.multiple_choice import MC_COMPARISON
from mrclens.compare.sources import Source, TaskComparison, known_task
from mrclens.compare.span import SPAN_COMPARISON
from mrclens.tasks import MULTIPLE_CHOICE, SPAN, Task, TaskTable

COMPARISONS: TaskTable[TaskComparison] = TaskTable("compare", TaskComparison, {
    SPAN: SPAN_COMPARISON, MULTIPLE_CHOICE: MC_COMPARISON})


def hooks_for(task: str | Task | None) -> TaskComparison:
    """The :class:`~mrclens.compare.sources.TaskComparison` of a task (a :class:`~mrclens.tasks.Task` or
    its name; an unknown name or ``None`` is span extraction: :func:`~mrclens.compare.sources.known_task`)."""
    return COMPARISONS.of(known_task(task))


def source_figure(src: Source, path: str, kind: str, n_path: str | None) -> ReferenceFigure | None:
    """One model-free figure of an input (``None`` when it lacks it): from its statistics when it has
    some (read as its task reads them), else from its summary figures."""
    if src.stats is not None:
        return hooks_for(src.task).figure(src.stats, path, kind, n_path)
    return src.figures.get(path)
