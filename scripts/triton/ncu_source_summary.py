"""Summarize device_ncu_source.sh's output for assets/measured (issue 25).

Reads DIR/ncu_order.json, DIR/source_<i>.csv (ncu's SASS source page, one per launch) and
DIR/raw.csv (the raw page), and writes two small CSVs:
  SOURCE_OUT: per launch and SASS opcode (the mnemonic before its first dot): instructions
              executed, warp-state samples, and samples by stall reason;
  RAW_OUT:    per launch, the raw page's columns in RAW_COLUMNS (time, clock, occupancy, local
              loads and stores, their L1 hit rates, L2 hit rate, DRAM bytes).
A launch whose source page did not come back is left out of SOURCE_OUT. --append adds rows to
existing files (their headers kept). --memory: SOURCE_OUT per full SASS mnemonic (LDS.128,
LDGSTS.E.BYPASS.128) with the source page's shared-memory wavefronts (all, ideal, excessive) and
the L2 sectors it would move, instead of the stall samples; RAW_OUT adds the shared-memory
wavefront and bank-conflict totals.

Usage: python3 scripts/triton/ncu_source_summary.py DIR SOURCE_OUT RAW_OUT [--append] [--memory]
"""
import collections
import csv
import json
import os
import re
import sys

RAW_COLUMNS = [
    "gpu__time_duration.sum", "sm__cycles_elapsed.avg.per_second", "launch__grid_size",
    "launch__registers_per_thread", "launch__occupancy_limit_registers",
    "sm__warps_active.avg.per_cycle_active", "smsp__inst_executed.sum",
    "smsp__sass_inst_executed_op_local_ld.sum", "smsp__sass_inst_executed_op_local_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
    "l1tex__t_sector_pipe_lsu_mem_local_op_ld_hit_rate.pct",
    "l1tex__t_sector_pipe_lsu_mem_local_op_st_hit_rate.pct", "l1tex__t_sector_hit_rate.pct",
    "lts__t_sector_hit_rate.pct", "smsp__average_warp_latency_per_inst_issued.ratio",
    "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",
    "dram__bytes_read.sum", "dram__bytes_write.sum",
]
MEMORY_RAW_COLUMNS = [
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
]
MEMORY_SOURCE_COLUMNS = [
    "Instructions Executed", "L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal",
    "L1 Wavefronts Shared Excessive", "L2 Theoretical Sectors Global",
]


def opcode(sass):
    return re.sub(r"^@!?U?P\w+\s+", "", sass.strip()).split(" ")[0].split(".")[0]


def number(text):
    return float(text.replace(",", "") or 0)


def memory_rows(run_id, rows):
    """Per full SASS mnemonic: MEMORY_SOURCE_COLUMNS summed over the launch's instructions."""
    h = rows[1]
    agg = collections.defaultdict(lambda: [0.0] * len(MEMORY_SOURCE_COLUMNS))
    for r in rows[2:]:
        if len(r) < len(h):
            continue
        op = re.sub(r"^@!?U?P\w+\s+", "", r[h.index("Source")].strip()).split(" ")[0]
        for j, c in enumerate(MEMORY_SOURCE_COLUMNS):
            agg[op][j] += number(r[h.index(c)])
    return [[run_id, op] + [int(x) for x in v]
            for op, v in sorted(agg.items(), key=lambda x: -x[1][1]) if v[1] > 0]


def main():
    d, src_out, raw_out = sys.argv[1:4]
    append = "--append" in sys.argv[4:]
    memory = "--memory" in sys.argv[4:]
    order = json.load(open(os.path.join(d, "ncu_order.json")))
    mode = "a" if append else "w"
    with open(src_out, mode) as fh:
        w = csv.writer(fh, lineterminator="\n")
        header_done = append
        for i, run_id in enumerate(order):
            path = os.path.join(d, f"source_{i}.csv")
            if not os.path.exists(path):
                continue
            rows = list(csv.reader(open(path)))
            if len(rows) < 3:
                continue
            if memory:
                if not header_done:
                    w.writerow(["id", "sass"] + [c.lower().replace(" ", "_")
                                                 for c in MEMORY_SOURCE_COLUMNS])
                    header_done = True
                w.writerows(memory_rows(run_id, rows))
                continue
            h = rows[1]
            reasons = [k for k in h if k.startswith("stall_") and "Not Issued" not in k]
            if not header_done:
                w.writerow(["id", "opcode", "instructions_executed", "samples"] + reasons)
                header_done = True
            agg = collections.defaultdict(collections.Counter)
            for r in rows[2:]:
                if len(r) < len(h):
                    continue
                a = agg[opcode(r[h.index("Source")])]
                a["exec"] += int(r[h.index("Instructions Executed")] or 0)
                a["samples"] += int(r[h.index("Warp Stall Sampling (All Samples)")] or 0)
                for k in reasons:
                    a[k] += int(r[h.index(k)] or 0)
            for op, a in sorted(agg.items(), key=lambda x: -x[1]["samples"]):
                if a["samples"] or a["exec"]:
                    w.writerow([run_id, op, a["exec"], a["samples"]] + [a[k] for k in reasons])
    lines = open(os.path.join(d, "raw.csv")).read().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    rows = list(csv.reader(lines[start:]))
    h, units, data = rows[0], rows[1], rows[2:]
    cols = [c for c in RAW_COLUMNS + (MEMORY_RAW_COLUMNS if memory else []) if c in h]
    with open(raw_out, mode) as fh:
        w = csv.writer(fh, lineterminator="\n")
        if not append:
            w.writerow(["id"] + cols)
            w.writerow([""] + [units[h.index(c)] for c in cols])
        for run_id, r in zip(order, data):
            w.writerow([run_id] + [r[h.index(c)] for c in cols])


if __name__ == "__main__":
    main()
