"""The configuration list, generated deterministically (no randomness, no dependence on results).

A configuration is a dict with: kernel, m, n, k (k = 0 for copy/transpose), dtype,
input_precision (fp32 matmuls only, else ""), block_m, block_n, block_k, group_size_m, order,
b_layout, num_warps, num_stages, boundary, ncu (measured under Nsight Compute too).
Letters are tilesim's: C (m x n) = A (m x k) @ B (k x n); copy/transpose move an m x n matrix.
`python3 sweep.py` prints the list's size per kernel and the ncu subset.
"""
import json
import sys

# Shapes (m, n, k) by what they probe.
SQUARE_POW2 = [1024, 2048, 4096, 8192, 16384]
SQUARE_MID = [1536, 2560, 3072, 5120, 6144, 10240, 12288, 14336]  # between and beyond 4k/8k
NONSQUARE = [(8192, 4096, 6144), (4096, 8192, 2048), (2048, 8192, 8192), (16384, 4096, 4096),
             (3072, 12288, 1024), (4096, 4096, 16384), (12288, 2048, 4096), (1024, 16384, 4096),
             (6144, 10240, 3072), (16384, 16384, 2048)]
ODD16 = [(4095, 4095, 4095), (4100, 4100, 4100), (3001, 5003, 2999), (8192, 8192, 8190),
         (4100, 4096, 4096), (4096, 4100, 4096), (4096, 4096, 4100), (8190, 8190, 8190)]
ODD_BLOCK = [(4000, 4000, 4000), (6000, 5008, 3008), (8000, 8000, 8000), (2000, 6000, 4000)]

DTYPES = [("fp16", ""), ("bf16", ""), ("fp32", "tf32"), ("fp32", "ieee")]
G_SIZES = [(2048,) * 3, (3072,) * 3, (4096,) * 3, (6144,) * 3, (8192,) * 3, (10240,) * 3,
           (12288,) * 3, (16384,) * 3, (8192, 4096, 6144), (4096, 8192, 2048),
           (16384, 4096, 4096), (2048, 8192, 8192), (6144, 10240, 3072), (4095, 4095, 4095),
           (8000, 8000, 8000)]
GROUPS = [1, 2, 3, 4, 6, 8, 12, 16]


def _cfg(kernel, m, n, k, dtype="fp16", ip="", bm=128, bn=128, bk=64, g=8, order="grouped",
         b_layout="row-major", w=8, s=3, boundary="wrap"):
    if dtype == "fp32" and not ip and kernel not in ("copy", "transpose"):
        ip = "tf32"  # tl.dot's default for fp32 operands
    if dtype != "fp32":
        ip = ""
    if kernel == "tutorial":
        order = "row-major" if g == 1 else "grouped"
    return dict(kernel=kernel, m=m, n=n, k=k, dtype=dtype, input_precision=ip, block_m=bm,
                block_n=bn, block_k=bk, group_size_m=g, order=order, b_layout=b_layout,
                num_warps=w, num_stages=s, boundary=boundary, ncu=False)


def config_id(c):
    ip = "-" + c["input_precision"] if c["input_precision"] else ""
    return (f'{c["kernel"]}|{c["m"]}x{c["n"]}x{c["k"]}|{c["dtype"]}{ip}|'
            f'{c["block_m"]}x{c["block_n"]}x{c["block_k"]}|G{c["group_size_m"]}|{c["order"]}|'
            f'B-{c["b_layout"]}|w{c["num_warps"]}s{c["num_stages"]}')


def shape_class(c):
    m, n, k = c["m"], c["n"], c["k"]
    dims = [m, n] if c["kernel"] in ("copy", "transpose") else [m, n, k]
    if any(d % 16 for d in dims):
        return "odd16"
    if any(d % 128 for d in dims):
        return "odd_block"
    if len(set(dims)) == 1:
        return "square_pow2" if (m & (m - 1)) == 0 else "square_mid"
    return "nonsquare"


def _tut_blocks(dtype):
    # fp32 tiles are twice the bytes: BLOCK_K 32 keeps 3 stages inside shared memory.
    return dict(bm=128, bn=128, bk=32 if dtype == "fp32" else 64, w=8, s=3)


def configs():
    out = []
    square = [(s, s, s) for s in sorted(SQUARE_POW2 + SQUARE_MID)]
    shapes = square + NONSQUARE + ODD16 + ODD_BLOCK
    # A. Tutorial matmul: every shape x every dtype (G = 8, row-major B).
    for (m, n, k) in shapes:
        for dt, ip in DTYPES:
            if dt == "fp32" and ip == "ieee" and m * n * k > 8192 ** 3:
                continue  # FMA beyond 8192^3 runs ~0.1-1 s a launch; two points kept below
            out.append(_cfg("tutorial", m, n, k, dt, ip, **_tut_blocks(dt)))
    out.append(_cfg("tutorial", 16384, 4096, 4096, "fp32", "ieee", **_tut_blocks("fp32")))
    out.append(_cfg("tutorial", 12288, 12288, 12288, "fp32", "ieee", **_tut_blocks("fp32")))
    # B. Launch order: GROUP_SIZE_M 1..16 (G = 1 is row-major), fp16; bf16 and tf32 at G 1/8.
    for (m, n, k) in G_SIZES:
        for g in GROUPS:
            out.append(_cfg("tutorial", m, n, k, "fp16", g=g, **_tut_blocks("fp16")))
    for (m, n, k) in [(4096,) * 3, (8192,) * 3, (12288,) * 3, (8192, 4096, 6144)]:
        for dt, ip in (("bf16", ""), ("fp32", "tf32")):
            for g in (1, 4, 8, 16):
                out.append(_cfg("tutorial", m, n, k, dt, ip, g=g, **_tut_blocks(dt)))
    # C. B layout: B stored transposed (n x k): every other shape x every dtype at G = 8, and
    #    G 1..16 at five shapes in fp16.
    for (m, n, k) in shapes[::2] + [(8192,) * 3, (4096,) * 3, (8192, 4096, 6144)]:
        for dt, ip in DTYPES:
            if dt == "fp32" and ip == "ieee" and m * n * k > 8192 ** 3:
                continue
            out.append(_cfg("tutorial", m, n, k, dt, ip, b_layout="transposed",
                            **_tut_blocks(dt)))
    for (m, n, k) in [(4096,) * 3, (8192,) * 3, (12288,) * 3, (8192, 4096, 6144),
                      (4095, 4095, 4095)]:
        for g in GROUPS:
            out.append(_cfg("tutorial", m, n, k, "fp16", g=g, b_layout="transposed",
                            **_tut_blocks("fp16")))
    # D. Blocks x warps, and pipelining depth.
    blocks16 = [(64, 64, 32), (64, 128, 32), (128, 64, 32), (128, 128, 32), (64, 256, 32),
                (128, 256, 64), (256, 128, 64), (128, 128, 128), (64, 64, 64), (128, 128, 64)]
    for s_ in (4096, 8192, 4095, 6144):
        for (bm, bn, bk) in blocks16:
            for w in (4, 8):
                out.append(_cfg("tutorial", s_, s_, s_, "fp16", bm=bm, bn=bn, bk=bk, w=w, s=3))
    for s_ in (4096, 8192):
        for (bm, bn, bk) in [(128, 128, 64), (128, 128, 32), (64, 64, 32), (128, 256, 64)]:
            for st in (1, 2, 3, 4, 5):
                out.append(_cfg("tutorial", s_, s_, s_, "fp16", bm=bm, bn=bn, bk=bk, w=8, s=st))
        for dt, ip in (("fp32", "tf32"), ("fp32", "ieee"), ("bf16", "")):
            for (bm, bn, bk) in [(64, 64, 32), (128, 128, 32), (128, 64, 32), (64, 128, 32)]:
                for w in (4, 8):
                    if ip == "ieee" and s_ == 8192:
                        continue
                    out.append(_cfg("tutorial", s_, s_, s_, dt, ip, bm=bm, bn=bn, bk=bk, w=w,
                                    s=3))
            for st in (1, 2, 4):
                out.append(_cfg("tutorial", s_, s_, s_, dt, ip, bm=128, bn=128, bk=32, w=8,
                                s=st))
    for st in (1, 2, 4):
        out.append(_cfg("tutorial", 4095, 4095, 4095, "fp16", w=8, s=st))
    # E. Seed 001's kernel (column-major launch), its two autotune configs.
    for (m, n, k) in [(1024,) * 3, (2048,) * 3, (4096,) * 3, (8192,) * 3, (3072,) * 3,
                      (6144,) * 3, (12288,) * 3, (4095, 4095, 4095), (8192, 4096, 6144),
                      (4000, 4000, 4000), (16384, 4096, 4096)]:
        for (bm, bn, bk) in [(128, 128, 32), (64, 64, 32)]:
            for dt in ("fp16", "bf16"):
                out.append(_cfg("seed001", m, n, k, dt, bm=bm, bn=bn, bk=bk, g=1,
                                order="column-major", w=4, s=4))
    for (m, n, k) in [(4096,) * 3, (8192,) * 3, (4095, 4095, 4095)]:
        out.append(_cfg("seed001", m, n, k, "fp32", "tf32", bm=128, bn=128, bk=32, g=1,
                        order="column-major", w=4, s=4))
    # F. Seed 003's block and "coalesced" pair (fp32 as the seed, BLOCK_SIZE 64; Triton's
    #    default num_warps 4, num_stages 3). The seed's shape is X 8192x6144 @ Y 6144x4096.
    for (m, n, k) in [(8192, 4096, 6144), (4096,) * 3, (2048,) * 3, (8192,) * 3, (6144,) * 3,
                      (4095, 4095, 4095), (4000, 4000, 4000), (3072, 12288, 1024)]:
        for kern, bl in (("seed003_block", "row-major"), ("seed003_coalesced", "transposed")):
            out.append(_cfg(kern, m, n, k, "fp32", "tf32", bm=64, bn=64, bk=64, g=1,
                            order="column-major", b_layout=bl, w=4, s=3, boundary="mask"))
    for kern, bl in (("seed003_block", "row-major"), ("seed003_coalesced", "transposed")):
        for (m, n, k) in [(8192, 4096, 6144), (4096,) * 3]:
            for dt in ("fp16", "bf16"):
                out.append(_cfg(kern, m, n, k, dt, bm=64, bn=64, bk=64, g=1,
                                order="column-major", b_layout=bl, w=4, s=3, boundary="mask"))
            for b in (32, 128):
                out.append(_cfg(kern, m, n, k, "fp32", "tf32", bm=b, bn=b, bk=b, g=1,
                                order="column-major", b_layout=bl, w=4, s=3, boundary="mask"))
    # G. Seed 000's matmul fragment: fp32, input_precision="ieee".
    for (m, n, k) in [(1024,) * 3, (2048,) * 3, (3072,) * 3, (4096,) * 3, (4095, 4095, 4095),
                      (2000, 6000, 4000)]:
        out.append(_cfg("seed000_matmul", m, n, k, "fp32", "ieee", bm=64, bn=64, bk=32, g=1,
                        order="column-major", w=4, s=3, boundary="mask"))
    # H. Seed 000's copy (BLOCK_SIZE 64) and transpose (BLOCK_SIZE 32), and other blocks.
    for kern, b in (("copy", 64), ("transpose", 32)):
        for s_ in (1024, 2048, 3072, 4095, 4096, 6144, 8192, 12288, 16384, 4100, 5000):
            for dt in ("fp32", "fp16"):
                out.append(_cfg(kern, s_, s_, 0, dt, bm=b, bn=b, bk=1, g=1,
                                order="column-major", w=4, s=3, boundary="mask"))
        for s_ in (4096, 8192):
            for bb in (16, 32, 64, 128):
                out.append(_cfg(kern, s_, s_, 0, "fp32", bm=bb, bn=bb, bk=1, g=1,
                                order="column-major", w=4, s=3, boundary="mask"))
    for (m, n) in [(4096, 8192), (8192, 2048), (16384, 1024), (3001, 5003)]:
        for dt in ("fp32", "fp16"):
            out.append(_cfg("transpose", m, n, 0, dt, bm=32, bn=32, bk=1, g=1,
                            order="column-major", w=4, s=3, boundary="mask"))
    # Deduplicate by id, keeping the first.
    seen, uniq = set(), []
    for c in out:
        cid = config_id(c)
        if cid not in seen:
            seen.add(cid)
            c["id"] = cid
            c["shape_class"] = shape_class(c)
            uniq.append(c)
    _mark_ncu(uniq)
    return uniq


def supplement_v2():
    """Configurations added on 2026-11-27 (docs/TRITON_SPLIT.md, version 2), every one of them in
    the fit set, at shapes version 1 never lists: fit-set evidence for two mechanisms the
    version-1 fit set had no case of. (1) Tiles staged through registers with 2-byte loads (no
    dimension a multiple of 16) at blocks and warps whose registers spill, and their neighbours
    that do not: 3001^3, every block of sweep D at 4 and 8 warps. (2) No software pipeline
    (num_stages = 1) with two or more programs per SM: 7168^3, fp16 and tf32. All under ncu."""
    out = []
    blocks16 = [(64, 64, 32), (64, 128, 32), (128, 64, 32), (128, 128, 32), (64, 256, 32),
                (128, 256, 64), (256, 128, 64), (128, 128, 128), (64, 64, 64), (128, 128, 64)]
    for (bm, bn, bk) in blocks16:
        for w in (4, 8):
            out.append(_cfg("tutorial", 3001, 3001, 3001, "fp16", bm=bm, bn=bn, bk=bk, w=w, s=3))
    for (bm, bn, bk) in [(64, 64, 32), (128, 128, 32), (128, 128, 64), (128, 256, 64)]:
        for st in (1, 2):
            out.append(_cfg("tutorial", 7168, 7168, 7168, "fp16", bm=bm, bn=bn, bk=bk, w=8, s=st))
    for (bm, bn, bk) in [(64, 64, 32), (128, 128, 32)]:
        for st in (1, 3):
            out.append(_cfg("tutorial", 7168, 7168, 7168, "fp32", "tf32", bm=bm, bn=bn, bk=bk,
                            w=8, s=st))
    out.append(_cfg("tutorial", 7168, 7168, 7168, "fp16", bm=128, bn=128, bk=64, w=4, s=1))
    return _supplement_marked(out, 2, ncu=True)


def supplement_v3():
    """Configurations added on 2026-11-28 (docs/TRITON_SPLIT.md, version 3), every one of them in
    the fit set: the spill census's blocks timed. 3001^3 fp16 (2-byte loads through registers,
    no software pipeline), BLOCK_M and BLOCK_N in {64, 128, 256}, BLOCK_K in {32, 64, 128}, 4 and
    8 warps, 3 stages, G = 8: what ptxas's in-loop reloads cost, at a shape the test set never
    lists. Timed only (no ncu): the census gives each loop's local loads."""
    out = []
    for bm in (64, 128, 256):
        for bn in (64, 128, 256):
            for bk in (32, 64, 128):
                for w in (4, 8):
                    out.append(_cfg("tutorial", 3001, 3001, 3001, "fp16", bm=bm, bn=bn, bk=bk,
                                    w=w, s=3))
    return _supplement_marked(out, 3, ncu=False)


def supplement_v14():
    """Configurations added on 2026-11-29 (docs/TRITON_SPLIT.md, version 14), every one of them in
    the fit set: 2-byte and 4-byte output stores behind 16-byte cp.async loads, a combination the
    version-1 fit set has no case of (only the test set's 4096 x 4100 x 4096 with B transposed).
    3072 x 3076 x 3072 (N a multiple of 4, not of 16: st.global of one element; K a multiple of
    16 and B transposed, so both tiles load 16 bytes at a time) and its control 3072 x 3088 x
    3072 (16-byte stores), fp16 and tf32, blocks and warps of the sweep's wgmma range: the
    registers ptxas gives the epilogue's per-element stores, and the time. Timed only."""
    out = []
    blocks = [(64, 64, 32, 4), (64, 128, 32, 4), (64, 128, 32, 8), (128, 64, 32, 4),
              (128, 128, 32, 4), (128, 128, 32, 8), (128, 128, 64, 4), (128, 128, 64, 8),
              (64, 256, 32, 4), (128, 256, 64, 8), (256, 128, 64, 8)]
    for n in (3076, 3088):
        for (bm, bn, bk, w) in blocks:
            for dt in ("fp16", "fp32"):
                out.append(_cfg("tutorial", 3072, n, 3072, dt, bm=bm, bn=bn, bk=bk, w=w, s=3,
                                b_layout="transposed"))
    return _supplement_marked(out, 14, ncu=False)


def supplement_v15():
    """Configurations added on 2026-11-29 (docs/TRITON_SPLIT.md, version 15), every one of them in
    the fit set: the pipeline depth a lone wgmma program needs. 3072 x 3076 x 3072 (one-element
    stores: the epilogue's registers hold a 128 x 128 tile at 8 warps to one program an SM) and
    its control 3072 x 3088 x 3072 (two an SM where shared memory allows), B transposed (16-byte
    cp.async tiles), fp16 128 x 128 x 32 and x 64 and tf32 128 x 128 x 32 at 8 warps, 2 to 6
    stages. If a lone program's K step waits on its tiles' round trip, its time falls with the
    stages until (stages - 1) dots cover it; if it pays a cost of its own that a second program
    hides, the stages do not matter. Timed only."""
    out = []
    for n in (3076, 3088):
        for (dt, bk) in (("fp16", 32), ("fp16", 64), ("fp32", 32)):
            for s in (2, 3, 4, 5, 6):
                out.append(_cfg("tutorial", 3072, n, 3072, dt, bm=128, bn=128, bk=bk, w=8, s=s,
                                b_layout="transposed"))
    return _supplement_marked(out, 15, ncu=False)


def supplement_v18():
    """Configurations added on 2026-11-29 (docs/TRITON_SPLIT.md, version 18), every one of them in
    the fit set: what a lone program's round trip is. fp16 128 x 128 x 32 at 8 warps, B
    transposed, one-element stores (one program an SM), 2 to 6 stages, K = 8192 so the loop
    dominates, at a light L2 load (1024 x 1028: 72 programs, one wave on 132 SMs) and a heavy
    one (3072 x 3076: 600 programs). If the light launch's K step at 2 stages is as long as the
    heavy one's, the round trip is the loop's own wait chain; if much shorter, the L2's latency
    under load. Timed only."""
    out = []
    for (m, n) in ((1024, 1028), (3072, 3076)):
        for s in (2, 3, 4, 5, 6):
            out.append(_cfg("tutorial", m, n, 8192, "fp16", bm=128, bn=128, bk=32, w=8, s=s,
                            b_layout="transposed"))
    return _supplement_marked(out, 18, ncu=False)


def supplement_v20():
    """Configurations added on 2026-11-29 (docs/TRITON_SPLIT.md, version 20), every one of them in
    the fit set: what a second program on an SM hides of a wgmma K step, over a kernel's
    duration. One wave each: 1536 x 1408 (12 x 11 = 132 programs, one an SM) and 3072 x 1408
    (264, two an SM), K = 1024 to 65536 (16 to 2048 K steps: tens of microseconds to
    milliseconds, as the clock falls), fp16 128 x 128 x 64 B row-major and tf32 128 x 128 x 32
    B transposed, 8 warps, 3 stages. A lone program's K step is the pipe's time and whatever the
    pipe does not hold; a pair's, per program, half the SM's. Timed only."""
    out = []
    for (dt, bk, bl) in (("fp16", 64, "row-major"), ("fp32", 32, "transposed")):
        for m in (1536, 3072):
            for k in (1024, 4096, 16384, 65536):
                out.append(_cfg("tutorial", m, 1408, k, dt, bm=128, bn=128, bk=bk, w=8, s=3,
                                b_layout=bl))
    return _supplement_marked(out, 20, ncu=False)


def _supplement_marked(cs, version, ncu):
    """A supplement's configurations with their id, shape class, ncu flag and version."""
    for c in cs:
        c["id"] = config_id(c)
        c["shape_class"] = shape_class(c)
        c["ncu"] = ncu
        c["supplement"] = version
    return cs


def supplement(version):
    """The supplement of that version (2, 3, 14, 15, 18 or 20); 0: the version-1 list (configs())."""
    return {0: configs, 2: supplement_v2, 3: supplement_v3, 14: supplement_v14,
            15: supplement_v15, 18: supplement_v18, 20: supplement_v20}[version]()


def _mark_ncu(cs):
    """The Nsight Compute subset, by rule: (1) for every (kernel, shape class, dtype+precision,
    b_layout) the first configuration in list order whose m*n*k is at most 16384*8192*8192;
    (2) every fp16 tutorial configuration of the launch-order sweep (G_SIZES x GROUPS, both B
    layouts, base blocks 128x128x64 w8 s3): DRAM bytes per G at every size; (3) the blocks x
    warps sweep at 4096^3; (4) every seed 003 configuration; (5) every copy and transpose."""
    keys = set()
    for c in cs:
        vol = c["m"] * c["n"] * max(c["k"], 1)
        key = (c["kernel"], c["shape_class"], c["dtype"], c["input_precision"], c["b_layout"])
        if key not in keys and vol <= 16384 * 8192 * 8192:
            keys.add(key)
            c["ncu"] = True
    gset = set(G_SIZES)
    for c in cs:
        base = (c["block_m"], c["block_n"], c["block_k"], c["num_warps"], c["num_stages"]) == \
            (128, 128, 64, 8, 3)
        if c["kernel"] == "tutorial" and c["dtype"] == "fp16" and base and \
                (c["m"], c["n"], c["k"]) in gset:
            c["ncu"] = True
        if c["kernel"] == "tutorial" and c["dtype"] == "fp16" and c["m"] == c["n"] == c["k"] == 4096 \
                and c["num_stages"] == 3 and c["b_layout"] == "row-major" and c["group_size_m"] == 8:
            c["ncu"] = True
        if c["kernel"].startswith("seed003") or c["kernel"] in ("copy", "transpose"):
            c["ncu"] = True


if __name__ == "__main__":
    cs = configs()
    by = {}
    for c in cs:
        by.setdefault(c["kernel"], [0, 0])
        by[c["kernel"]][0] += 1
        by[c["kernel"]][1] += c["ncu"]
    print(json.dumps(by))
    print(len(cs), "configurations,", sum(c["ncu"] for c in cs), "under ncu")
    if len(sys.argv) > 1:
        for c in cs:
            print(c["id"], c["shape_class"], "ncu" if c["ncu"] else "")
