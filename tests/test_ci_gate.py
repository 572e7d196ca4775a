"""The CI gate: the pre-commit hook (``.pre-commit-hooks.yaml``) and the GitHub Actions composite action
(``action.yml``) run ``mrclens-ci-check`` (:mod:`mrclens.cli.gate`: one Python process over every file, issue 57),
which runs ``mrclens check`` on dataset files and fails on a failed rule. Tested for real: ``pre-commit
try-repo`` on a clone of this repository in a temporary git repository, and the gate run as the action runs
it, on a clean file (a subset of the bundled sample) and a biased one (its position planting: every answer
sentence moved to the front). Issue 42 (item 9): usage errors and a bad ``--pattern`` exit 2 with the usage
line, file names reach mrclens after ``--``, and ``--check-arg`` (the action's ``check-args``) passes
``mrclens check`` options on. Issue 57 (items 5, 6): GitHub annotations and the job summary."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import REPO, SAMPLE
from tests.language_fixture import write_squad

#: The gate as the console script runs it (a subprocess: its exit status, its output, its signals).
GATE = [sys.executable, "-m", "mrclens.cli.gate"]
USAGE = "Usage: mrclens-ci-check [OPTIONS] [--] [FILE]..."

RULES = """\
replace_defaults = true

[[rule]]
id = "answer-position"
metric = "chance_corrected.position_rank.mean"
op = "<="
threshold = 75.0
meaning = "answers cluster in the first sentences far beyond chance"
"""


#: What GitHub Actions sets: not inherited by the tests (a CI run of this suite must not annotate or summarise).
GITHUB_VARIABLES = ("GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "GITHUB_WORKSPACE")


def _env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in GITHUB_VARIABLES}
    env.update(PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}", PYTHONPATH=str(REPO),
               MRCLENS_CACHE_DIR=str(tmp / "cache"), PRE_COMMIT_HOME=str(tmp / "pre-commit-home"),
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.org", GIT_CONFIG_NOSYSTEM="1", HOME=str(tmp))
    return env


def _git(repo: Path, env, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def data_repo(tmp_path_factory):
    """A git repository holding rules.toml, clean.json (3 sample articles), package.json and
    dataset_infos.json (JSON that is no QA dataset), then biased.json (the same articles, every answer
    sentence moved to the front), each committed in turn."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    from mrclens.formats import load_dataset
    from mrclens.selftest.plantings import plant
    from mrclens.squad import Dataset, write_dataset

    tmp = tmp_path_factory.mktemp("gate")
    env = _env(tmp)
    repo = tmp / "data-repo"
    repo.mkdir()
    _git(repo, env, "init", "-q", "-b", "main")
    sample = load_dataset(SAMPLE)
    clean = Dataset(sample.articles[:3], sample.version)
    (repo / "rules.toml").write_text(RULES)
    write_dataset(clean, repo / "clean.json")
    (repo / "package.json").write_text(json.dumps({"name": "web", "version": "1.0.0", "private": True}, indent=2))
    (repo / "dataset_infos.json").write_text(json.dumps({"plain_text": {"description": "", "features": {}}}, indent=2))
    _git(repo, env, "add", ".")
    _git(repo, env, "commit", "-qm", "clean data")
    write_dataset(plant(clean, "position", seed=0, cache_dir=tmp / "cache").planted, repo / "biased.json")
    _git(repo, env, "add", ".")
    _git(repo, env, "commit", "-qm", "biased data")
    return repo, env


@pytest.mark.slow
def test_the_gate_checks_the_changed_files_and_fails_on_the_biased_one(data_repo):
    repo, env = data_repo
    # as action.yml runs it: the files changed since the base commit, the rules file as input
    r = _gate(repo, env, "--rules", "rules.toml", "--changed-since", "HEAD~1", "--pattern", r"\.json$")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "== mrclens check biased.json" in r.stdout and "clean.json" not in r.stdout
    assert "FAIL    answer-position" in r.stdout
    r = _gate(repo, env, "--rules", "rules.toml", "clean.json")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "PASS    answer-position" in r.stdout
    r = _gate(repo, env, "--changed-since", "HEAD~1", "--pattern", r"\.parquet$")
    assert r.returncode == 0 and "no dataset file to check" in r.stdout
    (repo / "broken.json").write_text("{not json")
    try:  # a bad file and one that does not exist: exit 2 each, and the gate goes on to the next file
        r = _gate(repo, env, "broken.json", "missing.json", "clean.json")
    finally:
        (repo / "broken.json").unlink()
    assert r.returncode == 2 and "error: broken.json: file is not valid JSON" in r.stderr
    assert "Path 'missing.json' does not exist" in r.stderr and "== mrclens check clean.json" in r.stdout
    assert "mrclens check: exit 2 (1: a rule failed; 2: bad input; 3: a bug in MRCLens)" in r.stderr


@pytest.mark.slow
def test_the_pre_commit_hook_installs_itself_skips_other_json_and_fails_a_biased_file(data_repo, tmp_path):
    """Issue 44, item 1: the hook is `language: python`: pre-commit installs MRCLens (the light install, no torch)
    into an environment of its own from a clean PRE_COMMIT_HOME, with nothing on PATH but git and Python;
    package.json and dataset_infos.json are skipped with a note (they used to exit 2 and block the commit)."""
    repo, env = data_repo
    pre_commit = shutil.which("pre-commit", path=env["PATH"])
    if pre_commit is None or not (REPO / ".git").exists():
        pytest.skip("pre-commit is not installed, or this checkout is not a git repository")
    hooks = tmp_path / "mrclens-hooks"  # pre-commit needs the hook repository as a git repository: a clone of HEAD
    subprocess.run(["git", "clone", "-q", str(REPO), str(hooks)], env=env, check=True)
    assert (hooks / ".pre-commit-hooks.yaml").exists(), "commit the hook files first"
    # nothing of the test's environment: no mrclens on PATH, no PYTHONPATH; pins as `make install` has them
    hook_env = {k: v for k, v in env.items() if k != "PYTHONPATH"}
    hook_env.update(PATH=os.pathsep.join(p for p in env["PATH"].split(os.pathsep)[1:]),
                    PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"), PIP_CONSTRAINT=str(REPO / "constraints.txt"))
    assert shutil.which("mrclens", path=hook_env["PATH"]) is None

    def try_repo(*files: str) -> tuple[subprocess.CompletedProcess, float]:
        start = time.monotonic()
        r = subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(hooks), "mrclens-check", "--verbose", "--files", *files],
                           cwd=repo, env=hook_env, capture_output=True, text=True, timeout=900)
        return r, time.monotonic() - start

    # try-repo installs the hook's environment each time, in a store of its own (pip, from a clean pre-commit cache)
    r, first = try_repo("package.json", "dataset_infos.json", "clean.json", "biased.json")
    print(f"pre-commit try-repo (install from a clean cache + check 4 files): {first:.1f} s")
    assert r.returncode == 1, r.stdout + r.stderr  # biased.json fails; nothing else does
    assert "Failed" in r.stdout and "package.json: skipped, not a QA dataset" in r.stdout
    assert "dataset_infos.json: skipped" in r.stdout
    clean, biased = r.stdout.split("== mrclens check clean.json")[1].split("== mrclens check biased.json")
    assert "PASS    answer-position" in clean and "FAIL    answer-position" in biased
    # a user's .pre-commit-config.yaml with the rules file as input, as docs/ci-gate.md shows it
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=hooks, env=env, check=True, capture_output=True, text=True).stdout.strip()
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hooks}\n    rev: {rev}\n    hooks:\n      - id: mrclens-check\n"
        f"        files: \\.json$\n        args: [--rules, rules.toml]\n")

    def run(*files: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pre_commit", "run", "mrclens-check", "--verbose", "--files", *files],
                              cwd=repo, env=hook_env, capture_output=True, text=True, timeout=900)

    start = time.monotonic()
    r = run("clean.json", "package.json")
    print(f"pre-commit run (install into PRE_COMMIT_HOME + check): {time.monotonic() - start:.1f} s")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Passed" in r.stdout and "PASS    answer-position" in r.stdout
    env_dirs = list((tmp_path / "pre-commit-home").glob("repo*/py_env-*"))
    assert env_dirs and list(env_dirs[0].glob("lib/python*/site-packages/mrclens"))
    assert not list(env_dirs[0].glob("lib/python*/site-packages/torch")), "the hook installed torch"
    r = run("clean.json", "biased.json")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "== mrclens check biased.json" in r.stdout and "FAIL    answer-position" in r.stdout
    (repo / ".pre-commit-config.yaml").unlink()


# ------------------------------------------------------------------ issue 42, item 9: the gate's own contract
def _gate(cwd: Path, env, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*GATE, *args], cwd=cwd, env=env, capture_output=True, text=True)


@pytest.fixture
def one_commit_repo(tmp_path):
    """A git repository whose one commit adds data.json (not a dataset: nothing may get as far as checking it)."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    env = _env(tmp_path)
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, env, "init", "-q", "-b", "main")
    _git(repo, env, "commit", "-q", "--allow-empty", "-m", "empty")
    (repo / "data.json").write_text("{not json")
    _git(repo, env, "add", ".")
    _git(repo, env, "commit", "-qm", "data")
    return repo, env


@pytest.mark.parametrize("args, says", [
    (["--rules"], "--rules needs a value"),                      # was exit 1 (set -u: "$2: unbound variable")
    (["--check-arg"], "--check-arg needs a value"),
    (["--pattern"], "--pattern needs a value"),
    (["--rules", "", "data.json"], "--rules needs a value (got an empty one)"),
    (["--changed-since", ""], "--changed-since needs a value (got an empty one)"),  # was exit 0, nothing checked
    (["--changed-since=", "data.json"], "--changed-since needs a value (got an empty one)"),
    (["--bogus", "data.json"], "unknown option --bogus"),
    (["-dash.json"], "put it after '--'"),
    (["--rules", "no-such-rules.toml", "data.json"], "'no-such-rules.toml' does not exist"),  # once, not per file
])
def test_usage_errors_exit_2_with_the_usage_line_before_any_check(one_commit_repo, args, says):
    repo, env = one_commit_repo
    r = _gate(repo, env, *args)
    assert r.returncode == 2, r.stdout + r.stderr
    assert says in r.stderr and USAGE in r.stderr
    assert "== mrclens check" not in r.stdout  # refused before any file is checked


@pytest.mark.parametrize("pattern", ["(", "data[.json", "x{2,1}"])
def test_a_pattern_grep_cannot_compile_fails_instead_of_passing_green(one_commit_repo, pattern):
    repo, env = one_commit_repo
    # before issue 42: grep's error was swallowed (`|| true`), nothing matched, exit 0 "no dataset file to check"
    r = _gate(repo, env, "--changed-since", "HEAD~1", "--pattern", pattern)
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"--pattern '{pattern}'" in r.stderr and USAGE in r.stderr and "no dataset file" not in r.stdout
    r = _gate(repo, env, f"--pattern={pattern}", "data.json")  # refused even when no diff is asked for
    assert r.returncode == 2 and "== mrclens check" not in r.stdout
    r = _gate(repo, env, "--changed-since", "HEAD~1", "--pattern", r"\.parquet$")  # a good one that matches nothing
    assert r.returncode == 0 and "no dataset file to check" in r.stdout


@pytest.mark.slow
def test_a_file_named_like_an_option_is_checked_as_a_file(data_repo):
    repo, env = data_repo
    dash = repo / "-dash.json"
    shutil.copy(repo / "clean.json", dash)
    try:
        r = _gate(repo, env, "--rules", "rules.toml", "--", "-dash.json")  # was: mrclens "No such option '-d'"
        assert r.returncode == 0, r.stdout + r.stderr
        assert "== mrclens check -dash.json" in r.stdout and "PASS    answer-position" in r.stdout
    finally:
        dash.unlink()


@pytest.mark.slow
def test_check_arg_passes_mrclens_check_options_on(tmp_path):
    env = _env(tmp_path)
    es = write_squad(tmp_path, "es")
    r = _gate(tmp_path, env, "es.json")
    assert r.returncode == 2 and "pass --language-ok" in r.stderr and "--check-arg" in r.stderr
    r = _gate(tmp_path, env, "--check-arg", "--language-ok", "--check-arg=--json", "--", es.name)
    assert r.returncode == 0, r.stdout + r.stderr
    report = json.loads(r.stdout.split("\n", 1)[1])  # after the "== mrclens check es.json" line
    assert report["passed"] and report["data"] == "es.json"
    assert "only (--language-ok)" in r.stderr


@pytest.mark.slow
def test_the_action_passes_check_args_and_files_as_files(tmp_path):
    """The action's own run step (from action.yml), with its inputs as the environment GitHub sets."""
    yaml = pytest.importorskip("yaml")
    action = yaml.safe_load((REPO / "action.yml").read_text())
    assert "check-args" in action["inputs"]
    [step] = [s for s in action["runs"]["steps"] if s["name"] == "mrclens check"]
    run = step["run"].replace("${{ github.action_path }}", str(REPO))
    write_squad(tmp_path, "es")
    shutil.copy(tmp_path / "es.json", tmp_path / "-es.json")
    env = _env(tmp_path)
    env.update(RULES="", PATTERN=action["inputs"]["pattern"]["default"], BASE="", FILES="es.json -es.json")
    r = subprocess.run(["bash", "-c", run], cwd=tmp_path, env={**env, "CHECK_ARGS": ""}, capture_output=True, text=True)
    assert r.returncode == 2 and "pass --language-ok" in r.stderr
    r = subprocess.run(["bash", "-c", run], cwd=tmp_path, env={**env, "CHECK_ARGS": "--language-ok -q"},
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    # both files pass the gate (6 questions each: the duplicates share is too small to tell, issue 44, which is no failure)
    assert r.stdout.count(", 0 fail") == 2 and "== mrclens check -es.json" in r.stdout
    # one path per line (a YAML block scalar): a path may hold spaces (issue 55)
    shutil.copy(tmp_path / "es.json", tmp_path / "my data.json")
    r = subprocess.run(["bash", "-c", run], cwd=tmp_path, capture_output=True, text=True,
                       env={**env, "FILES": "my data.json\n\nes.json\n", "CHECK_ARGS": "--language-ok -q"})
    assert r.returncode == 0 and r.stdout.count(", 0 fail") == 2 and "== mrclens check my data.json" in r.stdout, (
        r.stdout + r.stderr)


# ------------------------------------------------------------------ issue 44, item 1: the Action's base and set-up
NO_BASE = "0" * 40


def test_the_action_sets_up_python_and_caches_pip_and_the_parse_cache():
    yaml = pytest.importorskip("yaml")
    action = yaml.safe_load((REPO / "action.yml").read_text())
    steps = {s["name"]: s for s in action["runs"]["steps"]}
    assert steps["Set up Python"]["uses"].startswith("actions/setup-python@")
    assert steps["Set up Python"]["with"]["python-version"] == "${{ inputs.python-version }}"
    assert steps["Cache pip downloads"]["uses"].startswith("actions/cache@")
    assert steps["Cache MRCLens parses"]["with"]["path"] == "${{ steps.keys.outputs.parse-dir }}"
    keys = steps["Cache keys"]["run"]
    assert "MRCLENS_CACHE_DIR=" in keys and "GITHUB_ENV" in keys  # the cached folder is the one mrclens uses
    # the light install, pinned: no torch (setup.cfg's install_requires has none)
    assert '-c "${{ github.action_path }}/constraints.txt"' in steps["Install MRCLens"]["run"]
    names = list(steps)
    assert names.index("Set up Python") < names.index("Cache pip downloads") < names.index("Install MRCLens")


def _action_run(repo: Path, env: dict, base: str) -> subprocess.CompletedProcess:
    yaml = pytest.importorskip("yaml")
    action = yaml.safe_load((REPO / "action.yml").read_text())
    [step] = [s for s in action["runs"]["steps"] if s["name"] == "mrclens check"]
    run = step["run"].replace("${{ github.action_path }}", str(REPO))
    env = {**env, "RULES": "rules.toml", "PATTERN": action["inputs"]["pattern"]["default"], "BASE": base,
           "FILES": "", "CHECK_ARGS": ""}
    return subprocess.run(["bash", "-c", run], cwd=repo, env=env, capture_output=True, text=True)


@pytest.mark.slow
@pytest.mark.parametrize("base, says", [
    (NO_BASE, f"base {NO_BASE} (a branch's first push: no base commit): checking every tracked file"),
    ("", "no base commit given (not a push or a pull request): checking every tracked file"),
])
def test_a_first_push_or_no_base_checks_every_matching_file_and_says_so(data_repo, base, says):
    """Before: base 000…0 exited 2 with "fetch the history" (wrong: there is no base), an empty base passed
    with nothing checked."""
    repo, env = data_repo
    r = _action_run(repo, env, base)
    assert r.returncode == 1, r.stdout + r.stderr  # biased.json fails; the other files are checked too
    assert says in r.stderr
    for name in ("biased.json", "clean.json", "package.json", "dataset_infos.json"):
        assert f"== mrclens check {name}" in r.stdout
    assert "package.json: skipped, not a QA dataset" in r.stderr and "FAIL    answer-position" in r.stdout
    assert "fetch the history" not in r.stderr


def test_a_base_that_is_no_commit_exits_2_naming_it(one_commit_repo):
    repo, env = one_commit_repo
    r = _gate(repo, env, "--changed-since", "1234567890abcdef1234567890abcdef12345678")
    assert r.returncode == 2 and "base 1234567890abcdef1234567890abcdef12345678 is not a commit" in r.stderr
    r = _gate(repo, env, "--changed-since", "HEAD~1", "--all")
    assert r.returncode == 2 and "exclude each other" in r.stderr and USAGE in r.stderr


@pytest.mark.slow
def test_the_gate_skips_json_that_is_no_dataset_but_fails_broken_json(data_repo):
    repo, env = data_repo
    r = _gate(repo, env, "package.json", "dataset_infos.json")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "package.json: skipped, not a QA dataset (one JSON object with keys ['name', 'private', 'version']" in r.stderr
    assert "dataset_infos.json: skipped" in r.stderr
    (repo / "broken.json").write_text('{"name": "x",')  # no valid JSON: it may be a damaged dataset
    try:
        r = _gate(repo, env, "broken.json")
    finally:
        (repo / "broken.json").unlink()
    assert r.returncode == 2 and "broken.json" in r.stderr


# ------------------------------------------------------------------ issue 55, items 2, 3, 4 and 12
@pytest.fixture(scope="module")
def odd_names_repo(tmp_path_factory):
    """A git repository whose second commit adds, under data/, three clean datasets (one sample article each)
    whose names hold a non-ASCII character, a space and a quote (git quotes such names without -z), a dataset
    whose first line is blank, a Git LFS pointer, a tsconfig.json with comments, and a file in a subdirectory."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    from mrclens.formats import load_dataset
    from mrclens.squad import Dataset, write_dataset

    tmp = tmp_path_factory.mktemp("gate55")
    env = _env(tmp)
    repo = tmp / "repo"
    (repo / "data" / "sub").mkdir(parents=True)
    _git(repo, env, "init", "-q", "-b", "main")
    (repo / "README.md").write_text("data\n")
    _git(repo, env, "add", ".")
    _git(repo, env, "commit", "-qm", "start")
    sample = load_dataset(SAMPLE)
    for k, name in enumerate(["données.json", "日本語 set.json", 'q"uote.json']):
        write_dataset(Dataset(sample.articles[k:k + 1], sample.version), repo / "data" / name)
    blank = repo / "data" / "sub" / "blank-first-line.json"
    write_dataset(Dataset(sample.articles[3:4], sample.version), blank)
    blank.write_text("\n" + blank.read_text())
    (repo / "data" / "train.parquet").write_text(
        "version https://git-lfs.github.com/spec/v1\noid sha256:" + "4d7a2146" * 8 + "\nsize 48213\n")
    (repo / "tsconfig.json").write_text('{\n  // TypeScript\n  "compilerOptions": {"strict": true,},\n}\n')
    _git(repo, env, "add", ".")
    _git(repo, env, "commit", "-qm", "data")
    return repo, env


ODD_CLEAN = ["données.json", "日本語 set.json", 'q"uote.json', "sub/blank-first-line.json"]


@pytest.mark.slow
@pytest.mark.parametrize("mode", [["--changed-since", "HEAD~1"], ["--all"]])
def test_every_changed_file_is_checked_whatever_its_name_and_from_a_subdirectory(odd_names_repo, mode):
    """Item 2: `git diff --name-only` quoted "data/donn\\303\\251es.json", the pattern dropped it ("no dataset
    file to check", exit 0); a run from a subdirectory said a changed file did not exist. Item 3: an LFS
    pointer exits 2 naming `lfs: true`, tsconfig.json is skipped with a note. Item 4: the blank first line."""
    repo, env = odd_names_repo
    runs = [(repo, "data/"), (repo / "data" / "sub", "../../data/")]  # git's paths, named from where it runs
    for cwd, prefix in runs if mode[0] == "--changed-since" else runs[1:]:
        r = _gate(cwd, env, *mode, "--check-arg=-q")
        out = r.stdout + r.stderr
        assert r.returncode == 2, out  # the LFS pointer; every dataset passes
        for name in ODD_CLEAN:
            assert f"== mrclens check {prefix}{name}\n" in r.stdout, (name, out)
        assert r.stdout.count(", 0 fail") == 4, out  # each dataset read and checked (none fails)
        assert "train.parquet: this is a Git LFS pointer" in r.stderr and "lfs: true" in r.stderr
        assert "tsconfig.json: skipped, not a QA dataset (JSON with comments" in r.stderr
        assert "does not exist" not in out and "cannot tell the format" not in out


_CONSOLE_SCRIPT = "import sys; from mrclens.cli.gate import main; sys.exit(main())"


@pytest.mark.slow
def test_the_console_script_takes_a_staged_dash_file_after_the_hooks_args(data_repo):
    """Item 12 of issue 55: a staged `-dash.json` (pre-commit passes `--rules rules.toml clean.json -dash.json`)
    was a usage error."""
    repo, env = data_repo
    shutil.copy(repo / "clean.json", repo / "-dash.json")
    try:
        r = subprocess.run([sys.executable, "-c", _CONSOLE_SCRIPT, "--rules", "rules.toml", "clean.json", "-dash.json"],
                           cwd=repo, env=env, capture_output=True, text=True)
    finally:
        (repo / "-dash.json").unlink()
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("PASS    answer-position") == 2 and "== mrclens check -dash.json" in r.stdout


#: The console script with the first check made slow (it says when it started, then waits): the check runs
#: in the gate's own process, so the gate's Ctrl-C is the one tested.
_SLOW_CONSOLE_SCRIPT = """\
import os, pathlib, sys, time
import mrclens.checks

def slow_check(*args, **kwargs):
    pathlib.Path(os.environ["STARTED"]).touch()
    time.sleep(60)

mrclens.checks.run_check = slow_check
from mrclens.cli.gate import main
sys.exit(main())
"""

_TINY_SQUAD = {"version": "1.1", "data": [{"title": "T", "paragraphs": [{"context": "Paris is in France.", "qas": [
    {"id": "q1", "question": "Where is Paris?", "answers": [{"text": "France", "answer_start": 12}]}]}]}]}


def test_ctrl_c_ends_the_gate_with_one_line_and_exit_130_before_the_next_file(tmp_path):
    """Item 12 of issue 55: Ctrl-C printed a 20-line traceback. A terminal's Ctrl-C reaches the whole process group."""
    import signal

    started = tmp_path / "started"
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text(json.dumps(_TINY_SQUAD))
    env = {**_env(tmp_path), "STARTED": str(started)}
    # as from a terminal: Ctrl-C is not ignored (a job a shell starts in the background inherits SIGINT ignored,
    # and Python then installs no KeyboardInterrupt handler: that is no terminal a user presses Ctrl-C in)
    proc = subprocess.Popen([sys.executable, "-c", _SLOW_CONSOLE_SCRIPT, "--check-arg=-q", "a.json", "b.json"],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout.readline() == "== mrclens check a.json\n"
    deadline = time.monotonic() + 60  # Ctrl-C while the check runs, however loaded the machine (not a fixed wait)
    while not started.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert started.exists(), proc.communicate(timeout=30)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "mrclens-ci-check: interrupted (Ctrl-C)" in err
    assert len(err.strip().splitlines()) <= 2, err  # `mrclens check`'s own "interrupted", and the gate's line
    assert "b.json" not in out  # stopped: the next file is not checked


def test_the_docs_list_every_option_of_the_gate():
    """The gate's options are read from its parser (gate_options, no second list); the docs name each one."""
    from mrclens.cli.gate import gate_options

    valued, flags = gate_options()
    assert "--rules" in valued and "--check-arg" in valued and "--all" in flags and "--github" in flags
    text = (REPO / "docs" / "ci-gate.md").read_text(encoding="utf-8")
    assert [o for o in (*valued, *flags) if o not in ("-h", "--help") and f"`{o}" not in text] == []


# ------------------------------------------------------------------ issue 57, items 5 and 6: one process, GitHub
@pytest.mark.slow
def test_the_gate_checks_every_file_in_one_process_loading_spacy_once(tmp_path, monkeypatch, capsys):
    """Three files, one process: spaCy loads its pipelines for the first file only (before issue 57 each file
    was a new `mrclens check` process that imported and loaded everything again)."""
    import spacy

    from mrclens import nlp
    from mrclens.cli import gate
    from mrclens.formats import load_dataset
    from mrclens.squad import Dataset, write_dataset

    sample = load_dataset(SAMPLE)
    names = []
    for k in range(3):  # a different article each: no file's parses are in the cache for another
        write_dataset(Dataset(sample.articles[k:k + 1], sample.version), tmp_path / f"article-{k}.json")
        names.append(str(tmp_path / f"article-{k}.json"))
    loads = []
    real_load = spacy.load
    monkeypatch.setattr(spacy, "load", lambda name, *a, **kw: loads.append(name) or real_load(name, *a, **kw))
    monkeypatch.setenv("MRCLENS_CACHE_DIR", str(tmp_path / "cache"))
    for var in GITHUB_VARIABLES:
        monkeypatch.delenv(var, raising=False)
    nlp.load_pipeline.cache_clear()
    assert gate.main(["--check-arg=-q", names[0]]) == 0
    first = len(loads)
    assert first >= 1  # the first file loads the pipeline(s) it needs
    capsys.readouterr()
    nlp.load_pipeline.cache_clear()
    loads.clear()
    assert gate.main(["--check-arg=-q", *names]) == 0
    out = capsys.readouterr().out
    assert len(loads) == first, loads  # three files, the loads of one
    assert [f"== mrclens check {n}" in out for n in names] == [True] * 3 and out.count("no rule fails") == 3


@pytest.mark.slow
def test_in_github_actions_failing_files_are_annotated_and_a_job_summary_is_appended(data_repo, tmp_path):
    repo, env = data_repo
    summary = tmp_path / "summary.md"
    summary.write_text("## an earlier step\n", encoding="utf-8")
    github = {**env, "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_WORKSPACE": str(repo)}
    files = ["clean.json", "biased.json", "package.json", "broken.json"]
    (repo / "broken.json").write_text("{not json")
    try:
        r = subprocess.run([*GATE, "--rules", "rules.toml", *files], cwd=repo, env=github, capture_output=True, text=True)
        off = subprocess.run([*GATE, "--no-github", "--rules", "rules.toml", *files], cwd=repo, env=github,
                             capture_output=True, text=True)
    finally:
        (repo / "broken.json").unlink()
    assert r.returncode == 2, r.stdout + r.stderr
    failing = ("::error file=biased.json,title=mrclens check%3A 1 rule(s) fail::FAIL    answer-position: ")
    assert failing in r.stdout
    [line] = [x for x in r.stdout.splitlines() if x.startswith(failing)]
    assert line.endswith("%0A        means: answers cluster in the first sentences far beyond chance")
    # after its file's report, before the next file's
    assert r.stdout.index("== mrclens check biased.json") < r.stdout.index(failing) < r.stdout.index(
        "== mrclens check package.json")
    assert ("::error file=broken.json,title=mrclens check%3A bad input (exit 2)::broken.json: file is not valid JSON"
            in r.stdout)
    assert "file=clean.json" not in r.stdout and "file=package.json" not in r.stdout  # a pass, a skip: no annotation
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("## an earlier step\n### MRCLens check: exit 2, 2 of 4 file(s) fail\n")
    assert "| `clean.json` | pass | 1 pass |" in text and "| `biased.json` | FAIL | answer-position: 1 fail |" in text
    assert "| `package.json` | skipped | not a QA dataset (one JSON object with keys ['name', 'private', 'version']" in text
    assert "| `broken.json` | bad input | broken.json: file is not valid JSON" in text
    # --no-github: the same checks, no annotation; the summary was appended to once, by the first run
    assert off.returncode == 2 and "::error" not in off.stdout and text.count("### MRCLens check") == 1


def test_the_job_summary_of_no_file_and_one_that_cannot_be_written(tmp_path, monkeypatch, capsys):
    from mrclens.cli import gate

    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    assert gate.main([]) == 0
    assert summary.read_text(encoding="utf-8") == "### MRCLens check: exit 0\n\nNo dataset file to check.\n\n"
    assert "no dataset file to check" in capsys.readouterr().out
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path))  # a folder: the summary cannot be written
    assert gate.main([]) == 0  # the status stays the checks'
    assert "cannot append the job summary to $GITHUB_STEP_SUMMARY" in capsys.readouterr().err


def test_annotations_point_at_the_file_from_the_workspace(tmp_path, monkeypatch):
    """The gate names a file from where it runs (``../data/x.json`` from a subfolder); GitHub wants it from the
    workspace. A comma or a colon in a name is escaped, so the property ends where it should."""
    from mrclens.cli.gate_report import FileResult, annotation, workspace_path

    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    assert workspace_path("../data/x.json") == "data/x.json"
    assert workspace_path("/elsewhere/x.json") == "/elsewhere/x.json"
    bad = FileResult("../data/a,b:c.json", 2, error="a.json: file is not valid JSON\n(line 1)")
    assert annotation(bad) == ("::error file=data/a%2Cb%3Ac.json,title=mrclens check%3A bad input (exit 2)::"
                               "a.json: file is not valid JSON%0A(line 1)")
    assert annotation(FileResult("x.json", 0, skipped="no 'data' list")) is None
    assert annotation(FileResult("x.json", 3)).startswith("::error file=sub/x.json,title=mrclens check%3A a bug")


def test_the_snippets_name_the_release_tag_of_this_version():
    """The pre-commit and Action snippets pin `v<version>` (setup.cfg's version: the tag made at release)."""
    import configparser
    import re

    cfg = configparser.ConfigParser()
    cfg.read(REPO / "setup.cfg", encoding="utf-8")
    tag = "v" + cfg["metadata"]["version"]
    revs = {}
    for name in ("README.md", "docs/ci-gate.md", ".pre-commit-hooks.yaml", "action.yml"):
        text = (REPO / name).read_text(encoding="utf-8")
        revs[name] = re.findall(r"rev: (\S+)", text) + re.findall(r"uses: \S*/mrclens@(\S+)", text)
    assert revs[".pre-commit-hooks.yaml"] and revs["action.yml"] and revs["docs/ci-gate.md"]
    assert {rev for found in revs.values() for rev in found} == {tag}, revs
