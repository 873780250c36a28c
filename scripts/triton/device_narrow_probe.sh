#!/bin/bash
# One device call (issue 25): scripts/triton/narrow_probe.py timed, then under Nsight Compute's
# full set (one launch each, caches flushed, the card's own clocks).
# Usage (repo root, through the device tool): bash scripts/triton/device_narrow_probe.sh
# Writes $OUT/narrow_times.jsonl, $OUT/narrow_ncu.csv, $OUT/narrow_log.txt.
set -u
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/narrow_log.txt
python3 -c "import triton, torch; print('triton', triton.__version__, 'torch', torch.__version__)" | tee -a $OUT/narrow_log.txt
python3 scripts/triton/narrow_probe.py time $OUT/narrow_times.jsonl 2>&1 | tee -a $OUT/narrow_log.txt
ncu --csv --page raw --set full --cache-control all --clock-control none \
  -k "regex:^(matcopy|matrix_transpose_kernel)$" \
  python3 scripts/triton/narrow_probe.py ncu /dev/null > $OUT/narrow_ncu.csv 2>> $OUT/narrow_log.txt
echo "ncu rc=$? rows=$(grep -c '^"' $OUT/narrow_ncu.csv)" | tee -a $OUT/narrow_log.txt
