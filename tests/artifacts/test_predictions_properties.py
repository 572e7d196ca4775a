"""Property-based tests (Hypothesis) of the prediction readers of ``mrclens evaluate``
(:func:`mrclens.artifacts.predictions.read_prediction_file`): official, n-best, Hugging Face list and
JSON Lines files and multiple-choice ``{id: ending index}`` files, mutated, are either refused with a
:class:`PredictionsError` naming the file, or read with one answer per question of the file — none
lost, none invented (MRCLens issue 35). ``evaluate`` on them never exits 3."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from mrclens.artifacts.predictions import read_prediction_file
from mrclens.cli import main
from mrclens.errors import PredictionsError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "formats"))
from reader_properties import CLI_SETTINGS, SETTINGS, jsonl_file, mutate, sentence  # noqa: E402

IDS = [f"q{i}" for i in range(4)]


@st.composite
def prediction_files(draw) -> tuple[str, str, int | None]:
    """``(task, text, questions in the file or None when the shape was damaged)``."""
    ids = IDS[: draw(st.integers(1, 4))]
    form = draw(st.sampled_from(["official", "n-best", "hf-list", "hf-jsonl", "choice"]))
    if form == "choice":
        obj = {q: draw(st.integers(0, 3)) for q in ids}
    elif form == "official":
        obj = {q: sentence(draw, 0, 3) for q in ids}
    elif form == "n-best":
        obj = {q: [draw(st.sampled_from([sentence(draw, 1, 3), {"text": "Paris", "probability": 0.5}]))
                   for _ in range(draw(st.integers(1, 3)))] for q in ids}
    else:
        probs = draw(st.booleans())
        obj = [{"id": q, "prediction_text": sentence(draw, 0, 3),
                **({"no_answer_probability": draw(st.floats(0, 1))} if probs else {})} for q in ids]
    task = "multiple_choice" if form == "choice" else "span"
    if form == "hf-jsonl":
        lines = draw(jsonl_file(obj, 2))
        return task, "\n".join(lines) + "\n", None
    mutated = draw(mutate(obj, 2)) if draw(st.booleans()) else obj
    return task, json.dumps(mutated), (len(obj) if mutated == obj else None)


@SETTINGS
@given(case=prediction_files())
def test_prediction_file_read_whole_or_refused_naming_it(tmp_path_factory, case):
    task, text, n = case
    path = tmp_path_factory.mktemp("pred") / "predictions.json"
    path.write_text(text, encoding="utf-8")
    try:
        found = read_prediction_file(path, task)
    except PredictionsError as err:
        assert str(err).startswith(str(path)), err
        return
    if n is not None:
        assert len(found.texts) == n
    assert all(isinstance(q, str) and isinstance(a, str) for q, a in found.texts.items())
    if task == "multiple_choice":
        assert all(a.isdigit() for a in found.texts.values())
    if found.na_probs is not None:
        assert set(found.na_probs) == set(found.texts) and all(0 <= p <= 1 for p in found.na_probs.values())


@CLI_SETTINGS
@given(case=prediction_files())
def test_evaluate_never_exits_3(tmp_path_factory, case):
    task, text, _ = case
    folder = tmp_path_factory.mktemp("evaluate")
    pred = folder / "predictions.json"
    pred.write_text(text, encoding="utf-8")
    if task == "multiple_choice":
        data = folder / "mc.jsonl"
        data.write_text("\n".join(json.dumps({"id": q, "prompt": "He", "endings": ["a.", "b.", "c."], "label": 1})
                                  for q in IDS) + "\n", encoding="utf-8")
    else:
        data = folder / "squad.json"
        data.write_text(json.dumps({"version": "1.1", "data": [{"title": "T", "paragraphs": [{
            "context": "Paris is in France.",
            "qas": [{"id": q, "question": "Where?", "answers": [{"text": "France", "answer_start": 12}]} for q in IDS]}]}]}),
            encoding="utf-8")
    res = CliRunner().invoke(main, ["evaluate", str(data), str(pred)])
    assert res.exit_code in (0, 2), res.output
    if res.exit_code == 2:
        assert str(pred) in res.output or str(data) in res.output
