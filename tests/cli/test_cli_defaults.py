"""`mrclens train` and `mrclens audit` pick the same profile, time cap and seed by the same rules
(:mod:`mrclens.defaults`) as the Python API. Training and the audit itself are replaced by stand-ins
that record what they were given, so these tests run in a second."""

from __future__ import annotations

import importlib
import inspect

import pytest
import torch
from click.testing import CliRunner

import mrclens.audit.span as audit_span
import mrclens.baseline_model
import mrclens.cli.audit as audit_cli
import mrclens.cli.train as train_cli
from mrclens.audit import AUDITS, AuditOptions
from mrclens.cli import main
from mrclens.baseline_model import ReaderConfig
from mrclens.defaults import DEFAULT_SEED, resolve_profile
from mrclens.errors import MRCLensError
from mrclens.split import split_by_title
from mrclens.formats import load_dataset
from mrclens.squad import Dataset, write_dataset


@pytest.fixture
def train_file(sample_path, tmp_path):
    ds = load_dataset(sample_path)
    return str(write_dataset(Dataset(ds.articles[:2], ds.version), tmp_path / "train.json"))


@pytest.fixture
def recorded(monkeypatch):
    """Replace training and the audit by stand-ins that record their arguments and stop the command."""
    calls: list[dict] = []

    def fake_train(dataset, config, **kw):
        calls.append({"config": config, **kw})
        raise MRCLensError("stand-in: no training in this test")

    def fake_audit(options, echo=print):
        calls.append({"options": options})
        raise MRCLensError("stand-in: no audit in this test")

    monkeypatch.setattr(mrclens.baseline_model, "train", fake_train)  # `mrclens train` imports it when run
    monkeypatch.setattr("mrclens.cli.audit.AUDITS", AUDITS.with_entry("span", fake_audit))  # the span task's audit
    threads = torch.get_num_threads()  # `mrclens train` sets torch's thread count
    yield calls
    torch.set_num_threads(threads)


def _invoke(args):
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2 and "stand-in" in res.output, res.output
    return res


def test_train_uses_the_profiles_cap_unless_overridden(recorded, train_file, tmp_path):
    _invoke(["train", train_file, "--out", str(tmp_path / "m")])
    _invoke(["train", train_file, "--out", str(tmp_path / "m"), "--profile", "paper-em", "--max-minutes", "2.5"])
    _invoke(["train", train_file, "--out", str(tmp_path / "m"), "--profile", "quick", "--seed", "7"])
    default, em, quick = recorded
    # issue 16: step budgets from the profile, no wall-clock cap unless given
    assert default["config"].profile_name == "paper-parallel" and default["config"].max_minutes is None
    assert (default["config"].max_steps, default["config"].cpu_threads, default["config"].processes) == (4600, 1, 2)
    assert default["seed"] == DEFAULT_SEED
    # the override is recorded in the config that is saved with the weights, as in the audit
    assert em["config"].profile_name == "paper-em" and em["config"].max_minutes == 2.5
    assert em["config"].exact_match_features is True
    assert (quick["config"].hidden, quick["config"].max_steps, quick["seed"]) == (64, 1700, 7)
    assert all("max_minutes" not in call for call in recorded)  # the cap travels in the config only


def test_audit_cli_default_profile_and_seed(recorded, train_file, tmp_path):
    _invoke(["audit", "--out", str(tmp_path / "a")])
    _invoke(["audit", train_file, "--out", str(tmp_path / "b")])
    _invoke(["audit", train_file, "--out", str(tmp_path / "c"), "--profile", "quick", "--max-minutes", "1",
             "--max-steps", "30"])
    sample, given, chosen = (c["options"] for c in recorded)
    assert (sample.train, sample.profile, sample.seed, sample.max_minutes) == (None, "quick", DEFAULT_SEED, None)
    assert sample.max_steps is None  # the profile's
    assert (given.profile, given.seed) == ("paper-parallel", DEFAULT_SEED)
    assert (chosen.profile, chosen.max_minutes, chosen.max_steps) == ("quick", 1.0, 30)


def test_audit_options_follow_the_same_rule_as_the_cli():
    assert AuditOptions().profile == "quick"  # no train file: the bundled sample
    assert AuditOptions(train="train.json").profile == "paper-parallel"
    assert AuditOptions(train="train.json", profile="paper-em").profile == "paper-em"
    assert AuditOptions().seed == DEFAULT_SEED


def test_the_cli_leaves_the_default_profile_to_the_one_rule_applied_once(recorded, train_file, tmp_path, monkeypatch):
    """`mrclens audit` passes --profile (or None) to AuditOptions, which applies the rule once and checks the name there."""
    calls = []

    def counted(name, train):
        calls.append((name, train))
        return resolve_profile(name, train)

    monkeypatch.setattr(audit_span, "resolve_profile", counted)
    _invoke(["audit", train_file, "--out", str(tmp_path / "a")])
    _invoke(["audit", train_file, "--out", str(tmp_path / "b"), "--profile", "quick"])
    _invoke(["audit", "--out", str(tmp_path / "c")])
    assert calls == [(None, train_file), ("quick", train_file), (None, None)]
    assert [c["options"].profile for c in recorded] == ["paper-parallel", "quick", "quick"]


def test_the_python_api_trains_with_the_profile_the_cli_would_use(train_file, monkeypatch):
    """`baseline_model.train(dataset)` without a config: the profile `mrclens train TRAIN` uses, by the same rule."""
    train_module = importlib.import_module("mrclens.baseline_model.train")  # the package exports train()
    seen = []

    def stop(config):
        seen.append(config)
        raise MRCLensError("stand-in: no training in this test")

    monkeypatch.setattr(train_module, "check_lr_schedule", stop)  # the first thing train() does with its config
    with pytest.raises(MRCLensError, match="stand-in"):
        train_module.train(load_dataset(train_file))
    assert seen[0].profile_name == resolve_profile(None, train_file) == "paper-parallel"
    assert seen[0].to_dict() == ReaderConfig.profile("paper-parallel").to_dict()


def test_an_unknown_profile_has_one_message_wherever_it_is_named():
    message = "unknown reader profile 'huge'; choose one of paper, paper-em, paper-fast, paper-budget, paper-parallel, quick"
    for make in (lambda: AuditOptions(profile="huge"), lambda: ReaderConfig.profile("huge"),
                 lambda: resolve_profile("huge", None)):
        with pytest.raises(MRCLensError) as err:
            make()
        assert str(err.value) == message


def test_one_default_seed_everywhere():
    assert inspect.signature(split_by_title).parameters["seed"].default == DEFAULT_SEED
    for command in (train_cli.train, audit_cli.audit):
        seed = next(p for p in command.params if p.name == "seed")
        assert seed.default == DEFAULT_SEED, command.name
