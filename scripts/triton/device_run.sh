#!/bin/bash
# One device call: the sweep (timed, checked, compiler facts), then Nsight Compute on the subset.
# Usage (through the device tool): HARNESS_COMMIT=<sha> bash scripts/triton/device_run.sh SWEEP_S [MEASURE_ARGS...]
set -u
export PYTHONUNBUFFERED=1
SWEEP_S=${1:-420}; shift || true
D=$(dirname "$0")
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > $OUT/nvidia_smi.txt 2>&1
python3 $D/measure.py --out $OUT --deadline $SWEEP_S --precompile 14 ${SUPPLEMENT:+--supplement} "$@" 2>&1 | tee $OUT/measure_log.txt | tail -n 400
if [ "${NCU:-1}" = 1 ]; then
  python3 $D/ncu_subset.py --out $OUT --timeout ${NCU_S:-150} ${NCU_SELECT:+--select $NCU_SELECT} ${SUPPLEMENT:+--supplement} 2>&1 | tail -n 20
fi
rm -f $OUT/ncu_order.json.tmp
