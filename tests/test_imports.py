"""Importing any module of the ``mrclens`` package has no side effects.

In a fresh interpreter, the third-party dependencies are imported first (what they do when
imported is theirs: scikit-learn, for one, sets ``KMP_*`` environment variables), then every
module of the package (:func:`package_modules.package_modules`), and the process state that a
module could change on import is compared before and after: environment, ``sys.path``, files
in the working, home, cache and temporary directories, torch/NumPy/``random`` settings and seeds,
matplotlib, logging and warning filters, and stdout. A new dependency that changes such state
when imported belongs in the import line of the script below.
"""

from __future__ import annotations
import pytest

import json
import os
import subprocess
import sys

from package_modules import PACKAGE_DIR, package_modules

_SCRIPT = r"""
import importlib, json, logging, os, random, sys, warnings
import click, jinja2, matplotlib, numpy, pandas, pyarrow, sklearn, spacy, torch, torch.distributed, tqdm

def listing(path):
    return sorted(str(p.relative_to(path)) for p in __import__("pathlib").Path(path).rglob("*"))

def state():
    return {
        "environ": dict(os.environ), "sys.path": list(sys.path), "cwd": os.getcwd(),
        "files": {k: listing(os.environ[k]) for k in ("HOME", "TMPDIR", "XDG_CACHE_HOME")} | {".": listing(".")},
        "torch threads": torch.get_num_threads(), "torch grad": torch.is_grad_enabled(),
        "torch dtype": str(torch.get_default_dtype()), "torch rng": torch.random.get_rng_state().sum().item(),
        "random": repr(random.getstate()), "numpy rng": repr(numpy.random.get_state()),
        "numpy print": repr(numpy.get_printoptions()), "numpy err": numpy.geterr(),
        "matplotlib backend": matplotlib.get_backend(), "matplotlib rc": repr(sorted(matplotlib.rcParams.items())),
        "pandas options": repr(pandas.get_option("display.max_columns")),
        "logging": repr((logging.root.level, logging.root.handlers, logging.Logger.manager.disable)),
        "warnings": repr(warnings.filters), "excepthook": repr(sys.excepthook), "umask": os.umask(os.umask(0)),
    }

before = state()
for name in json.loads(sys.argv[1]):
    importlib.import_module(name)
after = state()
print(json.dumps({k: [before[k], after[k]] for k in before if before[k] != after[k]}))
"""


@pytest.mark.slow
def test_importing_every_module_changes_nothing(tmp_path):
    for d in ("home", "tmp", "cache", "cwd"):
        (tmp_path / d).mkdir()
    env = dict(os.environ, HOME=str(tmp_path / "home"), TMPDIR=str(tmp_path / "tmp"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), MPLBACKEND="agg",
               PYTHONPATH=os.pathsep.join([str(PACKAGE_DIR.parent), os.environ.get("PYTHONPATH", "")]))
    modules = package_modules()
    res = subprocess.run([sys.executable, "-c", _SCRIPT, json.dumps(modules)], cwd=tmp_path / "cwd", env=env,
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    *printed, changed = res.stdout.splitlines()
    assert json.loads(changed) == {}, "importing the package changed the process state (name: [before, after])"
    assert printed == [], "importing the package printed to stdout"
    assert len(modules) > 50 and "mrclens.cli.train" in modules and "mrclens.defaults" in modules
