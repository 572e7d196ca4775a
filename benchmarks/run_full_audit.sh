#!/usr/bin/env bash
# The real run of issue 5: a full audit of SQuAD v1.1 (train 87,599 questions, dev 10,570),
# timed with /usr/bin/time (wall, peak RSS). Usage: benchmarks/run_full_audit.sh [OUT_DIR] [extra audit options]
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${MRCLENS_SHARED_DATA:-../shared/data}
OUT=${1:-runs/squad-v1.1-audit}; shift || true
mkdir -p "$(dirname "$OUT")"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -v .venv/bin/mrclens audit "$DATA/squad/train-v1.1.json.gz" --dev "$DATA/squad/dev-v1.1.json.gz" \
    --out "$OUT" "$@" 2> >(tee "$OUT.time.log" >&2)
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
grep -E "Elapsed|Maximum resident" "$OUT.time.log"
