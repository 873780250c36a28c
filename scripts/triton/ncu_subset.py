"""Nsight Compute over the ncu subset of sweep.py (each configuration launched once).

python3 ncu_subset.py --out DIR   ->  DIR/ncu.json: {config id: {metric: value}}
Replays each kernel with caches flushed (--cache-control all) at the card's own clocks
(--clock-control none). Kernels are matched by name, so torch's own kernels are skipped.
"""
import argparse
import csv
import io
import json
import os
import subprocess
import sys

METRICS = [
    "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sector_hit_rate.pct",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active", "smsp__inst_executed.sum",
    "smsp__sass_inst_executed_op_global_ld.sum", "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__inst_executed_pipe_tensor.sum", "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "gpu__time_duration.sum", "launch__registers_per_thread", "launch__occupancy_limit_registers",
]
# Added for the version-2 supplement (local memory: spilled registers; warp stalls), and
# dropped again if this ncu does not know one of them.
METRICS_V2 = [
    "smsp__sass_inst_executed_op_local_ld.sum", "smsp__sass_inst_executed_op_local_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
    "lts__t_sectors_srcunit_tex_op_read.sum", "lts__t_sectors_srcunit_tex_op_write.sum",
    "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio",
    "smsp__cycles_active.avg",
]
NAMES = ("matcopy|matrix_transpose_kernel|seed000_matmul_kernel|matmul_kernel|"
         "block_matmul_kernel|coalesced_block_matmul_kernel|tutorial_matmul_kernel")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--metrics", default=",".join(METRICS))
    ap.add_argument("--select", default="")
    ap.add_argument("--supplement", action="store_true", help="sweep.supplement_v2(), METRICS_V2 too")
    ap.add_argument("--timeout", type=float, default=1e9, help="stop ncu after S seconds, keep what it printed")
    a = ap.parse_args()
    if a.supplement:
        a.metrics += "," + ",".join(METRICS_V2)
    here = os.path.dirname(os.path.abspath(__file__))

    def profile(metrics):
        cmd = ["ncu", "--csv", "--page", "raw", "--metrics", metrics, "--cache-control", "all",
               "--clock-control", "none", "-k", f"regex:^({NAMES})$",
               sys.executable, os.path.join(here, "measure.py"), "--out", a.out, "--ncu-mode"]
        if a.select:
            cmd += ["--select", a.select]
        if a.supplement:
            cmd += ["--supplement"]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
            return p.stdout, p.stderr, p.returncode
        except subprocess.TimeoutExpired as e:
            def _s(x):
                return x.decode(errors="replace") if isinstance(x, bytes) else (x or "")
            return _s(e.stdout), _s(e.stderr), "timeout"

    stdout, stderr, rc = profile(a.metrics)
    if a.supplement and "Failed to find metric" in stdout + stderr:
        a.metrics = ",".join(METRICS)
        stdout, stderr, rc = profile(a.metrics)
    open(os.path.join(a.out, "ncu_log.txt"), "w").write(stderr[-20000:] + "\n----\n" +
                                                        stdout[-4000:])
    try:
        order = json.load(open(os.path.join(a.out, "ncu_order.json")))
    except OSError:  # stopped before measure.py wrote it: the order is the subset's own
        sys.path.insert(0, here)
        import measure
        import sweep
        cs = [c for c in (sweep.supplement_v2() if a.supplement else sweep.configs()) if c["ncu"]]
        if a.select:
            cs = [c for c in cs if any(s in c["id"] for s in a.select.split(","))]
        order = [c["id"] for c in sorted(cs, key=lambda c: (measure.input_key(c), c["id"]))]
    lines = [ln for ln in stdout.splitlines() if ln.startswith('"')]
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    if not rows:
        print("ncu gave no rows; rc", rc, stderr[-2000:])
        return
    head, body = rows[0], rows[2:]  # rows[1] holds units
    units = dict(zip(head, rows[1]))
    res = {}
    for i, r in enumerate(body):
        d = dict(zip(head, r))
        cid = order[i] if i < len(order) else f"extra{i}"
        vals = {}
        for m in a.metrics.split(","):
            if m in d:
                try:
                    vals[m] = float(d[m].replace(",", ""))
                except ValueError:
                    vals[m] = d[m]
        vals["kernel_name"] = d.get("Kernel Name", "")
        res[cid] = vals
    json.dump({"units": {m: units.get(m, "") for m in a.metrics.split(",")},
               "profiled": len(body), "launched": len(order), "records": res},
              open(os.path.join(a.out, "ncu.json"), "w"), indent=1)
    print(f"ncu: {len(body)} kernels profiled of {len(order)} launched; rc {rc}")


if __name__ == "__main__":
    main()
