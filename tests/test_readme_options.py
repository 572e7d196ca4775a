"""The documentation's option tables (docs/commands.md) are the CLI's (issue 33): every option of every
command is listed under its command, nothing listed is gone, and `scripts/readme_options.py` rewrites them
idempotently."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from mrclens.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "commands.md"


@pytest.fixture(scope="module")
def script():
    from script_modules import load_script

    return load_script("scripts/readme_options.py")


def _cli_options() -> dict[str, tuple[set[str], set[str]]]:
    """Per command, from click: the options the page must list (every long name, a short one where
    there is no long one) and every name an option answers to (``--help``/``-h`` included)."""
    out = {}
    for name in COMMANDS:
        command = main.get_command(click.Context(main), name)
        required, every = set(), {"--help", "-h"}
        for p in command.params:
            if isinstance(p, click.Option):
                names = [*p.opts, *p.secondary_opts]
                hidden = set(getattr(p, "hidden_aliases", ()))  # old spellings: still accepted, not documented
                shown = [o for o in names if o not in hidden]
                required.update([o for o in shown if o.startswith("--")] or shown)
                every.update(names)
        out[name] = required, every
    return out


def _listed_options(text: str, script) -> dict[str, set[str]]:
    """The options the generated tables list, per command (the first cell of each row)."""
    block = text[text.index(script.BEGIN):text.index(script.END)]
    heading = script.HEADING + " `mrclens "
    shared = set(re.findall(r"`(-[-\w]+)`", block.split(heading)[0]))
    out = {}
    for section in block.split(heading)[1:]:
        name = section.split("`", 1)[0]
        cells = re.findall(r"^\| `([^`]+)` \|", section, flags=re.M)
        out[name] = {o.rstrip(",") for cell in cells for o in cell.replace("/", " ").split() if o.startswith("-")} | shared
    return out


def test_every_option_of_the_cli_is_in_the_docs_and_nothing_else(script):
    assert script.PAGE == PAGE
    listed = _listed_options(PAGE.read_text(encoding="utf-8"), script)
    assert set(listed) == set(COMMANDS)
    for name, (required, every) in _cli_options().items():
        missing = required - listed[name]
        assert not missing, f"mrclens {name}: {sorted(missing)} not in docs/commands.md; run python scripts/readme_options.py"
        gone = listed[name] - every
        assert not gone, f"mrclens {name}: docs/commands.md lists {sorted(gone)}, which the CLI does not have"


def test_an_option_added_to_the_cli_fails_the_check_until_the_tables_are_rewritten(script, tmp_path, monkeypatch):
    readme = tmp_path / "commands.md"
    readme.write_text(PAGE.read_text(encoding="utf-8"), encoding="utf-8")
    command = main.get_command(click.Context(main), "report")
    monkeypatch.setattr(command, "params", [*command.params, click.Option(["--brand-new-option"], help="New.")])
    before = _listed_options(readme.read_text(encoding="utf-8"), script)
    assert "--brand-new-option" not in before["report"]
    assert script.main([str(readme), "--check"]) == 1
    assert script.main([str(readme)]) == 0
    after = readme.read_text(encoding="utf-8")
    assert "--brand-new-option" in _listed_options(after, script)["report"]
    assert script.rewrite(after) == after  # idempotent
    outside = PAGE.read_text(encoding="utf-8")
    start, stop = outside.index(script.BEGIN), outside.index(script.END)
    assert after.startswith(outside[:start]) and after.endswith(outside[stop:])  # the rest untouched


def test_a_file_without_the_markers_is_refused(script):
    with pytest.raises(ValueError, match="markers are missing"):
        script.rewrite("# no tables here\n")
