"""The language check (issue 32): detection on written fixtures and the bundled sample, the cache,
the refusal line, what --language-ok lets run, and the README's table."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from mrclens import languages
from mrclens.checks import load_rules
from mrclens.errors import LanguageError
from mrclens.languages import (
    LANGUAGE_FREE_FIGURES,
    SENTENCIZER_FIGURES,
    SUPPORT,
    describe_languages,
    file_languages,
    require_readable_language,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from language_fixture import write_squad  # noqa: E402

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.fixture()
def files(tmp_path):
    return {name: write_squad(tmp_path, *name.split("+")) for name in ("en", "es", "ru", "en+es")}


def test_languages_of_written_paragraphs(files, tmp_path):
    reports = {name: file_languages(path, cache_dir=tmp_path / "cache") for name, path in files.items()}
    assert reports["en"].readable and reports["en"].language == "English"
    assert (reports["es"].language, reports["ru"].language) == ("Spanish", "Russian")
    assert not reports["es"].readable and not reports["ru"].readable
    assert reports["es"].share("contexts", "Spanish") == 100.0 and reports["es"].sampled == 3
    # English contexts, Spanish questions: the questions make it unreadable, and the line says so
    mixed = reports["en+es"]
    assert mixed.language == "English" and not mixed.readable
    assert mixed.problem().startswith("100 % of questions are in Spanish")


def test_bundled_sample_is_english(sample_path, tmp_path):
    report = file_languages(sample_path, cache_dir=tmp_path)
    assert report.readable and report.sampled == 200 and report.paragraphs > 200
    check = require_readable_language("check", [sample_path, None], cache_dir=tmp_path)
    assert not check.language_free and check.stats_options == {} and check.notes() == []


def test_cached_by_checksum_and_deterministic(files, tmp_path, monkeypatch):
    first = file_languages(files["es"], cache_dir=tmp_path)
    assert file_languages(files["es"], cache_dir=False) == first  # the same without the cache

    def no_detection(texts):
        raise AssertionError("detected again although cached")

    monkeypatch.setattr(languages, "detect", no_detection)
    assert file_languages(files["es"], cache_dir=tmp_path) == first
    files["es"].write_text(files["ru"].read_text(encoding="utf-8"), encoding="utf-8")  # new bytes: a new key
    with pytest.raises(AssertionError, match="detected again"):
        file_languages(files["es"], cache_dir=tmp_path)


def test_sample_is_seeded(sample_path):
    from mrclens.formats import load_dataset

    data = load_dataset(sample_path)
    a, b = languages.sample_paragraphs(data, 50, seed=0), languages.sample_paragraphs(data, 50, seed=0)
    assert a == b and len(a[0]) == 50 and a[0] != languages.sample_paragraphs(data, 50, seed=1)[0]


@pytest.mark.parametrize("command", ["check", "stats", "audit", "perturb"])
def test_refusal_is_one_line_naming_language_and_share(command, files, tmp_path):
    with pytest.raises(LanguageError) as err:
        require_readable_language(command, [files["en"], files["es"]], cache_dir=tmp_path)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"{files['es']}: 100 % of contexts are in Spanish (3 paragraphs sampled")
    assert f"`mrclens {command}`" in message
    assert ("pass --language-ok" in message) == (command in ("check", "stats"))
    assert ("no part of" in message) == (command in ("audit", "perturb"))


def test_language_ok_lets_only_stats_and_check_run(files, tmp_path):
    check = require_readable_language("check", [files["ru"]], allow=True, cache_dir=tmp_path)
    assert check.language_free and check.stats_options == {"language": "Russian", "sentencizer": "ru"}
    assert check.reports[0].path == "sentencizer" and check.reports[0].to_json()["spacy_language"] == "ru"
    assert len(check.notes()) == 1 and "Russian" in check.notes()[0]
    for command in ("audit", "perturb"):  # no override: nothing of them reads a language it cannot parse
        with pytest.raises(LanguageError):
            require_readable_language(command, [files["ru"]], allow=True, cache_dir=tmp_path)


def test_multiple_choice_data_is_passed_over(tmp_path):
    codah = tmp_path / "codah.tsv"
    codah.write_text("o\tUn hombre se sienta. Él\tse levanta.\tduerme.\tcorre.\tcome.\t0\n", encoding="utf-8")
    assert require_readable_language("check", [codah], cache_dir=tmp_path).reports == ()


def test_compare_lines(files, tmp_path):
    lines = describe_languages([files["en"], files["es"], tmp_path], cache_dir=tmp_path)
    assert [readable for _, readable in lines] == [True, False]
    assert lines[0][0].startswith(f"{files['en']}: English (100 % of the contexts of 3 sampled paragraphs")
    assert "Spanish" in lines[1][0] and "not valid" in lines[1][0]


def _readme_table() -> dict[str, tuple[str, ...]]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Languages")[1].split("\n## ")[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| what")]
    return {cells[0]: tuple(cells[1:]) for cells in ([c.strip() for c in r.strip("|").split("|")] for r in rows)}


def test_readme_table_is_the_support_table():
    assert _readme_table() == SUPPORT


def test_readme_names_the_rules_that_run_under_language_ok():
    """The default rules that --language-ok evaluates are those on figures that read no words, and for
    the sentencizer's languages those on its measured ranks."""
    free = [r.id for r in load_rules() if r.metric.startswith(tuple(f + "." for f in LANGUAGE_FREE_FIGURES))]
    row = next(k for k in SUPPORT if k.startswith("mrclens check: rules"))
    assert free and re.findall(r"[a-z]+(?:-[a-z]+)*", row.split("rules ")[1]) == free
    ranked = [r.id for r in load_rules() if r.enabled and r.metric.startswith(tuple(f + "." for f in SENTENCIZER_FIGURES))]
    row = next(k for k in SUPPORT if k.startswith("mrclens check: rule "))
    assert ranked and re.findall(r"[a-z]+(?:-[a-z]+)*", row.split("rule ")[1]) == ranked
    assert SUPPORT[row][2:] == ("runs", "skipped")


def test_only_the_data_file_takes_the_sentencizer_path(files, tmp_path):
    """The ranks are computed on DATA: a Spanish dev file beside English data adds none."""
    check = require_readable_language("stats", [files["en"], files["es"]], allow=True, cache_dir=tmp_path)
    assert check.language_free and check.sentencizer is None and check.stats_options == {"language": "Spanish"}
    assert [r.path for r in check.reports] == ["english", "sentencizer"]
    assert "rank by position" not in check.notes()[0]
