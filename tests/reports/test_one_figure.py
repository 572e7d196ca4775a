"""One figure per category reading, the same in the terminal, the report, the card and the table (issue 44, item 3).

A real small evaluation: sets perturbed from a few articles of the bundled sample, predicted by a rule-based
sentence reader (:mod:`sentence_readers`), scored by ``mrclens evaluate`` with and without a reference (the
model's own evaluation on the reference's sets). The figure of each category is read from the terminal summary
and must be printed, as the same text, by the report's first screen, the card's table and the ``--wide`` table;
it is checked against ``results.json`` (no figure written by hand)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parents[1] / "scoring"))
from sentence_readers import predict_dir  # noqa: E402

from mrclens.cli import main  # noqa: E402
from mrclens.defaults import BUNDLED_SAMPLE  # noqa: E402
from mrclens.formats import load_dataset  # noqa: E402
from mrclens.metrics.bootstrap import fmt_bound  # noqa: E402
from mrclens.perturbations import perturb_dataset  # noqa: E402
from mrclens.scoring.readings import deciding_position  # noqa: E402
from mrclens.squad import Dataset, write_dataset  # noqa: E402

CATEGORIES = ("Similarity", "Question", "Keyword", "Position")
#: A category's figure in the terminal summary: its label, the figure and its interval.
TERMINAL_FIGURE = re.compile(r"(rel\. drop vs ref|e\d+ excess drop|e\d+ F1 drop) (\S+) (\[[^\]]+\])")


@pytest.fixture(scope="module")
def sets(tmp_path_factory):
    """Perturbed sets of two sample articles and of two others (the reference), each predicted by the reader
    that answers in the sentence most similar to the question."""
    root = tmp_path_factory.mktemp("one-figure")
    sample = load_dataset(BUNDLED_SAMPLE)
    out = {"root": root}
    for name, articles in (("data", sample.articles[:2]), ("reference", sample.articles[20:22])):
        write_dataset(Dataset(articles, sample.version), root / f"{name}.json")
        perturb_dataset(load_dataset(root / f"{name}.json"), root / f"{name}-sets", seed=0, progress=False)
        out[name] = root / f"{name}-sets"
        out[f"{name}-similar"] = predict_dir(root / f"{name}-sets", root / f"{name}-similar", "similar")
    return out


def _surfaces(sets, tmp_path, with_reference: bool):
    out = tmp_path / "out"
    args = ["evaluate", str(sets["data"]), "--predictions-dir", str(sets["data-similar"]), "--out", str(out),
            "--resamples", "300", "--model-name", "similar sentence", "--wide"]
    if with_reference:
        args += ["--reference-sets", str(sets["reference"]), "--reference-predictions-dir", str(sets["reference-similar"])]
    run = CliRunner().invoke(main, args)
    assert run.exit_code == 0, run.output
    card = CliRunner().invoke(main, ["card", str(out), "--out", str(tmp_path / "card")])
    assert card.exit_code == 0, card.output
    return (run.output, (out / "report.html").read_text(), (tmp_path / "card" / "bias-card.md").read_text(),
            json.loads((out / "results.json").read_text()))


def _stored(c, ablations):
    """The category's figure from results.json: the difference from the reference, or without one the drop
    (excess drop) of the ablation whose evidence level is the category's."""
    if c["reference_bias"] is not None:
        return (c["reference_difference"], c["reference_difference_ci_low"], c["reference_difference_ci_high"]), True
    done = [a for a in ablations if a["id"] in c["evaluated"]]
    a = done[deciding_position([a["evidence"] for a in done])]
    assert a["evidence"] == c["evidence"]
    if a["excess_drop"] is not None:
        return (a["excess_drop"], a["excess_ci_low"], a["excess_ci_high"]), False
    return (a["f1_drop"], a["ci_low"], a["ci_high"]), False


@pytest.mark.slow
@pytest.mark.parametrize("with_reference", [True, False], ids=["reference", "no-reference"])
def test_every_surface_prints_the_same_figure_for_every_category(sets, tmp_path, with_reference):
    terminal, page, card, results = _surfaces(sets, tmp_path, with_reference)
    lines = terminal.splitlines()
    for c in results["categories"]:
        name = c["category"]
        assert (c["reference_bias"] is not None) == with_reference
        # the terminal summary's line: verdict, figure, advice
        summary = next(line for line in lines if line.startswith(name + " ") and "→" in line)
        label, number, interval = TERMINAL_FIGURE.search(summary).groups()
        (value, low, high), signed = _stored(c, results["ablations"])
        assert (number, interval) == (fmt_bound(value, signed), f"[{fmt_bound(low, signed)}, {fmt_bound(high, signed)}]")
        assert label == "rel. drop vs ref" if with_reference else label.split()[0] in c["evaluated"]
        shown = f"{label} {number} {interval}"
        # the report's first screen: the category's card leads with it
        glance = page[page.index(f'id="category-{name.lower()}"'):]
        glance = glance[: glance.index("</div>")]
        assert (f'<span class="big">{number}</span> <span class="ci">{interval}</span><br>'
                f'<span class="small">{label}</span>') in glance
        # the card's table: its "Figure" cell
        row = next(line for line in card.splitlines() if line.startswith(f"| {name} |"))
        assert row.split(" | ")[2] == shown
        # the --wide table: the category's row ends with it
        table = [line for line in lines if line.split()[:2] == [name, ",".join(c["ablations"])]]
        assert len(table) == 1 and table[0].rstrip().endswith(shown), table
    assert {c["category"] for c in results["categories"]} == set(CATEGORIES)


def test_a_one_ablation_category_has_its_ablations_drop_and_interval(sets, tmp_path):
    """Position is read from e9 alone: its mean drop is e9's drop, with e9's interval (not one drawn again)."""
    terminal, page, _, results = _surfaces(sets, tmp_path, False)
    position = next(c for c in results["categories"] if c["category"] == "Position")
    e9 = next(a for a in results["ablations"] if a["id"] == "e9")
    assert position["evaluated"] == ["e9"]
    assert (position["f1_drop"], position["ci_low"], position["ci_high"]) == (e9["f1_drop"], e9["ci_low"], e9["ci_high"])
    interval = f"[{e9['ci_low']:.1f}, {e9['ci_high']:.1f}]"
    rows = [line for line in terminal.splitlines() if line.split()[:2] in (["e9", "move"], ["Position", "e9"])]
    assert len(rows) == 2 and all(interval in row for row in rows), rows
