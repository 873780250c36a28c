#!/usr/bin/env bash
# Usage (on the GPU machine): kernels/device_ncu_mem.sh DIR OUT_DIR RUNG... (DIR as for
# device_wgmma_persistent.sh); prints Duration, L2 hit rate, DRAM throughput and L2 sector counts.
# Nsight Compute memory counters for a few rungs (one 4096^3 fp16 grouped G=8 launch each).
bin=$1 out=$2; shift 2
export PATH=/usr/local/cuda/bin:$PATH
for v in "$@"; do
  ncu --clock-control none --section MemoryWorkloadAnalysis --section SpeedOfLight -k "regex:wgmma" -c 1 -f -o "$out/mem_$v" \
    "$bin/tilesim-run-one" --variant "$v" --kernel matmul --m 4096 --n 4096 --k 4096 --dtype fp16 \
    --order grouped --group-m 8 --block-m 128 --block-n 256 --block-k 64 > /dev/null 2>&1
  echo "== mem $v rc=$?"
  ncu -i "$out/mem_$v.ncu-rep" --page details --csv 2>/dev/null | grep -E '"(Duration|L2 Hit Rate|L1/TEX Hit Rate|DRAM Throughput|L2 Compression|Mem Busy|Max Bandwidth|Mem Pipes Busy)"' | awk -F'","' '{print "  "$(NF-2)" = "$NF}'
  ncu -i "$out/mem_$v.ncu-rep" --page raw --csv 2>/dev/null > "$out/mem_$v.csv"
  python3 - "$out/mem_$v.csv" <<'PY'
import csv, sys
r = list(csv.reader(open(sys.argv[1])))
if len(r) >= 3:
    for n, u, x in zip(r[0], r[1], r[2]):
        if any(k in n for k in ("lts__t_sectors_op_read.sum", "lts__t_sectors_op_write.sum", "lts__t_sectors.sum", "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sectors_srcunit_tex_op_read.sum")) and "pct" not in n and "per_" not in n:
            print(f"  {n} = {x} {u}")
PY
done
