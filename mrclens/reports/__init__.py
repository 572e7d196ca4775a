"""The self-contained HTML bias report (``DIR/report.html``) of an MRCLens audit, and the terminal table.

Public API::

    from mrclens.reports import write_report, render_report
    path = write_report("audit-out")            # writes audit-out/report.html, returns its Path
    html = render_report("audit-out")           # the same page as text

The page renders ``results.json`` and ``question-scores.json`` (or the objects scoring
returned, when called from :func:`mrclens.publish.write_outputs`) and shows examples from
``perturbed/`` and ``predictions/``; nothing is re-run or scored again: per bias category the
verdict against the reference at a glance (:mod:`mrclens.reports.glance`) and a forest plot of
every figure against the reference (:mod:`mrclens.reports.forest`), the ablation table and a chart
of the F1 drops with CIs, an example viewer per ablation, dataset facts, any extra ``sections`` of
the results, and provenance. See :mod:`mrclens.reports.report`; the terminal table is
:mod:`mrclens.reports.table`.
"""

from mrclens.reports.formatting import PCT_DECIMALS, fmt_ci, fmt_pct
from mrclens.reports.report import build_context, ci_summary, render_report, section_blocks, write_report

__all__ = [
    "PCT_DECIMALS",
    "build_context",
    "ci_summary",
    "fmt_ci",
    "fmt_pct",
    "render_report",
    "section_blocks",
    "write_report",
]
