"""``mrclens.dataset_stats`` and ``mrclens.check_dataset`` (issue 57, item 7: the notebook user): on a dataset
already loaded they give what ``mrclens stats`` and ``mrclens check`` give on its file, typed. On real questions:
two articles' first paragraphs of the bundled sample (a few seconds to parse), a third article's as the dev set."""

from __future__ import annotations

import json
import os
import tempfile

import pytest
from click.testing import CliRunner

import mrclens
from mrclens.checks import CheckReport, format_report
from mrclens.cli import main
from mrclens.errors import MRCLensError
from mrclens.squad import Article, QADataset, write_dataset
from mrclens.stats.files import FileStats

# a module fixture of several seconds: left out of `make test`, run by `make test-slow` and CI
pytestmark = pytest.mark.slow

#: Keys of the statistics that differ between two runs of the same data: wall times and cache hits.
RUN_KEYS = ("timings_s", "statistics_cache")


def _part(sample: QADataset, articles: slice, paragraphs: int, source: str | None) -> QADataset:
    return QADataset([Article(a.title, a.paragraphs[:paragraphs]) for a in sample.articles[articles]], sample.version,
                     source)


@pytest.fixture(scope="module")
def parts(sample_path, tmp_path_factory):
    """(train, dev, their files, the cache): 2 articles × 8 paragraphs and 1 article × 4 paragraphs."""
    sample = mrclens.load_qa_dataset(sample_path)
    folder = tmp_path_factory.mktemp("notebook")
    train = _part(sample, slice(0, 2), 8, "my-train.json")
    dev = _part(sample, slice(2, 3), 4, None)
    train_file, dev_file = write_dataset(train, folder / "train.json"), write_dataset(dev, folder / "dev.json")
    return train, dev, train_file, dev_file, folder / "cache"


def _cli(args, cache):
    res = CliRunner().invoke(main, [*args, "--json", "--quiet"], catch_exceptions=False,
                             env={"MRCLENS_CACHE_DIR": str(cache)})
    return res.exit_code, json.loads(res.stdout)


def _without(figures: dict, *keys: str) -> dict:
    return {k: v for k, v in json.loads(json.dumps(figures)).items() if k not in keys}


def test_dataset_stats_of_a_loaded_dataset_are_those_of_mrclens_stats(parts, monkeypatch, tmp_path):
    train, dev, train_file, dev_file, cache = parts
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where the dataset's temporary file goes
    stats = mrclens.dataset_stats(train, dev, cache_dir=cache, progress=False, n_process=1)
    assert isinstance(stats, FileStats)
    assert not any(p.name.startswith("mrclens-") for p in tmp_path.iterdir())  # the temporary file is gone
    _, cli = _cli(["stats", str(train_file), "--dev", str(dev_file)], cache)
    assert _without(stats.figures, *RUN_KEYS, "source", "dev_source") == _without(cli, *RUN_KEYS, "source", "dev_source")
    assert stats.figures["counts"]["questions"] == len(train) and stats.figures["leakage"] is not None
    # the figures name the datasets, not the temporary files
    assert (stats.figures["source"], stats.figures["dev_source"]) == ("my-train.json", "<memory>")
    assert repr(stats).startswith(f"FileStats(source 'my-train.json', {len(train):,} questions;")
    assert str(stats).startswith("Model-free statistics: my-train.json")  # the text of `mrclens stats`
    # a path gives the same figures
    by_path = mrclens.dataset_stats(train_file, cache_dir=cache, progress=False, n_process=1)
    assert by_path.figures["source"] == str(train_file)
    assert _without(by_path.figures, *RUN_KEYS, "source") == \
        _without(mrclens.dataset_stats(train, cache_dir=cache, progress=False, n_process=1).figures, *RUN_KEYS, "source")


def test_check_dataset_of_a_loaded_dataset_is_mrclens_check(parts):
    train, dev, train_file, dev_file, cache = parts
    report = mrclens.check_dataset(train, dev, cache_dir=cache, progress=False, n_process=1)
    assert isinstance(report, CheckReport)
    code, cli = _cli(["check", str(train_file), "--dev", str(dev_file)], cache)
    mine = report.to_json()
    assert (mine["data"], mine["dev"]) == ("my-train.json", "<memory>")
    assert _without(mine, "data", "dev") == _without(cli, "data", "dev")  # rules, counts and data verdicts alike
    assert report.exit_code == code
    assert {r.rule.id for r in report.results if r.status != "skip"} >= {"leakage-contexts", "similarity-rank"}
    assert report.data_route is not None and "data_verdicts" in mine
    assert "Verdict from the data alone" in format_report(report)


def test_flat_records_are_read_as_the_dataset_and_other_objects_refused(parts):
    train, _, _, _, cache = parts
    records = list(train)  # the Hugging Face form: one flat record per question
    report = mrclens.check_dataset(records, cache_dir=cache, progress=False, n_process=1)
    assert report.data == "<memory>" and report.stats["counts"]["questions"] == len(train)
    with pytest.raises(MRCLensError, match="int"):
        mrclens.dataset_stats(42)


def test_the_functions_are_public_and_lazy():
    assert {"check_dataset", "dataset_stats"} <= set(mrclens.__all__) <= set(dir(mrclens))
    assert mrclens.check_dataset.__module__ == "mrclens.checks.notebook"
    assert os.path.basename(mrclens.stats.__file__) == "__init__.py"  # `mrclens.stats` stays the statistics package
