"""The report in a real browser: headless Chromium opens it from disk, renders it, requests nothing
from any network, runs none of the injected payloads, and prints."""

from __future__ import annotations

import base64
import json

import pytest
from PIL import Image
from selenium.webdriver.common.by import By  # selenium: the test extra (pip install -e '.[test]')

from mrclens.reports import write_report

from browser_helpers import CHROMIUM_FLAGS, capture_png, find_chromium, headless_chromium
from report_fixtures import PAYLOAD_IMG, PAYLOAD_SCRIPT, PAYLOAD_TEXTAREA

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def chromium():
    if find_chromium() is None:
        pytest.skip("headless Chromium is not installed: `apt-get install -y chromium chromium-driver` "
                    "(`make test` does this); the browser test cannot run without it")
    return find_chromium()


def _network_requests(driver) -> list[str]:
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def test_report_in_headless_chromium(chromium, payload_audit, tmp_path):

    report = write_report(payload_audit)
    url = report.resolve().as_uri()
    profile = tmp_path / "profile"
    assert "--headless" in CHROMIUM_FLAGS and "--disable-background-networking" in CHROMIUM_FLAGS
    with headless_chromium(profile, performance_log=True) as driver:
        driver.get("about:blank")
        driver.get_log("performance")  # drop the browser's own start-up events (its internal new-tab page)
        driver.get(url)
        # the payloads did not run: the title is the report's own, and no script or image element exists
        assert driver.title.startswith("MRCLens bias report")
        assert "pwned" not in driver.title
        assert driver.find_elements(By.TAG_NAME, "script") == []
        assert driver.find_elements(By.TAG_NAME, "img") == []
        assert driver.find_elements(By.TAG_NAME, "textarea") == []
        # ... and they are visible as text, where the data has them
        body = driver.find_element(By.TAG_NAME, "body").text
        for payload in (PAYLOAD_SCRIPT, PAYLOAD_IMG, PAYLOAD_TEXTAREA):
            assert payload in body, payload
        # the page's parts are rendered and visible
        for element_id in ("verdict", "ablation-table", "drop-chart", "examples-e1", "examples-e8", "sets-table", "provenance"):
            element = driver.find_element(By.ID, element_id)
            assert element.is_displayed() and element.size["height"] > 20, element_id
        assert driver.find_element(By.CSS_SELECTOR, "#drop-chart svg").size["width"] > 400
        # no request to anything but the file itself (no fonts, CDNs, images, favicon fetches)
        requests = _network_requests(driver)
        assert url in requests
        assert all(u == url or u.startswith("data:") for u in requests), requests
        # a non-blank screenshot: many colours, not mostly one
        png = capture_png(driver, tmp_path / "report.png")
        image = Image.open(png).convert("RGB")
        assert image.size[0] >= 1000 and image.size[1] >= 600
        colours = image.getcolors(maxcolors=1 << 20)
        assert len(colours) > 200, len(colours)
        assert max(count for count, _ in colours) < 0.9 * image.size[0] * image.size[1]
        # print: the navigation is hidden, long contexts are not cut by a scroll box, and a PDF comes out
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        assert not driver.find_element(By.CSS_SELECTOR, "nav.toc").is_displayed()
        assert driver.find_element(By.CSS_SELECTOR, ".context").value_of_css_property("max-height") == "none"
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        pdf = base64.b64decode(driver.print_page())
        assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page") + pdf.count(b"/Type/Page") >= 3
        later = _network_requests(driver)
        assert all(u == url or u.startswith("data:") for u in later), later
