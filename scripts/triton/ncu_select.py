"""One launch of each named configuration of sweep.py or its supplements (any, not only the ncu
subset), for Nsight Compute to profile. Run from the repository root, under ncu:

ncu --csv --page raw --metrics M --cache-control all --clock-control none \
    -k "regex:^(matmul_kernel)$" python3 scripts/triton/ncu_select.py OUT_DIR "ID,ID,..." > ncu.csv

OUT_DIR/ncu_order.json lists the ids in launch order (ncu's rows follow it).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure  # noqa: E402
import sweep  # noqa: E402

if __name__ == "__main__":
    wanted = sys.argv[2].split(",")
    # The sweep and its supplements (a supplement's id may repeat another's: the first kept).
    seen, cs = set(), []
    for c in sweep.configs() + [c for v in (2, 3, 14, 15, 18, 20) for c in sweep.supplement(v)]:
        if c["id"] in wanted and c["id"] not in seen:
            seen.add(c["id"])
            cs.append(c)
    print("selected", len(cs), file=sys.stderr)
    for c in cs:
        c["ncu"] = True
    os.makedirs(sys.argv[1], exist_ok=True)
    measure.measure(cs, sys.argv[1], 1e9, True)
