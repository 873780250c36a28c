#!/usr/bin/env bash
# Which kernels cuBLAS GemmEx picks at the Hopper rungs' sizes (names carry tile, cluster and
# schedule), with their launch shapes and durations (ncu, one launch each).
# Usage (on the GPU machine, repo root): kernels/device_cublas_kernels.sh DIR
# DIR holds tilesim-run-one as run-one, or run-one.xz (stripped, xz-compressed: the device tool
# carries at most 64 MiB with the checkout).
set -u
d=$1
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:${LD_LIBRARY_PATH:-}
export PATH=/usr/local/cuda/bin:$PATH
[ -x "$d/run-one" ] || { xz -dc "$d/run-one.xz" > "$d/run-one" && chmod +x "$d/run-one"; }
for s in 4096 8192; do for t in fp16 bf16; do
  echo "== cublas_gemmex $s^3 $t"
  timeout 120 ncu --clock-control none --csv --page raw --metrics \
gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,launch__cluster_dim_x,launch__cluster_dim_y,sm__throughput.avg.pct_of_peak_sustained_elapsed \
    "$d/run-one" --variant cublas_gemmex --kernel matmul --m $s --n $s --k $s --dtype $t 2>&1 \
    | grep -v "^==PROF==" | python3 -c '
import csv,sys
rows=[r for r in csv.reader(sys.stdin) if len(r)>5]
if not rows: sys.exit()
h=rows[0]
keep=("gpu__time_duration.sum","launch__grid_size","launch__block_size","launch__registers_per_thread","launch__shared_mem_per_block_dynamic","launch__cluster_dim_x","launch__cluster_dim_y","sm__throughput.avg.pct_of_peak_sustained_elapsed")
for r in rows[2:]:
    d=dict(zip(h,r))
    if "fill_uniform" in d.get("Kernel Name",""): continue
    print(d.get("Kernel Name","?")[:160]); print("   ", {k:d.get(k) for k in keep})'
done; done
