#!/usr/bin/env bash
# One device call: read throughput against the contiguous bytes a kernel reads of each row before
# the next (kernels/probes/dram_locality.cu: from DRAM with 64 or 512 rows a block, and from the
# L2), then a few of its launches under ncu (DRAM bytes, L2 sectors and requests) to see what the
# memory is asked for.
# Usage (on the GPU machine, repo root): kernels/device_dram_locality.sh OUT_DIR
set -uo pipefail
out=${1:?out dir}
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
nvcc -O3 -std=c++20 --expt-relaxed-constexpr -arch=sm_90 -I. -o /tmp/dram_locality \
  kernels/probes/dram_locality.cu || exit 1
/tmp/dram_locality > "$out/dram_locality.csv" || echo "sweep failed"
cat "$out/dram_locality.csv"
metrics=dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,gpu__time_duration.sum,dram__bytes_read.sum.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed
for args in "dram 8192 64 64" "dram 8192 64 8192" "dram 8192 512 64" "dram 8192 512 8192" "l2 8192 64 64" "l2 8192 64 8192"; do
  ncu --clock-control none --metrics $metrics --csv /tmp/dram_locality --one $args lockstep \
    > /tmp/ncu_one.csv 2> /tmp/ncu_one.err || { echo "ncu $args failed"; tail -3 /tmp/ncu_one.err; }
  grep '^"' /tmp/ncu_one.csv | grep -v '"ID"' | sed "s/^/${args// /_},/" >> "$out/dram_locality_ncu.csv"
done
cat "$out/dram_locality_ncu.csv" | awk -F'","' '{print $1, $(NF-2), $NF}'
