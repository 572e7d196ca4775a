"""The documented external-model loop (examples/) runs as written on real SQuAD articles."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from mrclens.formats import load_dataset
from mrclens.squad import Dataset, write_dataset

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
sys.path.insert(0, str(EXAMPLES))

from tfidf_sentence_model import answer_span, predict_file, split_sentences  # noqa: E402
from perturbed_fixture import ALL_ABLATION_IDS  # noqa: E402  (tests/ is on sys.path under pytest)


def test_rule_based_model_hand_made():
    context = "The Eiffel Tower is in Paris. It was finished in 1889 by Gustave Eiffel's company."
    assert [context[s:e] for s, e in split_sentences(context)] == [
        "The Eiffel Tower is in Paris.",
        "It was finished in 1889 by Gustave Eiffel's company.",
    ]
    # the words of the sentence the question does not already say, stop words trimmed
    assert answer_span("The Eiffel Tower is in Paris.", "Where is the Eiffel Tower?") == "Paris"
    squad = {"data": [{"title": "t", "paragraphs": [{"context": context, "qas": [
        {"id": "a", "question": "When was it finished?", "answers": []},
        {"id": "b", "question": "Where is the Eiffel Tower?", "answers": []},
    ]}]}]}
    assert predict_file(squad) == {"a": "1889 by Gustave Eiffel's company", "b": "Paris"}


def _script_env(**extra: str) -> dict[str, str]:
    """The environment without MRCLens's bin folder on PATH (the script must not need it)."""
    bin_dir = str(Path(sys.executable).parent)
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if p != bin_dir)
    return dict(os.environ, PATH=path, **extra)


def test_external_model_script_dry_run_and_usage(tmp_path):
    """Argument parsing and the commands the script would run, without running them: MRCLens as
    `PYTHON -m mrclens.cli` (never from PATH), the clone's .venv/bin/python by default."""
    if shutil.which("bash") is None:
        pytest.skip("bash is not available")
    script = str(EXAMPLES / "audit_external_model.sh")
    res = subprocess.run(["bash", script, "--dry-run", "dev.json", str(tmp_path / "out"), "my model"],
                         env=_script_env(PYTHON=sys.executable), capture_output=True, text=True, timeout=30)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines == [
        f"{sys.executable} -m mrclens.cli perturb dev.json --out {tmp_path}/out/perturbed --quiet",
        f"{sys.executable} {EXAMPLES}/tfidf_sentence_model.py {tmp_path}/out/perturbed {tmp_path}/out/predictions",
        f"{sys.executable} -m mrclens.cli evaluate {tmp_path}/out/perturbed --predictions-dir {tmp_path}/out/predictions "
        f"--out {tmp_path}/out --model-name my\\ model",
    ]
    env = _script_env()
    env.pop("PYTHON", None)
    res = subprocess.run(["bash", script, "--dry-run", "dev.json"], env=env, capture_output=True, text=True, timeout=30)
    venv_python = EXAMPLES.parent / ".venv" / "bin" / "python"
    assert res.stdout.split()[0] == (str(venv_python) if venv_python.exists() else "python3")
    assert "mrclens-external/perturbed" in res.stdout
    res = subprocess.run(["bash", script], env=env, capture_output=True, text=True, timeout=30)
    assert res.returncode == 2 and "usage:" in res.stderr
    # the sets it names are the registry's: e1 ... e10 and the controls c1, c2, c4, c6 ... c10
    text = (EXAMPLES / "audit_external_model.sh").read_text()
    assert max(int(i[1:]) for i in ALL_ABLATION_IDS if i.startswith("e")) == 10 and "e1 ... e10" in text
    assert [i for i in ALL_ABLATION_IDS if i.startswith("c")] == ["c1", "c2", "c4", "c6", "c7", "c8", "c9", "c10"]
    assert "c1, c2, c4" in text and "c6 ... c10" in text
    # the model script parses its arguments (and says what it needs)
    res = subprocess.run([sys.executable, str(EXAMPLES / "tfidf_sentence_model.py"), "--help"], capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 0 and "PREDICTIONS_DIR" in res.stdout.upper()


def test_python_dash_m_runs_the_cli():
    res = subprocess.run([sys.executable, "-m", "mrclens.cli", "--version"], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0 and res.stdout.startswith("mrclens, version ")


@pytest.mark.slow
def test_external_model_loop_end_to_end(sample_path, tmp_path):
    """perturb -> rule-based model on each file -> evaluate, by running examples/audit_external_model.sh on a real article."""
    if shutil.which("bash") is None:
        pytest.skip("bash is not available")
    ds = load_dataset(sample_path)
    data = write_dataset(Dataset(ds.articles[:1], ds.version), tmp_path / "one-article.json")
    out = tmp_path / "audit"
    env = _script_env(PYTHON=sys.executable, MRCLENS_CACHE_DIR=str(tmp_path / "cache"))  # nothing on PATH
    res = subprocess.run(["bash", str(EXAMPLES / "audit_external_model.sh"), str(data), str(out), "tf-idf sentence"],
                         env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-3000:]
    results = json.loads((out / "results.json").read_text())
    assert results["model"] == {"kind": "external", "name": "tf-idf sentence", "config": None}
    assert [a["id"] for a in results["ablations"]] == ALL_ABLATION_IDS
    assert all(a["evaluated"] for a in results["ablations"])
    # the predictions are the rule's, and the table is built from them
    gold = load_dataset(out / "perturbed" / "original.json")
    preds = json.loads((out / "predictions" / "original.json").read_text())
    assert set(preds) == {q.id for _, _, q in gold.iter_questions()}
    assert 0 < results["sets"]["original"]["f1"] < 100
    assert results["warnings"] == []
    frame = pd.read_csv(out / "results.csv")
    assert frame["id"].tolist() == ALL_ABLATION_IDS
    # issue 33: the output ends with the verdict at a glance, the model named
    glance = res.stdout.strip().splitlines()[-6:]
    assert glance[0].startswith("Evidence of each bias (external model 'tf-idf sentence', F1 ")
    assert glance[1].startswith("Similarity ") and glance[-1].endswith("report.html; every figure: --wide")
