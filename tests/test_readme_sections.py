"""The documentation's "Hugging Face datasets" (docs/formats.md) and "Results as tables"
(docs/python-api.md) sections run as written: every `mrclens …` command of their bash blocks and every
Python block, in a folder holding the files they name. Section titles of the README and of every page
carry no issue numbers."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from mrclens.cli import main
from mrclens.formats import load_dataset
from mrclens.squad import Answer, Article, Dataset, Paragraph, Question, write_dataset
from perturbed_fixture import make_perturbed_dir, score_and_publish, write_predictions

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def _section(page: str, title: str) -> str:
    text = (DOCS / page).read_text(encoding="utf-8")
    start = text.index(title + "\n")
    level = title.split(" ")[0]
    end = re.search(rf"^#{{1,{len(level)}}} ", text[start + len(title):], re.M)
    return text[start: start + len(title) + (end.start() if end else len(text))]


def _blocks(section: str, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", section, re.S)


def _run_commands(block: str) -> list[str]:
    ran = []
    for line in block.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        args = shlex.split(line)
        assert args[0] == "mrclens", line
        res = CliRunner().invoke(main, args[1:], catch_exceptions=False)
        assert res.exit_code == 0, f"{line}\n{res.output}"
        ran.append(line)
    return ran


def _v2() -> Dataset:
    ctx = "Paris is in France. Berlin is in Germany."
    return Dataset([Article("Cities", [Paragraph(ctx, [
        Question("a1", "Where is Paris?", [Answer("France", 12)], False),
        Question("n1", "Where is Rome?", [], True, {"plausible_answers": [{"text": "Paris", "answer_start": 0}]}),
        Question("a2", "Where is Berlin?", [Answer("Germany", 33)], False)])])], "v2.0")


def test_hugging_face_section_runs(sample_path, tmp_path, monkeypatch):
    datasets = pytest.importorskip("datasets", reason="the optional extra mrclens[hf] (datasets) is not installed")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", str(tmp_path / "hf-cache"))
    sample = load_dataset(sample_path)
    write_dataset(_v2(), "dev-v2.0.json")
    write_dataset(Dataset(sample.articles[:2], sample.version), "train.json")
    from mrclens.formats.hf_datasets import to_hf_dataset
    to_hf_dataset({"train": Dataset(sample.articles[2:4], sample.version),
                   "validation": Dataset(sample.articles[4:5], sample.version)}).save_to_disk("squad-hf")
    section = _section("formats.md", "## Hugging Face datasets")
    (bash,) = _blocks(section, "bash")
    assert len(_run_commands(bash)) == 5
    assert load_dataset("dev.json").counts() == load_dataset(Dataset(sample.articles[4:5], sample.version)).counts()
    assert sorted(p.name for p in Path("dev-v2.0-hf").iterdir())  # a save_to_disk folder
    (python,) = _blocks(section, "python")
    namespace: dict = {}
    exec(compile(python, "docs/formats.md (Hugging Face datasets)", "exec"), namespace)
    assert len(namespace["both"]) == 6 and list(namespace["dd"]) == ["train", "validation"]
    assert namespace["back"].counts()["unanswerable"] == 1


def test_results_as_tables_section_runs(tmp_path, monkeypatch, capsys):
    root = tmp_path / "work"
    score_and_publish(make_perturbed_dir(root), write_predictions(root), root / "audit-sample", model_name="m",
                      seed=0, n_resamples=100, progress=False)
    shutil.rmtree(root / "perturbed")  # results.json alone is what load_results reads
    monkeypatch.chdir(root)
    (python,) = _blocks(_section("python-api.md", "## Results as tables"), "python")
    namespace: dict = {}
    exec(compile(python, "docs/python-api.md (Results as tables)", "exec"), namespace)
    out = capsys.readouterr().out
    assert "e1" in out and out.rstrip().endswith("True")
    assert namespace["categories"]["category"].tolist() == ["Similarity", "Question"]
    assert namespace["sets"]["set"].tolist()[:2] == ["original", "original-truncated"]


def _headings(text: str) -> list[str]:
    """A Markdown file's section titles (``#`` lines outside code blocks)."""
    headings, in_code = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and re.match(r"#{1,6} ", line):
            headings.append(line)
    return headings


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lstrip("#").strip().lower()).replace(" ", "-")


def test_section_titles_carry_no_issue_numbers_and_every_anchor_resolves():
    """A reader does not know what "(issue 32)" is: titles say what the section is (issue 43, item 5), and
    every in-page link (``[…](#anchor)``) leads to a title that exists (links between pages: the strict
    site build of tests/test_docs_site.py)."""
    pages = [README, *sorted(DOCS.glob("*.md"))]
    every = {}
    for page in pages:
        text = page.read_text(encoding="utf-8")
        headings = _headings(text)
        every[page.name] = headings
        assert [h for h in headings if re.search(r"\bissues? \d", h)] == [], page
        anchors = {_anchor(h) for h in headings}
        links = set(re.findall(r"\]\(#([^)]+)\)", text))
        assert sorted(links - anchors) == [], page
    assert sum(map(len, every.values())) > 40 and "# Languages: MRCLens reads English" in every["languages.md"]
