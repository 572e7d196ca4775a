"""The verdict at a glance (issue 33): at most 6 lines of at most 100 characters, the verdicts the results
hold, the figure that decided each, and `--wide` for the full table — on real scored results."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from demo_audit_fixture import demo_results, settled_reference
from mrclens import perturbations
from mrclens.artifacts.reference import read_reference
from mrclens.artifacts.results import ModelRecord, read_results
from mrclens.cli import main
from mrclens.formats import load_dataset
from mrclens.io_utils import atomic_write_json
from mrclens.metrics.bootstrap import fmt_bound
from mrclens.reports.summary import MAX_LINES, WIDTH, format_summary, summarize_category
from mrclens.scoring.evaluate import evaluate_perturbed
from mrclens.scoring.model_free import model_free_figures
from mrclens.squad import Dataset
from mrclens.stats import compute_stats

_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _fits(text: str) -> list[str]:
    lines = text.splitlines()
    assert 3 <= len(lines) <= MAX_LINES, text
    assert all(len(line) <= WIDTH for line in lines), [line for line in lines if len(line) > WIDTH]
    return lines


def first_sentence_model(squad: dict) -> dict[str, str]:
    """The external model of issue 33: answer every question with the first four words of the passage."""
    return {qa["id"]: " ".join(_SENTENCE.split(par["context"])[0].split()[:4])
            for article in squad["data"] for par in article["paragraphs"] for qa in par["qas"]}


@pytest.fixture(scope="module")
def first_sentence(tmp_path_factory, sample_path):
    """One real SQuAD v1.1 article of the bundled sample, perturbed, answered by the first-sentence model and
    scored by the one scoring path against the bundled reference, with the data's model-free figures."""
    root = tmp_path_factory.mktemp("glance")
    full = load_dataset(sample_path)
    small = Dataset(full.articles[:1], full.version, str(sample_path))
    manifest = perturbations.perturb_dataset(small, root / "perturbed", seed=0, cache_dir=root / "cache", progress=False)
    for name, file in manifest.set_files().items():
        squad = json.loads((root / "perturbed" / file).read_text(encoding="utf-8"))
        atomic_write_json(root / "predictions" / f"{name}.json", first_sentence_model(squad))
    reference = read_reference()
    figures = model_free_figures(compute_stats(small, cache_dir=root / "cache", progress=False), reference)
    evaluation = evaluate_perturbed(root / "perturbed", root / "predictions", model_name="first sentence", seed=0,
                                    n_resamples=200, progress=False, model_free=figures,
                                    reference=reference.audit_for("quick"))
    return root, evaluation.results


def test_the_demo_audit_reads_in_one_glance_and_says_what_to_do():
    results = demo_results()
    lines = _fits(format_summary(results, report="mrclens-audit/report.html"))
    from mrclens.artifacts.reference import read_reference

    f1 = read_reference().audits["quick"].baseline_f1  # the demo-like audit is built from the reference's figures
    assert lines[0] == (f"Verdict against SQuAD v1.1 (baseline reader, quick profile, F1 {f1:.1f} on 1,786 questions):")
    assert lines[-1] == "Readings and examples: mrclens-audit/report.html; every figure: --wide"
    for line, c in zip(lines[1:-1], results.categories):
        # the reference's own figures: no difference; "in line" only where the interval fits the band (issue 41),
        # else "inconclusive" with what the audit could see (its minimum detectable effect); drops that no number of
        # questions could read in line leave it to the data's own figures (issue 54)
        inside = -c.reference_band <= c.reference_difference_ci_low and c.reference_difference_ci_high <= c.reference_band
        if c.reference_basis == "model-free":
            assert ("No number of questions can read these drops in line" in c.reading
                    or "These drops are described, not read" in c.reading)  # Similarity's, Keyword's (issue 54)
            assert "The data's own figures decide." in c.reading and "shortcut ≈" in line
        else:
            assert c.reference_bias == ("in line" if inside else "inconclusive")
            assert summarize_category(c, results).figure in " ".join(lines)
            assert ("% of q." in line) == (c.reference_per_planted_pct is not None)
            assert "MDE " in line
        if c.reference_bias == "in line":
            assert line.split()[:3] == [c.category, "in", "line"] and line.endswith("→ no action needed")
        else:
            assert line.split()[:2] == [c.category, "inconclusive"] and line.endswith("→ audit more questions")
    # Question and Position made more biased: the verdict, the difference that decided it and the advice
    # (against the reference without its run and structure spreads: the quick profile's drops cannot read even
    # this "more" on their own, issue 54; the words are tested here, the power in tests/scoring)
    more = demo_results({"Question": 0.3, "Position": 30.0}, reference=settled_reference())
    lines = _fits(format_summary(more))
    by_cat: dict[str, str] = {}
    for line in lines[1:-1]:  # a category's figure and advice, its indented second line joined where it has one
        if line.startswith(" "):
            by_cat[last] += " " + line.strip()
        else:
            last = line.split()[0]
            by_cat[last] = line
    q = next(c for c in more.categories if c.category == "Question")
    assert q.reference_bias == "more" and by_cat["Question"].split()[1] == "more"
    assert f"drops ≈ {q.reference_difference / q.reference_per_planted_pct:+.0f}% of q. [" in by_cat["Question"]
    assert by_cat["Question"].endswith("→ add same-type distractors")
    assert by_cat["Position"].endswith("→ spread answers over passages")
    assert lines[-1] == "Readings and every figure: --wide; report.html with --out DIR"


def test_an_external_weak_model_is_named_and_its_verdict_is_inconclusive(first_sentence):
    _, results = first_sentence
    f1 = results.sets["original"].f1
    assert f1 < 30  # the first four words of a passage rarely answer
    lines = _fits(format_summary(results))
    assert lines[0].startswith("Verdict against SQuAD v1.1 (external model 'first sentence', F1 ")
    assert any(c.reference_bias == "inconclusive" for c in results.categories)
    for line, c in zip(lines[1:-1], results.categories):
        s = summarize_category(c, results)
        assert line.split()[0] == c.category
        if c.reference_bias is None:  # not compared (no drop compared, the data alone in line): the absolute level
            continue
        assert s.verdict.split()[0] == c.reference_bias
        if c.reference_why == "weak":
            assert f"F1 {f1:.1f}, under 30" in line and line.endswith("→ try a stronger model")
        elif c.reference_bias == "inconclusive":  # no drop compared, and the data alone cannot tell
            # issue 54: where no number of questions can read the data's figure in line, the advice says so
            assert (c.reference_why, line.split("→ ")[-1]) in (("cannot tell", "audit more questions"),
                                                               ("out of reach", "read the interval"))
        elif c.reference_basis == "model-free":  # the data alone decided: its difference as a planted share
            fig = next(f for f in results.model_free if f.category == c.category and f.comparison == f.bias_when
                       and f.role == "verdict")
            assert f"shortcut ≈ {fig.planted(fig.difference):+.0f}% of q." in line


def test_readings_of_an_external_model_never_blame_the_baseline_reader(first_sentence):
    _, results = first_sentence
    texts = [e.reading for e in [*results.ablations, *results.categories] if e.reading]
    assert texts and not any("baseline reader" in t for t in texts)
    weak = [t for t in texts if "too weak" in t]
    assert weak and all("the model 'first sentence' is too weak" in t for t in weak)


def test_the_baseline_reader_is_named_as_such():
    base = demo_results({"Question": 0.3}, model=ModelRecord("baseline", "co-attention BiLSTM"))
    from mrclens.scoring.readings import read_category

    q = next(c for c in base.categories if c.category == "Question")
    weak_ablations = [a for a in base.ablations if a.id in q.ablations]
    for a in weak_ablations:
        a.evidence = "inconclusive"
    text, level = read_category(q, weak_ablations)
    assert level == "inconclusive" and "because the baseline reader is too weak" in text


def test_an_evaluation_without_reference_gives_the_evidence_and_the_deciding_ablation(scored_audit):
    results = read_results(scored_audit)
    lines = _fits(format_summary(results, report=str(scored_audit / "report.html")))
    assert lines[0].startswith("Evidence of each bias (external model 'made-up model', F1 ") and "no reference" in lines[0]
    words = {"strong": "strong", "moderate": "moderate", "weak": "weak", "none": "no sign", "inconclusive": "inconclusive"}
    for line, c in zip(lines[1:-1], results.categories):
        assert line.startswith(f"{c.category:<10} {words[c.evidence]}")
        ids = re.findall(r"\b([ec]\d+) (?:F1 |excess )?drop", line)
        assert not ids or ids[0] in c.ablations  # the deciding ablation is one of the category's


def _evaluate(root: Path, *extra: str):
    return CliRunner().invoke(main, ["evaluate", str(root / "perturbed"), "--predictions-dir", str(root / "predictions"),
                                     "--model-name", "first sentence", "--resamples", "100", "-q", *extra],
                              catch_exceptions=False)


def test_evaluate_ends_with_the_summary_and_wide_prints_the_table(first_sentence, tmp_path):
    root, _ = first_sentence
    res = _evaluate(root, "--out", str(tmp_path / "out"))
    assert res.exit_code == 0, res.output
    lines = res.output.strip().splitlines()
    glance = lines[next(i for i, line in enumerate(lines) if line.startswith("Evidence of each bias")):]
    _fits("\n".join(glance))
    assert glance[-1].startswith("Readings and examples: ") and glance[-1].endswith("/out/report.html; every figure: --wide")
    assert (tmp_path / "out" / "report.html").exists()
    assert "Model: first sentence (external)" not in res.output and "Similarity bias:" not in res.output
    assert max(len(line) for line in lines if not line.startswith("wrote ")) <= WIDTH
    wide = _evaluate(root, "--wide")
    assert wide.exit_code == 0, wide.output
    assert "Model: first sentence (external)" in wide.output and "Similarity bias:" in wide.output
    assert max(len(line) for line in wide.output.splitlines()) > WIDTH  # the full table
    tail = wide.output.strip().splitlines()[-len(glance):]
    assert tail[0] == glance[0] and tail[1:-1] == glance[1:-1]
    assert tail[-1] == "Readings and every figure: above; report.html with --out DIR"


def test_a_category_never_scored_says_so():
    results = demo_results()
    c = results.categories[0]
    empty = type(c)(c.category, c.ablations, [], None, None, None)
    s = summarize_category(empty, results)
    assert (s.verdict, s.figure, s.advice) == ("not evaluated", "", "see the report")



def _longest_figures() -> list[str]:
    """The widest figures a category line carries: a drop difference with its MDE, a planted share with its band
    (data route), a model-free figure against the reference's value, and a weak reader's score."""
    from mrclens.reports.glance import ReadingFigure, model_free_reading_figure

    return [f"{ReadingFigure('rel. drop vs ref', -1234.5, -1299.9, -1100.1, signed=True)}; MDE 145",
            str(model_free_reading_figure({"path": "chance_corrected.shared_ngram_top", "difference": -44.4,
                                           "difference_ci_low": -99.9, "difference_ci_high": 11.1,
                                           "per_planted_pct": 0.123, "band": 2.82})),
            str(ReadingFigure("keyword window top-1 vs ref", +14.6, +10.0, +19.5, signed=True)),
            "HasAns F1 12.3, under 30"]


def test_no_terminal_line_cuts_a_number_whatever_the_reading_route_or_note():
    """Issue 57, item 2: the 100-character line ended "… +14.6 [+10.0, +19.… → paraphrase the questions" and
    "→ may be context length, not …". Every reading (and its "(data)" route) with the widest figures and every
    advice the summary gives: every figure and advice stands whole, no line is wider than WIDTH, none is cut."""
    from mrclens.categories import CATEGORY_NAMES, get_category
    from mrclens.reports.summary import (ADVICE_OTHER, ADVICE_SHAPE, ADVICE_WEAK_READER, NO_ACTION, CategorySummary,
                                         category_lines)
    from mrclens.verdicts import READING_NAMES, UNDECIDED

    advices = [ADVICE_SHAPE, NO_ACTION, *ADVICE_OTHER.values(), *ADVICE_WEAK_READER.values(),
               *(u.short_advice for u in UNDECIDED if u.short_advice), *(get_category(c).advice for c in CATEGORY_NAMES)]
    for verdict in [*READING_NAMES, *(f"{v} (data)" for v in READING_NAMES)]:
        for figure in _longest_figures():
            for advice in advices:
                lines = category_lines(CategorySummary("Similarity", verdict, figure, advice, True))
                assert 1 <= len(lines) <= 2 and all(len(line) <= WIDTH for line in lines), lines
                joined = " ".join(line.strip() for line in lines)
                assert figure in joined and joined.endswith(f"→ {advice}") and "…" not in joined, lines
                assert re.search(r"\[[^\]]*$", lines[0]) is None  # an interval is never split across lines


def test_the_summary_keeps_the_whole_figure_when_a_verdict_is_wide():
    """A verdict from far drops (the figure wider than its column) keeps its MDE, within WIDTH."""
    results = demo_results({"Similarity": 30.0, "Position": 5.0})
    text = format_summary(results, report="mrclens-audit/report.html")
    lines = _fits(text)
    assert "…" not in text
    for c in results.categories:
        s = summarize_category(c, results)
        assert s.figure in " ".join(line.strip() for line in lines)


def test_a_category_read_more_names_the_file_of_its_flagged_questions():
    """Issue 56, item 2: where a category reads "more", one line after the categories names the file that lists the
    questions carrying its shortcut (and the command that leaves them out); no category line moves or is cut."""
    evidence, report = "mrclens-audit/shortcut-questions.jsonl", "mrclens-audit/report.html"
    more = demo_results({"Question": 0.3, "Position": 30.0}, reference=settled_reference())  # words, not power
    assert [c.category for c in more.categories if c.reference_bias == "more"] == ["Question", "Position"]
    lines = _fits(format_summary(more, report=report, evidence=evidence))
    assert lines[-2] == f"→ flagged questions of Question, Position: {evidence} (mrclens filter)"
    assert lines[:-2] + lines[-1:] == format_summary(more, report=report).splitlines()
    # no category read "more": no line, whatever the file
    calm = demo_results()
    assert format_summary(calm, report=report, evidence=evidence) == format_summary(calm, report=report)
    # every category "more" and a long path: the line still fits WIDTH, the file's name whole
    worst = demo_results({"Similarity": 30.0, "Question": 0.3, "Keyword": 30.0, "Position": 30.0})
    long = "/" + "/".join(["a-deeply-nested-output-folder"] * 5) + "/shortcut-questions.jsonl"
    lines = _fits(format_summary(worst, report=long.replace("shortcut-questions.jsonl", "report.html"), evidence=long))
    (flagged,) = [line for line in lines if line.startswith("→ flagged questions")]
    assert flagged.endswith("/shortcut-questions.jsonl (mrclens filter)") and len(flagged) <= WIDTH
