"""What Triton compiles for seed 003's kernels on a T4 (sm_75), without a T4. (issue 25)

Seed 003 times its two kernels on a Colab T4 (fp32 8192x6144 @ 6144x4096, BLOCK_SIZE 64, Triton's
default num_warps = 4 and num_stages = 3). The model's T4 preset has to guess what Triton builds
there (FMA dot, no cp.async, how many stages); this compiles the same kernels for sm_75 on any
CUDA machine (the driver's target is replaced before the first compile, so nothing is launched)
and records the compiler's facts: PTX (load widths, FMA count, shared loads), TTGIR layouts, and
the SASS main loop's opcodes with ptxas's registers and spills (cuobjdump -res-usage).

Usage (GPU machine with Triton and cuobjdump, repo root):
  python3 scripts/triton/t4_compile.py OUT_DIR     # OUT_DIR/t4_compile.jsonl, one .sass each
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import torch
import triton
from triton.backends.compiler import GPUTarget

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import facts  # noqa: E402
import kernels  # noqa: E402
import staged_sass  # noqa: E402

# Every compile in this process targets sm_75 (Turing, the T4).
triton.runtime.driver.active.get_current_target = lambda: GPUTarget("cuda", 75, 32)


def res_usage(cubin_path):
    r = subprocess.run(["cuobjdump", "-res-usage", cubin_path], capture_output=True, text=True)
    m = re.search(r"REG:(\d+).*?STACK:(\d+).*?SHARED:(\d+).*?LOCAL:(\d+)", r.stdout)
    return ({"regs": int(m.group(1)), "stack": int(m.group(2)), "shared": int(m.group(3)),
             "local": int(m.group(4))} if m else {"res_usage": r.stdout[-300:] + r.stderr[-300:]})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    m, n, k, bs = 8192, 4096, 6144, 64  # Z (m x n) = X (m x k) @ Y (k x n): seed 003's shape
    x = torch.randn(m, k, device="cuda")
    y = torch.randn(k, n, device="cuda")
    yt = y.T.contiguous()
    z = torch.empty(m, n, device="cuda")
    grid = (triton.cdiv(m, bs), triton.cdiv(n, bs))
    cases = {
        "block_matmul": (kernels.block_matmul_kernel,
                         (x, x.stride(0), x.stride(1), y, y.stride(0), y.stride(1),
                          z, z.stride(0), z.stride(1), m, k, n)),
        "coalesced_block_matmul": (kernels.coalesced_block_matmul_kernel,
                                   (x, x.stride(0), x.stride(1), yt, yt.stride(0), yt.stride(1),
                                    z, z.stride(0), z.stride(1), m, k, n)),
    }
    for name, (fn, args) in cases.items():
        for stages in (3, 1):
            tag = f"{name}_w4_s{stages}"
            try:
                ck = fn.warmup(*args, grid=grid, BLOCK_SIZE=bs, num_warps=4, num_stages=stages)
            except Exception as e:  # noqa: BLE001 - recorded
                print(tag, "failed:", repr(e)[:300], flush=True)
                continue
            with tempfile.NamedTemporaryFile(suffix=".cubin", delete=False) as fh:
                fh.write(ck.asm["cubin"])
                cubin = fh.name
            sass = subprocess.run(["cuobjdump", "-sass", cubin], capture_output=True,
                                  text=True).stdout
            with open(os.path.join(out, tag + ".sass"), "w") as fh:
                fh.write(sass)
            with open(os.path.join(out, tag + ".ttgir"), "w") as fh:
                fh.write(ck.asm.get("ttgir", ""))
            body = staged_sass.loop_body(sass)
            row = {"kernel": name, "num_warps": 4, "num_stages": stages, "block": bs,
                   "target": "sm_75", "triton": triton.__version__,
                   "shared": getattr(ck.metadata, "shared", None), **res_usage(cubin),
                   "ptx": facts.ptx_facts(ck.asm.get("ptx", "")),
                   "ttgir": facts.ttgir_facts(ck.asm.get("ttgir", "")),
                   "loop_instructions": len(body),
                   "loop_opcodes": staged_sass.opcode_counts(body),
                   "loop_runs": staged_sass.runs(body)}
            print(json.dumps({x: row[x] for x in row if x not in ("ttgir", "loop_runs")}),
                  flush=True)
            with open(os.path.join(out, "t4_compile.jsonl"), "a") as fh:
                fh.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
