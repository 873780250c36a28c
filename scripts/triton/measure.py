"""Time, check and read the compiler's choices for every configuration of sweep.py.

python3 measure.py --out DIR [--deadline S] [--only N] [--precompile J] [--ncu-mode]
Writes DIR/header.json first and DIR/records.jsonl one line per configuration as it goes, so a
timeout still leaves data. Timing: triton.testing.do_bench (median of its runs; it zeroes a
256 MB buffer before every run, which flushes L2 -- header.do_bench says what the installed
version does). A result is checked against float64 on the GPU before it is timed; a wrong
result is recorded with correct=false (and still timed, so its record says both).
--ncu-mode launches each ncu-subset configuration exactly once (no checks, no timing) for
ncu_subset.py, writing DIR/ncu_order.json.
"""
import argparse
import hashlib
import inspect
import json
import os
import subprocess
import sys
import time
from datetime import datetime, timezone

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import facts  # noqa: E402
import kernels as K  # noqa: E402
import sweep  # noqa: E402

DT = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32}
TOL = {("fp16", ""): 2e-3, ("bf16", ""): 1e-2, ("fp32", "tf32"): 5e-3, ("fp32", "ieee"): 1e-4}


def input_key(c):
    return (c["kernel"] in ("copy", "transpose"), c["m"], c["n"], c["k"], c["dtype"])


def make_inputs(c):
    seed = int(hashlib.sha256(repr(input_key(c)).encode()).hexdigest()[:8], 16)
    g = torch.Generator(device="cuda").manual_seed(seed)
    dt = DT[c["dtype"]]
    if c["kernel"] in ("copy", "transpose"):
        return {"a": torch.randn(c["m"], c["n"], device="cuda", generator=g).to(dt)}
    a = torch.randn(c["m"], c["k"], device="cuda", generator=g).to(dt)
    b = torch.randn(c["k"], c["n"], device="cuda", generator=g).to(dt)
    return {"a": a, "b": b}


def build(c, inp):
    """(jit function, args, kwargs, grid, output tensor) for one configuration."""
    m, n, k = c["m"], c["n"], c["k"]
    a = inp["a"]
    kw = dict(num_warps=c["num_warps"], num_stages=c["num_stages"])
    cd = triton.cdiv
    if c["kernel"] == "copy":
        out = torch.empty_like(a)
        return (K.matcopy, (a, out, m, a.stride(0), a.stride(1)),
                dict(BLOCK_SIZE=c["block_m"], **kw), (cd(m, c["block_m"]), cd(m, c["block_m"])), out)
    if c["kernel"] == "transpose":
        out = torch.empty(n, m, device="cuda", dtype=a.dtype)
        return (K.matrix_transpose_kernel, (a, out, m, n, n, 1, m, 1),
                dict(BLOCK_SIZE=c["block_m"], **kw), (cd(m, c["block_m"]), cd(n, c["block_m"])), out)
    b = inp["b"]
    if c["b_layout"] == "transposed":
        if "bt" not in inp:
            inp["bt"] = b.T.contiguous()  # n x k in memory
        bt = inp["bt"]
        bv = bt.T                          # logical k x n, strides (1, k)
    else:
        bt, bv = None, b
    kern = c["kernel"]
    if kern == "seed000_matmul":
        out = torch.empty(m, n, device="cuda", dtype=torch.float32)
        return (K.seed000_matmul_kernel,
                (a, bv, out, m, k, n, a.stride(0), a.stride(1), bv.stride(0), bv.stride(1),
                 out.stride(0), out.stride(1)),
                dict(BLOCK_M=c["block_m"], BLOCK_N=c["block_k"], BLOCK_K=c["block_n"], **kw),
                (cd(m, c["block_m"]), cd(n, c["block_n"])), out)
    if kern == "seed001":
        out = torch.empty(m, n, device="cuda", dtype=a.dtype)
        return (K.matmul_kernel,
                (a, bv, out, m, n, k, a.stride(0), a.stride(1), bv.stride(0), bv.stride(1),
                 out.stride(0), out.stride(1)),
                dict(BLOCK_SIZE_M=c["block_m"], BLOCK_SIZE_N=c["block_n"],
                     BLOCK_SIZE_K=c["block_k"], **kw),
                (cd(m, c["block_m"]) * cd(n, c["block_n"]),), out)
    if kern == "seed003_block":
        out = torch.empty(m, n, device="cuda", dtype=torch.float32)
        return (K.block_matmul_kernel,
                (a, a.stride(0), a.stride(1), bv, bv.stride(0), bv.stride(1),
                 out, out.stride(0), out.stride(1), m, k, n),
                dict(BLOCK_SIZE=c["block_m"], **kw), (cd(m, c["block_m"]), cd(n, c["block_m"])), out)
    if kern == "seed003_coalesced":
        out = torch.empty(m, n, device="cuda", dtype=torch.float32)
        return (K.coalesced_block_matmul_kernel,
                (a, a.stride(0), a.stride(1), bt, bt.stride(0), bt.stride(1),
                 out, out.stride(0), out.stride(1), m, k, n),
                dict(BLOCK_SIZE=c["block_m"], **kw), (cd(m, c["block_m"]), cd(n, c["block_m"])), out)
    if kern == "tutorial":
        out = torch.empty(m, n, device="cuda", dtype=a.dtype)
        return (K.tutorial_matmul_kernel,
                (a, bv, out, m, n, k, a.stride(0), a.stride(1), bv.stride(0), bv.stride(1),
                 out.stride(0), out.stride(1)),
                dict(BLOCK_SIZE_M=c["block_m"], BLOCK_SIZE_N=c["block_n"],
                     BLOCK_SIZE_K=c["block_k"], GROUP_SIZE_M=c["group_size_m"],
                     INPUT_PRECISION=c["input_precision"] or "tf32", **kw),
                (cd(m, c["block_m"]) * cd(n, c["block_n"]),), out)
    raise ValueError(kern)


def compile_key(c):
    return (c["kernel"], c["dtype"], c["input_precision"], c["block_m"], c["block_n"],
            c["block_k"], c["group_size_m"], c["b_layout"], c["num_warps"], c["num_stages"],
            c["m"] % 16 == 0, c["n"] % 16 == 0, c["k"] % 16 == 0)


def _precompile_one(c):
    try:
        inp = {"a": torch.empty(c["m"], c["k"] if c["k"] else c["n"], device="cuda",
                                dtype=DT[c["dtype"]])}
        if c["k"]:
            inp["b"] = torch.empty(c["k"], c["n"], device="cuda", dtype=DT[c["dtype"]])
        fn, args, kw, grid, _ = build(c, inp)
        fn.warmup(*args, grid=grid, **kw)
        return None
    except Exception as e:  # noqa: BLE001
        return f'{c["id"]}: {e!r}'[:300]


def precompile(cs, jobs):
    import multiprocessing as mp
    reps = {}
    for c in cs:
        reps.setdefault(compile_key(c), c)
    t0 = time.time()
    with mp.get_context("spawn").Pool(jobs) as pool:
        errs = [e for e in pool.map(_precompile_one, list(reps.values()), chunksize=1) if e]
    print(f"precompiled {len(reps)} kernels in {time.time() - t0:.1f}s, {len(errs)} errors",
          flush=True)
    for e in errs[:10]:
        print("  ", e, flush=True)


def header():
    h = {"date_utc": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
         "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
         "cuda": torch.version.cuda, "triton": triton.__version__,
         "harness_commit": os.environ.get("HARNESS_COMMIT", "unknown"),
         "sm_count": torch.cuda.get_device_properties(0).multi_processor_count,
         "l2_bytes": getattr(torch.cuda.get_device_properties(0), "L2_cache_size", None)}
    try:
        q = subprocess.run(["nvidia-smi", "--query-gpu=driver_version,clocks.max.sm,clocks.max.mem",
                            "--format=csv,noheader"], capture_output=True, text=True, timeout=20)
        h["driver"], h["max_sm_clock"], h["max_mem_clock"] = [x.strip() for x in q.stdout.split(",")]
    except Exception as e:  # noqa: BLE001
        h["driver"] = repr(e)
    src = inspect.getsource(triton.testing.do_bench)
    h["do_bench"] = {"signature": str(inspect.signature(triton.testing.do_bench)),
                     "flushes_l2": "clear_cache" in src or "cache.zero_" in src,
                     "warmup_ms": 25, "rep_ms": 100, "statistic": "median of return_mode='all'"}
    return h


def check(c, inp, out, refs):
    if c["kernel"] in ("copy", "transpose"):
        a = inp["a"]
        want = a if c["kernel"] == "copy" else a.T
        ok = bool(torch.equal(out, want))
        return (0.0 if ok else float("nan")), ok
    key = (c["m"], c["n"], c["k"], c["dtype"])
    if key not in refs:
        refs.clear()
        refs[key] = inp["a"].double() @ inp["b"].double()
    ref = refs[key]
    err = (torch.linalg.norm(out.double() - ref) / torch.linalg.norm(ref)).item()
    tol = TOL[(c["dtype"], c["input_precision"])]
    return err, bool(err == err and err <= tol)


def measure(cs, out_dir, deadline, ncu_mode):
    t_start = time.time()
    cs = sorted(cs, key=lambda c: (input_key(c), c["id"]))
    rec_path = os.path.join(out_dir, "ncu_order.json" if ncu_mode else "records.jsonl")
    f = None if ncu_mode else open(rec_path, "a")
    order, inp, inp_key, refs = [], None, None, {}
    for i, c in enumerate(cs):
        if time.time() - t_start > deadline:
            print(f"deadline: stopped after {i} of {len(cs)}", flush=True)
            break
        rec = {"id": c["id"], "problem": {k: c[k] for k in c if k not in ("id", "ncu")}}
        t0 = time.time()
        try:
            if input_key(c) != inp_key:
                inp, inp_key = None, None
                torch.cuda.empty_cache()
                inp, inp_key = make_inputs(c), input_key(c)
            fn, args, kw, grid, out = build(c, inp)
            ck = fn.warmup(*args, grid=grid, **kw)
            if ncu_mode:
                fn[grid](*args, **kw)
                torch.cuda.synchronize()
                order.append(c["id"])
                continue
            rec["compiler"] = facts.compiled_facts(ck)
            rec["programs"] = int(grid[0] * (grid[1] if len(grid) > 1 else 1))
            if out.is_floating_point():
                out.fill_(float("nan"))
            fn[grid](*args, **kw)
            torch.cuda.synchronize()
            rec["rel_error"], rec["correct"] = check(c, inp, out, refs)
            ts = triton.testing.do_bench(lambda: fn[grid](*args, **kw), warmup=25, rep=100,
                                         return_mode="all")
            ts = sorted(ts)
            rec.update(median_ms=ts[len(ts) // 2] if len(ts) % 2 else 0.5 * (ts[len(ts) // 2 - 1] + ts[len(ts) // 2]),
                       min_ms=ts[0], max_ms=ts[-1], runs=len(ts))
            rec["ok"] = True
        except Exception as e:  # noqa: BLE001 - recorded per configuration
            rec["ok"] = False
            rec["error"] = repr(e)[:400]
            torch.cuda.synchronize()
        rec["wall_s"] = round(time.time() - t0, 3)
        if f:
            f.write(json.dumps(rec) + "\n")
            f.flush()
            print(f'{i:4d} {rec.get("median_ms", -1):9.4f} ms err {rec.get("rel_error", -1):.2e} '
                  f'{rec["wall_s"]:5.1f}s {c["id"]} {rec.get("error", "")[:120]}', flush=True)
    if ncu_mode:
        json.dump(order, open(rec_path, "w"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--deadline", type=float, default=1e9)
    ap.add_argument("--only", type=int, default=0, help="first N configurations (a smoke test)")
    ap.add_argument("--select", default="", help="comma-separated substrings of ids to keep")
    ap.add_argument("--precompile", type=int, default=0, help="compile in J processes first")
    ap.add_argument("--ncu-mode", action="store_true")
    ap.add_argument("--supplement", type=int, nargs="?", const=2, default=0,
                    help="sweep.supplement(N) (N = 2, 3, 14, 15, 18 or 20; bare: 2) instead of the version-1 list")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    cs = sweep.supplement(a.supplement)
    if a.ncu_mode:
        cs = [c for c in cs if c["ncu"]]
    if a.select:
        keys = a.select.split(",")
        cs = [c for c in cs if any(s in c["id"] for s in keys)]
    if a.only:
        cs = cs[:a.only]
    if not a.ncu_mode:
        json.dump(header(), open(os.path.join(a.out, "header.json"), "w"), indent=1)
    if a.precompile:
        precompile(cs, a.precompile)
    measure(cs, a.out, a.deadline, a.ncu_mode)


if __name__ == "__main__":
    main()
