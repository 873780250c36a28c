"""When each program of seed 001's Triton matmul starts and ends, and on which SM (issue 25).

The CUDA rungs' block timelines (kernels/probes/block_timeline.cu) measured how the two programs
an SM holds share it (the older gets 0.6 of the dots under mma.sync: Machine::older_program_share)
and how far the waves drift apart. Triton's kernels on Hopper issue wgmma instead; this records
the same spans for seed 001's kernel as scripts/triton/kernels.py writes it, with %globaltimer
and %smid read before and after it (seed 001's kernel from scripts/triton/kernels.py, called
and inlined unchanged; the two reads cost a few registers).

Usage (GPU, repo root): python3 scripts/triton/block_timeline.py OUT_DIR [CASE ...]
CASE: MxNxK,BM,BN,BK,W,S (fp16; default: CASES below). One CSV a case, OUT_DIR/
seed001_MxNxK_BMxBNxBK_wW_sS.csv, in kernels/probes/block_timeline.cu's columns (variant, size,
order, launch, pid, pid_m, pid_n, sm, start_ns, end_ns; times from the launch's first start),
two launches after a warm-up; scripts/compare_spans.py reads it beside `tilesim-cli run
--programs-csv`.
"""
import datetime
import os
import sys

import torch
import triton
import triton.language as tl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels  # noqa: E402  (seed 001's kernel, as the seeds write it)

# (M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages): one wave of one and of two
# programs an SM (132 SMs: 12 x 11 and 12 x 22 tiles of 128), then the full launches whose DRAM
# bytes the model misses (assets/measured/ncu_seed001_h200.csv).
CASES = [
    (1536, 1408, 8192, 128, 128, 32, 4, 4),
    (1536, 2816, 8192, 128, 128, 32, 4, 4),
    (12288, 12288, 12288, 128, 128, 32, 4, 4),
    (8192, 8192, 8192, 128, 128, 32, 4, 4),
    (8192, 8192, 8192, 64, 64, 32, 4, 4),
]


@triton.jit
def _globaltimer(x):
    return tl.inline_asm_elementwise("mov.u64 $0, %globaltimer;", "=l,r", [x], dtype=tl.int64,
                                     is_pure=False, pack=1)


@triton.jit
def _smid(x):
    return tl.inline_asm_elementwise("mov.u32 $0, %smid;", "=r,r", [x], dtype=tl.int32,
                                     is_pure=False, pack=1)


@triton.jit
def timed_matmul_kernel(a_ptr, b_ptr, c_ptr, t_ptr, M, N, K,
                        stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                        BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                        BLOCK_SIZE_K: tl.constexpr):
    # Seed 001's kernel itself (scripts/triton/kernels.py, inlined) between two clock reads.
    pid = tl.program_id(axis=0)
    start = _globaltimer(pid)
    kernels.matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                          stride_bn, stride_cm, stride_cn, BLOCK_SIZE_M, BLOCK_SIZE_N,
                          BLOCK_SIZE_K)
    end = _globaltimer(pid)
    sm = _smid(pid)
    tl.store(t_ptr + pid * 3, start)
    tl.store(t_ptr + pid * 3 + 1, end)
    tl.store(t_ptr + pid * 3 + 2, sm.to(tl.int64))


def run_case(out, m, n, k, bm, bn, bk, w, s, launches=2):
    a = torch.randn((m, k), device="cuda", dtype=torch.float16)
    b = torch.randn((k, n), device="cuda", dtype=torch.float16)
    c = torch.empty((m, n), device="cuda", dtype=torch.float16)
    pm, pn = triton.cdiv(m, bm), triton.cdiv(n, bn)
    programs = pm * pn
    t = torch.zeros((programs, 3), device="cuda", dtype=torch.int64)

    def launch():
        return timed_matmul_kernel[(programs,)](
            a, b, c, t, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
            c.stride(0), c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
            num_warps=w, num_stages=s)

    ck = launch()  # warm-up (compiles)
    torch.cuda.synchronize()
    # Correctness first: against torch's matmul in fp32 (relative to the output's scale).
    ref = (a.float() @ b.float())
    err = ((c.float() - ref).abs().max() / ref.abs().max()).item()
    name = f"seed001_{m}x{n}x{k}_{bm}x{bn}x{bk}_w{w}_s{s}"
    rows = []
    for launch_no in range(1, launches + 1):
        t.zero_()
        launch()
        torch.cuda.synchronize()
        spans = t.cpu().tolist()
        first = min(r[0] for r in spans)
        for pid, (st, en, sm) in enumerate(spans):
            rows.append(f"seed001_matmul,{m}x{n}x{k},column-major,{launch_no},{pid},"
                        f"{pid % pm},{pid // pm},{sm},{st - first},{en - first}")
    props = torch.cuda.get_device_properties(0)
    with open(os.path.join(out, name + ".csv"), "w") as fh:
        fh.write(f"# {props.name} ({datetime.date.today()}), Triton {triton.__version__}, "
                 f"seed 001's matmul_kernel fp16 {m}x{n}x{k} {bm}x{bn}x{bk} num_warps {w} "
                 f"num_stages {s}, registers {ck.n_regs}, spills {ck.n_spills}, "
                 f"max rel error {err:.2e}; "
                 "scripts/triton/block_timeline.py, %globaltimer and %smid before and after "
                 "the kernel; times in ns from the launch's first start\n")
        fh.write("variant,size,order,launch,pid,pid_m,pid_n,sm,start_ns,end_ns\n")
        fh.write("\n".join(rows) + "\n")
    print(f"{name}: {programs} programs, regs {ck.n_regs}, spills {ck.n_spills}, err {err:.2e}")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    cases = CASES
    if len(sys.argv) > 2:
        cases = []
        for arg in sys.argv[2:]:
            size, *rest = arg.split(",")
            cases.append(tuple(int(x) for x in size.split("x")) + tuple(int(x) for x in rest))
    for case in cases:
        run_case(out, *case)


if __name__ == "__main__":
    main()
