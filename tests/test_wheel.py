"""Issue 44, item 1: the wheel and the sdist. ``python -m build`` builds both from a clean copy of the working
tree, ``twine check`` passes them, the wheel holds the package data (bundled sample, reference, rules, report
templates), and the wheel installed into a fresh virtual environment *without torch*
gives working ``validate``, ``stats``, ``check``, ``convert``, ``perturb``, ``evaluate`` and ``card``, run from
that environment's own ``bin/`` on the bundled sample.

The install is a real ``pip install WHEEL -c constraints.txt`` (the light install: about 40 s with a cold pip
cache on the CI machine). Without a package index (offline) it falls back to ``--no-deps`` with the
dependencies read from this interpreter's site-packages through a ``.pth`` file, torch and GloVe made
unimportable there (tests/test_light_install.py's blocker), and says so; the test skips only when
``build`` is not installed (the test extra installs it)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.test_light_install import gold_predictions, small_sample, write_blocker

#: What the wheel must hold (the package data the commands read at run time).
PACKAGE_DATA = ("mrclens/data/squad-v1.1-sample.json.gz", "mrclens/data/reference-squad-v1.1.json",
                "mrclens/data/idf-squad-v1.1.json.gz",
                "mrclens/data/default_rules.toml", "mrclens/data/default_rules_mc.toml",
                "mrclens/data/reader_profiles.toml",
                "mrclens/reports/templates/report.html", "mrclens/reports/templates/compare.html",
                "mrclens/reports/templates/head.html", "mrclens/reports/templates/card-body.md",
                "mrclens/reports/templates/card-recommendations.md",
                "mrclens/py.typed")  # PEP 561: type checkers read the package's annotations (issue 57)


def _run(args, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, **kw)


def _clean_env() -> dict[str, str]:
    """This environment without PYTHONPATH (which would show pip and the venv this checkout's mrclens)."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MRCLENS_CACHE_DIR")}


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """(wheel, sdist) built by ``python -m build`` from a copy of the tracked and untracked files."""
    pytest.importorskip("build", reason="`build` is not installed (the test extra: pip install -e '.[test]')")
    tmp = tmp_path_factory.mktemp("dist")
    src = tmp / "src"  # a copy: build writes build/ and *.egg-info, which must not land in the worktree
    files = _run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO, check=True).stdout
    for rel in filter(None, files.split("\0")):
        if (REPO / rel).is_file():
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / rel, src / rel, follow_symlinks=False)
    r = _run([sys.executable, "-m", "build", "--outdir", tmp / "out", src], timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    wheel, = (tmp / "out").glob("mrclens-*.whl")
    sdist, = (tmp / "out").glob("mrclens-*.tar.gz")
    return wheel, sdist


@pytest.mark.slow
def test_twine_check_passes_and_the_wheel_holds_the_package_data(dist):
    wheel, sdist = dist
    if shutil.which("twine") is None and _run([sys.executable, "-m", "twine", "--version"]).returncode != 0:
        pytest.skip("twine is not installed (the test extra)")
    r = _run([sys.executable, "-m", "twine", "check", "--strict", wheel, sdist])
    assert r.returncode == 0 and r.stdout.count("PASSED") == 2, r.stdout + r.stderr
    names = set(zipfile.ZipFile(wheel).namelist())
    assert set(PACKAGE_DATA) <= names, set(PACKAGE_DATA) - names
    meta = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    requires = [line for line in meta.splitlines() if line.startswith("Requires-Dist:")]
    light = [line for line in requires if "extra ==" not in line]
    assert not any("torch" in line or "glove" in line for line in light), light  # torch only in the reader extra
    assert any(line.startswith("Requires-Dist: torch") and "extra == \"reader\"" in line for line in requires)
    # the reader extra gets the torch the reference was measured with (the training record names it)
    assert any(line.startswith("Requires-Dist: torch==2.13.0") for line in requires), requires
    entry_points = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "mrclens = mrclens.cli:main" in entry_points and "mrclens-ci-check = mrclens.cli.gate:main" in entry_points


@pytest.fixture(scope="module")
def light_venv(dist, tmp_path_factory):
    """A fresh virtual environment (no system site-packages) with the wheel installed, without torch."""
    wheel, _ = dist
    tmp = tmp_path_factory.mktemp("venv")
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    # pip of this interpreter installs into the venv (--python): no pip bootstrap in the new one
    start = time.monotonic()
    r = _run([sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "-q", "-c",
              REPO / "constraints.txt", wheel], timeout=900, env=_clean_env())
    mode = f"pip install (real dependencies), {time.monotonic() - start:.0f} s"
    if r.returncode != 0:  # no index reachable: the wheel alone, the dependencies from here, torch blocked
        r2 = _run([sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "-q", "--no-deps", wheel], env=_clean_env())
        assert r2.returncode == 0, r.stderr[-2000:] + r2.stderr[-2000:]
        site = Path(_run([venv / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                         check=True).stdout.strip())
        write_blocker(tmp / "no-reader")
        (site / "zz-deps.pth").write_text(f"{tmp / 'no-reader'}\n{sysconfig.get_path('purelib')}\n"
                                          f"{sysconfig.get_path('platlib')}\n")
        (site / "zz-block.pth").write_text("import sitecustomize\n")
        mode = f"offline fallback: --no-deps, dependencies from {sysconfig.get_path('purelib')} (pip said: " \
               f"{r.stderr.strip().splitlines()[-1] if r.stderr.strip() else r.returncode})"
    print(f"wheel installed: {mode}")
    return venv


@pytest.mark.slow
def test_the_wheel_without_torch_gives_working_model_free_commands(light_venv, tmp_path):
    bin_ = light_venv / "bin"
    env = _clean_env()
    env.update(MRCLENS_CACHE_DIR=str(tmp_path / "cache"), MRCLENS_CRASH_DIR=str(tmp_path / "crash"))
    r = _run([bin_ / "python", "-c", "import torch"], env=env)
    assert r.returncode == 1 and "No module named 'torch'" in r.stderr
    r = _run([bin_ / "python", "-c", "import mrclens, sys; print(mrclens.__file__)"], cwd=tmp_path, env=env)
    assert str(light_venv) in r.stdout, r.stdout + r.stderr  # the installed wheel, not this checkout
    small_sample(tmp_path / "data.json")

    def mrclens(*args: str, code: int = 0) -> subprocess.CompletedProcess:
        r = _run([bin_ / "mrclens", *args], cwd=tmp_path, env=env, timeout=600)
        assert r.returncode == code, (args, r.stdout[-2000:], r.stderr[-2000:])
        return r

    assert mrclens("validate", "data.json").stdout.splitlines()[-1] == "valid"
    mrclens("stats", "data.json", "--out", "stats.json")
    assert json.loads((tmp_path / "stats.json").read_text())["counts"]["questions"] > 100
    assert "no rule fails" in mrclens("check", "data.json").stdout  # the bundled default rules
    mrclens("convert", "data.json", "data.jsonl", "--to", "jsonl")
    mrclens("validate", "data.jsonl")
    mrclens("perturb", "data.json", "--out", "perturbed")
    gold_predictions(tmp_path / "perturbed", tmp_path / "pred")
    r = mrclens("evaluate", "perturbed", "--predictions-dir", "pred", "--out", "ev", "--resamples", "50")
    assert json.loads((tmp_path / "ev" / "results.json").read_text())["mrclens_version"] == "0.1.0"
    mrclens("card", "ev", "--out", "card")
    assert "Bias, Risks, and Limitations" in (tmp_path / "card" / "bias-card.md").read_text()
    r = mrclens("audit", "--out", "audit", code=2)
    assert "pip install 'mrclens[reader]'" in r.stderr
    # the gate's console script from the wheel (one Python process, no bash): a non-dataset skipped
    (tmp_path / "package.json").write_text(json.dumps({"name": "x", "version": "1.0.0"}, indent=2))
    r = _run([bin_ / "mrclens-ci-check", "package.json", "data.json"], cwd=tmp_path, env=env, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "package.json: skipped, not a QA dataset" in r.stderr and "== mrclens check data.json" in r.stdout
    assert not (tmp_path / "crash").exists()
