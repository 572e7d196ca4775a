"""Open a report in headless Chromium (via Selenium) and take PNG screenshots of it.

A test helper, not part of the ``mrclens`` package: used by ``tests/reports/test_browser.py`` and
by ``scripts/screenshot_report.py`` (the README's screenshot), which puts this directory on
``sys.path``. Importing it needs neither Selenium nor Chromium; starting a browser needs both.
Needs the Debian packages ``chromium`` and ``chromium-driver`` (``/usr/bin/chromium``,
``/usr/bin/chromedriver``) and the ``selenium`` package (the ``test`` extra); Selenium's own
driver download ("selenium-manager") is never used: the driver path is always given.

Chromium is started with the flags the project's issue 6 prescribes (:data:`CHROMIUM_FLAGS`)
and a fresh, empty profile directory, so nothing from a previous run (cache, cookies) and no
background network traffic of the browser itself can affect a check.
"""

from __future__ import annotations

import base64
import contextlib
import shutil
import tempfile
from pathlib import Path
from typing import Iterator

from mrclens.errors import MRCLensError

#: Flags Chromium is started with (issue 6), besides ``--user-data-dir`` and the window size.
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync")
_BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
#: A laptop viewport in CSS pixels (width, height).
LAPTOP = (1366, 860)
#: The first screen the report must answer on (issue 33): a 1,280 × 800 viewport.
FIRST_SCREEN = (1280, 800)


def find_chromium() -> tuple[str, str] | None:
    """``(browser, chromedriver)`` executable paths, or ``None`` when either is not installed."""
    browser = next((p for p in (shutil.which(b) for b in _BROWSERS) if p), None)
    driver = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None)
    if browser and driver:
        return browser, driver
    return None


@contextlib.contextmanager
def headless_chromium(user_data_dir: str | Path, *, window: tuple[int, int] = LAPTOP,
                      performance_log: bool = False) -> Iterator["object"]:
    """A Selenium ``webdriver.Chrome`` running headless Chromium; quit on exit.

    Args:
        user_data_dir: an empty directory for the browser profile (created if missing).
        window: viewport size in CSS pixels ``(width, height)`` (set exactly, with DevTools'
            ``Emulation.setDeviceMetricsOverride``).
        performance_log: record DevTools network events, readable with
            ``driver.get_log("performance")`` (``goog:loggingPrefs`` ``{"performance": "ALL"}``).

    Raises:
        MRCLensError: Chromium or chromedriver is not installed (the message says how to install them).
        ImportError: selenium is not installed.
    """
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    found = find_chromium()
    if found is None:
        raise MRCLensError("headless Chromium is not installed: apt-get install -y chromium chromium-driver")
    browser, driver_path = found
    Path(user_data_dir).mkdir(parents=True, exist_ok=True)
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={Path(user_data_dir).resolve()}")
    options.add_argument(f"--window-size={window[0]},{window[1]}")
    if performance_log:
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    # the page's viewport is exactly ``window`` (headless Chromium otherwise takes its window frame off it)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": window[0], "height": window[1], "deviceScaleFactor": 1, "mobile": False})
    try:
        yield driver
    finally:
        driver.quit()


def capture_png(driver, png_path: str | Path, *, full_page: bool = False) -> Path:
    """Save a PNG of the current page: the viewport, or the whole page height with ``full_page``.

    Uses the DevTools ``Page.captureScreenshot`` command (``captureBeyondViewport`` for the full page).
    """
    params: dict = {"format": "png"}
    if full_page:
        metrics = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        params.update({"captureBeyondViewport": True,
                       "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}})
    data = driver.execute_cdp_cmd("Page.captureScreenshot", params)["data"]
    png_path = Path(png_path)
    png_path.parent.mkdir(parents=True, exist_ok=True)
    png_path.write_bytes(base64.b64decode(data))
    return png_path


def screenshot_report(html_path: str | Path, png_path: str | Path, *, window: tuple[int, int] = LAPTOP,
                      full_page: bool = False, anchor: str | None = None) -> Path:
    """Open a report file in headless Chromium and save a PNG screenshot of it.

    Args:
        html_path: the ``report.html`` to open (``file://`` URL).
        png_path: where to write the PNG.
        window: viewport size in CSS pixels; the default is a laptop screen.
        full_page: capture the whole page instead of the first screenful.
        anchor: an element id to scroll to first (e.g. ``"examples"``).

    Returns:
        ``png_path``.

    Raises:
        MRCLensError: Chromium or chromedriver is not installed.
    """
    with tempfile.TemporaryDirectory(prefix="mrclens-chromium-") as profile:
        with headless_chromium(profile, window=window) as driver:
            driver.get(Path(html_path).resolve().as_uri() + (f"#{anchor}" if anchor else ""))
            return capture_png(driver, png_path, full_page=full_page)
