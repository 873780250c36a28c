#!/bin/bash
# One device call: Nsight Compute's full set with source-level (SASS) warp-state sampling on
# chosen configurations of sweep.py, each launched once (ncu_select.py), caches flushed, the
# card's own clocks; then the per-instruction page of each kernel as CSV. What it is for: which
# instruction a spilling register-staged loop waits at (its LDL reloads, the LDG they feed, the
# wgmma), where the model charges one L2 round trip per reload (issue 25; docs/TRITON_FINDINGS.md).
# Usage (repo root): bash scripts/triton/device_ncu_source.sh "ID,ID,..."
# Writes $OUT/src.ncu-rep, $OUT/source_<n>.csv (one per launch, ncu_order.json's order),
# $OUT/raw.csv (the raw page), $OUT/ncu_log.txt.
set -u
export PYTHONUNBUFFERED=1
ncu --set full --import-source yes --cache-control all --clock-control none \
  -k "regex:^(tutorial_matmul_kernel|matmul_kernel)$" -o "$OUT/src" \
  python3 scripts/triton/ncu_select.py "$OUT" "$1" > "$OUT/ncu_log.txt" 2>&1
echo "ncu rc=$?"; tail -3 "$OUT/ncu_log.txt"
ncu -i "$OUT/src.ncu-rep" --csv --page raw > "$OUT/raw.csv" 2>> "$OUT/ncu_log.txt"
n=$(python3 -c "import json,sys; print(len(json.load(open('$OUT/ncu_order.json'))))" 2>/dev/null || echo 4)
for i in $(seq 0 $((n - 1))); do
  ncu -i "$OUT/src.ncu-rep" --csv --page source --print-source sass --launch-skip "$i" \
    --launch-count 1 > "$OUT/source_$i.csv" 2>> "$OUT/ncu_log.txt"
  echo "source_$i: $(wc -l < "$OUT/source_$i.csv") lines"
done
# (Every launch at once too, in case the import ignores the launch filters.)
ncu -i "$OUT/src.ncu-rep" --csv --page source --print-source sass > "$OUT/source_all.csv" 2>> "$OUT/ncu_log.txt"
echo "source_all: $(wc -l < "$OUT/source_all.csv") lines"; tail -5 "$OUT/ncu_log.txt"
