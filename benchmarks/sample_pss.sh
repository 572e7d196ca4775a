#!/usr/bin/env bash
# Memory of a running `mrclens audit` with all its processes (issue 21): every 15 s, the sum of the
# proportional set sizes (PSS, kB; shared pages split between the processes sharing them) of the
# processes whose command line contains "bin/mrclens audit", and the running maximum, appended to LOG.
# Stops when no such process is left. Start it beside benchmarks/run_full_audit.sh:
#   benchmarks/sample_pss.sh /tmp/runs/default-s0.pss.log &
set -u
LOG=${1:?usage: benchmarks/sample_pss.sh LOG}
max=0
while pgrep -f "bin/mrclens audit" >/dev/null; do
  s=0
  for p in $(pgrep -f "bin/mrclens audit"); do
    v=$(awk '/^Pss:/{print $2}' "/proc/$p/smaps_rollup" 2>/dev/null); s=$((s + ${v:-0}))
  done
  if [ "$s" -gt "$max" ]; then max=$s; fi
  echo "$(date +%T) pss_sum_kB=$s max_kB=$max n=$(pgrep -f 'bin/mrclens audit' | wc -l)" >> "$LOG"
  sleep 15
done
