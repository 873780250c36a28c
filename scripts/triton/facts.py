"""What the compiler chose, read off a compiled Triton kernel (its asm dict and metadata).

PTX counts are static (instructions in the listing, not executed); what matters is which widths
and which matrix instructions appear at all.
"""
import re
from collections import Counter

_LD = re.compile(r"\b(ld|st)\.global((?:\.[a-z0-9:_]+)*)")
_CPASYNC = re.compile(r"cp\.async\.(?:ca|cg)\.shared\.global[^\[]*\[[^\]]*\],\s*\[[^\]]*\],\s*(0x[0-9a-fA-F]+|\d+)")
_SHARED = re.compile(r"\b(ld|st)\.shared((?:\.[a-z0-9:_]+)*)")
_WGMMA = re.compile(r"wgmma\.mma_async\.sync\.aligned\.(m\d+n\d+k\d+)\.([a-z0-9]+)\.([a-z0-9]+)\.([a-z0-9]+)")
_MMA = re.compile(r"\bmma\.sync\.aligned\.(m\d+n\d+k\d+)(?:\.row\.col)?\.([a-z0-9]+)\.([a-z0-9]+)\.([a-z0-9]+)")
_MEMDESC = re.compile(r"ttg\.local_alloc[^\n]*?!ttg\.memdesc<([0-9x]+)x(f16|bf16|f32)")
_ARGDIV = re.compile(r"%arg(\d+): [^{,)]*\{tt\.divisibility = (\d+) : i32")


def _width_bytes(mods):
    parts = mods.strip(".").split(".")
    vec, bits = 1, None
    for p in parts:
        if p.startswith("v") and p[1:].isdigit():
            vec = int(p[1:])
        m = re.fullmatch(r"[bfus](\d+)", p)
        if m:
            bits = int(m.group(1))
    return vec * (bits // 8) if bits else None


def ptx_facts(ptx):
    ld, st, lds, sts = Counter(), Counter(), Counter(), Counter()
    for op, mods in _LD.findall(ptx):
        (ld if op == "ld" else st)[str(_width_bytes(mods))] += 1
    for op, mods in _SHARED.findall(ptx):
        (lds if op == "ld" else sts)[str(_width_bytes(mods))] += 1
    cp = Counter(str(int(x, 0)) for x in _CPASYNC.findall(ptx))
    wg = Counter(".".join(t) for t in _WGMMA.findall(ptx))
    mma = Counter(".".join(t) for t in _MMA.findall(ptx))
    fma = len(re.findall(r"\bfma\.rn\.f32\b", ptx))
    if wg:
        dot = "wgmma"
    elif mma:
        dot = "mma.sync"
    elif fma:
        dot = "fma"
    else:
        dot = "none"
    return {
        "global_load_bytes": dict(ld), "global_store_bytes": dict(st),
        "cp_async_bytes": dict(cp), "tma_copies": ptx.count("cp.async.bulk.tensor"),
        "shared_load_bytes": dict(lds), "shared_store_bytes": dict(sts),
        "ldmatrix": len(re.findall(r"\bldmatrix\.", ptx)),
        "stmatrix": len(re.findall(r"\bstmatrix\.", ptx)),
        "dot_instruction": dot, "wgmma": dict(wg), "mma_sync": dict(mma), "fma_f32": fma,
    }


def ttgir_facts(ttgir):
    aliases = {}
    for line in ttgir.splitlines():
        if line.startswith("#") and " = " in line and not line.startswith("#loc"):
            name, val = line.split(" = ", 1)
            aliases[name.strip()] = val.strip()
    bufs = [m for m in _MEMDESC.findall(ttgir)]
    allocs = []
    for dims, ty in bufs:
        allocs.append({"shape": [int(x) for x in dims.split("x")], "dtype": ty})
    # Buffers in flight: the leading dimension of the 3-d shared allocations (A and B tiles).
    depths = sorted({a["shape"][0] for a in allocs if len(a["shape"]) == 3})
    mma_layouts = [v for v in aliases.values() if "nvidia_mma" in v]
    shared = [v for v in aliases.values() if "shared" in v]
    blocked = [v for v in aliases.values() if v.startswith("#ttg.blocked")]
    div = {}
    for arg, d in _ARGDIV.findall(ttgir):
        div[arg] = int(d)
    return {
        "layouts": aliases,
        "mma_layout": mma_layouts, "shared_layouts": shared, "blocked_layouts": blocked,
        "shared_allocs": allocs, "pipeline_buffers": depths,
        "warp_group_dot": ttgir.count("ttng.warp_group_dot "),
        "tt_dot": len(re.findall(r"\btt\.dot\b", ttgir)),
        "async_copy": ttgir.count("ttg.async_copy_global_to_local"),
        "tma_load": ttgir.count("async_tma_copy_global_to_local"),
        "trans_ops": len(re.findall(r"\btt\.trans\b|ttg\.memdesc_trans", ttgir)),
        "arg_divisibility": div,
    }


def compiled_facts(ck):
    """Facts of a triton CompiledKernel: registers, spills, shared bytes, PTX and TTGIR facts."""
    out = {}
    try:
        ck._init_handles()
    except Exception as e:  # noqa: BLE001 - recorded, not fatal
        out["init_error"] = repr(e)[:200]
    md = ck.metadata
    for key in ("num_warps", "num_stages", "num_ctas", "shared", "maxnreg"):
        v = getattr(md, key, None)
        if v is not None:
            out[key] = v
    out["n_regs"] = getattr(ck, "n_regs", None)
    out["n_spills"] = getattr(ck, "n_spills", None)
    asm = ck.asm
    out["ptx"] = ptx_facts(asm.get("ptx", ""))
    out["ttgir"] = ttgir_facts(asm.get("ttgir", ""))
    return out
