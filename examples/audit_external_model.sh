#!/usr/bin/env bash
# Audit any model with MRCLens: perturb -> run your model on each file -> evaluate.
#
# Usage: examples/audit_external_model.sh [--dry-run] DATA [OUT_DIR] [MODEL_NAME]
#   DATA       a SQuAD-format evaluation file (any format MRCLens reads), e.g. dev-v1.1.json.gz
#   OUT_DIR    where everything goes (default: mrclens-external); afterwards it holds
#              perturbed/ (the sets), predictions/ (one file per set), results.json, results.csv
#   --dry-run  print the three commands instead of running them
#
# Runs from a fresh clone after `make demo` (or `make install`): MRCLens is run as
# "$PYTHON -m mrclens.cli", with PYTHON the clone's .venv/bin/python when there (else python3;
# set PYTHON to use another environment); nothing needs to be on PATH.
#
# Step 2 runs examples/tfidf_sentence_model.py, a rule-based stand-in: replace that line with
# your own model, writing OUT_DIR/predictions/<set>.json = {"question id": "answer text"}
# for every OUT_DIR/perturbed/<set>.json.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(dirname "$HERE")
DRY_RUN=0
if [[ "${1:-}" == "--dry-run" ]]; then DRY_RUN=1; shift; fi
if [[ $# -lt 1 || "$1" == -* ]]; then
    echo "usage: $0 [--dry-run] DATA [OUT_DIR] [MODEL_NAME]" >&2
    exit 2
fi
DATA=$1
OUT=${2:-mrclens-external}
MODEL_NAME=${3:-tf-idf sentence (rule-based)}
if [[ -z "${PYTHON:-}" ]]; then
    if [[ -x "$REPO/.venv/bin/python" ]]; then PYTHON="$REPO/.venv/bin/python"; else PYTHON=python3; fi
fi

run() {
    if [[ $DRY_RUN == 1 ]]; then
        local line
        line=$(printf '%q ' "$@")
        echo "${line% }"
    else
        "$@"
    fi
}

# 1. the evaluation sets: original, original-truncated, the ablations e1 ... e10 and their
#    matched controls c1, c2, c4 (e4's question-removed reference), c6 ... c10 (+ manifest.json)
run "$PYTHON" -m mrclens.cli perturb "$DATA" --out "$OUT/perturbed" --quiet

# 2. your model: one official-format prediction file per set
run "$PYTHON" "$HERE/tfidf_sentence_model.py" "$OUT/perturbed" "$OUT/predictions"

# 3. F1 drops, paired bootstrap 95% CIs, readings -> results.json, results.csv (+ report.html)
run "$PYTHON" -m mrclens.cli evaluate "$OUT/perturbed" --predictions-dir "$OUT/predictions" --out "$OUT" \
    --model-name "$MODEL_NAME"
