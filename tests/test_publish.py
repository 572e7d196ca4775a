"""``mrclens.publish.write_outputs``: a new results.json leaves no file derived from the one it replaces."""

from __future__ import annotations

from mrclens.artifacts.card import CARD_BODY, CARD_MARKDOWN, CARD_RAI, CARD_RECOMMENDATIONS
from mrclens.artifacts.layout import REPORT_HTML, RESULTS_JSON
from mrclens.publish import write_outputs
from mrclens.scoring.evaluate import evaluate_perturbed
from perturbed_fixture import make_perturbed_dir, write_predictions


def test_rewriting_the_results_without_a_report_removes_the_old_report_and_card(tmp_path):
    perturbed, predictions, out = make_perturbed_dir(tmp_path), write_predictions(tmp_path), tmp_path / "out"
    first = evaluate_perturbed(perturbed, predictions, results_dir=out, n_resamples=50, progress=False)
    written = write_outputs(first, out)
    assert (out / REPORT_HTML) in written and (out / REPORT_HTML).is_file()
    (out / CARD_MARKDOWN).write_text("## Bias, Risks, and Limitations\n")
    (out / CARD_RAI).write_text("{}")
    (out / CARD_BODY).write_text("body\n")
    (out / CARD_RECOMMENDATIONS).write_text("- advice\n")
    (out / "notes.txt").write_text("mine")
    second = evaluate_perturbed(perturbed, predictions, results_dir=out, n_resamples=50, seed=1, progress=False)
    written = write_outputs(second, out, report=False)
    assert (out / RESULTS_JSON) in written and (out / REPORT_HTML) not in written
    assert not (out / REPORT_HTML).exists()
    assert not any((out / name).exists() for name in (CARD_MARKDOWN, CARD_RAI, CARD_BODY, CARD_RECOMMENDATIONS))
    assert (out / "notes.txt").read_text() == "mine"
