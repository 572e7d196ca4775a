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


@pytest.mark.slow
def test_external_model_loop_end_to_end(sample_path, tmp_path):
    """perturb -> rule-based model on each file -> evaluate, by running examples/audit_external_model.sh on a real article."""
    if shutil.which("bash") is None:
        pytest.skip("bash is not available")
    ds = load_dataset(sample_path)
    data = write_dataset(Dataset(ds.articles[:1], ds.version), tmp_path / "one-article.json")
    out = tmp_path / "audit"
    bin_dir = str(Path(sys.executable).parent)  # where `mrclens` is installed next to this Python
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""), PYTHON=sys.executable,
               MRCLENS_CACHE_DIR=str(tmp_path / "cache"))
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
    assert glance[0].startswith("Evidence of each bias (model 'tf-idf sentence', F1 ")
    assert glance[1].startswith("Similarity ") and glance[-1].endswith("report.html; every figure: --wide")
