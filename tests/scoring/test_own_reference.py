"""An external model read against its own evaluation on the reference's sets (issue 44, item 3).

Real sets (``perturb_dataset`` on a few articles of the bundled sample), real predictions (the rule-based
sentence readers of :mod:`sentence_readers`), no figure written by hand."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))
from sentence_readers import predict_dir  # noqa: E402

from mrclens.cli import main  # noqa: E402
from mrclens.defaults import BUNDLED_SAMPLE  # noqa: E402
from mrclens.errors import ArtifactError  # noqa: E402
from mrclens.formats import load_dataset  # noqa: E402
from mrclens.metrics.bootstrap import fmt_bound  # noqa: E402
from mrclens.perturbations import perturb_dataset  # noqa: E402
from mrclens.verdicts import READING_NAMES as COMPARISONS  # noqa: E402
from mrclens.scoring.own_reference import evaluate_against_own_reference  # noqa: E402
from mrclens.selftest.plantings import plant  # noqa: E402
from mrclens.squad import Dataset, write_dataset  # noqa: E402

# a module fixture of several seconds: left out of `make test`, run by `make test-slow` and CI
pytestmark = pytest.mark.slow

CATEGORIES = ("Similarity", "Question", "Keyword", "Position")


@pytest.fixture(scope="module")
def sets(tmp_path_factory):
    """Perturbed sets of three sample articles with the position shortcut planted, of their clean counterpart, and
    of three other articles (the reference); each predicted by the first-sentence and the most-similar readers."""
    root = tmp_path_factory.mktemp("own-reference")
    sample = load_dataset(BUNDLED_SAMPLE)
    pair = plant(Dataset(sample.articles[:3], sample.version), "position", 0)
    out = {}
    for name, data in (("planted", pair.planted), ("clean", pair.clean),
                       ("reference", Dataset(sample.articles[20:23], sample.version))):
        write_dataset(data, root / f"{name}.json")
        perturb_dataset(load_dataset(root / f"{name}.json"), root / f"{name}-sets", seed=0, progress=False)
        out[name] = root / f"{name}-sets"
        for reader in ("first", "similar"):
            out[f"{name}-{reader}"] = predict_dir(root / f"{name}-sets", root / f"{name}-{reader}", reader)
    out["root"] = root
    return out


def _verdicts(sets, name, reader):
    evaluation, reference = evaluate_against_own_reference(sets[name], sets[f"{name}-{reader}"], sets["reference"],
                                                           sets[f"reference-{reader}"], model_name=reader,
                                                           n_resamples=300, progress=False)
    return evaluation.results, reference.results


@pytest.mark.slow
def test_every_category_gets_a_verdict_against_the_models_own_reference(sets):
    results, reference = _verdicts(sets, "clean", "similar")
    got = {c.category: c for c in results.categories}
    assert set(got) == set(CATEGORIES)
    for c in got.values():
        assert c.reference_bias in COMPARISONS
        assert c.reference == "reference.json (same model)"
        assert c.reference_basis == "drops"  # evaluate reads predictions only: no model-free route
        assert c.reference_mde is not None and c.reference_mde > 0
        assert c.reference_difference_ci_low <= c.reference_difference <= c.reference_difference_ci_high
    # evaluate reads no context lengths: the borrowed structure term is the larger of the two strata (issue 41)
    assert any("structure alone of clean data of the reference's context length or another, the larger (this data's "
               "length was not measured)" in c.reading for c in got.values())
    # the reference side is the model's own evaluation on the reference's sets, with the same bootstrap
    assert reference.sets["original"].f1 > 30 and results.model.name == reference.model.name == "similar"
    assert any(i.role.startswith("reference: predictions:") for i in results.inputs)


def test_a_planted_position_shortcut_reads_differently_from_its_clean_counterpart(sets):
    """A reader that looks only at the first sentence, on data whose answers were all moved to the first sentence,
    loses all it found when e9 moves that sentence away, far more than on its clean counterpart. On the clean counterpart (a random
    sentence moved to the front) it loses about what it loses on the reference, whose truncated set is a random
    question per paragraph (issue 41, part 3; when it kept each paragraph's first question, which SQuAD's
    annotators asked about the first sentence, this clean counterpart read Position "less")."""
    planted, _ = _verdicts(sets, "planted", "first")
    clean, _ = _verdicts(sets, "clean", "first")
    p = next(c for c in planted.categories if c.category == "Position")
    c = next(c for c in clean.categories if c.category == "Position")
    assert c.reference_bias not in ("more", "less")
    assert p.reference_bias != "less"   # three articles: "more" needs more questions than these
    assert p.reference_difference > c.reference_difference + 40


def test_reference_sets_made_from_the_audited_file_are_refused(sets):
    with pytest.raises(ArtifactError, match="a reference is never the data it judges"):
        evaluate_against_own_reference(sets["clean"], sets["clean-similar"], sets["clean"], sets["clean-similar"],
                                       progress=False)


def test_reference_sets_made_with_another_truncation_rule_are_refused(sets, tmp_path):
    """Issue 41, part 3: e1, e2 and e6-e10 of both sides must be measured on truncated sets made the same way."""
    first = tmp_path / "reference-first"
    perturb_dataset(load_dataset(sets["root"] / "reference.json"), first, seed=0, progress=False, truncation="first")
    with pytest.raises(ArtifactError, match=r"reference-first: its truncated set was made by the truncation rule "
                                            r"'first', and .*clean-sets's by 'random'"):
        evaluate_against_own_reference(sets["clean"], sets["clean-similar"], first, sets["reference-similar"],
                                       progress=False)


def test_reference_predictions_made_on_other_sets_are_refused(sets):
    with pytest.raises(ArtifactError, match=r"original\.json: none of its .* prediction\(s\) is for a question of the "
                                            r"reference set 'original'"):
        evaluate_against_own_reference(sets["clean"], sets["clean-similar"], sets["reference"], sets["clean-similar"],
                                       progress=False)


def test_cli_prints_category_verdicts_and_writes_them_everywhere(sets, tmp_path):
    out = tmp_path / "out"
    args = ["evaluate", str(sets["clean"]), "--predictions-dir", str(sets["clean-similar"]), "--reference-sets",
            str(sets["reference"]), "--reference-predictions-dir", str(sets["reference-similar"]), "--out", str(out),
            "--resamples", "300", "--model-name", "similar sentence"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    saved = json.loads((out / "results.json").read_text())
    lines = {line.split()[0]: line for line in result.output.splitlines() if line.split()[:1] and line.split()[0] in CATEGORIES}
    assert set(lines) == set(CATEGORIES)
    for c in saved["categories"]:
        verdict = c["reference_bias"]
        assert lines[c["category"]].split()[1:3][: len(verdict.split())] == verdict.split()
        # the terminal shows the figure results.json holds
        assert f"{c['reference_difference']:+.1f}" in lines[c["category"]]
    report = (out / "report.html").read_text()
    assert "not compared with a reference" not in report and "or --reference)" not in report
    card = CliRunner().invoke(main, ["card", str(out), "--out", str(tmp_path / "card")])
    assert card.exit_code == 0, card.output
    text = (tmp_path / "card" / "bias-card.md").read_text()
    assert "not compared with a reference" not in text and "--profile" not in text
    for c in saved["categories"]:  # the one figure of the terminal and the report (issue 44)
        low, high = fmt_bound(c["reference_difference_ci_low"], True), fmt_bound(c["reference_difference_ci_high"], True)
        assert f"| rel. drop vs ref {fmt_bound(c['reference_difference'], True)} [{low}, {high}] |" in text


def test_cli_refuses_half_a_reference_and_foreign_predictions(sets):
    half = CliRunner().invoke(main, ["evaluate", str(sets["clean"]), "--predictions-dir", str(sets["clean-similar"]),
                                     "--reference-sets", str(sets["reference"])])
    assert half.exit_code == 2 and "--reference-predictions-dir" in half.output
    other = CliRunner().invoke(main, ["evaluate", str(sets["clean"]), "--predictions-dir", str(sets["clean-similar"]),
                                      "--reference-sets", str(sets["reference"]), "--reference-predictions-dir",
                                      str(sets["planted-similar"])])
    assert other.exit_code == 2 and "original.json" in other.output and "other sets" in other.output


def test_perturb_needs_data_unless_it_writes_the_reference_sets(tmp_path):
    result = CliRunner().invoke(main, ["perturb", "--out", str(tmp_path / "sets")])
    assert result.exit_code == 2 and "--reference" in result.output
    assert not (tmp_path / "sets").exists()


# ---- issue 55: the reference side's predictions are checked like the audited side's (item 1), the reference is
# ---- compared with the audited data by its questions (item 7), foreign predictions are refused (item 8)

def _copy_predictions(src: Path, dst: Path, drop_files=(), drop_every: dict | None = None, empty=()) -> Path:
    """A copy of a predictions folder without ``drop_files``, ``{}`` for ``empty``, and in each file of
    ``drop_every`` (``{set name: k}``) every k-th id removed (the first kept)."""
    dst.mkdir(parents=True, exist_ok=True)
    for path in sorted(src.glob("*.json")):
        name = path.stem
        if name in drop_files:
            continue
        preds = json.loads(path.read_text())
        if name in empty:
            preds = {}
        elif drop_every and name in drop_every:
            preds = {q: a for i, (q, a) in enumerate(preds.items()) if i % drop_every[name] != 1 % drop_every[name]}
        (dst / path.name).write_text(json.dumps(preds))
    return dst


def _cli(sets, reference_predictions, out=None):
    args = ["evaluate", str(sets["clean"]), "--predictions-dir", str(sets["clean-similar"]), "--reference-sets",
            str(sets["reference"]), "--reference-predictions-dir", str(reference_predictions), "--resamples", "200"]
    return CliRunner().invoke(main, args + (["--out", str(out)] if out else []))


def test_a_reference_missing_every_second_id_of_the_ablation_sets_is_refused(sets, tmp_path):
    """Issue 55, item 1: this reference flipped Question to "more" (+50 points), exit 0, nothing on stderr."""
    ablations = [p.stem for p in sets["reference-similar"].glob("*.json") if p.stem[0] in "ec"]
    half = _copy_predictions(sets["reference-similar"], tmp_path / "half", drop_every=dict.fromkeys(ablations, 2))
    result = _cli(sets, half, tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert "the reference predictions cannot be compared" in result.output and "e1.json" in result.output
    assert "more than 2%" in result.output and not (tmp_path / "out").exists()


@pytest.mark.parametrize("change", [{"empty": ("e3",)}, {"drop_files": ("e9",)}, {"drop_files": ("original",)},
                                    {"drop_files": ("original-truncated",)}])
def test_a_reference_without_the_predictions_a_compared_ablation_needs_is_refused(sets, tmp_path, change):
    """Issue 55, item 1: a `{}` file or a missing e9.json, original.json or original-truncated.json dropped
    categories from a comparison whose header still said "Verdict against … (same model)"."""
    name = (change.get("empty") or change.get("drop_files"))[0]
    result = _cli(sets, _copy_predictions(sets["reference-similar"], tmp_path / "ref", **change))
    assert result.exit_code == 2, result.output
    assert f"{name}.json" in result.output and "the reference predictions cannot be compared" in result.output


def test_a_few_missing_reference_ids_are_a_warning_everywhere(sets, tmp_path):
    """At most 2 % of a set missing: the verdict stands, and says so on stderr, in results.json and the report."""
    n = len(json.loads((sets["reference-similar"] / "original.json").read_text()))
    few = _copy_predictions(sets["reference-similar"], tmp_path / "few", drop_every={"original": n})
    assert len(json.loads((few / "original.json").read_text())) == n - 1
    result = _cli(sets, few, tmp_path / "out")
    assert result.exit_code == 0, result.output
    warning = f"reference predictions {few}: original: 1 of {n:,} question(s) have no prediction and score 0"
    assert warning in result.stderr
    assert warning in json.loads((tmp_path / "out" / "results.json").read_text())["warnings"]
    assert "reference predictions" in (tmp_path / "out" / "report.html").read_text()


def test_complete_reference_predictions_add_no_warning(sets):
    results, _ = _verdicts(sets, "clean", "similar")
    assert not [w for w in results.warnings if w.startswith("reference predictions")]


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files=st.sets(st.sampled_from(["original", "original-truncated", "e1", "c1", "e3", "e5", "e9", "e10"]),
                     max_size=2),
       every=st.dictionaries(st.sampled_from(["original", "original-truncated", "e2", "c2", "e4", "e7", "e8"]),
                             st.integers(2, 400), min_size=0, max_size=2))
def test_every_removal_from_the_reference_refuses_or_warns_never_a_silent_verdict(sets, tmp_path_factory, files,
                                                                                 every):
    """Property (issue 55, item 1): whatever files or ids are removed from the reference's predictions, the
    comparison is refused (exit 2, naming a file) or its results carry a warning about the reference."""
    folder = _copy_predictions(sets["reference-similar"], tmp_path_factory.mktemp("ref"), drop_files=files,
                               drop_every=every)
    removed = bool(files) or any(len(json.loads((folder / f"{n}.json").read_text())) < len(
        json.loads((sets["reference-similar"] / f"{n}.json").read_text())) for n in every)
    try:
        evaluation, _ = evaluate_against_own_reference(sets["clean"], sets["clean-similar"], sets["reference"], folder,
                                                       n_resamples=50, progress=False)
    except ArtifactError as err:
        assert removed and ".json" in str(err)
        return
    warned = [w for w in evaluation.results.warnings if w.startswith(f"reference predictions {folder}")]
    assert bool(warned) == removed


@pytest.mark.slow
def test_reference_sets_made_from_a_gzipped_copy_of_the_audited_file_are_refused(sets, tmp_path):
    """Issue 55, item 7: the same data under another name and compression has another sha256."""
    copy = tmp_path / "renamed-copy.json.gz"
    copy.write_bytes(gzip.compress((sets["root"] / "clean.json").read_bytes()))
    made = CliRunner().invoke(main, ["perturb", str(copy), "--out", str(tmp_path / "copy-sets"), "-q"])
    assert made.exit_code == 0, made.output
    result = CliRunner().invoke(main, ["evaluate", str(sets["clean"]), "--predictions-dir", str(sets["clean-similar"]),
                                       "--reference-sets", str(tmp_path / "copy-sets"), "--reference-predictions-dir",
                                       str(sets["clean-similar"])])
    assert result.exit_code == 2, result.output
    assert "the same question ids and texts" in result.output and "never the data it judges" in result.output


def test_predictions_for_other_sets_are_refused_not_scored_as_a_weak_model(sets, tmp_path):
    """Issue 55, item 8: the reference's predictions given for the audited sets matched 0 ids and read as F1 0.0."""
    result = CliRunner().invoke(main, ["evaluate", str(sets["clean"]), "--predictions-dir",
                                       str(sets["reference-similar"]), "--resamples", "50"])
    assert result.exit_code == 2, result.output
    assert "original.json" in result.output and "predictions made on other sets" in result.output
    empty = _copy_predictions(sets["clean-similar"], tmp_path / "empty", empty=("e4",))
    result = CliRunner().invoke(main, ["evaluate", str(sets["clean"]), "--predictions-dir", str(empty),
                                       "--resamples", "50"])
    assert result.exit_code == 2 and "e4.json: it holds no prediction" in result.output, result.output
