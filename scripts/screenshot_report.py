"""Take PNG screenshots of an MRCLens HTML report in headless Chromium (for the README).

Usage::

    python scripts/screenshot_report.py AUDIT_DIR/report.html docs/report.png
    python scripts/screenshot_report.py AUDIT_DIR/report.html docs/report-examples.png --anchor examples-e1
    python scripts/screenshot_report.py AUDIT_DIR/report.html docs/report-full.png --full-page

Needs the Debian packages ``chromium`` and ``chromium-driver`` and the ``selenium`` package
(``pip install -e '.[test]'``). The default viewport is a laptop screen (1366 x 860 CSS pixels).
The browser code is the test helper ``tests/reports/browser_helpers.py`` (not part of the package).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "reports"))

from browser_helpers import LAPTOP, screenshot_report  # noqa: E402


@click.command()
@click.argument("report", type=click.Path(exists=True, dir_okay=False))
@click.argument("png", type=click.Path(dir_okay=False))
@click.option("--width", type=int, default=LAPTOP[0], show_default=True, help="Viewport width (CSS pixels).")
@click.option("--height", type=int, default=LAPTOP[1], show_default=True, help="Viewport height (CSS pixels).")
@click.option("--full-page", is_flag=True, help="Capture the whole page, not just the first screenful.")
@click.option("--anchor", default=None, help="Scroll to this element id first (e.g. ablations, examples-e1).")
def main(report: str, png: str, width: int, height: int, full_page: bool, anchor: str | None) -> None:
    """Save a PNG screenshot of REPORT (an MRCLens report.html) to PNG."""
    path = screenshot_report(report, png, window=(width, height), full_page=full_page, anchor=anchor)
    click.echo(f"wrote {path}")


if __name__ == "__main__":
    main()
