"""Hugging Face round trips: the Hub's squad features exactly (concatenation with Hub-featured data),
MRCLens -> datasets -> MRCLens for v1.1 and v2.0 data, DatasetDict by split (library and CLI), the
names that no longer shadow ``datasets``. Skipped when the ``hf`` extra (``datasets``) is absent."""

from __future__ import annotations

import json
import warnings

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from mrclens.cli import main
from mrclens.errors import MRCLensError
from mrclens.formats import load_dataset, read, write
from mrclens.formats.hf_flat import HUB_COLUMNS, left_out
from mrclens.squad import Answer, Article, Dataset, Paragraph, Question

datasets = pytest.importorskip("datasets", reason="the optional extra mrclens[hf] (datasets) is not installed")
from mrclens.formats.hf_datasets import hub_features, to_hf_dataset  # noqa: E402


def _card_features():
    """The features as the Hub's squad and squad_v2 dataset cards declare them (built here, not by MRCLens):
    id/title/context/question: string; answers: sequence of {text: string, answer_start: int32}."""
    v = datasets.Value
    return datasets.Features({"id": v("string"), "title": v("string"), "context": v("string"), "question": v("string"),
                              "answers": datasets.Sequence({"text": v("string"), "answer_start": v("int32")})})


def _hub_like(n: int = 2):
    """A small dataset with the Hub's features, as `datasets.load_dataset("squad")` returns them (no network)."""
    rows = {"id": [f"hub{i}" for i in range(n)], "title": ["Hub"] * n, "context": ["Oslo is in Norway."] * n,
            "question": ["Where is Oslo?"] * n, "answers": [{"text": ["Norway"], "answer_start": [11]}] * n}
    return datasets.Dataset.from_dict(rows, features=_card_features())


def _v2() -> Dataset:
    """SQuAD v2.0 data: two answerable questions, two unanswerable (one paragraph each article)."""
    ctx1, ctx2 = "Paris is in France. Berlin is in Germany.", "The Nile flows north into the Mediterranean Sea."
    return Dataset([
        Article("Cities", [Paragraph(ctx1, [Question("a1", "Where is Paris?", [Answer("France", 12)], False),
                                            Question("n1", "Where is Rome?", [], True)])]),
        Article("Rivers", [Paragraph(ctx2, [Question("a2", "Which way does the Nile flow?", [Answer("north", 15)], False),
                                            Question("n2", "How long is the Amazon?", [], True)])]),
    ], "v2.0")


def _same(a: Dataset, b: Dataset) -> None:
    assert a.to_json()["data"] == b.to_json()["data"]


def test_hub_features_are_the_cards(sample_path):
    assert hub_features() == _card_features()
    hf = to_hf_dataset(load_dataset(sample_path))
    assert hf.features == _card_features() and hf.column_names == list(HUB_COLUMNS)
    assert str(hf.features.arrow_schema.field("answers").type) == \
        "struct<text: list<item: string>, answer_start: list<item: int32>>"


def test_concatenating_ours_with_hub_squad_features_works_for_every_written_form(sample_path, tmp_path):
    """parquet, JSON Lines (read with the features: JSON has no int32), a save_to_disk folder, the object."""
    ours = load_dataset(sample_path)
    write(ours, tmp_path / "s.parquet", "parquet")
    write(ours, tmp_path / "s.jsonl", "jsonl")
    write(ours, tmp_path / "s-hf", "hf")
    answers = pq.read_schema(tmp_path / "s.parquet").field("answers").type
    assert [(f.name, str(f.type.value_type)) for f in answers] == [("text", "string"), ("answer_start", "int32")]
    assert pq.read_schema(tmp_path / "s.parquet").names == list(HUB_COLUMNS)
    cache = str(tmp_path / "hf-cache")
    forms = {
        "parquet": datasets.Dataset.from_parquet(str(tmp_path / "s.parquet"), cache_dir=cache),
        "jsonl": datasets.load_dataset("json", data_files=str(tmp_path / "s.jsonl"), features=hub_features(),
                                       split="train", cache_dir=cache),
        "hf": datasets.load_from_disk(str(tmp_path / "s-hf")),
        "object": to_hf_dataset(ours),
    }
    n = ours.counts()["questions"]
    for name, hf in forms.items():
        assert hf.features == _card_features(), name
        both = datasets.concatenate_datasets([_hub_like(), hf])
        assert len(both) == n + 2 and both[2]["id"] == hf[0]["id"], name
        _same(load_dataset(both.select(range(2, len(both)))), ours)
    # before issue 34 the parquet file had answer_start int64 and this raised "features can't be aligned"
    int64 = datasets.Dataset.from_dict(forms["object"][:1], features=datasets.Features(
        {**_card_features(), "answers": datasets.Sequence({"text": datasets.Value("string"),
                                                           "answer_start": datasets.Value("int64")})}))
    with pytest.raises(ValueError, match="aligned"):
        datasets.concatenate_datasets([_hub_like(), int64])


def test_round_trip_v1_and_v2_with_unanswerable_questions(sample_path):
    for original in (load_dataset(sample_path), _v2()):
        hf = to_hf_dataset(original)
        back = load_dataset(hf)
        _same(back, original)
        assert back.is_v2 == original.is_v2 and back.counts() == original.counts()
    hf = to_hf_dataset(_v2())
    assert [r["answers"] for r in hf] == [{"text": ["France"], "answer_start": [12]}, {"text": [], "answer_start": []},
                                          {"text": ["north"], "answer_start": [15]}, {"text": [], "answer_start": []}]
    assert [q.is_impossible for _, _, q in load_dataset(hf).iter_questions()] == [False, True, False, True]


def test_round_trip_of_real_v2_keeps_plausible_answers_only_with_extra_columns(squad_v2_half_path, tmp_path):
    original = load_dataset(squad_v2_half_path)
    assert left_out(original) == {"plausible_answers": 3_168}
    hub_only = load_dataset(to_hf_dataset(original))
    assert hub_only.counts() == original.counts()
    assert [q.is_impossible for _, _, q in hub_only.iter_questions()] == [q.is_impossible for _, _, q in original.iter_questions()]
    full = to_hf_dataset(original, extra_columns=True)
    assert full.column_names == [*HUB_COLUMNS, "is_impossible", "plausible_answers"]
    _same(load_dataset(full), original)


def test_dataset_dict_by_split_in_python(sample_path):
    ds = load_dataset(sample_path)
    first, rest = Dataset(ds.articles[:3], ds.version), Dataset(ds.articles[3:], ds.version)
    dd = to_hf_dataset({"train": rest, "validation": first})
    assert isinstance(dd, datasets.DatasetDict) and list(dd) == ["train", "validation"]
    _same(load_dataset(dd, split="validation"), first)
    _same(load_dataset(dd, split="train"), rest)
    with pytest.raises(MRCLensError, match=r"several splits \(train, validation\); choose one with --split"):
        load_dataset(dd)
    with pytest.raises(MRCLensError, match=r"no split 'test' in this DatasetDict \(its splits: train, validation\)"):
        load_dataset(dd, split="test")
    with pytest.raises(MRCLensError, match="applies to a Hugging Face DatasetDict"):
        load_dataset(dd["train"], split="train")


def test_dataset_dict_folder_by_split_on_the_command_line(sample_path, tmp_path):
    ds = load_dataset(sample_path)
    first, rest = Dataset(ds.articles[:3], ds.version), Dataset(ds.articles[3:], ds.version)
    folder = tmp_path / "squad-hf"
    to_hf_dataset({"train": rest, "validation": first}).save_to_disk(str(folder))
    runner = CliRunner()
    res = runner.invoke(main, ["convert", str(folder), str(tmp_path / "dev.json"), "--to", "squad"])
    assert res.exit_code == 2
    assert f"{folder}: a DatasetDict holds several splits (train, validation); choose one with --split NAME" in res.output
    assert not (tmp_path / "dev.json").exists()
    res = runner.invoke(main, ["convert", str(folder), str(tmp_path / "dev.json"), "--to", "squad", "--split", "validation"])
    assert res.exit_code == 0, res.output
    assert "read as hf-flat (datasets save_to_disk folder, detected)" in res.output
    _same(load_dataset(tmp_path / "dev.json"), first)
    res = runner.invoke(main, ["validate", str(folder), "--split", "train", "--json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert report["valid"] and report["counts"]["questions"] == rest.counts()["questions"]
    res = runner.invoke(main, ["validate", str(folder)])
    assert res.exit_code == 2 and "several splits (train, validation)" in res.output
    res = runner.invoke(main, ["validate", str(tmp_path)])  # a folder that save_to_disk did not write
    assert res.exit_code == 2 and "not one written by Hugging Face datasets' save_to_disk" in res.output


def test_convert_to_hf_and_back_and_what_the_hub_columns_leave_out(tmp_path):
    src = tmp_path / "v2.json"
    data = _v2()
    data.articles[0].paragraphs[0].questions[1].extra["plausible_answers"] = [{"text": "Paris", "answer_start": 0}]
    from mrclens.squad import write_dataset
    write_dataset(data, src)
    runner = CliRunner()
    res = runner.invoke(main, ["convert", str(src), str(tmp_path / "v2-hf"), "--to", "hf"])
    assert res.exit_code == 0, res.output
    assert "not written (the Hub's squad columns only): plausible_answers (1 questions); --extra-columns keeps them" in res.output
    hf = datasets.load_from_disk(str(tmp_path / "v2-hf"))
    assert hf.features == _card_features() and hf.num_rows == 4
    back = read(tmp_path / "v2-hf")
    assert back.container == "save_to_disk" and back.dataset.counts()["unanswerable"] == 2
    res = runner.invoke(main, ["convert", str(src), str(tmp_path / "v2-hf"), "--to", "hf", "--extra-columns"])
    assert res.exit_code == 0 and "not written" not in res.output  # the earlier folder is replaced
    _same(load_dataset(tmp_path / "v2-hf"), load_dataset(src))
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    res = runner.invoke(main, ["convert", str(src), str(tmp_path / "taken"), "--to", "hf"])
    assert res.exit_code == 2 and "is not a folder written by save_to_disk; not overwriting it" in res.output
    assert (tmp_path / "taken" / "notes.txt").read_text() == "mine"


def test_library_names_do_not_shadow_datasets_and_old_names_warn():
    import mrclens

    assert mrclens.QADataset is Dataset and mrclens.load_qa_dataset is load_dataset
    assert mrclens.to_hf_dataset is to_hf_dataset
    for old, new in (("load_dataset", "load_qa_dataset"), ("Dataset", "QADataset")):
        with pytest.warns(DeprecationWarning, match=f"mrclens.{old} is deprecated .* use mrclens.{new}"):
            assert getattr(mrclens, old) is getattr(mrclens, new)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        from mrclens import QADataset, load_qa_dataset  # noqa: F401  (the new names do not warn)


def _damage(folder, how: str):
    """Damage a save_to_disk folder as a cut-short copy or a stray edit would; return the damaged path."""
    if how == "dataset_info.json":
        (folder / "dataset_info.json").write_text("garbage{")
        return folder / "dataset_info.json"
    if how == "state.json":
        (folder / "train" / "state.json").write_text('{"_data_files": ')
        return folder / "train" / "state.json"
    if how == "half .arrow":
        [arrow] = folder.glob("*.arrow")
        arrow.write_bytes(arrow.read_bytes()[: arrow.stat().st_size // 2])
        return arrow
    import shutil
    shutil.rmtree(folder / "validation")  # "split folder deleted"
    return folder / "validation"


@pytest.mark.parametrize("how", ["dataset_info.json", "state.json", "half .arrow", "split folder deleted"])
def test_a_damaged_save_to_disk_folder_exits_2_naming_the_folder_and_the_file(how, tmp_path, monkeypatch):
    """Before issue 42 (item 5): JSONDecodeError / OSError were 'a bug in MRCLens' (exit 3), and a deleted
    split said 'file not found: None'."""
    folder = tmp_path / "v2-hf"
    is_dict = how in ("state.json", "split folder deleted")
    to_hf_dataset({"train": _v2(), "validation": _v2()} if is_dict else _v2()).save_to_disk(str(folder))
    damaged = _damage(folder, how)
    monkeypatch.setenv("MRCLENS_CRASH_DIR", str(tmp_path / "crash"))
    res = CliRunner().invoke(main, ["validate", str(folder), *(["--split", "train"] if is_dict else [])])
    assert res.exit_code == 2, res.output
    [line] = res.output.strip().splitlines()
    assert line.startswith(f"error: {folder}: a damaged save_to_disk folder: ") and str(damaged) in line, line
    assert "None" not in line and not (tmp_path / "crash").exists()
    with pytest.raises(MRCLensError, match="a damaged save_to_disk folder"):
        load_dataset(folder, split="train" if is_dict else None)


def test_convert_to_hf_refuses_a_file_name_before_reading_anything(tmp_path):
    """Issue 42, item 11: `convert --to hf x.json` made a folder named x.json without a word; --to hf writes a
    folder, so a name ending in a data file's suffix is refused (exit 2) and nothing is written."""
    from mrclens.squad import write_dataset

    src = tmp_path / "v2.json"
    write_dataset(_v2(), src)
    runner = CliRunner()
    for name in ("x.json", "x.jsonl", "x.json.gz", "x.parquet", "X.JSON"):
        res = runner.invoke(main, ["convert", str(src), str(tmp_path / name), "--to", "hf"])
        assert res.exit_code == 2, res.output
        assert f"{tmp_path / name}: --to hf writes a folder" in res.output and "--to squad" in res.output
        assert "read as" not in res.output and not (tmp_path / name).exists()
    with pytest.raises(MRCLensError, match="--to hf writes a folder"):
        write(_v2(), tmp_path / "y.parquet", "hf")
    assert not (tmp_path / "y.parquet").exists()
    res = runner.invoke(main, ["convert", str(src), str(tmp_path / "x.v2"), "--to", "hf"])  # a folder name with a dot
    assert res.exit_code == 0 and (tmp_path / "x.v2").is_dir(), res.output


def test_convert_to_hf_shows_no_datasets_bar_off_a_terminal_and_its_folder_follows_the_umask(tmp_path):
    """Issue 44, item 6: `convert --to hf -q` still printed datasets' "Saving the dataset" bar (also into
    redirected logs) and left the folder mode 0700 (tempfile.mkdtemp's) where every other output follows
    the umask."""
    import os
    import stat

    from mrclens.squad import write_dataset

    src = tmp_path / "v2.json"
    write_dataset(_v2(), src)
    umask = os.umask(0o022)
    try:
        for flags, name in (([], "plain"), (["-q"], "quiet")):
            res = CliRunner().invoke(main, ["convert", str(src), str(tmp_path / name), "--to", "hf", *flags])
            assert res.exit_code == 0, res.output
            assert "Saving the dataset" not in res.stderr and "\r" not in res.stderr, res.stderr
            assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o755
            for path in (tmp_path / name).iterdir():
                assert stat.S_IMODE(path.stat().st_mode) == 0o644, path
    finally:
        os.umask(umask)
