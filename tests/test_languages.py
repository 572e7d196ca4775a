"""The language check (issue 32): detection on written fixtures and the bundled sample, the cache,
the refusal line, what --language-ok lets run, and the table of docs/languages.md."""

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
import language_fixture  # noqa: E402
from language_fixture import write_squad  # noqa: E402

LANGUAGES_PAGE = Path(__file__).resolve().parents[1] / "docs" / "languages.md"


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
    assert mixed.problem().startswith("100 % of the questions' text is in Spanish")


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
    assert message.startswith(f"{files['es']}: 100 % of the contexts' text is in Spanish (3 paragraphs sampled")
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
    assert lines[0][0].startswith(f"{files['en']}: English (100 % of the contexts' text in 3 sampled paragraphs")
    assert "Spanish" in lines[1][0] and "not valid" in lines[1][0]


def _readme_table() -> dict[str, tuple[str, ...]]:
    text = LANGUAGES_PAGE.read_text(encoding="utf-8")
    section = text.split("# Languages")[1].split("\n## ")[0]
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


# --- Issue 42: English is read on its prose, by the share of text -----------------------------------


def test_english_with_headers_markup_and_ipa_reads_as_english(tmp_path):
    """A scientific article's header (title, URL, authors, DOI, licence), an HTML payload and a pronunciation
    in IPA opening each context: the first 400 characters of each read as Latin before issue 42."""
    report = file_languages(write_squad(tmp_path, "en-markup"), cache_dir=False)
    assert report.readable and report.share("contexts") == 100.0, report.summary()


def test_prose_skips_header_lines_markup_and_phonetic_words():
    header = ("A Title In Title Case Of A Scientific Article\nhttps://example.org/pmc/PMC1/\n"
              "Mwamba, Boniface; Okello, Grace; Lindqvist, Anna; Ferreira, João\nDOI:10.1371/journal.pone.1\n"
              "Abstract: the virus spreads from mother to child during birth and in the weeks after it.")
    assert languages.prose(header) == "Abstract: the virus spreads from mother to child during birth and in the weeks after it."
    assert languages.prose("<script>var a = 1;</script><b>Bold</b> text &amp; more") == "Bold text & more"
    assert languages.prose("Tyne (/ˈtaɪn/) is a river.") == "Tyne is a river."
    # a text with no line that reads as prose keeps its lines: nothing is judged on nothing
    assert languages.prose("Title One\nTitle Two") == "Title One Title Two"


def test_windows_cover_the_text_from_start_to_end():
    text = "".join(chr(ord("a") + i % 26) for i in range(5000))
    ws = languages.windows(text)
    assert len(ws) == languages.MAX_WINDOWS and ws[0] == text[:400] and ws[-1] == text[-400:]
    assert all(len(w) == languages.WINDOW_CHARS for w in ws)


def test_share_of_text_not_of_contexts(tmp_path):
    """One long English context outweighs two short Spanish ones: the decision is by characters of prose."""
    from mrclens.squad import Article, Dataset, Paragraph

    english = " ".join(ctx for ctx, _ in language_fixture.PARAGRAPHS["en"]) * 3
    spanish = [ctx for ctx, _ in language_fixture.PARAGRAPHS["es"][:2]]
    data = Dataset([Article("mixed", [Paragraph(c) for c in [english, *spanish]])])
    contexts = languages.text_shares([english, *spanish])
    assert set(contexts) == {"English", "Spanish"} and contexts["English"] > 2 * contexts["Spanish"]
    assert languages.detect_languages(data).share("contexts") > 70.0


def test_function_words_rescue_english_lingua_misreads_and_not_spanish():
    """Lingua's low-accuracy mode takes English dense with diacritics for Tagalog; the function words
    read it as English, and do not make Spanish English."""
    sanskrit = ("About a century after Pāṇini (around 400 BCE), Kātyāyana composed Vārtikas on the Pāṇini sũtras. "
                "Patanjali, who lived three centuries after Pāṇini, wrote the Mahābhāṣya, the Great Commentary on "
                "the Aṣṭādhyāyī and Vārtikas.")
    assert languages.detect([sanskrit]) != ["English"]  # what the detector alone says
    assert languages.read_windows([sanskrit]) == ["English"]
    spanish = [ctx for ctx, _ in language_fixture.PARAGRAPHS["es"]]
    assert languages.read_windows(spanish) == ["Spanish"] * len(spanish)


#: English prose dense with Portuguese names (issue 55, item 13: read as Portuguese before), and Portuguese prose
#: with the same kind of names, which must stay Portuguese.
NAME_DENSE_ENGLISH = (
    "Edson Arantes do Nascimento, Pelé, joined Santos Futebol Clube in São Paulo. João Havelange, Nílton Santos, "
    "Mário Zagallo, Garrincha, Vavá and Didi won the 1958 Copa do Mundo in Solna. Later Pelé played for Santos and "
    "New York Cosmos; Carlos Alberto, Tostão, Jairzinho, Gérson and Rivellino won in Ciudad de México.",
    "Luís Vaz de Camões wrote Os Lusíadas about Vasco da Gama. Fernão Mendes Pinto, Gil Vicente, Sá de Miranda and "
    "António Ferreira were read at the Universidade de Coimbra and in Lisboa, Évora and Braga, as was Padre António "
    "Vieira, whose Sermão de Santo António aos Peixes was printed in Lisboa.",
    "Pedro Álvares Cabral reached Porto Seguro in Bahia. Tomé de Sousa founded Salvador da Bahia; Mem de Sá, "
    "Estácio de Sá and Manuel da Nóbrega founded São Sebastião do Rio de Janeiro. Dom João VI, Dom Pedro I and Dom "
    "Pedro II ruled from Rio de Janeiro and Petrópolis.")
PORTUGUESE = (
    "Edson Arantes do Nascimento, conhecido como Pelé, entrou no Santos Futebol Clube em São Paulo. Com Nílton "
    "Santos, Garrincha, Vavá e Didi venceu a Copa do Mundo de 1958 na Suécia, e mais tarde jogou pelo New York Cosmos.",
    "Luís Vaz de Camões escreveu Os Lusíadas sobre a viagem de Vasco da Gama à Índia. O poema foi lido na "
    "Universidade de Coimbra e em Lisboa, onde o Padre António Vieira pregou o Sermão de Santo António aos Peixes.",
    "Pedro Álvares Cabral chegou a Porto Seguro, na Bahia, em 1500. Tomé de Sousa fundou Salvador, e Estácio de Sá "
    "fundou a cidade de São Sebastião do Rio de Janeiro, de onde Dom Pedro II governou o império até 1889.")


def test_english_dense_with_names_reads_as_english_and_portuguese_stays_portuguese():
    """Names are left out of the function-word share: the English prose above holds 10-14 % function words among
    all its words (under the 15 % that reads a window back as English) and 27-47 % among its other words."""
    assert set(languages.detect(list(NAME_DENSE_ENGLISH))) == {"Portuguese"}  # what the detector alone says
    assert languages.read_windows(list(NAME_DENSE_ENGLISH)) == ["English"] * 3
    assert languages.read_windows(list(PORTUGUESE)) == ["Portuguese"] * 3
    assert max(map(languages.function_word_pct, PORTUGUESE)) < 5.0, [languages.function_word_pct(t) for t in PORTUGUESE]


def test_newcastle_upon_tyne_reads_as_english(squad_dev_path, tmp_path):
    """Three paragraphs of SQuAD v1.1 dev's own article (the first opens with its pronunciation in IPA):
    read as 33 % Tagalog before issue 42."""
    import gzip
    import json

    data = json.loads(gzip.decompress(squad_dev_path.read_bytes()))
    article = next(a for a in data["data"] if a["title"] == "Newcastle_upon_Tyne")
    path = tmp_path / "newcastle.json"
    path.write_text(json.dumps({"version": "1.1", "data": [{**article, "paragraphs": article["paragraphs"][:3]}]}),
                    encoding="utf-8")
    report = file_languages(path, cache_dir=False)
    assert report.readable and report.share("contexts") == 100.0, report.summary()


def _articles_read_as_english(path):
    from mrclens.formats import load_dataset
    from mrclens.squad import Dataset

    reports = [(a.title, languages.detect_languages(Dataset([a]), a.title)) for a in load_dataset(path).articles]
    return [(title, r.problem()) for title, r in reports if not r.readable], len(reports)


@pytest.mark.slow
def test_every_squad_dev_article_on_its_own_reads_as_english(squad_dev_path):
    refused, n = _articles_read_as_english(squad_dev_path)
    assert n == 48 and refused == []


@pytest.mark.slow
def test_every_squad_train_article_on_its_own_reads_as_english(squad_train_path):
    refused, n = _articles_read_as_english(squad_train_path)
    assert n == 442 and refused == []


@pytest.mark.slow
@pytest.mark.parametrize("lang, name", [("es", "Spanish"), ("ru", "Russian"), ("ar", "Arabic"), ("th", "Thai")])
def test_xquad_is_still_refused(lang, name, tmp_path):
    import os

    shared = Path(os.environ.get("MRCLENS_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))
    path = shared / "xquad" / f"xquad.{lang}.json.gz"
    if not path.exists():
        pytest.skip(f"real data not available: {path} is absent")
    report = file_languages(path, cache_dir=False)
    assert not report.readable and report.language == name and report.share("contexts", name) > 95.0


def test_declared_english_runs_with_a_note(files, tmp_path):
    """--language en: nothing is refused, every figure runs (no language-free options), and each file's
    note says it is read as English as declared and what the detection read."""
    for command in ("audit", "perturb", "stats", "check"):
        check = require_readable_language(command, [files["es"], files["en"]], cache_dir=tmp_path, declared="en")
        assert not check.language_free and check.stats_options == {} and check.declared == "en"
        notes = check.notes()
        assert len(notes) == 2 and all("read as English as declared (--language en)" in n for n in notes)
        assert "100 % of the contexts' text is in Spanish" in notes[0] and "English (100 %" in notes[1]
        assert [block["declared"] for block in check.to_json()] == ["en", "en"]
    with pytest.raises(ValueError):
        require_readable_language("stats", [files["es"]], cache_dir=tmp_path, declared="es")
