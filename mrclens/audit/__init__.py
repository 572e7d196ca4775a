"""``mrclens audit``: the main job, end to end — load, perturb, train, predict, score, report.

One audit per task of the task registry (:data:`AUDITS`, role ``"audit"`` of :mod:`mrclens.tasks`),
sharing one step ledger:

* :mod:`mrclens.audit.ledger` — the step ledger: step keys (:func:`step_key`), the pipeline
  versions every key includes (:func:`pipeline_versions`), and :class:`StepLedger`, the audit's
  ``OUT/audit-state.json`` (the file itself is :mod:`mrclens.artifacts.audit_state`'s) with
  :meth:`StepLedger.reuse_or_run`, "reuse the recorded step if its key matches, else run it and
  record it", which every step of both audits goes through.
* :mod:`mrclens.audit.span` — the audit of span (SQuAD-format) data: :class:`AuditOptions`,
  :func:`run_audit` and its step functions (title split, perturbation draws, one or more readers,
  F1 scoring), the bundled sample (:data:`SAMPLE_PATH`).
* :mod:`mrclens.audit.multiple_choice` — the audit of multiple-choice (CODAH-style) data with
  cross-validation over folds: :class:`MCAuditOptions`, :func:`run_mc_audit`, its step functions
  and ``results.json`` ``sections["multiple_choice"]`` (:func:`mc_section`).

Both score with :mod:`mrclens.scoring` and write with :mod:`mrclens.publish`; nothing below this
package imports it.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

from mrclens.artifacts.results import Results
from mrclens.audit.ledger import StepLedger, StepRun, pipeline_versions, step_key
from mrclens.audit.multiple_choice import MCAuditOptions, mc_section, run_mc_audit
from mrclens.audit.span import BASELINE_NAME, SAMPLE_PATH, AuditOptions, effective_options, run_audit
from mrclens.tasks import MULTIPLE_CHOICE, SPAN, TaskTable

__all__ = [
    "AUDITS", "Audit", "AuditOptions", "BASELINE_NAME", "MCAuditOptions", "SAMPLE_PATH", "StepLedger", "StepRun",
    "effective_options", "mc_section", "pipeline_versions", "run_audit", "run_mc_audit", "step_key",
]


class Audit(Protocol):
    """Role ``"audit"`` (:mod:`mrclens.tasks`): the end-to-end audit of the task's data with its options
    (:class:`AuditOptions`, :class:`MCAuditOptions`); ``echo`` receives the lines a person follows
    (``None``: logging only). Writes ``options.out`` and returns its results.

    Raises:
        MRCLensError: bad input (named), as each step raises it.
    """

    def __call__(self, options: Any, echo: Callable[[str], None] | None = None) -> Results: ...


AUDITS: TaskTable[Audit] = TaskTable("audit", Audit, {SPAN: run_audit, MULTIPLE_CHOICE: run_mc_audit})
