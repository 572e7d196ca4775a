"""The page of `mrclens compare` (comparison.html): self-contained, names and paths inert text, charts drawn,
and in headless Chromium no script runs and nothing is requested from any network (issue 19)."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from mrclens.reports.compare import render_comparison, write_comparison_page
from mrclens.compare import compare_sources, source_from_stats
from mrclens.stats.summary import integer_bins, shares, summarize
from mrclens.stats.text import QUESTION_TYPES

from browser_helpers import capture_png, find_chromium, headless_chromium
from report_fixtures import PAYLOAD_IMG, PAYLOAD_SCRIPT


def _source(name: str, seed: int, mean_len: float, sim: float):
    """Statistics of a made-up dataset of 600 questions, with per-question values behind its means."""
    rng = np.random.default_rng(seed)
    q = rng.poisson(mean_len, 600).tolist()
    a = rng.poisson(2.5, 600).tolist()
    ng = rng.poisson(3.0, 600).tolist()
    types = rng.choice(list(QUESTION_TYPES), 600, p=[0.45, 0.05, 0.1, 0.0, 0.0, 0.07, 0.04, 0.01, 0.1, 0.04, 0.14]).tolist()
    stats = {"counts": {"questions": 600},
             "lengths": {"question_words": summarize(q, bins=integer_bins(40)), "answer_words": summarize(a, bins=integer_bins(30))},
             "overlap": {"longest_shared_ngram": summarize(ng, bins=integer_bins(20))},
             "similarity": {"answer_in_most_similar_sentence_pct": sim, "n": 600},
             "question_types": shares(types, QUESTION_TYPES)}
    return source_from_stats(stats, name, f"/data/{name}.json",
                             values={"lengths.question_words": q, "lengths.answer_words": a, "overlap.longest_shared_ngram": ng},
                             kind="dataset")


@pytest.fixture(scope="module")
def comparison():
    return compare_sources([_source("SQuAD-like", 0, 10.0, 80.0), _source(PAYLOAD_SCRIPT, 1, 8.0, 60.0),
                            _source(PAYLOAD_IMG, 2, 10.0, 79.0)], n_resamples=300)


def test_page_is_self_contained_and_names_are_text(comparison, tmp_path):
    html = render_comparison(comparison)
    assert "Content-Security-Policy" in html and "default-src 'none'" in html
    assert "<script" not in html.lower() and "<img" not in html.lower()
    assert "&lt;script&gt;document.title=" in html  # the name shown, escaped
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)  # nothing loaded from anywhere
    for element_id in ("inputs", "differs", "charts", "comparison-table", "method", "dist-question-words",
                       "dist-answer-words", "dist-longest-shared-ngram", "question-types"):
        assert f'id="{element_id}"' in html, element_id
    assert html.count("<svg") == 4 + 2  # the pictures, and a forest plot per later input (issue 33)
    # the forest plot against the first input: input 2's much smaller share in the most similar sentence
    # (60 % vs 80 %) is drawn left of the line, in green ("less"); input 3's 79 % is not distinguishable
    for k, colour in ((2, "#1a7f37"), (3, "#3d4a57")):
        forest = html[html.index(f'id="forest-{k}"'):]
        forest = forest[: forest.index("</figure>")]
        row = re.search(r'<g class="row model-free"><title>answers in the sentence most similar.*?</g>', forest, re.S).group(0)
        assert f'fill="{colour}">' in row, (k, row)
    assert "&lt;script&gt;document.title=" in html[html.index('id="forest-2"'):html.index('id="forest-3"')]
    # the table: the significant similarity difference is bold and marked "less"; the 1-point one is not significant
    table = html[html.index('id="comparison-table"'):]
    row = re.search(r"answers in the sentence most similar.*?</tr>", table, re.S).group(0)
    assert 'class="diff sig less"' in row and row.count('class="diff"') == 1
    path = write_comparison_page(comparison, tmp_path)
    assert path.name == "comparison.html" and path.read_text(encoding="utf-8") == html


@pytest.mark.slow
@pytest.mark.browser
def test_page_in_headless_chromium(comparison, tmp_path):
    if find_chromium() is None:
        pytest.skip("headless Chromium is not installed: `apt-get install -y chromium chromium-driver`")
    from PIL import Image
    from selenium.webdriver.common.by import By

    page = write_comparison_page(comparison, tmp_path)
    url = page.resolve().as_uri()
    with headless_chromium(tmp_path / "profile", performance_log=True) as driver:
        driver.get("about:blank")
        driver.get_log("performance")
        driver.get(url)
        # the payloads did not run (they would set the title to 'pwned'): the title is the page's own, names as text
        assert driver.title == f"MRCLens comparison: SQuAD-like vs {PAYLOAD_SCRIPT} vs {PAYLOAD_IMG}"
        assert driver.find_elements(By.TAG_NAME, "script") == [] and driver.find_elements(By.TAG_NAME, "img") == []
        body = driver.find_element(By.TAG_NAME, "body").text
        assert PAYLOAD_SCRIPT in body and PAYLOAD_IMG in body
        for element_id in ("comparison-table", "dist-question-words", "question-types"):
            element = driver.find_element(By.ID, element_id)
            assert element.is_displayed() and element.size["height"] > 50, element_id
        assert driver.find_element(By.CSS_SELECTOR, "#question-types svg").size["width"] > 400
        requests = []
        for entry in driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message.get("method") == "Network.requestWillBeSent":
                requests.append(message["params"]["request"]["url"])
        assert url in requests and all(u == url or u.startswith("data:") for u in requests), requests
        png = capture_png(driver, tmp_path / "page.png")
        image = Image.open(png).convert("RGB")
        colours = image.getcolors(maxcolors=1 << 20)
        assert len(colours) > 100 and max(n for n, _ in colours) < 0.9 * image.size[0] * image.size[1]
