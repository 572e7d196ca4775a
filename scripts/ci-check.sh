#!/usr/bin/env bash
# MRCLens CI gate: run `mrclens check` (model-free, seconds per file) on dataset files; exit with the
# worst status: 0 every rule passes, 1 a rule fails (a finding about the data), 2 bad input, 3 a bug.
#
# Used by the pre-commit hook (.pre-commit-hooks.yaml: pre-commit passes the staged files) and by the
# GitHub Actions composite action (action.yml: the files a change touches, from `git diff`).
#
# Usage: ci-check.sh [--rules FILE] [--changed-since REF] [--pattern REGEX] [FILE ...]
#   --rules FILE         the `mrclens check --rules` file (default: MRCLens's default rules)
#   --changed-since REF  also check the files changed between REF and HEAD (added, copied, modified,
#                        renamed; `git diff --name-only --diff-filter=ACMR REF HEAD`) that match --pattern
#   --pattern REGEX      extended regex for --changed-since (default: SQuAD/flat dataset file names)
# Environment: MRCLENS — the command to run (default `mrclens`, which must be on PATH: the environment
# must have MRCLens installed), e.g. MRCLENS="python -m mrclens.cli".
set -u

rules=()
since=""
pattern='\.(json|jsonl|json\.gz|jsonl\.gz|parquet)$'
while [ $# -gt 0 ]; do
  case "$1" in
    --rules) rules=(--rules "$2"); shift 2 ;;
    --rules=*) rules=(--rules "${1#*=}"); shift ;;
    --changed-since) since="$2"; shift 2 ;;
    --pattern) pattern="$2"; shift 2 ;;
    --) shift; break ;;
    -*) echo "ci-check.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done

files=("$@")
if [ -n "$since" ]; then
  if ! changed=$(git diff --name-only --diff-filter=ACMR "$since" HEAD); then
    echo "ci-check.sh: cannot list the files changed since $since (fetch the history: actions/checkout with fetch-depth: 0)" >&2
    exit 2
  fi
  while IFS= read -r f; do
    [ -n "$f" ] && files+=("$f")
  done < <(printf '%s\n' "$changed" | grep -E -- "$pattern" || true)
fi

if [ ${#files[@]} -eq 0 ]; then
  echo "mrclens check: no dataset file to check"
  exit 0
fi

read -r -a mrclens <<< "${MRCLENS:-mrclens}"
status=0
for f in "${files[@]}"; do
  echo "== mrclens check $f"
  "${mrclens[@]}" check "$f" ${rules[@]+"${rules[@]}"}
  rc=$?
  [ "$rc" -gt "$status" ] && status=$rc
done
if [ "$status" -ne 0 ]; then
  echo "mrclens check: exit $status (1: a rule failed; 2: bad input; 3: a bug in MRCLens)" >&2
fi
exit "$status"
