#!/usr/bin/env bash
# One device call: kernels/wgmma_paired.cpp (a rung against cuBLAS in paired, rotated rounds) for
# the persistent Hopper rungs 6c and 6d in grouped order, G = 16, at each size and dtype.
# Usage (on the GPU machine, repo root): kernels/device_paired.sh DIR
# DIR holds wgmma_paired (linked like wgmma_orders: the link line of tilesim-run-one with
# wgmma_paired.cpp.o in place of calibrate_run_one.cpp.o), or wgmma_paired.s.xz (stripped and
# xz-compressed: the device tool carries at most 64 MiB with the checkout). Env: SIZES
# ("8192 4096"), DTYPES ("fp16 bf16"), ROUNDS (15), RUNGS (6c and 6d).
set -u
d=$1
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:${LD_LIBRARY_PATH:-}
if [ ! -x "$d/wgmma_paired" ]; then
  xz -dc "$d/wgmma_paired.s.xz" > "$d/wgmma_paired" && chmod +x "$d/wgmma_paired"
fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for s in ${SIZES:-8192 4096}; do
  for t in ${DTYPES:-fp16 bf16}; do
    timeout 200 "$d/wgmma_paired" "$s" "$t" grouped 16 "${ROUNDS:-15}" \
      ${RUNGS:-matmul_wgmma_persistent matmul_wgmma_persistent_mc}
  done
done
