#!/bin/bash
# One device call (issue 25): scripts/triton/narrow_matmul_probe.py timed, then under Nsight
# Compute's full set (one launch each, caches flushed, the card's own clocks); then
# scripts/triton/t4_compile.py (seed 003's kernels compiled for sm_75; nothing launched).
# With the argument `pad`: the padded-stride control (the probe's PAD_CASES) instead, no T4 step.
# Usage (repo root, through the device tool): bash scripts/triton/device_narrow_matmul.sh [pad]
# Writes $OUT/narrow_matmul_times.jsonl, $OUT/narrow_matmul_ncu.csv, $OUT/t4/, $OUT/log.txt.
set -u
export PYTHONUNBUFFERED=1
SET=${1:-}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/log.txt
python3 -c "import triton, torch; print('triton', triton.__version__, 'torch', torch.__version__)" | tee -a $OUT/log.txt
python3 scripts/triton/narrow_matmul_probe.py time $OUT/narrow_matmul_times.jsonl $SET 2>&1 | tee -a $OUT/log.txt
ncu --csv --page raw --set full --import-source no --cache-control all --clock-control none \
  -k "regex:^tutorial_matmul_kernel$" \
  python3 scripts/triton/narrow_matmul_probe.py ncu /dev/null $SET > $OUT/narrow_matmul_ncu.csv 2>> $OUT/log.txt
echo "ncu rc=$? rows=$(grep -c '^"' $OUT/narrow_matmul_ncu.csv)" | tee -a $OUT/log.txt
[ -z "$SET" ] && python3 scripts/triton/t4_compile.py $OUT/t4 2>&1 | tee -a $OUT/log.txt
exit 0
