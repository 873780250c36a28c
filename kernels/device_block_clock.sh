#!/usr/bin/env bash
# One device call: each program's SM clock inside the CUDA rungs (kernels/probes/block_timeline.cu:
# clock64 and %globaltimer at every block's start and end), 16 launches back to back after a
# warm-up, at the sizes the timed engine's efficiencies were fitted at. The CSVs go to
# OUT/block_clock.tar.gz, a summary (per launch: span, the programs' median clock) to stdout.
# Usage (on the GPU machine, repo root): kernels/device_block_clock.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,power.draw --format=csv
mkdir -p /tmp/bc
for p in MMA_SYNC:sm_90 REGISTER_BLOCKED:sm_90 WGMMA_TMA:sm_90a WGMMA_PERSISTENT:sm_90a; do
  nvcc -O3 -std=c++20 --expt-relaxed-constexpr -arch=${p#*:} -I. -DPROBE_${p%:*} \
    -o /tmp/bc/bt_${p%:*} kernels/probes/block_timeline.cu -lcuda || echo "build ${p%:*} failed"
done
run() { timeout 60 /tmp/bc/bt_$1 $2 $3 $4 > /tmp/bc/$1_$2_$3.csv || echo "run $1 $2 failed"; }
run WGMMA_TMA 4096 grouped 16
run WGMMA_TMA 8192 grouped 16
run WGMMA_PERSISTENT 4096 grouped 16
run WGMMA_PERSISTENT 8192 grouped 16
run MMA_SYNC 8192 grouped 16
run MMA_SYNC 4096 grouped 16
run REGISTER_BLOCKED 4096 grouped 8
tar czf "$OUT/block_clock.tar.gz" -C /tmp/bc $(cd /tmp/bc && ls *.csv)
python3 - <<'PY'
import csv, glob, statistics as st
for f in sorted(glob.glob('/tmp/bc/*.csv')):
    rows = list(csv.DictReader(open(f)))
    by = {}
    for r in rows:
        by.setdefault(int(r['launch']), []).append(r)
    out = []
    for l in sorted(by):
        rs = [r for r in by[l] if int(r['cycles']) > 0 and int(r['end_ns']) > int(r['start_ns'])]
        span = (max(int(r["end_ns"]) for r in rs) - min(int(r["start_ns"]) for r in rs)) / 1e3
        mhz = [int(r['cycles']) / (int(r['end_ns']) - int(r['start_ns'])) * 1e3 for r in rs]
        out.append(f"{l}:{span:.1f}us/{st.median(mhz):.0f}MHz")
    print(f.split('/')[-1], len(by[1]), 'rows/launch;', ' '.join(out))
PY
