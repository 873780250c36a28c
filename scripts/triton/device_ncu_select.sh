#!/bin/bash
# One device call: Nsight Compute's full set on chosen configurations of sweep.py (any of them,
# not only the ncu subset), each launched once (ncu_select.py), caches flushed, the card's own
# clocks. Usage (repo root): bash scripts/triton/device_ncu_select.sh "ID,ID,..."
# Writes $OUT/ncu_full.csv (ncu's raw page, a row per kernel) and $OUT/ncu_order.json.
set -u
export PYTHONUNBUFFERED=1
ncu --csv --page raw --set full --cache-control all --clock-control none \
  -k "regex:^(tutorial_matmul_kernel|matmul_kernel|block_matmul_kernel|coalesced_block_matmul_kernel)$" \
  python3 scripts/triton/ncu_select.py "$OUT" "$1" > "$OUT/ncu_full.csv" 2> "$OUT/ncu_log.txt"
echo "ncu rc=$?"; grep -c '^"' "$OUT/ncu_full.csv"; tail -3 "$OUT/ncu_log.txt"
