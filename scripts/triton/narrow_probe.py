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
      -k "regex:^(matcopy|matcopy_dns|transpose|transpose_dns)$" \
      python3 scripts/triton/narrow_probe.py ncu /dev/null > ncu.csv   # one launch each, in order
"""
import json
import os
import sys

import torch
import triton
import triton.language as tl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import facts  # noqa: E402


# One jit function per variant: Triton names the kernel after its function (ncu's -k), and
# `do_not_specialize` is fixed per function. The bodies are scripts/triton/kernels.py's.
@triton.jit
def matcopy(A_ptr, B_ptr, N, stride_row, stride_col, BLOCK_SIZE: tl.constexpr):
    pid0 = tl.program_id(0)
    pid1 = tl.program_id(1)
    offset0 = pid0 * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    offset1 = pid1 * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = (offset0[:, None] < N) & (offset1[None, :] < N)
    offset = offset0[:, None] * stride_row + offset1[None, :] * stride_col
    tl.store(B_ptr + offset, tl.load(A_ptr + offset, mask=mask), mask=mask)


@triton.jit(do_not_specialize=["N", "stride_row"])
def matcopy_dns(A_ptr, B_ptr, N, stride_row, stride_col, BLOCK_SIZE: tl.constexpr):
    pid0 = tl.program_id(0)
    pid1 = tl.program_id(1)
    offset0 = pid0 * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    offset1 = pid1 * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = (offset0[:, None] < N) & (offset1[None, :] < N)
    offset = offset0[:, None] * stride_row + offset1[None, :] * stride_col
    tl.store(B_ptr + offset, tl.load(A_ptr + offset, mask=mask), mask=mask)


@triton.jit
def transpose(input, output, rows, cols, stride_ir, stride_ic, stride_or, stride_oc,
              BLOCK_SIZE: tl.constexpr):
    pid1 = tl.program_id(axis=0)
    pid2 = tl.program_id(axis=1)
    rows_ = pid1 * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    cols_ = pid2 * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    input_offsets = input + rows_[:, None] * stride_ir + cols_[None, :] * stride_ic
    input_mask = (rows_[:, None] < rows) & (cols_[None, :] < cols)
    output_offsets = output + cols_[:, None] * stride_or + rows_[None, :] * stride_oc
    output_mask = (cols_[:, None] < cols) & (rows_[None, :] < rows)
    matrix = tl.load(input_offsets, mask=input_mask)
    tl.store(output_offsets, tl.trans(matrix), mask=output_mask)


@triton.jit(do_not_specialize=["rows", "cols", "stride_ir", "stride_or"])
def transpose_dns(input, output, rows, cols, stride_ir, stride_ic, stride_or, stride_oc,
                  BLOCK_SIZE: tl.constexpr):
    pid1 = tl.program_id(axis=0)
    pid2 = tl.program_id(axis=1)
    rows_ = pid1 * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    cols_ = pid2 * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    input_offsets = input + rows_[:, None] * stride_ir + cols_[None, :] * stride_ic
    input_mask = (rows_[:, None] < rows) & (cols_[None, :] < cols)
    output_offsets = output + cols_[:, None] * stride_or + rows_[None, :] * stride_oc
    output_mask = (cols_[:, None] < cols) & (rows_[None, :] < rows)
    matrix = tl.load(input_offsets, mask=input_mask)
    tl.store(output_offsets, tl.trans(matrix), mask=output_mask)


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
