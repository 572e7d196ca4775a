#!/usr/bin/env bash
# Audit any model with MRCLens: perturb -> run your model on each file -> evaluate.
#
# Usage: examples/audit_external_model.sh DATA [OUT_DIR] [MODEL_NAME]
#   DATA      a SQuAD-format evaluation file (.json or .json.gz), e.g. dev-v1.1.json.gz
#   OUT_DIR   where everything goes (default: mrclens-external); afterwards it holds
#             perturbed/ (the sets), predictions/ (one file per set), results.json, results.csv
#
# Step 2 runs examples/tfidf_sentence_model.py, a rule-based stand-in: replace that line with
# your own model, writing OUT_DIR/predictions/<set>.json = {"question id": "answer text"}
# for every OUT_DIR/perturbed/<set>.json.
set -euo pipefail

DATA=${1:?usage: $0 DATA [OUT_DIR] [MODEL_NAME]}
OUT=${2:-mrclens-external}
MODEL_NAME=${3:-tf-idf sentence (rule-based)}
PYTHON=${PYTHON:-python}
HERE=$(cd "$(dirname "$0")" && pwd)

# 1. the evaluation sets: original, original-truncated, e1 ... e8 (+ manifest.json)
mrclens perturb "$DATA" --out "$OUT/perturbed" --quiet

# 2. your model: one official-format prediction file per set
"$PYTHON" "$HERE/tfidf_sentence_model.py" "$OUT/perturbed" "$OUT/predictions"

# 3. F1 drops, paired bootstrap 95% CIs, readings -> results.json, results.csv (+ report.html)
mrclens evaluate "$OUT/perturbed" --predictions-dir "$OUT/predictions" --out "$OUT" --model-name "$MODEL_NAME"
