"""Flat Hugging Face records, detection and conversion: round trips on the real files, clear errors."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mrclens.cli import main
from mrclens.errors import DataError, MRCLensError
from mrclens.formats import FORMATS, convert, load_dataset, read, write
from mrclens.perturbations import perturb_dataset
from mrclens.squad import Dataset, write_dataset


def _same(a: Dataset, b: Dataset) -> None:
    """Equal as data: articles, paragraphs, questions, answers, is_impossible (not version/source)."""
    assert a.to_json()["data"] == b.to_json()["data"]


def test_perturb_jsonl_reads_back_equal_to_its_squad_twin(sample_path, tmp_path):
    ds = load_dataset(sample_path)
    small = tmp_path / "two.json"
    write_dataset(Dataset(ds.articles[:2], ds.version), small)
    out = tmp_path / "p"
    perturb_dataset(small, out, ablations="e1,e4", cache_dir=tmp_path / "cache", progress=False, formats=("json", "jsonl"))
    names = ["original", "original-truncated", "e1", "e4"]
    for name in names:
        loaded = read(out / f"{name}.jsonl")
        assert (loaded.format, loaded.container, loaded.detected) == ("hf-flat", "jsonl", True)
        assert not loaded.problems
        twin = load_dataset(out / f"{name}.json")
        _same(loaded.dataset, twin)
        assert loaded.dataset.counts()["questions"] == twin.counts()["questions"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("to", ["parquet", "jsonl", "squad"])
def test_round_trip_of_real_v1_and_v2_files(to, squad_dev_path, squad_v2_half_path, tmp_path):
    for path in (squad_dev_path, squad_v2_half_path):
        original = load_dataset(path)
        out = tmp_path / f"x.{to}"
        write(original, out, to, extra_columns=True)  # v2.0 dev has plausible_answers: not a Hub column
        back = read(out)
        assert back.format == ("squad" if to == "squad" else "hf-flat") and not back.errors
        _same(back.dataset, original)
        assert back.dataset.version in ("1.1", "v2.0") and back.dataset.is_v2 == original.is_v2
    c = back.dataset.counts()
    assert (c["questions"], c["unanswerable"]) == (6_078, 3_168)


def test_parquet_twin_as_arrow_table_pandas_and_records(squad_v2_half_path, tmp_path):
    import pyarrow.parquet as pq

    original = load_dataset(squad_v2_half_path)
    write(original, tmp_path / "v2.parquet", "parquet", extra_columns=True)
    table = pq.read_table(tmp_path / "v2.parquet")
    for obj in (table, table.to_pandas(), table.to_pylist()):
        _same(load_dataset(obj), original)


def test_hugging_face_datasets_objects(squad_v2_half_path, tmp_path):
    datasets = pytest.importorskip("datasets", reason="the optional extra mrclens[hf] is not installed")
    original = load_dataset(squad_v2_half_path)
    write(original, tmp_path / "v2.parquet", "parquet", extra_columns=True)
    hf = datasets.Dataset.from_parquet(str(tmp_path / "v2.parquet"))
    _same(load_dataset(hf), original)
    _same(load_dataset(datasets.DatasetDict({"validation": hf})), original)
    with pytest.raises(MRCLensError, match="several splits"):
        load_dataset(datasets.DatasetDict({"train": hf, "validation": hf}))


def test_flat_json_list_and_data_field_and_v2_inferred(tmp_path):
    recs = [
        {"id": "a", "title": "T", "context": "Paris is in France.", "question": "Where?",
         "answers": {"text": ["France"], "answer_start": [12]}},
        {"id": "b", "title": "T", "context": "Paris is in France.", "question": "Who?",
         "answers": {"text": [], "answer_start": []}},
        {"id": "c", "title": None, "context": "Rome.", "question": "What?", "answers": {"text": ["Rome"], "answer_start": [0]}},
    ]
    for obj in (recs, {"version": "x", "data": recs}):
        (tmp_path / "f.json").write_text(json.dumps(obj))
        loaded = read(tmp_path / "f.json")
        assert (loaded.format, loaded.container) == ("hf-flat", "json")
        ds = loaded.dataset
        assert [a.title for a in ds.articles] == ["T", "untitled 1"] and len(ds.articles[0].paragraphs) == 1
        assert ds.version == "v2.0" and [q.is_impossible for _, _, q in ds.iter_questions()] == [False, True, False]


def test_flat_errors_name_file_line_and_question(tmp_path):
    good = {"id": "q1", "title": "T", "context": "Paris is in France.", "question": "Where?",
            "answers": {"text": ["France"], "answer_start": [12]}}
    lines = [json.dumps(good), "{broken", json.dumps({**good, "id": "q2", "answers": {"text": ["France"], "answer_start": [3]}}),
             json.dumps({**good, "id": "q3", "answers": {"text": ["France"], "answer_start": []}})]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError) as err:
        load_dataset(path)
    text = str(err.value)
    assert "bad.jsonl: line 2: not valid JSON" in text
    assert "bad.jsonl: article 'T': question q2: answer #0: text 'France' is not found at answer_start 3" in text
    assert "bad.jsonl: question q3: line 4: 'answers' must be" in text


def test_detection_names_every_real_format_and_lists_them_when_nothing_fits(
        squad_dev_path, nq_v2_path, mrqa_drop_path, nq_simplified_dev_path, tmp_path):
    for path, fmt in ((squad_dev_path, "squad"), (nq_v2_path, "squad"), (mrqa_drop_path, "mrqa"),
                      (nq_simplified_dev_path, "nq-simplified")):
        assert read(path).format == fmt
    # a pretty-printed SQuAD file (the first line alone is not JSON)
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps(load_dataset(nq_v2_path).to_json(), indent=2))
    assert read(pretty).format == "squad"
    nq_open = nq_v2_path.parent / "NQ-open.dev.jsonl.gz"  # questions and answers without contexts
    with pytest.raises(DataError) as err:
        load_dataset(nq_open)
    assert "cannot tell the format" in str(err.value) and all(f"{name}:" in str(err.value) for name in FORMATS)
    with pytest.raises(MRCLensError, match="unknown format 'csv'; MRCLens reads: squad"):
        load_dataset(nq_open, format="csv")
    with pytest.raises(MRCLensError, match="do not apply to format 'squad'"):
        load_dataset(nq_v2_path, yes_no="drop")
    with pytest.raises(MRCLensError, match="cannot read a Python int"):
        load_dataset(3)


def test_convert_cli_mrqa_to_squad_and_jsonl(mrqa_drop_path, tmp_path):
    res = CliRunner().invoke(main, ["convert", str(mrqa_drop_path), str(tmp_path / "drop.json"), "--to", "squad"])
    assert res.exit_code == 0, res.output
    assert "read as mrqa (JSON Lines, detected)" in res.output and "370 spans merged" in res.output
    assert "1,503 questions, 2,549 answers" in res.output
    squad = read(tmp_path / "drop.json")
    assert squad.format == "squad" and not squad.problems
    _same(squad.dataset, read(mrqa_drop_path).dataset)
    res = CliRunner().invoke(main, ["convert", str(tmp_path / "drop.json"), str(tmp_path / "drop.jsonl.gz"), "--to", "jsonl"])
    assert res.exit_code == 0, res.output
    hub_only = load_dataset(tmp_path / "drop.jsonl.gz")  # the Hub's squad columns: MRQA's own fields are left out
    assert hub_only.counts() == squad.dataset.counts()
    lost = sorted({k for _, _, q in squad.dataset.iter_questions() for k in q.extra})
    assert lost and f"not written (the Hub's squad columns only): {lost[0]} (1,503 questions)" in res.output
    assert not any(q.extra for _, _, q in hub_only.iter_questions())
    res = CliRunner().invoke(main, ["convert", str(tmp_path / "drop.json"), str(tmp_path / "drop.jsonl.gz"), "--to", "jsonl",
                                    "--extra-columns"])
    assert res.exit_code == 0, res.output
    _same(load_dataset(tmp_path / "drop.jsonl.gz"), squad.dataset)
    res = CliRunner().invoke(main, ["convert", str(mrqa_drop_path), str(tmp_path / "x.json"), "--to", "squad", "-o", "yes_no=drop"])
    assert res.exit_code == 2 and "do not apply to format 'mrqa'" in res.output
    assert not (tmp_path / "x.json").exists()
    loaded = convert(mrqa_drop_path, tmp_path / "ids.json", "squad", id_field="id")  # DROP has no 'id': qid is used
    assert next(loaded.dataset.iter_questions())[2].id == "52f53a3df5b149b7a33f04a187a73911"


def test_on_invalid_applies_to_every_format(sample_path, tmp_path):
    """``--on-invalid skip|repair`` works through the one loader for a non-SQuAD format too: a flat
    JSON Lines file (the real sample written by `convert`) with one record broken at the reader level
    (answers not a struct) and one with a shifted answer_start (caught by the SQuAD validation)."""
    ds = load_dataset(sample_path)
    flat = tmp_path / "flat.jsonl"
    write(Dataset(ds.articles[:2], ds.version), flat, to="jsonl")
    records = [json.loads(line) for line in flat.read_text().splitlines()]
    n = len(records)
    records[0]["answers"] = "not a struct"
    text = records[1]["answers"]["text"][0]
    records[1]["answers"]["answer_start"] = [records[1]["answers"]["answer_start"][0] + 2] * len(records[1]["answers"]["text"])
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    with pytest.raises(DataError) as err:
        load_dataset(bad)
    assert records[0]["id"] in str(err.value) and records[1]["id"] in str(err.value)
    skipped = load_dataset(bad, on_invalid="skip")
    assert skipped.counts()["questions"] == n - 2
    assert sorted(note.qid for note in skipped.notes) == sorted([records[0]["id"], records[1]["id"]])
    assert all(note.severity == "skipped" and str(bad) in str(note) for note in skipped.notes)
    repaired = load_dataset(bad, on_invalid="repair")  # the shifted span is moved back, the broken record skipped
    assert repaired.counts()["questions"] == n - 1
    q = next(q for _, _, q in repaired.iter_questions() if q.id == records[1]["id"])
    p = next(p for _, p, q2 in repaired.iter_questions() if q2.id == records[1]["id"])
    assert p.context[q.answers[0].answer_start:q.answers[0].answer_start + len(text)] == text
    with pytest.raises(ValueError):
        load_dataset(bad, on_invalid="ignore")
