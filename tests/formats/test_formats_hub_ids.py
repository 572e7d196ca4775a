"""A Hugging Face Hub id given where a file is expected (``load_qa_dataset("rajpurkar/squad")``) is
refused with a :class:`~mrclens.errors.DataError` that says how to load it with ``datasets`` and pass
the object (issue 44, item 6); a missing file that is no Hub id still raises ``FileNotFoundError``."""

from __future__ import annotations

import pytest

import mrclens
from mrclens.errors import DataError
from mrclens.formats import read


@pytest.mark.parametrize("name", ["rajpurkar/squad", "rajpurkar/squad_v2", "mrqa-workshop/mrqa"])
def test_a_hub_id_gets_a_data_error_saying_how_to_load_it(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # relative to an empty folder: no such path
    with pytest.raises(DataError) as caught:
        mrclens.load_qa_dataset(name)
    message = str(caught.value)
    assert message.startswith(f"{name}: ") and "Hugging Face Hub" in message, message
    assert f'datasets.load_dataset("{name}"' in message and "mrclens.load_qa_dataset(ds)" in message, message
    assert caught.value.problems[0].file == name
    with pytest.raises(DataError, match="Hugging Face Hub"):
        read(name)


def test_an_existing_path_or_a_missing_data_file_is_not_taken_for_a_hub_id(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError):
        mrclens.load_qa_dataset("data/dev-v1.1.json")  # a data file's suffix: a missing file
    with pytest.raises(FileNotFoundError):
        mrclens.load_qa_dataset("/abs/squad")
    (tmp_path / "owner").mkdir()
    (tmp_path / "owner" / "name").write_text('{"version": "1.1", "data": []}')
    assert len(mrclens.load_qa_dataset("owner/name")) == 0  # the file is read, no Hub hint
