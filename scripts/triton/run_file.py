#!/usr/bin/env python3
"""Run a Triton kernel file with real Triton at the launch tilesim simulates it at, check it and time it.

usage: run_file.py FILE.py [FILE.py ...] [--function NAME] [--arg NAME=VALUE ...] --out OUT.json

The launch is the one `tilesim-cli run --triton FILE.py` reads: the file's `# launch:` comment
lines, then `--arg` words (later words win), each NAME=VALUE:
  - a pointer argument names a 2-d tensor, ROWSxCOLS:DTYPE[:strides=S0,S1] (fp16 | bf16 | fp32),
  - grid=G or grid=G0,G1[,G2], num_warps=W, num_stages=S,
  - anything else is an integer, or a string in quotes (the tutorial's ACTIVATION="").
Every pointer argument gets fresh random values (the last one, the output, NaN first: a lane the
kernel does not write shows). The output is checked against a float64 reference on the CPU when
the tensors' shapes say what the kernel is: two tensors of one shape a copy, of transposed shapes a
transpose, three with X (p, q), Y (q, r) or (r, q) and Z (p, r) the matmul X @ Y or X @ Y^T.
Then `triton.testing.do_bench` times it (median, L2 flushed between runs). One JSON record per
file, with the GPU, driver, Triton and PyTorch versions and the date, for the app's GPU panel.
Runs where PyTorch and Triton are (the device machine); no tilesim binary needed.
"""
import argparse
import datetime
import importlib.util
import json
import os
import re
import subprocess
import sys

DTYPES = {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32"}
TENSOR = re.compile(r"^(\d+)x(\d+):(fp16|bf16|fp32)(?::strides=(\d+),(\d+))?$")


def launch_words(path, extra):
    """The file's `# launch:` words, then --arg words; later words win."""
    words = {}
    for line in open(path, encoding="utf-8"):
        s = line.strip()
        if s.startswith("# launch:"):
            for w in s[len("# launch:"):].split():
                name, _, value = w.partition("=")
                words[name] = value
    for w in extra:
        name, _, value = w.partition("=")
        words[name] = value
    return words


META = ("grid", "num_warps", "num_stages")


def load_kernel(path, function, words):
    import triton
    spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # An @triton.autotune'd kernel (the tutorial's) runs as its own @triton.jit function, at the
    # launch's block sizes: the one configuration tilesim simulates, not the autotuner's pick.
    jitted = {}
    for n, v in vars(module).items():
        v = getattr(v, "fn", v) if type(v).__name__ == "Autotuner" else v
        if isinstance(v, triton.runtime.jit.JITFunction):
            jitted[n] = v
    if function:
        if function not in jitted:
            raise ValueError(f"{path}: no @triton.jit function {function} (has: {', '.join(jitted)})")
        return function, jitted[function]
    # Several (the tutorial's matmul and its leaky_relu): the one whose parameters the launch names.
    names = {n for n in words if n not in META}
    fits = {n: f for n, f in jitted.items() if names <= set(f.arg_names)}
    if len(fits) != 1:
        raise ValueError(f"{path}: {len(jitted)} @triton.jit functions ({', '.join(jitted)}), "
                         f"{len(fits)} taking the launch's arguments: name one with --function")
    return next(iter(fits.items()))


def make_args(words, torch, gen):
    """Tensors (random, on the GPU), integers and strings from the launch words, and the launch."""
    args, tensors = {}, []
    grid, warps, stages = None, 4, 3
    for name, value in words.items():
        if name == "grid":
            grid = tuple(int(x) for x in value.split(","))
        elif name == "num_warps":
            warps = int(value)
        elif name == "num_stages":
            stages = int(value)
        elif TENSOR.match(value):
            rows, cols, dt, s0, s1 = TENSOR.match(value).groups()
            rows, cols = int(rows), int(cols)
            strides = (int(s0), int(s1)) if s0 else (cols, 1)
            size = (rows - 1) * strides[0] + (cols - 1) * strides[1] + 1
            flat = torch.randn(size, generator=gen, device="cpu").to(getattr(torch, DTYPES[dt]))
            t = torch.as_strided(flat.cuda(), (rows, cols), strides)
            args[name] = t
            tensors.append(name)
        elif len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            args[name] = value[1:-1]
        else:
            args[name] = int(value)
    if grid is None:
        raise ValueError("the launch names no grid (grid=G or grid=G0,G1)")
    return args, tensors, grid, warps, stages


def reference(args, tensors, torch):
    """What the output should be, in float64 on the CPU, and which operation that is."""
    ts = [args[n].double().cpu() for n in tensors]
    if len(ts) == 2 and ts[0].shape == ts[1].shape:
        return "copy", ts[0]
    if len(ts) == 2 and ts[0].shape == ts[1].shape[::-1]:
        return "transpose", ts[0].t()
    if len(ts) == 3:
        x, y, z = ts
        if x.shape[1] == y.shape[0] and z.shape == (x.shape[0], y.shape[1]):
            return "matmul X @ Y", x @ y
        if x.shape[1] == y.shape[1] and z.shape == (x.shape[0], y.shape[0]):
            return "matmul X @ Y^T", x @ y.t()
    return None, None


def gpu_header(torch, triton):
    try:
        driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                                capture_output=True, text=True).stdout.strip().splitlines()[0]
    except (OSError, IndexError):
        driver = ""
    return {"gpu": torch.cuda.get_device_name(0), "driver": driver, "triton": triton.__version__,
            "torch": torch.__version__,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}


def run_one(path, function, extra, torch, triton):
    words = launch_words(path, extra)
    name, kernel = load_kernel(path, function, words)
    gen = torch.Generator().manual_seed(0x7157)
    args, tensors, grid, warps, stages = make_args(words, torch, gen)
    out = tensors[-1] if tensors else None
    record = {"file": os.path.basename(path), "function": name,
              "launch": " ".join(f"{k}={v}" for k, v in words.items()),
              "grid": list(grid), "num_warps": warps, "num_stages": stages}

    def launch():
        kernel[grid](**args, num_warps=warps, num_stages=stages)

    if out is not None:
        args[out].fill_(float("nan"))
    launch()
    torch.cuda.synchronize()
    op, ref = reference(args, tensors, torch)
    record["reference"] = op or "none (the tensors' shapes name no copy, transpose or matmul)"
    if op:
        got = args[out].double().cpu()
        scale = max(ref.abs().max().item(), 1e-30)
        rel = (got - ref).abs().max().item() / scale if not got.isnan().any() else float("inf")
        # fp16 / bf16 outputs round to 2^-8 relative, tf32 dots to about 2^-11 per product.
        record["rel_error"] = rel
        record["correct"] = rel < 2e-2
    record["median_ms"] = triton.testing.do_bench(launch, return_mode="median")
    return record


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--function", default="")
    ap.add_argument("--arg", action="append", default=[])
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    import torch
    import triton
    import triton.testing  # noqa: F401
    records = []
    for f in a.files:
        try:
            r = run_one(f, a.function, a.arg, torch, triton)
        except Exception as e:  # one file's failure is that file's record, not the run's end
            r = {"file": os.path.basename(f), "error": f"{type(e).__name__}: {e}"[:400]}
        print(json.dumps(r), flush=True)
        records.append(r)
    json.dump({"format": "tilesim-triton-files/1", "header": gpu_header(torch, triton),
               "records": records}, open(a.out, "w"), indent=1)


if __name__ == "__main__":
    main()
