#!/usr/bin/env python3
"""The device calls' clock readings, summed up into the CSVs assets/measured keeps.

  scripts/clock_summary.py blocks DIR GPU_NAME HEADER > assets/measured/block_clock_GPU.csv
      DIR: the CSVs of kernels/device_block_clock.sh (block_clock.tar.gz, unpacked). Per launch:
      span, each block's clock (clock64 cycles over globaltimer ns: median, 10th, 90th
      percentile) and the work per SM cycle, FLOPs / (span x median clock x 132 SMs).
  scripts/clock_summary.py ladder NVML_JSON... GPU DATE HEADER > assets/measured/power_ladder_GPU.csv
      NVML_JSON: scripts/nvml.py's output around tilesim-bench (kernels/device_new_rungs.sh with
      NVML=1). Per timed row: its median, and over the last 80 % of its window (from the line
      printed before it to its own) the median NVML clock and power; Mcycles = ms x clock.
      `clean` is 0 for each run's first row, whose window holds the set-up too. Its first lines
      are "# gpu: GPU" and "# date: DATE" (scenario/sustained_runs.cpp reads them).
HEADER: a comment line naming the GPU, date, commit and how it ran.
"""
import csv
import glob
import json
import os
import statistics as st
import sys

RUNGS = {"MMA_SYNC": "matmul_mma_sync", "REGISTER_BLOCKED": "matmul_register_blocked",
         "WGMMA_TMA": "matmul_wgmma_tma", "WGMMA_PERSISTENT": "matmul_wgmma_persistent"}


def blocks(folder, header):
    w = csv.writer(sys.stdout, lineterminator="\n")
    sys.stdout.write("# " + header + "\n")
    w.writerow(["rung", "size", "launch", "span_us", "blocks", "mhz_median", "mhz_p10", "mhz_p90",
                "flop_per_sm_cycle"])
    for f in sorted(glob.glob(os.path.join(folder, "*.csv"))):
        key, size = os.path.basename(f).replace("_grouped.csv", "").rsplit("_", 1)
        size = int(size)
        by = {}
        for r in csv.DictReader(open(f)):
            by.setdefault(int(r["launch"]), []).append(r)
        for launch in sorted(by):
            rs = [r for r in by[launch]
                  if int(r["cycles"]) > 0 and int(r["end_ns"]) > int(r["start_ns"])]
            span = (max(int(r["end_ns"]) for r in rs) - min(int(r["start_ns"]) for r in rs)) / 1e3
            mhz = sorted(int(r["cycles"]) / (int(r["end_ns"]) - int(r["start_ns"])) * 1e3
                         for r in rs)
            med = st.median(mhz)
            per_cycle = 2 * size ** 3 / (span * 1e-6 * med * 1e6 * 132)
            w.writerow([RUNGS[key], size, launch, f"{span:.1f}", len(rs), f"{med:.0f}",
                        f"{mhz[len(mhz) // 10]:.0f}", f"{mhz[len(mhz) * 9 // 10]:.0f}",
                        f"{per_cycle:.0f}"])


def ladder(paths, gpu, date, header):
    w = csv.writer(sys.stdout, lineterminator="\n")
    sys.stdout.write(f"# gpu: {gpu}\n# date: {date}\n# {header}\n")
    w.writerow(["variant", "problem", "dtype", "order", "median_ms", "sm_mhz_median", "sm_mhz_min",
                "sm_mhz_max", "power_w_median", "samples", "window_s", "mcycles", "clean"])
    for path in paths:
        d = json.load(open(path))
        prev = None
        first = True
        for t, line in d["lines"]:
            if "TF/s" in line and prev is not None:
                s = [x for x in d["samples"] if prev + 0.2 * (t - prev) <= x[0] <= t]
                c = sorted(x[1] for x in s)
                p = sorted(x[2] for x in s)
                parts = line.split()
                ms = float(parts[parts.index("TF/s") - 2])
                mhz = c[len(c) // 2]
                w.writerow([parts[0], parts[1], parts[2], parts[3], ms, mhz, c[0], c[-1],
                            p[len(p) // 2], len(s), round(t - prev, 3),
                            round(ms * 1e-3 * mhz, 4), 0 if first else 1])
                first = False
            prev = t


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "blocks":
        blocks(sys.argv[2], sys.argv[-1])
    elif len(sys.argv) >= 6 and sys.argv[1] == "ladder":
        ladder(sys.argv[2:-3], sys.argv[-3], sys.argv[-2], sys.argv[-1])
    else:
        sys.exit(__doc__)
