"""The documentation (issue 44, item 7): the README is a front page of at most 300 lines, the pages under
docs/ build into a site with ``mkdocs build --strict`` (run here, so in ``make test``), a broken link or
anchor fails that build, and the tables that describe the CLI say what the CLI has."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

from mrclens.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
COMMANDS_PAGE = ROOT / "docs" / "commands.md"


def _build(root: Path, site: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                          cwd=root, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def hooks():
    from script_modules import load_script

    return load_script("scripts/mkdocs_hooks.py")


def test_readme_is_a_front_page():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    setup = text.split("## Set-up: the two commands\n")[1].split("\n## ")[0]
    (block,) = re.findall(r"```bash\n(.*?)```", setup, re.S)
    assert [line.split("#")[0].strip() for line in block.splitlines()] == ["make demo", "make test"]
    for title in ("## The first five minutes", "## How to read a verdict", "## Documentation"):
        assert f"\n{title}\n" in text, title
    linked = set(re.findall(r"\]\(docs/([\w-]+\.md)", text))
    assert linked == {p.name for p in (ROOT / "docs").glob("*.md")}  # every page reachable from the front page


def test_the_site_builds_strictly(tmp_path):
    res = _build(ROOT, tmp_path / "site")
    assert res.returncode == 0, res.stderr
    assert "WARNING" not in res.stderr, res.stderr
    built = {p.name for p in (tmp_path / "site").glob("*.html")}
    pages = {p.stem + ".html" for p in (ROOT / "docs").glob("*.md")}
    assert pages | {"index.html", "benchmarks.html", "developers.html"} <= built
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'id="the-first-five-minutes"' in home and 'href="commands.html#every-commands-options"' not in home
    assert 'href="getting-started.html#measured-times"' in home  # README's docs/… link, rewritten and checked
    api = (tmp_path / "site" / "api.html").read_text(encoding="utf-8")  # built from the docstrings (mkdocstrings)
    assert all(f'id="mrclens.{name}"' in api for name in ("load_qa_dataset", "QADataset", "check_dataset"))
    assert "Raises:" in api and not re.search(r":(func|class|mod|meth|data|attr):<code>", api)  # roles tidied


@pytest.mark.slow
@pytest.mark.parametrize(("where", "link", "named"), [
    ("docs/card.md", "[gone](no-such-page.md)", "no-such-page.md"),
    ("docs/card.md", "[gone](commands.md#no-such-section)", "no-such-section"),
    ("docs/card.md", "[gone](../BENCHMARKS.md#no-such-benchmark)", "no-such-benchmark"),
    ("README.md", "[gone](docs/no-such-page.md)", "no-such-page.md"),
    ("README.md", "[gone](#no-such-heading)", "no-such-heading"),
])
def test_a_broken_link_fails_the_build(tmp_path, where, link, named):
    """The build is strict: a link to a page, a heading of another page, a section of BENCHMARKS.md or a
    heading of the README itself that does not exist stops it."""
    copy = tmp_path / "repo"
    shutil.copytree(ROOT / "docs", copy / "docs")
    (copy / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "mkdocs_hooks.py", copy / "scripts")
    for name in ("mkdocs.yml", "README.md", "BENCHMARKS.md", "DEVELOPERS.md"):
        shutil.copy(ROOT / name, copy / name)
    assert _build(copy, tmp_path / "ok").returncode == 0  # the copy builds as it is
    page = copy / where
    page.write_text(page.read_text(encoding="utf-8") + f"\nSee {link}.\n", encoding="utf-8")
    res = _build(copy, tmp_path / "broken")
    assert res.returncode != 0
    assert "WARNING" in res.stderr and named in res.stderr, res.stderr  # strict mode: the warning is fatal


def test_github_anchors_and_links_rewritten_for_the_site(hooks):
    assert hooks.github_slug("Input formats (mrclens convert)") == "input-formats-mrclens-convert"
    assert hooks.github_slug("Audit any model (mrclens evaluate --predictions-dir)") == \
        "audit-any-model-mrclens-evaluate---predictions-dir"
    assert hooks.rewrite_links("[a](docs/x.md#y) [b](BENCHMARKS.md#z) [c](#w)", page_is_root=True) == \
        "[a](x.md#y) [b](benchmarks.md#z) [c](#w)"
    assert hooks.rewrite_links("[a](../README.md#y) [b](../DEVELOPERS.md) [c](../mrclens/x.py) [d](p.md)",
                               page_is_root=False) == "[a](index.md#y) [b](developers.md) [c](../mrclens/x.py) [d](p.md)"


def test_the_docstrings_sphinx_roles_become_code_linked_where_the_page_documents_them(hooks):
    html = ('<h3 id="mrclens.load_qa_dataset">load_qa_dataset</h3><p>see :func:<code>~mrclens.formats.load_dataset</code>, '
            ':class:<code>~mrclens.squad.Article</code>, :mod:<code>mrclens.progress</code> and '
            ':func:<code>mrclens.load_qa_dataset</code></p>')
    assert hooks.tidy_roles(html, {"mrclens.formats.load_dataset": "mrclens.load_qa_dataset"}) == (
        '<h3 id="mrclens.load_qa_dataset">load_qa_dataset</h3><p>see <a href="#mrclens.load_qa_dataset"><code>'
        'load_dataset</code></a>, <code>Article</code>, <code>mrclens.progress</code> and <a href="#mrclens.'
        'load_qa_dataset"><code>mrclens.load_qa_dataset</code></a></p>')
    assert hooks.public_names()["mrclens.formats.load_dataset"] == "mrclens.load_qa_dataset"


def test_the_commands_table_lists_every_command():
    text = COMMANDS_PAGE.read_text(encoding="utf-8")
    table = text.split("| command | what it does |")[1].split("\n\n")[0]
    listed = set(re.findall(r"^\| `mrclens ([\w-]+)", table, re.M))
    assert listed == set(COMMANDS)
    for name in COMMANDS:  # every option the table names is one the command has
        command = main.get_command(click.Context(main), name)
        names = {o for p in command.params if isinstance(p, click.Option) for o in [*p.opts, *p.secondary_opts]}
        hidden = {o for p in command.params for o in getattr(p, "hidden_aliases", ())}
        for row in re.findall(rf"^\| `mrclens {name} (.*?)` \|", table, re.M):
            used = set(re.findall(r"(?<![\w-])(--[\w-]+|-\w)\b", row))
            assert used <= names - hidden, (name, sorted(used - (names - hidden)))


def test_the_json_convention_names_every_command_with_json():
    text = COMMANDS_PAGE.read_text(encoding="utf-8")
    line = text.split("**`--json`** means the same wherever it exists (")[1].split(")")[0]
    named = set(re.findall(r"`([\w-]+)`", line))
    having = {name for name in COMMANDS
              if any("--json" in p.opts for p in main.get_command(click.Context(main), name).params
                     if isinstance(p, click.Option))}
    assert named == having
