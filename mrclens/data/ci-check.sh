#!/usr/bin/env bash
# MRCLens CI gate: run `mrclens check` (model-free, seconds per file) on dataset files; exit with the
# worst status: 0 every rule passes, 1 a rule fails (a finding about the data), 2 bad input (a bad file,
# or a bad use of this script), 3 a bug. A file that is surely no QA dataset by its content (package.json,
# dataset_infos.json, croissant.json, tsconfig.json with comments, a Plotly figure, JSON Lines of other
# records) is skipped with a note on stderr (`mrclens check --skip-non-dataset`), never failed; a file that
# is no valid JSON (empty, plain text, a Git LFS pointer) is still checked and fails (docs/ci-gate.md).
#
# Used by the pre-commit hook (.pre-commit-hooks.yaml: the `mrclens-ci-check` console script runs this file;
# pre-commit passes the staged files) and by the GitHub Actions composite action (action.yml: the files a
# change touches, from `git diff`). The file is mrclens/data/ci-check.sh (installed with the package);
# scripts/ci-check.sh links to it.
#
# Usage: ci-check.sh [--rules FILE] [--changed-since REF | --all] [--pattern REGEX] [--check-arg ARG]... [--] [FILE ...]
#   --rules FILE         the `mrclens check --rules` file (default: MRCLens's default rules)
#   --changed-since REF  also check the files changed between REF and HEAD (added, copied, modified,
#                        renamed; `git diff -z --name-only --diff-filter=ACMR REF HEAD`) that match --pattern.
#                        REF 0000000000000000000000000000000000000000 (GitHub's base of a branch's first
#                        push: there is no base commit) checks every tracked file that matches, as --all,
#                        and says so
#   --all                also check every tracked file of the repository (`git ls-files -z` at its top
#                        level) that matches --pattern
#   --pattern REGEX      extended regex (grep -E) for --changed-since and --all, matched against each path
#                        relative to the repository's top level, whatever the directory the script runs in
#                        (default: SQuAD/flat dataset file names); a regex grep cannot compile is a usage
#                        error (exit 2). Paths come from git NUL-separated: any character in a name is fine
#   --check-arg ARG      pass ARG on to every `mrclens check` run (repeat it for several), e.g.
#                        `--check-arg --language-ok` for data not in English, or
#                        `--check-arg --dev=dev.json`, `--check-arg --on-invalid=skip`
#   --                   ends the options: every later argument is a file name, even one starting with '-'
#   -h, --help           print this help
# Each option also takes the form --option=VALUE. The first argument that is not an option starts the
# file names; mrclens gets each file name after `--` (`mrclens check [OPTIONS] -- FILE`), so a file named
# `-dash.json` is read as a file. A usage error (unknown option, missing or empty value, bad --pattern)
# prints the usage line and exits 2 before anything is checked.
# Environment: MRCLENS — the command to run, split on whitespace (default `mrclens`, which must be on PATH:
# the environment must have MRCLens installed), e.g. MRCLENS="python -m mrclens.cli"; MRCLENS_PYTHON — when
# MRCLENS is not set, the Python to run `-m mrclens.cli` with, one path that may hold spaces (the
# `mrclens-ci-check` console script sets it to its own interpreter).
set -u

USAGE="usage: ci-check.sh [--rules FILE] [--changed-since REF | --all] [--pattern REGEX] [--check-arg ARG]... [--] [FILE ...]"
NO_BASE=0000000000000000000000000000000000000000

usage_error() {  # a bad use of this script: the reason and the usage line on stderr, exit 2
  echo "ci-check.sh: $1" >&2
  echo "$USAGE" >&2
  exit 2
}

rules=()
check_args=()
since=""
all=0
pattern='\.(json|jsonl|json\.gz|jsonl\.gz|parquet)$'
while [ $# -gt 0 ]; do
  case "$1" in
    --rules|--changed-since|--pattern|--check-arg)
      [ $# -ge 2 ] || usage_error "$1 needs a value"
      opt="$1"; val="$2"; shift 2 ;;
    --rules=*|--changed-since=*|--pattern=*|--check-arg=*)
      opt="${1%%=*}"; val="${1#*=}"; shift ;;
    --all) all=1; shift; continue ;;
    -h|--help) sed -n '2,/^set -u$/p' "$0" | sed -e '/^set -u$/d' -e 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    -*) usage_error "unknown option $1 (a file name that starts with '-': put it after '--', or write ./$1)" ;;
    *) break ;;
  esac
  [ -n "$val" ] || usage_error "$opt needs a value (got an empty one)"
  case "$opt" in
    --rules) rules=(--rules "$val") ;;
    --changed-since) since="$val" ;;
    --pattern) pattern="$val" ;;
    --check-arg) check_args+=("$val") ;;
  esac
done

# a regex grep cannot compile makes grep exit 2 whatever the input: refuse it before any work
err=$(grep -E -- "$pattern" </dev/null 2>&1 >/dev/null)
[ $? -gt 1 ] && usage_error "--pattern '$pattern' is not an extended regex grep can use: $err"

[ -n "$since" ] && [ "$all" -eq 1 ] && usage_error "--changed-since and --all exclude each other"
if [ "$since" = "$NO_BASE" ]; then
  echo "ci-check.sh: base $NO_BASE (a branch's first push: no base commit): checking every tracked file that matches --pattern" >&2
  since=""
  all=1
fi

files=("$@")
if [ -n "$since" ] || [ "$all" -eq 1 ]; then
  # paths from git are NUL-separated (-z: a name with a non-ASCII character, a quote or a newline comes as it
  # is, never quoted), relative to the top level (as --pattern sees them), then named from here (a run from a
  # subdirectory gets ../data/x.json)
  if ! top=$(git rev-parse --show-toplevel 2>/dev/null) || ! up=$(git rev-parse --show-cdup 2>/dev/null); then
    echo "ci-check.sh: --changed-since/--all: not in a git repository (git rev-parse --show-toplevel failed)" >&2
    exit 2
  fi
  listed=$(mktemp) || { echo "ci-check.sh: cannot make a temporary file (mktemp)" >&2; exit 2; }
  trap 'rm -f "$listed" "$listed.m"' EXIT
  if [ "$all" -eq 1 ]; then
    if ! git -C "$top" ls-files -z >"$listed"; then
      echo "ci-check.sh: --all: cannot list the tracked files (git ls-files failed)" >&2
      exit 2
    fi
  elif ! git rev-parse --verify --quiet "$since^{commit}" >/dev/null; then
    echo "ci-check.sh: base $since is not a commit in this clone (fetch the history: actions/checkout with fetch-depth: 0; after a force push the old base is gone: give --all)" >&2
    exit 2
  elif ! git -C "$top" diff -z --name-only --diff-filter=ACMR "$since" HEAD >"$listed"; then
    echo "ci-check.sh: cannot list the files changed since $since" >&2
    exit 2
  fi
  grep -z -E -- "$pattern" <"$listed" >"$listed.m"
  if [ $? -gt 1 ]; then  # 0: some matched, 1: none matched, 2: grep failed
    echo "ci-check.sh: grep -z -E failed on --pattern $pattern" >&2
    exit 2
  fi
  while IFS= read -r -d '' f; do
    [ -n "$f" ] && files+=("$up$f")
  done <"$listed.m"
fi

if [ ${#files[@]} -eq 0 ]; then
  echo "mrclens check: no dataset file to check"
  exit 0
fi

if [ -n "${MRCLENS:-}" ]; then
  read -r -a mrclens <<< "$MRCLENS"  # a command line, split on whitespace
elif [ -n "${MRCLENS_PYTHON:-}" ]; then
  mrclens=("$MRCLENS_PYTHON" -m mrclens.cli)  # one path, spaces and all (the console script sets it)
else
  mrclens=(mrclens)
fi
status=0
for f in "${files[@]}"; do
  echo "== mrclens check $f"
  "${mrclens[@]}" check --skip-non-dataset ${rules[@]+"${rules[@]}"} ${check_args[@]+"${check_args[@]}"} -- "$f"
  rc=$?
  [ "$rc" -gt "$status" ] && status=$rc
done
if [ "$status" -ne 0 ]; then
  echo "mrclens check: exit $status (1: a rule failed; 2: bad input; 3: a bug in MRCLens)" >&2
  [ "$status" -eq 2 ] && echo "ci-check.sh: an option of \`mrclens check\` it asks for (e.g. --language-ok) goes through --check-arg" >&2
fi
exit "$status"
