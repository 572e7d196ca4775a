"""Property-based tests (Hypothesis) of the multiple-choice readers (CODAH TSV, multiple-choice JSON
Lines): generated files, mutated (fields dropped, types swapped, labels out of range, columns lost,
foreign lines appended), are either refused with a :class:`DataError` whose every problem names the
file and the line or question, or read with every line kept as a question (MRCLens issue 35)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from mrclens.cli import main
from mrclens.errors import DataError
from mrclens.formats.multiple_choice import load_mc_dataset

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "formats"))
from reader_properties import CLI_SETTINGS, FOREIGN_LINES, SETTINGS, jsonl_file, sentence  # noqa: E402

_LINE = re.compile(r"\bline \d+")


@st.composite
def mc_records(draw) -> list[dict]:
    """1-4 valid multiple-choice records with unique ids, 2-5 endings and a label in range."""
    records = []
    for n in range(draw(st.integers(1, 4))):
        endings = [sentence(draw, 1, 4) + "." for _ in range(draw(st.integers(2, 5)))]
        record = {"id": f"mc{n}", "prompt": sentence(draw), "endings": endings,
                  "label": draw(st.integers(0, len(endings) - 1))}
        if draw(st.booleans()):
            record["category"] = draw(st.sampled_from(["Idioms", ["Negation", "Other"], []]))
        records.append(record)
    return records


def _check(path: Path, n_records: int) -> None:
    """Refused naming file and line/question, or every record kept."""
    try:
        dataset = load_mc_dataset(path, format="mc-jsonl" if path.suffix == ".jsonl" else "codah-tsv")
    except DataError as err:
        assert err.problems
        for p in err.problems:
            assert p.file == str(path) and (p.qid or _LINE.search(p.message)), str(p)
        return
    assert len(dataset) == n_records
    assert all(isinstance(e, str) and e.strip() for q in dataset.questions for e in q.endings)
    assert all(0 <= q.label < len(q.endings) for q in dataset.questions)


@SETTINGS
@given(lines=mc_records().flatmap(lambda rs: jsonl_file(rs, 2)))
def test_mc_jsonl_every_line_kept_or_refused_with_its_line(tmp_path_factory, lines):
    path = tmp_path_factory.mktemp("mc") / "data.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _check(path, sum(1 for line in lines if line.strip()))


@st.composite
def codah_rows(draw) -> list[str]:
    """CODAH TSV rows (categories, prompt, 4 endings, label 0-3), some damaged: a column lost or
    added, a label out of range or not a number, an unknown category letter, an empty ending, a tab
    in a field, or a JSON line appended."""
    rows = []
    for _ in range(draw(st.integers(1, 4))):
        cols = [draw(st.sampled_from(["o", "in", "", "q"])), sentence(draw)] + \
               [sentence(draw, 1, 3) + "." for _ in range(4)] + [str(draw(st.integers(0, 3)))]
        damage = draw(st.sampled_from(["none", "none", "drop", "add", "label", "letters", "empty", "tab"]))
        i = draw(st.integers(0, 6))
        if damage == "drop":
            del cols[i]
        elif damage == "add":
            cols.insert(i, "extra")
        elif damage == "label":
            cols[6] = draw(st.sampled_from(["4", "-1", "x", "", "1.0", "15"]))
        elif damage == "letters":
            cols[0] = draw(st.sampled_from(["z", "i z", "I"]))
        elif damage == "empty":
            cols[draw(st.integers(2, 5))] = draw(st.sampled_from(["", "  "]))
        elif damage == "tab":
            cols[1] += "\tmore"
        rows.append("\t".join(cols))
    for _ in range(draw(st.integers(0, 1))):
        rows.insert(draw(st.integers(1, len(rows))), draw(st.sampled_from(FOREIGN_LINES)))
    return rows


@SETTINGS
@given(rows=codah_rows())
def test_codah_tsv_every_row_kept_or_refused_with_its_line(tmp_path_factory, rows):
    path = tmp_path_factory.mktemp("codah") / "data.tsv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    _check(path, sum(1 for row in rows if row.strip()))


@CLI_SETTINGS
@given(lines=mc_records().flatmap(lambda rs: jsonl_file(rs, 2)))
def test_validate_of_mutated_mc_files_never_exits_3(tmp_path_factory, lines):
    path = tmp_path_factory.mktemp("mccli") / "data.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["validate", str(path)])
    assert res.exit_code in (0, 2), res.output
    if res.exit_code == 2:
        assert str(path) in res.output
