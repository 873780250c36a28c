"""Each program's SM clock inside one launch of Triton's tutorial matmul, in do_bench's loop.

python3 clock_trace.py --out DIR [--loop-ms 300] [--pairs | --blocks]

Why: NVML (clock_probe.py) reads the clock every few ms, so it cannot tell whether a 0.2 ms kernel
starts at the maximum clock and falls inside itself (what the timed engine's curve assumes) or
runs at one clock that the loop's average power set. Here the tutorial kernel, unchanged but
for two reads at its start and two at its end (%globaltimer in ns and %clock64 in cycles, by
inline PTX), records each program's SM, span and cycles: its clock is cycles / ns. Each
configuration is traced (a) on a cold GPU after 300 ms idle, memset then kernel, and (b) as the
last launch of a do_bench-like loop (memset of 256 MB, launch) of --loop-ms; (c) the loop's
median time with and without the trace reads, to show they cost nothing.
Writes DIR/trace.json (assets/measured keeps it as JSONL, a line per configuration): per configuration and case, the kernel's ns span and, in bins of program
start time, the mean clock (MHz) of the programs that started in the bin.
"""
import argparse
import json
import os
import time

import torch
import triton
import triton.language as tl


@triton.jit
def _timer():
    return tl.inline_asm_elementwise("mov.u64 $0, %globaltimer;", "=l", [], dtype=tl.uint64,
                                     is_pure=False, pack=1)


@triton.jit
def _cycles():
    return tl.inline_asm_elementwise("mov.u64 $0, %clock64;", "=l", [], dtype=tl.uint64,
                                     is_pure=False, pack=1)


@triton.jit
def _smid():
    return tl.inline_asm_elementwise("mov.u32 $0, %smid;", "=r", [], dtype=tl.int32,
                                     is_pure=True, pack=1)


@triton.jit
def traced_matmul(a_ptr, b_ptr, c_ptr, trace_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                  BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr, TRACE: tl.constexpr):
    # Triton's tutorial 03 (scripts/triton/kernels.py's tutorial_matmul_kernel), with the reads.
    if TRACE:
        t0 = _timer()
        c0 = _cycles()
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    c = accumulator.to(c_ptr.dtype.element_ty)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)
    if TRACE:
        t1 = _timer()
        c1 = _cycles()
        base = trace_ptr + pid * 6
        tl.store(base + 0, t0.to(tl.int64))
        tl.store(base + 1, t1.to(tl.int64))
        tl.store(base + 2, c0.to(tl.int64))
        tl.store(base + 3, c1.to(tl.int64))
        tl.store(base + 4, _smid().to(tl.int64))


CONFIGS = [  # (M, N, K, dtype, BM, BN, BK, G, warps, stages): the fit set's shapes, short to long
    (2048, 2048, 2048, "fp16", 128, 128, 64, 8, 8, 3),
    (4096, 4096, 4096, "fp16", 128, 128, 64, 8, 8, 3),
    (4096, 4096, 4096, "bf16", 128, 128, 64, 8, 8, 3),
    (8192, 8192, 8192, "fp16", 128, 128, 64, 8, 8, 3),
    (16384, 16384, 16384, "fp16", 128, 128, 64, 8, 8, 3),
    (16384, 16384, 16384, "bf16", 128, 128, 64, 8, 8, 3),
]
# --pairs: supplement 20's one-wave shapes (docs/TRITON_SPLIT.md version 20), one program an SM
# (1536 x 1408) against two (3072 x 1408), short to long: the clock a lone program and a pair
# run at inside do_bench's loop.
PAIR_CONFIGS = [(m, 1408, k, "fp16", 128, 128, 64, 8, 8, 3)
                for k in (4096, 16384, 65536) for m in (1536, 3072)]
# --blocks: the fit set's other tiles at 4096^3 and 8192^3 (fp16): the clock across pipe loads.
BLOCK_CONFIGS = [(n, n, n, "fp16", bm, bn, bk, 8, w, s) for n in (4096, 8192)
                 for (bm, bn, bk, w, s) in ((64, 64, 32, 4, 4), (128, 128, 32, 4, 4),
                                            (128, 256, 64, 8, 3), (256, 128, 64, 8, 3),
                                            (64, 128, 32, 4, 4))]
DT = {"fp16": torch.float16, "bf16": torch.bfloat16}


def bins_of(tr, t_base):
    """Programs binned by start time: (bin start us, bin end us, n, mean MHz, min, max)."""
    t0, t1, c0, c1 = (tr[:, i].double() for i in range(4))
    start_us = (t0 - t_base) / 1e3
    mhz = (c1 - c0) / (t1 - t0).clamp(min=1) * 1e3
    span_us = float((t1.max() - t_base) / 1e3)
    edges = [0.0]
    for w in (10.0, 50.0, 200.0, 1000.0):
        while edges[-1] < min(span_us, w * 10):
            edges.append(edges[-1] + w)
    while edges[-1] < span_us:
        edges.append(edges[-1] + 1000.0)
    out = []
    for a, b in zip(edges, edges[1:]):
        sel = (start_us >= a) & (start_us < b)
        if int(sel.sum()):
            m = mhz[sel]
            out.append((a, b, int(sel.sum()), float(m.mean()), float(m.min()), float(m.max())))
    return span_us, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--loop-ms", type=float, default=300)
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--pairs", action="store_true",
                       help="supplement 20's lone and paired one-wave shapes instead of CONFIGS")
    which.add_argument("--blocks", action="store_true",
                       help="the fit set's other tiles at 4096^3 and 8192^3 instead of CONFIGS")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    flush = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    res = []
    configs = PAIR_CONFIGS if a.pairs else BLOCK_CONFIGS if a.blocks else CONFIGS
    for (m, n, k, dt, bm, bn, bk, g, w, s) in configs:
        x = torch.randn(m, k, device="cuda").to(DT[dt])
        y = torch.randn(k, n, device="cuda").to(DT[dt])
        z = torch.empty(m, n, device="cuda", dtype=DT[dt])
        progs = triton.cdiv(m, bm) * triton.cdiv(n, bn)
        tr = torch.zeros(progs, 6, dtype=torch.int64, device="cuda")

        def launch(trace):
            traced_matmul[(progs,)](x, y, z, tr, m, n, k, x.stride(0), x.stride(1), y.stride(0),
                                    y.stride(1), z.stride(0), z.stride(1), BLOCK_SIZE_M=bm,
                                    BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=g,
                                    TRACE=trace, num_warps=w, num_stages=s)

        launch(True), launch(False)
        torch.cuda.synchronize()
        err = float((z.float() - (x.float() @ y.float())).abs().max()) if m <= 4096 else None
        rec = {"config": f"{m}x{n}x{k}|{dt}|{bm}x{bn}x{bk}|G{g}|w{w}s{s}", "programs": progs,
               "max_abs_err": err}
        # (a) cold: 300 ms idle, then memset and one traced launch.
        time.sleep(0.3)
        flush.zero_()
        launch(True)
        torch.cuda.synchronize()
        t = tr.cpu()
        span, b = bins_of(t, int(t[:, 0].min()))
        rec["cold"] = {"span_us": span, "bins": b}
        # (b) the loop: memset + launch for loop_ms, the last launch traced; (c) its times.
        for trace in (False, True):
            ev = []
            t_end = time.time() + a.loop_ms / 1e3
            while time.time() < t_end:
                e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                flush.zero_()
                e0.record()
                launch(trace)
                e1.record()
                ev.append((e0, e1))
                if len(ev) % 20 == 0:
                    torch.cuda.synchronize()
            torch.cuda.synchronize()
            ms = sorted(e0.elapsed_time(e1) for e0, e1 in ev[len(ev) // 4:])
            rec[f"loop_median_ms_{'traced' if trace else 'plain'}"] = ms[len(ms) // 2]
            rec[f"loop_runs_{'traced' if trace else 'plain'}"] = len(ev)
        t = tr.cpu()
        span, b = bins_of(t, int(t[:, 0].min()))
        rec["loop_last"] = {"span_us": span, "bins": b}
        res.append(rec)
        print(json.dumps({k2: v for k2, v in rec.items() if k2 not in ("cold", "loop_last")}),
              flush=True)
        for case in ("cold", "loop_last"):
            print(f"  {case}: span {rec[case]['span_us']:.1f} us; " + "; ".join(
                f"{b0:.0f}-{b1:.0f}us {mhz:.0f} MHz (n{nn}, {lo:.0f}-{hi:.0f})"
                for b0, b1, nn, mhz, lo, hi in rec[case]["bins"][:12]), flush=True)
        del x, y, z, tr
        torch.cuda.empty_cache()
    json.dump(res, open(os.path.join(a.out, "trace.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
