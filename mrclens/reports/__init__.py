"""The self-contained HTML bias report (``DIR/report.html``) of an MRCLens audit.

Public API::

    from mrclens.reports import write_report, render_report
    path = write_report("audit-out")            # writes audit-out/report.html, returns its Path
    html = render_report("audit-out")           # the same page as text

The page is built from ``results.json``, ``perturbed/`` and ``predictions/`` only (nothing is
re-run): a verdict per bias category, the ablation table and a chart of the F1 drops with
95% CIs, an example viewer per ablation, dataset facts, any extra ``sections`` of the
results, and provenance. See :mod:`mrclens.reports.report`.
"""

from mrclens.reports.report import (
    PCT_DECIMALS,
    build_context,
    build_report,
    ci_summary,
    fmt_ci,
    fmt_pct,
    render_report,
    section_blocks,
    write_report,
)

__all__ = [
    "PCT_DECIMALS",
    "build_context",
    "build_report",
    "ci_summary",
    "fmt_ci",
    "fmt_pct",
    "render_report",
    "section_blocks",
    "write_report",
]
