"""Reading multiple-choice data (issue 20; mrclens.formats.multiple_choice): the CODAH TSV and JSON Lines readers,
their errors, the official folds, telling multiple-choice input from span data."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from mrclens.errors import DataError, MRCLensError
from mrclens.formats.multiple_choice import (
    MCDataset,
    codah_id,
    is_mc_input,
    load_mc_dataset,
    read_folds,
    sniff_mc,
    write_jsonl,
)



@pytest.fixture(scope="module")
def codah(codah_full):
    return codah_full


def test_reads_the_release_with_its_categories_and_labels(codah):
    assert len(codah) == 2776 and codah.format == "codah-tsv" and not codah.notes
    first = codah.questions[0]  # "o	I am always very hungry before I go to bed. I am	…	3"
    assert first.prompt == "I am always very hungry before I go to bed. I am"
    assert first.label == 3 and first.correct_ending == "tempted to snack when I feel this way."
    assert first.categories == ("Other",) and first.id == codah_id(first.prompt, first.endings)
    assert codah.category_counts() == {"Idioms": 244, "Reference": 133, "Polysemy": 108, "Negation": 115,
                                       "Quantitative": 86, "Other": 2080, "(none)": 10}
    labels = codah.labels()
    assert [int((labels == k).sum()) for k in range(4)] == [689, 684, 697, 706]  # SOURCES.md
    assert len(set(codah.ids())) == 2776


def test_official_folds_cover_every_question_once(codah, codah_dir):
    folds = read_folds(codah_dir)
    assert [f.name for f in folds] == [f"fold_{k}" for k in range(5)]
    assert [len(f.train) for f in folds] == [1665] * 5
    tests = [set(f.test.ids()) for f in folds]
    assert sum(map(len, tests)) == 2776 and set().union(*tests) == set(codah.ids())
    for f in folds:  # ids agree across files: the same question, the same id
        assert set(f.train.ids()) | set(f.dev.ids()) | set(f.test.ids()) <= set(codah.ids())
    assert sniff_mc(codah_dir) == "folds" and sniff_mc(codah_dir / "full_data.tsv.gz") == "codah-tsv"


def test_jsonl_round_trip_plain_and_gzip(codah, tmp_path):
    part = MCDataset(codah.questions[:50])
    for name in ("x.jsonl", "x.jsonl.gz"):
        path = write_jsonl(part, tmp_path / name)
        back = load_mc_dataset(path)
        assert back.questions == part.questions and back.format == "mc-jsonl"
    assert gzip.decompress((tmp_path / "x.jsonl.gz").read_bytes()).startswith(b'{"id": "codah-')


def _tsv(tmp_path, lines, name="bad.tsv") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_tsv_errors_name_file_line_and_problem(codah, tmp_path):
    good = "o\tThe dog barked. It\twas loud.\tflew.\tsang opera.\tmelted.\t0"
    path = _tsv(tmp_path, [good, "o\tA prompt\tone\ttwo\tthree\tfour\t7", "o\tA prompt\tone\t\tthree\tfour\t1",
                           "z\tA prompt\tone\ttwo\tthree\tfour\t1", "o\tshort row\t0"])
    with pytest.raises(DataError) as err:
        load_mc_dataset(path)
    text = str(err.value)
    assert "bad.tsv: line 2: the label '7' is not one of 0, 1, 2, 3" in text
    assert "line 3: ending 1 is empty" in text and "unknown category letter(s) 'z'" in text
    assert "line 5: expected 7 tab-separated columns" in text


def test_repeated_rows_get_distinct_ids_and_a_warning(tmp_path):
    row = "o\tThe dog barked. It\twas loud.\tflew.\tsang opera.\tmelted.\t0"
    ds = load_mc_dataset(_tsv(tmp_path, [row, row]))
    assert ds.ids()[1] == ds.ids()[0] + "-2"
    assert "the same prompt and endings as line 1" in str(ds.notes[0])


def test_jsonl_errors(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "a", "prompt": "P", "endings": ["x", "y"], "label": 2}\n'
                    '{"id": "b", "prompt": "P", "endings": ["x"], "label": 0}\n'
                    '{"id": "a", "prompt": "P", "endings": ["x", "y"], "label": 0}\n'
                    '{"prompt": "P", "endings": ["x", "y"], "label": true}\n', encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_mc_dataset(path, format="mc-jsonl")
    text = str(err.value)
    assert "line 1: label 2 is not an index into its 2 endings" in text
    assert "line 2: needs at least 2 endings" in text
    assert "line 4: field 'id' is missing" in text and "field 'label' is missing or not an integer" in text


def test_not_multiple_choice(tmp_path):
    squad = Path(__file__).resolve().parents[2] / "mrclens" / "data" / "squad-v1.1-sample.json.gz"
    assert sniff_mc(squad) is None and sniff_mc(tmp_path) is None
    assert not is_mc_input(squad) and is_mc_input(tmp_path)  # stats / check read any folder as folds (refused when empty)
    with pytest.raises(MRCLensError, match="not multiple-choice data"):
        load_mc_dataset(squad)
    with pytest.raises(MRCLensError, match="no fold_k"):
        read_folds(tmp_path)
