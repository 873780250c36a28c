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

Usage (GPU, repo root; a third argument `pad` runs PAD_CASES, the padded-stride control):
  python3 scripts/triton/narrow_matmul_probe.py time OUT.jsonl [pad]  # do_bench median, L2 flushed
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

# The control (`pad`, docs/TRITON_SPLIT.md version 5): the same 4096^3 problem with every row
# stride padded to P elements (the specialized kernel: a stride of 4100 or 4104 is not a multiple
# of 16, so 4-byte copies), beside the `dns` kernel on unpadded rows: the same waves, no masked K
# step and no edge programs, so what remains is where the rows start (4100: 16 bytes apart,
# mid-sector; 4104: 32 bytes apart, on a sector but off a line). And 4104^3 itself.
PAD_CASES = [
    (prec, layout, 4096, 4096, 4096, variant)
    for prec, layout in (("tf32", "transposed"), ("tf32", "row-major"), ("ieee", "transposed"))
    for variant in ("dns", "pad4100", "pad4104")
] + [("tf32", "transposed", 4104, 4104, 4104, "plain"),
     ("tf32", "row-major", 4104, 4104, 4104, "plain")]


def setup(prec, layout, m, n, k, variant):
    dt = torch.float16 if prec == "fp16" else torch.float32
    g = torch.Generator(device="cuda").manual_seed(m * 7 + k)
    # Row stride P: every row of A, B (or B^T) and C padded to P elements (the padding unused).
    pad = int(variant[3:]) if variant.startswith("pad") else None
    rnd = lambda r, cols: torch.randn(r, pad or cols, device="cuda", generator=g).to(dt)[:, :cols]
    a = rnd(m, k)
    if layout == "transposed":
        bv = rnd(n, k).T if pad else rnd(k, n).T.contiguous().T
    else:
        bv = rnd(k, n)
    b = bv
    c = torch.full((m, pad or n), float("nan"), device="cuda", dtype=dt)[:, :n]
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
    cases = PAD_CASES if sys.argv[3:] == ["pad"] else CASES
    rows = []
    for prec, layout, m, n, k, variant in cases:
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
               "strides": {"a": a.stride(), "b": b.stride(), "c": c.stride()},
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
