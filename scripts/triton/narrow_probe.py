"""Why are Triton's copies and transposes with narrow accesses slow? (issue 25)

The sweep's copies and transposes at N = 4095 / 4100 / 5000 (row stride not a multiple of 16:
2-byte fp16 and 4-byte fp32 accesses) run 30-40 % slower than the model, which times them by their
DRAM bytes, while ncu counts the same DRAM bytes as at N = 4096. This separates the two things
that change together there:
- the access width (more, narrower warp instructions: the load's vector width), and
- the rows' alignment (a row that starts mid-sector: each warp access touches partial sectors).
Same kernels as scripts/triton/kernels.py (seed 000's copy and transpose); the "dns" variants are
the same source compiled with `do_not_specialize` on N and the row strides (the unit column
stride stays specialized, so lanes stay contiguous), so Triton cannot prove divisibility by 16 at
N = 4096: narrow accesses on aligned rows.

Usage (GPU, repo root):
  python3 scripts/triton/narrow_probe.py time OUT.jsonl     # do_bench median (L2 flushed) + facts
  ncu --csv --page raw --set full --cache-control all --clock-control none \
      -k "regex:^(matcopy|matrix_transpose_kernel)$" \
      python3 scripts/triton/narrow_probe.py ncu /dev/null > ncu.csv   # one launch each, in order
"""
import json
import os
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import facts  # noqa: E402
import kernels  # noqa: E402


# The sweep's kernels themselves (kernels.py), and the same Python functions compiled again with
# the divisibility specialization of N and the row strides turned off (the unit column stride
# stays specialized, so lanes stay contiguous). Triton strips the decorator from the source it
# compiles, and ncu's rows follow the launch order, so the two need no names of their own.
matcopy = kernels.matcopy
matcopy_dns = triton.jit(do_not_specialize=["N", "stride_row"])(kernels.matcopy.fn)
transpose = kernels.matrix_transpose_kernel
transpose_dns = triton.jit(do_not_specialize=["rows", "cols", "stride_ir", "stride_or"])(
    kernels.matrix_transpose_kernel.fn)


# (kernel, variant, n, dtype, block, warps)
CASES = [
    ("copy", "plain", 4096, torch.float16, 64, 4),
    ("copy", "dns", 4096, torch.float16, 64, 4),
    ("copy", "plain", 4095, torch.float16, 64, 4),
    ("copy", "plain", 4096, torch.float32, 64, 4),
    ("copy", "dns", 4096, torch.float32, 64, 4),
    ("copy", "plain", 4095, torch.float32, 64, 4),
    ("copy", "dns", 4096, torch.float32, 32, 4),
    ("copy", "plain", 4095, torch.float32, 32, 4),
    ("transpose", "plain", 4096, torch.float32, 32, 4),
    ("transpose", "dns", 4096, torch.float32, 32, 4),
    ("transpose", "plain", 4095, torch.float32, 32, 4),
    ("transpose", "plain", 4095, torch.float16, 32, 4),
]


def launch(kernel, variant, n, dtype, block, warps, a, b):
    grid = (triton.cdiv(n, block), triton.cdiv(n, block))
    if kernel == "copy":
        fn = matcopy_dns if variant == "dns" else matcopy
        return fn[grid](a, b, n, a.stride(0), a.stride(1), BLOCK_SIZE=block, num_warps=warps)
    fn = transpose_dns if variant == "dns" else transpose
    return fn[grid](a, b, n, n, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                    BLOCK_SIZE=block, num_warps=warps)


def main():
    mode, out = sys.argv[1], sys.argv[2]
    rows = []
    for kernel, variant, n, dtype, block, warps in CASES:
        a = torch.randn((n, n), device="cuda", dtype=dtype)
        b = torch.full((n, n), float("nan"), device="cuda", dtype=dtype)
        ck = launch(kernel, variant, n, dtype, block, warps, a, b)
        torch.cuda.synchronize()
        if mode == "ncu":
            continue
        ref = a if kernel == "copy" else a.t()
        ok = bool(torch.equal(b, ref))
        ts = sorted(triton.testing.do_bench(
            lambda: launch(kernel, variant, n, dtype, block, warps, a, b), warmup=25, rep=100,
            return_mode="all"))
        f = facts.compiled_facts(ck)
        row = {"kernel": kernel, "variant": variant, "n": n, "dtype": str(dtype).split(".")[-1],
               "block": block, "num_warps": warps, "correct": ok,
               "median_ms": ts[len(ts) // 2], "min_ms": ts[0], "runs": len(ts),
               "n_regs": f.get("n_regs"), "ptx_global_load_bytes": f["ptx"]["global_load_bytes"],
               "ptx_global_store_bytes": f["ptx"]["global_store_bytes"]}
        rows.append(row)
        print(json.dumps(row), flush=True)
    if mode == "time":
        with open(out, "w") as fh:
            for r in rows:
                fh.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
