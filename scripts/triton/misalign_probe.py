"""Where does a misaligned narrow access lose its time: the sector it straddles, the 128-byte line
it crosses, its loads or its stores, the DRAM or the L2? (issue 25)

docs/TRITON_FINDINGS.md ("Copies and transposes at N = 4095") found that Triton's copies whose rows
start mid-sector run 34-57 % slower than the same narrow accesses on aligned rows, with the same
DRAM bytes. This probe separates the candidates with one-dimensional kernels whose every access is
narrow (the base offset is a runtime argument Triton cannot prove divisible by 16, so the loads are
2 bytes a thread in fp16 and 4 in fp32, 32 lanes contiguous: one warp access spans 64 or 128
bytes), shifted by `shift` elements from a 128-byte line:
- shift 0: aligned (the baseline: the same instructions as every other shift);
- one element: every access straddles sectors (fp16: 2.94 sectors where 2 would do) and some
  cross a 128-byte line;
- 32 bytes (fp16 16, fp32 8 elements): sectors whole, but accesses cross lines (fp16: every
  other one; fp32: every one), so the sector count is unchanged and only the line requests grow;
- 64 bytes (fp16 32 elements): sectors whole, no line crossed (a control).
Each in three modes: "copy" (load, then store, as seed 000's copy), "load" (loads summed into one
value a program) and "store" (a constant stored), and two regimes: "dram" (256 MiB a buffer,
do_bench with the L2 flushed) and "l2" (24 MiB a buffer, well inside the 50 MiB L2, timed as a CUDA
graph of 20 back-to-back launches with no flush, so the data stays in the L2).

Usage (GPU, repo root): python3 scripts/triton/misalign_probe.py OUT.jsonl
"""
import json
import sys

import os

import torch
import triton
import triton.language as tl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels  # noqa: E402


@triton.jit(do_not_specialize=["n", "shift"])
def probe1d(src, dst, sums, n, shift, BLOCK: tl.constexpr, MODE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    if MODE == 0:
        x = tl.load(src + shift + offs, mask=m)
        tl.store(dst + shift + offs, x, mask=m)
    elif MODE == 1:
        x = tl.load(src + shift + offs, mask=m, other=0.0)
        tl.store(sums + pid, tl.sum(x.to(tl.float32), axis=0))
    else:
        tl.store(dst + shift + offs, tl.full((BLOCK,), 1.0, dst.dtype.element_ty), mask=m)


MODES = {"copy": 0, "load": 1, "store": 2}
# Shifts in elements: aligned, one element, 32 bytes, 64 bytes (fp16 only: fp32's 64 bytes
# crosses every line, as its 32 bytes does).
SHIFTS = {torch.float16: [0, 1, 16, 32], torch.float32: [0, 1, 8]}
REGIMES = {"dram": 256 << 20, "l2": 24 << 20}
BLOCK, WARPS = 4096, 4


def time_graph(fn, launches=20, reps=15):
    """Median over reps of one replay of a graph of `launches` back-to-back launches, per launch (ms)."""
    fn()
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(launches):
            fn()
    g.replay()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b) / launches)
    ts.sort()
    return ts[len(ts) // 2]


def main():
    out = sys.argv[1]
    rows = []
    for regime, nbytes in REGIMES.items():
        for dtype, shifts in SHIFTS.items():
            esize = torch.tensor([], dtype=dtype).element_size()
            n = nbytes // esize
            src = torch.randn(n + 64, device="cuda", dtype=dtype)
            dst = torch.empty(n + 64, device="cuda", dtype=dtype)
            grid = (triton.cdiv(n, BLOCK),)
            sums = torch.empty(grid[0], device="cuda", dtype=torch.float32)
            for mode, code in MODES.items():
                for shift in shifts:
                    def fn():
                        probe1d[grid](src, dst, sums, n, shift, BLOCK=BLOCK, MODE=code,
                                      num_warps=WARPS)
                    dst.fill_(float("nan"))
                    ck = probe1d[grid](src, dst, sums, n, shift, BLOCK=BLOCK, MODE=code,
                                       num_warps=WARPS)
                    torch.cuda.synchronize()
                    if mode == "copy":
                        ok = bool(torch.equal(dst[shift:shift + n], src[shift:shift + n]))
                    elif mode == "store":
                        ok = bool((dst[shift:shift + n] == 1).all())
                    else:
                        ref = src[shift:shift + n].float().view(-1, BLOCK).sum(1)
                        ok = bool(torch.allclose(sums, ref, rtol=1e-3, atol=1e-2))
                    if regime == "dram":
                        ms = triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median")
                    else:
                        ms = time_graph(fn)
                    ptx = ck.asm["ptx"]
                    widths = sorted({tok for ln in ptx.splitlines() for tok in ln.split()
                                     if tok.startswith(("ld.global", "st.global"))})
                    moved = n * esize * (2 if mode == "copy" else 1)
                    row = {"regime": regime, "dtype": str(dtype).split(".")[-1], "mode": mode,
                           "shift_elems": shift, "shift_bytes": shift * esize, "n": n,
                           "correct": ok, "median_ms": ms, "gb_per_s": moved / ms / 1e6,
                           "n_regs": ck.n_regs, "ptx_accesses": widths}
                    rows.append(row)
                    print(json.dumps(row), flush=True)
    # Seed 000's copy itself with its rows in the L2: 2048 with N's divisibility unproven (narrow,
    # aligned rows) against 2047 (narrow, rows mid-sector), 8 or 16 MiB a matrix.
    copy_dns = triton.jit(do_not_specialize=["N", "stride_row"])(kernels.matcopy.fn)
    for dtype in (torch.float16, torch.float32):
        for n, fn_ in ((2048, copy_dns), (2047, kernels.matcopy)):
            a = torch.randn((n, n), device="cuda", dtype=dtype)
            b = torch.full((n, n), float("nan"), device="cuda", dtype=dtype)
            grid = (triton.cdiv(n, 64), triton.cdiv(n, 64))

            def fn():
                fn_[grid](a, b, n, a.stride(0), a.stride(1), BLOCK_SIZE=64, num_warps=4)
            fn()
            torch.cuda.synchronize()
            ok = bool(torch.equal(a, b))
            ms = time_graph(fn)
            row = {"regime": "l2", "dtype": str(dtype).split(".")[-1], "mode": "matcopy2d",
                   "shift_elems": 0 if n == 2048 else -1, "n": n, "correct": ok, "median_ms": ms,
                   "gb_per_s": 2 * a.numel() * a.element_size() / ms / 1e6}
            rows.append(row)
            print(json.dumps(row), flush=True)
    with open(out, "w") as fh:
        for r in rows:
            fh.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
