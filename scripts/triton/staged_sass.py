"""Does Triton pipeline a tile it stages through registers? (issue 25)

At sizes whose strides are not multiples of 16 (4095^3 fp16), Triton loads the tutorial matmul's
tiles with 2-byte `ld.global` into registers and stores them to shared memory itself; TTGIR shows
no shared buffers for a pipeline. The model runs such a tile without one (every K step waits for
its load's round trip). Whether the loop issues the next K step's loads before this step's wgmma
(a pipeline in registers) is in the machine code's order, which this prints: the compiled
kernel's SASS main loop (the block that branches back to itself), as runs of instruction kinds
in program order, for the configurations below, with the ptxas registers and spills.

Usage (GPU, repo root): python3 scripts/triton/staged_sass.py OUT_DIR
Writes OUT_DIR/staged_sass.txt (the runs, per configuration) and one .sass file per
configuration (the loop's instructions).
"""
import os
import re
import subprocess
import sys
import tempfile

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels  # noqa: E402

# (m = n = k, BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CASES = [
    (4095, 128, 128, 64, 8, 3),
    (4095, 128, 128, 64, 8, 1),
    (4095, 128, 64, 32, 4, 3),
    (4096, 128, 128, 64, 8, 1),
    (4096, 128, 128, 64, 8, 3),
]

KINDS = ["LDGSTS", "LDGDEPBAR", "DEPBAR", "LDG", "STS", "LDS", "LDSM", "HGMMA", "WARPGROUP",
         "BAR", "LDL", "STL", "SYNCS", "BRA"]


def kind(op):
    for k in KINDS:
        if op.startswith(k):
            return k
    return None


def loop_body(sass):
    """The instructions of the longest block that ends in a branch back to its own start."""
    lines = sass.splitlines()
    addr_re = re.compile(r"/\*([0-9a-f]{4,})\*/\s*([^;]*);")
    ins = []
    labels = {}
    for ln in lines:
        m = addr_re.search(ln)
        if m:
            ins.append((int(m.group(1), 16), m.group(2).strip()))
        lm = re.match(r"\s*\.?(L_x_\d+|L_\w+):", ln)
        if lm:
            labels[lm.group(1)] = len(ins)
    best = []
    for i, (_, text) in enumerate(ins):
        bm = re.search(r"BRA\s+(?:`\()?\.?(L_x_\d+|L_\w+)", text)
        if bm and bm.group(1) in labels and labels[bm.group(1)] <= i:
            body = ins[labels[bm.group(1)]:i + 1]
            if len(body) > len(best):
                best = body
    return best


def runs(body):
    out = []
    for _, text in body:
        op = text.split()[0] if not text.startswith("@") else text.split()[1]
        k = kind(op)
        if k is None:
            continue
        if out and out[-1][0] == k:
            out[-1][1] += 1
        else:
            out.append([k, 1])
    return " ".join(f"{k}x{n}" if n > 1 else k for k, n in out)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    report = []
    for n, bm, bn, bk, w, s in CASES:
        a = torch.randn((n, n), device="cuda", dtype=torch.float16)
        b = torch.randn((n, n), device="cuda", dtype=torch.float16)
        c = torch.empty((n, n), device="cuda", dtype=torch.float16)
        grid = (triton.cdiv(n, bm) * triton.cdiv(n, bn),)
        ck = kernels.tutorial_matmul_kernel[grid](
            a, b, c, n, n, n, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
            c.stride(0), c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
            GROUP_SIZE_M=8, INPUT_PRECISION="ieee", num_warps=w, num_stages=s)
        torch.cuda.synchronize()
        err = (c.float() - (a.float() @ b.float())).abs().max().item()
        with tempfile.NamedTemporaryFile(suffix=".cubin", delete=False) as fh:
            fh.write(ck.asm["cubin"])
            cubin = fh.name
        sass = ""
        for cmd in (["cuobjdump", "-sass", cubin], ["nvdisasm", "-c", cubin]):
            r = subprocess.run(cmd, capture_output=True, text=True)
            if "/*" in r.stdout:
                sass = r.stdout
                break
            print(" ".join(cmd[:2]), "gave nothing:", r.stderr.strip()[:200], flush=True)
        body = loop_body(sass)
        name = f"{n}_{bm}x{bn}x{bk}_w{w}_s{s}"
        with open(os.path.join(out, name + ".sass"), "w") as fh:
            fh.write("\n".join(f"/*{a_:04x}*/ {t};" for a_, t in body) + "\n" if body else sass)
        line = (f"{name}: regs {ck.n_regs} spills {ck.n_spills} shared {ck.metadata.shared} "
                f"max_err {err:.3g} loop {len(body)} instructions: {runs(body)}")
        print(line, flush=True)
        report.append(line)
    with open(os.path.join(out, "staged_sass.txt"), "w") as fh:
        fh.write("\n".join(report) + "\n")


if __name__ == "__main__":
    main()
