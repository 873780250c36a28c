#!/usr/bin/env bash
# One device call: the SM clock under tensor-core load. First the CUDA probe
# (kernels/probes/clock_curve.cu: clock64 against %globaltimer, microsecond bins, after do_bench's
# 256 MB memset and back to back), then NVML's SM clock and power while do_bench times the measured
# file's fit-set wgmma configurations (scripts/triton/clock_probe.py).
# Usage (on the GPU machine, repo root): kernels/device_clock.sh GPU(h100|h200) [DEADLINE_S]
set -u
gpu=$1 deadline=${2:-300}
export PYTHONUNBUFFERED=1 PATH=/usr/local/cuda/bin:$PATH
echo "=== env ($(date -u +%H:%M:%S))"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,power.limit,power.max_limit,temperature.gpu \
  --format=csv | tee "$OUT/smi.txt"
nvidia-smi -q -d CLOCK,POWER,PERFORMANCE >> "$OUT/smi.txt" 2>&1
echo "=== clock_curve ($(date -u +%H:%M:%S))"
nvcc -O3 -std=c++20 --expt-relaxed-constexpr -arch=sm_90 -I. -o /tmp/clock_curve \
  kernels/probes/clock_curve.cu &&
  timeout 120 /tmp/clock_curve > "$OUT/clock_curve.csv" 2> "$OUT/clock_curve.txt"
echo "clock_curve rc=$?"; cat "$OUT/clock_curve.txt"
echo "=== clock_probe ($(date -u +%H:%M:%S))"
(cd scripts/triton && timeout $((deadline + 200)) python3 clock_probe.py --out "$OUT/clk" \
  --precompile 14 --deadline "$deadline" --measured "../../assets/measured/triton_$gpu.json") \
  > "$OUT/clock_probe.log" 2>&1
echo "clock_probe rc=$?"; head -5 "$OUT/clock_probe.log"; tail -25 "$OUT/clock_probe.log"
echo "=== end ($(date -u +%H:%M:%S))"
