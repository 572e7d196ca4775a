"""Defaults shared by every command and by the Python API: the seed and the reader profiles.

* :data:`DEFAULT_SEED` — the one default seed (title split, perturbations, training, bootstrap of the audit).
* :data:`N_RESAMPLES` and :data:`DEFAULT_EXAMPLES` — bootstrap resamples per interval and report
  examples per ablation (here, not in the scoring and report modules, so that the command line
  can show them in ``--help`` without importing NumPy or jinja2).
* The reader profiles and the rule that picks one when none is given (:func:`resolve_profile`, for the
  CLI and the Python API alike) are read from the package file ``mrclens/data/reader_profiles.toml``; this module reads it without importing torch, so
  the CLI can list the profile names cheaply. The values become a
  :class:`~mrclens.baseline_model.config.ReaderConfig` through
  :meth:`ReaderConfig.profile <mrclens.baseline_model.config.ReaderConfig.profile>`.

>>> reader_profile_names()
('paper', 'paper-em', 'paper-fast', 'paper-budget', 'paper-parallel', 'quick')
>>> default_profile(None), default_profile("train.json")
('quick', 'paper-parallel')
>>> reader_profile_values("quick")
{'hidden': 64, 'char_filters': 50, 'epochs': 10, 'max_steps': 1700, 'cpu_threads': 2}
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
import tomllib
from importlib import resources
from typing import Any

from mrclens.errors import InternalError, MRCLensError

#: The one default seed: the default of ``--seed`` of ``mrclens train`` and ``mrclens audit``, of
#: ``split_by_title`` and of ``AuditOptions.seed``. (The other seeded commands and functions,
#: e.g. ``mrclens perturb``/``evaluate`` and ``baseline_model.train``, still write the same value, 0.)
DEFAULT_SEED = 0
#: The bundled real sample: 40 SQuAD v1.1 train articles (``mrclens audit`` with no dataset; the reference sets of
#: ``mrclens perturb --reference`` without DATA are its evaluation part).
BUNDLED_SAMPLE = Path(__file__).resolve().parent / "data" / "squad-v1.1-sample.json.gz"
#: The share of articles the audit's title split sends to evaluation when only one file is given.
DEFAULT_DEV_FRACTION = 0.2

#: Default number of bootstrap resamples per confidence interval (issue 5: 1,000).
N_RESAMPLES = 1000

# ---- repeated draws / readers (issue 16) ----
#: Default ``--perturb-seeds``: draws of every ablation's random choices per audit. Two is the
#: fewest that shows the between-draw variance; each further draw on SQuAD v1.1 dev costs a
#: perturbation pass and one prediction of every set that depends on the draw (measured in
#: BENCHMARKS.md, "Repeated draws"), which keeps the full paper-profile audit within 60 minutes on
#: 2 cores, where a third draw would not leave room for a slower machine.
DEFAULT_PERTURB_SEEDS = 2
#: Default ``--train-seeds``: trained readers per audit (each costs a full training run).
DEFAULT_TRAIN_SEEDS = 1
# ---- end repeated draws / readers ----

#: Example items shown per ablation in the HTML report by default.
DEFAULT_EXAMPLES = 3

#: The reader-profile file, relative to the ``mrclens`` package.
PROFILES_RESOURCE = "data/reader_profiles.toml"


@functools.cache
def _profiles_file() -> dict[str, Any]:
    """The shipped profile file, parsed once (:func:`parse_profiles`)."""
    text = resources.files("mrclens").joinpath(PROFILES_RESOURCE).read_text(encoding="utf-8")
    return parse_profiles(text)


def parse_profiles(text: str) -> dict[str, Any]:
    """Parse the text of a reader-profile file and check its shape.

    Returns:
        ``{"default_profile": {"bundled_sample": NAME, "otherwise": NAME}, "profiles": {NAME: {FIELD: VALUE}}}``.

    Raises:
        InternalError: the text is not valid TOML or not shaped like ``reader_profiles.toml``
            (for the shipped file, a bug in the package, not a user error).
    """
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InternalError(f"{PROFILES_RESOURCE}: not valid TOML: {err}") from None
    profiles, rule = doc.get("profiles"), doc.get("default_profile")
    if set(doc) != {"profiles", "default_profile"} or not isinstance(profiles, dict) or not profiles:
        raise InternalError(f"{PROFILES_RESOURCE}: expected exactly a [default_profile] table and [profiles.NAME] tables")
    if not all(isinstance(v, dict) for v in profiles.values()):
        raise InternalError(f"{PROFILES_RESOURCE}: every profile must be a table")
    if (not isinstance(rule, dict) or set(rule) != {"bundled_sample", "otherwise"}
            or not all(isinstance(v, str) and v in profiles for v in rule.values())):
        raise InternalError(f"{PROFILES_RESOURCE}: [default_profile] needs bundled_sample and otherwise, "
                            f"each naming one of the profiles {', '.join(profiles)}")
    return doc


def reader_profile_names() -> tuple[str, ...]:
    """The reader profile names, in the file's order (the order the CLI lists them)."""
    return tuple(_profiles_file()["profiles"])


def reader_profile_values(name: str) -> dict[str, Any]:
    """The fields that profile ``name`` sets (a fresh dict; keys are ``ReaderConfig`` fields).

    Fields not listed keep the ``ReaderConfig`` defaults (the paper's values). ``max_steps``
    is the training budget in optimizer steps; ``max_minutes`` (a wall-clock cap) is set by no
    shipped profile.

    Raises:
        MRCLensError: unknown profile name.
    """
    return dict(_profiles_file()["profiles"][_known_profile(name)])


def resolve_profile(name: str | None, train: Any) -> str:
    """The reader profile a run uses: the one rule for the CLI and the Python API, applied once per run
    (:class:`mrclens.audit.span.AuditOptions` for ``mrclens audit`` and :func:`~mrclens.audit.span.run_audit`,
    ``mrclens train``, :func:`mrclens.baseline_model.train` without a ``config``), where the name is checked.

    Args:
        name: the profile asked for (``--profile``, ``AuditOptions(profile=…)``), or ``None`` for the default.
        train: what the reader is trained on: the training file or dataset the user gave, or ``None`` when
            the bundled sample is used (``mrclens audit`` without a dataset, ``AuditOptions(train=None)``).

    Returns:
        ``name``; without one, ``"quick"`` for the bundled sample and ``"paper-parallel"`` otherwise (the
        ``[default_profile]`` table of ``mrclens/data/reader_profiles.toml``).

    Raises:
        MRCLensError: ``name`` is not a profile (the message lists them).

    >>> resolve_profile(None, None), resolve_profile(None, "train.json"), resolve_profile("paper", "train.json")
    ('quick', 'paper-parallel', 'paper')
    """
    if name is None:
        rule = _profiles_file()["default_profile"]
        return rule["bundled_sample"] if train is None else rule["otherwise"]
    return _known_profile(name)


def _known_profile(name: str) -> str:
    """``name`` when it is a reader profile (the one check of a profile name).

    Raises:
        MRCLensError: it is not (the message lists the profiles).
    """
    profiles = _profiles_file()["profiles"]
    if not isinstance(name, str) or name not in profiles:
        raise MRCLensError(f"unknown reader profile {name!r}; choose one of {', '.join(profiles)}")
    return name


def default_profile(train: str | os.PathLike | None) -> str:
    """The reader profile used when none is given (:func:`resolve_profile` without a name; for help texts).

    Args:
        train: the training file the user gave, or ``None`` when the bundled sample is used.

    Returns:
        ``"quick"`` for the bundled sample, ``"paper-parallel"`` otherwise.
    """
    return resolve_profile(None, train)


def describe_step_budgets() -> str:
    """Each profile's training budget in optimizer steps, for help texts.

    >>> describe_step_budgets()
    'paper 3500, paper-em 3500, paper-fast 2600, paper-budget 2600, paper-parallel 4600, quick 1700'
    """
    caps = {name: values.get("max_steps") for name, values in _profiles_file()["profiles"].items()}
    return ", ".join(f"{name} {'none' if cap is None else cap}" for name, cap in caps.items())
