"""The files that go public with the project (issue 57, item 6): a LICENSE that is the one setup.cfg declares, and a
CITATION.cff (Citation File Format 1.2.0) that names this version and the paper MRCLens follows."""

from __future__ import annotations

import configparser
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _metadata() -> configparser.SectionProxy:
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg", encoding="utf-8")
    return config["metadata"]


def test_the_license_file_is_the_license_setup_cfg_declares():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert _metadata()["license"] == "Apache-2.0"
    assert "Apache License" in text and "Version 2.0, January 2004" in text and "END OF TERMS AND CONDITIONS" in text


def test_the_citation_file_names_this_version_and_the_paper():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["cff-version"] == "1.2.0" and cff["type"] == "software" and cff["authors"]
    assert str(cff["version"]) == _metadata()["version"] and cff["license"] == _metadata()["license"]
    paper = cff["preferred-citation"]
    assert paper["title"].startswith("MRCLens") and paper["year"] == 2022
    assert [a["family-names"] for a in paper["authors"]] == ["Zhong", "Wang", "Xing"]  # as the README cites it
