"""How fast does DRAM serve a matmul's A tiles when every resident program reads its own rows?
(issue 25, seed 001's 64 x 64 x 32 in column-major order)

Seed 001's column-major launch puts hundreds of programs with different row blocks of A on the
GPU at once, each reading BK elements of its 64 rows per K step: the DRAM sees runs of BK x 2
bytes (64 at BK = 32, fp16) spread over thousands of rows. ncu says those launches move their
DRAM bytes at 52-54 % of the H200's peak (assets/measured/ncu_seed001_h200.csv), where copies and
the tutorial's row-major launches reach 74-89 %. This probe separates the address pattern from
everything else: one kernel, each program summing its BM x K row block tile by tile (BM x BK
per step, pipelined by num_stages like the matmul's loads), over a 512 MB fp16 matrix read
exactly once (65,536 x 4,096: 1,024 programs, several resident an SM), in two layouts with the same instructions:
- "strided": row-major A (row r at r * K): a tile is BM runs of BK x 2 bytes, K x 2 bytes apart;
- "tiled": the same tiles stored one after another (each BM x BK tile contiguous).
The ratio of the two times, per BK, is what the rows' short runs cost the DRAM.

Usage (GPU, repo root): python3 scripts/triton/strip_probe.py OUT.jsonl
"""
import datetime
import json
import subprocess
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def strip_sum(a_ptr, out_ptr, K, stride_p, stride_kt, stride_r,
              BM: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    rows = tl.arange(0, BM)
    cols = tl.arange(0, BK)
    base = a_ptr + pid * stride_p + rows[:, None] * stride_r + cols[None, :]
    acc = tl.zeros((BM, BK), dtype=tl.float32)
    for kt in range(0, K // BK):
        acc += tl.load(base + kt * stride_kt).to(tl.float32)
    tl.store(out_ptr + pid * BM + rows, tl.sum(acc, axis=1))


def main(out_path):
    # 1,024 programs of 64 rows (several resident an SM, as seed 001's are), 512 MB.
    M, K = 65536, 4096
    BM = 64
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    out = torch.empty(M, device="cuda", dtype=torch.float32)
    bytes_read = a.numel() * a.element_size()
    driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                            capture_output=True, text=True).stdout.strip()
    info = {"gpu": torch.cuda.get_device_name(), "driver": driver,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
            "triton": triton.__version__,
            "torch": torch.__version__, "m": M, "k": K, "block_m": BM, "dtype": "fp16"}
    with open(out_path, "w") as f:
        f.write(json.dumps({"header": info}) + "\n")
        # The DRAM's streaming read rate on this GPU, for scale: torch's row sums of the matrix.
        ms = triton.testing.do_bench(lambda: a.sum(dim=1), warmup=25, rep=200,
                                     return_mode="median")
        rec = {"layout": "torch_row_sum", "median_ms": ms, "bytes": bytes_read,
               "tb_per_s": bytes_read / (ms * 1e-3) / 1e12}
        f.write(json.dumps(rec) + "\n")
        print(json.dumps(rec), flush=True)
        for bk in (16, 32, 64, 128):
            for layout in ("strided", "tiled"):
                for warps, stages in ((4, 3), (8, 4)):
                    if layout == "strided":
                        strides = (BM * K, bk, K)
                    else:
                        strides = (BM * K, BM * bk, bk)
                    grid = (M // BM,)

                    def run():
                        strip_sum[grid](a, out, K, *strides, BM=BM, BK=bk,
                                        num_warps=warps, num_stages=stages)

                    run()
                    torch.cuda.synchronize()
                    # Program p reads a's rows p*BM .. (p+1)*BM in either layout (the tiled one
                    # reads them as its tiles): its sums are the same set of values either way.
                    ref = a.float().view(M // BM, BM, K).sum(dim=2)
                    if layout == "tiled":  # row r of a tile block: the r-th BK run of each tile
                        ref = a.float().view(M // BM, K // bk, BM, bk).sum(dim=(1, 3))
                    err = ((out.view(M // BM, BM) - ref).abs().max() / ref.abs().max()).item()
                    ms = triton.testing.do_bench(run, warmup=25, rep=200, return_mode="median")
                    rec = {"block_k": bk, "run_bytes": bk * 2, "layout": layout,
                           "num_warps": warps, "num_stages": stages, "median_ms": ms,
                           "bytes": bytes_read, "tb_per_s": bytes_read / (ms * 1e-3) / 1e12,
                           "rel_error": err}
                    f.write(json.dumps(rec) + "\n")
                    print(json.dumps(rec), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
