"""Does Triton pipeline a tile it stages through registers? (issue 25)

At sizes whose strides are not multiples of 16 (4095^3 fp16), Triton loads the tutorial matmul's
tiles with 2-byte `ld.global` into registers and stores them to shared memory itself; TTGIR shows
no shared buffers for a pipeline. The model runs such a tile without one (every K step waits for
its load's round trip). Whether the loop issues the next K step's loads before this step's wgmma
(a pipeline in registers) is in the machine code's order, which this prints: the compiled
kernel's SASS main loop (the block that branches back to itself), as runs of instruction kinds
in program order, for the configurations below, with the ptxas registers and spills.

Usage (GPU, repo root): python3 scripts/triton/staged_sass.py OUT_DIR [N,BM,BN,BK,W,S ...]
(the configurations to compile, fp16 at m = n = k = N; default: CASES below)
Writes OUT_DIR/staged_sass.txt (the runs, per configuration, and the PTX loop's beside them) and
one .sass file per configuration (its whole listing: one function, the kernel).
Again from saved listings (no GPU): python3 scripts/triton/staged_sass.py --parse *.sass
A census (register spills, issue 25): OUT_DIR/staged_sass.jsonl has a line per configuration with
ptxas's registers and spill bytes and the loop's SASS opcodes counted (LDL: the local loads a
thread makes each K step; STL: its local stores), written as each compiles, and how the loop
waits for its local reloads (local_waits: round trips in series a K step; --parse prints them).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

# (m = n = k, BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)
CASES = [
    (4095, 128, 128, 64, 8, 3),
    (4095, 128, 128, 64, 8, 1),
    (4095, 128, 64, 32, 4, 3),
    (4096, 128, 128, 64, 8, 1),
    (4096, 128, 128, 64, 8, 3),
]

# Longer names before their prefixes (LDGSTS before LDG, LDSM before LDS).
KINDS = ["LDGSTS", "LDGDEPBAR", "DEPBAR", "LDG", "STS", "LDSM", "LDS", "HGMMA", "WARPGROUP",
         "BAR", "LDL", "STL", "SYNCS", "BRA"]


def loop_body(sass):
    """The instructions of the longest loop: a branch back to an earlier address (cuobjdump
    prints its target as an address, `BRA 0x4070`; nvdisasm as a label, `BRA `(.L_x_3)`)."""
    addr_re = re.compile(r"/\*([0-9a-f]{4,})\*/\s*([^;]*);")
    ins = []
    labels = {}
    for ln in sass.splitlines():
        m = addr_re.search(ln)
        if m:
            ins.append((int(m.group(1), 16), m.group(2).strip()))
        lm = re.match(r"\s*\.?(L_x_\d+|L_\w+):", ln)
        if lm:
            labels[lm.group(1)] = len(ins)
    index = {a: j for j, (a, _) in enumerate(ins)}  # address -> position
    best = []
    for i, (addr, text) in enumerate(ins):
        start = None
        am = re.search(r"BRA(?:\.\w+)*\s+0x([0-9a-f]+)", text)
        if am and int(am.group(1), 16) < addr:
            start = index.get(int(am.group(1), 16))
        lm = re.search(r"BRA(?:\.\w+)*\s+(?:`\()?\.?(L_x_\d+|L_\w+)", text)
        if lm and lm.group(1) in labels and labels[lm.group(1)] <= i:
            start = labels[lm.group(1)]
        if start is not None and i + 1 - start > len(best):
            best = ins[start:i + 1]
    return best


def run_lengths(ops, kinds):
    """Runs of instruction kinds, "LDGx32 BAR ...": each op (its first word, a predicate
    skipped) counted under the first kind it starts with; ops of no listed kind are left out."""
    out = []
    for text in ops:
        words = text.split()
        predicated = len(words) > 1 and words[0].startswith("@")
        op = words[1] if predicated else (words or [""])[0]
        k = next((k for k in kinds if op.startswith(k)), None)
        if k is None:
            continue
        if out and out[-1][0] == k:
            out[-1][1] += 1
        else:
            out.append([k, 1])
    return " ".join(f"{k}x{n}" if n > 1 else k for k, n in out)


def opcode_counts(body):
    """How many of each opcode (its first word with its suffixes, a predicate skipped)."""
    counts = {}
    for _, text in body:
        words = text.split()
        op = words[1] if len(words) > 1 and words[0].startswith("@") else (words or [""])[0]
        counts[op] = counts.get(op, 0) + 1
    return counts


REG_RE = re.compile(r"\bR(\d+)(\.64|\.128)?")
LOCAL_RE = re.compile(r"\[R1(?:\+(0x[0-9a-f]+))?\]")  # ptxas addresses spill slots from R1
# Ops with no register result: every register they name is read.
NO_RESULT = ("STL", "STS", "STG", "BAR", "BRA", "WARPGROUP", "MEMBAR", "FENCE", "HGMMA")


def registers(operands, op=""):
    """The registers an operand list names; R12.64 is R12 and R13. `op`'s own width (LDL.64)
    widens a result register given plain."""
    found = list(REG_RE.finditer(operands))
    out = []
    for m in found:
        width = {None: 1, ".64": 2, ".128": 4}[m.group(2)]
        out += range(int(m.group(1)), int(m.group(1)) + width)
    if op and len(found) == 1 and found[0].group(2) is None and (".64" in op or ".128" in op):
        out = list(range(out[0], out[0] + (2 if ".64" in op else 4)))
    return out


def local_waits(body):
    """How a spilling loop waits for its local reloads, in one pass in program order (one warp,
    in-order issue: an instruction that reads a register a load has not yet returned waits for it,
    and then for every load issued before that one). Counts, a K step: `local_loads` (LDL*),
    `local_waits` (instructions that wait for an LDL's result: each a round trip in series),
    `loads_per_wait` (how many reloads one such round trip covers) and `same_step_reloads`
    (LDLs of a slot an STL wrote earlier in the same iteration: a store and a reload in series)."""
    pending = {}  # register -> (kind, issue order)
    order = loads = waits = same_step = 0
    stored = set()
    for _, text in body:
        words = text.split()
        if words and words[0].startswith("@"):
            words = words[1:]
        if not words:
            continue
        op, operands = words[0], " ".join(words[1:])
        parts = operands.split(",", 1)
        if op.startswith(NO_RESULT):
            dst, src = [], registers(operands)
        else:
            dst, src = registers(parts[0], op), registers(parts[1] if len(parts) > 1 else "")
        waited = [pending[r] for r in src if r in pending]
        if waited:
            waits += any(kind == "LDL" for kind, _ in waited)
            last = max(q for _, q in waited)
            pending = {r: v for r, v in pending.items() if v[1] > last}
        for r in dst:
            pending.pop(r, None)
        slot = LOCAL_RE.search(operands)
        if op.startswith(("LDL", "LDG")):
            order += 1
            for r in dst:
                pending[r] = (op[:3], order)
        if op.startswith("LDL"):
            loads += 1
            same_step += slot is not None and slot.group(1) in stored
        elif op.startswith("STL") and slot is not None:
            stored.add(slot.group(1))
    return {"local_loads": loads, "local_waits": waits,
            "loads_per_wait": round(loads / waits, 2) if waits else 0.0,
            "same_step_reloads": same_step}


def runs(body):
    return run_lengths((text for _, text in body), KINDS)


PTX_KINDS = ["ld.global", "st.shared", "ld.shared", "cp.async", "wgmma.fence", "wgmma.commit",
             "wgmma.wait", "wgmma.mma_async", "bar.sync", "ld.local", "st.local", "bra"]


def ptx_loop_runs(ptx):
    """The same runs for the PTX's longest loop (a label and the branch back to it)."""
    lines = [ln.strip() for ln in ptx.splitlines()]
    labels = {}
    for i, ln in enumerate(lines):
        m = re.match(r"(\$L__\w+):", ln)
        if m:
            labels[m.group(1)] = i
    best = (0, 0)
    for i, ln in enumerate(lines):
        m = re.search(r"bra(?:\.uni)?\s+(\$L__\w+);", ln)
        start = labels.get(m.group(1), i) if m else i
        if start < i and i - start > best[1] - best[0]:
            best = (start, i)
    return best[1] - best[0], run_lengths(lines[best[0]:best[1] + 1], PTX_KINDS)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if sys.argv[1] == "--parse":  # SASS listings saved before: their loops again
        for path in sys.argv[2:]:
            body = loop_body(open(path).read())
            print(f"{os.path.basename(path)}: loop {len(body)} instructions: {runs(body)}")
            print(f"  local reloads: {json.dumps(local_waits(body))}")
        return
    import torch
    import triton
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import kernels

    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    cases = [tuple(int(x) for x in a.split(",")) for a in sys.argv[2:]] or CASES
    report = []
    for n, bm, bn, bk, w, s in cases:
        a = torch.randn((n, n), device="cuda", dtype=torch.float16)
        b = torch.randn((n, n), device="cuda", dtype=torch.float16)
        c = torch.empty((n, n), device="cuda", dtype=torch.float16)
        grid = (triton.cdiv(n, bm) * triton.cdiv(n, bn),)
        try:
            ck = kernels.tutorial_matmul_kernel[grid](
                a, b, c, n, n, n, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                c.stride(0), c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                GROUP_SIZE_M=8, INPUT_PRECISION="ieee", num_warps=w, num_stages=s)
        except Exception as e:  # out of resources (shared memory): Triton's own message
            print(f"{n}_{bm}x{bn}x{bk}_w{w}_s{s}: {type(e).__name__}: {str(e)[:160]}", flush=True)
            continue
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
            fh.write(sass)  # the whole listing: --parse finds the loop again
        line = (f"{name}: regs {ck.n_regs} spills {ck.n_spills} shared {ck.metadata.shared} "
                f"max_err {err:.3g} loop {len(body)} instructions: {runs(body)}")
        n_ptx, ptx_runs = ptx_loop_runs(ck.asm["ptx"])
        line += f"\n  PTX loop {n_ptx} lines: {ptx_runs}"
        print(line, flush=True)
        report.append(line)
        ops = opcode_counts(body)
        kinds = {k: sum(v for o, v in ops.items() if o.startswith(k)) for k in ("LDL", "STL")}
        census = {"n": n, "block_m": bm, "block_n": bn, "block_k": bk, "num_warps": w,
                  "num_stages": s, "regs": ck.n_regs, "spill_bytes": ck.n_spills,
                  "shared": ck.metadata.shared, "max_err": err, "loop_instructions": len(body),
                  "loop_local_loads": kinds["LDL"], "loop_local_stores": kinds["STL"],
                  "kernel_local_loads": sass.count("LDL"), "kernel_local_stores": sass.count("STL"),
                  **{k: v for k, v in local_waits(body).items() if k != "local_loads"},
                  "loop_opcodes": ops}
        with open(os.path.join(out, "staged_sass.jsonl"), "a") as fh:
            fh.write(json.dumps(census) + "\n")
    with open(os.path.join(out, "staged_sass.txt"), "w") as fh:
        fh.write("\n".join(report) + "\n")


if __name__ == "__main__":
    main()
