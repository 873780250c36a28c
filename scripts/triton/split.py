"""Fit / test split of sweep.py's configurations, by the rule in docs/TRITON_SPLIT.md.

The rule reads only the configuration list (never a measurement or a prediction):
1. Held-out shapes. Configurations are grouped by family (matmul: every matmul kernel
   together; copy; transpose) and shape class (sweep.shape_class). Within each group the
   distinct shapes (m, n, k) are sorted by (m*n*k, m, n, k); the shapes at odd positions
   (2nd, 4th, ...) are test shapes, and every configuration at a test shape is test.
2. Held-out variations. A configuration at a fit shape is test when the first 8 hex digits of
   sha256 of its variation key, read as an integer, are divisible by 5 (1 in 5). The key is its
   id without GROUP_SIZE_M, launch order and B layout, so a G = 1 / G = 8 pair and a B / B^T
   pair always land on the same side.
`python3 split.py` prints the counts per class; `split.assign(configs)` returns {id: "fit"|"test"}.
"""
import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep  # noqa: E402


def family(c):
    return c["kernel"] if c["kernel"] in ("copy", "transpose") else "matmul"


def variation_key(c):
    ip = "-" + c["input_precision"] if c["input_precision"] else ""
    return (f'{c["kernel"]}|{c["m"]}x{c["n"]}x{c["k"]}|{c["dtype"]}{ip}|'
            f'{c["block_m"]}x{c["block_n"]}x{c["block_k"]}|w{c["num_warps"]}s{c["num_stages"]}')


def test_shapes(configs):
    groups = {}
    for c in configs:
        groups.setdefault((family(c), c["shape_class"]), set()).add((c["m"], c["n"], c["k"]))
    held = set()
    for (fam, cls), shapes in groups.items():
        ordered = sorted(shapes, key=lambda s: (s[0] * s[1] * max(s[2], 1), s))
        for i, s in enumerate(ordered):
            if i % 2 == 1:
                held.add((fam, cls, s))
    return held


def assign(configs):
    held = test_shapes(configs)
    out = {}
    for c in configs:
        if (family(c), c["shape_class"], (c["m"], c["n"], c["k"])) in held:
            out[c["id"]] = "test"
        elif int(hashlib.sha256(variation_key(c).encode()).hexdigest()[:8], 16) % 5 == 0:
            out[c["id"]] = "test"
        else:
            out[c["id"]] = "fit"
    return out


if __name__ == "__main__":
    cs = sweep.configs()
    sp = assign(cs)
    by = {}
    for c in cs:
        k = (family(c), c["shape_class"])
        by.setdefault(k, [0, 0])
        by[k][sp[c["id"]] == "test"] += 1
    for k, (f, t) in sorted(by.items()):
        print(f"{k[0]:10s} {k[1]:12s} fit {f:4d} test {t:4d}")
    nt = sum(v == "test" for v in sp.values())
    print(f"total {len(sp)}: test {nt} ({100 * nt / len(sp):.0f} %)")
    for fam_cls, sh in sorted((f"{f}/{c}", s) for f, c, s in test_shapes(cs)):
        print("  test shape", fam_cls, "x".join(map(str, sh)))
