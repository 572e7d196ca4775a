"""comparison.json / comparison.csv: one writer, one reader, errors that name the file and field (issue 19)."""

from __future__ import annotations

import csv
import io
import json

import pytest

from mrclens.artifacts.comparison import (
    CSV_COLUMNS,
    ComparedInput,
    Comparison,
    ComparisonRow,
    Difference,
    Distribution,
    DistributionSeries,
    InputValue,
    read_comparison,
    write_comparison,
)
from mrclens.errors import ArtifactError


def _comparison() -> Comparison:
    return Comparison(
        inputs=[ComparedInput("SQuAD", "dev.json", "dataset", questions=10570, figures_from="per-question values"),
                ComparedInput("DROP", "DROP.jsonl.gz", "dataset", questions=1503, figures_from="per-question values")],
        rows=[ComparisonRow("lengths.question_words", "lengths", "question length (words)", "words",
                            values=[InputValue(10.22, 10.15, 10.29, 10570), InputValue(9.65, 9.48, 9.82, 1503)],
                            differences=[Difference("DROP", True, -0.57, -0.76, -0.38, True, None, "bootstrap")]),
              ComparisonRow("ablations.e1.f1_drop", "ablations", "e1 insert question: F1 drop", "points", "higher",
                            "Similarity", "e1", values=[InputValue(), InputValue()],
                            differences=[Difference("DROP", False, reason="no value for SQuAD and DROP")])],
        distributions=[Distribution("lengths.question_words", "question length", "words",
                                    [DistributionSeries("SQuAD", [0.0, 1.0, 2.0], [3, 4])])],
        differs=["DROP vs SQuAD: something"], notes=["a note"], seed=3, n_resamples=500, confidence=0.9)


def test_round_trip_and_csv(tmp_path):
    c = _comparison()
    json_path, csv_path = write_comparison(c, tmp_path / "out")
    assert read_comparison(tmp_path / "out") == c == read_comparison(json_path)
    assert "created" not in json.loads(json_path.read_text())  # no timestamp: same inputs, same bytes
    rows = list(csv.DictReader(io.StringIO(csv_path.read_text())))
    assert list(rows[0]) == list(CSV_COLUMNS) and len(rows) == 4  # 2 rows x 2 inputs
    assert rows[1]["input"] == "DROP" and rows[1]["difference"] == "-0.57" and rows[1]["significant"] == "true"
    assert rows[0]["difference"] == "" and rows[3]["compared"] == "false" and rows[3]["reason"].startswith("no value")


def test_malformed_file_names_the_file_and_field(tmp_path):
    obj = _comparison().to_json()
    obj["rows"][0]["differences"][0]["ci_low"] = "low"
    (tmp_path / "comparison.json").write_text(json.dumps(obj))
    with pytest.raises(ArtifactError, match=r"comparison.json: row #1: difference #1: field 'ci_low'"):
        read_comparison(tmp_path)
    obj = _comparison().to_json()
    obj["format_version"] = 99
    (tmp_path / "comparison.json").write_text(json.dumps(obj))
    with pytest.raises(ArtifactError, match="newer MRCLens"):
        read_comparison(tmp_path)
    with pytest.raises(ArtifactError, match="mrclens compare"):
        read_comparison(tmp_path / "missing")
