"""Why ptxas serialises a Triton wgmma loop: its own words (warning C7515), per dot.

python3 wgmma_serial.py --out DIR [--census]

Compiles the tutorial matmul (128 x 128 tiles, 8 warps, 3 stages: fp16 x 64 and x 32 with B
row-major, tf32 x 32 with B row-major and transposed), writes each PTX to DIR, and runs Triton's
own ptxas on it for sm_90a with --verbose; DIR/wgmma_serial.json keeps, per dot, ptxas's
"Potential Performance Loss" lines (empty: not serialised) and the SASS's count of WARPGROUP
waits (`DEPBAR`) against its HGMMA instructions (cuobjdump of the cubin Triton built).
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels  # noqa: E402


def tool(name):
    """Triton's bundled NVIDIA tool (ptxas, cuobjdump) or the one on PATH."""
    base = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", name)
    return base if os.path.exists(base) else name


def census(out_dir):
    """Every distinct compiled tf32 matmul of the sweep and its supplements (measure.py's
    compile key: kernel, blocks, warps, stages, B layout, divisibility): ptxas's C7515 line and
    the SASS's WARPGROUP counts, a JSON line each in DIR/census.jsonl."""
    import measure  # noqa: E402
    import sweep  # noqa: E402
    seen, rows = set(), []
    cs = sweep.configs() + [c for v in (2, 3, 14, 15, 18, 20) for c in sweep.supplement(v)]
    for c in cs:
        if c["dtype"] != "fp32" or c["input_precision"] != "tf32" or not c["k"]:
            continue
        key = measure.compile_key(c)
        if key in seen:
            continue
        seen.add(key)
        inp = {"a": torch.empty(c["m"], c["k"], device="cuda", dtype=torch.float32),
               "b": torch.empty(c["k"], c["n"], device="cuda", dtype=torch.float32)}
        fn, args, kw, grid, _ = measure.build(c, inp)
        ck = fn.warmup(*args, grid=grid, **kw)
        ptx = os.path.join(out_dir, "census.ptx")
        open(ptx, "w").write(ck.asm["ptx"])
        p = subprocess.run([tool("ptxas"), "-arch=sm_90a", "--verbose", ptx, "-o",
                            os.path.join(out_dir, "census.cubin")], capture_output=True, text=True)
        cubin = os.path.join(out_dir, "census_triton.cubin")
        open(cubin, "wb").write(ck.asm["cubin"])
        sass = subprocess.run([tool("cuobjdump"), "-sass", cubin], capture_output=True,
                              text=True).stdout
        row = {"id": c["id"], "key": list(key), "ptxas_rc": p.returncode,
               "serialized": any("C7515" in ln for ln in (p.stdout + p.stderr).splitlines()),
               "hgmma": len(re.findall(r"HGMMA\.", sass)),
               "depbar": len(re.findall(r"WARPGROUP\.DEPBAR", sass)),
               "arrive": len(re.findall(r"WARPGROUP\.ARRIVE", sass))}
        # ptxas is run here on its own (its flags may differ from Triton's); the cubin Triton
        # built must agree: a WARPGROUP wait after every HGMMA exactly where C7515 is printed.
        waits_each = row["hgmma"] > 0 and row["depbar"] == row["hgmma"]
        row["sass_agrees"] = waits_each == row["serialized"]
        rows.append(row)
        print(json.dumps(row), flush=True)
        del inp
        torch.cuda.empty_cache()
    with open(os.path.join(out_dir, "census.jsonl"), "w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
    for f in glob.glob(os.path.join(out_dir, "census*.*")):
        if not f.endswith(".jsonl"):
            os.remove(f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--census", action="store_true",
                    help="every distinct compiled tf32 matmul of the sweep and its supplements")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    if a.census:
        census(a.out)
        return
    res = []
    for (dt, bk, bt) in (("fp16", 64, False), ("fp16", 32, False), ("fp32", 32, False),
                         ("fp32", 32, True)):
        m, n, k = 1536, 1408, 4096
        t = {"fp16": torch.float16, "fp32": torch.float32}[dt]
        x = torch.randn(m, k, device="cuda", dtype=t)
        y = torch.randn(n, k, device="cuda", dtype=t).T if bt else torch.randn(k, n, device="cuda", dtype=t)
        z = torch.empty(m, n, device="cuda", dtype=t)
        ck = kernels.tutorial_matmul_kernel[((m // 128) * (n // 128),)](
            x, y, z, m, n, k, x.stride(0), x.stride(1), y.stride(0), y.stride(1),
            z.stride(0), z.stride(1), BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=bk,
            GROUP_SIZE_M=8, INPUT_PRECISION="tf32", num_warps=8, num_stages=3)
        torch.cuda.synchronize()
        name = f"{dt}_k{bk}_{'bt' if bt else 'b'}"
        ptx = os.path.join(a.out, name + ".ptx")
        open(ptx, "w").write(ck.asm["ptx"])
        p = subprocess.run([tool("ptxas"), "-arch=sm_90a", "--verbose", ptx, "-o",
                            os.path.join(a.out, name + ".cubin")], capture_output=True, text=True)
        loss = [ln.strip() for ln in (p.stdout + p.stderr).splitlines() if "Performance Loss" in ln]
        cubin = os.path.join(a.out, name + "_triton.cubin")
        open(cubin, "wb").write(ck.asm["cubin"])
        s = subprocess.run([tool("cuobjdump"), "-sass", cubin], capture_output=True, text=True).stdout
        rec = {"dot": name, "ptxas_rc": p.returncode, "performance_loss": loss,
               "hgmma": len(re.findall(r"HGMMA\.", s)), "depbar": len(re.findall(r"WARPGROUP\.DEPBAR", s)),
               "arrive": len(re.findall(r"WARPGROUP\.ARRIVE", s)),
               "wgmma_wait_group_ptx": len(re.findall(r"wgmma\.wait_group", ck.asm["ptx"]))}
        res.append(rec)
        print(json.dumps(rec), flush=True)
    json.dump(res, open(os.path.join(a.out, "wgmma_serial.json"), "w"), indent=1)
    for f in glob.glob(os.path.join(a.out, "*.cubin")):
        os.remove(f)


if __name__ == "__main__":
    main()
