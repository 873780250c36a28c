#!/usr/bin/env bash
# One device call: the DRAM's read throughput against the contiguous bytes a kernel reads of each
# row before the next (kernels/probes/dram_locality.cu), then four of its launches under ncu
# (DRAM bytes read, L2 sectors requested) to see what the DRAM fetches for a short piece.
# Usage (on the GPU machine, repo root): kernels/device_dram_locality.sh OUT_DIR
set -u
out=${1:?out dir}
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
nvcc -O3 -std=c++20 --expt-relaxed-constexpr -arch=sm_90 -I. -o /tmp/dram_locality \
  kernels/probes/dram_locality.cu || exit 1
/tmp/dram_locality > "$out/dram_locality.csv" || echo "sweep failed"
cat "$out/dram_locality.csv"
for s in 32 64 128 8192; do
  ncu --clock-control none --metrics dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,gpu__time_duration.sum,dram__bytes_read.sum.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed \
    --csv /tmp/dram_locality --one 24576 42240 $s lockstep 2>/dev/null | grep '^"' | grep -v '"ID"' \
    | sed "s/^/strip=$s,/" >> "$out/dram_locality_ncu.csv"
done
cat "$out/dram_locality_ncu.csv"
