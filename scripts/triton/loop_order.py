"""The order of a Triton wgmma loop's waits, dots and copies, read from the compiler's TTGIR.

python3 loop_order.py --out DIR

Why: a lone program's K step at 3 stages takes about 460 ns whatever its tile (supplements 18
and 20), so what bounds it is a chain through the loop. The timed engine holds the copies of
stage k + stages - 1 until dot k has started; whether Triton 3.6 issues them only after
`warp_group_dot_wait` has retired an earlier dot sets how much of the round trip the stages
hide. This compiles the tutorial matmul (fp16 128 x 128 x 64 and x 32, tf32 128 x 128 x
32 B transposed; 8 warps; 2, 3 and 4 stages; nothing launched but one run to compile) and writes,
for each, the loop body's operations in program order (async copies, commit groups, async waits,
barriers, fences, wgmma dots and their waits) to DIR/loop_order.json.
"""
import argparse
import json
import os
import re
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels  # noqa: E402

KEEP = ("async_copy_global_to_local", "async_commit_group", "async_wait", "warp_group_dot",
        "warp_group_dot_wait", "fence_async_shared", "barrier", "local_load", "local_alloc",
        "memdesc_subview", "memdesc_index", "scf.yield", "scf.for")


def loop_ops(ttgir):
    """The ops of the innermost scf.for that holds a warp_group_dot, in order (names only)."""
    lines = ttgir.splitlines()
    out, depth, inside = [], 0, False
    for ln in lines:
        if "scf.for" in ln and not inside:
            inside, depth, out = True, 0, []
        if inside:
            m = re.search(r"(ttng|ttg|tt|gpu|nvvm|scf)\.([a-z_]+)", ln)
            if m and any(k in m.group(0) for k in KEEP):
                extra = re.search(r"\{[^}]*pendings = (\d+)", ln) or re.search(r"num = (\d+)", ln)
                out.append(m.group(0) + (f" {extra.group(0)}" if extra else ""))
            depth += ln.count("{") - ln.count("}")
            if depth <= 0 and "}" in ln:
                if any("warp_group_dot" in o for o in out):
                    return out
                inside = False
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    res = []
    for (dt, bk, bt) in (("fp16", 64, False), ("fp16", 32, False), ("fp32", 32, True)):
        m, n, k = 1536, 1408, 4096
        t = {"fp16": torch.float16, "fp32": torch.float32}[dt]
        x = torch.randn(m, k, device="cuda", dtype=t)
        y = torch.randn(n, k, device="cuda", dtype=t).T if bt else torch.randn(k, n, device="cuda", dtype=t)
        z = torch.empty(m, n, device="cuda", dtype=t)
        for s in (2, 3, 4):
            grid = ((m // 128) * (n // 128),)
            ck = kernels.tutorial_matmul_kernel[grid](
                x, y, z, m, n, k, x.stride(0), x.stride(1), y.stride(0), y.stride(1),
                z.stride(0), z.stride(1), BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=bk,
                GROUP_SIZE_M=8, INPUT_PRECISION="tf32",  # as measure.py passes it
                num_warps=8, num_stages=s)
            torch.cuda.synchronize()
            ops = loop_ops(ck.asm["ttgir"])
            rec = {"dtype": dt, "block_k": bk, "b_transposed": bt, "stages": s, "loop_ops": ops}
            res.append(rec)
            print(json.dumps(rec), flush=True)
            with open(os.path.join(a.out, f"ttgir_{dt}_k{bk}_s{s}.mlir"), "w") as fh:
                fh.write(ck.asm["ttgir"])
    json.dump(res, open(os.path.join(a.out, "loop_order.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
