"""The rule engine of `mrclens check`: rule files, overrides, evaluation, exit codes (0/1/2)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mrclens.artifacts.results import AblationResult, BootstrapSettings, CategoryResult, ModelRecord, Results
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent.parent / "stats"))
from stats_helpers import C2, MINI, make_dataset  # noqa: E402

from mrclens.checks.rules import (  # noqa: E402
    Rule,
    RulesError,
    evaluate_rules,
    exit_code,
    load_rules,
    resolve_metric,
    run_check,
)
from mrclens.checks.report import format_report  # noqa: E402
from mrclens.cli import main  # noqa: E402
from mrclens.formats import load_dataset  # noqa: E402
from mrclens.squad import write_dataset  # noqa: E402

STATS = {
    "similarity": {"answer_in_most_similar_sentence_pct": 77.0},
    "heuristics": {"sliding_window": {"f1": 12.5}},
    "leakage": None,
    "question_types": {"largest_pct": None},
}
AUDIT = Results(
    mrclens_version="0.1.0", created="2026-01-01T00:00:00Z", seed=0, model=ModelRecord("baseline", "reader"),
    bootstrap=BootstrapSettings(1000, 0.95, 0),
    ablations=[
        AblationResult("e4", "interrogatives only", "Question", "full", "original", "small_drop", evaluated=True,
                       f1_drop=42.1, ci_low=40.0, ci_high=44.0),
        AblationResult("e5", "shuffle question", "Question", "full", "original", "small_drop", evaluated=False),
    ],
    categories=[CategoryResult("Question", ["e4", "e5"], ["e4"], 30.0, None, None)],
).to_json()


def rule(metric, op, threshold, rid="r"):
    return Rule(rid, metric, op, threshold)


def test_defaults_ship_with_the_package():
    rules = load_rules()
    ids = [r.id for r in rules]
    assert "similarity-rank" in ids and "audit-question" in ids and "leakage-contexts" in ids
    sim = next(r for r in rules if r.id == "similarity-rank")
    assert (sim.metric, sim.op, sim.threshold) == ("chance_corrected.similarity_rank.mean", "<=", 95.0)
    # issue 32: the raw first-sentence share (chance level 1/sentences) is off by default; the rank decides
    assert "first-sentence-answers" not in ids and "similarity-shortcut" not in ids
    assert next(r for r in rules if r.id == "answer-position").metric == "chance_corrected.position_rank.mean"
    assert all(r.meaning for r in rules)


def test_pass_fail_and_skip():
    results = evaluate_rules(
        [
            rule("similarity.answer_in_most_similar_sentence_pct", "<=", 85, "sim"),
            rule("heuristics.sliding_window.f1", "<", 10, "sw"),
            rule("leakage.contexts_identical", "==", 0, "leak"),
            rule("audit.ablations.e4.f1_drop", ">=", 40, "e4"),
            rule("question_types.largest_pct", "<=", 70, "none"),
        ],
        STATS,
    )
    assert [(r.rule.id, r.status, r.value) for r in results] == [
        ("sim", "pass", 77.0), ("sw", "fail", 12.5), ("leak", "skip", None), ("e4", "skip", None), ("none", "skip", None)]
    assert "--dev" in results[2].reason and "--with-audit" in results[3].reason
    assert exit_code(results) == 1
    assert exit_code([r for r in results if r.status != "fail"]) == 0


def test_audit_rules_resolve_ablations_and_categories():
    results = evaluate_rules(
        [rule("audit.ablations.e4.f1_drop", ">=", 40, "e4"), rule("audit.ablations.e5.f1_drop", ">=", 40, "e5"),
         rule("audit.categories.Question.f1_drop", ">", 35, "cat")],
        STATS, AUDIT,
    )
    assert [(r.status, r.value) for r in results] == [("pass", 42.1), ("skip", None), ("fail", 30.0)]
    assert "not evaluated" in results[1].reason


def test_unknown_metric_is_an_error_not_a_failure():
    with pytest.raises(RulesError, match="similarity.nope"):
        evaluate_rules([rule("similarity.nope", "<=", 1)], STATS)
    with pytest.raises(RulesError, match="e9"):
        evaluate_rules([rule("audit.ablations.e9.f1_drop", ">=", 1)], STATS, AUDIT)
    with pytest.raises(RulesError, match="not a number"):
        evaluate_rules([rule("heuristics.sliding_window", ">=", 1)], STATS)


def test_resolve_metric():
    assert resolve_metric("categories.Question.f1_drop", AUDIT) == 30.0
    with pytest.raises(KeyError):
        resolve_metric("ablations.e1", AUDIT)


def test_toml_override_changes_adds_and_disables(tmp_path):
    f = tmp_path / "rules.toml"
    f.write_text(
        '[[rule]]\nid = "similarity-shortcut"\nthreshold = 70\nenabled = true\n\n'
        '[[rule]]\nid = "duplicates"\nenabled = false\n\n'
        '[[rule]]\nid = "long-answers"\nmetric = "lengths.answer_words.mean"\nop = "<="\nthreshold = 5\nmeaning = "m"\n'
    )
    rules = {r.id: r for r in load_rules(f)}
    assert rules["similarity-shortcut"].threshold == 70.0  # a default switched off (issue 32) can be overridden
    assert rules["similarity-shortcut"].metric == "similarity.answer_in_most_similar_sentence_pct"  # kept
    assert "duplicates" not in rules
    assert rules["long-answers"].op == "<=" and list(rules)[-1] == "long-answers"


def test_replace_defaults(tmp_path):
    f = tmp_path / "rules.toml"
    f.write_text('replace_defaults = true\n[[rule]]\nid = "x"\nmetric = "counts.questions"\nop = ">"\nthreshold = 0\n')
    assert [r.id for r in load_rules(f)] == ["x"]


@pytest.mark.parametrize(
    "text, message",
    [
        ("[[rule]\nid=", "not valid TOML"),
        ('[[rule]]\nid = "new"\nmetric = "similarity.n"\n', "has no 'op'"),
        ('[[rule]]\nid = "new"\nmetric = "similarity.n"\nop = "=<"\nthreshold = 1\n', "op '=<'"),
        ('[[rule]]\nid = "new"\nmetric = "similarity.n"\nop = "<"\nthreshold = "high"\n', "finite number"),
        ('[[rule]]\nid = "new"\nmetric = "nosuch.x"\nop = "<"\nthreshold = 1\n', "rule 'new': metric 'nosuch.x' is not a figure"),
        ('[[rule]]\nid = "new"\nmetric = "similarity.nope"\nop = "<"\nthreshold = 1\n', "'similarity.nope' is not a figure"),
        ('[[rule]]\nid = "new"\nmetric = "question_types.largest"\nop = "<"\nthreshold = 1\n', "not a figure"),
        ('[[rule]]\nid = "new"\nmetric = "audit."\nop = "<"\nthreshold = 1\n', "dotted path into the audit"),
        ('[[rule]]\nid = "new"\nmetric = 3\nop = "<"\nthreshold = 1\n', "must be a string"),
        ('[[rule]]\nid = "similarity-shortcut"\nmetric = "similarity.answer_in_most_similar_sentence"\n',
         "did you mean 'similarity.answer_in_most_similar_sentence_pct'"),
        ('[[rule]]\nid = "new"\nmetrc = "similarity.x"\n', "unknown key"),
        ('rules = 1\n', "unknown top-level"),
        ('[[rule]]\nid = "a"\nmetric = "counts.questions"\nop = "<"\nthreshold = 1\n[[rule]]\nid = "a"\n', "duplicate id"),
    ],
)
def test_bad_rules_files(tmp_path, text, message):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(RulesError, match=message) as err:
        load_rules(f)
    assert str(f) in str(err.value)


def _numbers(node, prefix=""):
    """Dotted paths of every number (or null) in a JSON-like dict; lists and strings skipped."""
    for key, value in node.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from _numbers(value, path + ".")
        elif value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)):
            yield path


@pytest.fixture(scope="module")
def real_stats(sample_path):
    """compute_stats of two articles of the bundled sample, with a third one as the dev file."""
    from mrclens.stats import compute_stats

    train, dev = load_dataset(sample_path), load_dataset(sample_path)
    train.articles, dev.articles = train.articles[:2], dev.articles[2:3]
    return compute_stats(train, dev, cache_dir=False, progress=False)


def test_every_figure_of_stats_is_a_rule_metric(real_stats, tmp_path):
    """A rule on each number that `mrclens stats` writes (found in a real result, the run's
    settings, times and cache counts aside) loads and evaluates to that number."""
    from mrclens.stats.chance import STRATA
    from mrclens.stats.schema import METRIC_PATHS

    paths = [p for p in _numbers(real_stats) if p.split(".")[0] not in ("config", "timings_s", "statistics_cache")]
    assert len(paths) == len(set(paths)) > 100
    assert "wh_words_anywhere.shares_pct.none" in paths and "leakage.pairs_near_identical" in paths
    assert paths == list(METRIC_PATHS)  # the one list checks validates against, in output order
    f = tmp_path / "every.toml"
    f.write_text("replace_defaults = true\n" + "".join(
        f'[[rule]]\nid = "r{i}"\nmetric = "{p}"\nop = ">="\nthreshold = 0\n' for i, p in enumerate(paths)))
    rules = load_rules(f)
    assert [r.metric for r in rules] == paths
    results = evaluate_rules(rules, real_stats)
    # a sentence-count stratum these 2 articles lack has no mean (null): skipped, with the reason
    empty = [r for r in results if r.status == "skip" and r.rule.metric.startswith("chance_corrected.by_sentence_count.")]
    assert all(r.reason == "no value (nothing to measure)" for r in empty) and len(empty) < len(STRATA) * 8 * 2
    results = [r for r in results if r not in empty]
    for r in results:
        # a chance-corrected top-1 share of a cue clean data rarely offers (issue 54: a long shared n-gram, question
        # words beside the answer) sits near 0 by design, so a stratum's interval may hold the threshold 0: unsure
        assert r.status in ("pass", "fail") or (r.status == "unsure" and "_top" in r.rule.metric), (r.rule.metric, r.reason)
        assert r.value == resolve_metric(r.rule.metric, real_stats) and isinstance(r.value, float)
    # all figures of a real dataset are counts, shares, means, scores: none is negative, but for a chance-corrected
    # top-1 share (issue 41: 0 = chance, a question whose answer sentence is not the top one counts -100/(n-1))
    negative = [r.rule.metric for r in results if r.status != "pass"]
    assert negative and all(m.split(".")[1].endswith("_top") or m.split(".")[2].endswith("_top") for m in negative)
    assert all(r.status == "pass" for r in results if "_top" not in r.rule.metric)


def test_a_bad_metric_fails_before_any_data_is_read(tmp_path, monkeypatch):
    """run_check loads the rules first: a rule on a figure that stats does not produce stops it
    before the data file is even opened, and no statistics are computed."""
    import mrclens.checks as checks

    def no_stats(*args, **kwargs):
        raise AssertionError("statistics computed although the rules file is bad")

    import mrclens.stats

    monkeypatch.setattr(mrclens.stats, "compute_stats", no_stats)  # checks imports it when it runs
    monkeypatch.setattr(mrclens.stats, "compute_stats_with_values", no_stats)
    f = tmp_path / "rules.toml"
    f.write_text('[[rule]]\nid = "typo"\nmetric = "heuristics.sliding_window.f2"\nop = "<="\nthreshold = 40\n')
    with pytest.raises(RulesError) as err:
        run_check(tmp_path / "no-such-data.json", rules=f, progress=False)
    assert str(err.value).startswith(f"{f}: rule #1: rule 'typo': metric 'heuristics.sliding_window.f2' is not a figure")
    assert "did you mean 'heuristics.sliding_window.f1'" in str(err.value)


def test_format_report_lines():
    from mrclens.checks import CheckReport

    results = evaluate_rules([Rule("sim", "similarity.answer_in_most_similar_sentence_pct", "<=", 70, "share (%)", "similarity bias")], STATS)
    text = format_report(CheckReport(results))
    assert text.splitlines()[0] == "FAIL    sim: share (%) = 77 (rule: <= 70)"
    assert "means: similarity bias" in text and "1 rule(s) FAIL" in text


# ---------------------------------------------------------------- end to end (small real parse)


@pytest.fixture()
def files(tmp_path, monkeypatch):
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path / "cache"))
    train = tmp_path / "train.json"
    dev = tmp_path / "dev.json"
    write_dataset(make_dataset(MINI), train)
    write_dataset(make_dataset([(C2, [("d1", "Who won the Nobel Prize in 1903?", "Marie Curie")])]), dev)
    audit = tmp_path / "audit"
    audit.mkdir()
    (audit / "results.json").write_text(json.dumps(AUDIT))
    return tmp_path, train, dev, audit


def _run(args):
    return CliRunner().invoke(main, args, catch_exceptions=False)


def test_cli_exit_codes(files):
    tmp, train, dev, audit = files
    loose = tmp / "loose.toml"
    loose.write_text('replace_defaults = true\n[[rule]]\nid = "sim"\nmetric = "similarity.answer_in_most_similar_sentence_pct"\nop = "<="\nthreshold = 90\n'
                     '[[rule]]\nid = "e4"\nmetric = "audit.ablations.e4.f1_drop"\nop = ">="\nthreshold = 40\n')
    r = _run(["check", str(train), "--rules", str(loose), "--quiet"])
    assert r.exit_code == 0, r.output
    # the mini set: 80 % of 5 questions, 95 % CI [0, 100] by article, holds 90: too small to tell
    assert "UNSURE  sim" in r.output and "too small to tell" in r.output and "SKIP    e4" in r.output
    r = _run(["check", str(train), "--rules", str(loose), "--with-audit", str(audit), "--json"])
    assert r.exit_code == 0
    out = json.loads(r.stdout)
    assert out["passed"] is True and out["counts"] == {"pass": 1, "fail": 0, "unsure": 1, "skip": 0}
    assert "warning" not in r.stderr  # results that record no input at all (hand-made): nothing to compare
    e4 = next(x for x in out["rules"] if x["id"] == "e4")  # its recorded CI [40, 44] is wholly >= 40
    assert (e4["status"], e4["ci_low"], e4["ci_high"]) == ("pass", 40.0, 44.0)

    # the defaults: the mini set's type-matching F1 (80 on 5 questions) is too small to tell; dev leaks C2
    r = _run(["check", str(train), "--dev", str(dev), "--json"])
    assert r.exit_code == 1
    out = json.loads(r.output)
    status = {x["id"]: x["status"] for x in out["rules"]}
    assert status["type-matching-heuristic"] == "unsure"  # heuristic (b) F1 80 > 40, but on 5 questions
    assert status["leakage-contexts"] == "fail" and status["audit-question"] == "skip"

    bad = tmp / "bad.toml"
    bad.write_text("[[rule]\n")
    r = _run(["check", str(train), "--rules", str(bad)])
    assert r.exit_code == 2 and "not valid TOML" in r.output

    broken = tmp / "broken.json"
    broken.write_text('{"data": [{"title": "x", "paragraphs": [{"context": "abc", "qas": [{"id": "1", "question": "q?", "answers": [{"text": "zz", "answer_start": 0}]}]}]}]}')
    r = _run(["check", str(broken)])
    assert r.exit_code == 2 and "broken.json" in r.output

    (audit / "results.json").write_text("[1, 2]")
    r = _run(["check", str(train), "--with-audit", str(audit)])
    assert r.exit_code == 2 and "results.json" in r.output


def test_run_check_library_api(files):
    _, train, dev, _ = files
    report = run_check(train, dev, progress=False)
    assert report.stats["title"] == "Model-free statistics"
    assert report.exit_code == 1 and report.to_json()["exit_code"] == 1


def test_cli_stats_writes_json_atomically(files):
    tmp, train, dev, _ = files
    out = tmp / "out" / "stats.json"
    r = _run(["stats", str(train), "--dev", str(dev), "--out", str(out), "--quiet"])
    assert r.exit_code == 0, r.output
    assert "answers in the TF-IDF-most-similar sentence: 80.0 %" in r.output
    data = json.loads(out.read_text())
    assert data["title"] == "Model-free statistics" and data["leakage"]["contexts_identical"] == 1
    assert not [p for p in out.parent.iterdir() if p.name.endswith(".tmp")]
    r = _run(["stats", str(train), "--out", str(train), "--quiet"])  # never overwrite the input
    assert r.exit_code == 2 and "refusing to overwrite" in r.output
    r = _run(["stats", str(train), "--dev", str(dev), "--json"])  # --json: the same figures on standard output
    printed = json.loads(r.stdout)
    assert r.exit_code == 0 and printed["leakage"] == data["leakage"] and printed.keys() == data.keys()


# --------------------------------------------------------------------------- one rule set (issue 33)


@pytest.mark.parametrize("scale", [{}, {"Question": 0.3, "Position": 30.0}], ids=["demo", "question-and-position-more"])
def test_check_with_audit_agrees_with_the_audits_verdicts(files, scale):
    """`check --with-audit` gates on the verdicts the audit reports against its reference (its summary):
    on the demo-like audit every category is in line with SQuAD v1.1 and the check passes them, though
    e4's drop (27.8 points) is under the 40 the old fixed rule asked for; a category read as more fails."""
    from demo_audit_fixture import demo_results, settled_reference
    from mrclens.artifacts.results import write_results
    from mrclens.reports.summary import summarize_category

    tmp, train, _, audit = files
    # the gate's words, not the quick profile's power (issue 54): read without the reference's run and structure spreads
    results = demo_results(scale, reference=settled_reference() if scale else None)
    write_results(results, audit)
    r = _run(["check", str(train), "--with-audit", str(audit), "--json", "--quiet"])
    out = {x["id"]: x for x in json.loads(r.stdout)["rules"]}
    for c in results.categories:
        rule = out[f"audit-{c.category.lower()}"]
        assert rule["value"] == c.reference_bias == summarize_category(c, results).verdict.split(" (")[0]
        expected = {"more": "fail", "inconclusive": "unsure"}.get(c.reference_bias, "pass")  # issue 41: inconclusive
        assert rule["status"] == expected, (c.category, rule)
    assert {c.category for c in results.categories if c.reference_bias == "more"} == set(scale)
    assert next(a for a in results.ablations if a.id == "e4").f1_drop < 40
    text = _run(["check", str(train), "--with-audit", str(audit), "--quiet"]).output
    keyword = next(c for c in results.categories if c.category == "Keyword").reference_bias
    status = {"inconclusive": "UNSURE"}.get(keyword, "PASS")
    assert f"{status}" in text and f"audit-keyword: audit: Keyword bias against the reference (the audit's verdict) = {keyword}" in text
    assert "the audit rules gate on the audit's own verdicts against its reference" in text


def test_a_verdict_rule_is_unsure_on_an_inconclusive_category_skips_an_uncompared_one_and_text_thresholds_are_checked(tmp_path):
    audit = {"categories": [{"category": "Question", "reference_bias": "inconclusive"},
                            {"category": "Keyword", "reference_bias": None}, {"category": "Similarity", "f1_drop": 3.0}]}
    rules = [rule(f"audit.categories.{c}.reference_bias", "!=", "more", c) for c in ("Question", "Keyword", "Position")]
    got = evaluate_rules(rules, STATS, audit)
    assert [(r.status, r.reason) for r in got] == [
        ("unsure", "the audit could not tell: its verdict is inconclusive (the reader is too weak to tell)"),
        ("skip", "the audit did not compare this category with a reference"),
        ("skip", "the audit has no Position category")]
    with pytest.raises(RulesError, match="is a number"):
        evaluate_rules([rule("audit.categories.Similarity.f1_drop", "!=", "more")], STATS, audit)
    bad = tmp_path / "bad.toml"
    for op, metric in (("<", "audit.categories.Question.reference_bias"), ("!=", "similarity.n")):
        bad.write_text(f'[[rule]]\nid = "x"\nmetric = "{metric}"\nop = "{op}"\nthreshold = "more"\n')
        with pytest.raises(RulesError, match="a text threshold needs op == or !="):
            load_rules(bad)


# ------------------------------------------------- issue 44, item 2: rules that do not flap (intervals)


def test_a_rule_reads_its_figures_interval_and_interval_none_keeps_the_point_threshold(tmp_path):
    stats = {"counts": {"questions": 1057}, "duplicates": {"duplicate_questions_pct": 1.04},
             "heuristics": {"type_matched_sentence": {"f1": 43.3, "n": 1057}}}
    got = evaluate_rules([rule("duplicates.duplicate_questions_pct", "<=", 1.0, "dup"),
                          rule("heuristics.type_matched_sentence.f1", "<=", 40.0, "tm"),
                          Rule("dup-point", "duplicates.duplicate_questions_pct", "<=", 1.0, interval="none")], stats)
    assert [(r.rule.id, r.status) for r in got] == [("dup", "unsure"), ("tm", "fail"), ("dup-point", "fail")]
    assert round(got[0].ci_low, 2) == 0.58 and round(got[0].ci_high, 2) == 1.85 and "Wilson" in got[0].method
    assert "too small to tell" in got[0].reason and got[2].ci_low is None
    assert exit_code(got[:1]) == 0
    text = format_report(__import__("mrclens.checks", fromlist=["CheckReport"]).CheckReport(got[:1]))
    assert text.splitlines()[0].startswith("UNSURE  dup: ") and "(95% CI [0.58, 1.85])" in text
    assert text.splitlines()[-1] == "no rule fails; 1 too small to tell (0 pass, 0 fail, 1 unsure, 0 skipped)"
    bad = tmp_path / "bad.toml"
    bad.write_text('[[rule]]\nid = "duplicates"\ninterval = "maybe"\n')
    with pytest.raises(RulesError, match="'interval' must be one of 'auto', 'none'"):
        load_rules(bad)
    bad.write_text('[[rule]]\nid = "duplicates"\ninterval = "none"\n')
    assert next(r for r in load_rules(bad) if r.id == "duplicates").interval == "none"


def _slice(squad_dev_path, k: int, out: Path) -> Path:
    import gzip

    doc = json.loads(gzip.decompress(squad_dev_path.read_bytes()))
    out.write_text(json.dumps({"version": doc["version"], "data": doc["data"][:k]}))  # the first k articles, in file order
    return out


@pytest.mark.slow
def test_the_defaults_do_not_flap_on_slices_of_squad_dev_and_still_fail_a_planted_shortcut(squad_dev_path, tmp_path):
    """Issue 44: as point thresholds, the 2-article slice of SQuAD v1.1 dev failed type-matching-heuristic
    (43.3 > 40) and duplicates (1.04 % > 1 %) while the 5-article slice passed. With intervals the 2-,
    5- and 48-article (whole-file) slices exit 0, the whole file passes every data rule, and moving
    every answer sentence of the 2-article slice to the front (selftest's position planting) fails."""
    from mrclens.selftest.plantings import plant

    status = {}
    for k in (2, 5, 48):
        r = _run(["check", str(_slice(squad_dev_path, k, tmp_path / f"dev{k}.json")), "--json", "--quiet"])
        assert r.exit_code == 0, (k, r.stdout)
        out = json.loads(r.stdout)
        status[k] = {x["id"]: x["status"] for x in out["rules"]}
        assert out["passed"] is True and out["counts"]["fail"] == 0
        assert all(x["ci_low"] <= x["value"] <= x["ci_high"] for x in out["rules"] if x["ci_low"] is not None)
    assert status[2]["type-matching-heuristic"] == status[2]["duplicates"] == "unsure"
    data_rules = ("similarity-rank", "keyword-rank", "type-matching-heuristic", "sliding-window-heuristic",
                  "position-heuristic", "answer-position", "question-type-balance", "duplicates")
    assert [status[48][i] for i in data_rules] == ["pass"] * len(data_rules)

    planted = tmp_path / "planted.json"
    write_dataset(plant(load_dataset(tmp_path / "dev2.json"), "position", seed=0).planted, planted)
    r = _run(["check", str(planted), "--quiet"])
    assert r.exit_code == 1, r.output
    assert "FAIL    answer-position" in r.output and "(95% CI [99.62, 100])" in r.output


# ------------------------------------------------- issue 44, item 5: --with-audit checks what it was given


def test_check_refuses_an_evaluation_of_another_file_and_warns_when_it_cannot_verify(files, tmp_path):
    """`mrclens evaluate` results record the perturbed sets' manifest, which records the sha256 of the file the
    sets were made from: `check OTHER --with-audit EVAL` exits 2 naming both files (before: exit 0, no word)."""
    from perturbed_fixture import make_perturbed_dir, write_predictions
    from mrclens.io_utils import sha256_file

    _, train, dev, _ = files
    perturbed = make_perturbed_dir(tmp_path / "p")
    manifest = json.loads((perturbed / "manifest.json").read_text())
    manifest["source"] = {"file": str(train), "sha256": sha256_file(train)}
    (perturbed / "manifest.json").write_text(json.dumps(manifest))
    evaluation = tmp_path / "eval"
    r = _run(["evaluate", str(perturbed), "--predictions-dir", str(write_predictions(tmp_path)), "--out", str(evaluation), "-q"])
    assert r.exit_code == 0, r.output

    r = _run(["check", str(dev), "--with-audit", str(evaluation), "--quiet"])
    assert r.exit_code == 2, r.output
    assert str(evaluation) in r.output and str(train) in r.output and str(dev) in r.output
    assert "an audit of another dataset" in r.output
    r = _run(["check", str(train), "--with-audit", str(evaluation), "--quiet"])
    assert r.exit_code == 0 and "warning" not in r.output, r.output
    (perturbed / "manifest.json").unlink()  # the sets moved away: nothing to compare with, and it says so
    r = _run(["check", str(dev), "--with-audit", str(evaluation), "--quiet"])
    assert r.exit_code == 0 and "could not verify that it is an audit of" in r.stderr and "is not there" in r.stderr


def test_an_inconclusive_category_is_reported_even_without_a_rule_on_it(files):
    from mrclens.checks import inconclusive_notes

    audit = {"categories": [{"category": "Question", "reference_bias": "inconclusive", "reference": "SQuAD v1.1"},
                            {"category": "Position", "reference_bias": "inconclusive"}]}
    got = evaluate_rules([rule("audit.categories.Position.reference_bias", "!=", "more", "pos")], STATS, audit)
    assert got[0].status == "unsure" and exit_code(got) == 0
    assert inconclusive_notes(audit, got) == [
        "audit: could not tell the Question bias against SQuAD v1.1 (its verdict is inconclusive: the reader is too "
        "weak to tell); no rule reads it"]


@pytest.mark.slow
def test_check_prints_the_data_route_the_audit_reads(sample_path, tmp_path, monkeypatch):
    """Issue 57, item 1: `check` gives, beside its rules, each category read from the data's own figures as the
    audit reads them (:func:`mrclens.scoring.data_route.data_route`), in text and in --json; its exit status stays
    the rules'. On 8 real articles of the bundled sample."""
    from mrclens.artifacts.reference import read_reference
    from mrclens.categories import CATEGORY_NAMES
    from mrclens.formats import load_dataset
    from mrclens.scoring.data_route import data_route
    from mrclens.squad import Dataset
    from mrclens.stats import compute_stats, compute_stats_per_article

    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path / "cache"))
    sample = load_dataset(sample_path)
    part = Dataset(sample.articles[:8], sample.version)
    path = write_dataset(part, tmp_path / "part.json")
    r = _run(["check", str(path), "--json", "--quiet"])
    out = json.loads(r.stdout)
    assert r.exit_code == out["exit_code"]
    expected = data_route(compute_stats(part, cache_dir=tmp_path / "cache", progress=False, n_process=1),
                          compute_stats_per_article(part, tmp_path / "cache"), read_reference()).to_json()
    assert out["data_verdicts"] == json.loads(json.dumps(expected))
    assert [c["category"] for c in out["data_verdicts"]["categories"]] == list(CATEGORY_NAMES)
    text = _run(["check", str(path), "--quiet"]).stdout
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("Verdict from the data alone, against SQuAD v1.1"))
    for c in out["data_verdicts"]["categories"]:
        row = next(line for line in lines[head:] if line.startswith(c["category"]))
        if c.get("planted_pct"):
            p = c["planted_pct"]
            assert f"band ±{p['band']:g}%" in row and f"MDE {p['mde']:.0f}%" in row
        else:
            assert "no figure of the data measures it" in row


def test_multiple_choice_and_language_free_checks_have_no_data_route(tmp_path):
    from mrclens.checks import CheckReport

    assert "data_verdicts" not in CheckReport([]).to_json() and "from the data alone" not in format_report(CheckReport([]))
