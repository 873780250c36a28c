"""Why are the tutorial matmul's 4-byte cp.async loads slow? (issue 25)

At sizes whose row strides are not multiples of 16 (4100^3, 8192 x 8192 x 8190), fp32 tiles are
copied with 4-byte cp.async instead of 16-byte ones, and the GPU runs 13-26 % slower than at the
aligned size where the model says 0-14 % (fp32-ieee B^T, tf32 both layouts; the B^T / B ratios
and the tf32 misses of docs/TRITON_REPORT.md). Three things change together there: the copy
width (4x the copy instructions), the rows' alignment (a 128-byte row chunk that starts mid-sector
touches 5 sectors and often 2 lines), and the registers (and with them the programs an SM). This
separates them as narrow_probe.py does for the copies: the same kernel compiled again with
`do_not_specialize` on the row strides (the unit strides and M, N, K stay specialized: lanes stay
contiguous and the K mask stays vectorizable), so at 4096 Triton cannot prove the rows 16-byte
aligned and copies 4 bytes at a time from rows that start on a sector.

Usage (GPU, repo root):
  python3 scripts/triton/narrow_matmul_probe.py time OUT.jsonl   # do_bench median, L2 flushed
  ncu --csv --page raw --set full --import-source no --cache-control all --clock-control none \
      -k "regex:^tutorial_matmul_kernel$" \
      python3 scripts/triton/narrow_matmul_probe.py ncu /dev/null > ncu.csv  # one launch each
"""
import json
import os
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import facts  # noqa: E402
import kernels  # noqa: E402

_FN = kernels.tutorial_matmul_kernel.fn
# The row strides of A, B (row-major: stride_bk; transposed: stride_bn) and C unspecialized.
DNS = {
    "row-major": triton.jit(do_not_specialize=["stride_am", "stride_bk", "stride_cm"])(_FN),
    "transposed": triton.jit(do_not_specialize=["stride_am", "stride_bn", "stride_cm"])(_FN),
}

# (precision, B layout, m, n, k, variant): blocks as the sweep's (128x128x32 w8 s3 for fp32,
# 128x128x64 w8 s3 for fp16), G = 8.
CASES = [
    ("tf32", "transposed", 4096, 4096, 4096, "plain"),
    ("tf32", "transposed", 4096, 4096, 4096, "dns"),
    ("tf32", "transposed", 4100, 4100, 4100, "plain"),
    ("tf32", "row-major", 4096, 4096, 4096, "plain"),
    ("tf32", "row-major", 4096, 4096, 4096, "dns"),
    ("tf32", "row-major", 4100, 4100, 4100, "plain"),
    ("ieee", "transposed", 4096, 4096, 4096, "plain"),
    ("ieee", "transposed", 4096, 4096, 4096, "dns"),
    ("ieee", "transposed", 4100, 4100, 4100, "plain"),
    ("ieee", "row-major", 4096, 4096, 4096, "plain"),
    ("ieee", "row-major", 4096, 4096, 4096, "dns"),
    ("ieee", "row-major", 4100, 4100, 4100, "plain"),
    ("fp16", "row-major", 8192, 8192, 8192, "plain"),
    ("fp16", "row-major", 8192, 8192, 8192, "dns"),
    ("fp16", "row-major", 8192, 8192, 8190, "plain"),
]


def setup(prec, layout, m, n, k, variant):
    dt = torch.float16 if prec == "fp16" else torch.float32
    g = torch.Generator(device="cuda").manual_seed(m * 7 + k)
    a = torch.randn(m, k, device="cuda", generator=g).to(dt)
    b = torch.randn(k, n, device="cuda", generator=g).to(dt)
    bv = b.T.contiguous().T if layout == "transposed" else b
    c = torch.full((m, n), float("nan"), device="cuda", dtype=dt)
    fn = DNS[layout] if variant == "dns" else kernels.tutorial_matmul_kernel
    bk = 64 if prec == "fp16" else 32
    grid = (triton.cdiv(m, 128) * triton.cdiv(n, 128),)
    args = (a, bv, c, m, n, k, a.stride(0), a.stride(1), bv.stride(0), bv.stride(1),
            c.stride(0), c.stride(1))
    kw = dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=bk, GROUP_SIZE_M=8,
              INPUT_PRECISION="ieee" if prec == "fp16" else prec, num_warps=8, num_stages=3)
    return fn, args, kw, grid, a, b, c


def main():
    mode, out = sys.argv[1], sys.argv[2]
    rows = []
    for prec, layout, m, n, k, variant in CASES:
        fn, args, kw, grid, a, b, c = setup(prec, layout, m, n, k, variant)
        ck = fn[grid](*args, **kw)
        torch.cuda.synchronize()
        if mode == "ncu":
            continue
        ref = a.double() @ b.double()
        err = (torch.linalg.norm(c.double() - ref) / torch.linalg.norm(ref)).item()
        ts = sorted(triton.testing.do_bench(lambda: fn[grid](*args, **kw), warmup=25, rep=100,
                                            return_mode="all"))
        f = facts.compiled_facts(ck)
        row = {"precision": prec, "b_layout": layout, "m": m, "n": n, "k": k, "variant": variant,
               "rel_error": err, "median_ms": ts[len(ts) // 2], "min_ms": ts[0], "runs": len(ts),
               "n_regs": f.get("n_regs"), "n_spills": f.get("n_spills"),
               "shared": f.get("shared"), "ptx": f["ptx"],
               "layouts": f["ttgir"].get("layouts"), "arg_divisibility":
                   f["ttgir"].get("arg_divisibility")}
        rows.append(row)
        print(json.dumps({x: row[x] for x in ("precision", "b_layout", "m", "k", "variant",
                                              "rel_error", "median_ms", "n_regs")}),
              f["ptx"]["cp_async_bytes"], flush=True)
        del a, b, c, args
        torch.cuda.empty_cache()
    if mode == "time":
        with open(out, "w") as fh:
            for r in rows:
                fh.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
