#!/usr/bin/env python3
"""Per-program spans of a GPU run beside the timed engine's: how long programs take, how the two
programs an SM holds share it, and how far apart row-major neighbours in a column start.

usage: scripts/compare_spans.py GPU_CSV MODEL_CSV [--launch N]

GPU_CSV: kernels/probes/block_timeline.cu's output (columns pid, pid_m, pid_n, sm, start_ns,
end_ns, one or more launches); MODEL_CSV: `tilesim-cli run ... --programs-csv FILE` for the same
problem. Prints one line per figure, GPU then model.
"""
import csv
import statistics as st
import sys
from collections import defaultdict


def load(path, launch):
    lines = (line for line in open(path) if not line.startswith("#"))
    rows = [r for r in csv.DictReader(lines) if "launch" not in r or r["launch"] == str(launch)]
    rows.sort(key=lambda r: int(r["pid"]))
    return ([float(r["start_ns"]) for r in rows], [float(r["end_ns"]) for r in rows],
            [int(r["sm"]) for r in rows], [(int(r["pid_m"]), int(r["pid_n"])) for r in rows])


def figures(path, launch):
    start, end, sm, tiles = load(path, launch)
    dur = [e - s for s, e in zip(start, end)]
    n = len(dur)
    # The first wave: programs that start before any program ends; paired by SM.
    first_end = min(end)
    by_sm = defaultdict(list)
    for p in range(n):
        if start[p] < first_end:
            by_sm[sm[p]].append(p)
    pairs = [sorted(v) for v in by_sm.values() if len(v) == 2]
    # The first wave's spread between SMs (the sd of each SM's mean program time) and on one SM
    # (the root of the mean variance on an SM), in % of the mean: an L2-bound loop's SMs run at
    # their cluster's speed (docs/TRITON_FINDINGS.md, GPCs).
    wave = [[dur[p] for p in v] for v in by_sm.values()]
    wave_mean = st.mean(d for v in wave for d in v)
    between = 100 * st.pstdev([st.mean(v) for v in wave]) / wave_mean
    within = 100 * st.mean(st.pvariance(v) for v in wave) ** 0.5 / wave_mean
    # The tile below each tile (pid_m + 1, same pid_n), in any launch order.
    pid_of = {t: p for p, t in enumerate(tiles)}
    below = [(p, pid_of[(m + 1, c)]) for p, (m, c) in enumerate(tiles) if (m + 1, c) in pid_of]
    lag = [start[q] - start[p] for p, q in below]
    return {
        "kernel (us)": max(end) / 1e3,
        "program mean (us)": st.mean(dur) / 1e3,
        "program sd (%)": 100 * st.pstdev(dur) / st.mean(dur),
        "shortest / longest (us)": f"{min(dur) / 1e3:.1f} / {max(dur) / 1e3:.1f}",
        "first wave, SMs holding 2": len(pairs),
        "first wave older / younger (us)": (
            f"{st.mean(dur[a] for a, _ in pairs) / 1e3:.1f} / "
            f"{st.mean(dur[b] for _, b in pairs) / 1e3:.1f}" if pairs else "-"),
        "first wave sd, SM to SM / on one SM (%)": f"{between:.1f} / {within:.1f}",
        "tile below starts later by, mean (us)": st.mean(lag) / 1e3,
        "... sd (us)": st.pstdev(lag) / 1e3,
        # Tiles one above the other read the same B column panel: when they start together, the
        # L2 serves the second. Row-major waves that fall out of step lose that reuse.
        "... within 5 us of each other (%)": 100 * sum(abs(x) < 5e3 for x in lag) / len(lag),
    }


def main():
    args = sys.argv[1:]
    launch = 1
    if "--launch" in args:
        i = args.index("--launch")
        launch = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    gpu, model = figures(args[0], launch), figures(args[1], launch)
    print(f"{'figure':40s} {'GPU':>18s} {'model':>18s}")
    for k in gpu:
        g, m = gpu[k], model[k]
        fmt = (lambda v: f"{v:18.1f}") if isinstance(g, float) else (lambda v: f"{v!s:>18s}")
        print(f"{k:40s} {fmt(g)} {fmt(m)}")


if __name__ == "__main__":
    main()
